"""Who plays whom: round robin, Swiss and arena pairings for two-sided games.

Swiss rounds follow the criteria of the FIDE Dutch system, in this order of priority,
and are solved exactly as one maximum-weight matching (networkx's blossom algorithm)
rather than by the Dutch system's transposition search:

1. every entrant plays (a bye only for an odd number);
2. the bye goes to an entrant who has not had one;
3. no two entrants meet twice while a pairing without repeats exists;
4. the bye goes to the lowest placed entrant it can;
5. scores as equal as possible (the sum of squared score differences is least);
6. within a score group, the top half meets the bottom half (1 v 5, 2 v 6 ... of 8),
   so the leaders do not meet first.

Each criterion outweighs everything below it, so a lower one never buys a breach of a
higher one. An arena pairs entrants again as soon as two are free, the closest in
score first, never the same two twice running while another is free.

>>> [sorted(r.pairs) for r in round_robin(["a", "b", "c"])]
[[('b', 'c')], [('a', 'c')], [('a', 'b')]]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Entrant = Hashable
E = TypeVar("E", bound=Hashable)  # whoever is paired: a name, a player id


@dataclass(frozen=True)
class Round(Generic[E]):
    pairs: tuple[tuple[E, E], ...]
    bye: E | None = None


@dataclass
class Record(Generic[E]):
    """What pairing needs to know of an entrant: its score so far, whom it has met,
    how many byes it had. ``rank`` orders equal scores (0 = first: e.g. by rating)."""

    score: float = 0.0
    met: set[E] = field(default_factory=set)
    byes: int = 0
    rank: int = 0


_BYE = object()  # the matching's stand-in for "no opponent"


def round_robin(entrants: Sequence[E]) -> list[Round[E]]:
    """Every entrant meets every other once (the circle method); with an odd number,
    each sits out one round."""
    people: list[E | None] = list(entrants)
    if len(people) % 2:
        people.append(None)
    n = len(people)
    rounds: list[Round[E]] = []
    for _ in range(n - 1):
        pairs: list[tuple[E, E]] = []
        bye: E | None = None
        for i in range(n // 2):
            a, b = people[i], people[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
            else:
                pairs.append((a, b))
        rounds.append(Round(tuple(pairs), bye))
        people = [people[0], people[-1], *people[1:-1]]  # rotate all but the first
    return rounds


def swiss_round(records: dict[E, Record[E]]) -> Round[E]:
    """The next Swiss round for ``records`` (see the module's criteria)."""
    import networkx as nx  # (only here: every server process imports this module)

    order = sorted(records, key=lambda e: (-records[e].score, records[e].rank))
    place = {e: i for i, e in enumerate(order)}
    group_place = _places_in_score_groups(order, records)
    n = len(order)
    spread = max((r.score for r in records.values()), default=0) - min(
        (r.score for r in records.values()), default=0)
    # The weights of the criteria, each above the most that all lower ones can add up to.
    half = (n // 2 + 1) * (n + 1)  # criterion 5: at most n/2 pairs, each at most n+1
    score_unit = half + 1
    scores_cap = score_unit * (n // 2 + 1) * (int(spread * 2) + 1) ** 2
    bye_unit = scores_cap + half + 1  # the bye as low as possible
    repeat = bye_unit * (n + 1)
    bye_twice = repeat * (n // 2 + 2)

    graph = nx.Graph()
    graph.add_nodes_from(order)
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            cost = 0
            if b in records[a].met:
                cost += repeat
            diff = int(round(abs(records[a].score - records[b].score) * 2))
            cost += score_unit * diff * diff
            cost += _dutch_cost(a, b, records, group_place)
            graph.add_edge(a, b, weight=-cost)
    if n % 2:
        for e in order:
            # The lowest placed without a bye: a bye costs more the higher one is placed.
            cost = bye_twice * records[e].byes + bye_unit * (n - 1 - place[e])
            graph.add_edge(e, _BYE, weight=-cost)
    # Shift weights positive: a maximum-cardinality matching of most weight.
    low = min((w for _, _, w in graph.edges(data="weight")), default=0)
    for _, _, data in graph.edges(data=True):
        data["weight"] = data["weight"] - low + 1
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[E, E]] = []
    bye: E | None = None
    for a, b in matching:
        if a is _BYE or b is _BYE:
            bye = b if a is _BYE else a
            continue
        pairs.append((a, b) if place[a] < place[b] else (b, a))
    pairs.sort(key=lambda p: place[p[0]])
    return Round(tuple(pairs), bye)


def _places_in_score_groups(order: list[E], records: dict[E, Record[E]]
                            ) -> dict[E, tuple[int, int]]:
    """Each entrant's place within its score group, and the group's size."""
    groups: dict[float, list[E]] = {}
    for e in order:
        groups.setdefault(records[e].score, []).append(e)
    return {e: (i, len(g)) for g in groups.values() for i, e in enumerate(g)}


def _dutch_cost(a: E, b: E, records: dict[E, Record[E]],
                group_place: dict[E, tuple[int, int]]) -> int:
    """How far a pairing inside one score group is from top half v bottom half."""
    if records[a].score != records[b].score:
        return 0
    (i, size), (j, _) = group_place[a], group_place[b]
    return abs(abs(i - j) - size // 2)


def arena_pairs(free: Sequence[E], records: dict[E, Record[E]],
                last_opponent: dict[E, E]) -> list[tuple[E, E]]:
    """Pairs among the entrants free now, in the order they became free: each is paired
    with the free entrant closest in score who is not the one it has just played,
    unless that one is the only other free entrant."""
    waiting = list(free)
    pairs: list[tuple[E, E]] = []
    while len(waiting) >= 2:
        a = waiting.pop(0)
        others = [b for b in waiting if last_opponent.get(a) != b] or waiting
        b = min(others, key=lambda o: (abs(records[o].score - records[a].score),
                                       waiting.index(o)))
        waiting.remove(b)
        pairs.append((a, b))
    return pairs
