"""Training the ``learned`` Cribbage player by self-play on the batched engine.

The method is Monte Carlo control with an action-value function over action features
(Sutton and Barto, *Reinforcement Learning*, 2nd ed., 2018, sections 5.3-5.4 and 10.1),
each legal action scored on its own as in DRRN (He et al., "Deep Reinforcement
Learning with a Natural Language Action Space", ACL 2016): ``Q(s, a) = net(features
(s, a))``, played greedily with epsilon exploration by both seats (self-play, as
TD-Gammon, Tesauro 1995). Scoring actions by their features instead of one output per
index of the ``Discrete(1409)`` space is what lets a few thousand weights generalise:
one discard's value teaches every hand that keeps the same ranks.

The return that each network learns is the seat's points less the opponent's: over the
whole deal for a discard (pegging, hand and crib; his heels too), over the rest of the
play for a card. Deals that end the game are left out (the pegs stop at 121, which
would cut their returns). The networks and their features are
:mod:`kingscrib.players.classic.learned`'s, so the player plays exactly what was trained.

The batched engine lives a layer above (``kingscrib.env``): the caller hands it in
(:class:`BatchedGames`), as ``kingscrib classic train-learned`` does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic.driver import play_game
from kingscrib.players.classic.learned import (
    DISCARD_FEATURES,
    KEEPS,
    PLAY_FEATURES,
    THROWS,
    LearnedPlayer,
    Net,
    Weights,
    discard_features,
    peg_points,
    play_features,
)
from kingscrib.players.classic.registry import make_player


class StepResult(Protocol):
    @property
    def points(self) -> np.ndarray: ...
    @property
    def done(self) -> np.ndarray: ...


class BatchedGames(Protocol):
    """What training reads of :class:`kingscrib.env.batched_cribbage.BatchedCribbage`."""

    batch_size: int
    mask: np.ndarray
    phase: np.ndarray
    go_queue: np.ndarray  # (B, 4): the seats to say go, in turn; -1 past the last
    held: np.ndarray
    dealer: np.ndarray
    deals: np.ndarray
    discards: np.ndarray
    starter: np.ndarray
    played: np.ndarray
    n_played: np.ndarray
    pile_start: np.ndarray
    count: np.ndarray

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]: ...
    def step(self, actions: np.ndarray) -> StepResult: ...
    def to_act(self) -> np.ndarray: ...


_BITS = np.int64(1) << np.arange(52, dtype=np.int64)


def _cards(held: np.ndarray, size: int) -> np.ndarray:
    """(N,) bitmasks over 52 cards -> (N, size) card numbers ascending, -1 padded."""
    bits = (held[:, None] & _BITS) != 0
    numbers = np.where(bits, np.arange(52), 99)
    numbers.sort(axis=1)
    out = numbers[:, :size]
    return np.where(out == 99, -1, out)


def _popcount(held: np.ndarray) -> np.ndarray:
    return ((held[:, None] & _BITS) != 0).sum(axis=1)


class Adam:
    """Adam (Kingma and Ba, 2015) on a :class:`Net`'s squared error."""

    def __init__(self, net: Net, lr: float) -> None:
        self.net = net
        self.lr = lr
        self.t = 0
        self.m = [(np.zeros_like(w), np.zeros_like(b)) for w, b in net.layers]
        self.v = [(np.zeros_like(w), np.zeros_like(b)) for w, b in net.layers]

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        """One step on the mean squared error of ``net(x)`` against ``y``; the loss."""
        acts = [x.astype(np.float32, copy=False)]
        h = acts[0]
        layers = self.net.layers
        for i, (w, b) in enumerate(layers):
            h = h @ w + b
            if i < len(layers) - 1:
                h = np.maximum(h, 0.0)
            acts.append(h)
        err = acts[-1][:, 0] - y
        grad = (2.0 / len(y)) * err[:, None].astype(np.float32)
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for i in range(len(layers) - 1, -1, -1):
            w, b = layers[i]
            gw = acts[i].T @ grad
            gb = grad.sum(axis=0)
            if i > 0:
                grad = (grad @ w.T) * (acts[i] > 0)
            new = []
            for p, g, m, v in ((w, gw, self.m[i][0], self.v[i][0]),
                               (b, gb, self.m[i][1], self.v[i][1])):
                m *= b1
                m += (1 - b1) * g
                v *= b2
                v += (1 - b2) * g * g
                mh = m / (1 - b1 ** self.t)
                vh = v / (1 - b2 ** self.t)
                new.append((p - self.lr * mh / (np.sqrt(vh) + eps)).astype(np.float32))
            layers[i] = (new[0], new[1])
        return float(np.mean(err * err))


class Replay:
    """The last ``capacity`` decisions of one kind (a ring): raw inputs and returns."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.inputs: dict[str, np.ndarray] = {}
        self.returns = np.zeros(capacity, np.float32)
        self.size = 0
        self.at = 0

    def add(self, inputs: dict[str, np.ndarray], returns: np.ndarray) -> None:
        n = len(returns)
        if n == 0:
            return
        if not self.inputs:
            self.inputs = {k: np.zeros((self.capacity, *v.shape[1:]), v.dtype)
                           for k, v in inputs.items()}
        where = (self.at + np.arange(n)) % self.capacity
        for k, v in inputs.items():
            self.inputs[k][where] = v
        self.returns[where] = returns
        self.at = int((self.at + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[dict[str, np.ndarray], np.ndarray]:
        pick = rng.integers(0, self.size, n)
        return {k: v[pick] for k, v in self.inputs.items()}, self.returns[pick]


@dataclass
class Settings:
    steps: int = 2_000_000  # environment steps (all games of the batch together)
    batch: int = 512  # games stepped at once
    rollout: int = 32  # steps of the batch between two rounds of learning
    updates: int = 16  # minibatch updates of each network per round
    minibatch: int = 1024
    lr: float = 1e-3
    hidden: tuple[int, ...] = (64, 32)
    epsilon: tuple[float, float] = (0.3, 0.05)  # exploration, at the start and the end
    replay: int = 400_000  # decisions kept per kind
    seed: int = 1


@dataclass
class Progress:
    """What :func:`train` reports after each round."""

    steps: int
    deals: int
    discard_loss: float
    play_loss: float
    seconds: float
    history: list[tuple[int, dict[str, float]]] = field(default_factory=list)


def initial_weights(hidden: tuple[int, ...], seed: int) -> Weights:
    rng = np.random.default_rng(seed)
    return Weights(Net.initial([DISCARD_FEATURES, *hidden, 1], rng),
                   Net.initial([PLAY_FEATURES, *hidden, 1], rng))


class SelfPlay:
    """Both seats of every game of the batch play the current networks (module doc)."""

    def __init__(self, env: BatchedGames, weights: Weights, seed: int) -> None:
        self.env = env
        self.weights = weights
        self.rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        b = env.batch_size
        self.peg = np.zeros((b, 2), np.float32)  # points pegged in this deal's play
        self.total = np.zeros((b, 2), np.float32)  # points in this deal
        self.deals_done = 0
        self.uid = np.arange(b)  # each slot's current deal, numbered from 0
        self.next_uid = b
        self._start_round()

    def _start_round(self) -> None:
        self.final_peg: list[np.ndarray] = []
        self.final_total: list[np.ndarray] = []
        self.final_uid: list[np.ndarray] = []
        self.rows: dict[str, list[dict[str, np.ndarray]]] = {"discard": [], "play": []}

    def _discards(self, slots: np.ndarray, seats: np.ndarray, epsilon: float) -> np.ndarray:
        env = self.env
        cards = _cards(env.held[slots, seats], 6)
        kept, thrown = cards[:, KEEPS], cards[:, THROWS]
        dealer = np.repeat(env.dealer[slots] == seats, len(THROWS))
        q = self.weights.discard(discard_features(kept.reshape(-1, 4), thrown.reshape(-1, 2),
                                                  dealer)).reshape(-1, len(THROWS))
        explore = self.rng.random(len(slots)) < epsilon
        q[explore] = self.rng.random((int(explore.sum()), len(THROWS)))
        k = np.argmax(q, axis=1)
        n = np.arange(len(slots))
        self.rows["discard"].append({
            "kept": kept[n, k].astype(np.int8), "thrown": thrown[n, k].astype(np.int8),
            "dealer": (env.dealer[slots] == seats).astype(np.int8),
            "uid": self.uid[slots], "seat": seats, "snap": np.zeros((len(slots), 2), np.float32)})
        legal = np.nonzero(env.mask[slots])[1].reshape(len(slots), len(THROWS))
        return legal[n, k]

    def _plays(self, slots: np.ndarray, seats: np.ndarray, epsilon: float) -> np.ndarray:
        env = self.env
        row, card = np.nonzero(env.mask[slots, :52])
        s, seat = slots[row], seats[row]
        start, end = env.pile_start[s], env.n_played[s]
        idx = start[:, None] + np.arange(7)
        pile = np.where(idx < end[:, None], env.played[s[:, None], np.minimum(idx, 7)], -1)
        hand = _cards(env.held[s, seat], 4)
        played = np.where(np.arange(8) < end[:, None], env.played[s, :8], -1)  # two seats: 8 cards
        extra = np.concatenate([played, _cards(env.discards[s, seat], 2),
                                env.starter[s][:, None]], axis=1)
        seen = np.zeros((len(s), 13), np.float32)
        for i in range(extra.shape[1]):
            ok = np.nonzero(extra[:, i] >= 0)[0]
            seen[ok, extra[ok, i] // 4] += 1.0
        opp = _popcount(env.held[s, 1 - seat])
        dealer = (env.dealer[s] == seat).astype(np.int8)
        count = env.count[s]
        points = peg_points(pile, card, count)
        q = self.weights.play(play_features(card, pile, count, hand, seen, opp, dealer, points))
        explore = self.rng.random(len(slots)) < epsilon
        q = np.where(explore[row], self.rng.random(len(row)), q)
        order = np.lexsort((-q, row))
        first = np.ones(len(order), bool)
        first[1:] = row[order][1:] != row[order][:-1]
        chosen = order[first]  # one row per slot, in the order of ``slots``
        self.rows["play"].append({
            "card": card[chosen].astype(np.int8), "pile": pile[chosen].astype(np.int8),
            "count": count[chosen].astype(np.int8), "hand": hand[chosen].astype(np.int8),
            "seen": seen[chosen].astype(np.int8), "opp": opp[chosen].astype(np.int8),
            "dealer": dealer[chosen], "uid": self.uid[slots], "seat": seats,
            "snap": self.peg[slots].copy()})
        self._last_points = points[chosen]
        self._last_count = count[chosen] + np.minimum(card[chosen] // 4 + 1, 10)
        return card[chosen]

    def step(self, epsilon: float) -> None:
        env = self.env
        seats = env.to_act()
        actions = np.argmax(env.mask, axis=1)  # a go turn: Go is the only legal action
        free = env.go_queue[:, 0] < 0  # no seat of this game must say go now
        disc = np.nonzero(free & (env.phase == 0))[0]
        play = np.nonzero(free & (env.phase == 1))[0]
        if len(disc):
            actions[disc] = self._discards(disc, seats[disc], epsilon)
        if len(play):
            actions[play] = self._plays(play, seats[play], epsilon)
        deals_before = env.deals.copy()
        in_play = env.phase == 1
        result = env.step(actions)
        pts = result.points.astype(np.float32)
        done = result.done.copy()
        self.total += pts
        ended = ~done & (env.deals != deals_before)
        peg = np.where(in_play[:, None], pts, 0.0)
        if len(play):  # the last card of a deal: only its own points and the go are pegged
            last = play[ended[play]]
            if len(last):
                where = np.searchsorted(play, last)
                seat = seats[last]
                pegged = self._last_points[where] + (self._last_count[where] != 31)
                peg[last] = 0.0
                peg[last, seat] = pegged
        self.peg += peg
        over = np.nonzero(ended | done)[0]
        if len(over):
            fine = ended[over]
            self.final_uid.append(self.uid[over[fine]])
            self.final_peg.append(self.peg[over[fine]].copy())
            self.final_total.append(self.total[over[fine]].copy())
            self.deals_done += int(fine.sum())
            self.peg[over] = 0.0
            self.total[over] = 0.0
            self.uid[over] = self.next_uid + np.arange(len(over))
            self.next_uid += len(over)

    def harvest(self) -> dict[str, tuple[dict[str, np.ndarray], np.ndarray]]:
        """The decisions whose deals are over, with their returns; those of the deals
        still being played wait for the next harvest, those of deals that ended the
        game are dropped (module doc)."""
        done_uid = np.concatenate(self.final_uid) if self.final_uid else np.zeros(0, np.int64)
        order = np.argsort(done_uid)
        done_uid = done_uid[order]
        peg = np.concatenate(self.final_peg)[order] if self.final_uid else np.zeros((0, 2))
        total = np.concatenate(self.final_total)[order] if self.final_uid else np.zeros((0, 2))
        out = {}
        pending: dict[str, list[dict[str, np.ndarray]]] = {"discard": [], "play": []}
        for kind, parts in self.rows.items():
            if not parts:
                continue
            rows = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
            uid = rows["uid"]
            at = np.minimum(np.searchsorted(done_uid, uid), max(len(done_uid) - 1, 0))
            over = (done_uid[at] == uid) if len(done_uid) else np.zeros(len(uid), bool)
            live = np.isin(uid, self.uid)
            pending[kind] = [{k: v[live] for k, v in rows.items()}]
            i = np.nonzero(over)[0]
            seat, snap, j = rows["seat"][i], rows["snap"][i], at[i]
            final = total if kind == "discard" else peg
            me = final[j, seat] - snap[np.arange(len(i)), seat]
            them = final[j, 1 - seat] - snap[np.arange(len(i)), 1 - seat]
            out[kind] = ({k: v[i] for k, v in rows.items() if k not in ("uid", "seat", "snap")},
                         (me - them).astype(np.float32))
        self._start_round()
        self.rows = pending
        return out


def discard_inputs(rows: dict[str, np.ndarray]) -> np.ndarray:
    return discard_features(rows["kept"], rows["thrown"], rows["dealer"])


def play_inputs(rows: dict[str, np.ndarray]) -> np.ndarray:
    return play_features(rows["card"], rows["pile"], rows["count"], rows["hand"], rows["seen"],
                         rows["opp"], rows["dealer"])


def evaluate(weights: Weights, opponent: str, pairs: int, seed: int = 10_000) -> float:
    """The learned player's win rate against ``opponent`` over mirrored pairs (the same
    deals with the seats swapped) on seeds ``seed``, ``seed + 1``..."""
    wins = 0
    for i in range(pairs):
        for seat in (0, 1):
            me = LearnedPlayer(seed + i, weights)
            other = make_player(opponent, (seed + i) * 10 + 1 - seat)
            players = [me, other] if seat == 0 else [other, me]
            game = play_game(RuleSet(), seed=seed + i, players=players)
            wins += game.winner == seat
    return wins / (2 * pairs)


def train(env: BatchedGames, settings: Settings, weights: Weights | None = None,
          report: Callable[[Progress], None] | None = None,
          checkpoint: Callable[[int, Weights], None] | None = None,
          checkpoint_every: int = 0) -> Weights:
    """Self-play training (module doc): ``settings.steps`` steps of the whole batch's
    games, learning after every ``settings.rollout`` steps; ``checkpoint(steps, weights)``
    every ``checkpoint_every`` steps and at the end."""
    weights = weights or initial_weights(settings.hidden, settings.seed)
    rng = np.random.default_rng(settings.seed + 1)
    play = SelfPlay(env, weights, settings.seed)
    opts = {"discard": Adam(weights.discard, settings.lr), "play": Adam(weights.play, settings.lr)}
    replays = {"discard": Replay(settings.replay), "play": Replay(settings.replay * 3)}
    featurise = {"discard": discard_inputs, "play": play_inputs}
    losses = {"discard": 0.0, "play": 0.0}
    done = 0
    next_checkpoint = checkpoint_every
    begin = time.perf_counter()
    e0, e1 = settings.epsilon
    while done < settings.steps:
        for _ in range(settings.rollout):
            play.step(e0 + (e1 - e0) * min(1.0, done / max(1, settings.steps)))
            done += env.batch_size
        for kind, (rows, returns) in play.harvest().items():
            replays[kind].add(rows, returns)
        for kind, opt in opts.items():
            if replays[kind].size < settings.minibatch:
                continue
            total = 0.0
            for _ in range(settings.updates):
                rows, returns = replays[kind].sample(settings.minibatch, rng)
                total += opt.step(featurise[kind](rows), returns)
            losses[kind] = total / settings.updates
        if report is not None:
            report(Progress(done, play.deals_done, losses["discard"], losses["play"],
                            time.perf_counter() - begin))
        if checkpoint is not None and checkpoint_every and done >= next_checkpoint:
            checkpoint(done, weights)
            next_checkpoint = done + checkpoint_every
    if checkpoint is not None and next_checkpoint - checkpoint_every != done:
        checkpoint(done, weights)
    return weights


__all__ = ["Adam", "BatchedGames", "Replay", "SelfPlay", "Settings", "evaluate",
           "initial_weights", "train"]
