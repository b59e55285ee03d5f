"""The composition root of the server: the app factory and its settings, the lifespan's
wiring, the routers' registration, the registry of every table, and the health and meta
routes.

It sits on top of the web's domain packages and is the only package that imports them
all; the domains below it reach what the app provides (the store's thread, the account
deletion's hooks) through small typed accessors on ``app.state`` (``server.deps``,
``accounts.hooks``) that this package fills in (``factory.create_app``).
"""
