"""``learned``: a Cribbage player whose every choice is a small network's, learned by self-play.

Each legal action is scored on its own by one of two small networks (a multilayer
perceptron, numpy only at play time), and the best-scoring one is played:

- a **discard** by the cards it keeps and the two it lays away, and whose crib it is;
- a **card in the play** by its rank, the points it pegs now (the rules' count), the
  count it makes, the cards of the current count before it, the cards left in hand
  after it, the cards this seat has not seen, and who holds how many cards.

The features are what the state and the action show, and the points the rules give
for the action itself: no expected hand, no look-ahead, no hand-written preference.
The weights (``data/learned.npz``) are learned by :mod:`kingscrib.training.learned`
from self-play on the batched engine: each network predicts the points this seat will
make less the opponent's (in the whole deal for a discard, in the rest of the play for
a card), by Monte Carlo regression on the deals its own play produced (docs/rl.md,
"A learned player").

The player is for two players; in the show it claims exactly what a hand is worth,
as every computer does.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import numpy as np

from kingscrib.classic.cards import Card
from kingscrib.classic.discard import rank_points
from kingscrib.classic.game import Action, Discard, Play, PlayerView
from kingscrib.players.classic.base import perfect_claim

WEIGHTS = Path(__file__).parent / "data" / "learned.npz"

# the 91 unordered pairs of ranks (0..12), i <= j
_PAIR = np.full((13, 13), -1, np.int64)
for _k, (_i, _j) in enumerate((i, j) for i in range(13) for j in range(i, 13)):
    _PAIR[_i, _j] = _PAIR[_j, _i] = _k
N_PAIRS = 91
DISCARD_FEATURES = 13 + N_PAIRS + 2 + 2 * (13 + N_PAIRS + 1) + 1
PLAY_FEATURES = 13 + 2 + 32 + 8 + 13 + 13 + 13 + 4 + 5 + 1 + 13
_KEPT_PAIRS = list(combinations(range(4), 2))
# the ways to lay two of six away, in the order of the environments' actions
THROWS = np.array(list(combinations(range(6), 2)), np.int64)
KEEPS = np.array([[i for i in range(6) if i not in t] for t in THROWS], np.int64)


@lru_cache(maxsize=1)
def _static_table() -> np.ndarray:
    """Fifteens, pairs and runs of four ranks (0..12), by the sorted ranks."""
    table = np.zeros((13, 13, 13, 13), np.float32)
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    table[a, b, c, d] = rank_points((a + 1, b + 1, c + 1, d + 1))
    return table


def _one_hot(index: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros((len(index), size), np.float32)
    ok = (index >= 0) & (index < size)
    out[np.nonzero(ok)[0], index[ok]] = 1.0
    return out


def _rank_counts(cards: np.ndarray) -> np.ndarray:
    """(N, k) card numbers (-1: none) -> (N, 13) how many of each rank."""
    out = np.zeros((cards.shape[0], 13), np.float32)
    for i in range(cards.shape[1]):
        col = cards[:, i]
        ok = np.nonzero(col >= 0)[0]
        out[ok, col[ok] // 4] += 1.0  # one card a row: no index repeats
    return out


def discard_features(kept: np.ndarray, thrown: np.ndarray, dealer: np.ndarray) -> np.ndarray:
    """Features of laying ``thrown`` (N, 2) away and keeping ``kept`` (N, 4) (card
    numbers, rank - 1 then suit: ``Card.number``); ``dealer`` (N,): the crib is ours."""
    kept = np.asarray(kept, np.int64)
    thrown = np.asarray(thrown, np.int64)
    own = np.asarray(dealer, np.float32).reshape(-1, 1)
    n = kept.shape[0]
    kr = kept // 4
    pairs = np.zeros((n, N_PAIRS), np.float32)
    rows = np.arange(n)
    for i, j in _KEPT_PAIRS:
        pairs[rows, _PAIR[kr[:, i], kr[:, j]]] += 1.0  # one pair a row: no index repeats
    s = np.sort(kr, axis=1)
    static = _static_table()[s[:, 0], s[:, 1], s[:, 2], s[:, 3]].reshape(-1, 1) / 10.0
    suits = kept % 4
    flush = (suits == suits[:, :1]).all(axis=1).astype(np.float32).reshape(-1, 1)
    tr = thrown // 4
    crib = np.concatenate([
        _rank_counts(thrown),
        _one_hot(_PAIR[tr[:, 0], tr[:, 1]], N_PAIRS),
        (thrown[:, 0] % 4 == thrown[:, 1] % 4).astype(np.float32).reshape(-1, 1),
    ], axis=1)
    return np.concatenate([_rank_counts(kept), pairs, static, flush, crib * own,
                           crib * (1.0 - own), own], axis=1)


def peg_points(pile: np.ndarray, card: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Points for laying ``card`` (N,) on ``pile`` (N, 7: the current count's cards in
    order, -1 after the last) at ``count`` (N,): fifteen or 31, pairs, runs."""
    pile = np.asarray(pile, np.int64)
    card = np.asarray(card, np.int64)
    n = len(card)
    length = (pile >= 0).sum(axis=1)
    seq = np.concatenate([pile, np.full((n, 1), -1, np.int64)], axis=1)
    rows = np.arange(n)
    seq[rows, length] = card
    length = length + 1
    ranks = np.where(seq >= 0, seq // 4, -100)
    new_count = np.asarray(count, np.int64) + np.minimum(card // 4 + 1, 10)
    pts = np.where((new_count == 15) | (new_count == 31), 2, 0)
    last = card // 4
    same = np.ones(n, np.int64)
    going = np.ones(n, bool)
    for back in range(2, 5):
        idx = length - back
        ok = going & (idx >= 0)
        match = ok & (ranks[rows, np.maximum(idx, 0)] == last)
        same += match
        going = match
    pts += np.select([same == 2, same == 3, same == 4], [2, 6, 12], 0)
    found = np.zeros(n, bool)
    for k in range(8, 2, -1):
        start = length - k
        ok = ~found & (start >= 0)
        if not ok.any():
            continue
        idx = np.maximum(start, 0)[:, None] + np.arange(k)
        window = ranks[rows[:, None], np.minimum(idx, 7)]
        srt = np.sort(window, axis=1)
        run = ok & (srt[:, -1] - srt[:, 0] == k - 1) & (np.diff(srt, axis=1) == 1).all(axis=1)
        pts += np.where(run, k, 0)
        found |= run
    return pts


def play_features(card: np.ndarray, pile: np.ndarray, count: np.ndarray, hand: np.ndarray,
                  seen: np.ndarray, opp_left: np.ndarray, dealer: np.ndarray,
                  points: np.ndarray | None = None) -> np.ndarray:
    """Features of laying ``card`` (N,) on ``pile`` (N, 7, -1 after the last) at ``count``;
    ``hand`` (N, 4, -1 padded): the cards held, ``card`` among them; ``seen`` (N, 13):
    the cards of each rank this seat has seen outside its hand (laid, the starter, its
    own discards); ``opp_left``: the cards the opponent holds; ``dealer``: ours is the crib;
    ``points``: :func:`peg_points` of the same arguments, when already counted."""
    card = np.asarray(card, np.int64)
    hand = np.asarray(hand, np.int64)
    pile = np.asarray(pile, np.int64)
    count = np.asarray(count, np.int64)
    n = len(card)
    rows = np.arange(n)
    pts = (peg_points(pile, card, count) if points is None else points).astype(np.float32)
    new_count = count + np.minimum(card // 4 + 1, 10)
    length = (pile >= 0).sum(axis=1)
    prev = np.where(length >= 1, pile[rows, np.maximum(length - 1, 0)] // 4, -1)
    prev2 = np.where(length >= 2, pile[rows, np.maximum(length - 2, 0)] // 4, -1)
    after = np.where(hand == card[:, None], -1, hand)
    left = (after >= 0).sum(axis=1)
    held = _rank_counts(hand)
    unseen = (4.0 - held - np.asarray(seen, np.float32)) / 4.0
    return np.concatenate([
        _one_hot(card // 4, 13),
        (pts / 4.0).reshape(-1, 1),
        (pts > 0).astype(np.float32).reshape(-1, 1),
        _one_hot(new_count, 32),
        _one_hot(length, 8),
        _one_hot(prev, 13),
        _one_hot(prev2, 13),
        _rank_counts(after),
        _one_hot(left, 4),
        _one_hot(np.asarray(opp_left, np.int64), 5),
        np.asarray(dealer, np.float32).reshape(-1, 1),
        unseen,
    ], axis=1)


class Net:
    """A multilayer perceptron with ReLU hidden layers and one output, numpy only."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.layers = layers

    @classmethod
    def initial(cls, sizes: list[int], rng: np.random.Generator) -> Net:
        """He-initialised weights, zero biases (the last layer starts at zero)."""
        layers = []
        for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
            scale = 0.0 if i == len(sizes) - 2 else np.sqrt(2.0 / a)
            layers.append(((rng.standard_normal((a, b)) * scale).astype(np.float32),
                           np.zeros(b, np.float32)))
        return cls(layers)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        h = x.astype(np.float32, copy=False)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h[:, 0]

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        out = {}
        for i, (w, b) in enumerate(self.layers):
            out[f"{prefix}_w{i}"] = w
            out[f"{prefix}_b{i}"] = b
        return out

    @classmethod
    def from_arrays(cls, data: dict[str, np.ndarray], prefix: str) -> Net:
        layers = []
        i = 0
        while f"{prefix}_w{i}" in data:
            layers.append((np.asarray(data[f"{prefix}_w{i}"], np.float32),
                           np.asarray(data[f"{prefix}_b{i}"], np.float32)))
            i += 1
        if not layers:
            raise ValueError(f"no {prefix} network in the weights")
        return cls(layers)


class Weights:
    """The two networks: one scores discards, the other cards in the play."""

    def __init__(self, discard: Net, play: Net) -> None:
        self.discard = discard
        self.play = play

    def save(self, path: Path) -> None:
        arrays = {**self.discard.arrays("discard"), **self.play.arrays("play")}
        with open(path, "wb") as f:
            np.savez_compressed(f, allow_pickle=False, **arrays)

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> Weights:
        with np.load(path) as data:
            arrays = {k: data[k] for k in data.files}
        weights = cls(Net.from_arrays(arrays, "discard"), Net.from_arrays(arrays, "play"))
        if weights.discard.layers[0][0].shape[0] != DISCARD_FEATURES or \
                weights.play.layers[0][0].shape[0] != PLAY_FEATURES:
            raise ValueError(f"{path} was trained on other features")
        return weights


@lru_cache(maxsize=1)
def shipped_weights() -> Weights:
    return Weights.load(WEIGHTS)


def _numbers(cards: tuple[Card, ...] | list[Card], size: int) -> np.ndarray:
    out = np.full(size, -1, np.int64)
    for i, c in enumerate(cards):
        out[i] = c.number
    return out


class LearnedPlayer:
    """Plays the action its networks score best (module doc); two players only."""

    name = "learned"

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)
        self.weights = weights if weights is not None else shipped_weights()

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "show":
            return perfect_claim(view)
        if len(view.legal) == 1:
            return view.legal[0]
        if view.rules.players != 2:
            raise ValueError("the learned player plays the two-player game only")
        if view.phase == "discard":
            return self.choose_discard(view)
        return self.choose_play(view)

    def choose_discard(self, view: PlayerView) -> Discard:
        hand = sorted(view.hand, key=lambda c: c.number)
        cards = np.array([c.number for c in hand], np.int64)
        kept, thrown = cards[KEEPS], cards[THROWS]
        dealer = np.full(len(THROWS), view.is_dealer)
        q = self.weights.discard(discard_features(kept, thrown, dealer))
        best = int(np.argmax(q))
        return Discard((hand[THROWS[best, 0]], hand[THROWS[best, 1]]))

    def choose_play(self, view: PlayerView) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) <= 1:
            return plays[0] if plays else view.legal[0]
        n = len(plays)
        card = np.array([a.card.number for a in plays], np.int64)
        pile = np.tile(_numbers(view.pile, 7), (n, 1))
        hand = np.tile(_numbers(view.hand, 4), (n, 1))
        seen_cards = [c for _, c in view.played] + list(view.discards)
        if view.starter is not None:
            seen_cards.append(view.starter)
        seen = np.zeros(13, np.float32)
        for c in seen_cards:
            seen[c.rank - 1] += 1
        opp = view.cards_left[1 - view.seat]
        q = self.weights.play(play_features(
            card, pile, np.full(n, view.count), hand, np.tile(seen, (n, 1)),
            np.full(n, opp), np.full(n, view.is_dealer)))
        return plays[int(np.argmax(q))]


__all__ = ["DISCARD_FEATURES", "KEEPS", "PLAY_FEATURES", "THROWS", "LearnedPlayer", "Net",
           "Weights", "discard_features", "peg_points", "play_features", "shipped_weights"]
