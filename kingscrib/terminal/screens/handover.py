"""Hot seat: the screen shown while the keyboard passes to the next player."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static


class HandoverScreen(Screen[None]):
    """A blank screen with only the name of the next player, so no rack or hand shows.
    Enter posts :class:`HandoverScreen.Done`, q or Ctrl+Q :class:`HandoverScreen.Quit`;
    the app under it acts on them."""

    class Done(Message):
        """The next player is at the keyboard."""

    class Quit(Message):
        """The player asked to stop (the game is saved)."""

    def __init__(self, prompt: str) -> None:
        super().__init__()
        self.prompt = prompt
        self.done = False

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble((self.prompt, "bold"), "\n\n",
                                   ("Nobody else should see the screen now.", "dim")))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        if self.done:  # keys queued before the screen went: the next player has not seen it
            return
        if event.key == "enter":
            self.done = True
            self.post_message(self.Done())
        elif event.key in ("q", "ctrl+q"):
            self.done = True
            self.post_message(self.Quit())


__all__ = ["HandoverScreen"]
