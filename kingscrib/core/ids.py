"""The two games' ids: ``kings`` (Kings Cribbage) and ``cribbage`` (classic Cribbage).

``classic`` is the older name of ``cribbage``. Stored data, game records and the
web's wire still carry it, so :func:`parse_game_id` reads it as ``cribbage``; code
compares ids only after parsing them.

>>> parse_game_id("classic"), parse_game_id(" Kings ")
('cribbage', 'kings')
"""

from __future__ import annotations

from typing import Final, Literal, get_args

GameId = Literal["kings", "cribbage"]

KINGS: Final = "kings"
CRIBBAGE: Final = "cribbage"
GAME_IDS: tuple[GameId, ...] = get_args(GameId)
DEFAULT_GAME: Final = KINGS  # a request, a stored game or a record that names no game
# Older names still read, each with the id it stands for.
ALIASES: Final[dict[str, GameId]] = {"classic": CRIBBAGE}
# The ``game`` field of a record as the engines write it (records before the id
# ``cribbage`` say ``classic``; writing it unchanged keeps older readers working).
RECORD_NAMES: Final[dict[GameId, str]] = {KINGS: "kings", CRIBBAGE: "classic"}


class UnknownGame(ValueError):
    """A game id that is neither ``kings`` nor ``cribbage`` (nor an alias)."""


def parse_game_id(text: object) -> GameId:
    """The game id ``text`` names (any case, spaces around ignored; ``classic`` is
    ``cribbage``), or :class:`UnknownGame` saying what is accepted."""
    if isinstance(text, str):
        folded = text.strip().casefold()
        for game_id in GAME_IDS:
            if folded == game_id:
                return game_id
        if folded in ALIASES:
            return ALIASES[folded]
    accepted = " or ".join(repr(g) for g in GAME_IDS)
    aliases = ", ".join(f"{a!r} for {g!r}" for a, g in ALIASES.items())
    raise UnknownGame(f"unknown game {text!r}: the games are {accepted} ({aliases} is also read)")


def is_game_id(text: object) -> bool:
    """Whether :func:`parse_game_id` accepts ``text``."""
    try:
        parse_game_id(text)
    except UnknownGame:
        return False
    return True
