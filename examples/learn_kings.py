"""An agent that learns Kings Cribbage against ``greedy`` in a few CPU minutes.

    python examples/learn_kings.py [--games 1000] [--eval 200] [--seed 1]

The agent is a linear softmax policy over a few features of each legal action, taken
only from its observation and the documented action encoding (docs/rl.md):

- a play's place in the canonical order (plays come highest score first): first or
  not, and its relative and logarithmic position among the legal plays;
- an exchange: how many tiles, and their mean rank;
- pass.

It learns by REINFORCE (policy gradient with a running-mean baseline) in
:class:`~kingscrib.env.single.KingsSingleEnv` against ``greedy``, with per-turn point
shaping (0.01 a point of score difference) on top of the +1/-1 result. Before training
(all weights 0) it picks uniformly among its legal actions; the script reports its win
rate against ``random`` and ``greedy`` before and after, over the same seeds.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kingscrib.env.kings_actions import FIRST_EXCHANGE, FIRST_PLAY, PASS
from kingscrib.env.single import KingsSingleEnv

FEATURES = 7
LOG_CAP = np.log(2048.0)


def features(obs: dict, legal: np.ndarray) -> np.ndarray:
    """One row of features per legal action index."""
    out = np.zeros((len(legal), FEATURES))
    plays = legal >= FIRST_PLAY
    k = legal[plays] - FIRST_PLAY
    n = max(1, int(plays.sum()) - 1)
    out[plays, 0] = 1.0
    out[plays, 1] = k == 0
    out[plays, 2] = k / n
    out[plays, 3] = np.log1p(k) / LOG_CAP
    ranks = obs["observation"]["rack"][:, 0].astype(float)
    for row in np.flatnonzero((legal >= FIRST_EXCHANGE) & ~plays):
        bits = legal[row] - FIRST_EXCHANGE + 1
        chosen = [ranks[i] for i in range(len(ranks)) if bits >> i & 1]
        out[row, 4] = len(chosen) / 5
        out[row, 5] = np.mean(chosen) / 13
    out[legal == PASS, 6] = 1.0
    return out


class LinearPolicy:
    def __init__(self, rng: np.random.Generator) -> None:
        self.w = np.zeros(FEATURES)
        self.rng = rng

    def act(self, obs: dict) -> tuple[int, np.ndarray]:
        """A sampled action and the gradient of its log-probability."""
        legal = np.flatnonzero(obs["action_mask"])
        phi = features(obs, legal)
        logits = phi @ self.w
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i = self.rng.choice(len(legal), p=p)
        return int(legal[i]), phi[i] - p @ phi


def play(env: KingsSingleEnv, policy: LinearPolicy, seed: int) -> tuple[float, list]:
    obs, info = env.reset(seed=seed)
    total, grads, done = 0.0, [], False  # the first step pays info["reward_before"]
    while not done:
        action, grad = policy.act(obs)
        grads.append(grad)
        obs, reward, done, _, _ = env.step(action)
        total += reward
    return total, grads


def win_rate(policy: LinearPolicy, opponent: str, games: int, seed: int) -> float:
    """Wins (ties count half) over ``games`` games, seats alternating, shaping off."""
    points = 0.0
    for g in range(games):
        env = KingsSingleEnv(opponent=opponent, seat=g % 2)
        env.reset(seed=seed + g)
        _, _ = play(env, policy, seed + g)
        final = env.aec.game.final_scores
        mine, theirs = final[env.seat], final[1 - env.seat]
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return points / games


def train(policy: LinearPolicy, games: int, seed: int, lr: float = 0.3) -> None:
    baseline = 0.0
    envs = [KingsSingleEnv(opponent="greedy", seat=s, shaping=0.01) for s in (0, 1)]
    for g in range(games):
        ret, grads = play(envs[g % 2], policy, seed + g)
        baseline += 0.05 * (ret - baseline)
        policy.w += lr * (ret - baseline) * np.sum(grads, axis=0)


def main() -> None:
    parser = argparse.ArgumentParser(description="Learn Kings Cribbage against greedy.")
    parser.add_argument("--games", type=int, default=1000, help="training games")
    parser.add_argument("--eval", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    policy = LinearPolicy(np.random.default_rng(args.seed))
    eval_seed = 10_000_000 + args.seed
    before = {o: win_rate(policy, o, args.eval, eval_seed) for o in ("random", "greedy")}
    start = time.process_time()
    train(policy, args.games, 1000 * args.seed)
    spent = time.process_time() - start
    after = {o: win_rate(policy, o, args.eval, eval_seed) for o in ("random", "greedy")}
    print(f"trained on {args.games} games against greedy in {spent:.0f} s CPU; "
          f"weights {np.round(policy.w, 2).tolist()}")
    for o in ("random", "greedy"):
        print(f"win rate against {o:<7} before {before[o]:6.1%}   after {after[o]:6.1%}"
              f"   ({args.eval} games, seats alternating)")


if __name__ == "__main__":
    main()
