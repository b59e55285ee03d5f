"""Tournaments and teams over the API (docs/tournaments.md, "On the web server"): create,
join, withdraw, computers entered by the creator, pairing by the director, forfeits for
no-shows, results and standings equal to kingscrib.tournaments.standings recomputed from
the games' own outcomes; a restart in the middle; two processes on one PostgreSQL."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import auth, in_process_client

from kingscrib.tournaments.standings import Result, standings
from kingscrib.web.accounts import sessions
from kingscrib.web.tournaments import store
from kingscrib.web.tournaments.director import tick

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PASSWORD = "correct horse battery"


def client_on(url: str) -> Any:
    # The director runs only when a test says (tick), never on its own.
    c = in_process_client(url, rate_per_second=1e4, rate_burst=1e4, tournament_every=0)
    c.base_url = httpx.URL("https://testserver")  # the session cookie is Secure
    return c


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture()
def client(db: str) -> Any:
    with client_on(db) as c:
        yield c


def sign_up(c: Any, name: str) -> str:
    c.cookies.clear()
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return r.cookies[sessions.COOKIE]


def as_(c: Any, session: str | None) -> dict[str, str]:
    """Act as this session; the headers of a write (its CSRF token)."""
    c.cookies.clear()
    if not session:
        return {}
    c.cookies.set(sessions.COOKIE, session)
    return {sessions.CSRF_HEADER: sessions.csrf_token(session)}


def direct(c: Any, now: float | None = None) -> None:
    c.portal.call(tick, c.app.state.hub, now)


def create(c: Any, session: str, **body: Any) -> int:
    body = {"name": "Friday Swiss", "game": "classic", "format": "swiss", "rounds": 3,
            "starts_in": 0, **body}
    r = c.post("/api/tournaments", json=body, headers=as_(c, session))
    assert r.status_code == 201, r.text
    said = c.get(f"/api/tournaments/{r.json()['id']}").json()["tournament"]["game"]
    assert said == ("cribbage" if body["game"] == "classic" else body["game"])  # older name
    return r.json()["id"]


def join(c: Any, tid: int, session: str, **body: Any) -> httpx.Response:
    return c.post(f"/api/tournaments/{tid}/join", json=body or None, headers=as_(c, session))


def look(c: Any, tid: int, session: str | None = None) -> dict[str, Any]:
    as_(c, session)
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return r.json()


def seat_token(c: Any, session: str, game_id: str) -> str:
    """The account's seat of the game, taken by its session: a new token."""
    r = c.post(f"/api/games/{game_id}/seat", headers=as_(c, session))
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def resign_own_games(c: Any, tid: int, session: str) -> int:
    """The account resigns each game it is playing in the tournament."""
    n = 0
    for g in look(c, tid, session)["you"]["playing"]:
        as_(c, session)
        if c.get(f"/api/games/{g['game_id']}").json()["result"] is not None:
            continue  # ended already, its result not yet recorded
        token = seat_token(c, session, g["game_id"])
        r = c.post(f"/api/games/{g['game_id']}/resign", headers=auth(token))
        assert r.status_code == 200, r.text
        n += 1
    return n


def recomputed(c: Any, view: dict[str, Any]) -> list[tuple[str, float]]:
    """Standings recomputed from each game's own record of who won (not the tournament's
    stored results): the game's result says who resigned, so the other side won."""
    results, byes = [], []
    for rnd in view["rounds"]:
        if rnd["bye"]:
            byes.append(rnd["bye"])
        for g in rnd["games"]:
            state = c.get(f"/api/games/{g['game_id']}").json()
            seat_a = 0 if g["leg"] == 0 else 1
            winners = state["result"]["winners"]
            results.append(Result(g["a"], g["b"], 1.0 if seat_a in winners else 0.0,
                                  g["margin"]))
    names = [p["name"] for p in view["players"]]
    return [(s.entrant, s.points) for s in standings(results, byes, names)]


def test_a_swiss_tournament_runs_to_its_end_with_standings_as_recomputed(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di", "Eve")}
    tid = create(c, people["Ann"])
    for session in people.values():
        assert join(c, tid, session).status_code == 200
    assert look(c, tid)["tournament"]["state"] == "upcoming"
    met: set[frozenset[str]] = set()
    byes = []
    for round_number in (1, 2, 3):
        direct(c)
        view = look(c, tid)
        assert view["tournament"]["state"] == "running"
        rnd = view["rounds"][round_number - 1]
        # Five players: two games and a bye each round, nobody twice, no repeats.
        seated = [p for g in rnd["games"] for p in (g["a"], g["b"])] + [rnd["bye"]]
        assert sorted(seated) == sorted(people)
        for g in rnd["games"]:
            pair = frozenset((g["a"], g["b"]))
            assert pair not in met
            met.add(pair)
            assert g["game_id"]
        byes.append(rnd["bye"])
        # The first named of each game resigns; each seat is its entrant's account's.
        for g in rnd["games"]:
            assert resign_own_games(c, tid, people[g["a"]]) == 1
        direct(c)
    view = look(c, tid)
    assert view["tournament"]["state"] == "finished"
    assert len(set(byes)) == 3  # byes go to different players
    got = [(r["name"], r["points"]) for r in view["standings"]]
    assert sorted(got, key=lambda x: -x[1]) == got
    assert sorted(got) == sorted(recomputed(c, view))
    for rnd in view["rounds"]:
        for g in rnd["games"]:
            assert g["points_a"] == 0.0  # a resigned


def test_a_game_taken_with_another_accounts_session_is_refused(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob")}
    tid = create(c, people["Ann"], format="round_robin")
    for s in people.values():
        join(c, tid, s)
    direct(c)
    mine = look(c, tid, people["Ann"])["you"]["playing"][0]
    token = seat_token(c, people["Ann"], mine["game_id"])
    as_(c, people["Bob"])  # Bob cannot use Ann's seat even with its token
    r = c.post(f"/api/games/{mine['game_id']}/resign", headers=auth(token))
    assert r.status_code == 403
    assert look(c, tid, people["Bob"])["you"]["playing"][0]["game_id"] == mine["game_id"]


def test_a_withdrawn_player_is_not_paired_again_and_keeps_their_results(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di")}
    tid = create(c, people["Ann"])
    for s in people.values():
        join(c, tid, s)
    direct(c)
    first = look(c, tid)["rounds"][0]["games"]
    for g in first:
        resign_own_games(c, tid, people[g["b"]])
    leaver = first[0]["a"]  # a winner leaves
    r = c.post(f"/api/tournaments/{tid}/withdraw", headers=as_(c, people[leaver]))
    assert r.status_code == 200, r.text
    direct(c)
    view = look(c, tid)
    second = view["rounds"][1]
    assert leaver not in [p for g in second["games"] for p in (g["a"], g["b"])]
    assert second["bye"] != leaver and second["bye"] is not None
    assert next(s for s in view["standings"] if s["name"] == leaver)["points"] == 1.0
    assert [p["withdrawn"] for p in view["players"] if p["name"] == leaver] == [True]
    again = c.post(f"/api/tournaments/{tid}/withdraw", headers=as_(c, people[leaver]))
    assert again.status_code == 409


def test_a_player_who_does_not_show_forfeits_and_the_result_is_recorded(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob")}
    tid = create(c, people["Ann"], format="round_robin", no_show=30, game="kings")
    for s in people.values():
        join(c, tid, s)
    direct(c)
    game = look(c, tid)["rounds"][0]["games"][0]
    state = c.get(f"/api/games/{game['game_id']}").json()
    waited = state["turn"]  # Kings: the seat to move first never moves
    direct(c, time.time() + 10)  # not yet
    assert c.get(f"/api/games/{game['game_id']}").json()["result"] is None
    direct(c, time.time() + 31)  # resigned for them
    direct(c)  # and the result recorded
    state = c.get(f"/api/games/{game['game_id']}").json()
    assert state["result"]["reason"] == "resigned" and state["result"]["seat"] == waited
    g = look(c, tid)["rounds"][0]["games"][0]
    no_show = g["a"] if waited == 0 else g["b"]
    assert g["forfeit"] == no_show
    assert g["points_a"] == (0.0 if no_show == g["a"] else 1.0)
    assert look(c, tid)["tournament"]["state"] == "finished"


def test_computers_fill_a_tournament_and_play_their_own_seats(client) -> None:
    c = client
    ann = sign_up(c, "Ann")
    bob = sign_up(c, "Bob")
    tid = create(c, ann, format="round_robin")
    join(c, tid, ann)
    r = c.post(f"/api/tournaments/{tid}/computers", json={"level": "Beginner"},
               headers=as_(c, ann))
    assert r.status_code == 200, r.text
    refused = c.post(f"/api/tournaments/{tid}/computers", json={"level": "easy"},
                     headers=as_(c, bob))
    assert refused.status_code == 403
    bad = c.post(f"/api/tournaments/{tid}/computers", json={"level": "nobody"},
                 headers=as_(c, ann))
    assert bad.status_code == 400 and "nobody" in bad.json()["error"]
    direct(c)
    view = look(c, tid, ann)
    assert [p["computer"] for p in view["players"]] == [False, True]
    game = view["rounds"][0]["games"][0]
    state = c.get(f"/api/games/{game['game_id']}").json()
    assert [s["kind"] for s in state["seats"]] == ["human", "computer"]
    resign_own_games(c, tid, ann)
    direct(c)
    assert look(c, tid)["standings"][0]["name"] == view["players"][1]["name"]


def test_entries_are_checked_and_refusals_change_nothing(client) -> None:
    c = client
    ann, bob, cy = sign_up(c, "Ann"), sign_up(c, "Bob"), sign_up(c, "Cy")
    as_(c, None)
    assert c.post("/api/tournaments", json={"name": "x"}).status_code == 401
    for body, words in (({"format": "swiss", "rounds": None}, "rounds"),
                        ({"format": "arena"}, "minutes"),
                        ({"min_rating": 1600, "max_rating": 1500}, "min_rating"),
                        ({"clock_seconds": 1}, "clock_seconds"),
                        ({"game": "chess"}, "chess"),
                        ({"format": "match"}, "team")):
        r = c.post("/api/tournaments", json={"name": "T", "rounds": 3, **body},
                   headers=as_(c, ann))
        assert r.status_code in (400, 422), (body, r.text)
        assert words in r.json()["error"], (body, r.text)
    assert c.get("/api/tournaments").json() == {"upcoming": [], "running": [], "finished": []}
    tid = create(c, ann, max_players=2, min_rating=1400, starts_in=600)
    high = create(c, ann, min_rating=1600, starts_in=600)
    r = join(c, high, bob)
    assert r.status_code == 403 and "1500" in r.json()["error"]
    assert join(c, tid, ann).status_code == 200
    assert join(c, tid, ann).status_code == 409
    assert join(c, tid, bob).status_code == 200
    full = join(c, tid, cy)
    assert full.status_code == 409 and "full" in full.json()["error"]
    no_csrf = c.post(f"/api/tournaments/{tid}/withdraw")
    assert no_csrf.status_code == 403
    listed = c.get("/api/tournaments").json()
    assert [t["players"] for t in listed["upcoming"]] == [2, 0]
    assert c.get("/api/tournaments/999").status_code == 404


def test_a_restarted_server_carries_the_tournament_on(db: str) -> None:
    with client_on(db) as c:
        people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di")}
        tid = create(c, people["Ann"], rounds=2)
        for s in people.values():
            join(c, tid, s)
        direct(c)
        first = look(c, tid)["rounds"][0]["games"]
        resign_own_games(c, tid, people[first[0]["a"]])
    with client_on(db) as c:  # a new app, the same database
        resign_own_games(c, tid, people[first[1]["a"]])
        direct(c)
        view = look(c, tid)
        assert len(view["rounds"]) == 2
        assert [g["points_a"] for g in view["rounds"][0]["games"]] == [0.0, 0.0]
        for g in view["rounds"][1]["games"]:
            resign_own_games(c, tid, people[g["a"]])
        direct(c)
        view = look(c, tid)
        assert view["tournament"]["state"] == "finished"
        assert sorted((r["name"], r["points"]) for r in view["standings"]) == \
            sorted(recomputed(c, view))


def test_teams_their_standings_and_a_team_match(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di")}
    r = c.post("/api/teams", json={"name": "Pegs"}, headers=as_(c, people["Ann"]))
    assert r.status_code == 201
    pegs = r.json()["id"]
    holes = c.post("/api/teams", json={"name": "Holes"}, headers=as_(c, people["Cy"])).json()["id"]
    assert c.post("/api/teams", json={"name": "pegs"},
                  headers=as_(c, people["Di"])).status_code == 409
    assert c.post(f"/api/teams/{pegs}/join", headers=as_(c, people["Bob"])).status_code == 200
    assert c.post(f"/api/teams/{holes}/join", headers=as_(c, people["Di"])).status_code == 200
    assert c.post(f"/api/teams/{holes}/join", headers=as_(c, people["Di"])).status_code == 409
    assert c.post(f"/api/teams/{pegs}/leave", headers=as_(c, people["Di"])).status_code == 409
    teams = {t["name"]: sorted(t["members"]) for t in c.get("/api/teams").json()["teams"]}
    assert teams == {"Pegs": ["Ann", "Bob"], "Holes": ["Cy", "Di"]}
    # A team match: each member of Pegs meets one of Holes.
    tid = create(c, people["Ann"], format="match", team_a=pegs, team_b=holes, team_best=2)
    direct(c)
    games = look(c, tid)["rounds"][0]["games"]
    assert sorted((g["a"], g["b"]) for g in games) in ([("Ann", "Cy"), ("Bob", "Di")],
                                                       [("Ann", "Di"), ("Bob", "Cy")])
    for g in games:
        resign_own_games(c, tid, people[g["b"]])
    direct(c)
    view = look(c, tid)
    assert view["tournament"]["state"] == "finished"
    assert [(t["team"], t["points"]) for t in view["teams"]] == [("Pegs", 2.0), ("Holes", 0.0)]
    # In an ordinary tournament an entrant may count for a team they belong to.
    other = create(c, people["Ann"], starts_in=600)
    assert join(c, other, people["Cy"], team_id=pegs).status_code == 403
    assert join(c, other, people["Ann"], team_id=pegs).status_code == 200
    assert c.post(f"/api/teams/{pegs}/leave", headers=as_(c, people["Bob"])).status_code == 200


def test_two_processes_on_postgresql_pair_each_round_exactly_once(postgres_url) -> None:
    with client_on(postgres_url) as one, client_on(postgres_url) as two:
        people = {n: sign_up(one, n) for n in ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")}
        tid = create(one, people["Ann"], rounds=2, mirrored=True)
        for s in people.values():
            join(one, tid, s)
        engine = one.app.state.hub.store.engine
        for round_number in (1, 2):
            # Both directors pass at once, several times: one pairs, neither twice.
            for _ in range(3):
                a = one.portal.start_task_soon(tick, one.app.state.hub, None)
                b = two.portal.start_task_soon(tick, two.app.state.hub, None)
                a.result()
                b.result()
            rounds = store.rounds_of(engine, tid)
            games = store.games_of(engine, tid)
            assert [r["number"] for r in rounds] == list(range(1, round_number + 1))
            now = [g for g in games if g["round"] == round_number]
            assert len(now) == 6  # three pairings, two legs each (mirrored)
            assert all(g["game_id"] for g in now)
            assert len({g["game_id"] for g in games}) == len(games)
            for (x, leg0), (y, leg1) in itertools.pairwise(
                    [(g["a"], g) for g in sorted(now, key=lambda g: (g["a"], g["leg"]))]):
                if x == y:
                    assert leg0["seed"] == leg1["seed"]
            for g in look(two, tid)["rounds"][round_number - 1]["games"]:
                if g["leg"] == 0:  # a resigns both games of the pair
                    assert resign_own_games(two, tid, people[g["a"]]) == 2
            one.portal.call(tick, one.app.state.hub, None)
        one.portal.call(tick, one.app.state.hub, None)
        view = look(two, tid)
        assert view["tournament"]["state"] == "finished"
        assert sorted((r["name"], r["points"]) for r in view["standings"]) == \
            sorted(recomputed(two, view))


def test_an_arena_pairs_players_again_as_soon_as_they_are_free_until_its_time_is_up(
        client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di")}
    tid = create(c, people["Ann"], format="arena", minutes=1, rounds=None)
    for s in people.values():
        join(c, tid, s)
    start = time.time()
    direct(c, start)
    first = look(c, tid)["rounds"]
    assert len(first) == 1 and len(first[0]["games"]) == 2
    done = first[0]["games"][0]
    resign_own_games(c, tid, people[done["a"]])
    direct(c, start + 1)  # the two who finished play again; the others still play
    view = look(c, tid)
    assert len(view["rounds"]) == 2
    again = view["rounds"][1]["games"]
    assert len(again) == 1 and {again[0]["a"], again[0]["b"]} == {done["a"], done["b"]}
    assert view["tournament"]["state"] == "running"
    for name in people:  # every game ends; time is up: no new pairing, it finishes
        resign_own_games(c, tid, people[name])
    direct(c, start + 61)
    view = look(c, tid)
    assert len(view["rounds"]) == 2 and view["tournament"]["state"] == "finished"
    assert sum(s["wins"] for s in view["standings"]) == 3


def test_a_rated_tournament_moves_the_players_ratings(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob")}
    tid = create(c, people["Ann"], format="round_robin", rated=True, clock_seconds=300)
    for s in people.values():
        join(c, tid, s)
    direct(c)
    game = look(c, tid)["rounds"][0]["games"][0]
    state = c.get(f"/api/games/{game['game_id']}").json()
    assert state["rated"] is True and state["clock"]["seconds"] == 300
    for session in people.values():  # both sides move first: then the game is rated
        g = look(c, tid, session)["you"]["playing"][0]
        token = seat_token(c, session, g["game_id"])
        as_(c, session)
        mine = c.get(f"/api/games/{g['game_id']}", headers=auth(token)).json()
        r = c.post(f"/api/games/{g['game_id']}/actions", headers=auth(token), json={
            "action": "discard", "cards": mine["hand"][:mine["can"]["discard"]]})
        assert r.status_code == 200, r.text
    resign_own_games(c, tid, people["Bob"])
    as_(c, None)
    ann = c.get("/api/players/Ann").json()["games"]["cribbage"]
    bob = c.get("/api/players/Bob").json()["games"]["cribbage"]
    assert ann["rating"] > 1500 > bob["rating"] and ann["rated_games"] == 1


def test_the_next_round_is_paired_as_soon_as_its_last_game_ends(db: str) -> None:
    # The director's own pass is an hour away: only a game's end can wake it.
    c = in_process_client(db, rate_per_second=1e4, rate_burst=1e4, tournament_every=3600)
    c.base_url = httpx.URL("https://testserver")
    with c:
        people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di")}
        tid = create(c, people["Ann"], rounds=2)
        for s in people.values():
            join(c, tid, s)
        direct(c)  # started and paired by hand
        for g in look(c, tid)["rounds"][0]["games"]:
            resign_own_games(c, tid, people[g["a"]])
        deadline = time.monotonic() + 10
        while len(look(c, tid)["rounds"]) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(look(c, tid)["rounds"]) == 2


def test_a_deleted_account_leaves_its_tournaments_and_teams_and_its_results_stay(
        client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy")}
    team = c.post("/api/teams", json={"name": "Pegs"}, headers=as_(c, people["Ann"])).json()["id"]
    tid = create(c, people["Bob"], format="round_robin")
    for name, s in people.items():
        join(c, tid, s, **({"team_id": team} if name == "Ann" else {}))
    direct(c)
    view = look(c, tid)
    for g in view["rounds"][0]["games"]:
        resign_own_games(c, tid, people[g["b"]])
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD},
                  headers=as_(c, people["Ann"]))
    assert r.status_code == 200, r.text
    direct(c)
    view = look(c, tid)
    assert "Ann" not in [p["name"] for p in view["players"]]
    gone = [p for p in view["players"] if p["name"] == "deleted player"]
    assert len(gone) == 1 and gone[0]["withdrawn"]
    later = [p for rnd in view["rounds"][1:] for g in rnd["games"] for p in (g["a"], g["b"])]
    assert "deleted player" not in later
    assert c.get("/api/teams").json()["teams"] == [{"id": team, "name": "Pegs", "members": []}]


def test_cribbage_partnerships_enter_as_teams_of_two_and_sit_opposite(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di", "Eve")}
    teams = {}
    for name, founder, partner in (("Pegs", "Ann", "Bob"), ("Holes", "Cy", "Di")):
        teams[name] = c.post("/api/teams", json={"name": name},
                             headers=as_(c, people[founder])).json()["id"]
        c.post(f"/api/teams/{teams[name]}/join", headers=as_(c, people[partner]))
    trio = c.post("/api/teams", json={"name": "Trio"}, headers=as_(c, people["Eve"])).json()["id"]
    refused = c.post("/api/tournaments", headers=as_(c, people["Ann"]), json={
        "name": "Fours", "game": "kings", "partners": True, "format": "round_robin"})
    assert refused.status_code == 400 and "Cribbage" in refused.json()["error"]
    tid = create(c, people["Ann"], format="round_robin", partners=True)
    assert join(c, tid, people["Ann"]).status_code == 400  # a partnership needs its team
    assert join(c, tid, people["Eve"], team_id=trio).status_code == 400  # one, not two
    assert join(c, tid, people["Ann"], team_id=teams["Pegs"]).status_code == 200
    again = join(c, tid, people["Bob"], team_id=teams["Pegs"])  # Ann entered them both
    assert again.status_code == 409
    assert join(c, tid, people["Di"], team_id=teams["Holes"]).status_code == 200
    direct(c)
    view = look(c, tid)
    # Each partnership: whoever entered it first, then the partner.
    assert [p["members"] for p in view["players"]] == [["Ann", "Bob"], ["Di", "Cy"]]
    game = view["rounds"][0]["games"][0]
    state = c.get(f"/api/games/{game['game_id']}").json()
    assert [s["name"] for s in state["seats"]] == ["Ann", "Di", "Bob", "Cy"]
    seats = {name: look(c, tid, people[name])["you"]["playing"][0]["seat"]
             for name in ("Ann", "Bob", "Cy", "Di")}
    assert seats == {"Ann": 0, "Di": 1, "Bob": 2, "Cy": 3}
    resign_own_games(c, tid, people["Bob"])  # Bob resigns: his side loses
    direct(c)
    view = look(c, tid)
    assert [(s["name"], s["points"]) for s in view["standings"]] == [("Holes", 1.0),
                                                                      ("Pegs", 0.0)]
    assert view["tournament"]["state"] == "finished"


# ----- limits and bans ---------------------------------------------------------------------
def test_an_account_creates_a_limited_number_of_tournaments_an_hour(db: str) -> None:
    c = in_process_client(db, rate_per_second=1e4, rate_burst=1e4, tournament_every=0,
                          tournaments_per_hour=5)
    c.base_url = httpx.URL("https://testserver")
    with c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        for _ in range(5):
            create(c, ann)
        body = {"name": "One more", "game": "classic", "format": "swiss", "rounds": 3,
                "starts_in": 0}
        r = c.post("/api/tournaments", json=body, headers=as_(c, ann))
        assert r.status_code == 429, r.text
        assert r.json()["error"] == ("you created 5 tournaments in the last hour, the most"
                                     " an account may: try again later")
        assert len(c.get("/api/tournaments").json()["upcoming"]) == 5  # nothing changed
        create(c, bob)  # another account's own allowance


def test_a_banned_account_is_withdrawn_and_refused_by_tournaments_and_teams(client) -> None:
    from kingscrib.web.chat import moderation

    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cat")}
    mo = sign_up(c, "Mo")
    engine = c.app.state.hub.store.engine
    moderation.set_moderator(engine, _id(c, mo), True)
    tid = create(c, people["Ann"], format="round_robin")
    upcoming = create(c, people["Ann"], format="round_robin", starts_in=3600)
    for s in people.values():
        assert join(c, tid, s).status_code == 200
    assert join(c, upcoming, people["Bob"]).status_code == 200
    team = c.post("/api/teams", json={"name": "Bobcats"}, headers=as_(c, people["Bob"]))
    assert team.status_code == 201, team.text
    direct(c)  # round 1 of three entrants: one of them has the bye
    r = c.post("/api/moderation/bans", json={"name": "Bob", "reason": "farming ratings"},
               headers=as_(c, mo))
    assert r.status_code == 201, r.text
    assert sorted(r.json()["withdrawn_from"]) == sorted([tid, upcoming])
    assert [p["name"] for p in look(c, upcoming)["players"]] == []
    # Bob is never paired again, nor given a bye.
    for _ in range(4):
        for s in (people["Ann"], people["Cat"]):
            resign_own_games(c, tid, s)
        direct(c)
    rounds = look(c, tid)["rounds"]
    later = rounds[1:]
    assert later and all(rnd["bye"] != "Bob" for rnd in later)
    assert all("Bob" not in (g["a"], g["b"]) for rnd in later for g in rnd["games"])
    # Every write of tournaments and teams is refused, with why.
    for path, body in (("/api/tournaments", {"name": "X", "game": "classic",
                                             "format": "swiss", "rounds": 3, "starts_in": 0}),
                       (f"/api/tournaments/{upcoming}/join", None),
                       ("/api/teams", {"name": "Again"})):
        r = c.post(path, json=body, headers=as_(c, people["Bob"]))
        assert r.status_code == 403, r.text
        assert "banned by the moderators" in r.json()["error"]
    # The banned name is reserved: no guest plays under it, in any case.
    as_(c, None)
    r = c.post("/api/games", json={"seats": [{"name": "bob"}, {}]})
    assert r.status_code == 403, r.text
    assert r.json()["error"] == ("the name 'bob' belongs to an account banned by the"
                                 " moderators: choose another name")
    created = c.post("/api/games", json={"seats": [{"name": "Gus"}, {}]}).json()
    r = c.post(f"/api/games/{created['game_id']}/join",
               json={"invite": created["invite"], "name": "BOB"})
    assert r.status_code == 403 and "banned" in r.json()["error"], r.text
    r = c.post("/api/lobby/seeks", json={"name": "Bob"},
               headers={"X-Lobby-Visitor": "v" * 20})
    assert r.status_code == 403 and "banned" in r.json()["error"], r.text


def test_tournament_seat_tokens_are_kept_hashed_and_seats_taken_by_session(client) -> None:
    from sqlalchemy import inspect, select

    from kingscrib.web.db.storage import hash_secret
    from kingscrib.web.db.tables import seats

    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cat")}
    tid = create(c, people["Ann"], format="round_robin")
    for s in people.values():
        join(c, tid, s)
    direct(c)
    engine = c.app.state.hub.store.engine
    columns = {col["name"] for col in inspect(engine).get_columns("tournament_games")}
    assert not columns & {"token_a", "token_b", "token_a2", "token_b2"}
    paired = look(c, tid)["rounds"][0]
    player, outsider = people[paired["games"][0]["a"]], people[paired["bye"]]
    mine = look(c, tid, player)["you"]["playing"][0]
    assert set(mine) == {"game_id", "seat"}  # the page hands no token
    game = mine["game_id"]
    first = seat_token(c, player, game)
    with engine.connect() as conn:
        stored = conn.execute(select(seats.c.token_hash).where(
            seats.c.game_id == game, seats.c.seat == mine["seat"])).scalar_one()
    assert stored == hash_secret(first)  # the game keeps its hash only
    second = seat_token(c, player, game)  # another browser of the player's: a new token
    as_(c, player)
    assert c.get(f"/api/games/{game}", headers=auth(second)).json()["you"] == mine["seat"]
    r = c.get(f"/api/games/{game}", headers=auth(first))
    assert r.status_code == 401, r.text  # the older token opens nothing any more
    # Nobody else takes it: a logged-out browser, an account with no seat of the game.
    as_(c, None)
    assert c.post(f"/api/games/{game}/seat").status_code == 401
    r = c.post(f"/api/games/{game}/seat", headers=as_(c, outsider))
    assert r.status_code == 404, r.text


def _ban(c: Any, name: str) -> None:
    from kingscrib.web.chat import moderation

    mo = sign_up(c, "Mo")
    moderation.set_moderator(c.app.state.hub.store.engine, _id(c, mo), True)
    r = c.post("/api/moderation/bans", json={"name": name, "reason": "abuse"},
               headers=as_(c, mo))
    assert r.status_code == 201, r.text


def test_a_deleted_banned_accounts_name_stays_reserved(client) -> None:
    c = client
    bob = sign_up(c, "Bob")
    _ban(c, "Bob")
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=as_(c, bob))
    assert r.status_code == 200, r.text
    # Neither the name nor one that reads as it (a Cyrillic o, a zero) is free again.
    for name in ("Bob", "BOB", "B\u043eb", "B0b"):
        c.cookies.clear()
        r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 409, (name, r.text)
        assert "banned by the moderators" in r.json()["error"]
        r = c.post("/api/games", json={"seats": [{"name": name}, {}]})
        assert r.status_code == 403 and "banned" in r.json()["error"], (name, r.text)
    sign_up(c, "Bobby")  # another name is free


def test_a_banned_account_plays_no_guest_seat_from_its_session(client) -> None:
    c = client
    bob = sign_up(c, "Bob")
    as_(c, None)  # a guest game whose seat token Bob's browser keeps
    created = c.post("/api/games", json={"seats": [{"name": "Gus"}, {"kind": "computer", "level": "random"}]})
    assert created.status_code == 201, created.text
    game, token = created.json()["game_id"], created.json()["token"]
    as_(c, bob)
    assert c.get(f"/api/games/{game}", headers=auth(token)).status_code == 200
    _ban(c, "Bob")
    before = c.get(f"/api/games/{game}").json()["version"]
    as_(c, bob)
    r = c.post(f"/api/games/{game}/resign", headers=auth(token))
    assert r.status_code == 403, r.text
    assert r.json()["error"] == "this account is banned by the moderators: it cannot play"
    as_(c, None)
    state = c.get(f"/api/games/{game}").json()
    assert state["result"] is None and state["version"] == before  # nothing changed


def _id(c: Any, session: str) -> int:
    as_(c, session)
    return c.get("/api/account").json()["id"]


def test_a_tournament_takes_a_limited_number_of_computers(client) -> None:
    c = client
    ann = sign_up(c, "Ann")
    tid = create(c, ann, format="round_robin", max_players=64)
    for _ in range(store.MAX_COMPUTERS):
        r = c.post(f"/api/tournaments/{tid}/computers", json={"level": "easy"},
                   headers=as_(c, ann))
        assert r.status_code == 200, r.text
    r = c.post(f"/api/tournaments/{tid}/computers", json={"level": "easy"},
               headers=as_(c, ann))
    assert r.status_code == 409, r.text
    assert r.json()["error"] == (f"this tournament has {store.MAX_COMPUTERS} computers, the"
                                 " most one may have")
    assert sum(p["computer"] for p in look(c, tid)["players"]) == store.MAX_COMPUTERS
    assert join(c, tid, ann).status_code == 200  # people still join


def test_a_tournament_of_computers_stays_within_its_creators_computer_games(db: str) -> None:
    """The issue: a tournament of computers ran 56 computer-only games at once for one
    account. They count in the computer-games limit: past it a pairing waits."""
    c = in_process_client(db, rate_per_second=1e4, rate_burst=1e4, tournament_every=0,
                          computer_games=1, computer_moves_per_second=0.5)
    c.base_url = httpx.URL("https://testserver")
    with c:
        ann = sign_up(c, "Ann")
        tid = create(c, ann, format="round_robin")
        for _ in range(4):
            r = c.post(f"/api/tournaments/{tid}/computers", json={"level": "easy"},
                       headers=as_(c, ann))
            assert r.status_code == 200, r.text
        direct(c)
        games = look(c, tid)["rounds"][0]["games"]
        assert len(games) == 2  # two pairings in round 1, one game made: the limit is 1
        assert sum(g["game_id"] is not None for g in games) == 1


def test_computers_entered_at_once_on_postgresql_stop_at_the_limit(postgres_url  # noqa: F811
                                                                   ) -> None:
    """Computers entered at once through their own connections (as several server
    processes would): the tournament's row lock lets no more in than the limit."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from sqlalchemy import create_engine

    from kingscrib.web.db.storage import postgres_driver

    with client_on(postgres_url) as c:
        tid = create(c, sign_up(c, "Maker"), format="round_robin",
                     max_players=64, starts_in=3600)
    engines = [create_engine(postgres_driver(postgres_url)) for _ in range(4)]
    start = Barrier(2 * store.MAX_COMPUTERS)

    def enter(i: int) -> bool:
        start.wait()
        try:
            store.add_entrant(engines[i % len(engines)], tid, f"Computer {i}", None,
                              "random", None)
        except store.Refused as e:
            assert e.status == 409, e.message
            return False
        return True

    try:
        with ThreadPoolExecutor(2 * store.MAX_COMPUTERS) as pool:
            entered = sum(pool.map(enter, range(2 * store.MAX_COMPUTERS)))
        assert entered == store.MAX_COMPUTERS
        assert len(store.entrants(engines[0], tid)) == store.MAX_COMPUTERS
    finally:
        for engine in engines:
            engine.dispose()


def test_a_tied_team_match_says_so(client) -> None:
    c = client
    people = {n: sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Di")}
    pegs = c.post("/api/teams", json={"name": "Pegs"}, headers=as_(c, people["Ann"])).json()["id"]
    holes = c.post("/api/teams", json={"name": "Holes"}, headers=as_(c, people["Cy"])).json()["id"]
    assert c.post(f"/api/teams/{pegs}/join", headers=as_(c, people["Bob"])).status_code == 200
    assert c.post(f"/api/teams/{holes}/join", headers=as_(c, people["Di"])).status_code == 200
    tid = create(c, people["Ann"], format="match", team_a=pegs, team_b=holes, team_best=2)
    direct(c)
    first, second = look(c, tid)["rounds"][0]["games"]
    resign_own_games(c, tid, people[first["b"]])  # one game each way: 1-1
    resign_own_games(c, tid, people[second["a"]])
    direct(c)
    view = look(c, tid)
    assert view["tournament"]["state"] == "finished"
    assert sorted((t["team"], t["points"], t["place"], t["tied"]) for t in view["teams"]) == \
        [("Holes", 1.0, 1, True), ("Pegs", 1.0, 1, True)]
