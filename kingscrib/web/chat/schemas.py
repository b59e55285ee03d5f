"""Pydantic models of the chat's and the moderators' replies."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ChatMessage(_Reply):
    """A message as every reader of its room is sent it (no account id)."""

    id: int
    room: str = Field(description="players or spectators")
    sender: str = Field(description="an account (a...) or a guest's seat of this game")
    name: str
    text: str
    at: float


class ChatRoom(_Reply):
    room: str
    you: str | None = Field(description="the caller as a sender (null: may not write)")
    can_write: bool
    players: bool = Field(description="false: a game of computers only, no players' room")
    messages: list[ChatMessage] = Field(description="the last messages, oldest first")


class Reported(_Reply):
    report: int


class Mutes(_Reply):
    muted: list[str]


class Report(_Reply):
    """An open report with its message; ``account_id``: the sender's (to ban them)."""

    id: int
    reporter: str
    at: float
    message_id: int
    game_id: str
    room: str
    name: str
    text: str
    account_id: int | None
    sent: float
    hidden: float | None
    banned: bool


class Reports(_Reply):
    reports: list[Report]


class BanRow(_Reply):
    id: int
    name: str
    reason: str
    at: float


class Bans(_Reply):
    bans: list[BanRow]


class Hidden(_Reply):
    hidden: int


class Dismissed(_Reply):
    dismissed: int


class Banned(_Reply):
    banned: int
    withdrawn_from: list[int] = Field(description="the tournaments the banned account left")


class FlaggedAccount(_Reply):
    id: int
    name: str | None


class Flag(_Reply):
    game_id: str
    reason: str = Field(description="shared address or shared browser")
    at: float
    accounts: list[FlaggedAccount]


class Flags(_Reply):
    flags: list[Flag]


class Unbanned(_Reply):
    unbanned: int
