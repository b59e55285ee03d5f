"""Help, the rules, hints or the end of a game, shown over the game."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class InfoScreen(ModalScreen[None]):
    """Help, the rules, hints or the end of a game over the board: the arrows, PageUp/Down,
    Home and End scroll it; any other key closes it and, when it is a character, goes on
    to the command line, so that typing after the screen opened is never lost."""

    SCROLL_KEYS = ("up", "down", "pageup", "pagedown", "home", "end")

    def __init__(self, body: RenderableType, on_close: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.body = body
        self.on_close = on_close
        self.closed = False

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_subtitle = "Press any key to go on."
            yield Static(self.body)

    def on_mount(self) -> None:
        box = self.query_one(VerticalScroll)
        box.focus()
        self.call_after_refresh(self._label_the_scroll)

    def _label_the_scroll(self) -> None:
        boxes = self.query(VerticalScroll)  # none once the screen has closed
        if boxes and boxes.first().max_scroll_y > 0:
            box = boxes.first()
            box.border_subtitle = "↑↓ PgUp PgDn scroll · any other key goes on"

    def on_key(self, event: events.Key) -> None:
        if not self.closed and event.key in self.SCROLL_KEYS:
            return  # the scroll's own bindings move it
        event.stop()
        event.prevent_default()
        typed_on = self.closed or event.is_printable and event.key != "space"
        self.close()
        if typed_on:
            # Keys queued for this screen before it closed go, in order, to what has the
            # focus under it (the App has checked its own key bindings already).
            target = self.app.screen.focused or self.app.screen
            if target is not self:
                target.post_message(events.Key(event.key, event.character))

    def on_click(self) -> None:
        self.close()

    def close(self) -> None:
        """Close once, however many keys or clicks arrive before the screen is gone."""
        if self.closed:
            return
        self.closed = True
        self._leave()
        if self.on_close is not None:
            self.on_close()

    def on_screen_resume(self) -> None:
        self._leave()

    def _leave(self) -> None:
        # dismiss() pops the top screen, whichever it is: leave only from the top (a
        # screen pushed over this one by a key queued before it closed goes first).
        if self.closed and self.app.screen is self:
            self.dismiss()


__all__ = ["InfoScreen"]
