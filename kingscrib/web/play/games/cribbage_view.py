"""What a Cribbage game looks like to each seat: the public table and a seat's own cards.

The public part never holds a card that is not face up: no hand before it is
shown, no crib before the show, no starter before the cut, never the deck.
Announcements are spelled the way players say them ("fifteen for 2",
"fifteen two, fifteen four, and a pair is six").
"""

from __future__ import annotations

from typing import Any

from kingscrib.classic.cards import Card, card_list
from kingscrib.classic.game import ClassicGame, Go
from kingscrib.classic.rules import DOUBLE_SKUNK_LINE, SKUNK_LINE, WINNING_SCORE
from kingscrib.classic.show import score_show, show_combinations

PEG_POINTS = {"fifteen": 2, "thirty-one": 2, "pair": 2, "pair royal": 6,
              "double pair royal": 12}


def said(why: list[str]) -> str:
    """Pegging reasons as a player calls them: ``fifteen for 2, pair for 2``."""
    parts = []
    for reason in why:
        if reason.startswith("run of "):
            parts.append(f"{reason} for {reason.split()[-1]}")
        elif reason == "thirty-one":
            parts.append("31 for 2")
        else:
            parts.append(f"{reason} for {PEG_POINTS[reason]}")
    return ", ".join(parts)


def spoken_count(cards: list[Card], starter: Card, crib: bool) -> str:
    """``fifteen two, fifteen four, and a pair is six`` (``nineteen``: nothing); a count
    of fifteens alone ends ``fifteen four, fifteen six``."""
    text = score_show(cards, starter, crib).explain()
    head, sep, tail = text.rpartition(", ")
    return f"{head}, and {tail}" if sep and not tail.startswith("fifteen") else text


def show_entry(entry: dict[str, Any], starter: Card, names: list[str]) -> dict[str, Any]:
    """A counted hand of the show, with its spoken count and its combinations."""
    cards = [Card.parse(c) for c in entry["cards"]]
    crib = entry["kind"] == "crib"
    out: dict[str, Any] = {
        "seat": entry["player"], "kind": entry["kind"], "cards": entry["cards"],
        "score": entry["score"], "said": spoken_count(cards, starter, crib),
        "combinations": [{"kind": c.kind, "cards": card_list(c.cards), "points": c.points}
                         for c in show_combinations(cards, starter, crib)],
        "detail": score_show(cards, starter, crib).to_json(),
    }
    if "claimed" in entry:
        out["claimed"] = entry["claimed"]
    if "overclaim" in entry:  # claimed above the value: corrected, the excess to the taker
        o = entry["overclaim"]
        n = o["score"]
        out["overclaim"] = {"seat": o["player"], "points": n,
                            "text": f"{names[entry['player']]} claimed {entry['claimed']}; the"
                                    f" {entry['kind']} is worth {entry['score']}: {n}"
                                    f" go{'es' if n == 1 else ''} to {names[o['player']]}"}
    if "muggins" in entry:
        m = entry["muggins"]
        out["muggins"] = {"seat": m["player"], "points": m["score"],
                          "text": f"Muggins! {names[m['player']]} takes {m['score']} missed"
                                  f" point{'' if m['score'] == 1 else 's'}"}
    return out


def deal_public(deal: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The face-up part of one deal's record: starter, cards laid, announcements, the show.
    (The record's ``hands``, ``discards`` and ``crib_card`` are never read here.)"""
    starter = Card.parse(deal["starter"]) if "starter" in deal else None
    calls: list[dict[str, Any]] = []
    if starter is not None and deal.get("heels"):
        calls.append({"seat": deal["dealer"], "points": 2, "text": "his heels for 2"})
    for p in deal["plays"]:
        if p["action"] == "play":
            text = said(p.get("why", []))
            calls.append({"seat": p["player"], "card": p["card"], "count": p["count"],
                          "points": p["score"], "text": text})
        elif "score" in p:
            calls.append({"seat": p["player"], "points": p["score"],
                          "text": f"{p['action']} for {p['score']}"})
        else:
            calls.append({"seat": p["player"], "points": 0, "text": "go"})
    show = [show_entry(s, starter, names) for s in deal["show"]] if starter else []
    return {"dealer": deal["dealer"], "starter": deal.get("starter"), "calls": calls,
            "show": show}


def pegs(game: ClassicGame) -> list[dict[str, int]]:
    """Front and back peg of each side: the back peg is where the front one was before
    its last move."""
    front = [0] * game.rules.sides
    back = [0] * game.rules.sides
    for e in game.events:
        if e.points > 0:
            side = game.rules.side_of(e.seat)
            back[side] = front[side]
            front[side] = min(WINNING_SCORE, front[side] + e.points)
    return [{"front": f, "back": b} for f, b in zip(front, back)]


def end_json(game: ClassicGame) -> dict[str, Any] | None:
    if game.phase != "over" or game.winner is None:
        return None
    losers = [s for i, s in enumerate(game.scores) if i != game.winner]
    best = max(losers)
    skunk = ("double skunk" if best < DOUBLE_SKUNK_LINE else
             "skunk" if best < SKUNK_LINE else None)
    return {"winner": game.winner, "scores": list(game.scores),
            "game_points": game.rules.game_points(game.winner, list(game.scores)),
            "skunk": skunk, "counted": game.rules.skunk}


class ViewCache:
    """The public view, rebuilt only when the game has moved on; a finished deal's face-up
    part is built once."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._data: dict[str, Any] = {}
        self._previous: tuple[tuple[Any, ...], dict[str, Any] | None] = ((), None)

    def public(self, game: ClassicGame, names: list[str] | None = None) -> dict[str, Any]:
        """``names``: the seats as shown (the game's own names when None)."""
        names = list(names or game.names)
        key = (id(game), len(game.events), sum(len(d["plays"]) for d in game.deals[-1:]),
               len(game.deals), game.phase, tuple(game.waiting_for()), tuple(names))
        if key != self._key:
            done = (id(game), len(game.deals), tuple(names))
            if self._previous[0] != done:
                self._previous = (done, deal_public(game.deals[-2], names)
                                  if len(game.deals) > 1 else None)
            self._data = public(game, self._previous[1], names)
            self._key = key
        return self._data


def public(game: ClassicGame, previous: dict[str, Any] | None = None,
           names: list[str] | None = None) -> dict[str, Any]:
    """The table as everyone sees it (``previous``: the last deal's, if already built;
    ``names``: the seats as shown, the game's own when None)."""
    names = list(names or game.names)
    rules = game.rules
    view = game.view(0)  # only its public fields are read below
    deal = game.deals[-1]
    current = deal_public(deal, names)
    if previous is None and len(game.deals) > 1:
        previous = deal_public(game.deals[-2], names)
    series_seats = [seat for seat, _ in view.played[len(view.played) - len(view.pile):]]
    item = game.show_item
    discarded = [d is not None for d in deal["discards"]]
    sides = []
    for side, peg in enumerate(pegs(game)):
        members = [s for s in range(rules.players) if rules.side_of(s) == side]
        sides.append({"side": side, "seats": members, "score": game.scores[side], **peg,
                      "name": " & ".join(names[s] for s in members)})
    return {
        "game": "cribbage",
        "rules": rules.to_dict(),
        "phase": game.phase,
        "deal": len(game.deals),
        "dealer": game.dealer,
        "crib_owner": game.dealer,
        "waiting": game.waiting_for(),
        "turn": game.to_act if game.phase in ("play", "show") else None,
        "must_go": game.phase == "play" and game.legal_actions() == [Go()],
        "cut": {"cards": card_list(game.cuts[-1]), "first_dealer": game.first_dealer,
                "rounds": len(game.cuts)},
        "starter": current["starter"],
        "count": view.count,
        "series": [{"seat": s, "card": str(c)} for s, c in zip(series_seats, view.pile)],
        "played": [{"seat": s, "card": str(c)} for s, c in view.played],
        "cards_left": list(view.cards_left),
        "discarded": discarded,
        "crib_size": (len(game.crib) if game.phase != "discard"
                      else sum(rules.discards for d in discarded if d)
                      + rules.crib_from_deck),
        "calls": current["calls"],
        "show": current["show"],
        "claiming": ({"seat": item.seat, "kind": item.kind, "cards": card_list(item.cards)}
                     if item is not None else None),
        "previous": previous,
        "sides": sides,
        "scores": list(game.scores),
        "lines": {"win": WINNING_SCORE, "skunk": SKUNK_LINE, "double_skunk": DOUBLE_SKUNK_LINE},
        "over": game.phase == "over",
        "end": end_json(game),
    }


def private(game: ClassicGame, seat: int) -> dict[str, Any]:
    """What only ``seat`` may see: its cards and what it may do now."""
    legal = game.legal_for(seat)
    kinds = {type(a).__name__.lower() for a in legal}
    deal = game.deals[-1]
    return {
        "hand": card_list(sorted(game.hand(seat))),
        "kept": card_list(sorted(game.kept(seat))),
        "laid_away": deal["discards"][seat] or [],
        "can": {
            "discard": game.rules.discards if "discard" in kinds else 0,
            "play": sorted((str(a.card) for a in legal if hasattr(a, "card")),
                           key=lambda c: Card.parse(c)),
            "go": "go" in kinds,
            "claim": "claim" in kinds,
        },
    }
