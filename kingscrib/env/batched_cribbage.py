"""Many Cribbage games (two, three or four seats) stepped at once, compiled with Numba.

>>> from kingscrib.env.batched_cribbage import BatchedCribbage
>>> env = BatchedCribbage(batch_size=4, seed=1)
>>> obs, mask = env.reset()
>>> obs.shape, mask.shape, mask.sum(axis=1).tolist()   # 15 ways to lay two of six away
((4, 1401), (4, 1409), [15, 15, 15, 15])
>>> step = env.step(env.random_actions())
>>> step.rewards.shape, step.done.shape
((4, 2), (4,))
>>> four = BatchedCribbage(batch_size=4, seed=1, players=4)   # partners 0+2 and 1+3
>>> four.reset()[1].sum(axis=1).tolist()                       # one of five cards away
[5, 5, 5, 5]

The rules are the engine's (:mod:`kingscrib.classic.game`, no muggins): the deal, two
cards each to the crib (one each with three or four seats, and one from the pack with
three), the starter and his heels, the play (go, 31, fifteens, pairs, runs, last card),
the show (the hands from the left of the dealer, then the crib: fifteens, pairs, runs,
flush, nobs) and the game's end the moment a side reaches 121; with four seats, partners
opposite peg on one score. ``tests/env/test_env_batched_cribbage.py`` plays thousands of
random games side by side with ``cribbage_v1`` on the same decks, with 2, 3 and 4 seats,
and requires the same seat to act, the same mask, the same flat observation and the same
points and rewards at every step.

The turns, actions and observations are ``cribbage_v1``'s for as many seats, flattened as
:class:`kingscrib.env.flat.FlatObservation` does (docs/rl.md): ``Discrete(1409)``
actions, a go turn (only Go legal) for each seat the engine passes over, in the order
it said go, and a 1,401-long
int16 observation of the seat to act (its information state). Each game of the batch
keeps its own random stream (xorshift64*, seeded from ``seed`` and its slot), so a slot's
games do not depend on the batch size; ``reset(decks=...)`` deals explicit packs instead.

``step(actions)`` applies one action in every game and returns :class:`BatchStep`: the
next observation and mask (of the seat to act then), the rewards of every seat (+1 to
the winning side and -1 to every other when a game ends, -1 to the offender and 0 to the
others for an illegal action, which ends that game as in ``cribbage_v1``), the points
each seat's side pegged in the step, and ``done``. A finished game
starts again at once (``final_scores`` keeps how it ended), so the observation of a
``done`` slot is already the new game's.

``reset()``, ``step()`` and ``random_actions()`` return copies by default, as Gymnasium's
vector environments do: a rollout buffer may keep them. ``copy=False`` returns the
environment's own arrays instead, which the next ``step()`` overwrites in place (some
1.2-1.3x the steps a second of random play, benchmarks/env_batched.py; copy what you
keep).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from kingscrib.env.batched_random import below, random_actions, seed_streams
from kingscrib.env.cribbage import ACTIONS, FIRST_PAIR, GO
from kingscrib.env.cribbage_v1 import observation_space
from kingscrib.env.flat import flat_keys

OBSERVATION_SIZE = 1401
WIN = 121
PLAY, OVER = 1, 3  # phases as in the observation's status[0] (0 is the discard)
_KEYS = flat_keys(observation_space())
# where each part of the observation starts in the flat array (the sorted keys' order)
O_LEFT = _KEYS["cards_left"].start
O_DISCARDS = _KEYS["discards"].start
O_HAND = _KEYS["hand"].start
O_PLAYED = _KEYS["played"].start
O_PILE = _KEYS["pile"].start
O_SAID_GO = _KEYS["said_go"].start
O_SCORES = _KEYS["scores"].start
O_SEQUENCE = _KEYS["sequence"].start
O_IN_COUNT = _KEYS["sequence_in_count"].start
O_SEQ_SEAT = _KEYS["sequence_seat"].start
O_STARTER = _KEYS["starter"].start
O_STATUS = _KEYS["status"].start
assert _KEYS["status"].stop == OBSERVATION_SIZE


class BatchStep(NamedTuple):
    obs: np.ndarray  # (B, 1401) int16: the seat to act's observation
    mask: np.ndarray  # (B, 1409) int8: its legal actions
    rewards: np.ndarray  # (B, players) float32, by seat
    points: np.ndarray  # (B, players) int16: points each seat's side pegged in this step
    done: np.ndarray  # (B,) bool: the game ended in this step (and started again)
    final_scores: np.ndarray  # (B, players) int16: each seat's side's final score, or 0
    illegal: np.ndarray  # (B,) bool: the game ended on an illegal action


# ----- cards and scoring -------------------------------------------------------------
@njit(cache=True)
def _rank(card):
    return card // 4 + 1


@njit(cache=True)
def _points(card):
    r = card // 4 + 1
    return r if r < 10 else 10


@njit(cache=True)
def _pair_action(a, b):
    """The action index of laying away cards ``a < b`` (itertools.combinations order)."""
    return FIRST_PAIR + a * 51 - a * (a - 1) // 2 + (b - a - 1)


@njit(cache=True)
def _peg(played, start, end):
    """Points for the last card of ``played[start:end]`` (the current count)."""
    total = 0
    for i in range(start, end):
        total += _points(played[i])
    score = 0
    if total == 15 or total == 31:
        score += 2
    last = _rank(played[end - 1])
    same = 1
    for i in range(end - 2, start - 1, -1):
        if _rank(played[i]) != last:
            break
        same += 1
    if same == 2:
        score += 2
    elif same == 3:
        score += 6
    elif same == 4:
        score += 12
    for k in range(end - start, 2, -1):  # the longest run among the last k cards
        seen = 0
        lo, hi = 14, 0
        ok = True
        for i in range(end - k, end):
            r = _rank(played[i])
            if seen >> r & 1:
                ok = False
                break
            seen |= 1 << r
            lo = min(lo, r)
            hi = max(hi, r)
        if ok and hi - lo == k - 1:
            score += k
            break
    return score


@njit(cache=True)
def _show(cards4, starter, crib):
    """Points of four cards (a bitmask over 52) with the starter in the show."""
    ranks = np.empty(5, np.int64)
    n = 0
    suit = -1
    flush4 = True
    nobs = 0
    for c in range(52):
        if cards4 >> c & 1:
            ranks[n] = c // 4 + 1
            n += 1
            if suit == -1:
                suit = c % 4
            elif c % 4 != suit:
                flush4 = False
            if c // 4 + 1 == 11 and c % 4 == starter % 4:
                nobs = 1
    ranks[4] = starter // 4 + 1
    score = nobs
    if flush4:
        if starter % 4 == suit:
            score += 5
        elif not crib:
            score += 4
    for subset in range(3, 32):  # fifteens: every subset of two or more cards
        total = 0
        size = 0
        for i in range(5):
            if subset >> i & 1:
                r = ranks[i]
                total += r if r < 10 else 10
                size += 1
        if size >= 2 and total == 15:
            score += 2
    counts = np.zeros(15, np.int64)
    for i in range(5):
        counts[ranks[i]] += 1
    for r in range(1, 14):
        score += counts[r] * (counts[r] - 1)  # 2 points a pair
    length = 0
    ways = 1
    for r in range(1, 15):  # counts[14] is 0: closes a run ending at the king
        if counts[r]:
            length += 1
            ways *= counts[r]
        else:
            if length >= 3:
                score += length * ways
            length = 0
            ways = 1
    return score


# ----- the game --------------------------------------------------------------------
# The state is a tuple of arrays, one row per slot (``BatchedCribbage._state``); scores,
# hands, discards and the gos said are kept per seat (partners hold their side's score,
# both of them), and the last item is the number of seats.
@njit(cache=True)
def _hand_size(n):
    return 6 if n == 2 else 5


@njit(cache=True)
def _starter_position(n):
    """Where the starter lies in the pack: past the hands and the three-player crib card."""
    return _hand_size(n) * n + (1 if n == 3 else 0)


@njit(cache=True)
def _new_deal(b, s, deck, decks):
    (scores, dealer, deals, phase, to_act, go_queue, held, kept, discards, starter,
     played, played_by, n_played, pile_start, count, said_go, last, rng, n) = s
    if deals[b] < decks.shape[1]:
        for i in range(52):
            deck[b, i] = decks[b, deals[b], i]
    else:
        for i in range(52):
            deck[b, i] = i
        for i in range(51, 0, -1):  # Fisher-Yates
            j = below(rng, b, i + 1)
            deck[b, i], deck[b, j] = deck[b, j], deck[b, i]
    deals[b] += 1
    d = dealer[b]
    for seat in range(n):
        held[b, seat] = 0
        discards[b, seat] = 0
        kept[b, seat] = 0
        said_go[b, seat] = 0
    for pos in range(_hand_size(n) * n):  # one at a time, from the left of the dealer
        seat = (d + 1 + pos % n) % n
        held[b, seat] |= np.int64(1) << np.int64(deck[b, pos])
    starter[b] = -1
    n_played[b] = 0
    pile_start[b] = 0
    count[b] = 0
    phase[b] = 0
    to_act[b] = (d + 1) % n


@njit(cache=True)
def _new_game(b, s, deck, decks, first_dealer):
    scores, dealer, deals, go_queue, n = s[0], s[1], s[2], s[5], s[18]
    for seat in range(n):
        scores[b, seat] = 0
    go_queue[b, :] = -1
    deals[b] = 0
    if first_dealer >= 0:
        dealer[b] = first_dealer
    else:  # the cut for deal: every seat equally likely
        dealer[b] = below(s[17], b, n)
    _new_deal(b, s, deck, decks)


@njit(cache=True)
def _add(b, s, seat, pts, gained):
    """Peg for ``seat``'s side (both partners with four seats); True when that wins."""
    scores, phase, n = s[0], s[3], s[18]
    if pts <= 0:
        return False
    now = min(WIN, scores[b, seat] + pts)  # the pegs stop at the game hole
    gain = now - scores[b, seat]
    for other in range(seat % 2 if n == 4 else seat, n, 2 if n == 4 else n):
        gained[b, other] += gain
        scores[b, other] = now
    if now >= WIN:
        phase[b] = OVER
        return True
    return False


@njit(cache=True)
def _can_play(hand, count):
    for c in range(52):
        if hand >> c & 1 and count + _points(c) <= 31:
            return True
    return False


@njit(cache=True)
def _play_over(b, s, deck, decks, gained):
    """When every card is laid: the show, then the next deal. True when the play is over."""
    dealer, held, kept, discards, starter, n = s[1], s[6], s[7], s[8], s[9], s[18]
    crib = np.int64(0)
    for seat in range(n):
        if held[b, seat]:
            return False
        crib |= discards[b, seat]
    if n == 3:  # the card dealt to the crib
        crib |= np.int64(1) << np.int64(deck[b, 15])
    d = dealer[b]
    for k in range(1, n + 1):  # the hands from the left of the dealer, then the crib
        seat = (d + k) % n
        if _add(b, s, seat, _show(kept[b, seat], starter[b], False), gained):
            return True
    if _add(b, s, d, _show(crib, starter[b], True), gained):
        return True
    dealer[b] = (d + 1) % n
    _new_deal(b, s, deck, decks)
    return True


@njit(cache=True)
def _reset_count(b, s):
    n_played, pile_start, count, said_go, n = s[12], s[13], s[14], s[15], s[18]
    pile_start[b] = n_played[b]
    count[b] = 0
    for seat in range(n):
        said_go[b, seat] = 0


@njit(cache=True)
def _next_with_cards(b, s, last):
    held, n = s[6], s[18]
    for k in range(1, n + 1):
        seat = (last + k) % n
        if held[b, seat]:
            return seat
    return last


@njit(cache=True)
def _advance(b, s, deck, decks, gained):
    """After a card is laid: who lays next, go, 31, the last card (the engine's _advance).
    The seats that said go, in order, go to the go queue."""
    to_act, go_queue, held, count, said_go, last, n = s[4], s[5], s[6], s[14], s[15], s[16], s[18]
    who = last[b]
    if count[b] == 31:
        _reset_count(b, s)
        if _play_over(b, s, deck, decks, gained):
            return
        to_act[b] = _next_with_cards(b, s, who)
        return
    gone = 0
    for k in range(1, n + 1):
        seat = (who + k) % n
        if _can_play(held[b, seat], count[b]):
            to_act[b] = seat
            go_queue[b, gone] = -1
            return
        if held[b, seat] and not said_go[b, seat] and seat != who:
            said_go[b, seat] = 1
            go_queue[b, gone] = seat
            gone += 1
    go_queue[b, gone] = -1
    # nobody can lay a card: one for go, or for the last card
    if _add(b, s, who, 1, gained):
        return
    _reset_count(b, s)
    if _play_over(b, s, deck, decks, gained):
        return
    to_act[b] = _next_with_cards(b, s, who)


@njit(cache=True)
def _apply(b, s, action, deck, decks, gained):
    """Apply one action of the seat to act; False (and nothing changed) if illegal."""
    (scores, dealer, deals, phase, to_act, go_queue, held, kept, discards, starter,
     played, played_by, n_played, pile_start, count, said_go, last, rng, n) = s
    if go_queue[b, 0] >= 0:
        if action != GO:
            return False
        for k in range(3):  # the next go in the queue, if any
            go_queue[b, k] = go_queue[b, k + 1]
        go_queue[b, 3] = -1
        return True
    seat = to_act[b]
    if phase[b] == 0:
        if n == 2:
            if action < FIRST_PAIR or action >= GO:
                return False
            k = action - FIRST_PAIR  # decode the pair (a, b): rows of combinations(range(52), 2)
            a = 0
            while k >= 51 - a:
                k -= 51 - a
                a += 1
            c = a + 1 + k
            away = (np.int64(1) << np.int64(a)) | (np.int64(1) << np.int64(c))
        else:  # one card each
            if action < 0 or action >= 52:
                return False
            away = np.int64(1) << np.int64(action)
        if held[b, seat] & away != away:
            return False
        held[b, seat] &= ~away
        discards[b, seat] = away
        d = dealer[b]
        if seat != d:  # the dealer lays away last
            to_act[b] = (seat + 1) % n
            return True
        for other in range(n):
            kept[b, other] = held[b, other]
        starter[b] = deck[b, _starter_position(n)]
        phase[b] = PLAY
        to_act[b] = (d + 1) % n
        if _rank(starter[b]) == 11:  # his heels
            _add(b, s, d, 2, gained)
        return True
    if action < 0 or action >= 52:
        return False
    bit = np.int64(1) << np.int64(action)
    if not held[b, seat] & bit or count[b] + _points(action) > 31:
        return False
    held[b, seat] &= ~bit
    played[b, n_played[b]] = action
    played_by[b, n_played[b]] = seat
    n_played[b] += 1
    count[b] += _points(action)
    last[b] = seat
    if _add(b, s, seat, _peg(played[b], pile_start[b], n_played[b]), gained):
        return True
    _advance(b, s, deck, decks, gained)
    if phase[b] == OVER:
        go_queue[b, 0] = -1
    return True


# ----- what the seat to act sees ----------------------------------------------------------
@njit(cache=True)
def _seat_to_act(b, s):
    return s[5][b, 0] if s[5][b, 0] >= 0 else s[4][b]


@njit(cache=True)
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _observe(b, s, obs, mask):
    (scores, dealer, deals, phase, to_act, go_queue, held, kept, discards, starter,
     played, played_by, n_played, pile_start, count, said_go, last, rng, n) = s
    seat = _seat_to_act(b, s)
    o = obs[b]
    o[:] = 0
    m = mask[b]
    m[:] = 0
    hand = held[b, seat]
    seen = 0
    for c in range(52):
        if hand >> c & 1:
            o[O_HAND + c] = 1
            seen += 1
        if discards[b, seat] >> c & 1:
            o[O_DISCARDS + c] = 1
            seen += 1
    if starter[b] >= 0:
        o[O_STARTER + starter[b]] = 1
        seen += 1
    for k in range(n_played[b]):
        c = played[b, k]
        who = (played_by[b, k] - seat) % n
        o[O_PLAYED + who * 52 + c] = 1
        o[O_SEQUENCE + k * 52 + c] = 1
        o[O_SEQ_SEAT + k * 4 + who] = 1
        if k >= pile_start[b]:
            o[O_PILE + c] = 1
            o[O_IN_COUNT + k] = 1
    seen += n_played[b]
    for k in range(n):
        other = (seat + k) % n
        o[O_SCORES + k] = scores[b, other]
        o[O_LEFT + k] = _popcount(held[b, other])
        o[O_SAID_GO + k] = said_go[b, other]
    st = O_STATUS
    o[st] = phase[b]
    o[st + 1] = (dealer[b] - seat) % n
    o[st + 2] = count[b]
    o[st + 3] = n
    o[st + 4] = 52 - seen
    o[st + 5] = 0  # the seat to act, from the observer: itself
    o[st + 6] = deals[b]
    o[st + 7] = 1 if go_queue[b, 0] >= 0 else 0
    if go_queue[b, 0] >= 0:
        m[GO] = 1
    elif phase[b] == 0 and n == 2:
        for a in range(52):
            if hand >> a & 1:
                for c in range(a + 1, 52):
                    if hand >> c & 1:
                        m[_pair_action(a, c)] = 1
    elif phase[b] == 0:
        for c in range(52):
            if hand >> c & 1:
                m[c] = 1
    else:
        for c in range(52):
            if hand >> c & 1 and count[b] + _points(c) <= 31:
                m[c] = 1


@njit(cache=True)
def _step_all(s, actions, deck, decks, obs, mask, rewards, gained, done, final, illegal,
              autoreset):
    scores, phase, n = s[0], s[3], s[18]
    for b in range(actions.shape[0]):
        for seat in range(n):
            rewards[b, seat] = 0.0
            gained[b, seat] = 0
            final[b, seat] = 0
        done[b] = False
        illegal[b] = False
        if phase[b] == OVER:  # finished without autoreset: stays as it ended
            continue
        seat = _seat_to_act(b, s)
        if not _apply(b, s, actions[b], deck, decks, gained):
            illegal[b] = True
            done[b] = True
            rewards[b, seat] = -1.0
            phase[b] = OVER
        elif phase[b] == OVER:
            done[b] = True
            for other in range(n):  # the winning side: +1, each other: -1
                rewards[b, other] = 1.0 if scores[b, other] >= WIN else -1.0
        if done[b]:
            for other in range(n):
                final[b, other] = scores[b, other]
            if autoreset:
                _new_game(b, s, deck, decks, -1)
        if phase[b] != OVER:
            _observe(b, s, obs, mask)


@njit(cache=True)
def _reset_all(s, deck, decks, first_dealers, obs, mask):
    for b in range(deck.shape[0]):
        _new_game(b, s, deck, decks, first_dealers[b])
        _observe(b, s, obs, mask)


class BatchedCribbage:
    """``batch_size`` games of Cribbage for ``players`` seats (2, 3 or 4), stepped
    together (module doc)."""

    actions = ACTIONS
    observation_size = OBSERVATION_SIZE

    def __init__(self, batch_size: int, seed: int = 0, autoreset: bool = True,
                 players: int = 2, copy: bool = True) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        if players not in (2, 3, 4):
            raise ValueError(f"Cribbage is for 2, 3 or 4 players, not {players}")
        self.players = n = int(players)
        self.batch_size = b = int(batch_size)
        self.autoreset = autoreset
        self.copy = copy  # return copies (the default) or the environment's own arrays
        self._seed = int(seed)
        i64 = np.int64
        self.scores = np.zeros((b, n), i64)  # by seat: partners both hold their side's
        self.dealer = np.zeros(b, i64)
        self.deals = np.zeros(b, i64)
        self.phase = np.zeros(b, i64)
        self.to_act_seat = np.zeros(b, i64)
        self.go_queue = np.full((b, 4), -1, i64)  # the seats yet to say go, -1 after
        self.held = np.zeros((b, n), i64)  # bitmasks over the 52 cards
        self.kept = np.zeros((b, n), i64)
        self.discards = np.zeros((b, n), i64)
        self.starter = np.full(b, -1, i64)
        self.played = np.zeros((b, 16), i64)
        self.played_by = np.zeros((b, 16), i64)
        self.n_played = np.zeros(b, i64)
        self.pile_start = np.zeros(b, i64)
        self.count = np.zeros(b, i64)
        self.said_go = np.zeros((b, n), i64)
        self.last = np.zeros(b, i64)
        self.rng = seed_streams(self._seed, b)
        self.deck = np.zeros((b, 52), i64)
        self._decks = np.zeros((b, 0, 52), i64)
        self.obs = np.zeros((b, OBSERVATION_SIZE), np.int16)
        self.mask = np.zeros((b, ACTIONS), np.int8)
        self._rewards = np.zeros((b, n), np.float32)
        self._gained = np.zeros((b, n), np.int16)
        self._done = np.zeros(b, np.bool_)
        self._final = np.zeros((b, n), np.int16)
        self._illegal = np.zeros(b, np.bool_)
        self._pick = np.zeros(b, np.int64)
        self._pick_rng = seed_streams(self._seed ^ 0x5DEECE66D, b)

    def _state(self) -> tuple:
        return (self.scores, self.dealer, self.deals, self.phase, self.to_act_seat,
                self.go_queue, self.held, self.kept, self.discards, self.starter,
                self.played, self.played_by, self.n_played, self.pile_start, self.count,
                self.said_go, self.last, self.rng, self.players)

    def reset(self, seed: int | None = None, decks: np.ndarray | None = None,
              first_dealers: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a game in every slot; the observations and masks of the seats to act.

        ``decks`` (B, D, 52) gives each slot's packs, deal by deal, as card indexes
        (``Card.number``) in the order dealt (the hands one card at a time from the left
        of the dealer, with three players one card to the crib, then the starter: the
        13th card with two players, the 17th with three, the 21st with four); past deal D
        the slot shuffles its own. ``first_dealers`` (B,) fixes the first dealer of each
        game (a seat)."""
        if seed is not None:
            self._seed = int(seed)
            self.rng[:] = seed_streams(self._seed, self.batch_size)
            self._pick_rng[:] = seed_streams(self._seed ^ 0x5DEECE66D, self.batch_size)
        b = self.batch_size
        if decks is None:
            self._decks = np.zeros((b, 0, 52), np.int64)
        else:
            decks = np.asarray(decks, np.int64)
            if decks.ndim != 3 or decks.shape[0] != b or decks.shape[2] != 52:
                raise ValueError(f"decks must have the shape ({b}, deals, 52), not "
                                 f"{decks.shape}")
            if not (np.sort(decks, axis=2) == np.arange(52)).all():
                raise ValueError("every deck must hold each card index 0..51 once")
            self._decks = decks
        if first_dealers is None:
            dealers = np.full(b, -1, np.int64)
        else:
            dealers = np.asarray(first_dealers, np.int64)
            if dealers.shape != (b,) or not np.isin(dealers, range(self.players)).all():
                seats = "0 or 1" if self.players == 2 else f"0 to {self.players - 1}"
                raise ValueError(f"first_dealers must be {b} seats, each {seats}")
        _reset_all(self._state(), self.deck, self._decks, dealers, self.obs, self.mask)
        return self._out(self.obs), self._out(self.mask)

    def step(self, actions: np.ndarray) -> BatchStep:
        """Apply ``actions`` (B,), one index per game for its seat to act (module doc)."""
        actions = np.asarray(actions, np.int64)
        if actions.shape != (self.batch_size,):
            raise ValueError(f"actions must have the shape ({self.batch_size},), not "
                             f"{actions.shape}")
        _step_all(self._state(), actions, self.deck, self._decks, self.obs, self.mask,
                  self._rewards, self._gained, self._done, self._final, self._illegal,
                  self.autoreset)
        out = self._out
        return BatchStep(out(self.obs), out(self.mask), out(self._rewards), out(self._gained),
                         out(self._done), out(self._final), out(self._illegal))

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def to_act(self) -> np.ndarray:
        """The seat to act in each game (0 to ``players - 1``)."""
        return np.where(self.go_queue[:, 0] >= 0, self.go_queue[:, 0], self.to_act_seat)

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game (a stream of its own per slot)."""
        random_actions(self.mask, self._pick_rng, self._pick)
        return self._out(self._pick)


__all__ = ["OBSERVATION_SIZE", "BatchStep", "BatchedCribbage"]
