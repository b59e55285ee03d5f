"""The notice both full-screen games show over everything when the terminal is smaller
than the 80x24 they are laid out for (below that, parts of the screen were simply cut
off without a word)."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 80, 24


def too_small_text(size: Size, game: str) -> Text | None:
    """What to say at ``size``, or None when the game fits."""
    if size.width >= MIN_WIDTH and size.height >= MIN_HEIGHT:
        return None
    return Text.assemble(
        ("The terminal is too small", "bold"), f" ({size.width}x{size.height}).\n\n",
        f"{game} needs at least {MIN_WIDTH}x{MIN_HEIGHT}: make the window larger"
        " (or the font smaller).\n\nCtrl+Q quits; the game is saved.")


class TooSmallNotice(Static):
    """Covers the whole screen while the terminal is too small (see :func:`too_small_text`;
    its look is in styles/common.tcss)."""

    def fit(self, size: Size, game: str) -> None:
        text = too_small_text(size, game)
        self.set_class(text is not None, "shown")
        if text is not None:
            self.update(text)


__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TooSmallNotice", "too_small_text"]
