"""Swiss tournaments among computer players: ``kingscrib tournament --swiss``.

Each pairing of a round is a mirrored pair of two-player games (one seed, the seats
swapped), since both games are luck-heavy; each game is a result of its own. The games
of a round run at once on the chosen backend (local processes or Ray); the same seed
gives the same tournament on either.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kingscrib.common.backends import run_jobs
from kingscrib.tournaments.pairing import Record, Round, swiss_round
from kingscrib.tournaments.standings import Result, Standing, standings

GAMES = ("kings", "cribbage")


@dataclass(frozen=True)
class PlayedRound:
    round: Round[str]
    results: tuple[Result, ...]


def default_rounds(entrants: int) -> int:
    """Enough rounds for a clear winner, never more than a round robin's."""
    return max(1, min(entrants - 1, math.ceil(math.log2(max(entrants, 2))) + 1))


def play_pairing(job: tuple[str, str, str, int]) -> list[Result]:
    """The two games of one pairing, ``a`` seated first in the first game."""
    game, a, b, seed = job
    if game == "kings":
        from kingscrib.arena import kings

        return [Result(a, b, r.points_for_a, round(r.spread))
                for r in map(kings.play_one, kings.pair_jobs(a, b, seed))]
    from kingscrib.arena import cribbage

    return [Result(a, b, 1.0 if g.won else 0.0, g.spread)
            for g in cribbage.play_pair((a, b, 2, seed))]


def check_entrants(game: str, entrants: Sequence[str]) -> None:
    """Raises ValueError naming what is wrong with a field of computer players."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; choose from {', '.join(GAMES)}")
    if len(entrants) < 2:
        raise ValueError("a tournament needs at least two players")
    if len(set(entrants)) != len(entrants):
        raise ValueError("each player may be entered once")
    known = _players(game)
    unknown = [e for e in entrants if e not in known]
    if unknown:
        raise ValueError(f"unknown player {unknown[0]!r}; choose from {', '.join(known)}")


def _players(game: str) -> tuple[str, ...]:
    """The computer players of ``game`` by name."""
    if game == "kings":
        from kingscrib.players.kings import PLAYERS

        return tuple(PLAYERS)
    from kingscrib.players.classic import PLAYER_NAMES

    return PLAYER_NAMES


def swiss(game: str, entrants: Sequence[str], rounds: int, seed: int = 1,
          progress: Any = None) -> tuple[list[PlayedRound], list[Standing]]:
    """Play ``rounds`` Swiss rounds among ``entrants`` (ranked in the order given)."""
    check_entrants(game, entrants)
    records: dict[str, Record[str]] = {e: Record(rank=i) for i, e in enumerate(entrants)}
    rng = random.Random(seed)
    played: list[PlayedRound] = []
    for number in range(1, rounds + 1):
        pairing = swiss_round(records)
        jobs = [(game, a, b, rng.randrange(2**31)) for a, b in pairing.pairs]
        games = run_jobs(play_pairing, jobs, progress=progress, description=f"round {number}")
        for (a, b), pair in zip(pairing.pairs, games):
            for r in pair:  # each game of the pair, ``a`` as its A
                records[a].score += r.points_a
                records[b].score += 1.0 - r.points_a
            records[a].met.add(b)
            records[b].met.add(a)
        results = [r for pair in games for r in pair]
        if pairing.bye is not None:
            # A bye is worth a won pairing: two games' points, as the others could earn.
            records[pairing.bye].score += 2.0
            records[pairing.bye].byes += 1
        played.append(PlayedRound(pairing, tuple(results)))
    byes = [p.round.bye for p in played if p.round.bye is not None]
    return played, standings([r for p in played for r in p.results], byes,
                             entrants=list(entrants), bye_points=2.0)
