"""Database row ids in paths and bodies: whole numbers from 1 to 2^63 - 1 (SQLite's and
PostgreSQL's BIGINT hold no more), so an id out of range is a clear 422, never a
database error."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import Field

MAX_ROW_ID = 2**63 - 1

PathId = Annotated[int, Path(ge=1, le=MAX_ROW_ID)]
BodyId = Annotated[int, Field(ge=1, le=MAX_ROW_ID)]
