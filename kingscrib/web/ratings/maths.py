"""Rating maths on one scale: Glicko-2 for two players, Plackett-Luce for more.

A rating is (rating, deviation, volatility) on Glicko's scale: a new player is
1500 +- 350, and 400 points apart means 10 to 1 odds.

- **Two sides of one player each**: Glicko-2 (Glickman, 2013), through the PyPI
  ``glicko2`` package, one game a rating period (as lichess does). The package's
  volatility step (its ``_f``) squares the player's rating where the paper squares the
  deviation; Glicko-2 depends only on rating differences otherwise, so every rating of
  the game is shifted to put the player's own internal rating equal to its deviation,
  which makes the package compute the paper's ``f``, and shifted back after.
- **Three or four sides, or partnerships**: Plackett-Luce from ``openskill`` (Weng and
  Lin), run directly on this scale: mu 1500, sigma 350, and beta = 173.7178 / sqrt(2),
  so that two players of certain ratings get Elo's odds (PL's two-player chance is
  1 / (1 + exp(-(r1 - r2) / c)), c^2 = 2 beta^2 + sigma1^2 + sigma2^2, and Elo's
  constant is 400 / ln 10 = 173.7178). Its sigma is the deviation; volatility stays.

Computers take part with their fixed published ratings (:mod:`.level_ratings`); what
the maths would give them is thrown away.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import glicko2

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

SCALE = 173.7178  # Glicko-2's internal unit, in rating points (400 / ln 10)
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
# A deviation never grows past a new player's nor shrinks below this: a rating that
# is never sure of itself keeps moving with the games.
MIN_DEVIATION = 45.0
PROVISIONAL = 110.0  # a deviation above this marks a rating provisional
PERIOD = 86_400.0  # seconds: a rating period without games (a day) widens the deviation


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL


def glicko2_period(player: Rating, games: list[tuple[Rating, float]]) -> Rating:
    """Glicko-2: ``player`` after one rating period of ``games`` (opponent, score: 1 a
    win, 0.5 a draw, 0 a loss). Not clamped: the paper's figures exactly."""
    shift = (START_RATING + player.deviation) - player.rating  # see the module's note
    p = glicko2.Player(player.rating + shift, player.deviation, player.volatility)
    p.update_player([o.rating + shift for o, _ in games], [o.deviation for o, _ in games],
                    [score for _, score in games])
    return Rating(p.rating - shift, p.rd, p.vol)


def aged(r: Rating, idle_seconds: float) -> Rating:
    """``r`` after ``idle_seconds`` without a game: Glicko-2's step for a rating period
    without games, phi' = sqrt(phi^2 + sigma^2), once per whole day, so an absent
    player's rating grows uncertain again (about 100 days from 45 to provisional),
    up to a new player's."""
    periods = max(0, int(idle_seconds // PERIOD))
    if not periods:
        return r
    widened = math.sqrt(r.deviation ** 2 + periods * (r.volatility * SCALE) ** 2)
    return Rating(r.rating, min(START_DEVIATION, widened), r.volatility)


def _clamped(r: Rating) -> Rating:
    return Rating(r.rating, min(START_DEVIATION, max(MIN_DEVIATION, r.deviation)),
                  r.volatility)


def _plackett_luce() -> PlackettLuce:  # imported when first needed (openskill takes a while to load)
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=START_RATING, sigma=START_DEVIATION, beta=SCALE / math.sqrt(2),
                        tau=0.0)


def rate(teams: list[list[Rating]], places: list[int]) -> list[list[Rating]]:
    """Every player's new rating after one game. ``teams``: each side's players (one
    each, or partners); ``places``: each side's finishing place, 0 first, equal places
    a tie. Two sides of one player: Glicko-2; otherwise Plackett-Luce."""
    if len(teams) != len(places) or len(teams) < 2 or any(not t for t in teams):
        raise ValueError("a rated game has two or more sides, each with a player")
    if len(teams) == 2 and all(len(t) == 1 for t in teams):
        (a,), (b,) = teams
        score = 0.5 if places[0] == places[1] else 1.0 if places[0] < places[1] else 0.0
        return [[_clamped(glicko2_period(a, [(b, score)]))],
                [_clamped(glicko2_period(b, [(a, 1.0 - score)]))]]
    model = _plackett_luce()
    rated = model.rate([[model.rating(mu=p.rating, sigma=p.deviation) for p in team]
                        for team in teams], ranks=list(places))
    return [[_clamped(Rating(new.mu, new.sigma, old.volatility))
             for new, old in zip(new_team, team)] for new_team, team in zip(rated, teams)]
