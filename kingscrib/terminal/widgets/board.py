"""The Kings board and rack as widgets: they draw what they are given and report
clicks as messages (the app decides what a click means)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import RenderableType
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from kingscrib.kings.board import SIZE
from kingscrib.kings.tiles import Tile
from kingscrib.terminal.controllers.draft import square_at
from kingscrib.terminal.views.kings import CELL, render_board

BOARD_LEFT = 4  # characters before column A on each board line


class BoardView(Widget, can_focus=True):
    """The board with the tiles laid so far and, while it has focus, the cursor."""

    tiles: reactive[Mapping[int, Tile]] = reactive(dict)
    marked: reactive[tuple[int, ...]] = reactive(tuple)  # the last play's squares
    draft: reactive[Mapping[int, Tile]] = reactive(dict)  # laid out, not played yet
    cursor: reactive[int | None] = reactive(None)
    plain: reactive[bool] = reactive(False)

    class SquareClicked(Message):
        """A square of the board was clicked."""

        def __init__(self, square: int) -> None:
            super().__init__()
            self.square = square

    def render(self) -> RenderableType:
        return render_board(self.tiles, self.marked, self.plain,
                            self.cursor if self.has_focus else None, self.draft)

    def on_focus(self) -> None:
        self.refresh()  # the cursor shows only while the board has the focus

    def on_blur(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        column, row = (event.x - BOARD_LEFT) // CELL, event.y - 1
        if event.x < BOARD_LEFT or not (0 <= column < SIZE and 0 <= row < SIZE):
            return
        square = square_at(column, row)
        if square is not None:
            self.post_message(self.SquareClicked(square))


class RackView(Static):
    """The rack of the player at the keyboard; a click picks a tile to place."""

    class Clicked(Message):
        """The rack line was clicked at column ``x``."""

        def __init__(self, x: int) -> None:
            super().__init__()
            self.x = x

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.Clicked(event.x))


__all__ = ["BOARD_LEFT", "BoardView", "RackView"]
