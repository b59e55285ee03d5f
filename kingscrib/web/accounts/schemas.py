"""Pydantic models of the accounts' replies (who is logged in, log-in, log-out)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Me(_Reply):
    """Who is logged in: a guest's reply holds ``name`` (null) only."""

    name: str | None
    csrf: str | None = Field(default=None, description="the token every write sends back")
    id: int | None = None
    moderator: bool | None = None
    banned: bool | None = None


class LoggedIn(_Reply):
    name: str
    csrf: str = Field(description="the token every write sends back")
    seats: int | None = Field(default=None, description=(
        "sign-up only: the guest seats the new account now owns"))


class LoggedOut(_Reply):
    name: None
    games: int | None = Field(default=None, description=(
        "a deleted account: its games, which keep their rows"))
