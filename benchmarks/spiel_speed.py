"""States per second of random simulations of the OpenSpiel games, one process (one core).

    python benchmarks/spiel_speed.py            # 3 runs of each
    python benchmarks/spiel_speed.py --quick    # 1 short run

Each run plays whole games from ``new_initial_state``: a chance node takes an outcome
drawn with its probability, a player node a uniformly random legal action; every state
applied counts (chance nodes included, and for ``kings_cribbage`` each tile placement).
Throughput is states / CPU time of this process (the fairer figure on a shared machine).
Also measured: a ``clone()`` of a mid-game state, and (Cribbage) one
``resample_from_infostate``, which ISMCTS calls once a simulation; the medians of the runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import kingscrib.spiel  # noqa: F401  (registers the games)

GAMES = [("kingscrib_cribbage", {"players": 2}, 4), ("kingscrib_cribbage", {"players": 4}, 4),
         ("kings_cribbage", {"players": 2}, 1), ("kings_cribbage", {"players": 4}, 1)]


def run(name: str, params: dict, games: int, seed: int) -> dict[str, float]:
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    states, cpu = 0, time.process_time()
    clones, resamples = [], []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            states += 1
            if states % 97 == 0 and not state.is_terminal():
                t = time.process_time()
                state.clone()
                clones.append(time.process_time() - t)
                if name == "kingscrib_cribbage" and not state.is_chance_node():
                    t = time.process_time()
                    state.resample_from_infostate(state.current_player(), None, rng)
                    resamples.append(time.process_time() - t)
    seconds = time.process_time() - cpu - sum(clones) - sum(resamples)
    return {"states_per_s": states / seconds, "states_per_game": states / games,
            "clone_ms": 1000 * statistics.median(clones),
            "resample_ms": 1000 * statistics.median(resamples) if resamples else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    print(f"{'game':<36} {'states/s':>9} {'states/game':>11} {'clone ms':>9} {'resample ms':>11}")
    for name, params, games in GAMES:
        rows = [run(name, params, games, seed) for seed in range(1, runs + 1)]
        med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
        label = f"{name} {params}"
        print(f"{label:<36} {med['states_per_s']:>9,.0f} {med['states_per_game']:>11,.0f}"
              f" {med['clone_ms']:>9.2f} {med['resample_ms']:>11.2f}")


if __name__ == "__main__":
    main()
