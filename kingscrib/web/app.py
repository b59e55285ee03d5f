"""The FastAPI application: routers, storage, limits and the page.

>>> app = create_app(Settings(database_url="sqlite:///:memory:"))  # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from kingscrib.web.limits import TokenBucket
from kingscrib.web.rooms import Hub, WebError
from kingscrib.web.routers import aftergame, games, live, meta
from kingscrib.web.storage import Store

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("kingscrib.web")


@dataclass
class Settings:
    """How a server runs. ``database_url`` None: SQLite in the user's data folder."""

    database_url: str | None = None
    computer_delay: float = 0.4  # seconds a computer waits before moving (for people to see)
    ai_threads: int = 2
    allow_seed: bool = False  # let a new game choose its seed (tests, benchmarks)
    max_body: int = 16 * 1024  # bytes
    rate_per_second: float = 20.0  # per connection
    rate_burst: float = 40.0
    resume: bool = True  # load unfinished games at start so computer seats carry on


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        # Build the engine's hand table now rather than during someone's first move.
        from kingscrib.kings.hands import hand_table

        hand_table()
        hub = Hub(store, settings.computer_delay, settings.ai_threads, settings.allow_seed)
        app.state.hub = hub
        if settings.resume:
            count = await hub.resume_all()
            if count:
                log.info("resumed %d unfinished games", count)
        try:
            yield
        finally:
            await hub.close()
            store.close()

    app = FastAPI(title="Kingscrib", version="1", lifespan=lifespan,
                  summary="Kings Cribbage and Cribbage in the browser: games, seats, live updates.")
    app.state.settings = settings
    app.include_router(meta.router)
    app.include_router(games.router)
    app.include_router(live.router)
    app.include_router(aftergame.router)

    @app.exception_handler(WebError)
    async def web_error(_request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            problems.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        return JSONResponse({"error": "; ".join(problems) or "bad request"}, status_code=422)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(LimitMiddleware, max_body=settings.max_body,
                       rate=settings.rate_per_second, burst=settings.rate_burst)
    return app


class LimitMiddleware:
    """Refuse HTTP bodies over ``max_body`` bytes (413) and more than ``rate`` requests a
    second per connection (429), before any route sees them."""

    def __init__(self, app: Any, max_body: int, rate: float, burst: float) -> None:
        self.app, self.max_body, self.rate, self.burst = app, max_body, rate, burst
        self.buckets: dict[tuple[str, int], TokenBucket] = {}

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = scope.get("client") or ("?", 0)
        key = (client[0], client[1])
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        if not bucket.allow():
            return await _reply(send, 429, "too many requests: slow down")
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.max_body
            except ValueError:
                return await _reply(send, 400, "bad Content-Length")
            if too_big:
                return await _reply(send, 413, f"request body over {self.max_body} bytes")
        seen = 0
        refused = False

        async def limited_receive() -> dict:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    refused = True
                    raise _TooBig()
            return message

        try:
            await self.app(scope, limited_receive, send)
        except _TooBig:
            await _reply(send, 413, f"request body over {self.max_body} bytes")


class _TooBig(Exception):
    pass


async def _reply(send: Any, status: int, message: str) -> None:
    import json

    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def run(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None,
        log_level: str = "info") -> None:
    """Serve until interrupted."""
    import gc

    import uvicorn

    app = create_app(settings)
    # The garbage collector's full passes scan every tracked object: the modules, tables
    # and routes loaded by now (about 90,000 objects) never become garbage, so they are
    # moved out of its sight, and it runs less often (a full pass over 200 games took
    # 0.3 s under load: every move waiting for it).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    uvicorn.run(app, host=host, port=port, log_level=log_level,
                ws_max_size=64 * 1024, ws_per_message_deflate=False, proxy_headers=False)
