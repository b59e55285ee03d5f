"""The full-screen Kings Cribbage game (Textual): one screen redrawn in place.

The widgets here only draw and collect keys and clicks. Every line typed goes to
:meth:`Session.handle`, every computer turn to :meth:`Session.computer_turn`, and a play
laid out with the keys or the mouse is a
:class:`~kingscrib.terminal.controllers.draft.Draft` turned into notation and handled the
same way, so the rules of input live in the session core, shared with the line mode of
:mod:`kingscrib.cli.play`. What both games share is in :mod:`kingscrib.terminal.shell`;
the look is in ``styles/kings.tcss``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, on, work
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Input, Static

from kingscrib.kings.board import ACROSS
from kingscrib.terminal import storage
from kingscrib.terminal.controllers.draft import RANK_KEYS, Draft
from kingscrib.terminal.controllers.kings import CLAIM, MOVE, NEXT_GAME, OVER, Reply, Session
from kingscrib.terminal.screens.info import InfoScreen
from kingscrib.terminal.shell import GameApp, styles
from kingscrib.terminal.views import kings as kings_view
from kingscrib.terminal.views.kings import tile_chip
from kingscrib.terminal.views.replies import render_messages
from kingscrib.terminal.widgets.board import BoardView, RackView
from kingscrib.terminal.widgets.command import CommandSuggester
from kingscrib.terminal.widgets.message import message_line, own_move_first

HISTORY_WIDTH = 110  # terminals at least this wide (and 30 tall) show the move history
# beside a main column of 82: the board (48) and the side panel, whose score table
# needs some 32 columns (the history takes what is left, at least 27)


class KingsApp(GameApp[Session]):
    """Kings Cribbage full screen; ``on_reply`` saves after every reply (the autosave)."""

    TITLE = "Kings Cribbage"
    CSS_PATH = styles("kings")

    def __init__(self, session: Session, on_reply: Callable[[Reply], list[str]],
                 plain: bool = False, first_move_guide: bool = False) -> None:
        super().__init__(session, on_reply)
        self.plain = plain
        # a newcomer's first game: the guide to the first move, once (storage remembers)
        self.first_move_guide = first_move_guide
        self.draft = Draft()
        self.history: list[str] = []
        self.history_at = 0
        self.good_parts: list[Text] = []  # the message line's last parts but errors
        self.message_has_error = False

    # ----- layout -----------------------------------------------------------------
    def compose_game(self) -> Iterable[Widget]:
        yield Horizontal(
            Vertical(Horizontal(BoardView(id="board"), Static(id="side"), id="top"),
                     RackView(id="rack"), Static(id="preview"), Static(id="message"),
                     id="main"),
            Static(id="history"), id="body")
        yield Input(id="command", suggester=CommandSuggester(), placeholder="")
        yield Static(id="keys")

    def on_resize(self, event: events.Resize) -> None:
        wide = event.size.width >= HISTORY_WIDTH and event.size.height >= 30
        self.query_one("#history").set_class(wide, "shown")
        self.query_one("#main").set_class(wide, "beside-history")

    def redraw(self) -> None:
        s = self.session
        board = self.query_one("#board", BoardView)
        tiles, marked = s.board_tiles()
        board.tiles, board.marked = dict(tiles), tuple(marked)
        board.draft, board.cursor = dict(self.draft.placed), self.draft.cursor
        board.plain = self.plain
        self.query_one("#side", Static).update(kings_view.side_panel(s))
        history = self.query_one("#history", Static)
        history.update(Group(Text("Moves", style="bold underline"),
                             *(self.latest_that_fit(kings_view.history_lines(s), history.content_size)
                               or [Text("none yet")])))
        viewer = s.viewer()
        rack = None
        if viewer is not None:
            rack = self.draft.left_on_rack(s.game.racks[viewer])
        self.query_one("#rack", Static).update(kings_view.rack_text(s, self.plain, rack, self.draft.selected))
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
        rows, shown = room.height - 1, list[Text]()
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
        if self.session.state == OVER:
            return self.over_keys()
        return Text("Enter do it · ↑↓ history · → complete · Tab the board · F1 help · "
                    "Ctrl+Q quit")

    def say(self, reply: Reply, computer: bool = False) -> None:
        """Show a reply: long ones (help, rules, hints, the end) over the board, others on
        the message line after what the person's own move said (kept while the computers
        answer it); then save as the reply asks."""
        notes = self.on_reply(reply)
        drawn = render_messages(reply, self.plain)
        long = [m for m in drawn if isinstance(m, Table)]
        short = [m for m in drawn if not isinstance(m, Table)]
        message = self.query_one("#message", Static)
        parts = [m for m in short if isinstance(m, Text)] + [Text(n, style="dim") for n in notes]
        parts = own_move_first(self.own_move, reply, parts, computer)
        message.update(message_line(parts, message.size.width or self.size.width,
                                    max(2, message.size.height)))
        self.message_has_error = any(p.plain.startswith("✗") for p in parts)
        if not self.message_has_error or reply.changed:
            self.good_parts = [p for p in parts if not p.plain.startswith("✗")]
        if long:  # the board is on screen already: only tables and short lines go over it
            body = [m for m in drawn
                    if isinstance(m, Table) or (isinstance(m, Text) and m.plain.count("\n") < 4)]
            self.push_screen(InfoScreen(Group(*body)))
        if reply.quit:
            self.exit()

    # ----- the flow of the game -----------------------------------------------------------
    def on_mount(self) -> None:
        super().on_mount()
        s = self.session
        if (self.first_move_guide and not s.game.history and s.state == MOVE
                and not storage.first_move_guide_seen()):
            storage.mark_first_move_guide_seen()
            self.push_screen(InfoScreen(kings_view.first_move_guide()))

    def restarted(self) -> None:
        self.draft = Draft()
        self.good_parts = []
        self.message_has_error = False

    def state_shown(self, state: str) -> None:
        if state == NEXT_GAME:
            self.push_screen(InfoScreen(Text(self.session.prompt()), self.next_game))

    def over_message(self) -> str:
        return ("The match is over" if self.session.match.games > 1
                else super().over_message())

    @work(thread=True, exclusive=True, group="computer")
    def look_for_hints(self) -> None:
        reply = self.session.handle("hint")
        self.call_from_thread(self.computer_done, reply)

    def handed_over(self) -> None:
        self.draft = Draft()

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
    @on(Input.Submitted, "#command")
    def command_submitted(self, event: Input.Submitted) -> None:
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

    def game_key(self, event: events.Key) -> None:
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
            message.update(message_line(self.good_parts, message.size.width or self.size.width,
                                        max(2, message.size.height)))
        self.message_has_error = bool(error)

    @on(RackView.Clicked)
    def rack_clicked(self, event: RackView.Clicked) -> None:
        """Pick the rack tile under the click on the rack line."""
        x = event.x
        s = self.session
        if self.thinking or s.state != MOVE:
            return
        left = sorted(self.draft.left_on_rack(s.game.racks[s.game.turn]),
                      key=lambda t: (t.rank, t.colour))
        pos = len(kings_view.rack_text(s, self.plain, []).plain) - len("(empty)")  # after "Your rack: "
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

    @on(BoardView.SquareClicked)
    def board_clicked(self, event: BoardView.SquareClicked) -> None:
        square = event.square
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

    def on_descendant_focus(self) -> None:
        # The keys line and the prompt say where the focus is; the focus also moves while
        # the app closes, when there is no board left to draw.
        if self.query("#board"):
            self.redraw()


__all__ = ["HISTORY_WIDTH", "KingsApp"]
