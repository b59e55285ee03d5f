"""What the OpenSpiel games (``kingscrib_cribbage`` and ``kings_cribbage``) share: their
game type, and the observers' handling of OpenSpiel's observation types and of a tensor
made of named pieces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel


def game_type(name: str, long_name: str, max_players: int,
              defaults: dict[str, Any]) -> pyspiel.GameType:
    """A sequential, zero-sum game of imperfect information with explicit chance nodes,
    returns only at the end and every observation OpenSpiel knows, for 2 to
    ``max_players`` seats and the parameters ``defaults`` names."""
    return pyspiel.GameType(
        short_name=name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(defaults),
    )


def observer_kind(iig_obs_type: Any, params: dict[str, Any] | None,
                  hidden: str) -> tuple[bool, bool]:
    """``(perfect_recall, private)`` of an observer asked for: whether it remembers the
    game so far, and whether it sees the observing seat's ``hidden`` things (its cards,
    its tiles). Neither parameters nor an observer of every seat's are supported."""
    if params:
        raise ValueError(f"observation parameters are not supported: {params}")
    private = iig_obs_type.private_info
    if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        raise ValueError(f"an observer of every seat's private {hidden} is not supported")
    return (bool(iig_obs_type.perfect_recall),
            private == pyspiel.PrivateInfoType.SINGLE_PLAYER)


def piece_tensor(pieces: Sequence[tuple[str, tuple[int, ...]]],
                 ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """One flat float32 tensor for the named ``(name, shape)`` pieces, in order, and each
    piece as a view into it (writing a piece writes the tensor)."""
    tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
    views: dict[str, np.ndarray] = {}
    at = 0
    for name, shape in pieces:
        size = int(np.prod(shape))
        views[name] = tensor[at:at + size].reshape(shape)
        at += size
    return tensor, views
