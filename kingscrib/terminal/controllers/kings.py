"""The terminal game's controller: text commands in, things to show out as plain data
(:mod:`kingscrib.terminal.controllers.reply`; :mod:`kingscrib.terminal.views` draws
them), no I/O.

A :class:`Session` holds a match (one or more games), its seats (people or
computer players) and the game in progress. The front end asks for
:attr:`Session.state` and :meth:`Session.prompt`, passes each line the user
types to :meth:`Session.handle`, runs :meth:`Session.computer_turn` while a
computer is to move, and shows the :class:`Reply` it gets back. After every
change, :meth:`Session.snapshot` is the autosave; :meth:`Session.from_snapshot`
resumes it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kingscrib.kings.game import Game, IllegalAction, PlayerView, Turn
from kingscrib.kings.match import Match
from kingscrib.kings.moves import Action, Play, ScoredPlay
from kingscrib.kings.notation import NotationError, format_play, parse_action
from kingscrib.kings.play import IllegalPlay
from kingscrib.kings.record import game_from_record
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import Tile
from kingscrib.players import level_names
from kingscrib.players.kings import PLAYERS, make_player
from kingscrib.players.kings.analysis import Option, best_options
from kingscrib.players.kings.defence import DEFENCE_WEIGHT
from kingscrib.players.kings.driver import take_turn
from kingscrib.players.level_names import GENTLE_DEFAULT
from kingscrib.terminal.controllers.reply import (
    ALERT,
    CLAIM,
    HANDOVER,
    MOVE,
    NEXT_GAME,
    OVER,
    QUIET,
    STRONG,
    THINKING,
    WARNING,
    WIN,
    Help,
    Line,
    Message,
    Reply,
)

SNAPSHOT_FORMAT = "kingscrib-autosave/1"
HUMAN, COMPUTER = "human", "computer"
LEVEL_ORDER = ("expert", "hard", "medium", "easy", "greedy")
HINTS = 5

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
    first (:data:`kingscrib.players.level_names.GENTLE_DEFAULT`), else the strongest registered."""
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
        """The level of a computer seat by its title (kingscrib.players.level_names: the seat keeps
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


# The words hints and puzzles use (docs/play.md, "Words in hints and puzzles").
GLOSSARY = (
    ("equity", f"what hints rank by: the play's points + its leave - {DEFENCE_WEIGHT:g} x"
               " the reply"),
    ("leave", "the worth of the tiles you keep on your rack, learned from many games"),
    ("reply", "the points the next player is expected to score in answer (over racks"
              " drawn from the tiles you have not seen)"),
    ("play-out", "the game played on to its end by computers from a position; many of"
                 " them check a puzzle's answer (\"Simulation agrees\")"),
)

HELP_LINES = (
    ("G7 across 7A7A", "play: the first square, across or down, the tiles in board order"),
    ("7A7A", "tiles written together, a character each: A, 2-9, T (ten), J, Q, K; spaces"
             " allowed (7 A 7 A); add L/D for a colour (7L), 6 or 9 for a 6/9 tile's face"),
    ("H8 3D", "one tile needs no direction; colours L/D only when your rack has both"),
    ("F7 down 7 (8) 7", "tiles already on the board may be written in parentheses"),
    ("exchange 7L KD", "swap tiles with the bag (short: x 7 K)"),
    ("pass", "do nothing this turn"),
    ("hint", "the best plays the engine finds, by equity (the words below)"),
    *GLOSSARY,
    ("joker", "(joker rule) call Joker on the last play before your move"),
    ("undo", "take back your last turn and the computer's after it; the bag is then"
             " shuffled again, so the same move may draw other tiles"),
    ("rules", "the rules in short and the options in force (also: legend)"),
    ("board", "draw the board again"),
    ("save", "save now (the game is saved after every move anyway)"),
    ("quit", "stop; resume later with kingscrib play --resume"),
)


@dataclass(frozen=True)
class KingsRules(Message):
    """The rules in short, with the options of ``rules``."""

    rules: RuleSet


@dataclass(frozen=True)
class TurnSaid(Message):
    """A turn just taken, with its breakdown (the board as it is after it)."""

    game: Game
    turn: Turn
    name: str
    own: bool = False  # the player who took it is looking (an exchange shows its tiles)
    correction: bool = True  # say how an over-claim was corrected


@dataclass(frozen=True)
class FinalBoard(Message):
    """The board at the end of a game, the last play marked."""

    tiles: Mapping[int, Tile]
    marked: tuple[int, ...]


@dataclass(frozen=True)
class GameResult(Message):
    """The end of a game: scores, rack penalties, final scores, the winners."""

    game: Game
    names: tuple[str, ...]


@dataclass(frozen=True)
class MatchScores(Message):
    """The match so far: each game's scores and the totals."""

    names: tuple[str, ...]
    results: tuple[tuple[int, ...], ...]
    games: int
    servant: int | None


@dataclass(frozen=True)
class Hints(Message):
    """The best options found; under the joker rule without their points."""

    options: tuple[Option, ...]
    joker: bool


def overclaim_text(turn: Turn, claimer: str, taker: str) -> str:
    """A claim above the play's value, as corrected: "You claimed 14; the play is worth
    12: 2 go to Computer." """
    n = turn.overclaim["points"] if turn.overclaim else 0
    return (f"{claimer} claimed {turn.claimed}; the play is worth {turn.score}: {n}"
            f" go{'es' if n == 1 else ''} to {'you' if taker == 'You' else taker}.")


def play_notation(turn: Turn, board: Mapping[int, Tile]) -> str:
    return format_play(Play.of(turn.tiles), board)


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

    # ----- making and saving ------------------------------------------------
    @classmethod
    def new(cls, seats: Sequence[Seat], rules: RuleSet | None = None, games: int = 1,
            seed: int | None = None) -> Session:
        rules = rules or RuleSet()
        match = Match([s.name for s in seats], games=games, rules=rules, seed=seed)
        return cls(seats, match)

    def rematch(self) -> None:
        """Start a new match between the same seats under the same rules, in place (the
        front ends keep saving this session), with a new seed."""
        old = self.match
        self.match = Match(list(old.names), games=old.games, rules=old.rules)
        self.game = self.match.new_game()
        self.finished = []
        self.between_games = False
        self.players = [None if s.is_human else make_player(s.level or default_level(),
                                                            self._player_seed(i))
                        for i, s in enumerate(self.seats)]
        self.pending = None
        self.at_keyboard = None
        self.needs_screen = True

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
        if state == OVER:
            return "The match is over" if self.match.games > 1 else "The game is over"
        name = self.to_move.name
        if state == THINKING:
            return f"{name} is thinking"
        return "Your move" if name == "You" else f"{name}, your move"

    # ----- drawing ------------------------------------------------------------
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

    def recent_turns(self, viewer: int | None) -> list[Turn]:
        """The turns since ``viewer`` last moved (at most one round), else the last one."""
        history = self.game.history
        recent: list[Turn] = []
        for turn in reversed(history[-(self.game.players - 1):] if viewer is not None
                             else history[-1:]):
            if turn.player == viewer:
                break
            recent.insert(0, turn)
        return recent or history[-1:]

    def first_draw_line(self) -> Line:
        """Who drew what for the first play, and who plays first."""
        game = self.game
        parts = []
        for draws in game.first_draws:
            parts.append(", ".join(f"{self.seats[s].name} {t}" for s, t in sorted(draws.items())))
        first = self.seats[game.first_player].name
        return Line((("Draw for first play: ", ""), ("; then ".join(parts), QUIET),
                     (f"\n{first} play{'' if first == 'You' else 's'} first.", "")), QUIET)

    def intro(self) -> Reply:
        """What to say when a game starts or resumes."""
        reply = Reply()
        game = self.game
        if game.history:
            reply.add(f"Resumed: turn {len(game.history) + 1}, {self.to_move.name} to move.",
                      STRONG)
        elif game.first_draws:  # said before anyone moves, even when a computer starts
            reply.add(self.first_draw_line())
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
            reply.add(Help(HELP_LINES))
            return reply
        if command == "rules":
            reply = Reply()
            reply.add(KingsRules(self.game.rules))
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
                reply.add(Line((("Your play ", ""), (format_play(action, game.board), STRONG),
                                (": count it yourself. ", ""),
                                ("(cancel to take it back)", QUIET))))
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
            reply.add(overclaim_text(turn, name, taker), ALERT)
        reply.add(TurnSaid(game, turn, name, own=True, correction=False))
        if turn.action == "play" and turn.claimed is not None and turn.claimed < turn.score:
            who = "You" if name == "You" else name
            reply.add(f"{who} missed {turn.score - turn.claimed} point"
                      f"{'s' if turn.score - turn.claimed != 1 else ''}.", WARNING)
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
                              ALERT)
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
        reply.add(FinalBoard(dict(game.board), tuple(marked)))
        reply.add(GameResult(game, tuple(s.name for s in self.seats)))
        record = self.record()
        self.match.add_result(game.final_scores)
        self.finished.append(record)
        reply.finished.append(record)
        if self.match.games > 1:
            reply.add(MatchScores(tuple(self.match.names),
                                  tuple(tuple(r) for r in self.match.results),
                                  self.match.games,
                                  self.match.servant if game.rules.servant else None))
            if self.match.is_over:
                winners = self.match.winners()
                names = " and ".join(self.seats[w].name for w in winners)
                verb = "share" if len(winners) > 1 else ("win" if names == "You" else "wins")
                reply.add(f"{names} {verb} the match.", WIN)
        else:
            winners = game.winners()
            names = " and ".join(self.seats[w].name for w in winners)
            verb = "share the win" if len(winners) > 1 else \
                ("win" if names == "You" else "wins")
            reply.add(f"{names} {verb}.", WIN)
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
        line = Line.of(f"{name} ")
        if turn.action == "play":
            line = line.then("played ").then(play_notation(turn, game.board), STRONG)
            nxt = self.seats[game.turn]
            if game.rules.joker and game.joker_open() and nxt.is_human:
                line = line.then(f", claiming {turn.claimed}.")
            else:
                line = line.then(f" for {turn.score}.")
        elif turn.action == "exchange":
            n = len(turn.returned)
            line = line.then(f"exchanged {n} tile{'s' if n != 1 else ''}.")
        else:
            line = line.then("passed.")
        reply.add(line)
        if turn.joker is not None:
            caller = self.seats[turn.joker["caller"]].name
            reply.add(f"Joker! {caller} took {turn.joker['points']} points.", WARNING)
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
                      + ("exchange some tiles or pass." if can else "pass."), WARNING)
        reply.add(Hints(tuple(options), game.rules.joker))
        if not game.rules.joker:
            reply.add(f"equity = points + the value of the tiles kept - {DEFENCE_WEIGHT:g} x"
                      " the next player's expected best reply", QUIET)
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
                      ALERT)
        else:
            reply.add(f"Nothing was missed: the call costs you {-points} points.", WARNING)
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
    "HELP_LINES",
    "MOVE",
    "NEXT_GAME",
    "OVER",
    "THINKING",
    "FinalBoard",
    "GameResult",
    "Hints",
    "KingsRules",
    "MatchScores",
    "Reply",
    "Seat",
    "Session",
    "TurnSaid",
    "complete",
    "default_level",
    "describe_seats",
    "make_seats",
    "overclaim_text",
    "play_notation",
]
