"""JSON text from strangers: the project's one careful JSON reader
(:mod:`kingscrib.common.jsontext`), kept under this name for the web's modules."""

from __future__ import annotations

from kingscrib.common.jsontext import MAX_DEPTH, BadText, TooDeep, loads, nesting

__all__ = ["MAX_DEPTH", "BadText", "TooDeep", "loads", "nesting"]
