"""Kings Cribbage as the rooms know it: levels, seats, rules, new and rebuilt games.

A live game (incremental updates, previews, hints, Joker calls) is a
:class:`~kingscrib.web.play.games.kings_session.KingsSession` around the engine's ``Game``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kingscrib.common.shuffle import Seed, new_secret
from kingscrib.kings.game import MAX_PLAYERS, MIN_PLAYERS, Game
from kingscrib.kings.record import FORMAT, game_from_record
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings import PLAYERS, make_player
from kingscrib.web.errors import WebError
from kingscrib.web.play.games.kings_session import KingsSession


class KingsRules(BaseModel):
    """The Kings rule options a new game may set."""

    model_config = ConfigDict(extra="forbid")
    reduced_first_bonus: bool = False
    exchange: Literal["anytime", "when-stuck"] = "anytime"
    joker: bool = False
    servant: bool = False
    solitaire: bool = False


class KingsAction(BaseModel):
    """A Kings action as an HTTP request holds it."""

    model_config = ConfigDict(extra="forbid")
    action: Literal["play", "exchange", "pass", "joker"]
    tiles: dict[str, str] | list[str] | None = None
    claim: int | None = Field(default=None, ge=0, le=1000)


class KingsKind:
    name = "kings"
    title = "Kings Cribbage"
    rules_model = KingsRules
    action_model = KingsAction
    overtime = True  # Scrabble-style: points off for each minute over (docs/web.md)

    def levels(self) -> list[str]:
        return list(PLAYERS)

    def default_level(self) -> str:
        return "greedy" if "greedy" in PLAYERS else next(iter(PLAYERS))

    def seats_allowed(self) -> tuple[int, int]:
        return MIN_PLAYERS, MAX_PLAYERS

    def action_fields(self) -> dict[str, frozenset[str]]:
        return {"play": frozenset({"tiles", "claim"}), "exchange": frozenset({"tiles"}),
                "pass": frozenset(), "joker": frozenset()}

    def make_player(self, level: str, seed: int) -> Any:
        return make_player(level, seed)

    def early_result(self, session: Any, reason: str, loser: int | None,
                     penalties: list[int]) -> dict[str, Any]:
        """A resignation, a time-out or overtime penalties: see :func:`early_result`."""
        return early_result(session.game, reason, loser, penalties)

    def standing(self, session: Any, result: dict[str, Any] | None, closing: bool = False
                 ) -> list[dict[str, Any]] | None:
        """How a finished game placed each seat (a side of its own): see :func:`standing`.
        None while a Joker may still be called on the last play (the scores may change),
        unless ``closing``: the chance to call it has passed."""
        if result is None and not closing and session.game.joker_open():
            return None
        return standing(session.game, result)

    def check_rules(self, rules: dict[str, Any], seats: int) -> dict[str, Any]:
        try:
            return RuleSet.from_json(rules).to_json()
        except (ValueError, TypeError) as e:
            raise WebError(400, f"rules: {e}") from None

    def create(self, rules: dict[str, Any], seed: Seed | None, names: list[str]
               ) -> KingsSession:
        try:
            game = Game.new(names, RuleSet.from_json(rules),
                            new_secret() if seed is None else seed)
        except ValueError as e:
            raise WebError(400, str(e)) from None
        return KingsSession(game)

    def rebuild(self, rules: dict[str, Any], seed: Seed, names: list[str],
                turns: list[dict[str, Any]]) -> KingsSession:
        """Replayed through the record reader (a RecordError is a ValueError)."""
        record = {"format": FORMAT, "game": "kings", "rules": rules, "seed": seed,
                  "players": [{"name": n} for n in names], "turns": turns}
        game = game_from_record(record)
        game.forget_undo()  # the server never takes back a stored action
        return KingsSession(game)

    def replay(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record's turns as the page shows them (:mod:`.kings_replay`)."""
        from kingscrib.web.play.games.kings_replay import replay_record

        return replay_record(record)


KINGS = KingsKind()


def early_result(game: Any, reason: str, loser: int | None, penalties: list[int]
                 ) -> dict[str, Any]:
    """How a Kings game ends beyond the engine's rules (docs/web.md, "Clocks and
    resigning"). ``reason``: ``resigned`` or ``time`` (``loser`` resigned or ran out of
    overtime: the game ends now and they rank last, the others by score), or
    ``overtime`` (the game ended by the rules and ``penalties`` come off the final
    scores). ``penalties``: each seat's overtime penalty (10 points a started minute)."""
    scores = [s - p for s, p in zip(game.final_scores, penalties)]
    others = [s for s in range(len(scores)) if s != loser]
    order = sorted(others, key=lambda s: (-scores[s], s)) + ([] if loser is None else [loser])
    best = max(scores[s] for s in others)
    return {"reason": reason, "seat": loser, "time_penalties": list(penalties),
            "scores": scores, "winners": [s for s in others if scores[s] == best],
            "losers": [] if loser is None else [loser], "order": order}


def standing(game: Any, result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Each seat's side: ``{"seats": [seat], "place": n, "score": points}``, place 0 the
    best and equal scores sharing a place; whoever resigned or ran out of time is last
    (the scores: the final ones, less any overtime penalties)."""
    scores = list(result["scores"]) if result else list(game.final_scores)
    loser = result.get("seat") if result and result.get("losers") else None
    others = [s for s in range(len(scores)) if s != loser]
    sides = []
    for seat in range(len(scores)):
        place = (len(others) if seat == loser
                 else sum(scores[o] > scores[seat] for o in others))
        sides.append({"seats": [seat], "place": place, "score": scores[seat]})
    return sides
