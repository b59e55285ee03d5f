"""The terminal game's controller: text commands in, things to show out, no I/O.

A :class:`Session` holds a match (one or more games), its seats (people or
computer players) and the game in progress. The front end asks for
:attr:`Session.state` and :meth:`Session.prompt`, passes each line the user
types to :meth:`Session.handle`, runs :meth:`Session.computer_turn` while a
computer is to move, and shows the :class:`Reply` it gets back. After every
change, :meth:`Session.snapshot` is the autosave; :meth:`Session.from_snapshot`
resumes it.
"""

from __future__ import annotations

import io
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kingscrib import level_names
from kingscrib.kings.game import Game, IllegalAction, PlayerView, Turn
from kingscrib.kings.match import Match
from kingscrib.kings.moves import Action, Play, ScoredPlay
from kingscrib.kings.notation import NotationError, format_play, parse_action
from kingscrib.kings.play import IllegalPlay
from kingscrib.kings.record import game_from_record
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile
from kingscrib.level_names import GENTLE_DEFAULT
from kingscrib.players.kings import PLAYERS, make_player
from kingscrib.players.kings.analysis import best_options
from kingscrib.players.kings.driver import take_turn
from kingscrib.terminal.views import kings as render

SNAPSHOT_FORMAT = "kingscrib-autosave/1"
HUMAN, COMPUTER = "human", "computer"
LEVEL_ORDER = ("expert", "hard", "medium", "easy", "greedy")
HINTS = 5

# States of a session (what the front end should do next).
MOVE = "move"  # a person to move types a command
CLAIM = "claim"  # joker rule: the person who just played types the points claimed
HANDOVER = "handover"  # several people: press Enter when the next one is at the keyboard
THINKING = "computer"  # a computer is to move: call computer_turn()
NEXT_GAME = "next-game"  # a game of the match is over: press Enter for the next
OVER = "over"  # the match is over

_SQUARE_START = re.compile(r"^[a-m]\d", re.IGNORECASE)
_COMMANDS = {
    "help": "help", "?": "help", "h": "help",
    "hint": "hint",
    "undo": "undo", "takeback": "undo",
    "rules": "rules", "legend": "rules",
    "board": "board", "show": "board",
    "save": "save",
    "quit": "quit", "exit": "quit", "q": "quit",
    "joker": "joker", "joker!": "joker",
}


# The goal in two short lines (kingscrib.learn.lesson.GOALS says it at more length).
KINGS_GOAL = ("make every row and column of 2-5 tiles a cribbage hand; the most points"
              " wins. New? kingscrib learn")


def default_level() -> str:
    """The computer's level when none is chosen: the gentle one a newcomer should meet
    first (:data:`kingscrib.level_names.GENTLE_DEFAULT`), else the strongest registered."""
    if GENTLE_DEFAULT in PLAYERS:
        return GENTLE_DEFAULT
    for level in LEVEL_ORDER:
        if level in PLAYERS:
            return level
    return next(iter(PLAYERS))


@dataclass
class Seat:
    """A place at the table: a person or a computer player of some level."""

    name: str
    kind: str = HUMAN
    level: str | None = None

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    @property
    def tag(self) -> str:
        """The level of a computer seat by its title (kingscrib.level_names: the seat keeps
        the technical name); one given a person's name is also called a computer."""
        if not self.level:
            return ""
        shown = level_names.title("kings", self.level)
        return f"({shown})" if "computer" in self.name.casefold() \
            else f"(computer, {shown})"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.level:
            data["level"] = self.level
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        kind = data.get("kind", HUMAN)
        return cls(str(data["name"]), kind, data.get("level") if kind == COMPUTER else None)


def make_seats(kinds: Sequence[str], names: Sequence[str] = (),
               level: str | None = None) -> list[Seat]:
    """Seats from a list of ``human`` or level names; names given fill the first seats.

    Unnamed people are ``You`` (one person) or ``Player N``; computers are
    ``Computer`` (or ``Computer N`` when there are several).
    """
    level = level or default_level()
    if len(names) > len(kinds):
        raise ValueError(f"{len(names)} names given for {len(kinds)} seats: "
                         f"{', '.join(n.strip() for n in names[len(kinds):])} would have no seat")
    seats: list[Seat] = []
    humans = sum(1 for k in kinds if k == HUMAN)
    computers = len(kinds) - humans
    h = c = 0
    for i, kind in enumerate(kinds):
        if kind == HUMAN:
            h += 1
            default = "You" if humans == 1 else f"Player {i + 1}"
            seat = Seat(default, HUMAN)
        else:
            c += 1
            lvl = level if kind == COMPUTER else kind
            if lvl not in PLAYERS:
                raise ValueError(f"unknown computer level {lvl!r}; choose from"
                                 f" {', '.join(PLAYERS)}")
            seat = Seat("Computer" if computers == 1 else f"Computer {c}", COMPUTER, lvl)
        if i < len(names) and names[i].strip():
            seat.name = names[i].strip()
        seats.append(seat)
    seen = [s.name for s in seats]
    if len(set(seen)) != len(seen):
        raise ValueError("every seat needs a different name")
    return seats


class _PersonAtTheTable:
    """Stands in for a person in the driver: never calls Joker on their behalf."""

    name = "person"

    def choose(self, view: PlayerView) -> Action:  # pragma: no cover - people type moves
        raise RuntimeError("a person chooses at the keyboard")

    def claim(self, view: PlayerView, play: ScoredPlay) -> int:  # pragma: no cover
        return play.total

    def calls_joker(self, view: PlayerView, missed: int) -> bool:
        return False


@dataclass
class Reply:
    """What to show after a command: messages in order, and what the front end must do."""

    messages: list[RenderableType] = field(default_factory=list)
    quit: bool = False  # the user stops (the game stays saved)
    save: bool = False  # the user asked to save now
    finished: list[dict[str, Any]] = field(default_factory=list)  # records of ended games
    changed: bool = False  # the game changed: write the autosave

    def add(self, message: RenderableType | str, style: str = "") -> None:
        self.messages.append(Text(message, style=style) if isinstance(message, str) else message)

    def error(self, message: str) -> None:
        self.messages.append(render.error(message))

    @property
    def text(self) -> str:
        """The messages as plain text (for tests and logs)."""
        from rich.console import Console

        console = Console(width=100, color_system=None, record=True, file=io.StringIO())
        for m in self.messages:
            console.print(m)
        return console.export_text()


class Session:
    """A match in progress between ``seats``; see the module docstring."""

    def __init__(self, seats: Sequence[Seat], match: Match, game: Game | None = None,
                 finished: Sequence[dict[str, Any]] = (), between_games: bool = False) -> None:
        if len(seats) != len(match.names):
            raise ValueError("one seat per player of the match")
        self.seats = list(seats)
        self.match = match
        self.game = game if game is not None else match.new_game()
        self.finished = list(finished)  # records of the games of the match already over
        self.between_games = between_games
        self.players = [None if s.is_human else make_player(s.level or default_level(),
                                                            self._player_seed(i))
                        for i, s in enumerate(self.seats)]
        self.pending: Play | None = None  # joker rule: a play waiting for its claim
        self.at_keyboard: tuple[int, int] | None = None  # (seat, turn number) handed over
        self.needs_screen = True
        self.plain = False  # draw without colour (set by the front end)

    # ----- making and saving ------------------------------------------------
    @classmethod
    def new(cls, seats: Sequence[Seat], rules: RuleSet | None = None, games: int = 1,
            seed: int | None = None) -> Session:
        rules = rules or RuleSet()
        match = Match([s.name for s in seats], games=games, rules=rules, seed=seed)
        return cls(seats, match)

    def _player_seed(self, seat: int) -> int:
        return (self.match.seed or 0) * 7 + seat

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to resume: the seats, the match and the game record so far."""
        return {
            "format": SNAPSHOT_FORMAT,
            "seats": [s.to_json() for s in self.seats],
            "match": self.match.to_json(),
            "game": self.record(),
            "finished": list(self.finished),
            "between_games": self.between_games,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Session:
        """Resume a snapshot; raises ValueError when it cannot be read."""
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise ValueError("this is not a Kingscrib autosave")
        missing = [k for k in ("seats", "match", "game") if k not in data]
        if missing:
            raise ValueError(f"the autosave has no {', '.join(repr(k) for k in missing)}")
        try:
            seats = [Seat.from_json(s) for s in data["seats"]]
            for seat in seats:
                if not seat.is_human and seat.level not in PLAYERS:
                    raise ValueError(f"seat {seat.name!r} has an unknown computer level"
                                     f" {seat.level!r} (known: {', '.join(PLAYERS)})")
            match = Match.from_json(data["match"])
            game = game_from_record(data["game"])
        except KeyError as e:
            raise ValueError(f"the autosave cannot be read: {e.args[0]!r} is missing") from None
        except (TypeError, ValueError) as e:
            raise ValueError(f"the autosave cannot be read: {e}") from None
        return cls(seats, match, game, data.get("finished", []),
                   bool(data.get("between_games", False)))

    def record(self, game: Game | None = None) -> dict[str, Any]:
        """The game record, with each seat's kind and level and the match position."""
        game = game or self.game
        extras = [{k: v for k, v in s.to_json().items() if k != "name"} for s in self.seats]
        record = game.to_record(extras)
        if self.match.games > 1:
            record["match"] = {"game": self.match.played + 1, "of": self.match.games}
        return record

    def match_record(self) -> dict[str, Any]:
        """A whole match: its games' records and the totals."""
        return {"format": "kingscrib-match/1", "game": "kings",
                "players": [s.to_json() for s in self.seats], "games": list(self.finished),
                "totals": self.match.totals, "servant": self.match.servant}

    # ----- where we are -----------------------------------------------------
    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_human]

    @property
    def state(self) -> str:
        if self.match.is_over:
            return OVER
        if self.between_games:
            return NEXT_GAME
        if self.pending is not None:
            return CLAIM
        seat = self.game.turn
        if not self.seats[seat].is_human:
            return THINKING
        if len(self.humans) > 1 and self.at_keyboard != (seat, len(self.game.history)):
            return HANDOVER
        return MOVE

    @property
    def to_move(self) -> Seat:
        return self.seats[self.game.turn]

    def viewer(self) -> int | None:
        """The seat whose rack may be shown now."""
        if self.state in (MOVE, CLAIM):
            return self.game.turn
        if len(self.humans) == 1:
            return self.humans[0]
        return None

    def prompt(self) -> str:
        state = self.state
        if state == CLAIM:
            return "Claim how many points?"
        if state == HANDOVER:
            return f"Pass the keyboard to {self.to_move.name} and press Enter"
        if state == NEXT_GAME:
            return f"Press Enter to start game {self.match.played + 1} of {self.match.games}"
        name = self.to_move.name
        return "Your move" if name == "You" else f"{name}, your move"

    # ----- drawing ------------------------------------------------------------
    def screen(self, width: int = 100, plain: bool = False) -> RenderableType:
        """The board, the scores, the last turn and the rack of the player who may see it."""
        board = self.board_view(plain)
        side_group = self.side_panel()
        rack = self.rack_text(plain)
        footer = Text("Type a move (e.g. G7 across 7A7A), exchange, pass, hint, rules or help.",
                      style="dim") if self.state == MOVE else Text("")
        if width >= 92:
            grid = Table.grid(padding=(0, 3))
            grid.add_column(no_wrap=True)
            grid.add_column()
            grid.add_row(board, side_group)
            return Group(Text(""), grid, rack, footer)
        return Group(Text(""), side_group, Text(""), board, rack, footer)

    def board_tiles(self) -> tuple[dict[int, Tile], list[int]]:
        """The tiles to draw (with a play waiting for its claim) and the squares to mark."""
        game = self.game
        last = game.history[-1] if game.history else None
        marked = list(last.tiles) if last is not None and last.action == "play" else []
        tiles = game.board
        if self.pending is not None:  # joker rule: show the play being counted
            tiles = {**game.board, **self.pending.placed}
            marked = list(self.pending.placed)
        return tiles, marked

    def board_view(self, plain: bool = False, cursor: int | None = None,
                   draft: Mapping[int, Tile] | None = None) -> Text:
        tiles, marked = self.board_tiles()
        return render.render_board(tiles, marked, plain, cursor, draft)

    def side_panel(self) -> RenderableType:
        """The heading, the turn and the bag, the scores and the last turn(s)."""
        game = self.game
        viewer = self.viewer()
        last = game.history[-1] if game.history else None
        side: list[RenderableType] = []
        head = Text("Kings Cribbage", style="bold")
        if self.match.games > 1:
            head.append(f"  game {self.match.played + 1} of {self.match.games}", style="dim")
        head.append(f"\nturn {len(game.history) + 1} · {render.bag_text(game)}", style="dim")
        side.append(head)
        totals = self.match.totals if self.match.games > 1 else None
        side.append(render.render_scores(
            game, [s.tag for s in self.seats], None if game.is_over else game.turn, totals,
            self.match.servant if self.match.games > 1 else None))
        if last is not None:
            hide = (game.rules.joker and game.joker_open() and viewer is not None
                    and viewer == game.turn and last.player != viewer)
            recent = self._recent_turns(viewer)
            side.append(Text("Last turn" if len(recent) == 1 else "Since your last turn",
                             style="bold underline"))
            for turn in recent:
                side.append(render.render_turn(game, turn, self.seats[turn.player].name,
                                               hide and turn is last,
                                               own=turn.player == viewer))
        else:  # before the first move: what the game is about, for a newcomer
            side.append(Text(f"Goal: {KINGS_GOAL}", style="italic"))
            if game.first_draws:
                side.append(self._first_draw_text())
        return Group(*side)

    def rack_text(self, plain: bool = False, rack: Sequence[Tile] | None = None,
                  selected: int | None = None) -> Text:
        """The rack of the player who may see it (``rack``: what is left of it), or ''."""
        viewer = self.viewer()
        if viewer is None:
            return Text("")
        owner = "Your rack" if self.seats[viewer].name == "You" else \
            f"{self.seats[viewer].name}'s rack"
        out = Text(f"{owner}: ", style="bold")
        tiles = self.game.racks[viewer] if rack is None else rack
        out.append_text(render.render_rack(tiles, plain, selected))
        return out

    def history_lines(self) -> list[Text]:
        """One line per turn of the game so far (exchanged tiles stay secret)."""
        lines = []
        board: dict[int, Tile] = {}
        for i, turn in enumerate(self.game.history, 1):
            name = self.seats[turn.player].name
            line = Text(f"{i:>3}. {name}: ", style="dim")
            if turn.action == "play":
                line.append(format_play(Play.of(turn.tiles), board), style="bold")
                line.append(f" {turn.gained}")
                board.update(turn.tiles)
            elif turn.action == "exchange":
                line.append(f"exchanged {len(turn.returned)}")
            else:
                line.append("passed")
            if turn.overclaim is not None:
                taker = self.seats[turn.overclaim["player"]].name
                line.append(f"  claimed {turn.claimed}: {turn.overclaim['points']} to {taker}",
                            style="yellow")
            if turn.joker is not None:
                line.append(f"  Joker {turn.joker['points']:+d}", style="yellow")
            lines.append(line)
        return lines

    def _recent_turns(self, viewer: int | None) -> list[Turn]:
        """The turns since ``viewer`` last moved (at most one round), else the last one."""
        history = self.game.history
        recent: list[Turn] = []
        for turn in reversed(history[-(self.game.players - 1):] if viewer is not None
                             else history[-1:]):
            if turn.player == viewer:
                break
            recent.insert(0, turn)
        return recent or history[-1:]

    def _first_draw_text(self) -> Text:
        game = self.game
        out = Text("Draw for first play: ", style="dim")
        parts = []
        for draws in game.first_draws:
            parts.append(", ".join(f"{self.seats[s].name} {t}" for s, t in sorted(draws.items())))
        out.append("; then ".join(parts), style="dim")
        out.append(f"\n{self.seats[game.first_player].name} play"
                   f"{'' if self.seats[game.first_player].name == 'You' else 's'} first.")
        return out

    def intro(self) -> Reply:
        """What to say when a game starts or resumes."""
        reply = Reply()
        game = self.game
        if game.history:
            reply.add(f"Resumed: turn {len(game.history) + 1}, {self.to_move.name} to move.",
                      "bold")
        elif game.first_draws:  # said before anyone moves, even when a computer starts
            reply.add(self._first_draw_text())
        return reply

    # ----- commands -------------------------------------------------------------
    def handle(self, text: str) -> Reply:
        """Act on one line typed by the person at the keyboard."""
        text = (text or "").strip()
        state = self.state
        word = text.split()[0].lower() if text else ""
        command = _COMMANDS.get(word) if len(text.split()) <= 1 else None
        if command == "quit":
            return Reply(quit=True)
        if command == "help":
            reply = Reply()
            reply.add(render.render_help())
            return reply
        if command == "rules":
            reply = Reply()
            reply.add(render.render_legend(self.game.rules, self.plain))
            return reply
        if command == "save":
            return Reply(save=True)
        if command == "board":
            self.needs_screen = True
            return Reply()
        if state == OVER:
            reply = Reply()
            reply.error("the match is over")
            return reply
        if state == NEXT_GAME:
            self.between_games = False
            self.needs_screen = True
            reply = self.intro()
            reply.changed = True
            return reply
        if state == HANDOVER:
            self.at_keyboard = (self.game.turn, len(self.game.history))
            self.needs_screen = True
            return Reply()
        if state == CLAIM:
            return self._claim(text)
        if state == THINKING:
            reply = Reply()
            reply.error(f"{self.to_move.name} is to move, not you")
            return reply
        # MOVE
        if command == "hint":
            return self._hint()
        if command == "undo":
            return self._undo()
        if command == "joker":
            return self._call_joker()
        if not text:
            reply = Reply()
            reply.error("type a move such as G7 across 7A7A, or help")
            return reply
        return self._action(text)

    def _action(self, text: str) -> Reply:
        reply = Reply()
        game = self.game
        first = text.split()[0].lower()
        looks_like_move = bool(_SQUARE_START.match(first)) or first in {
            "exchange", "x", "swap", "pass", "p"}
        if not looks_like_move:
            reply.error(f"unknown command {text.split()[0]!r}: type a move such as"
                        " G7 across 7A7A, exchange 7L, pass, or help")
            return reply
        try:
            action = parse_action(text, game.board, game.racks[game.turn])
        except NotationError as e:
            reply.error(str(e))
            return reply
        if isinstance(action, Play):
            try:
                score = game.check(action)
            except IllegalPlay as e:
                reply.error(str(e))
                return reply
            if game.rules.joker:
                self.pending = action
                self.needs_screen = True
                reply.add(Text.assemble(
                    "Your play ", (format_play(action, game.board), "bold"),
                    ": count it yourself. ",
                    ("(cancel to take it back)", "dim")))
                del score
                return reply
        try:
            turn = game.play(action)
        except IllegalAction as e:
            reply.error(str(e))
            return reply
        self._after_turn(turn, reply)
        return reply

    def _claim(self, text: str) -> Reply:
        reply = Reply()
        game = self.game
        play = self.pending
        assert play is not None
        if text.lower() in {"cancel", "undo", "back", "c"}:
            self.pending = None
            reply.add("Play taken back.")
            return reply
        try:
            claim = int(text)
        except ValueError:
            reply.error("type the number of points you claim for your play (or cancel)")
            return reply
        if claim < 0:
            reply.error("a claim cannot be negative")
            return reply
        # The claim is final: above the value it is corrected and the excess goes to the
        # next player, so it is never refused (which would tell the value).
        self.pending = None
        turn = game.play(play, claim)
        self._after_turn(turn, reply)
        return reply

    def _after_turn(self, turn: Turn, reply: Reply) -> None:
        """Describe the turn just taken by a person, let computers call Joker, end the game."""
        game = self.game
        name = self.seats[turn.player].name
        if turn.overclaim is not None:  # first, so that the message line shows it whole
            taker = self.seats[turn.overclaim["player"]].name
            reply.add(render.overclaim_text(turn, name, taker), "bold yellow")
        reply.add(render.render_turn(game, turn, name, own=True, correction=False))
        if turn.action == "play" and turn.claimed is not None and turn.claimed < turn.score:
            who = "You" if name == "You" else name
            reply.add(f"{who} missed {turn.score - turn.claimed} point"
                      f"{'s' if turn.score - turn.claimed != 1 else ''}.", "yellow")
        if game.joker_open():
            missed = game.missed_points()
            for k in range(1, game.players):
                other = (turn.player + k) % game.players
                player = self.players[other]
                if player is not None and player.calls_joker(game.view(other), missed):
                    points = game.call_joker(other)
                    reply.add(f"Joker! {self.seats[other].name} "
                              + (f"takes the {points} missed point{'s' if points != 1 else ''}."
                                 if points > 0 else f"called wrongly and loses {-points}."),
                              "bold yellow")
                    break
        reply.changed = True
        self.needs_screen = True
        self._check_end(reply)

    def _check_end(self, reply: Reply) -> None:
        game = self.game
        if not game.is_over:
            return
        last = game.history[-1] if game.history else None
        marked = list(last.tiles) if last is not None and last.action == "play" else []
        reply.add(render.render_board(game.board, marked, self.plain))
        reply.add(render.render_result(game, [s.name for s in self.seats]))
        record = self.record()
        self.match.add_result(game.final_scores)
        self.finished.append(record)
        reply.finished.append(record)
        if self.match.games > 1:
            reply.add(render.render_match(self.match.names, self.match.results,
                                          self.match.games,
                                          self.match.servant if game.rules.servant else None))
            if self.match.is_over:
                winners = self.match.winners()
                names = " and ".join(self.seats[w].name for w in winners)
                verb = "share" if len(winners) > 1 else ("win" if names == "You" else "wins")
                reply.add(f"{names} {verb} the match.", "bold green")
        else:
            winners = game.winners()
            names = " and ".join(self.seats[w].name for w in winners)
            verb = "share the win" if len(winners) > 1 else \
                ("win" if names == "You" else "wins")
            reply.add(f"{names} {verb}.", "bold green")
        if not self.match.is_over:
            self.game = self.match.new_game()
            self.between_games = True
            self.at_keyboard = None
        reply.changed = True

    def computer_turn(self) -> Reply:
        """Let the computer to move take its turn (and computers call Joker)."""
        reply = Reply()
        if self.state != THINKING:
            reply.error("no computer is to move")
            return reply
        game = self.game
        players = [p if p is not None else _PersonAtTheTable() for p in self.players]
        turn = take_turn(game, players)
        name = self.seats[turn.player].name
        line = Text(f"{name} ")
        if turn.action == "play":
            line.append("played ")
            line.append(render.play_notation(turn, game.board), style="bold")
            nxt = self.seats[game.turn]
            if game.rules.joker and game.joker_open() and nxt.is_human:
                line.append(f", claiming {turn.claimed}.")
            else:
                line.append(f" for {turn.score}.")
        elif turn.action == "exchange":
            n = len(turn.returned)
            line.append(f"exchanged {n} tile{'s' if n != 1 else ''}.")
        else:
            line.append("passed.")
        reply.add(line)
        if turn.joker is not None:
            caller = self.seats[turn.joker["caller"]].name
            reply.add(f"Joker! {caller} took {turn.joker['points']} points.", "yellow")
        reply.changed = True
        self.needs_screen = True
        self._check_end(reply)
        return reply

    def _hint(self) -> Reply:
        reply = Reply()
        game = self.game
        options = best_options(game.view(game.turn), top=HINTS, seed=len(game.history))
        if not any(isinstance(o.action, Play) for o in options) and not game.legal_moves():
            can = game.can_exchange(min(len(game.racks[game.turn]), 5) or 1)
            reply.add("No play is possible with your rack: "
                      + ("exchange some tiles or pass." if can else "pass."), "yellow")
        if game.rules.joker:
            # The claim is your own count: the options best first, without their points
            # (nor the equity, which would tell them).
            table = Table(title="Best options (Joker rule: count the points yourself)",
                          title_justify="left", title_style="bold", box=None, padding=(0, 2),
                          min_width=56)
            table.add_column("option", style="bold cyan", no_wrap=True)
            for o in options:
                table.add_row(o.move)
            reply.add(table)
            return reply
        table = Table(title="Best options by equity", title_justify="left",
                      title_style="bold", box=None, padding=(0, 2))
        table.add_column("option", style="bold cyan", no_wrap=True)
        table.add_column("points", justify="right")
        table.add_column("leave", justify="right")
        table.add_column("reply", justify="right")
        table.add_column("equity", justify="right", style="bold")
        for o in options:
            table.add_row(o.move, str(o.score), f"{o.leave:+.1f}",
                          "-" if o.reply is None else f"{o.reply:.1f}", f"{o.equity:.1f}")
        reply.add(table)
        reply.add("equity = points + the value of the tiles kept - a share of the next"
                  " player's expected best reply", "dim")
        return reply

    def _undo(self) -> Reply:
        reply = Reply()
        game = self.game
        me = game.turn
        count = 0
        others = 0
        for turn in reversed(game.history):
            count += 1 + (turn.joker is not None)
            if turn.player == me:
                break
            if self.seats[turn.player].is_human:
                reply.error(f"cannot undo: {self.seats[turn.player].name} has moved since"
                            " your last turn")
                return reply
            others += 1
        else:
            reply.error("there is no turn of yours to take back")
            return reply
        for _ in range(count):
            game.undo()
        # The bag goes back to its order before the turn: shuffle it from fresh secret
        # randomness, or undo would let a player see what an exchange or play would draw.
        game.reshuffle(secrets.randbits(31))
        self.at_keyboard = (game.turn, len(game.history))
        self.needs_screen = True
        reply.changed = True
        extra = f" and {others} turn{'s' if others != 1 else ''} after it" if others else ""
        reply.add(f"Took back your last turn{extra}.")
        return reply

    def _call_joker(self) -> Reply:
        reply = Reply()
        game = self.game
        me = game.turn
        if not game.rules.joker:
            reply.error("the joker rule is off in this game (start with --joker)")
            return reply
        if not game.joker_open():
            reply.error("Joker can be called only on the play just made, once, before you move")
            return reply
        last = game.history[-1]
        if last.player == me:
            reply.error("you cannot call Joker on your own play")
            return reply
        points = game.call_joker(me)
        if points > 0:
            reply.add(f"Joker! You take {points} missed point{'s' if points != 1 else ''}.",
                      "bold yellow")
        else:
            reply.add(f"Nothing was missed: the call costs you {-points} points.", "yellow")
        reply.changed = True
        self.needs_screen = True
        return reply


_COMPLETIONS = ("exchange ", "pass", "hint", "undo", "rules", "help", "save", "quit", "joker")


def complete(text: str) -> str | None:
    """The line ``text`` completed to a command or a direction (``G7 a`` -> ``G7 across ``),
    or None. Completion is offered only where the rest is certain."""
    if not text or text != text.lstrip():
        return None
    words = text.split(" ")
    if len(words) == 1:
        matches = [c for c in _COMPLETIONS if c.startswith(text.lower())]
        return text + matches[0][len(text):] if len(matches) == 1 else None
    if len(words) == 2 and _SQUARE_START.match(words[0]) and words[1]:
        for word in ("across ", "down "):
            if word.startswith(words[1].lower()) and words[1].lower() != word:
                return text + word[len(words[1]):]
    return None


def describe_seats(seats: Sequence[Seat]) -> str:
    return ", ".join(f"{s.name}{' ' + s.tag if s.tag else ''}" for s in seats)


__all__ = [
    "CLAIM",
    "HANDOVER",
    "MOVE",
    "NEXT_GAME",
    "OVER",
    "THINKING",
    "Reply",
    "Seat",
    "Session",
    "complete",
    "default_level",
    "describe_seats",
    "make_seats",
]
