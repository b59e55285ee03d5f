"""The classic Cribbage game's controller: text commands in, things to show out, no I/O.

Like :class:`kingscrib.terminal.controllers.kings.Session` for Kings Cribbage, a
:class:`ClassicSession` holds the game, its seats (people or computer players of a
level) and what has been shown; both the line mode and the full-screen app of
``kingscrib classic play`` pass each line typed to :meth:`ClassicSession.handle`,
run :meth:`ClassicSession.computer_turn` while a computer is to act, and save
:meth:`ClassicSession.snapshot` after every action.

Cards are always shown with suit symbols (``6♣``); they are typed in the one grammar of
:mod:`kingscrib.classic.naming` (``6C``, ``6c``, ``6♣``, a rank alone, ``#3`` for a place),
which asks which was meant when a number could be a rank or a place.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kingscrib.classic.cards import Card
from kingscrib.classic.game import (
    Action,
    Claim,
    ClassicGame,
    Discard,
    Event,
    IllegalAction,
    Play,
    possessive,
)
from kingscrib.classic.naming import WhichCards, read_cards
from kingscrib.classic.record import RecordError, replay
from kingscrib.classic.rules import WINNING_SCORE, RuleSet
from kingscrib.common.shuffle import Seed
from kingscrib.counting import parse_rank
from kingscrib.players import level_names
from kingscrib.players.classic import LEVELS, TWO_PLAYER_NAMES, make_player
from kingscrib.players.classic.coach import Advice, coach_discard, coach_play
from kingscrib.terminal.controllers.reply import (
    ALERT,
    GOAL,
    HANDOVER,
    MOVE,
    OVER,
    QUIET,
    RED_CARD,
    STRONG,
    THINKING,
    WIN,
    Help,
    Line,
    Message,
    Reply,
)

if TYPE_CHECKING:
    from kingscrib.classic.discard import DiscardOption

SNAPSHOT_FORMAT = "kingscrib-classic-autosave/1"
_CODE = re.compile(r"\b(10|[A2-9TJQK])([CDHS])\b")
# No one-letter "q" for quit: Q is a queen here.
_COMMANDS = {"help": "help", "?": "help", "h": "help", "hint": "hint", "coach": "coach",
             "quit": "quit", "exit": "quit", "save": "save", "rules": "rules"}

# The words hints and the coach use (docs/play.md, "Words in Cribbage's hints").
GLOSSARY = (
    ("expected", "averaged over every starter that may turn up and every way the cards you"
                 " cannot see may fill the crib"),
    ("hand", "the points the four cards you keep are expected to score in the show"),
    ("crib", "what the two cards laid away are expected to add to the crib: + when it is"
             " yours, - when it is theirs"),
    ("pegging", "the points you expect to peg in the play, yours less your opponent's"),
    ("chance to win", "how often a player wins the game from these scores and this deal, by"
                      " the expert's tables; near the end it ranks the options"),
)

GLOSSARY_LINK = "F1 (help) says what expected, hand, crib, pegging and chance to win mean."

HELP_LINES = [
    ("5H JD  or  5♥ J♦  or  5 J", "lay away cards: rank then suit (letter or symbol), or a"
                                " rank alone when your hand holds one card of it"),
    ("#1 #2", "cards by their place in your hand as shown (1: is the first); a bare number"
              " that is no rank in your hand is a place too"),
    ("7C  or  7  or  #3", "lay one card in the play (the same ways)"),
    ("2 3  (asked)", "a number that could be a rank or a place is never guessed: you are"
                     " asked which, and told what to type for each"),
    ("12", "(muggins) the points you count in your hand or crib, once: points missed, or"
           " claimed too many, go to the next player"),
    ("hint", "laying away: the best discards by expected points; in the play (two"
             " players): the coach's best card and why (the words below)"),
    ("coach", "(two players) the expert's best discard or card, with each option's chance"
              " to win"),
    *GLOSSARY,
    ("rules", "the rules in short, with this game's options"),
    ("save", "save now (the game is saved after every action anyway)"),
    ("quit", "stop; resume later with kingscrib classic play --resume"),
]


def pretty_text(text: str) -> str:
    """Card codes in a message written with suit symbols: ``6C`` -> ``6♣``."""
    return _CODE.sub(lambda m: Card(parse_rank(m.group(1)), m.group(2)).pretty(), text)


Run = tuple[str, str]


def card_runs(card: Card) -> tuple[Run, ...]:
    """A card with its suit symbol, red or black."""
    return ((card.pretty(), RED_CARD if card.is_red else STRONG),)


def cards_runs(cards: Sequence[Card], numbered: bool = False) -> tuple[Run, ...]:
    """Cards two spaces apart; ``numbered``: each after its place (``1:``)."""
    runs: list[Run] = []
    for i, c in enumerate(cards):
        if i:
            runs.append(("  ", ""))
        if numbered:
            runs.append((f"{i + 1}:", QUIET))
        runs.extend(card_runs(c))
    return tuple(runs)


def cards_line(cards: Sequence[Card], numbered: bool = False) -> Line:
    return Line(cards_runs(cards, numbered))


@dataclass(frozen=True)
class CribbageRules(Message):
    """The rules in short, with the options of ``rules``."""

    rules: RuleSet


@dataclass(frozen=True)
class DiscardHints(Message):
    """The best discards by expected points."""

    options: tuple[DiscardOption, ...]


@dataclass(frozen=True)
class PegBoard(Message):
    """The peg board of ``game``: each side's front peg at its score, its back peg at
    ``back`` (its score before its last points)."""

    game: ClassicGame
    back: tuple[int, ...]


# The goal in one line, for a newcomer's first screen.
CRIBBAGE_GOAL = ("score from your cards in the play and the show (15s, pairs, runs); the first"
                 " to 121 wins. New? kingscrib learn --game cribbage")


def computer_seed(seed: Seed, seat: int) -> int:
    """The seed of the computer player at ``seat`` in a game of ``seed``: ``seed * 10 +
    seat`` for a number, a number drawn from a secret seed (a game from the server) else."""
    if isinstance(seed, int):
        return seed * 10 + seat
    return int.from_bytes(hashlib.sha256(f"{seed}/{seat}".encode()).digest()[:6], "big")


class ClassicSession:
    """A classic game between people (``humans``: their seats) and computers of ``level``."""

    def __init__(self, game: ClassicGame, humans: Sequence[int], level: str) -> None:
        players = game.rules.players
        if level not in LEVELS + TWO_PLAYER_NAMES:
            known = ", ".join(LEVELS + TWO_PLAYER_NAMES)
            raise ValueError(f"unknown computer level {level!r} (known: {known})")
        if level in TWO_PLAYER_NAMES and players != 2:
            raise ValueError(f"the {level} computer plays the two-player game only")
        if not humans or any(not 0 <= h < players for h in humans):
            raise ValueError(f"the people sit at seats 0 to {players - 1}")
        self.game = game
        self.humans = sorted(set(humans))
        self.level = level
        self.computers = {s: make_player(level, computer_seed(game.seed, s))
                          for s in range(players) if s not in self.humans}
        self.seen = len(game.events)  # events already shown
        self.at_keyboard: tuple[int, int] | None = None

    @property
    def back_pegs(self) -> list[int]:
        """Each side's score before its last points, from the game's events (so a resumed
        game shows the back pegs where they were)."""
        g = self.game
        front, back = [0] * g.rules.sides, [0] * g.rules.sides
        for e in g.events:
            if e.points > 0:
                side = g.rules.side_of(e.seat)
                back[side] = front[side]
                front[side] = min(WINNING_SCORE, front[side] + e.points)
        return back

    # ----- making and saving ------------------------------------------------------
    @classmethod
    def new(cls, players: int = 2, humans: int = 1, level: str = "expert",
            muggins: bool = False, skunk: bool = False, seed: int | None = None,
            name: str = "you") -> ClassicSession:
        if not 1 <= humans <= players:
            raise ValueError(f"{humans} people do not fit in a {players}-player game")
        rules = RuleSet(players=players, muggins=muggins, skunk=skunk)
        names = [name if humans == 1 else f"{name} {i + 1}" for i in range(humans)]
        names += [f"computer {i + 1}" if players - humans > 1 else "computer"
                  for i in range(players - humans)]
        game = ClassicGame(rules, seed=seed if seed is not None else random.randrange(10**9),
                           names=names)
        session = cls(game, list(range(humans)), level)
        session.seen = 0
        return session

    def rematch(self) -> None:
        """A new game between the same seats under the same rules, in place (the front
        ends keep saving this session), with a new seed."""
        old = self.game
        self.game = ClassicGame(old.rules, seed=random.randrange(10**9), names=list(old.names))
        self.computers = {s: make_player(self.level, computer_seed(self.game.seed, s))
                          for s in self.computers}
        self.seen = 0
        self.at_keyboard = None

    def snapshot(self) -> dict[str, Any]:
        return {"format": SNAPSHOT_FORMAT, "record": self.game.record(),
                "humans": self.humans, "level": self.level}

    @classmethod
    def from_snapshot(cls, data: Any) -> ClassicSession:
        """Resume a snapshot; raises ValueError saying what is wrong with it."""
        if not isinstance(data, dict) or data.get("format", SNAPSHOT_FORMAT) != SNAPSHOT_FORMAT:
            raise ValueError("this is not a classic Cribbage autosave")
        missing = [k for k in ("record", "humans") if k not in data]
        if missing:
            raise ValueError(f"the autosave has no {', '.join(repr(k) for k in missing)}")
        try:
            game = replay(data["record"])
            humans = [int(h) for h in data["humans"]]
        except (RecordError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"the autosave cannot be read: {exc}") from None
        return cls(game, humans, data.get("level", "expert"))

    # ----- where we are -------------------------------------------------------------
    @property
    def state(self) -> str:
        g = self.game
        if g.phase == "over" or g.to_act is None:
            return OVER
        if g.to_act in self.computers:
            return THINKING
        if len(self.humans) > 1 and self.at_keyboard != (g.to_act, len(g.events)):
            return HANDOVER
        return MOVE

    def name(self, seat: int) -> str:
        return self.game.names[seat]

    def viewer(self) -> int | None:
        """The seat whose hand may be shown now."""
        if self.state == MOVE:
            return self.game.to_act
        return self.humans[0] if len(self.humans) == 1 else None

    def prompt(self) -> str:
        g = self.game
        state = self.state
        if state == OVER:
            return "The game is over"
        seat = g.to_act
        assert seat is not None
        name = self.name(seat)
        if state == HANDOVER:
            return f"Pass the keyboard to {name} and press Enter"
        if state == THINKING:
            return f"{name} is thinking"
        if g.phase == "discard":
            view = g.view(seat)
            whose = "your" if g.rules.side_of(g.dealer) == view.side else "their"
            n = g.rules.discards
            return (f"{name}: lay away {n} card{'s' if n != 1 else ''} to {whose} crib · "
                    f"{self._how_to_name(view.hand)}")
        if g.phase == "play":
            return f"{name}: your card (count {g.count}) · {self._how_to_name(g.view(seat).hand)}"
        item = g.show_item
        return f"{name}: count your {item.kind if item else 'hand'}"

    @staticmethod
    def _how_to_name(hand: Sequence[Card]) -> str:
        """How cards are named, with an example from ``hand``: a card whose rank is also a
        place in the hand when there is one, since a digit means the place."""
        hand = sorted(hand)
        if not hand:
            return ""
        example = next((c for c in hand if c.rank <= len(hand) and c.rank <= 9), hand[-1])
        places = f"#1-#{len(hand)}" if len(hand) > 1 else "#1"
        return f"type {example.pretty()} or {str(example).lower()}, a rank, or {places} by place"

    # ----- commands -------------------------------------------------------------------
    def handle(self, text: str) -> Reply:
        """Act on one line typed by the person at the keyboard."""
        text = (text or "").strip()
        command = _COMMANDS.get(text.lower())
        reply = Reply()
        if command == "quit":
            return Reply(quit=True)
        if command == "save":
            return Reply(save=True)
        if command == "help":
            reply.add(Help(HELP_LINES))
            return reply
        if command == "rules":
            reply.add(CribbageRules(self.game.rules))
            return reply
        state = self.state
        if command == "coach" and state != MOVE:
            reply.error(self._not_yours())
            return reply
        if state == OVER:
            reply.error("the game is over")
            return reply
        if state == HANDOVER:
            self.at_keyboard = (self.game.to_act, len(self.game.events))  # type: ignore[assignment]
            return reply
        if state == THINKING:
            reply.error(f"{self.name(self.game.to_act)} is to act, not you")  # type: ignore[arg-type]
            return reply
        if command == "hint":
            return self._hint()
        if command == "coach":
            return self._coach()
        g = self.game
        seat = g.to_act
        assert seat is not None
        hand = sorted(g.view(seat).hand)
        try:
            if g.phase == "discard":
                action: Action = Discard(tuple(read_cards(text, hand)))
            elif g.phase == "play":
                cards = read_cards(text, hand)
                if len(cards) != 1:
                    raise ValueError("lay one card")
                action = Play(cards[0])
            else:
                try:
                    action = Claim(int(text))
                except ValueError:
                    raise ValueError(f"{text!r} is not a number: type the points you count"
                                     " (or help)") from None
            self._apply(action, reply)
        except WhichCards as which:  # a question, not a mistake: nothing changed
            reply.add(Line.of(str(which), ALERT))
        except (ValueError, IllegalAction) as exc:
            reply.error(pretty_text(str(exc)))
        return reply

    def computer_turn(self) -> Reply:
        """Let the computer to act take its action."""
        reply = Reply()
        seat = self.game.to_act
        if self.state != THINKING or seat is None:
            reply.error("no computer is to act")
            return reply
        self._apply(self.computers[seat].choose(self.game.view(seat)), reply)
        return reply

    def _apply(self, action: Action, reply: Reply) -> None:
        g = self.game
        seat = g.to_act
        assert seat is not None
        g.apply(action)
        if isinstance(action, Discard):  # no event says it: echo it (the cards to their owner)
            crib = possessive(g.names[g.dealer]) if g.names[g.dealer] != g.names[seat] \
                else "your" if g.names[seat] == "you" else "their"
            runs: tuple[Run, ...] = ((f"  {g.names[seat]} laid away ", ""),)
            if seat in self.humans:
                runs += cards_runs(action.cards)
            else:
                n = len(action.cards)
                runs += ((f"{n} card{'s' if n != 1 else ''}", ""),)
            reply.messages.append(Line((*runs, (f" to {crib} crib", ""))))
        reply.messages.extend(self.event_lines(self.game.events[self.seen:]))
        self.seen = len(self.game.events)
        reply.changed = True
        if self.game.phase == "over":
            reply.messages.extend(self.result_lines())
            reply.finished.append(self.game.record())

    def coach_advice(self) -> Advice:
        """The coach's advice for the person to act now: the best discard or card to lay
        (:func:`coach_discard` / :func:`coach_play` on that seat's view). Raises ValueError
        saying why when there is none: not a person's decision, not a discard or a card to
        lay, or not a two-player game."""
        g = self.game
        if self.state != MOVE:
            raise ValueError(self._not_yours())
        if g.rules.players != 2:
            raise ValueError(f"the coach needs a two-player game (this one has "
                             f"{g.rules.players} players); type hint for the best discards")
        view = g.view(g.to_act)  # type: ignore[arg-type]
        if g.phase == "discard":
            me, them = view.scores[view.side], view.scores[1 - view.side]
            return coach_discard(view.hand, view.is_dealer, me, them)
        if g.phase == "play":
            return coach_play(view)
        raise ValueError("the coach advises on discards and cards to lay, not on counting"
                         " the show")

    def _not_yours(self) -> str:
        g = self.game
        if self.state == OVER:
            return "the game is over: there is nothing to coach"
        if self.state == HANDOVER:
            return f"pass the keyboard to {self.name(g.to_act)} first"  # type: ignore[arg-type]
        who = self.name(g.to_act)  # type: ignore[arg-type]
        return f"the coach advises only on your own decision: {who} is to act, not you"

    def _coach(self) -> Reply:
        reply = Reply()
        try:
            advice = self.coach_advice()
        except ValueError as exc:
            reply.error(pretty_text(str(exc)))
            return reply
        reply.add(f"Coach: {pretty_text(advice.best)}", STRONG)
        for line in advice.lines:
            reply.add(pretty_text(line))
        reply.add(Line.of(GLOSSARY_LINK, QUIET))
        return reply

    def _hint(self) -> Reply:
        from kingscrib.classic.discard import analyse_discards
        from kingscrib.players.classic.levels import owns_crib

        reply = Reply()
        g = self.game
        view = g.view(g.to_act)  # type: ignore[arg-type]
        if g.phase == "play" and g.rules.players == 2:
            return self._coach()  # the best card and why, not only the cards allowed
        if g.phase != "discard":
            playable = [a.card for a in view.legal if isinstance(a, Play)]
            reply.add(Line((("Cards you may lay: ", ""), *cards_runs(sorted(playable))))
                      if g.phase == "play" else Line.of("Count fifteens, pairs, runs, flush"
                                                        " and nobs."))
            return reply
        options = analyse_discards(list(view.hand), owns_crib(view), view.rules.discards)[:3]
        reply.add(DiscardHints(tuple(options)))
        reply.add(Line.of(GLOSSARY_LINK, QUIET))
        return reply

    # ----- drawing ----------------------------------------------------------------------
    def event_lines(self, events: Sequence[Event]) -> list[Line]:
        """A line for each event: who said go, pegged or showed what, and the win."""
        g = self.game
        lines = []
        for e in events:
            who = g.names[e.seat]
            if e.kind == "go-said":
                line = Line.of(f"  {who}: go")
            elif e.kind == "starter":
                line = Line((("  Starter: ", ""), *cards_runs(e.cards)))
            elif e.kind == "peg":
                line = Line(((f"  {who}: ", ""), *cards_runs(e.cards),
                             (f"  {pretty_text(e.text)}", "")))
            elif e.kind == "show":
                label, _, words = e.text.partition(": ")
                line = Line(((f"  {possessive(who)} {label}: ", ""), *cards_runs(e.cards),
                             (f"  {e.points}: {pretty_text(words)}", "")))
            elif e.kind == "win":
                line = Line.of(f"{e.text}!", WIN)
            else:
                pts = f" (+{e.points})" if e.points else ""
                line = Line.of(f"  {who}: {pretty_text(e.text)}{pts}")
            lines.append(line)
        return lines

    def result_lines(self) -> list[Message]:
        """The end of the game: the peg board, and a skunk when there is one."""
        g = self.game
        lines: list[Message] = [self.peg_board()]
        end = g.record().get("end", {})
        if g.rules.skunk and end.get("game_points", 1) > 1:
            lines.append(Line.of(f"A {'double ' if end['game_points'] == 3 else ''}skunk!",
                                 ALERT))
        return lines

    def peg_board(self) -> PegBoard:
        return PegBoard(self.game, tuple(self.back_pegs))

    def intro(self) -> Reply:
        reply = Reply()
        g = self.game
        if self.seen:
            score = ", ".join(f"{g.side_name(s)} {p}" for s, p in enumerate(g.scores))
            against = (f" against the computer at {level_names.title('cribbage', self.level)}"
                       if self.computers else "")
            reply.add(f"Resumed{against}: deal {len(g.deals)}, {score} (seed {g.seed}).",
                      STRONG)
            starts = [i for i, e in enumerate(g.events) if e.kind == "starter"]
            if g.starter is not None and starts:  # the deal so far: the starter and after
                reply.add(f"Deal {len(g.deals)} so far:")
                reply.messages.extend(self.event_lines(g.events[starts[-1]:]))
        else:
            cut = ", ".join(f"{n} {c.pretty()}" for n, c in zip(g.names, g.cuts[-1]))
            dealer = g.names[g.first_dealer]
            reply.add(f"Cut for deal: {cut}. {dealer[0].upper()}{dealer[1:]} deal"
                      f"{'' if dealer == 'you' else 's'} first.")
            reply.add(f"Goal: {CRIBBAGE_GOAL}", GOAL)
        return reply


__all__ = ["ClassicSession", "CribbageRules", "DiscardHints", "PegBoard", "card_runs",
           "cards_line", "cards_runs", "computer_seed", "pretty_text", "read_cards"]
