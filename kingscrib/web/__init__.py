"""The web front end: a FastAPI server, its storage and the browser page.

Start it with ``kingscrib serve`` (see ``docs/web.md``). The engine knows nothing
of HTTP: :mod:`kingscrib.web.play.rooms` drives it, the routes translate requests.
One package per domain (``server``, ``db``, ``play``, ``accounts``, ``lobby``,
``chat``, ``ratings``, ``tournaments``, ``puzzles``, ``lessons``, ``mail``) under the
composition root ``app``.

``from kingscrib.web import Settings, create_app`` loads the app when first asked for,
so that importing a part of the package (the rating maths, say) needs no FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kingscrib.web.app.factory import Settings, create_app

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from kingscrib.web.app import factory

        return getattr(factory, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
