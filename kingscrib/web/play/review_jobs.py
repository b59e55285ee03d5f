"""The progress of an analysis being worked out (:mod:`kingscrib.web.play.reviews`), kept
by the hub per game while it runs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Job:
    total: int
    done: int = 0
    error: str | None = None
