"""Duplicate deals: a low-variance screen of two classic players (two players).

    python benchmarks/classic_deals.py --a expert --b expert-v1 --deals 1000
    python benchmarks/classic_deals.py --a "expert:discard=v1" --b expert-v1 --deals 1000
    python benchmarks/classic_deals.py --a expert --b expert-v1 --deals 400 --scores 95,100

Each deal is played twice from the same seed - the same cut, the same six cards to each
seat, the same starter - with the players' seats swapped, so the luck of the cards is
the same for both. Points mode (default, from 0-0): one deal each time; A's net points
of the deal (A's points less B's), averaged over the two seatings, is one sample; the
mean and its standard error are printed. ``--scores PONE,DEALER``: the deal starts with
the pone on PONE and the dealer on DEALER and is played on to the end of the game; a
sample is A's wins of the two games (0, 1/2 or 1), where the win-probability decisions
matter.

Player specs: ``expert``, ``expert-v1`` or ``expert:`` with comma-separated parts to
change (ablations):

- the discard: ``discard=v1`` (the expert-v1 discard), ``crib=uniform`` (the crib over
  a uniform draw of the other two cards), ``pegshare=X`` (the share of the pegging
  table counted; 0: none);
- the play: ``play=v1`` (the expert-v1 play), ``samples=N`` (holdings searched),
  ``pool=N`` (they are drawn by the reader from N times as many dealt; 1: weighed
  instead), ``read=off`` (the opponent's hand weighed by its points alone, ``dw=X``
  the weight), ``keep=off`` (the reader without what the discard says), ``greed=X``
  (how sharply the reader takes a player to lay the card that scores most at once; 0:
  the plays say nothing), ``temp=X`` (the reader's keep ratios worked out with this
  softmax temperature, in points), ``gofloor=off``;
- ``nearend=N`` (the score from which choices are made by the chance to win; 200: never);
- ``search=on``: the play by information-set play-outs (:mod:`.play_search`) instead of
  the minimax over holdings, ``policy=careful|greedy`` the play-outs' policy,
  ``ssamples=N`` the holdings they take.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import math
import time
from collections.abc import Iterator

from kingscrib.classic.discard import expected_crib
from kingscrib.classic.game import Action, ClassicGame, Discard, Play, PlayerView
from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import expert as ex
from kingscrib.players.classic import make_player, pegsearch, play_search, reader
from kingscrib.players.classic.base import perfect_claim
from kingscrib.players.classic.levels import LevelPlayer
from kingscrib.training.keep_ratios import compute_keep_ratios


@contextlib.contextmanager
def patched(obj: object, name: str, value: object) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


def _uniform_crib(thrown, unseen, owner_throws, prior=None):  # noqa: ANN001, ANN202
    return expected_crib(thrown, unseen)


@functools.cache
def _ratios_at(temperature: float):  # noqa: ANN202
    """The reader's keep ratios worked out with another softmax temperature."""
    return functools.cache(lambda dealer: compute_keep_ratios(dealer, temperature))


class Variant:
    """The expert with some of its parts changed (see the module's docstring)."""

    def __init__(self, spec: str, seed: int) -> None:
        self.name = spec
        self.parts = dict(p.split("=") for p in spec.split(":", 1)[1].split(",") if p)
        self.expert = ex.ExpertPlayer(seed, samples=int(self.parts.get("samples", ex.PLAY_SAMPLES)))
        self.v1 = LevelPlayer("expert", seed)

    def choose(self, view: PlayerView) -> Action:
        p = self.parts
        if view.phase == "show":
            return perfect_claim(view)
        with contextlib.ExitStack() as stack:
            if p.get("crib") == "uniform":
                stack.enter_context(patched(ex, "likely_crib", _uniform_crib))
            if p.get("gofloor") == "off":
                stack.enter_context(patched(ex, "go_floor", lambda view: 0))
            if "dw" in p:
                stack.enter_context(patched(ex, "card_values", functools.partial(
                    pegsearch.card_values, discard_weight=float(p["dw"]))))
            if "pool" in p:
                stack.enter_context(patched(ex, "HOLDING_POOL", int(p["pool"])))
            if "temp" in p:
                stack.enter_context(patched(reader, "keep_ratios", _ratios_at(float(p["temp"]))))
            if "nearend" in p:
                stack.enter_context(patched(ex, "NEAR_END", int(p["nearend"])))
            if p.get("search") == "on":
                stack.enter_context(patched(ex, "PLAY_SEARCH", 1))
            if "policy" in p:
                stack.enter_context(patched(play_search, "POLICY", p["policy"]))
            if "ssamples" in p:
                stack.enter_context(patched(ex, "SEARCH_SAMPLES", int(p["ssamples"])))
            if view.phase == "discard":
                if p.get("discard") == "v1":
                    return self.v1.choose(view)
                me, them = view.scores[view.side], view.scores[1 - view.side]
                share = float(p.get("pegshare", ex.PEG_SHARE))
                best = ex.rank_discards(view.hand, view.is_dealer, me, them, peg_share=share)[0]
                return Discard(best.discard)
            if p.get("play") == "v1":
                return self.v1.choose(view)
            plays = [a for a in view.legal if isinstance(a, Play)]
            if len(plays) == 1:
                return plays[0]
            return Play(ex.play_choices(view, self.expert.rng, self.expert.samples,
                                        read=p.get("read") != "off",
                                        greed=float(p.get("greed", ex.GREED)),
                                        keep=p.get("keep") != "off")[0].card)


def player(spec: str, seed: int):  # noqa: ANN201
    return Variant(spec, seed) if spec.startswith("expert:") else make_player(spec, seed)


def play_deal(specs: tuple[str, str], seed: int, scores: tuple[int, int] | None) -> list[int]:
    """One game on ``seed`` with ``specs[i]`` in seat i: the points each seat scored in the
    first deal (points mode), or who won (1/0 per seat) from ``scores`` (pone, dealer)."""
    game = ClassicGame(RuleSet(), seed=seed)
    players = [player(specs[0], seed), player(specs[1], seed + 7919)]
    if scores is not None:
        dealer = game.dealer
        game.scores = [scores[1] if s == dealer else scores[0] for s in range(2)]
    while game.phase != "over" and (scores is not None or len(game.deals) == 1):
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)))
    if scores is not None:
        return [int(game.winner == s) for s in range(2)]
    return list(game.scores)


def screen(a: str, b: str, deals: int, seed: int, scores: tuple[int, int] | None,
           minutes: float | None) -> None:
    start = time.perf_counter()
    samples: list[float] = []
    for i in range(deals):
        s = seed + i
        first = play_deal((a, b), s, scores)
        second = play_deal((b, a), s, scores)
        if scores is None:
            samples.append(((first[0] - first[1]) + (second[1] - second[0])) / 2)
        else:
            samples.append((first[0] + second[1]) / 2)
        done = i + 1 == deals or (minutes and time.perf_counter() - start > minutes * 60)
        if (i + 1) % 100 == 0 or done:
            n = len(samples)
            mean = sum(samples) / n
            var = sum((x - mean) ** 2 for x in samples) / max(1, n - 1)
            what = "net points a deal" if scores is None else "wins a game"
            print(f"{n} deals: {a} v {b}: {what} {mean:+.3f} (s.e. {math.sqrt(var / n):.3f}),"
                  f" {time.perf_counter() - start:.0f} s", flush=True)
        if done:
            break


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="expert-v1")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scores", default=None, help="PONE,DEALER: play on to the end from these")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    args = ap.parse_args()
    scores = tuple(int(x) for x in args.scores.split(",")) if args.scores else None
    screen(args.a, args.b, args.deals, args.seed, scores, args.minutes)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
