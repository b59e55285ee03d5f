"""A database that cannot be reached: every route answers 503 with a JSON message saying
what could not be done, never a 500 with a traceback.

The store's calls go through one thread (``Hub.db_call``), which turns the errors of an
unreachable database (refused or lost connections, a full connection pool, SQLite's
locked or unreadable file) into :func:`unavailable`; the app answers any that escape
another way with the same JSON 503 (``kingscrib.web.app.factory``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import exc

from kingscrib.web.errors import WebError

# What a store call was doing, as a person reads it, by the call's name.
_WHAT = {
    "create_game": "the game could not be created",
    "allow_game": "the game could not be created",
    "load": "the game could not be loaded",
    "take_seat": "the seat could not be taken",
    "finish": "the end of the game could not be stored",
    "rematch": "the rematch could not be looked up",
    "set_rematch": "the rematch could not be stored",
    "analysis": "the analysis could not be read",
    "set_analysis": "the analysis could not be stored",
    "delete_game": "the game could not be cancelled",
    "open_socket": "the live connection could not be opened",
    "seat_owners": "the seat could not be checked",
    "account_of": "your log-in could not be checked",
}
DEFAULT_WHAT = "the request could not be completed"


def database_down(error: BaseException) -> bool:
    """The error says the database cannot be reached (not that a request was wrong)."""
    if isinstance(error, exc.OperationalError | exc.InterfaceError | exc.TimeoutError
                  | exc.DisconnectionError):
        return True
    return isinstance(error, exc.DBAPIError) and bool(error.connection_invalidated)


def message(what: str = DEFAULT_WHAT) -> str:
    return (f"{what}: the database cannot be reached right now; nothing was changed,"
            " try again in a moment")


def reported(error: BaseException) -> bool:
    """The error is an unreachable database's 503, logged once already where the call
    failed (``Hub.db_call``): a loop retrying every second need not log it again."""
    return isinstance(error, WebError) and error.status == 503


def unavailable(call: Any) -> WebError:
    """The 503 for a store call (a function, or its name) that met an unreachable
    database."""
    name = call if isinstance(call, str) else getattr(call, "__name__", "")
    return WebError(503, message(_WHAT.get(name, DEFAULT_WHAT)))
