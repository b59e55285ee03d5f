"""The full rules as Kingscrib plays them, shipped with the package: ``kings.md`` (the
project's docs/rules.md) and ``cribbage.md`` (the rules and formats of docs/classic.md),
for ``kingscrib rules`` and the in-game ``rules`` command's pointer. A test keeps them
equal to the docs."""

from __future__ import annotations

from importlib import resources

GAMES = ("kings", "cribbage")


def rules_text(game: str) -> str:
    """The Markdown text of ``game``'s rules (``kings`` or ``cribbage``)."""
    if game not in GAMES:
        raise ValueError(f"no rules for {game!r}: the games are {', '.join(GAMES)}")
    return resources.files(__name__).joinpath(f"{game}.md").read_text(encoding="utf-8")
