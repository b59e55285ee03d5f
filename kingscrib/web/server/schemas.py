"""Pydantic models of the server's own replies: health and readiness."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Health(_Reply):
    status: str
    processes: int = Field(description="the server processes sharing this one's database"
                                       " and alive (1 on SQLite)")


class Live(_Reply):
    status: str


class Readiness(_Reply):
    """``ready``, each check ``ok``; or ``not ready`` (503) with ``error`` naming what is
    not."""

    status: str
    checks: dict[str, str]
    error: str | None = None
