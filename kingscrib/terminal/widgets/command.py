"""The command line's completion, as the Kings session core says."""

from __future__ import annotations

from textual.suggester import Suggester

from kingscrib.terminal.controllers.kings import complete


class CommandSuggester(Suggester):
    """Completes commands and directions as the session core says."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return complete(value)



__all__ = ["CommandSuggester"]
