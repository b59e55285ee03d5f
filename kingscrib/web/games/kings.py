"""Kings Cribbage as the rooms know it: levels, seats, rules, new and rebuilt games.

A live game (incremental updates, previews, hints, Joker calls) is a
:class:`~kingscrib.web.games.kings_session.KingsSession` around the engine's ``Game``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kingscrib.kings.game import MAX_PLAYERS, MIN_PLAYERS, Game
from kingscrib.kings.record import FORMAT, game_from_record
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings import PLAYERS, make_player
from kingscrib.shuffle import Seed, new_secret
from kingscrib.web.errors import WebError
from kingscrib.web.games.kings_session import KingsSession


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
        from kingscrib.web.games.kings_replay import replay_record

        return replay_record(record)


KINGS = KingsKind()
