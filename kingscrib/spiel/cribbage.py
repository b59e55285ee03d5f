"""``kingscrib_cribbage``: classic Cribbage as an OpenSpiel game, over the engine.

>>> import pyspiel, kingscrib.spiel
>>> game = pyspiel.load_game("kingscrib_cribbage", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # who deals first
(True, 3)

Every random event is an explicit chance node, so a state (and its clone) never knows a
card before it is dealt: who deals first (each seat 1/n), every card of every deal one by
one (uniform over the cards not dealt yet; the three-player crib card last) and the
starter, cut after the last seat has laid away (uniform over the cards not dealt). The
engine (:class:`kingscrib.classic.game.ClassicGame`) decides every rule and score; it
never shuffles here, it is given the cards the chance nodes chose.

The player actions are ``cribbage_v1``'s indexes (docs/rl.md): a card 0-51 (lay it, or
lay it away with 3-4 seats), a pair 52-1377 (lay away two, 2 seats), Go 1378 (a seat
that cannot lay a card says go: the engine's ``explicit_go``), claims 1379-1408 (the
``muggins`` parameter). Parameters: ``players`` (2-4; 4 is two partnerships) and
``muggins``. Returns at the end: +1 for the winning side, -1 for a losing one, except
with three seats, where each loser gets -1/2 so that the game is zero-sum.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pyspiel

from kingscrib.classic.cards import Card, deck
from kingscrib.classic.game import Claim, ClassicGame, Discard, Go, Play, copy_deal_record
from kingscrib.classic.rules import WINNING_SCORE, RuleSet
from kingscrib.env.cribbage import ACTIONS, CARDS, FIRST_CLAIM, FIRST_PAIR, GO, PAIRS, SEATS
from kingscrib.env.cribbage import action_index as v1_action_index
from kingscrib.spiel.common import game_type, observer_kind, piece_tensor
from kingscrib.spiel.contract_state import ContractState
from kingscrib.spiel.resample import resample_deal
from kingscrib.spiel.views import deal_view, shown_deal

NAME = "kingscrib_cribbage"
_CARD_OF = {card.number: card for card in deck()}
PLAYED_MAX = 16  # cards laid in one deal: four from each of up to four seats
PHASES = ("deal", "discard", "play", "show", "over")
SHOW_KINDS = ("", "hand", "crib")
_DEFAULTS = {"players": 2, "muggins": False}


_GAME_TYPE = game_type(NAME, "Cribbage (kingscrib engine)", SEATS, _DEFAULTS)


def _max_game_length(rules: RuleSet) -> int:
    """A bound on the moves of a game: every deal pegs at least the point for the last
    card, so there are at most sides x 120 + 1 deals."""
    n = rules.players
    deals = rules.sides * (WINNING_SCORE - 1) + 1
    per_deal = (n * rules.hand_size + rules.crib_from_deck  # cards dealt
                + n + 1  # lay-aways and the starter
                + n * 4  # cards laid
                + n * PLAYED_MAX  # gos: each seat at most once a count, a count per card
                + n + 1)  # claims
    return 1 + deals * per_deal


class _DealtClassicGame(ClassicGame):
    """The engine, dealt the cards the chance nodes chose: it never shuffles, and has no
    generator a copy could read the next deal from."""

    def __init__(self, rules: RuleSet, first_dealer: int, pack: list[Card]) -> None:
        self._given_dealer = first_dealer
        self._pack = pack
        self.awaiting_deal = False
        super().__init__(rules, seed=0, explicit_go=True)
        self._rng = None  # no generator a copy could read the next deal from

    def _cut_for_deal(self) -> int:
        return self._given_dealer

    def _shuffled_pack(self) -> list[Card]:
        return list(self._pack)

    def _next_deal(self) -> None:
        self.awaiting_deal = True  # the chance nodes deal the next hands

    def __deepcopy__(self, memo: dict[int, Any]) -> _DealtClassicGame:
        """A copy for a cloned state, made fast: cards and rules are immutable, and the
        records of finished deals are never changed again, so only the current deal's
        lists are copied (a plain deepcopy took 12 ms a clone mid-game, this 0.4 ms)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.scores, new.events, new.cuts = list(self.scores), [], list(self.cuts)
        d = copy.copy(self._deal)
        d.dealt = [list(h) for h in d.dealt]
        d.discards = [None if x is None else list(x) for x in d.discards]
        d.held, d.kept = [list(h) for h in d.held], [list(h) for h in d.kept]
        d.stock, d.crib, d.pile, d.played = list(d.stock), list(d.crib), list(d.pile), \
            list(d.played)
        d.said_go, d.show_queue = set(d.said_go), list(d.show_queue)
        d.record = copy_deal_record(d.record)
        new._deal = d
        new.deals = [*self.deals[:-1], d.record]  # the last record is the current deal's
        return new

    def deal(self, pack: list[Card]) -> None:
        """Start the next deal with this pack (its order is the dealing order)."""
        self._pack, self.awaiting_deal = pack, False
        self._deal = self._new_deal((self.dealer + 1) % self.rules.players)


class CribbageGame(pyspiel.Game):
    """Classic Cribbage for 2, 3 or 4 seats (parameters ``players``, ``muggins``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.rules = RuleSet(players=int(params["players"]), muggins=bool(params["muggins"]))
        n = self.rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTIONS,
            max_chance_outcomes=CARDS,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(self.rules))
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> CribbageState:
        return CribbageState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CribbageObserver:
        return CribbageObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
            self.rules)


class CribbageState(ContractState[_DealtClassicGame]):
    """A state: chance nodes for the first dealer, every card dealt and the starter."""

    def __init__(self, game: CribbageGame) -> None:
        super().__init__(game)
        self.rules: RuleSet = game.rules
        self.first_dealer: int | None = None
        self.engine: _DealtClassicGame | None = None
        self.dealt: list[int] = []  # the cards dealt so far while dealing, in order
        # The last lay-away, held back until the starter is cut: the engine cuts the
        # starter as soon as the crib is complete.
        self.pending: tuple[int, tuple[Card, ...]] | None = None
        # The state as the current deal began (before its first card), for resampling.
        self.deal_start: CribbageState | None = None
        self.deal_start_moves = 0
        # The scores the game starts from (a search from a seat's view: the deals before
        # the current one, summed up), zeros for a new game.
        self.initial_scores: tuple[int, ...] | None = None

    # ----- where the game is --------------------------------------------------
    def dealing(self) -> bool:
        return self.first_dealer is not None and (self.engine is None
                                                  or self.engine.awaiting_deal)

    def cards_to_deal(self) -> int:
        return self.rules.players * self.rules.hand_size + self.rules.crib_from_deck

    def chance_next(self) -> bool:
        """The first dealer is cut for, a card is dealt, or the starter is cut."""
        return self.first_dealer is None or self.dealing() or self.pending is not None

    def seat_sides(self) -> list[int]:
        return [self.rules.side_of(s) for s in range(self.rules.players)]

    def phase(self) -> str:
        if self.engine is None or self.dealing():
            return "deal"
        return self.engine.phase

    def _deal_cards(self) -> list[Card]:
        """Every card dealt this deal (hands as dealt, and the three-player crib card)."""
        assert self.engine is not None
        d = self.engine.deal_state
        cards = [c for hand in d.dealt for c in hand]
        return cards + ([d.crib_card] if d.crib_card is not None else [])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.is_chance_node()
        if self.first_dealer is None:
            n = self.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        taken = set(self.dealt) if self.dealing() else {c.number for c in self._deal_cards()}
        left = [i for i in range(CARDS) if i not in taken]
        return [(i, 1.0 / len(left)) for i in left]

    # ----- actions ----------------------------------------------------------
    def seat_actions(self) -> list[int]:
        assert self.engine is not None  # a seat acts: the first deal is dealt
        return sorted(engine_index(a) for a in self.engine.legal_actions())

    def engine_action(self, index: int) -> Discard | Play | Claim | Go:
        """The engine action of a player's action index."""
        if index == GO:
            return Go()
        if index >= FIRST_CLAIM:
            return Claim(index - FIRST_CLAIM)
        if index >= FIRST_PAIR:
            a, b = PAIRS[index - FIRST_PAIR]
            return Discard((_CARD_OF[a], _CARD_OF[b]))
        card = _CARD_OF[index]
        assert self.engine is not None
        return Discard((card,)) if self.engine.phase == "discard" else Play(card)

    def _apply_action(self, action: int) -> None:
        if self.dealing() and not self.dealt:
            self._remember_deal_start()
        if self.is_chance_node():
            self._apply_chance(action)
            return
        assert self.engine is not None
        seat = self.engine.to_move()
        if seat is None:
            raise ValueError("no seat acts now: the game is over")
        move = self.engine_action(action)
        d = self.engine.deal_state
        if isinstance(move, Discard) and sum(x is None for x in d.discards) == 1:
            if action not in self._legal_actions(seat):  # the engine checks it only later
                raise ValueError(f"{self._action_to_string(seat, action)} is not legal"
                                 f" for seat {seat} now")
            self.pending = (seat, move.cards)  # laid away once the starter is cut
            return
        self.engine.apply(move, seat)  # IllegalAction (a ValueError) if it is not legal
        self.engine.events.clear()  # nothing reads them; clones stay small

    def _apply_chance(self, action: int) -> None:
        if self.first_dealer is None:
            self.first_dealer = action
            return
        if self.dealing():
            self.dealt.append(action)
            if len(self.dealt) == self.cards_to_deal():
                pack = [_CARD_OF[i] for i in self.dealt]
                pack += [c for c in deck() if c.number not in set(self.dealt)]
                if self.engine is None:
                    self.engine = _DealtClassicGame(self.rules, self.first_dealer, pack)
                    if self.initial_scores is not None:
                        self.engine.scores = list(self.initial_scores)
                else:
                    self.engine.deal(pack)
                self.dealt = []
            return
        # the cut: the starter is the first card of the stock
        assert self.engine is not None and self.pending is not None
        starter = _CARD_OF[action]
        stock = self.engine.deal_state.stock
        stock.remove(starter)
        stock.insert(0, starter)
        seat, cards = self.pending
        self.pending = None
        self.engine.apply(Discard(cards), seat)
        self.engine.events.clear()

    def _remember_deal_start(self) -> None:
        self.deal_start = None  # the snapshot keeps no snapshot of its own
        snapshot = self.clone()
        self.deal_start, self.deal_start_moves = snapshot, len(self.history())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.first_dealer is None:
                return f"seat {action} deals first"
            return f"{'deal' if self.dealing() else 'starter'} {_CARD_OF[action]}"
        if action == GO:
            return "go"
        if action >= FIRST_CLAIM:
            return f"claim {action - FIRST_CLAIM}"
        if action >= FIRST_PAIR:
            a, b = PAIRS[action - FIRST_PAIR]
            return f"lay away {_CARD_OF[a]} {_CARD_OF[b]}"
        card = _CARD_OF[action]
        return f"lay away {card}" if self.phase() == "discard" else f"lay {card}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None,
                                rng: random.Random | None = None) -> CribbageState:
        """A state ``player_id`` cannot tell from this one, the cards it has not seen dealt
        at random (uniformly, among the deals that agree with every go it saw).
        OpenSpiel's ISMCTS calls it (``probability_sampler`` is not used)."""
        return resample_deal(self, player_id, rng)

    # ----- what a seat knows ------------------------------------------------------
    def known_cards(self, seat: int) -> set[int]:
        """The cards of this deal ``seat`` has seen: its own, the starter, every card laid,
        and the crib once shown."""
        if self.engine is None or self.dealing():
            n = self.rules.players
            return {c for k, c in enumerate(self.dealt) if self.dealt_to(k) == seat % n}
        d = self.engine.deal_state
        known = {c.number for c in d.dealt[seat]}
        known |= {c.number for _, c in d.played}
        if d.starter is not None:
            known.add(d.starter.number)
        item = self.engine.show_item
        if item is not None and item.kind == "crib":
            known |= {c.number for c in item.cards}
        return known

    def dealt_to(self, k: int) -> int | None:
        """The seat the ``k``-th card of a deal goes to (None: the three-player crib card)."""
        n = self.rules.players
        if k >= n * self.rules.hand_size:
            return None
        dealer = self.first_dealer if self.engine is None else (
            (self.engine.dealer + 1) % n if self.engine.awaiting_deal else self.engine.dealer)
        assert dealer is not None
        return (dealer + 1 + k % n) % n

    def hand_and_discards(self, seat: int) -> tuple[list[Card], list[Card]]:
        """The cards ``seat`` holds and has laid away (its last lay-away included while the
        starter is cut)."""
        if self.engine is None or self.dealing():
            return [_CARD_OF[c] for k, c in enumerate(self.dealt)
                    if self.dealt_to(k) == seat], []
        d = self.engine.deal_state
        hand, discards = list(d.held[seat]), list(d.discards[seat] or ())
        if self.pending is not None and self.pending[0] == seat:
            discards = list(self.pending[1])
            hand = [c for c in hand if c not in discards]
        return hand, discards

    def __str__(self) -> str:
        if self.first_dealer is None:
            return "cutting for deal"
        lines = [f"phase {self.phase()}, scores "
                 + " ".join(str(s) for s in (self.engine.scores if self.engine else []))]
        for seat in range(self.rules.players):
            hand, discards = self.hand_and_discards(seat)
            lines.append(f"seat {seat}: {' '.join(map(str, sorted(hand)))}"
                         f" | laid away {' '.join(map(str, discards))}")
        if self.engine is not None and not self.dealing():
            d = self.engine.deal_state
            lines.append(f"dealer {d.dealer}, starter {d.starter or '-'}, count "
                         f"{self.engine.count}: "
                         + " ".join(f"{s}:{c}" for s, c in d.played))
        return "\n".join(lines)


def engine_index(action: Discard | Play | Claim | Go) -> int:
    """The index of an engine action (``cribbage_v1``'s, with Go)."""
    return GO if isinstance(action, Go) else v1_action_index(action)


# ----- observations -----------------------------------------------------------------
def _pieces(rules: RuleSet, perfect_recall: bool, private: bool) -> list[tuple[str, tuple]]:
    pieces: list[tuple[str, tuple]] = [
        ("player", (SEATS,)), ("phase", (len(PHASES),)), ("dealer", (SEATS,)),
        ("to_act", (SEATS,)), ("scores", (SEATS,)), ("cards_left", (SEATS,)),
        ("laid_away", (SEATS,)), ("starter", (CARDS,)), ("count", (32,)),
        ("said_go", (SEATS,)), ("show", (CARDS,)), ("show_kind", (len(SHOW_KINDS),)),
        ("show_seat", (SEATS,)),
    ]
    if private:
        pieces += [("hand", (CARDS,)), ("discards", (CARDS,))]
    if perfect_recall:
        pieces += [("sequence", (PLAYED_MAX, CARDS)), ("sequence_seat", (PLAYED_MAX, SEATS)),
                   ("sequence_in_count", (PLAYED_MAX,))]
    else:
        pieces += [("pile", (CARDS,)), ("played", (SEATS, CARDS))]
    return pieces


class CribbageObserver:
    """OpenSpiel's Python observer: tensors and strings of what a seat knows.

    The information-state tensor (``perfect_recall``) holds the current deal in full (the
    play in order, who laid each card, the gos) and the scores: earlier deals are left
    out, since the pack is shuffled anew each deal and they bear on the rest of the game
    only through the scores. The information-state string is the perfect-recall record:
    every earlier deal as it was shown, and the current one as the seat saw it. The
    observation (no recall) has the cards laid as sets by seat and the current count's
    pile. Seats are counted from the observer; the ``player`` piece is the observer's own
    seat."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None,
                 rules: RuleSet) -> None:
        self.perfect_recall, self.private = observer_kind(iig_obs_type, params, "cards")
        self.rules = rules
        self.tensor, self.dict = piece_tensor(_pieces(rules, self.perfect_recall, self.private))

    def set_from(self, state: CribbageState, player: int) -> None:
        self.tensor.fill(0)
        n = self.rules.players
        t = self.dict
        rel = lambda seat: (seat - player) % n  # noqa: E731
        t["player"][player] = 1
        t["phase"][PHASES.index(state.phase())] = 1
        if self.private:
            hand, discards = state.hand_and_discards(player)
            for c in hand:
                t["hand"][c.number] = 1
            for c in discards:
                t["discards"][c.number] = 1
        engine = state.engine
        if engine is None:
            if state.first_dealer is not None:
                t["dealer"][rel(state.first_dealer)] = 1
            return
        for seat in range(n):
            t["scores"][rel(seat)] = engine.scores[self.rules.side_of(seat)] / WINNING_SCORE
        to_act = state.current_player()
        if to_act >= 0:
            t["to_act"][rel(to_act)] = 1
        if state.dealing():
            t["dealer"][rel((engine.dealer + 1) % n)] = 1
            return
        d = engine.deal_state
        t["dealer"][rel(d.dealer)] = 1
        for seat in range(n):
            t["cards_left"][rel(seat)] = len(state.hand_and_discards(seat)[0])
            laid = d.discards[seat] is not None or (state.pending or (None,))[0] == seat
            t["laid_away"][rel(seat)] = laid
        if d.starter is not None:
            t["starter"][d.starter.number] = 1
        t["count"][engine.count] = 1
        for seat in d.said_go:
            t["said_go"][rel(seat)] = 1
        item = engine.show_item
        if item is not None:
            for c in item.cards:
                t["show"][c.number] = 1
            t["show_kind"][SHOW_KINDS.index(item.kind)] = 1
            t["show_seat"][rel(item.seat)] = 1
        else:
            t["show_kind"][0] = 1
        if self.perfect_recall:
            for k, (seat, card) in enumerate(d.played):
                t["sequence"][k, card.number] = 1
                t["sequence_seat"][k, rel(seat)] = 1
            t["sequence_in_count"][len(d.played) - len(d.pile):len(d.played)] = 1
        else:
            for c in d.pile:
                t["pile"][c.number] = 1
            for seat, card in d.played:
                t["played"][rel(seat), card.number] = 1

    def string_from(self, state: CribbageState, player: int) -> str:
        view = deal_view(state, player, self.private)
        if self.perfect_recall:
            engine = state.engine
            done = [] if engine is None else (
                engine.deals if engine.awaiting_deal else engine.deals[:-1])
            view = {"first_dealer": state.first_dealer,
                    "earlier_deals": [shown_deal(d) for d in done], **view}
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


pyspiel.register_game(_GAME_TYPE, CribbageGame)

__all__ = ["NAME", "CribbageGame", "CribbageObserver", "CribbageState", "engine_index"]
