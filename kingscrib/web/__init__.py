"""The web front end: a FastAPI server, its storage and the browser page.

Start it with ``kingscrib serve`` (see ``docs/web.md``). The engine knows nothing
of HTTP: :mod:`kingscrib.web.play.rooms` drives it, the routers translate requests.
"""

from __future__ import annotations

from kingscrib.web.server.app import Settings, create_app

__all__ = ["Settings", "create_app"]
