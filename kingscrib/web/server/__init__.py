"""The server's low-level pieces, below every domain: the HTTP edge, limits, connections,
proxies, outages, metrics, logs, and what every route may ask of the app (``deps``). The
app factory that composes the domains is :mod:`kingscrib.web.app`."""
