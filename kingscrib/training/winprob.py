"""Building the classic win-probability table from self-play deals.

The table and what it means: :mod:`kingscrib.players.classic.winprob`, which loads what
this module writes (``data/winprob.json``, ``data/deals.json``, ``data/deal_phases.json``,
wherever its ``*_FILE`` names point). Each cell is filled by dynamic programming over a
sample of whole deals, from the highest totals down (:func:`build_table`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from kingscrib.classic.rules import RuleSet
from kingscrib.players.classic import winprob as shipped
from kingscrib.players.classic.winprob import GOAL, Deal


def deal_scoring(deal: dict[str, Any]) -> Deal | None:
    """The scoring of one deal of a two-player game record, in order (None if the deal was
    not played to the end of its show)."""
    if len(deal.get("show", ())) != 3:
        return None
    dealer = deal["dealer"]
    events: list[int] = []

    def add(seat: int, points: int) -> None:
        if points <= 0:
            return
        signed = points if seat != dealer else -points
        if events and (events[-1] > 0) == (signed > 0):
            events[-1] += signed  # consecutive points of one player: one step of the race
        else:
            events.append(signed)

    add(dealer, deal.get("heels", 0))
    for entry in deal["plays"]:
        add(entry["player"], entry.get("score", 0))
    for entry in deal["show"]:
        add(entry["player"], entry["score"])
    return events


def deal_phases(deal: dict[str, Any]) -> list[int] | None:
    """One deal of a two-player record by phase: ``[pone's hand, dealer's hand, crib, then
    the play's points in order]`` (+ the pone, - the dealer, one player's consecutive
    points as one step), None if the deal was not played to the end of its show. His
    heels are left out: the starter decides them."""
    show = deal.get("show", ())
    if len(show) != 3:
        return None
    dealer = deal["dealer"]
    by_kind = {("crib" if e["kind"] == "crib" else
                "dealer" if e["player"] == dealer else "pone"): e["score"] for e in show}
    events: list[int] = []
    for entry in deal["plays"]:
        points = entry.get("score", 0)
        if points <= 0:
            continue
        signed = points if entry["player"] != dealer else -points
        if events and (events[-1] > 0) == (signed > 0):
            events[-1] += signed
        else:
            events.append(signed)
    return [by_kind["pone"], by_kind["dealer"], by_kind["crib"], *events]


def self_play_deals(games: int, seed: int, player: str) -> Iterable[dict[str, Any]]:
    """Every deal of ``games`` self-play games but the last of each (cut short by the win)."""
    from kingscrib.players.classic.driver import play_game
    from kingscrib.players.classic.registry import make_player

    rng = random.Random(seed)
    for _ in range(games):
        s = rng.randrange(2**31)
        game = play_game(RuleSet(), seed=s, players=[make_player(player, s), make_player(player, s + 1)])
        yield from game.record()["deals"][:-1]


def sample_deals(games: int, seed: int = 0, player: str = "expert-v1") -> list[Deal]:
    """The scoring of every complete deal of ``games`` self-play games (the last deal of
    each game, cut short by the win, is left out)."""
    found = (deal_scoring(deal) for deal in self_play_deals(games, seed, player))
    return [d for d in found if d is not None]


def sample_phases(games: int, seed: int = 0, player: str = "expert-v1") -> list[list[int]]:
    """:func:`deal_phases` of every complete deal of ``games`` self-play games."""
    found = (deal_phases(deal) for deal in self_play_deals(games, seed, player))
    return [d for d in found if d is not None]


def save_phases(phases: Sequence[Sequence[int]], command: str) -> None:
    shipped.PHASES_FILE.parent.mkdir(exist_ok=True)
    shipped.PHASES_FILE.write_text(json.dumps({
        "command": command,
        "about": "each deal: pone's hand, dealer's hand, crib, then the play's points in"
                 " order (+ pone, - dealer); heels apart",
        "deals": [list(d) for d in phases]}, separators=(",", ":")) + "\n")


def race(deal: Sequence[int], pone_needs: int, dealer_needs: int) -> int | None:
    """Who wins a deal when the pone needs ``pone_needs`` points and the dealer
    ``dealer_needs``: 1 the pone, 0 the dealer, None nobody (the game goes on)."""
    p = d = 0
    for x in deal:
        if x > 0:
            p += x
            if p >= pone_needs:
                return 1
        else:
            d -= x
            if d >= dealer_needs:
                return 0
    return None


def totals(deal: Sequence[int]) -> tuple[int, int]:
    """(pone's points, dealer's points) of a deal."""
    return sum(x for x in deal if x > 0), -sum(x for x in deal if x < 0)


def build_table(deals: Sequence[Sequence[int]]) -> list[list[float]]:
    """``W[x][y]`` for x, y in 0..121 from a sample of deals (see the module's docstring)."""
    n = len(deals)
    if not n:
        raise ValueError("no deals to build the table from")
    size = GOAL + 1
    # Races: pone_first[a][b] = deals in which the pone gets a points before the dealer gets
    # b (a, b >= 1). For each deal and each a the pone reaches, the pone is first for every
    # b above what the dealer had when the pone got to a. (The dealer's wins count 0.)
    pone_first = [[0] * (size + 1) for _ in range(size + 1)]
    outcomes: Counter[tuple[int, int]] = Counter()
    for deal in deals:
        p = d = 0
        for x in deal:
            if x > 0:
                for a in range(p + 1, min(p + x, size) + 1):
                    pone_first[a][min(d + 1, size)] += 1
                p += x
            else:
                d -= x
        outcomes[(p, d)] += 1
    for row in pone_first:  # difference rows -> counts
        run = 0
        for k in range(size + 1):
            run += row[k]
            row[k] = run
    ordered = sorted(outcomes.items())
    w = [[0.0] * size for _ in range(size)]
    for x in range(size):
        w[x][GOAL] = 0.0
    for y in range(size):
        w[GOAL][y] = 1.0
    for total in range(2 * GOAL - 2, -1, -1):
        for x in range(max(0, total - GOAL + 1), min(GOAL - 1, total) + 1):
            y = total - x
            a, b = GOAL - x, GOAL - y  # what each needs
            wins = pone_first[a][b]
            rest = 0.0
            for (p, d), count in ordered:
                if p >= a:
                    break
                if d < b:
                    rest += count * (1.0 - w[y + d][x + p])
            w[x][y] = (wins + rest) / n
    return w


def save(deals: Sequence[Sequence[int]], table: Sequence[Sequence[float]], command: str) -> None:
    shipped.TABLE_FILE.parent.mkdir(exist_ok=True)
    shipped.DEALS_FILE.write_text(json.dumps({"command": command, "deals": [list(d) for d in deals]},
                                     separators=(",", ":")) + "\n")
    shipped.TABLE_FILE.write_text(json.dumps({
        "command": command,
        "deals": len(deals),
        "about": "W[x][y]: chance that the pone on x wins against the dealer on y",
        "W": [[round(v, 6) for v in row] for row in table]}, separators=(",", ":")) + "\n")


def train(games: int, seed: int, player: str = "expert-v1") -> tuple[list[Deal], list[list[float]]]:
    deals = sample_deals(games, seed, player)
    return deals, build_table(deals)


def check_cells(table: Sequence[Sequence[float]], deals: Iterable[Sequence[int]],
                cells: Iterable[tuple[int, int]]) -> list[tuple[int, int, float, float]]:
    """For each cell, (x, y, table value, mean over the deals of the cells they lead to)."""
    deals = list(deals)
    out = []
    for x, y in cells:
        total = 0.0
        for deal in deals:
            won = race(deal, GOAL - x, GOAL - y)
            if won is None:
                p, d = totals(deal)
                total += 1.0 - table[y + d][x + p]
            else:
                total += won
        out.append((x, y, table[x][y], total / len(deals)))
    return out


__all__ = ["build_table", "check_cells", "deal_phases", "deal_scoring", "race", "sample_deals",
           "sample_phases", "save", "save_phases", "self_play_deals", "totals", "train"]
