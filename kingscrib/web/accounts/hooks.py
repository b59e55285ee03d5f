"""What the other domains do when an account is deleted or banned.

Accounts sit below the domains that keep rows about an account (ratings, puzzles,
tournaments) and below the live game, so they never import them: each of those provides
a hook, and the composition root (:mod:`kingscrib.web.app.factory`) hands the hooks to
the app. :func:`kingscrib.web.accounts.store.remove` runs the ``forget`` hooks in the
deleting transaction; the account route then awaits ``seats_renamed`` with the games
whose seats now read "deleted player". A ban runs ``withdraw_banned`` (the tournaments
the banned account leaves: never paired again, no bye).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from fastapi import Request
from sqlalchemy.engine import Engine

from kingscrib.web.accounts.store import ForgetAccount

__all__ = ["AccountHooks", "ForgetAccount", "account_hooks"]


async def _nothing(_game_ids: list[str]) -> None:
    return None


def _withdrawn_nowhere(_engine: Engine, _account_id: int) -> list[int]:
    return []


@dataclass(frozen=True)
class AccountHooks:
    forget: Sequence[ForgetAccount] = ()
    # The games whose seats changed names (the rooms held in memory take the new names).
    seats_renamed: Callable[[list[str]], Awaitable[None]] = _nothing
    # A banned account leaves what it entered; the ids of the tournaments it left.
    withdraw_banned: Callable[[Engine, int], list[int]] = _withdrawn_nowhere


async def account_hooks(request: Request) -> AccountHooks:
    """The hooks the composition root gave the app (a route's dependency)."""
    hooks: AccountHooks = request.app.state.account_hooks
    return hooks
