"""Kings Cribbage as the lobby and the meta routes know it: levels, seats, rules.

The live Kings game (incremental updates, previews, hints, Joker calls) is
served by :mod:`kingscrib.web.rooms` around the engine's ``Game``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from kingscrib.kings.game import MAX_PLAYERS, MIN_PLAYERS
from kingscrib.kings.rules import RuleSet
from kingscrib.players.kings import PLAYERS, make_player
from kingscrib.web.errors import WebError


class KingsRules(BaseModel):
    """The Kings rule options a new game may set."""

    model_config = ConfigDict(extra="forbid")
    reduced_first_bonus: bool = False
    exchange: Literal["anytime", "when-stuck"] = "anytime"
    joker: bool = False
    servant: bool = False
    solitaire: bool = False


class KingsKind:
    name = "kings"
    title = "Kings Cribbage"
    rules_model = KingsRules

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


KINGS = KingsKind()
