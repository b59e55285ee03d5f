"""Pydantic models of the lobby's replies. A seek, a game to watch and a Play now count
are written as the live channel sends them (kingscrib.web.lobby.seeks and .live)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LobbyNow(_Reply):
    """The lobby as the live channel's first message shows it."""

    type: Literal["lobby"]
    online: int = Field(description="people online")
    games: list[dict[str, Any]] = Field(description="games to watch")
    seeks: list[dict[str, Any]] = Field(description="the open seeks this browser may see"
                                        " (the oldest, at most 100)")
    more: int = Field(description="open seeks beyond those sent")
    quick: list[dict[str, Any]] = Field(description="how many wait for Play now, by game,"
                                                    " players and clock")


class Posted(_Reply):
    """A seek just posted: you hold its first seat."""

    seek: dict[str, Any]
    ticket: str = Field(description="your seat's token once the game starts")
    seat: int


class SeatTaken(_Reply):
    """A seat taken: ``game_id`` once that seat filled the seek and its game started
    (``seek`` is then null), else the seek as it is now."""

    seek: dict[str, Any] | None
    ticket: str = Field(description="your seat's token once the game starts")
    seat: int
    game_id: str | None


class Gone(_Reply):
    gone: str = Field(description="how: left, cancelled or declined")
