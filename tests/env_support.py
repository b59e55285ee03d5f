"""Helpers for the environment tests: random masked play through the AEC loop."""

from __future__ import annotations

import copy
import random
import warnings
from collections.abc import Callable

import numpy as np
from pettingzoo.test import api_test

from kingscrib.classic.cards import Card, deck


def play_random(env, seed: int, rng: np.random.Generator,
                on_step: Callable[[str, dict], None] | None = None) -> dict[str, float]:
    """Play one game with uniformly random legal actions; the total reward of each agent."""
    env.reset(seed=seed)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if on_step is not None:
            on_step(agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def quiet_api_test(env, cycles: int = 300) -> None:
    """PettingZoo's api_test, without its advice that observations be one array (ours
    are documented dicts of arrays)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env, num_cycles=cycles)


def _visible(view) -> set[Card]:
    cards = set(view.hand) | set(view.discards) | set(view.pile)
    cards |= {c for _, c in view.played}
    if view.starter:
        cards.add(view.starter)
    if view.show_item:
        cards |= set(view.show_item.cards)
    return cards


def _substitute(value, mapping):
    if isinstance(value, Card):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_substitute(v, mapping) for v in value]
    if isinstance(value, tuple):
        return tuple(_substitute(v, mapping) for v in value)
    return value


def fork_game(game):
    """A copy of a classic game to change or to try actions on: its current deal and
    everything an action changes are copied, its past records shared (far cheaper than
    a deep copy of a long game)."""
    new = copy.copy(game)
    new._deal = copy.deepcopy(game._deal)
    new.scores, new.events, new.deals = list(game.scores), [], list(game.deals)
    new._rng = copy.deepcopy(game._rng)
    return new


def redeal_hidden(game, seat: int, rng: random.Random):
    """A copy of the game in which every card the seat cannot see is swapped for another
    such card, wherever it lies (other hands, the crib, the stock)."""
    game = fork_game(game)
    hidden = sorted(set(deck()) - _visible(game.view(seat)))
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled))
    d = game._deal
    for field in ("dealt", "crib_card", "stock", "discards", "held", "kept", "crib"):
        setattr(d, field, _substitute(getattr(d, field), mapping))
    return game
