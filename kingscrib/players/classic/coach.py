"""The coach: the expert's best discard and card, explained with the chance to win.

A front end calls :func:`coach_discard` while the player lays away and :func:`coach_play`
during the play (two players), and shows :attr:`Advice.lines`; :attr:`Advice.options`
holds the numbers for a front end that draws them itself.

>>> from kingscrib.classic.cards import parse_cards
>>> advice = coach_discard(parse_cards("5H 5S 5C JD 6D 9C"), i_deal=True)
>>> advice.best
'lay away 6D 9C'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kingscrib.classic.cards import Card
from kingscrib.classic.game import PlayerView
from kingscrib.players.classic.expert import (
    DiscardChoice,
    PlayChoice,
    go_floor,
    near_end,
    play_choices,
    rank_discards,
    win_values,
)
from kingscrib.players.classic.levels import unseen_by


@dataclass(frozen=True)
class Advice:
    """What to do, why, and the options behind it (best first)."""

    best: str  # "lay away 6D 9C" / "lay 4S"
    lines: list[str]  # the explanation, one sentence a line
    options: list[dict[str, Any]] = field(default_factory=list)  # numbers per option, for front ends


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def coach_discard(hand: Sequence[Card], i_deal: bool, me: int = 0, opponent: int = 0,
                  top: int = 3) -> Advice:
    """The best two cards to lay away from six (two players), with each option's expected
    hand, crib and pegging and its chance to win from these scores."""
    choices = rank_discards(hand, i_deal, me, opponent, random.Random(0))
    best = choices[0]
    whose = "your crib" if i_deal else "their crib"
    by = "chance to win" if near_end(me, opponent) else "expected points"
    lines = [
        f"Lay away {_cards(best.discard)} and keep {_cards(best.keep)}: hand {best.hand:.1f}, "
        f"{whose} {best.crib:+.1f}, pegging {best.pegging:+.1f} = {best.points:.1f} points "
        f"expected; chance to win {_pct(best.win)}.",
    ]
    for c in choices[1:top]:
        lines.append(f"  or lay away {_cards(c.discard)}: {c.points:.1f} points, "
                     f"chance to win {_pct(c.win)}.")
    lines.append(f"Ranked by {by} (scores {me}-{opponent}, "
                 f"{'you deal' if i_deal else 'they deal'}).")
    return Advice(f"lay away {_cards(best.discard)}", lines, [_discard_json(c) for c in choices])


def _discard_json(c: DiscardChoice) -> dict[str, Any]:
    return {"discard": [str(x) for x in c.discard], "keep": [str(x) for x in c.keep],
            "hand": round(c.hand, 3), "crib": round(c.crib, 3), "pegging": round(c.pegging, 3),
            "points": round(c.points, 3), "win": round(c.win, 4)}


def coach_play(view: PlayerView) -> Advice:
    """The best card to lay now (two players), with the points each card is expected to
    peg from here (mine less theirs) and each one's chance to win."""
    if view.rules.players != 2:
        raise ValueError("the coach advises two-player games only")
    if view.phase != "play" or not view.legal:
        raise ValueError("no card can be laid now")
    rng = random.Random(0)
    choices = play_choices(view, rng)
    points = {c.card: c.value for c in choices}
    if choices[0].by_win:
        wins = {c.card: c.value for c in choices}
        from kingscrib.players.classic.pegsearch import card_values

        opp = 1 - view.seat
        values = card_values(tuple(c.rank for c in view.hand), tuple(c.rank for c in view.pile),
                             [c.rank for c in unseen_by(view)], view.cards_left[opp],
                             tuple(c.rank for s, c in view.played if s == opp), go_floor(view),
                             rng)
        points = {c.card: values[c.card.rank] for c in choices}
    else:
        ranks = win_values(view, tuple(c.rank for c in view.hand),
                            tuple(c.rank for c in view.pile), [c.rank for c in unseen_by(view)],
                            tuple(c.rank for s, c in view.played if s != view.seat), rng)
        wins = {c.card: ranks[c.card.rank] for c in choices}
    best = choices[0]
    now = f"scores {best.points_now} now" if best.points_now else "scores nothing now"
    same = [c.card for c in choices[1:] if c.card.rank == best.card.rank]
    also = f" ({', '.join(map(str, same))} the same)" if same else ""
    lines = [f"Lay {best.card}{also}: it {now}; from here you expect to peg "
             f"{_margin(points[best.card])} your opponent (over the hands they may hold); "
             f"chance to win {_pct(wins[best.card])}."]
    shown = {best.card.rank}
    for c in choices[1:]:
        if c.card.rank in shown:  # the same rank plays the same in the play
            continue
        shown.add(c.card.rank)
        lines.append(f"  or {c.card}: {points[c.card]:+.1f} in the pegging, "
                     f"chance to win {_pct(wins[c.card])}.")
    lines.append("Ranked by " + ("chance to win." if best.by_win else "points pegged."))
    return Advice(f"lay {best.card}", lines, [_play_json(c, points, wins) for c in choices])


def _margin(points: float) -> str:
    if abs(points) < 0.05:
        return "as much as"
    return f"{abs(points):.1f} {'more' if points > 0 else 'fewer'} than"


def _play_json(c: PlayChoice, points: dict[Card, float], wins: dict[Card, float]
               ) -> dict[str, Any]:
    return {"card": str(c.card), "now": c.points_now, "pegging": round(points[c.card], 3),
            "win": round(wins[c.card], 4)}


__all__ = ["Advice", "coach_discard", "coach_play"]
