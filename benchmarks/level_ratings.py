"""The computer levels' fixed ratings, calibrated from their results against each other.

Run: python benchmarks/level_ratings.py [--scale 1.0] [--seed 1] [--game kings|classic] [--write]

Plays mirrored pairs of the quick levels against each other (Kings Cribbage:
kingscrib.arena.kings; Cribbage: kingscrib.arena.cribbage, the pairs of ``kingscrib
classic tournament``), adds the published results of the slow levels (docs/benchmarks.md,
listed in PUBLISHED below), and fits one rating per level by maximum likelihood under
Elo's model, the one Glicko-2 and the site's Plackett-Luce use (a chance of
1 / (1 + 10^(-d/400)) for a level d points above another). Each pair measured also counts
one drawn game, so that a level that won every game gets a finite rating. The ratings are
anchored at Casual (``medium``) = 1500, a new player's rating; a level's deviation is the
fit's standard error (at least 40). ``--write`` stores them in
kingscrib/web/ratings/level_ratings.json, which the server reads. ``--scale`` multiplies the
number of pairs played; ``--game`` calibrates one game only (the other's table is kept
as written).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "kingscrib" / "web" / "ratings" / "level_ratings.json"
ANCHOR, ANCHOR_RATING, MIN_DEVIATION = "medium", 1500.0, 40.0

# Levels that are other names of one player (kingscrib.players.kings.levels.level).
SAME = {"kings": {"greedy": "medium", "equity": "hard"}, "classic": {}}

# Quick pairs played here: (a, b, mirrored pairs at --scale 1).
PLAYED = {
    "kings": [("random", "easy", 100), ("easy", "medium", 300), ("random", "medium", 50),
              ("easy", "hard", 60), ("medium", "hard", 60)],
    "classic": [("random", "baseline", 300), ("baseline", "easy", 300),
                ("easy", "medium", 500), ("medium", "hard", 500), ("hard", "expert-v1", 300),
                ("random", "easy", 150), ("baseline", "medium", 200), ("easy", "hard", 200)],
}

# Slow levels: measured results published in docs/benchmarks.md (a, b, a's points, games).
PUBLISHED = {
    "kings": [("hard", "medium", 0.644 * 4000, 4000),  # equity v greedy, 2,000 pairs
              ("sim", "hard", 0.598 * 1000, 1000),  # sim v equity, 500 pairs
              ("expert", "expert-v1", 0.593 * 1000, 1000),  # both 0.1 s a move
              ("expert", "hard", 0.607 * 300, 300),
              ("expert", "medium", 0.763 * 300, 300)],
    "classic": [("expert", "baseline", 1963, 2000),
                ("expert-v1", "hard", 532, 1000),
                ("expert", "expert-v1", 2220, 4000)],
}


def play_kings(a: str, b: str, pairs: int, seed: int) -> tuple[float, int]:
    from kingscrib.arena.kings import jobs_for, play_one

    points = [play_one(job).points_for_a for job in jobs_for(a, b, pairs, seed)]
    return sum(points), len(points)


def play_classic(a: str, b: str, pairs: int, seed: int) -> tuple[float, int]:
    from kingscrib.arena.cribbage import play_pair

    games = [g for i in range(pairs) for g in play_pair((a, b, 2, seed + i))]
    return float(sum(g.won for g in games)), len(games)


def fit(levels: list[str], results: list[tuple[str, str, float, int]]
        ) -> dict[str, tuple[float, float]]:
    """Elo ratings (and standard errors) by maximum likelihood, Newton's method on the
    log-likelihood; ``results``: (a, b, a's points, games), a draw half a point."""
    index = {name: i for i, name in enumerate(levels)}
    k = math.log(10) / 400
    # One drawn game more for each pair measured: finite ratings for clean sweeps.
    data = [(index[a], index[b], p + 0.5, n + 1) for a, b, p, n in results]
    r = [0.0] * len(levels)
    anchor = index[ANCHOR]
    free = [i for i in range(len(levels)) if i != anchor]
    for _ in range(100):
        grad = [0.0] * len(levels)
        hess = [[0.0] * len(levels) for _ in levels]
        for i, j, p, n in data:
            e = 1 / (1 + math.exp(-k * (r[i] - r[j])))
            grad[i] += k * (p - n * e)
            grad[j] -= k * (p - n * e)
            w = k * k * n * e * (1 - e)
            hess[i][i] -= w
            hess[j][j] -= w
            hess[i][j] += w
            hess[j][i] += w
        h = [[-hess[i][j] for j in free] for i in free]
        step = _solve(h, [grad[i] for i in free])
        for i, s in zip(free, step):
            r[i] += s
        if max(abs(s) for s in step) < 1e-6:
            break
    covariance = _inverse([[-hess[i][j] for j in free] for i in free])
    errors = {i: math.sqrt(covariance[n][n]) for n, i in enumerate(free)}
    return {name: (ANCHOR_RATING + r[i], errors.get(i, 0.0)) for name, i in index.items()}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    inverse = _inverse(a)
    return [sum(row[j] * b[j] for j in range(len(b))) for row in inverse]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan (a small positive definite matrix)."""
    n = len(a)
    m = [list(row) + [float(i == j) for j in range(n)] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda i: abs(m[i][c]))
        m[c], m[pivot] = m[pivot], m[c]
        lead = m[c][c]
        m[c] = [x / lead for x in m[c]]
        for i in range(n):
            if i != c and m[i][c]:
                factor = m[i][c]
                m[i] = [x - factor * y for x, y in zip(m[i], m[c])]
    return [row[n:] for row in m]


def calibrate(game: str, scale: float, seed: int) -> dict[str, dict[str, float]]:
    play = play_kings if game == "kings" else play_classic
    results = []
    for a, b, pairs in PLAYED[game]:
        began = time.perf_counter()
        points, games = play(a, b, max(1, round(pairs * scale)), seed)
        print(f"  {game}: {a} v {b}: {points:g} of {games} ({100 * points / games:.1f}%),"
              f" {time.perf_counter() - began:.0f} s", flush=True)
        results.append((a, b, points, games))
    results += PUBLISHED[game]
    levels = sorted({x for a, b, _, _ in results for x in (a, b)})
    fitted = fit(levels, results)
    table = {name: {"rating": round(r), "deviation": round(max(MIN_DEVIATION, e))}
             for name, (r, e) in sorted(fitted.items(), key=lambda kv: kv[1][0])}
    for alias, name in SAME[game].items():
        table[alias] = dict(table[name])
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=("kings", "classic"), default=None,
                        help="calibrate this game only; the other's table stays as written")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    kept = json.loads(OUT.read_text()) if OUT.exists() else {}
    kept.setdefault("classic", kept.pop("cribbage", {}))  # the file names it cribbage
    tables = {game: calibrate(game, args.scale, args.seed) if args.game in (None, game)
              else kept[game] for game in ("kings", "classic")}
    for game, table in tables.items():
        print(f"\n{game}")
        print("| level | rating | deviation |")
        print("| --- | --- | --- |")
        for name, entry in sorted(table.items(), key=lambda kv: kv[1]["rating"]):
            print(f"| {name} | {entry['rating']} | {entry['deviation']} |")
    if args.write:
        # the server's game id for Cribbage (kingscrib.core.ids) names its table
        OUT.write_text(json.dumps({"cribbage" if game == "classic" else game: table
                                   for game, table in tables.items()}, indent=1) + "\n")
        print(f"\nwritten to {OUT}")


if __name__ == "__main__":
    main()
