"""OpenSpiel's ISMCTS plays classic Cribbage against the built-in levels.

    python examples/openspiel_ismcts.py [--games 20] [--opponent easy] [--simulations 200]

The game is ``kingscrib_cribbage`` (:mod:`kingscrib.spiel`, two seats). The searcher is
OpenSpiel's own :class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot`: each
simulation deals the cards it has not seen anew (``resample_from_infostate``: every go
it saw is respected), then searches the tree of information sets, evaluating a leaf by a
rollout to the end of the deal (random moves, or ``--rollout easy``: that level's) and
the win-probability table
(:class:`kingscrib.spiel.evaluators.DealRolloutEvaluator`). The opponent is a
:mod:`kingscrib.players.classic` level seeing only its own seat. Seats alternate from
game to game; every game's chance nodes come from ``--seed``. The exploration constant
``--uct-c`` (0.1) is small because a deal moves the values little. A move with one legal
action (a go, the deal's forced last card) is made without a search.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import kingscrib.spiel  # noqa: F401  (registers the games)
from kingscrib.players.classic import make_player
from kingscrib.spiel.cribbage import engine_index
from kingscrib.spiel.evaluators import DealRolloutEvaluator

UCT_C = 0.1  # values are 2 P(win) - 1: one deal moves them by a few hundredths to tenths


def make_bot(game: pyspiel.Game, simulations: int, seed: int, uct_c: float = UCT_C,
             rollout: str = "random") -> ismcts.ISMCTSBot:
    rng = random.Random(seed)
    bot = ismcts.ISMCTSBot(
        game, DealRolloutEvaluator(rng=rng, policy=rollout), uct_c=uct_c,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        # Information sets keyed by the observation string: the current deal as the seat
        # saw it (with the scores), all a search from inside the deal needs, and much
        # shorter than the perfect-recall string of every deal so far.
        use_observation_string=True)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, None, rng))
    return bot


def play_game(game: pyspiel.Game, bot: ismcts.ISMCTSBot, bot_seat: int, opponent: str,
              seed: int) -> float:
    """One game; the bot's return (+1 won, -1 lost)."""
    rng = random.Random(seed)
    other = make_player(opponent, seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        legal = state.legal_actions()
        seat = state.current_player()
        if len(legal) == 1:
            action = legal[0]
        elif seat == bot_seat:
            action = bot.step(state)
        else:
            action = engine_index(other.choose(state.engine.view(seat)))
        state.apply_action(action)
    return state.returns()[bot_seat]


def play_match(games: int, opponent: str, simulations: int, seed: int = 1,
               uct_c: float = UCT_C, rollout: str = "random") -> dict:
    """``games`` games, seats alternating: the bot's wins, its win rate and a 95% interval."""
    game = pyspiel.load_game("kingscrib_cribbage")
    bot = make_bot(game, simulations, seed, uct_c, rollout)
    start = time.perf_counter()
    results = [play_game(game, bot, g % 2, opponent, seed * 100_003 + g) for g in range(games)]
    wins = sum(r > 0 for r in results)
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    return {"opponent": opponent, "games": games, "simulations": simulations,
            "uct_c": uct_c, "rollout": rollout, "wins": wins,
            "win_rate": rate, "interval": [max(0.0, rate - half), min(1.0, rate + half)],
            "seconds_per_game": (time.perf_counter() - start) / games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--opponent", default="easy")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--uct-c", type=float, default=UCT_C)
    parser.add_argument("--rollout", default="random",
                        help="the rollouts' moves: random, or a level's (easy, medium...)")
    args = parser.parse_args()
    print(json.dumps(play_match(args.games, args.opponent, args.simulations, args.seed,
                                args.uct_c, args.rollout)))


if __name__ == "__main__":
    main()
