"""The rule switches of a Kings Cribbage game."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

EXCHANGE_ANYTIME, EXCHANGE_WHEN_STUCK = "anytime", "when-stuck"


@dataclass(frozen=True)
class RuleSet:
    """Options of RULES.md; every default is the standard game.

    - ``reduced_first_bonus``: the first-play and five-tile bonuses do not combine.
    - ``exchange``: ``"anytime"`` or ``"when-stuck"`` (pass or exchange only when no
      play is possible).
    - ``joker``: players claim their own points; others may call "Joker!".
    - ``servant``: the lowest scorer after each round of turns is named the Servant.
    - ``solitaire``: two seats, the Light seat draws light tiles, the Dark seat dark.
    """

    reduced_first_bonus: bool = False
    exchange: str = EXCHANGE_ANYTIME
    joker: bool = False
    servant: bool = False
    solitaire: bool = False

    def __post_init__(self) -> None:
        if self.exchange not in (EXCHANGE_ANYTIME, EXCHANGE_WHEN_STUCK):
            raise ValueError(
                f"exchange must be {EXCHANGE_ANYTIME!r} or {EXCHANGE_WHEN_STUCK!r},"
                f" not {self.exchange!r}"
            )
        for f in fields(self):
            if f.name != "exchange" and not isinstance(getattr(self, f.name), bool):
                raise ValueError(f"rule {f.name!r} must be true or false")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> RuleSet:
        """Read rules from a JSON object; missing keys take their defaults."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise ValueError("rules must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown rule {unknown[0]!r}; known rules: {', '.join(sorted(known))}")
        return cls(**data)
