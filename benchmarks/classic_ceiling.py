"""How much stronger than ``expert-v1`` can any classic player be? A ceiling, measured.

    python benchmarks/classic_ceiling.py --pairs 300                 # the seeing player's games
    python benchmarks/classic_ceiling.py --pairs 300 --play-only     # it sees in the play only
    python benchmarks/classic_ceiling.py --deals 1000                # net points a deal

The *seeing* player is given what no fair player has: the other player's cards. In the
play it lays the card that is best with both hands known (the play searched to its end,
:func:`kingscrib.players.classic.pegsearch.move_values`, points pegged mine less theirs).
At the discard it knows the other six cards and which two ``expert-v1`` (its opponent
here) will lay away, and keeps the four whose deal is worth most on average over the
starters still possible: its hand less theirs, the crib for or against it, his heels,
and the play searched with both hands known. It does not see the starter. It counts its
own hands perfectly, as every level does.

Two players, mirrored pairs as in ``kingscrib classic tournament`` (the same deals with
the seats swapped, one core), reporting the seeing player's share of the games with a
Wilson interval; ``--deals`` plays single deals twice with the seats swapped (as
``classic_deals.py``) and reports net points a deal. A fair player sees less, so what the
seeing player wins is, in practice, above what a fair player can win against
``expert-v1`` by these means (a best reply to ``expert-v1``'s own habits aside).
"""

from __future__ import annotations

import argparse
import math
import time
from itertools import combinations

from classic_expert import run_pairs  # the running result of mirrored pairs (this folder)

from kingscrib.classic.cards import Card, deck
from kingscrib.classic.game import Action, ClassicGame, Discard, Play
from kingscrib.classic.rules import RuleSet
from kingscrib.classic.show import score_show
from kingscrib.counting import JACK
from kingscrib.players.classic.base import perfect_claim
from kingscrib.players.classic.levels import LevelPlayer
from kingscrib.players.classic.pegsearch import move_values, solve


class SeeingPlayer:
    """Plays with the other seat's cards in view (two players; see the module's docstring)."""

    name = "seeing"

    def __init__(self, game: ClassicGame, seed: int, play_only: bool = False) -> None:
        self.game = game
        self.v1 = LevelPlayer("expert", seed)
        self.play_only = play_only

    def choose(self, view) -> Action:  # noqa: ANN001
        if view.phase == "show":
            return perfect_claim(view)
        if view.phase == "discard":
            return self.v1.choose(view) if self.play_only else self.discard(view)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) <= 1:
            return plays[0] if plays else view.legal[0]
        mine = tuple(c.rank for c in view.hand)
        theirs = tuple(c.rank for c in self.game.hand(1 - view.seat))
        values = move_values((mine, theirs), tuple(c.rank for c in view.pile))
        return max(plays, key=lambda a: (values[a.card.rank], -a.card.rank))

    def discard(self, view) -> Discard:  # noqa: ANN001
        other = 1 - view.seat
        laid = self.game.deals[-1]["discards"][other]
        if laid:  # they have laid away already
            their_throw = tuple(Card.parse(c) for c in laid)
            their_keep = list(self.game.hand(other))
        else:  # what expert-v1 (deterministic) will lay away
            their_throw = self.v1.choose(self.game.view(other)).cards
            their_keep = [c for c in self.game.hand(other) if c not in their_throw]
        their_six = their_keep + list(their_throw)
        starters = [c for c in deck() if c not in view.hand and c not in their_six]
        i_deal = view.is_dealer
        best, best_value = None, -math.inf
        for throw in combinations(view.hand, 2):
            keep = [c for c in view.hand if c not in throw]
            crib = list(throw) + list(their_throw)
            total = 0.0
            for s in starters:
                net = score_show(keep, s).total - score_show(their_keep, s).total
                crib_points = score_show(crib, s, crib=True).total
                heels = 2 if s.rank == JACK else 0
                net += (crib_points + heels) if i_deal else -(crib_points + heels)
                total += net
            pegging = solve((tuple(c.rank for c in keep), tuple(c.rank for c in their_keep)),
                            (), 1 if i_deal else 0)  # the pone leads
            value = total / len(starters) + pegging
            if value > best_value:
                best, best_value = throw, value
        return Discard(tuple(best))


def play(seed: int, seeing_seat: int, play_only: bool, one_deal: bool) -> ClassicGame:
    game = ClassicGame(RuleSet(), seed=seed)
    players = {seeing_seat: SeeingPlayer(game, seed, play_only),
               1 - seeing_seat: LevelPlayer("expert", seed + 7919)}
    while game.phase != "over" and not (one_deal and len(game.deals) > 1):
        seat = game.to_act
        game.apply(players[seat].choose(game.view(seat)))
    return game


def games(pairs: int, seed: int, play_only: bool, minutes: float | None) -> None:
    def pair(i: int) -> list[tuple[bool, int]]:
        out = []
        for seat in (0, 1):
            game = play(seed + i, seat, play_only, False)
            out.append((game.winner == seat, game.scores[seat] - game.scores[1 - seat]))
        return out

    run_pairs("seeing v expert-v1", pairs, minutes, pair)


def deals(count: int, seed: int, play_only: bool) -> None:
    start = time.perf_counter()
    samples = []
    for i in range(count):
        net = 0
        for seat in (0, 1):
            g = play(seed + i, seat, play_only, True)
            net += g.scores[seat] - g.scores[1 - seat]
        samples.append(net / 2)
        if (i + 1) % 100 == 0 or i + 1 == count:
            m = sum(samples) / len(samples)
            var = sum((x - m) ** 2 for x in samples) / max(1, len(samples) - 1)
            print(f"{i + 1} deals: seeing v expert-v1: net points a deal {m:+.3f}"
                  f" (s.e. {math.sqrt(var / len(samples)):.3f}),"
                  f" {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=300)
    ap.add_argument("--deals", type=int, default=0, help="single deals instead of games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--play-only", action="store_true", help="v1's discard, seeing play")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long")
    args = ap.parse_args()
    if args.deals:
        deals(args.deals, args.seed, args.play_only)
    else:
        games(args.pairs, args.seed, args.play_only, args.minutes)


if __name__ == "__main__":
    main()
