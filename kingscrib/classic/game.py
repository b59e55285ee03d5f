"""A classic Cribbage game: deal, discard, starter, the play, the show, to 121.

A game is fully determined by its :class:`RuleSet`, its seed and the actions
applied to it::

    >>> from kingscrib.classic.game import ClassicGame
    >>> game = ClassicGame(seed=7)
    >>> game.phase
    'discard'
    >>> while game.phase != "over":
    ...     events = game.apply(game.legal_actions()[0])
    >>> max(game.scores)
    121

Only three kinds of action are ever asked of a player: :class:`Discard` (lay
cards away to the crib), :class:`Play` (lay a card in the play) and, with the
``muggins`` option, :class:`Claim` (say what a hand in the show is worth).
A "go" is normally never chosen: a player who cannot play is passed over.
With ``explicit_go=True`` (the browser game) such a player must say
:class:`Go` instead; the record is the same either way.

``apply(action, seat)`` names the seat acting: while discarding, every seat
may lay its cards away in any order (the crib is the same whatever the order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, ClassVar

from kingscrib import core
from kingscrib.classic.cards import Card, card_list, deck
from kingscrib.classic.pegging import can_play, count_of, peg_score
from kingscrib.classic.record_format import FORMAT, RecordError, check, check_replayed
from kingscrib.classic.rules import WINNING_SCORE, RuleSet
from kingscrib.classic.show import ShowScore, score_show
from kingscrib.common.shuffle import Seed, check_seed, rng_for
from kingscrib.core import CRIBBAGE, RECORD_NAMES, GameId
from kingscrib.counting import JACK

MAX_SHOW = 29  # no hand or crib is worth more: the bound of a claim, known to all


class IllegalAction(core.IllegalAction):
    """An action that the rules do not allow now; the game is left unchanged."""


def possessive(name: str) -> str:
    """``Ann's``, but ``your`` for a seat named you (the terminal game's default name)."""
    return "your" if name.lower() == "you" else f"{name}'s"


@dataclass(frozen=True)
class Discard:
    """Lay these cards away to the crib."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Play:
    """Lay this card in the play."""

    card: Card


@dataclass(frozen=True)
class Claim:
    """Say how many points the hand being shown is worth (muggins option)."""

    points: int


@dataclass(frozen=True)
class Go:
    """Say "go": no card in hand can be laid without passing 31 (``explicit_go`` games)."""


Action = Discard | Play | Claim | Go


@dataclass(frozen=True)
class Event:
    """Something that scored or happened, for front ends to show."""

    kind: str  # heels, peg, go, last, show, muggins, overclaim, go-said, starter, win
    seat: int
    points: int = 0
    text: str = ""
    cards: tuple[Card, ...] = ()  # the card laid, the hand shown, the starter


@dataclass(frozen=True)
class ShowItem:
    """One hand to count in the show: a player's hand or the crib."""

    seat: int
    kind: str  # "hand" or "crib"
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PlayerView:
    """What one player may see: never another hand nor the order of the deck."""

    seat: int
    rules: RuleSet
    phase: str
    dealer: int
    hand: tuple[Card, ...]  # cards held now (dealt cards while discarding)
    kept: tuple[Card, ...]  # the cards kept for the show (empty while discarding)
    discards: tuple[Card, ...]  # own cards laid away
    starter: Card | None
    pile: tuple[Card, ...]  # cards laid since the count was last reset
    count: int
    played: tuple[tuple[int, Card], ...]  # every card laid in this deal, in order
    scores: tuple[int, ...]
    cards_left: tuple[int, ...]  # cards still held, per seat
    legal: tuple[Action, ...]
    show_item: ShowItem | None

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer


@dataclass
class Deal:
    """The deal in progress, as :attr:`ClassicGame.deal_state` shows it: read it, never
    change it (the game does). ``record`` is the deal's entry in the game record."""

    dealer: int
    dealt: list[list[Card]]
    crib_card: Card | None
    stock: list[Card]
    discards: list[list[Card] | None]
    held: list[list[Card]] = field(default_factory=list)
    kept: list[list[Card]] = field(default_factory=list)
    crib: list[Card] = field(default_factory=list)
    starter: Card | None = None
    pile: list[Card] = field(default_factory=list)
    played: list[tuple[int, Card]] = field(default_factory=list)
    last_player: int | None = None
    said_go: set[int] = field(default_factory=set)
    show_queue: list[ShowItem] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)


class ClassicGame:
    """The state of one game of classic Cribbage.

    It answers the engine contract (:mod:`kingscrib.core.contract`): :meth:`start`,
    :meth:`to_move`, :meth:`legal_actions`, :meth:`apply`, :meth:`view`,
    :meth:`winners`, :meth:`record`, :meth:`from_record`; the constructor still
    starts a game too.
    """

    game_id: ClassVar[GameId] = CRIBBAGE

    def __init__(
        self,
        rules: RuleSet | None = None,
        seed: Seed = 0,
        names: list[str] | None = None,
        explicit_go: bool = False,
    ) -> None:
        self.rules = rules or RuleSet()
        self.explicit_go = explicit_go
        self.seed = seed
        n = self.rules.players
        self.names = list(names) if names else [f"player {i + 1}" for i in range(n)]
        if len(self.names) != n:
            raise ValueError(f"{n} players need {n} names, got {len(self.names)}")
        # None in a game dealt from outside (an OpenSpiel state's chance nodes deal).
        self._rng: random.Random | None = rng_for(check_seed(seed))
        self.scores = [0] * self.rules.sides
        self.events: list[Event] = []
        self.phase = "discard"
        self.to_act: int | None = None
        self.winner: int | None = None  # winning side
        self.cuts: list[list[Card]] = []
        self.deals: list[dict[str, Any]] = []
        self.first_dealer = self._cut_for_deal()
        self._deal: Deal = self._new_deal(self.first_dealer)

    @classmethod
    def start(cls, rules: RuleSet | None = None, seed: Seed | None = None,
              names: Sequence[str] | None = None) -> ClassicGame:
        """The contract's new game (a fresh seed when None). Without rules, the default
        rules for as many players as ``names`` (two when None)."""
        if rules is None and names is not None:
            rules = RuleSet(players=len(names))
        return cls(rules, random.randrange(2**31) if seed is None else seed,
                   list(names) if names is not None else None)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> ClassicGame:
        """The game a record describes, replayed and checked: raises
        :class:`RecordError` naming the first place where the record and the rules
        disagree (also :func:`kingscrib.classic.record.replay`)."""
        check(record)
        try:
            rules = RuleSet.from_dict(record["rules"])
            names = [str(p.get("name", f"player {i + 1}"))
                     for i, p in enumerate(record["players"])]
            game = cls(rules, seed=record["seed"], names=names)
            # Each action with its seat: a game stopped while laying away (a resignation,
            # a time-out) has a deal whose discards are only partly made.
            actions = seated_actions_from_record(record)
        except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
            raise RecordError(f"bad record: {exc}") from None
        for i, (seat, action) in enumerate(actions):
            try:
                game.apply(action, seat)
            except IllegalAction as exc:
                raise RecordError(f"action {i + 1} ({action}) is illegal: {exc}") from None
        check_replayed(game.record(), record)
        return game

    # ----------------------------------------------------------------- setup

    def _cut_for_deal(self) -> int:
        """Each player cuts a card; the lowest rank deals. Ties for lowest cut again."""
        n = self.rules.players
        while True:
            pack = deck()
            self._shuffler().shuffle(pack)  # the cut for deal is never stacked
            cut = pack[:n]
            self.cuts.append(cut)
            low = min(c.rank for c in cut)
            lowest = [i for i, c in enumerate(cut) if c.rank == low]
            if len(lowest) == 1:
                return lowest[0]

    def _new_deal(self, dealer: int) -> Deal:
        n = self.rules.players
        pack = self._shuffled_pack()
        dealt: list[list[Card]] = [[] for _ in range(n)]
        pos = 0
        for _ in range(self.rules.hand_size):
            for j in range(n):
                dealt[(dealer + 1 + j) % n].append(pack[pos])
                pos += 1
        crib_card = None
        if self.rules.crib_from_deck:
            crib_card = pack[pos]
            pos += 1
        d = Deal(
            dealer=dealer,
            dealt=dealt,
            crib_card=crib_card,
            stock=pack[pos:],
            discards=[None] * n,
            held=[list(h) for h in dealt],
        )
        d.record = {
            "dealer": dealer,
            "hands": [card_list(h) for h in dealt],
            "discards": [None] * n,
            "plays": [],
            "show": [],
        }
        if crib_card is not None:
            d.record["crib_card"] = str(crib_card)
        self.deals.append(d.record)
        self.phase = "discard"
        self.to_act = self._next_to_discard(d)
        return d

    def _shuffler(self) -> random.Random:
        if self._rng is None:
            raise RuntimeError("this game is dealt from outside and never shuffles")
        return self._rng

    def _shuffled_pack(self) -> list[Card]:
        """The pack for the next deal (tests override this to stack the deck)."""
        pack = deck()
        self._shuffler().shuffle(pack)
        return pack

    # ------------------------------------------------------------- queries

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.rules.players

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def to_move(self) -> int | None:
        """The seat whose action :meth:`apply` takes when given none (while laying away,
        the next seat in order of those yet to; others may lay away first by naming
        their seat); None once the game is over."""
        return None if self.is_over else self.to_act

    def winners(self) -> list[int]:
        """The seats of the winning side (both partners in a four-player game)."""
        if self.winner is None:
            return []
        return [s for s in range(self.players) if self.rules.side_of(s) == self.winner]

    @property
    def deal_state(self) -> Deal:
        """The deal in progress, every card of it: for code that sees all (an OpenSpiel
        state, a test), never for a player's view (:meth:`view`)."""
        return self._deal

    @property
    def dealer(self) -> int:
        return self._deal.dealer

    @property
    def starter(self) -> Card | None:
        return self._deal.starter

    @property
    def count(self) -> int:
        return count_of([c.rank for c in self._deal.pile])

    @property
    def pile(self) -> tuple[Card, ...]:
        """The cards laid since the count was last reset."""
        return tuple(self._deal.pile)

    @property
    def played(self) -> tuple[tuple[int, Card], ...]:
        """Every card laid in this deal's play, in order, with the seat that laid it."""
        return tuple(self._deal.played)

    @property
    def said_go(self) -> frozenset[int]:
        """The seats that have said go since the count was last reset."""
        return frozenset(self._deal.said_go)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """Cards a seat holds now."""
        return tuple(self._deal.held[seat])

    def kept(self, seat: int) -> tuple[Card, ...]:
        """The four cards (five with three or four players, less one) kept for the show."""
        return tuple(self._deal.kept[seat]) if self._deal.kept else ()

    @property
    def crib(self) -> tuple[Card, ...]:
        return tuple(self._deal.crib)

    @property
    def show_item(self) -> ShowItem | None:
        """The hand waiting for a claim (muggins)."""
        if self.phase == "show" and self._deal.show_queue:
            return self._deal.show_queue[0]
        return None

    def order_from_left(self) -> list[int]:
        """Seats from the left of the dealer round to the dealer."""
        n = self.rules.players
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now."""
        d = self._deal
        if self.phase == "discard" and self.to_act is not None:
            hand = sorted(d.held[self.to_act])
            return [Discard(c) for c in combinations(hand, self.rules.discards)]
        if self.phase == "play" and self.to_act is not None:
            count = self.count
            plays: list[Action] = [
                Play(c) for c in sorted(d.held[self.to_act]) if can_play(c.rank, count)
            ]
            return plays or [Go()]
        if self.phase == "show" and self.show_item is not None:
            # Every claim a hand could be worth: the list must not tell its true value.
            return [Claim(p) for p in range(MAX_SHOW + 1)]
        return []

    def waiting_for(self) -> list[int]:
        """The seats that may act now: every seat yet to discard, else the one to act."""
        if self.phase == "discard":
            return [s for s in self.order_from_left() if self._deal.discards[s] is None]
        if self.phase == "show" and self.show_item is not None:
            return [self.show_item.seat]
        return [self.to_act] if self.to_act is not None and self.phase != "over" else []

    def legal_for(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (discards in any order)."""
        if seat not in self.waiting_for():
            return []
        if self.phase == "discard":
            hand = sorted(self._deal.held[seat])
            return [Discard(c) for c in combinations(hand, self.rules.discards)]
        return self.legal_actions()

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see of the game."""
        d = self._deal
        return PlayerView(
            seat=seat,
            rules=self.rules,
            phase=self.phase,
            dealer=d.dealer,
            hand=tuple(d.held[seat]),
            kept=tuple(d.kept[seat]) if d.kept else (),
            discards=tuple(d.discards[seat] or ()),
            starter=d.starter,
            pile=tuple(d.pile),
            count=self.count,
            played=tuple(d.played),
            scores=tuple(self.scores),
            cards_left=tuple(len(h) for h in d.held),
            legal=tuple(self.legal_actions()) if self.to_act == seat else (),
            show_item=self.show_item,
        )

    # ------------------------------------------------------------- actions

    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply an action of ``seat`` (default: the player to act); return the events it
        caused.

        Raises :class:`IllegalAction` (and changes nothing) if it is not legal.
        """
        start = len(self.events)
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if seat is not None:
            self._check_seat(action, seat)
        if isinstance(action, Discard):
            self._discard(action, seat)
        elif isinstance(action, Play):
            self._play(action)
        elif isinstance(action, Claim):
            self._claim(action)
        elif isinstance(action, Go):
            self._go()
        else:
            raise IllegalAction(f"not an action: {action!r}")
        return self.events[start:]

    def _check_seat(self, action: Action, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self.rules.players:  # bool is no seat
            raise IllegalAction(f"there is no seat {seat!r}")
        if isinstance(action, Discard) and self.phase == "discard":
            if self._deal.discards[seat] is not None:
                raise IllegalAction(f"{self.names[seat]} has already laid away to the crib")
            return
        waiting = self.waiting_for()
        if seat not in waiting:
            who = " and ".join(self.names[s] for s in waiting) or "nobody"
            raise IllegalAction(f"it is {possessive(who)} turn, not {possessive(self.names[seat])}")

    def _discard(self, action: Discard, seat: int | None = None) -> None:
        if self.phase != "discard" or self.to_act is None:
            raise IllegalAction(f"no discard now: the game is in the {self.phase}")
        d = self._deal
        if seat is None:
            seat = self.to_act
        cards = list(action.cards)
        need = self.rules.discards
        if len(cards) != need:
            raise IllegalAction(f"lay away exactly {need} card(s) to the crib, not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise IllegalAction("the same card is laid away twice")
        for c in cards:
            if c not in d.held[seat]:
                raise IllegalAction(f"{c.pretty()} is not in {possessive(self.names[seat])} hand")
        for c in cards:
            d.held[seat].remove(c)
        d.discards[seat] = cards
        d.record["discards"][seat] = card_list(cards)
        nxt = self._next_to_discard(d)
        if nxt is not None:
            self.to_act = nxt
            return
        # everyone has discarded: form the crib, cut the starter
        d.kept = [list(h) for h in d.held]
        d.crib = [c for seat_ in self.order_from_left() for c in (d.discards[seat_] or [])]
        if d.crib_card is not None:
            d.crib.insert(0, d.crib_card)
        d.starter = d.stock[0]
        d.record["starter"] = str(d.starter)
        self.events.append(
            Event("starter", d.dealer, 0, f"the starter is {d.starter}", (d.starter,))
        )
        self.phase = "play"
        self.to_act = (d.dealer + 1) % self.rules.players
        if d.starter.rank == JACK:
            d.record["heels"] = 2
            if self._add(d.dealer, 2, "heels", "two for his heels", (d.starter,)):
                return

    def _next_to_discard(self, d: Deal) -> int | None:
        for seat in self.order_from_left_of(d.dealer):
            if d.discards[seat] is None:
                return seat
        return None

    def order_from_left_of(self, dealer: int) -> list[int]:
        n = self.rules.players
        return [(dealer + 1 + i) % n for i in range(n)]

    def _play(self, action: Play) -> None:
        if self.phase != "play" or self.to_act is None:
            raise IllegalAction(f"no card can be laid now: the game is in the {self.phase}")
        d = self._deal
        seat = self.to_act
        card = action.card
        if card not in d.held[seat]:
            raise IllegalAction(f"{card.pretty()} is not in {possessive(self.names[seat])} hand")
        count = self.count
        if not can_play(card.rank, count):
            raise IllegalAction(f"{card.pretty()} would take the count from {count} past 31")
        d.held[seat].remove(card)
        d.pile.append(card)
        d.played.append((seat, card))
        d.last_player = seat
        score = peg_score([c.rank for c in d.pile])
        entry: dict[str, Any] = {
            "player": seat,
            "action": "play",
            "card": str(card),
            "count": self.count,
            "score": score.total,
        }
        if score.total:
            entry["why"] = score.reasons()
        d.record["plays"].append(entry)
        text = f"{self.count}"
        if score.total:
            text += " for " + str(score.total) + " (" + ", ".join(score.reasons()) + ")"
        if score.total and self._add(seat, score.total, "peg", text, (card,)):
            return
        if not score.total:
            self.events.append(Event("peg", seat, 0, text, (card,)))
        self._advance()

    def _advance(self) -> None:
        """Find who lays the next card: handle go, 31, the last card and the end of the play."""
        d = self._deal
        n = self.rules.players
        last = d.last_player
        assert last is not None
        while True:
            count = self.count
            if count == 31:
                self._reset_count()
                if self._play_over():
                    return
                self.to_act = self._next_with_cards(last)
                return
            for step in range(1, n + 1):
                seat = (last + step) % n
                if any(can_play(c.rank, count) for c in d.held[seat]):
                    self.to_act = seat
                    return
                if d.held[seat] and seat not in d.said_go and seat != last:
                    if self.explicit_go:
                        self.to_act = seat  # they must say Go
                        return
                    self._say_go(seat)
            # nobody can lay a card: the last player pegs for go / last card
            out = not any(d.held)
            why = "last card" if out else "go"
            d.record["plays"].append({"player": last, "action": why, "score": 1})
            if self._add(last, 1, "go", f"one for {why}"):
                return
            self._reset_count()
            if self._play_over():
                return
            self.to_act = self._next_with_cards(last)
            return

    def _say_go(self, seat: int) -> None:
        d = self._deal
        d.said_go.add(seat)
        d.record["plays"].append({"player": seat, "action": "go"})
        self.events.append(Event("go-said", seat, 0, "go"))

    def _go(self) -> None:
        if self.phase != "play" or self.to_act is None:
            raise IllegalAction(f"no go now: the game is in the {self.phase}")
        seat = self.to_act
        count = self.count
        playable = [c for c in sorted(self._deal.held[seat]) if can_play(c.rank, count)]
        if playable:
            cards = ", ".join(c.pretty() for c in playable)
            raise IllegalAction(f"no go: {cards} can be laid on {count} without passing 31")
        self._say_go(seat)
        self._advance()

    def _reset_count(self) -> None:
        self._deal.pile = []
        self._deal.said_go = set()

    def _next_with_cards(self, last: int) -> int:
        n = self.rules.players
        for step in range(1, n + 1):
            seat = (last + step) % n
            if self._deal.held[seat]:
                return seat
        raise AssertionError("nobody holds a card")

    def _play_over(self) -> bool:
        d = self._deal
        if any(d.held):
            return False
        d.show_queue = [ShowItem(s, "hand", tuple(d.kept[s])) for s in self.order_from_left()]
        d.show_queue.append(ShowItem(d.dealer, "crib", tuple(d.crib)))
        self.phase = "show"
        self.to_act = None
        self._run_show()
        return True

    def _score_item(self, item: ShowItem) -> ShowScore:
        assert self._deal.starter is not None
        return score_show(item.cards, self._deal.starter, crib=item.kind == "crib")

    def _run_show(self) -> None:
        """Count hands in order until a claim is needed, the game is won or the show ends."""
        d = self._deal
        while d.show_queue:
            item = d.show_queue[0]
            if self.rules.muggins:
                self.to_act = item.seat
                return
            d.show_queue.pop(0)
            if self._count_item(item, None):
                return
        self._next_deal()

    def _count_item(self, item: ShowItem, claimed: int | None) -> bool:
        score = self._score_item(item)
        entry: dict[str, Any] = {
            "player": item.seat,
            "kind": item.kind,
            "cards": card_list(item.cards),
            "score": score.total,
        }
        pegged = score.total if claimed is None else min(claimed, score.total)
        if claimed is not None:
            entry["claimed"] = claimed
        self._deal.record["show"].append(entry)
        label = "crib" if item.kind == "crib" else "hand"
        text = f"{label}: {score.explain()}" if claimed is None else f"{label}: claims {claimed}"
        if self._add(item.seat, pegged, "show", text, item.cards):
            return True
        # Whatever the claim misses by, either way, the next player (the other side in
        # partnerships) scores: what was missed, or what was claimed too much, as club
        # rules treat over-pegging, so that claiming more never pays.
        taker = (item.seat + 1) % self.rules.players
        missed = score.total - pegged
        if missed > 0:
            entry["muggins"] = {"player": taker, "score": missed}
            text = f"muggins! {missed} missed ({score.explain()})"
            if self._add(taker, missed, "muggins", text):
                return True
        over = 0 if claimed is None else claimed - score.total
        if over > 0:
            entry["overclaim"] = {"player": taker, "score": over}
            text = (f"over-claim! the {label} is worth {score.total}, not {claimed}"
                    f" ({score.explain()})")
            if self._add(taker, over, "overclaim", text):
                return True
        return False

    def _claim(self, action: Claim) -> None:
        item = self.show_item
        if item is None or not self.rules.muggins:
            raise IllegalAction("no hand is waiting to be claimed")
        points = action.points
        # Final once made and never refused for its size below the bound every hand
        # shares, so that no answer tells the true value before the claim is made.
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= MAX_SHOW:
            raise IllegalAction(f"a claim is a whole number of points from 0 to {MAX_SHOW}"
                                f" (no {item.kind} is worth more), not {points!r}")
        self._deal.show_queue.pop(0)
        if self._count_item(item, action.points):
            return
        self._run_show()

    def _next_deal(self) -> None:
        self._deal = self._new_deal((self.dealer + 1) % self.rules.players)

    def _add(
        self, seat: int, points: int, kind: str, text: str, cards: tuple[Card, ...] = ()
    ) -> bool:
        """Peg points for a seat's side; True if that wins the game."""
        side = self.rules.side_of(seat)
        self.events.append(Event(kind, seat, points, text, cards))
        if points <= 0:
            return False
        self.scores[side] = min(WINNING_SCORE, self.scores[side] + points)
        if self.scores[side] >= WINNING_SCORE:
            self.winner = side
            self.phase = "over"
            self.to_act = None
            name = self.side_name(side)  # "you win", "Ann & Cy win", "Ann wins"
            many = self.rules.players == 4 or name.lower() == "you"
            self.events.append(Event("win", seat, 0, f"{name} win{'' if many else 's'}"))
            return True
        return False

    def side_name(self, side: int) -> str:
        if self.rules.players == 4:
            return f"{self.names[side]} & {self.names[side + 2]}"
        return self.names[side]

    # ------------------------------------------------------------- records

    def record(self) -> dict[str, Any]:
        """The game record (RULES.md Part 3, ``"game": "classic"``) so far."""
        rec: dict[str, Any] = {
            "format": FORMAT,
            "game": RECORD_NAMES[CRIBBAGE],
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "players": [{"name": n} for n in self.names],
            "cuts": [card_list(c) for c in self.cuts],
            "first_dealer": self.first_dealer,
            "deals": [copy_deal_record(dd) for dd in self.deals],
        }
        if self.phase == "over" and self.winner is not None:
            rec["end"] = {
                "winner": self.winner,
                "scores": list(self.scores),
                "game_points": self.rules.game_points(self.winner, self.scores),
            }
        return rec

    def actions_taken(self) -> list[Action]:
        """Every action applied so far, in order (enough to replay the game)."""
        return list(actions_from_record(self.record(), self.explicit_go))


def copy_deal_record(d: dict[str, Any]) -> dict[str, Any]:
    """A copy of a deal's record entry that shares no list with it."""
    out = dict(d)
    out["hands"] = [list(h) for h in d["hands"]]
    out["discards"] = [list(x) if x is not None else None for x in d["discards"]]
    out["plays"] = [dict(p) for p in d["plays"]]
    out["show"] = [dict(s) for s in d["show"]]
    return out


def actions_from_record(record: dict[str, Any], explicit_go: bool = False) -> list[Action]:
    """The actions stored in a game record, in the order they were taken (with the
    :class:`Go` of each player who said go when ``explicit_go``)."""
    players = record["rules"].get("players", 2)
    actions: list[Action] = []
    for deal in record["deals"]:
        dealer = deal["dealer"]
        for i in range(players):
            seat = (dealer + 1 + i) % players
            cards = deal["discards"][seat]
            if cards is None:
                return actions
            actions.append(Discard(tuple(Card.parse(c) for c in cards)))
        actions.extend(_after_discards(deal, explicit_go))
    return actions


def seated_actions_from_record(
    record: dict[str, Any], explicit_go: bool = False
) -> list[tuple[int, Action]]:
    """Like :func:`actions_from_record`, each action with its seat, for
    ``apply(action, seat)``; a deal's discards may be only partly made."""
    players = record["rules"].get("players", 2)
    out: list[tuple[int, Action]] = []
    for deal in record["deals"]:
        dealer = deal["dealer"]
        order = [(dealer + 1 + i) % players for i in range(players)]
        for seat in order:
            cards = deal["discards"][seat]
            if cards is not None:
                out.append((seat, Discard(tuple(Card.parse(c) for c in cards))))
        if any(deal["discards"][seat] is None for seat in order):
            return out
        seats = [p["player"] for p in deal["plays"]
                 if p["action"] == "play" or (explicit_go and p["action"] == "go"
                                              and "score" not in p)]
        seats += [s["player"] for s in deal["show"] if "claimed" in s]
        out.extend(zip(seats, _after_discards(deal, explicit_go)))
    return out


def _after_discards(deal: dict[str, Any], explicit_go: bool) -> list[Action]:
    actions: list[Action] = []
    for p in deal["plays"]:
        if p["action"] == "play":
            actions.append(Play(Card.parse(p["card"])))
        elif explicit_go and p["action"] == "go" and "score" not in p:
            actions.append(Go())
    for s in deal["show"]:
        if "claimed" in s:
            actions.append(Claim(int(s["claimed"])))
    return actions


# The class meets the engine contract (checked by mypy).
_ENGINE: core.Engine[RuleSet, core.GameState[Action]] = ClassicGame
