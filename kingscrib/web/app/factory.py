"""The FastAPI application: routers, storage, limits and the page.

>>> app = create_app(Settings(database_url="sqlite:///:memory:"))  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLTimeoutError
from starlette.middleware.gzip import GZipMiddleware

from kingscrib.web import pages
from kingscrib.web.accounts import routes as accounts
from kingscrib.web.accounts.hooks import AccountHooks
from kingscrib.web.app import meta_routes as meta
from kingscrib.web.chat import moderation_routes as moderation
from kingscrib.web.chat import routes as chat
from kingscrib.web.chat.rooms import ChatHub
from kingscrib.web.db.storage import Store
from kingscrib.web.errors import WebError
from kingscrib.web.lessons import routes as learn
from kingscrib.web.lobby import routes as lobby
from kingscrib.web.lobby.live import Lobby
from kingscrib.web.mail import routes as correspondence
from kingscrib.web.mail import turn_mail
from kingscrib.web.mail.turn_mail import MailSettings
from kingscrib.web.paths import STATIC
from kingscrib.web.play import aftergame_routes as aftergame
from kingscrib.web.play import game_routes as games
from kingscrib.web.play import live_routes as live
from kingscrib.web.play.actions import describe
from kingscrib.web.play.endings import check_clocks
from kingscrib.web.play.games.warm_up import warm_up as warm_up_engines
from kingscrib.web.play.rooms import Hub
from kingscrib.web.puzzles import routes as puzzles
from kingscrib.web.puzzles import store as puzzle_store
from kingscrib.web.ratings import player_routes as players
from kingscrib.web.ratings import store as ratings_store
from kingscrib.web.server import metrics, outage
from kingscrib.web.server.connections import ConnectionCounts, ConnectionSettings, guarded_protocol
from kingscrib.web.server.deps import provide_store_calls
from kingscrib.web.server.edge import EdgeMiddleware
from kingscrib.web.server.limits import AddressLimits, LimitSettings
from kingscrib.web.server.logs import log_config
from kingscrib.web.server.proxies import parse_proxies
from kingscrib.web.server.shared_limits import share_limits
from kingscrib.web.tournaments import routes as tournaments
from kingscrib.web.tournaments import store as tournament_store
from kingscrib.web.tournaments.director import direct

log = logging.getLogger("kingscrib.web")


@dataclass
class Settings:
    """How a server runs. ``database_url`` None: SQLite in the user's data folder."""

    database_url: str | None = None
    computer_delay: float = 0.4  # seconds a computer waits before moving (for people to see)
    ai_threads: int = 2
    allow_seed: bool = False  # let a new game choose its seed (tests, benchmarks)
    max_body: int = 16 * 1024  # bytes
    limits: LimitSettings = field(default_factory=LimitSettings)
    trusted_proxies: str | None = None  # addresses whose X-Forwarded-For is believed
    trust_any_proxy: bool = False  # let trusted_proxies be every address (kingscrib.web.server.proxies)
    # Deadlines for slow clients, and open HTTP connections per address (connections.py).
    connections: ConnectionSettings = field(default_factory=ConnectionSettings)
    # Games are rebuilt when first touched, so start-up does not grow with the database.
    resume: bool = False  # True: load every unfinished game at start (computers carry on)
    idle_timeout: float = 7 * 24 * 3600.0  # seconds untouched before a game is closed
    evict_after: float = 600.0  # seconds untouched before a room leaves memory
    sweep_every: float = 60.0  # seconds between two housekeeping passes
    clock_every: float = 1.0  # seconds between two looks for clocks that ran out
    # Seconds between two "this process is alive" beats: the clocks are not charged for
    # the time no process was alive; on PostgreSQL the beats also count the processes
    # sharing the limits.
    alive_every: float = 5.0
    # SMTP for the turn notices of correspondence games (None: no e-mail is sent).
    mail: MailSettings | None = None
    # Seconds between two passes of the tournament director (it also runs as soon as a
    # game ends here); 0: no director in this process (tests drive it by hand).
    tournament_every: float = 1.0


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        # Nobody is charged for the time the server was down (docs/web.md).
        given = store.restart_clocks(time.time(), 3 * settings.alive_every)
        if given:
            log.info("clocks moved on by %.0f s, the time the server was down", given)
        warm_up_engines()  # the engine's tables now rather than during someone's first move
        hub = Hub(store, settings.computer_delay, settings.ai_threads, settings.allow_seed,
                  settings.limits.hints_waiting, settings.limits.computer_games,
                  settings.limits.reviews_waiting, settings.limits.computer_moves_per_second)
        hub.unrate_shared_addresses = settings.limits.unrate_shared_addresses
        app.state.hub = hub
        provide_store_calls(app.state, hub)  # what the domains below the live game use
        hub.start_listening()  # PostgreSQL: other server processes' moves reach us
        app.state.lobby = Lobby(hub)  # seeks, games to watch, online: live everywhere
        await app.state.lobby.start()
        app.state.chat = ChatHub(hub)
        app.state.chat.start()  # PostgreSQL: the other processes' chat reaches us
        if settings.mail is not None:
            hub.turn_watchers.append(turn_mail.watcher(hub, settings.mail))
        # PostgreSQL: websockets and games an hour counted for all processes together.
        shared = share_limits(store, hub.db_call, app.state.limits, settings.alive_every)
        beating = None
        if shared is not None:
            await shared.beat()
            beating = asyncio.create_task(shared.keep_beating())
        if settings.resume:
            count = await hub.resume_all()
            if count:
                log.info("resumed %d unfinished games", count)
        sweeping = asyncio.create_task(_housekeeping(hub, settings))
        # On PostgreSQL the shared limits' beat says this process is alive.
        timing = asyncio.create_task(_clocks(hub, settings, note_alive=shared is None))
        directing = (asyncio.create_task(direct(hub, settings.tournament_every))
                     if settings.tournament_every > 0 else None)
        try:
            yield
        finally:
            sweeping.cancel()
            await app.state.lobby.stop()
            timing.cancel()
            if directing is not None:
                directing.cancel()
            if beating is not None:
                beating.cancel()
            if shared is not None:
                await shared.leave()
            app.state.chat.stop()
            await hub.close()
            store.stopping(time.time())
            store.close()

    # The interactive docs load scripts from a CDN, which the page's CSP forbids: the
    # schema stays at /openapi.json.
    app = FastAPI(title="Kingscrib", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None,
                  summary="Kings Cribbage and Cribbage in the browser: games, seats, live updates.")
    app.state.settings = settings
    # Deleting an account: the domains that keep rows about it forget it in the same
    # transaction, and the rooms held in memory show its seats' new names.
    app.state.account_hooks = AccountHooks(
        forget=(ratings_store.forget_account, puzzle_store.forget,
                tournament_store.forget_account),
        seats_renamed=lambda game_ids: _rename_seats(app.state.hub, game_ids),
        withdraw_banned=tournament_store.withdraw_everywhere)
    app.include_router(meta.router)
    app.include_router(games.router)
    app.include_router(live.router)
    app.include_router(aftergame.router)
    app.include_router(accounts.router)
    app.include_router(players.router)
    app.include_router(puzzles.router)
    app.include_router(learn.router)
    app.include_router(lobby.router)
    app.include_router(chat.router)
    app.include_router(moderation.router)
    app.include_router(correspondence.router)
    app.include_router(tournaments.router)

    @app.exception_handler(WebError)
    async def web_error(_request: Request, exc: WebError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def database_unreachable(_request: Request, exc: Exception) -> JSONResponse:
        """A store call made outside the store's thread (which maps its own) met an
        unreachable database: the same JSON 503, never a 500 with a traceback."""
        log.warning("database unreachable: %s", type(exc).__name__)
        return JSONResponse({"error": outage.message()}, status_code=503)

    for unreachable in (OperationalError, InterfaceError, SQLTimeoutError):
        app.add_exception_handler(unreachable, database_unreachable)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": describe(exc)}, status_code=422)

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        body, content_type = metrics.exposition()
        return Response(body, media_type=content_type)

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> HTMLResponse:
        # The front door shows from the first paint; a game, an invitation or a replay
        # (the same page) is opened by its script.
        opens = {"game", "replay"} & set(request.query_params.keys())
        return pages.render("lobby", front=not opens)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.state.limits = AddressLimits(settings.limits)
    # The pages, their scripts and styles and the API's replies travel compressed to a
    # browser that accepts gzip (some 135 KiB less on a game page: its first paint
    # sooner on a slow line); websockets are left as they are.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(EdgeMiddleware, max_body=settings.max_body,
                       rate=settings.limits.rate_per_second, burst=settings.limits.rate_burst,
                       addresses=app.state.limits)
    return app


async def _rename_seats(hub: Hub, game_ids: list[str]) -> None:
    """The rooms in memory of these games take their seats' new names."""
    for game_id in game_ids:
        room = hub.rooms.get(game_id)
        if room is not None:
            with contextlib.suppress(WebError):
                await hub.refresh(room, rebuild=True)


async def _housekeeping(hub: Hub, settings: Settings) -> None:
    while True:
        await asyncio.sleep(settings.sweep_every)
        try:
            closed = await hub.sweep(settings.idle_timeout, settings.evict_after)
            if closed:
                log.info("closed %d games left untouched", len(closed))
            settled = await hub.settle_missed()
            if settled:
                log.info("recorded the outcome of %d finished games", settled)
        except Exception as e:
            if not outage.reported(e):
                log.exception("housekeeping failed")


async def _clocks(hub: Hub, settings: Settings, note_alive: bool = True) -> None:
    """End the games whose clock ran out, and (``note_alive``) note now and then that this
    server is alive (after a restart the clocks are moved on by the time no server was)."""
    noted = 0.0
    while True:
        await asyncio.sleep(settings.clock_every)
        try:
            if note_alive and time.time() - noted >= settings.alive_every:
                noted = time.time()
                await hub.db_call(hub.store.note_alive, noted)
            ended = await check_clocks(hub)
            if ended:
                log.info("%d games ended on time", len(ended))
        except Exception as e:
            if not outage.reported(e):
                log.exception("the clock check failed")


def run(host: str = "127.0.0.1", port: int = 8000, settings: Settings | None = None,
        log_level: str = "info", log_format: str = "text") -> None:
    """Serve until interrupted. ``log_format`` "json": one JSON object a log line."""
    import gc

    import uvicorn

    from kingscrib.web.db.premigrate import migrate_apart

    settings = settings or Settings()
    migrate_apart(settings.database_url)  # this process then never loads Alembic
    app = create_app(settings)
    # The garbage collector's full passes scan every tracked object: the modules, tables
    # and routes loaded by now (about 90,000 objects) never become garbage, so they are
    # moved out of its sight, and it runs less often (a full pass over 200 games took
    # 0.3 s under load: every move waiting for it).
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    if log_format == "json":  # warnings too become log lines, not free text on stderr
        logging.captureWarnings(True)
    proxies = (parse_proxies(settings.trusted_proxies, settings.trust_any_proxy)
               if settings.trusted_proxies is not None else None)
    counts = ConnectionCounts(settings.connections, trusted=proxies or frozenset())
    uvicorn.run(app, host=host, port=port, log_level=log_level,
                http=guarded_protocol(counts),
                # uvicorn counts the idle keep-alive in whole seconds
                timeout_keep_alive=math.ceil(settings.connections.keep_alive_timeout),
                ws_max_size=64 * 1024, ws_per_message_deflate=False,
                proxy_headers=proxies is not None,
                forwarded_allow_ips=proxies.uvicorn_setting() if proxies else "",
                log_config=log_config(log_format, log_level))
