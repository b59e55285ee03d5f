"""Pydantic models of the correspondence replies: the *Your turn* list and the e-mail."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Waiting(_Reply):
    """A game waiting for one of the caller's seats."""

    game_id: str
    game: str
    title: str
    seat: int
    players: list[str] = Field(description="each seat's name as the pages show it")
    time_left: int | float | None = Field(description="seconds on the seat's clock")
    per_move: bool = Field(description="a correspondence clock: days for each move")


class YourTurn(_Reply):
    games: list[Waiting]


class EmailSettings(_Reply):
    address: str | None
    turn_mail: bool
    confirmed: bool = Field(description="whether the address's confirmation link was opened"
                                        " (no notice goes to it before)")
    mail_configured: bool = Field(description="whether this server sends any mail")
