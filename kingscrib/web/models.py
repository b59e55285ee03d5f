"""Pydantic models of the HTTP edge: what a request may hold, what a reply holds."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(_Strict):
    kind: Literal["human", "computer"] = "human"
    level: str | None = Field(default=None, max_length=20)
    name: str | None = Field(default=None, max_length=40)


class RulesSpec(_Strict):
    reduced_first_bonus: bool = False
    exchange: Literal["anytime", "when-stuck"] = "anytime"
    joker: bool = False
    servant: bool = False
    solitaire: bool = False


class CreateGame(_Strict):
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    rules: RulesSpec = Field(default_factory=RulesSpec)
    seed: int | None = Field(default=None, ge=0, lt=2**31)


class Created(BaseModel):
    game_id: str
    seat: int | None = Field(description="the creator's seat (None: every seat is a computer)")
    token: str | None = Field(description="the creator's secret seat token")
    invite: str = Field(description="the code friends need to join a seat")
    state: dict[str, Any]


class JoinGame(_Strict):
    invite: str = Field(max_length=64)
    seat: int | None = Field(default=None, ge=0, le=3)
    name: str | None = Field(default=None, max_length=40)


class Joined(BaseModel):
    seat: int
    token: str


class Tiles(_Strict):
    tiles: dict[str, str] = Field(max_length=5)


class ActionSpec(_Strict):
    action: Literal["play", "exchange", "pass", "joker"]
    tiles: dict[str, str] | list[str] | None = None
    claim: int | None = Field(default=None, ge=0, le=1000)


class Levels(BaseModel):
    levels: list[str]
    rules: dict[str, Any]
    players: dict[str, int]


class ErrorReply(BaseModel):
    error: str
