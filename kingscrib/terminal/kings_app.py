"""The full-screen Kings Cribbage game (Textual): one screen redrawn in place.

The widgets here only draw and collect keys and clicks. Every line typed goes to
:meth:`Session.handle`, every computer turn to :meth:`Session.computer_turn`, and a play
laid out with the keys or the mouse is a :class:`~kingscrib.terminal.controllers.draft.Draft`
turned into notation and handled the same way, so the rules of input live in the
session core, shared with the line mode of :mod:`kingscrib.cli.play`.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, Static

from kingscrib.kings.board import ACROSS, SIZE
from kingscrib.terminal.controllers.draft import RANK_KEYS, Draft, square_at
from kingscrib.terminal.controllers.kings import (
    CLAIM,
    HANDOVER,
    MOVE,
    NEXT_GAME,
    OVER,
    THINKING,
    Reply,
    Session,
    complete,
)
from kingscrib.terminal.views.kings import CELL, tile_chip
from kingscrib.terminal.widgets.too_small import TooSmallNotice

BOARD_LEFT = 4  # characters before column A on each board line
HISTORY_WIDTH = 110  # terminals at least this wide (and 30 tall) show the move history
# beside a main column of 82: the board (48) and the side panel, whose score table
# needs some 32 columns (the history takes what is left, at least 27)


def message_line(parts: list[Text], width: int, rows: int = 2) -> Text:
    """The message line under the board or the hand: the first line of each part, two
    spaces apart, as many whole parts as fit in ``rows`` rows of ``width`` (the first
    always); an ellipsis marks what is left out (in the log, or too long for the line),
    so that no part is cut off in the middle."""
    room = rows * width - 8  # a word that does not fit wraps whole: leave room for it
    line = Text()
    for part in parts:
        first = part.split("\n")[0] if part.plain else part
        gap = "  " if line.plain else ""
        if line.plain and len(line.plain) + len(gap) + len(first.plain) > room:
            line.append(" …", style="dim")
            break
        line.append(gap)
        line.append_text(first)
    return line


def own_move_first(kept: list[Text], reply: Reply, parts: list[Text],
                   computer: bool) -> list[Text]:
    """The message line's parts. A person's move is kept in ``kept`` and shown before the
    computers' answers to it, so that a player sees their own move and its points, not
    only the reply."""
    if computer:
        return kept + parts
    if reply.changed:
        kept[:] = parts
    return parts


class CommandSuggester(Suggester):
    """Completes commands and directions as the session core says."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return complete(value)


class BoardView(Widget, can_focus=True):
    """The board with the tiles laid so far and, while it has focus, the cursor."""

    DEFAULT_CSS = """
    BoardView { width: 48; height: 15; }
    BoardView:focus { background: $boost; }
    """

    def render(self) -> RenderableType:
        game_app: KingsApp = self.app  # type: ignore[assignment]
        return game_app.session.board_view(game_app.plain,
                                           game_app.draft.cursor if self.has_focus else None,
                                           game_app.draft.placed)

    def on_click(self, event: events.Click) -> None:
        column, row = (event.x - BOARD_LEFT) // CELL, event.y - 1
        if event.x < BOARD_LEFT or not (0 <= column < SIZE and 0 <= row < SIZE):
            return
        square = square_at(column, row)
        if square is not None:
            self.app.board_clicked(square)  # type: ignore[attr-defined]


class RackView(Static):
    """The rack of the player at the keyboard; a click picks a tile to place."""

    def on_click(self, event: events.Click) -> None:
        self.app.rack_clicked(event.x)  # type: ignore[attr-defined]


class InfoScreen(ModalScreen[None]):
    """Help, the rules, hints or the end of a game over the board: the arrows, PageUp/Down,
    Home and End scroll it; any other key closes it and, when it is a character, goes on
    to the command line, so that typing after the screen opened is never lost."""

    DEFAULT_CSS = """
    InfoScreen { align: center middle; }
    InfoScreen > VerticalScroll { width: 90%; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
        scrollbar-gutter: stable; }
    """
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


class HandoverScreen(Screen[None]):
    """Hot seat: a blank screen with only the name of the next player, so no rack shows."""

    DEFAULT_CSS = """
    HandoverScreen { align: center middle; }
    HandoverScreen > Static { width: auto; padding: 1 4; border: heavy $accent; }
    """

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
            self.app.handover_done()  # type: ignore[attr-defined]
        elif event.key in ("q", "ctrl+q"):
            self.done = True
            self.app.action_quit_game()  # type: ignore[attr-defined]


class KingsApp(App[None]):
    """Kings Cribbage full screen; ``on_reply`` saves after every reply (the autosave)."""

    TITLE = "Kings Cribbage"
    AUTO_FOCUS = "#command"
    CSS = """
    Screen { layout: vertical; layers: base notice; }
    #body { height: 1fr; }
    #main { width: 1fr; height: 100%; }
    #top { height: auto; min-height: 15; }
    #side { width: 1fr; padding: 0 0 0 1; }
    #main.beside-history { width: 82; }
    #history { width: 1fr; height: 100%; display: none;
        border-left: solid $primary-darken-2; padding: 0 1; }
    #history.shown { display: block; }
    #rack { height: 1; margin-top: 1; }
    #preview { height: 1; color: $text-muted; }
    #message { height: 2; }
    #command { height: 1; border: none; padding: 0 1; }
    #keys { height: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("ctrl+q", "quit_game", "quit (saved)", priority=True),
        Binding("f1", "help", "help", priority=True),
    ]

    def __init__(self, session: Session, on_reply: Callable[[Reply], list[str]],
                 plain: bool = False) -> None:
        super().__init__()
        self.session = session
        self.on_reply = on_reply
        self.plain = plain
        session.plain = plain
        self.draft = Draft()
        self.thinking = False
        self.busy = ""  # what the app is busy with, when not the computer's turn
        self.history: list[str] = []
        self.history_at = 0
        self.quit_reason = ""
        self.own_move: list[Text] = []  # what the person's last move said
        self.good_parts: list[Text] = []  # the message line's last parts but errors
        self.message_has_error = False

    # ----- layout -----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            with Vertical(id="main"):
                with Horizontal(id="top"):
                    yield BoardView(id="board")
                    yield Static(id="side")
                yield RackView(id="rack")
                yield Static(id="preview")
                yield Static(id="message")
            yield Static(id="history")
        yield Input(id="command", suggester=CommandSuggester(), placeholder="")
        yield Static(id="keys")
        yield TooSmallNotice(id="too-small")

    def on_mount(self) -> None:
        self.query_one("#command", Input).focus()
        self.say(self.session.intro())
        self.redraw()
        self.call_after_refresh(self.advance)

    def on_resize(self, event: events.Resize) -> None:
        wide = event.size.width >= HISTORY_WIDTH and event.size.height >= 30
        self.query_one("#history").set_class(wide, "shown")
        self.query_one("#main").set_class(wide, "beside-history")
        self.query_one(TooSmallNotice).fit(event.size, self.TITLE)

    def redraw(self) -> None:
        s = self.session
        self.query_one("#board", BoardView).refresh()
        self.query_one("#side", Static).update(s.side_panel())
        history = self.query_one("#history", Static)
        history.update(Group(Text("Moves", style="bold underline"),
                             *(self.latest_that_fit(s.history_lines(), history.content_size)
                               or [Text("none yet")])))
        viewer = s.viewer()
        rack = None
        if viewer is not None:
            rack = self.draft.left_on_rack(s.game.racks[viewer])
        self.query_one("#rack", Static).update(s.rack_text(self.plain, rack, self.draft.selected))
        self.query_one("#preview", Static).update(self.draft.preview(s.game.board, s.game.rules))
        command = self.query_one("#command", Input)
        command.disabled = self.thinking or s.state not in (MOVE, CLAIM)
        on_board = self.focused is self.query_one("#board")
        command.placeholder = s.prompt() + (
            "" if s.state != MOVE else " (laying tiles: Tab back to typing)" if on_board
            else " (Tab: lay tiles on the board)")
        self.query_one("#keys", Static).update(self.keys_text())

    def latest_that_fit(self, lines: list[Text], room: Size) -> list[Text]:
        """The latest of ``lines`` that fit in ``room`` under a heading, a long line
        taking as many rows as it wraps to."""
        if room.width <= 0:
            return lines[-1:]
        rows, shown = room.height - 1, []
        for line in reversed(lines):
            rows -= len(line.wrap(self.console, room.width))
            if rows < 0 and shown:
                break
            shown.insert(0, line)
        return shown

    def keys_text(self) -> Text:
        if self.thinking:
            return Text(f"{self.busy or self.session.to_move.name + ' is thinking'}…"
                        " (keys are ignored)")
        if self.focused is self.query_one("#board"):
            arrow = "→" if self.draft.direction == ACROSS else "↓"
            out = Text(f"{arrow} {self.draft.direction}", style="bold")
            out.append(" (Space turns) · arrows · rank lays a tile · L/D · / 6↔9 · Bksp · Enter")
            return out
        return Text("Enter do it · ↑↓ history · → complete · Tab the board · F1 help · "
                    "Ctrl+Q quit")

    def say(self, reply: Reply, computer: bool = False) -> None:
        """Show a reply: long ones (help, rules, hints, the end) over the board, others on
        the message line after what the person's own move said (kept while the computers
        answer it); then save as the reply asks."""
        notes = self.on_reply(reply)
        long = [m for m in reply.messages if isinstance(m, Table)]
        short = [m for m in reply.messages if not isinstance(m, Table)]
        message = self.query_one("#message", Static)
        parts = [m for m in short if isinstance(m, Text)] + [Text(n, style="dim") for n in notes]
        parts = own_move_first(self.own_move, reply, parts, computer)
        message.update(message_line(parts, message.size.width or self.size.width))
        self.message_has_error = any(p.plain.startswith("✗") for p in parts)
        if not self.message_has_error or reply.changed:
            self.good_parts = [p for p in parts if not p.plain.startswith("✗")]
        if long:  # the board is on screen already: only tables and short lines go over it
            body = [m for m in reply.messages
                    if isinstance(m, Table) or (isinstance(m, Text) and m.plain.count("\n") < 4)]
            self.push_screen(InfoScreen(Group(*body)))
        if reply.quit:
            self.quit_reason = "quit"
            self.exit()

    # ----- the flow of the game -----------------------------------------------------------
    def advance(self) -> None:
        """Do what the state of the session asks: let a computer move, hand the keyboard
        over, start the next game or end."""
        state = self.session.state
        if state == THINKING and not self.thinking:
            self.thinking = True
            self.redraw()
            self.think()
        elif state == HANDOVER:
            if not isinstance(self.screen, HandoverScreen):
                self.push_screen(HandoverScreen(self.session.prompt()))
        elif state == NEXT_GAME:
            self.push_screen(InfoScreen(Text(self.session.prompt()), self.next_game))
        elif state == OVER:
            self.query_one("#message", Static).update(Text(
                "The match is over: press Ctrl+Q to leave." if self.session.match.games > 1
                else "The game is over: press Ctrl+Q to leave.", style="bold"))
        self.redraw()

    @work(thread=True, exclusive=True, group="computer")
    def think(self) -> None:
        reply = self.session.computer_turn()
        self.call_from_thread(self.computer_done, reply)

    @work(thread=True, exclusive=True, group="computer")
    def look_for_hints(self) -> None:
        reply = self.session.handle("hint")
        self.call_from_thread(self.computer_done, reply)

    def computer_done(self, reply: Reply) -> None:
        self.thinking, self.busy = False, ""
        self.say(reply, computer=True)
        self.advance()
        if self.focused is None:  # the command line was disabled while the computer thought
            self.query_one("#command", Input).focus()

    def handover_done(self) -> None:
        self.session.handle("")
        self.draft = Draft()
        self.pop_screen()
        self.advance()
        self.query_one("#command", Input).focus()

    def next_game(self) -> None:
        self.say(self.session.handle(""))
        self.draft = Draft()
        self.advance()

    def run_line(self, text: str) -> None:
        if self.thinking:
            return
        self.own_move.clear()  # the hints (computed like a computer's turn) are no answer to it
        if text.strip().lower() == "hint" and self.session.state == MOVE:
            self.thinking, self.busy = True, "Looking for the best options"
            self.redraw()
            self.look_for_hints()
            return
        reply = self.session.handle(text)
        if reply.changed or self.session.state == CLAIM:  # the direction is kept too
            self.draft = Draft(cursor=self.draft.cursor, direction=self.draft.direction)
        self.say(reply)
        self.advance()
        if self.session.state == CLAIM:  # joker rule: the claim is typed at the command line
            self.query_one("#command", Input).focus()

    # ----- input --------------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if self.thinking:
            return
        if not text and self.draft.placed:
            text = self.draft.notation(self.session.game.board) or ""
        if text:
            self.history.append(text)
            self.history_at = len(self.history)
        self.run_line(text)

    def on_key(self, event: events.Key) -> None:
        if self.thinking:  # keys typed while the computer thinks never become commands
            event.stop()
            event.prevent_default()
            return
        command = self.query_one("#command", Input)
        if self.focused is command:
            if event.key in ("up", "down") and self.history:
                step = -1 if event.key == "up" else 1
                self.history_at = max(0, min(len(self.history), self.history_at + step))
                command.value = self.history[self.history_at] \
                    if self.history_at < len(self.history) else ""
                command.cursor_position = len(command.value)
                event.stop()
            elif event.key == "tab":
                self.query_one("#board").focus()
                event.stop()
                event.prevent_default()
                self.board_says(None)
                self.redraw()
            return
        if self.focused is self.query_one("#board") and self.session.state == MOVE:
            self.board_key(event)

    def board_key(self, event: events.Key) -> None:
        s, draft = self.session, self.draft
        rack = s.game.racks[s.game.turn]
        moves = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
        error: str | None = None
        key = event.character.upper() if event.character else ""
        if event.key in moves:
            draft.move(*moves[event.key])
        elif event.key == "space":
            error = draft.turn(s.game.board)
        elif event.key == "backspace":
            draft.take_back()
        elif event.key == "escape":
            draft.clear()
        elif event.key == "enter":
            text = draft.notation(s.game.board)
            if text is None:
                error = "lay tiles first (type a rank), or Tab to type a command"
            else:
                self.history.append(text)
                self.run_line(text)
                event.stop()
                return
        elif event.key == "tab":
            self.query_one("#command", Input).focus()
        elif key in ("L", "D"):
            error = draft.recolour(key, rack)
        elif key == "/":
            error = draft.flip_six_nine()
        elif key and key in RANK_KEYS + "10":  # 1 is an ace, 0 a ten
            error = draft.place_rank({"1": "A", "0": "T"}.get(key, key), s.game.board, rack)
        else:
            return
        event.stop()
        event.prevent_default()
        self.board_says(error)
        self.redraw()

    def board_says(self, error: str | None) -> None:
        """The message line after a key on the board: its error, or else what the last
        reply said without its errors (an error typed at the command line is stale)."""
        message = self.query_one("#message", Static)
        if error:
            message.update(Text(error))
        elif self.message_has_error:
            message.update(message_line(self.good_parts, message.size.width or self.size.width))
        self.message_has_error = bool(error)

    def rack_clicked(self, x: int) -> None:
        """Pick the rack tile under column ``x`` of the rack line."""
        s = self.session
        if self.thinking or s.state != MOVE:
            return
        left = sorted(self.draft.left_on_rack(s.game.racks[s.game.turn]),
                      key=lambda t: (t.rank, t.colour))
        pos = len(s.rack_text(self.plain, []).plain) - len("(empty)")  # after "Your rack: "
        for i, tile in enumerate(left):
            width = len(tile_chip(tile, self.plain).plain)
            if pos <= x < pos + width:
                self.draft.selected = i
                self.query_one("#board").focus()
                self.query_one("#message", Static).update(Text(
                    f"{tile} picked: now click a square (or use the arrows and Enter)"))
                self.redraw()
                return
            pos += width + 1

    def board_clicked(self, square: int) -> None:
        s = self.session
        if self.thinking or s.state != MOVE:
            return
        self.draft.cursor = square
        if self.draft.selected is not None:
            left = sorted(self.draft.left_on_rack(s.game.racks[s.game.turn]),
                          key=lambda t: (t.rank, t.colour))
            tile = left[self.draft.selected]
            error = self.draft.place(tile, s.game.board, square)
            if error:
                self.query_one("#message", Static).update(Text(error))
        self.query_one("#board").focus()
        self.redraw()

    # ----- actions ------------------------------------------------------------------------
    def action_quit_game(self) -> None:
        self.quit_reason = "quit"
        self.say(Reply(quit=True))

    def action_help(self) -> None:
        if not self.thinking and len(self.screen_stack) == 1:  # not over help itself
            self.say(self.session.handle("help"))

    def on_descendant_focus(self) -> None:
        if self.is_mounted:
            self.redraw()


__all__ = ["KingsApp"]
