"""Replays for the page to step through.

A game record sent by the page: the record's game (``"game"``, RULES.md Part 3) checks
it turn by turn and gives back its turns as its page shows them; games that offer it
have a ``replay`` method (Kings: :mod:`.games.kings_replay`; Cribbage:
:mod:`.games.cribbage_replay`). A hosted game, finished or live up to now: sessions that
offer ``"replay"`` give its steps as everyone saw the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kingscrib.core import ALIASES
from kingscrib.web.accounts.names import shown_seat_name
from kingscrib.web.errors import WebError
from kingscrib.web.play.games import DEFAULT_GAME, game_kind, game_names, hosted_name
from kingscrib.web.play.games.protocol import Session
from kingscrib.web.play.rooms import Hub


def replay_of_record(record: Any) -> dict[str, Any]:
    """``{"game", "rules", "seats", "history", "end"}`` of a record; WebError(400) with the
    engine's reason when the record is not a valid game of a kind that replays."""
    if not isinstance(record, dict):
        raise WebError(400, "a game record is a JSON object (RULES.md Part 3)")
    replayable = [name for name in game_names() if hasattr(game_kind(name), "replay")]
    said = record.get("game", DEFAULT_GAME)
    name = hosted_name(said)  # a Cribbage record says "classic" (RULES.md Part 3)
    if name is None or name not in replayable:
        titles = " and ".join(game_kind(n).title for n in replayable)
        names = " or ".join(repr(n) for n in replayable)
        older = "".join(f", {a!r} for {g!r}" for a, g in ALIASES.items() if g in replayable)
        raise WebError(400, f'only {titles} records ("game": {names}{older}) can be replayed'
                            f" here, not {said!r}")
    players = record.get("players")
    return shown_seats(game_kind(name).replay(record), name,
                       players if isinstance(players, list) else [])


def shown_seats(replay: dict[str, Any], game: str, players: list[Any]) -> dict[str, Any]:
    """``replay`` with its computer seats named as the pages show them (by their level's
    title: kingscrib.web.accounts.names.shown_seat_name); ``players``: each seat's ``kind`` and
    ``level``, as a record holds them. The record itself keeps its names."""
    for seat in replay.get("seats", []):
        i = seat.get("seat")
        player = players[i] if isinstance(i, int) and 0 <= i < len(players) else None
        if isinstance(player, dict) and player.get("kind") == "computer":
            level = player.get("level")
            seat["name"] = shown_seat_name(game, seat["name"], "computer",
                                           level if isinstance(level, str) else None)
    return replay


async def replay_of_session(hub: Hub, session: Session, address: str,
                            game: str = "", seats: Sequence[Any] = ()) -> dict[str, Any]:
    """The hosted game's steps: its inputs copied on the event loop (the game goes on),
    the steps worked out in the lane of analyses and replays, as ``address``'s work.
    WebError(400) when the game does not offer them, 429 past the address's replays and
    analyses waiting. ``seats``: the table's (kind and level), to name computers by their
    level's title."""
    if "replay" not in session.offers:
        raise session.refusal("replay")
    steps = await hub.work.review(session.replay_steps, session.replay_input(),
                                  address=address, game=game)
    players = [{"kind": s.kind, "level": s.level} for s in seats]
    return shown_seats(steps, session.kind, players)
