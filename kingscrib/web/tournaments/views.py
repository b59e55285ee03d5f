"""What the tournament pages are sent, built from the store's rows: the lists, a
tournament's page (players, rounds, standings, teams, the caller's games) and the teams."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from kingscrib.web.tournaments import store
from kingscrib.web.tournaments.schemas import Listing, Teams, TournamentPage

SUMMARY = ("id", "name", "game", "format", "rated", "clock_seconds", "clock_overtime",
           "starts", "max_players", "min_rating", "max_rating", "mirrored", "rounds",
           "minutes", "no_show", "team_best", "state", "finished", "note", "players",
           "partners")


def summary(t: dict[str, Any]) -> dict[str, Any]:
    """A tournament's row as the lists show it (``players`` where the row counts them)."""
    return {k: t[k] for k in SUMMARY if k in t}


def listing(found: dict[str, list[dict[str, Any]]]) -> Listing:
    """Upcoming, running and finished tournaments (``store.listing``'s rows)."""
    return Listing.model_validate({state: [summary(t) for t in rows]
                                   for state, rows in found.items()})


def teams(rows: list[dict[str, Any]]) -> Teams:
    """Every team and its members' names (``store.team_list``'s rows)."""
    return Teams.model_validate({"teams": [{"id": t["id"], "name": t["name"],
                                            "members": [m["name"] for m in t["members"]]}
                                           for t in rows]})


@dataclass(frozen=True)
class PageRows:
    """What a tournament's page is made of, read in one call to the store."""

    tournament: dict[str, Any]
    entrants: list[dict[str, Any]]
    games: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    partners: dict[int, str]  # the accounts of the partnerships' players: their names


def page_rows(engine: Engine, tournament_id: int) -> PageRows | None:
    """The rows of a tournament's page (None: no such tournament)."""
    t = store.get(engine, tournament_id)
    if t is None:
        return None
    entrants = store.entrants(engine, tournament_id)
    partners = store.account_names(engine, [
        x for e in entrants if e["partner_id"] is not None
        for x in (e["account_id"], e["partner_id"]) if x is not None])
    return PageRows(t, entrants, store.games_of(engine, tournament_id),
                    store.rounds_of(engine, tournament_id), partners)


def page(rows: PageRows, caller: tuple[int, str] | None) -> TournamentPage:
    """Everything the tournament page shows: players, rounds and their games, standings
    with tie-breaks, team standings; for the logged-in ``caller`` (account id, name)
    that entered, their seats of the games they are playing (taken by their session)."""
    t, entrants, games, rounds = rows.tournament, rows.entrants, rows.games, rows.rounds
    caller_id = None if caller is None else caller[0]
    table = store.table(entrants, games, rounds, t["mirrored"])
    names = {e["number"]: e["name"] for e in entrants}
    mine = next((e["number"] for e in entrants if caller_id is not None
                 and caller_id in (e["account_id"], e["partner_id"])), None)
    partner = any(caller_id is not None and e["partner_id"] == caller_id for e in entrants)
    by_round: dict[int, dict[str, Any]] = {
        r["number"]: {"number": r["number"], "bye": names.get(r["bye"]), "games": []}
        for r in rounds}
    yours = []
    for g in games:
        by_round.setdefault(g["round"], {"number": g["round"], "bye": None, "games": []})
        by_round[g["round"]]["games"].append({
            "a": names[g["a"]], "b": names[g["b"]], "leg": g["leg"], "game_id": g["game_id"],
            "points_a": g["points_a"], "margin": g["margin"],
            "forfeit": names.get(g["forfeit"])})
        if mine is not None and g["game_id"] and g["points_a"] is None and mine in (g["a"],
                                                                                  g["b"]):
            first = g["a"] == mine
            seat = (0 if first else 1) if g["leg"] == 0 else (1 if first else 0)
            yours.append({"game_id": g["game_id"], "seat": seat + 2 * partner})
    standings = [{"place": i + 1, "name": names.get(s.entrant, "?"), "points": s.points,
                  "buchholz": s.buchholz, "sonneborn_berger": s.sonneborn_berger,
                  "spread": s.spread, "wins": s.wins, "draws": s.draws, "losses": s.losses,
                  "byes": s.byes} for i, s in enumerate(table.rows)]
    team_rows = store.team_table(table.rows, entrants, t["team_best"])
    for row in team_rows:
        row["counted"] = [names[n] for n in row["counted"]]
    return TournamentPage.model_validate({
        "tournament": {**summary(t), "creator": t["creator_id"] == caller_id},
        "players": [{"name": e["name"], "computer": e["level"] is not None,
                     "members": [rows.partners[x] for x in (e["account_id"], e["partner_id"])
                                 if e["partner_id"] is not None and x in rows.partners],
                     "level": e["level"], "team": e["team"],
                     "rating": None if e["rating"] is None else round(e["rating"]),
                     "withdrawn": e["withdrawn"] is not None} for e in entrants],
        "rounds": [by_round[n] for n in sorted(by_round)],
        "standings": standings, "teams": team_rows,
        "you": None if caller is None else {"name": caller[1], "entered": mine is not None,
                                            "playing": yours},
    })
