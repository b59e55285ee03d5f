"""Standings of a tournament from its results, with documented tie-breaks.

A win is worth 1 point, a draw 1/2, a loss 0, a bye 1 (as a won game against nobody:
it adds no tie-break; 2 where each pairing is a mirrored pair of games). Entrants with
equal points are ordered by, in turn:

1. Buchholz: the sum of their opponents' points (a harder field ranks higher);
2. Sonneborn-Berger: the points of the opponents they beat, plus half of those they drew;
3. spread: the sum of their game-point margins (both games count the score);
4. their rank when the tournament started (e.g. by rating).

Team standings add the points of each team's best ``best`` members.

>>> rows = standings([Result("a", "b", 1.0, 12), Result("c", "a", 0.5, 0)], byes=["b"])
>>> [(r.entrant, r.points, r.buchholz) for r in rows]
[('a', 1.5, 1.5), ('b', 1.0, 1.5), ('c', 0.5, 1.5)]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Entrant = Hashable


@dataclass(frozen=True)
class Result:
    """One finished game: ``points_a`` is 1, 1/2 or 0 for ``a``; ``margin`` is a's game
    score less b's."""

    a: Entrant
    b: Entrant
    points_a: float
    margin: int = 0


@dataclass
class Standing:
    entrant: Entrant
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    spread: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    opponents: list[Entrant] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def standings(results: Iterable[Result], byes: Iterable[Entrant] = (),
              entrants: Sequence[Entrant] = (), bye_points: float = 1.0) -> list[Standing]:
    """Standings, first place first. ``entrants`` in starting rank order (those without
    a game are listed too); anyone else ranks after them, in order of appearance. A bye
    is worth ``bye_points`` (2 where each pairing is a mirrored pair of games)."""
    rows: dict[Entrant, Standing] = {e: Standing(e) for e in entrants}
    beaten: dict[Entrant, list[tuple[Entrant, float]]] = {}

    def row(e: Entrant) -> Standing:
        return rows.setdefault(e, Standing(e))

    for r in results:
        for me, them, pts, margin in ((r.a, r.b, r.points_a, r.margin),
                                      (r.b, r.a, 1.0 - r.points_a, -r.margin)):
            s = row(me)
            s.points += pts
            s.spread += margin
            s.opponents.append(them)
            s.wins += pts == 1.0
            s.draws += pts == 0.5
            s.losses += pts == 0.0
            beaten.setdefault(me, []).append((them, pts))
    for e in byes:
        s = row(e)
        s.points += bye_points
        s.byes += 1
    for s in rows.values():
        s.buchholz = sum(rows[o].points for o in s.opponents)
        s.sonneborn_berger = sum(rows[o].points * pts for o, pts in beaten.get(s.entrant, ()))
    start = {e: i for i, e in enumerate(rows)}
    return sorted(rows.values(), key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger,
                                                -s.spread, start[s.entrant]))


@dataclass(frozen=True)
class TeamStanding:
    team: str
    points: float
    counted: tuple[Entrant, ...]  # the members whose points count, best first


def team_standings(rows: Sequence[Standing], teams: Mapping[str, Iterable[Entrant]],
                   best: int) -> list[TeamStanding]:
    """Each team's points: the sum of its ``best`` highest-placed members' points."""
    place = {s.entrant: i for i, s in enumerate(rows)}
    by_entrant = {s.entrant: s for s in rows}
    table = []
    for team, members in teams.items():
        playing = sorted((m for m in members if m in by_entrant), key=place.__getitem__)
        counted = tuple(sorted(playing, key=lambda m: (-by_entrant[m].points, place[m]))[:best])
        table.append(TeamStanding(team, sum(by_entrant[m].points for m in counted), counted))
    return sorted(table, key=lambda t: (-t.points, t.team))
