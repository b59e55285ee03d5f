"""Rated games over the API (docs/web.md, "Ratings"): a rated game needs accounts, its
end moves the ratings once as Glicko-2 (two players) or Plackett-Luce (more, partners)
says, computers play at their fixed ratings; leaderboards, profiles and the archive;
a deleted account's games stay; bad input gets a clear error."""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import auth, https_client

from kingscrib.web.accounts import sessions
from kingscrib.web.ratings import store as ratings
from kingscrib.web.ratings.maths import Rating, glicko2_period, rate
from kingscrib.web.ratings.store import level_rating

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PASSWORD = "correct horse battery"


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    with https_client(f"sqlite:///{tmp_path / 'web.sqlite3'}", rate_per_second=1e4,
                      rate_burst=1e4) as c:
        yield c


def sign_up(c: Any, name: str) -> str:
    c.cookies.clear()
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return r.cookies[sessions.COOKIE]


def as_(c: Any, session: str | None) -> None:
    c.cookies.clear()
    if session:
        c.cookies.set(sessions.COOKIE, session)


def rated_game(c: Any, game: str, people: dict[str, str], computers: list[str] = (),
               **extra: Any) -> tuple[str, dict[int, str]]:
    """A rated game: the first person creates it, the others join; computers last."""
    names = list(people)
    seats = [{"name": n} for n in names] + [{"kind": "computer", "level": lv}
                                            for lv in computers]
    as_(c, people[names[0]])
    r = c.post("/api/games", json={"game": game, "seats": seats, "rated": True, "seed": 3,
                                   **extra})
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["state"]["rated"] is True
    tokens = {0: created["token"]}
    for seat, name in enumerate(names[1:], start=1):
        as_(c, people[name])
        j = c.post(f"/api/games/{created['game_id']}/join",
                   json={"invite": created["invite"], "seat": seat, "name": name})
        assert j.status_code == 200, j.text
        tokens[seat] = j.json()["token"]
    return created["game_id"], tokens


def first_moves(c: Any, game_id: str, tokens: dict[int, str], people: dict[str, str]
                ) -> None:
    """Every side makes a move (Kings: a pass; Cribbage: the discards), computers at
    their turns: a rated game ended before that is aborted, unrated."""
    sessions_ = list(people.values())
    state = c.get(f"/api/games/{game_id}").json()
    for _ in range(len(state["seats"])):
        for _ in range(500):
            state = c.get(f"/api/games/{game_id}").json()
            kings = state.get("game", "kings") == "kings"
            waiting = [state["turn"]] if kings else state["waiting"]
            humans = [s for s in waiting if s is not None and s < len(sessions_)]
            if humans:
                break
            time.sleep(0.01)  # a computer is moving
        seat = humans[0]
        as_(c, sessions_[seat])
        mine = c.get(f"/api/games/{game_id}", headers=auth(tokens[seat])).json()
        body = ({"action": "pass"} if kings else
                {"action": "discard", "cards": mine["hand"][:mine["can"]["discard"]]})
        r = c.post(f"/api/games/{game_id}/actions", json=body, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text


def rating(c: Any, name: str, game: str) -> dict[str, Any]:
    r = c.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    return r.json()["games"][game]


def test_a_rated_cribbage_game_played_out_moves_both_ratings_as_glicko2_says(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "classic", people)
    as_(client, people["Ann"])
    record = None
    # Each seat acts under its own account's session (an account's seat needs it).
    for _ in range(3000):
        state = client.get(f"/api/games/{game_id}").json()
        if state["over"]:
            record = client.get(f"/api/games/{game_id}/record").json()
            break
        seat = state["waiting"][0]
        as_(client, people["Ann" if seat == 0 else "Bob"])
        mine = client.get(f"/api/games/{game_id}", headers=auth(tokens[seat])).json()
        can = mine["can"]
        body = ({"action": "discard", "cards": mine["hand"][:can["discard"]]}
                if can["discard"] else {"action": "play", "card": can["play"][0]}
                if can["play"] else {"action": "go"})
        r = client.post(f"/api/games/{game_id}/actions", json=body, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    assert record is not None
    winner = "Ann" if state["scores"][0] > state["scores"][1] else "Bob"
    loser = "Bob" if winner == "Ann" else "Ann"
    won, lost = glicko2_period(Rating(), [(Rating(), 1.0)]), glicko2_period(Rating(),
                                                                            [(Rating(), 0.0)])
    as_(client, None)
    for name, expected, outcome in ((winner, won, "won"), (loser, lost, "lost")):
        mine = rating(client, name, "cribbage")
        assert mine["rating"] == round(expected.rating)
        assert mine["deviation"] == round(expected.deviation)
        assert mine["played"] == 1 and mine[outcome] == 1 and mine["provisional"]
        assert [h["game_id"] for h in mine["history"]] == [game_id]
        assert rating(client, name, "kings")["played"] == 0
    board = client.get("/api/ratings/classic").json()  # the older name still reads
    assert board["game"] == "cribbage" and board == client.get("/api/ratings/cribbage").json()
    assert [p["name"] for p in board["players"]] == [winner, loser]
    assert board["players"][0]["rating"] == round(won.rating)
    assert all(p["provisional"] for p in board["players"])


def test_a_rated_kings_game_played_out(client) -> None:
    """Both pass until the game ends scoreless: the tiles left on the racks decide."""
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    for _ in range(40):
        state = client.get(f"/api/games/{game_id}").json()
        if state["over"]:
            break
        seat = state["turn"]
        as_(client, people["Ann" if seat == 0 else "Bob"])
        r = client.post(f"/api/games/{game_id}/actions", json={"action": "pass"},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    assert state["end"]["reason"] == "scoreless"
    record = client.get(f"/api/games/{game_id}/record").json()
    from kingscrib.kings.record import check_record

    final = check_record(record).final_scores
    points = 0.5 if final[0] == final[1] else float(final[0] > final[1])
    for seat, name in enumerate(people):
        score = points if seat == 0 else 1 - points
        expected = glicko2_period(Rating(), [(Rating(), score)])
        mine = rating(client, name, "kings")
        assert mine["rating"] == round(expected.rating)
        assert mine["deviation"] == round(expected.deviation)
        outcome = {1.0: "won", 0.5: "drawn", 0.0: "lost"}[score]
        assert mine[outcome] == mine["played"] == 1


def test_a_computer_plays_at_its_fixed_rating_and_does_not_move(client) -> None:
    ann = sign_up(client, "Ann")
    game_id, tokens = rated_game(client, "kings", {"Ann": ann}, computers=["hard"])
    first_moves(client, game_id, tokens, {"Ann": ann})
    as_(client, ann)
    r = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    expected = glicko2_period(Rating(), [(level_rating("kings", "hard"), 0.0)])
    mine = rating(client, "Ann", "kings")
    assert mine["rating"] == round(expected.rating) and mine["lost"] == 1
    assert level_rating("kings", "hard").rating != 1500  # a calibrated level
    [recent] = client.get("/api/players/Ann").json()["recent"]
    assert recent["players"][1] == {"name": "Strong", "computer": True, "level": "hard",
                                   "account": False, "side": 1}


def test_a_games_rating_changes_for_its_end_box(client) -> None:
    """GET /api/games/{id}/ratings: pending while a rated game is on, then each seat's
    rating before and after (a computer's fixed); casual and unrated games say so."""
    import json

    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    assert client.get(f"/api/games/{game_id}/ratings").json() == {
        "game_id": game_id, "status": "pending", "seats": []}
    as_(client, people["Bob"])
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).status_code == 200
    won = glicko2_period(Rating(), [(Rating(), 1.0)])
    lost = glicko2_period(Rating(), [(Rating(), 0.0)])
    assert client.get(f"/api/games/{game_id}/ratings").json() == {
        "game_id": game_id, "status": "rated", "seats": [
            {"seat": 0, "name": "Ann", "computer": False, "previous": 1500,
             "rating": round(won.rating), "change": round(won.rating) - 1500},
            {"seat": 1, "name": "Bob", "computer": False, "previous": 1500,
             "rating": round(lost.rating), "change": round(lost.rating) - 1500}]}
    assert round(won.rating) - 1500 > 0 > round(lost.rating) - 1500

    # Against a computer: its published rating, which does not move.
    cat = sign_up(client, "Cat")
    game_id, tokens = rated_game(client, "kings", {"Cat": cat}, computers=["hard"])
    first_moves(client, game_id, tokens, {"Cat": cat})
    as_(client, cat)
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0])).status_code == 200
    published = json.loads(ratings.LEVEL_RATINGS.read_text())["kings"]["hard"]["rating"]
    seats = client.get(f"/api/games/{game_id}/ratings").json()["seats"]
    assert seats[1] == {"seat": 1, "name": "Strong", "computer": True,
                        "previous": round(published), "rating": round(published), "change": 0}
    assert seats[0]["name"] == "Cat" and seats[0]["change"] < 0

    # Resigned before every side moved: over, unrated. A casual game, and no game.
    game_id, tokens = rated_game(client, "kings", {"Cat": cat}, computers=["hard"])
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0])).status_code == 200
    assert client.get(f"/api/games/{game_id}/ratings").json()["status"] == "unrated"
    casual = client.post("/api/games", json={"seats": [{"name": "Cat"}, {"kind": "computer",
                                                                         "level": "hard"}]}).json()
    assert client.get(f"/api/games/{casual['game_id']}/ratings").json() == {
        "game_id": casual["game_id"], "status": "casual", "seats": []}
    r = client.get("/api/games/nosuchgame/ratings")
    assert r.status_code == 404 and "no game 'nosuchgame'" in r.json()["error"]


def test_a_rating_left_idle_grows_uncertain_and_the_next_game_starts_from_there(
        client) -> None:
    from sqlalchemy import update

    from kingscrib.web.ratings.maths import PERIOD, aged

    ann = sign_up(client, "Ann")
    for _ in range(2):
        game_id, tokens = rated_game(client, "kings", {"Ann": ann}, computers=["hard"])
        first_moves(client, game_id, tokens, {"Ann": ann})
        as_(client, ann)
        assert client.post(f"/api/games/{game_id}/resign",
                           headers=auth(tokens[0])).status_code == 200
    stored = rating(client, "Ann", "kings")
    assert stored["deviation"] < 300 and stored["played"] == 2
    engine = client.app.state.hub.store.engine
    with engine.begin() as conn:  # her last rated game, 200 days ago
        row = conn.execute(ratings.ratings.select()).one()
        conn.execute(update(ratings.ratings).values(updated=row.updated - 200 * PERIOD))
    held = Rating(row.rating, row.deviation, row.volatility)
    idle = aged(held, 200 * PERIOD)
    # Glicko-2 for 200 periods without games, worked out here: phi^2 + 200 sigma^2.
    widened = (row.deviation ** 2 + 200 * (row.volatility * 173.7178) ** 2) ** 0.5
    assert idle.deviation == pytest.approx(min(350.0, widened))
    assert idle.rating == row.rating and idle.deviation > row.deviation
    shown = rating(client, "Ann", "kings")
    assert shown["deviation"] == round(idle.deviation) and shown["rating"] == round(row.rating)
    [listed] = client.get("/api/ratings/kings").json()["players"]
    assert listed["deviation"] == round(idle.deviation) and listed["provisional"]
    game_id, tokens = rated_game(client, "kings", {"Ann": ann}, computers=["hard"])
    first_moves(client, game_id, tokens, {"Ann": ann})
    as_(client, ann)
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0])).status_code == 200
    expected = glicko2_period(idle, [(level_rating("kings", "hard"), 0.0)])
    after = rating(client, "Ann", "kings")
    assert after["rating"] == round(expected.rating)
    assert after["deviation"] == round(max(45.0, expected.deviation))


def test_three_players_are_rated_by_plackett_luce(client) -> None:
    people = {n: sign_up(client, n) for n in ("Ann", "Bob", "Cat")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).status_code \
        == 200
    # Nobody scored: Ann and Cat share first place, Bob (resigned) is last.
    expected = rate([[Rating()], [Rating()], [Rating()]], [0, 2, 0])
    for seat, name in enumerate(people):
        assert rating(client, name, "kings")["rating"] == round(expected[seat][0].rating)
    assert rating(client, "Bob", "kings")["lost"] == 1
    assert rating(client, "Ann", "kings")["drawn"] == 1


def test_a_game_is_rated_once_however_often_it_is_settled(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])
    client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    before = rating(client, "Ann", "kings")
    engine = client.app.state.hub.store.engine
    standing = [{"seats": [0], "place": 0, "score": 0}, {"seats": [1], "place": 1, "score": 0}]
    assert ratings.settle(engine, game_id, "kings", True, standing) is False
    assert rating(client, "Ann", "kings") == before


def test_rated_games_need_accounts(client) -> None:
    as_(client, None)
    r = client.post("/api/games", json={"seats": [{"name": "Gus"}, {}], "rated": True})
    assert r.status_code == 403 and "log in" in r.json()["error"]
    ann = sign_up(client, "Ann")
    as_(client, ann)
    created = client.post("/api/games", json={"seats": [{"name": "Ann"}, {}],
                                              "rated": True}).json()
    as_(client, None)
    j = client.post(f"/api/games/{created['game_id']}/join",
                    json={"invite": created["invite"], "name": "Gus"})
    assert j.status_code == 403 and "rated game" in j.json()["error"]
    state = client.get(f"/api/games/{created['game_id']}").json()
    assert state["seats"][1]["name"] != "Gus"  # nothing changed: the seat is still open
    unrated = client.post("/api/games", json={"seats": [{"name": "Gus"}, {}]}).json()
    assert unrated["state"]["rated"] is False


def test_a_deleted_players_games_stay_under_deleted_player(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])
    client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    csrf = client.get("/api/account").json()["csrf"]
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD},
                       headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    as_(client, None)
    assert client.get("/api/players/Bob").status_code == 404
    [game] = client.get("/api/players/Ann/games").json()["games"]
    assert game["game_id"] == game_id and game["result"] == "won"
    assert game["players"][1]["name"] == "deleted player"
    assert [p["name"] for p in client.get("/api/ratings/kings").json()["players"]] == ["Ann"]


def test_the_archive_searches_by_opponent_game_result_and_dates(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    kings, k_tokens = rated_game(client, "kings", people)
    as_(client, people["Bob"])
    client.post(f"/api/games/{kings}/resign", headers=auth(k_tokens[1]))
    as_(client, people["Ann"])
    created = client.post("/api/games", json={"game": "classic", "seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "easy"}]}).json()
    client.post(f"/api/games/{created['game_id']}/resign", headers=auth(created["token"]))
    as_(client, None)

    def ids(**query: str) -> list[str]:
        r = client.get("/api/players/ann/games", params=query)
        assert r.status_code == 200, r.text
        return [g["game_id"] for g in r.json()["games"]]

    today = datetime.datetime.now(datetime.UTC).date()
    assert ids() == [created["game_id"], kings]
    assert ids(opponent="bo") == [kings]
    assert ids(opponent="beginner") == [created["game_id"]]  # a level by its title
    assert ids(game="classic") == [created["game_id"]]
    assert ids(result="won") == [kings] and ids(result="lost") == [created["game_id"]]
    assert ids(since=str(today), until=str(today)) == [created["game_id"], kings]
    assert ids(until=str(today - datetime.timedelta(days=1))) == []
    unrated = [g for g in client.get("/api/players/Ann/games").json()["games"]
               if g["game_id"] == created["game_id"]]
    assert unrated[0]["rated"] is False and unrated[0]["change"] is None
    assert rating(client, "Ann", "cribbage")["rating"] is None  # unrated games move nothing


@pytest.mark.parametrize("path,status,words", [
    ("/api/players/Nobody", 404, "no player is named 'Nobody'"),
    ("/api/players/Nobody/games", 404, "no player is named"),
    ("/api/players/Ann/games?since=yesterday", 400, "YYYY-MM-DD"),
    ("/api/players/Ann/games?until=2026-13-01", 400, "not a date"),
    ("/api/players/Ann/games?since=2026-05-02&until=2026-05-01", 400, "since comes after"),
    ("/api/players/Ann/games?result=lose", 400, "won, lost, drawn"),
    ("/api/players/Ann/games?game=chess", 404, "choose from kings, cribbage"),
    ("/api/players/Ann/games?page=0", 422, "page"),
    ("/api/players/Ann/games?since=0000-01-01", 400, "not a date"),
    ("/api/players/Ann/games?until=9999-12-31", 200, ""),
    ("/api/ratings/chess", 404, "no ratings for the game 'chess'"),
])
def test_bad_requests_get_clear_errors(client, path: str, status: int, words: str) -> None:
    sign_up(client, "Ann")
    r = client.get(path)
    assert r.status_code == status, r.text
    assert words in r.json().get("error", "")


# ----- two processes on one PostgreSQL ----------------------------------------------------
def _settle_all(url: str, game_ids: list[str], seed: int, start: Any, out: Any) -> None:
    """One server process's share: settle every game (in its own order) once started."""
    import random

    from kingscrib.web.db.storage import Store

    store = Store(url)
    order = list(game_ids)
    random.Random(seed).shuffle(order)
    won = [{"seats": [0], "place": 0, "score": 10}, {"seats": [1], "place": 1, "score": 5}]
    start.wait()
    out.put(sum(ratings.settle(store.engine, g, "kings", True, won) for g in order))
    store.close()


def test_two_processes_rate_each_game_exactly_once_on_postgresql(
        postgres_url: str) -> None:
    import multiprocessing

    from sqlalchemy import func, insert, select, update
    from web_support import fresh_database

    from kingscrib.web.accounts import store as accounts
    from kingscrib.web.db.storage import Store, StoredSeat
    from kingscrib.web.db.tables import games, seat_accounts

    url = fresh_database(postgres_url, "ratings_once")
    store = Store(url)
    ann = accounts.create(store.engine, "Ann", "x")
    bob = accounts.create(store.engine, "Bob", "x")
    ids = []
    for i in range(12):  # finished rated games Ann won, their outcome not yet recorded
        game_id = f"g{i}"
        store.create_game(game_id, {}, i, "h", [StoredSeat(0, "Ann", "human", None, "a"),
                                                 StoredSeat(1, "Bob", "human", None, "b")],
                          rated=True)
        with store.engine.begin() as conn:
            conn.execute(insert(seat_accounts), [
                {"game_id": game_id, "seat": 0, "account_id": ann.id},
                {"game_id": game_id, "seat": 1, "account_id": bob.id}])
            conn.execute(update(games).where(games.c.id == game_id).values(over=True))
        ids.append(game_id)
    context = multiprocessing.get_context("fork")
    start, out = context.Event(), context.Queue()
    workers = [context.Process(target=_settle_all, args=(url, ids, seed, start, out))
               for seed in (1, 2)]
    for w in workers:
        w.start()
    start.set()
    counts = [out.get(timeout=120) for _ in workers]
    for w in workers:
        w.join(30)
    assert sum(counts) == len(ids)  # each game settled by one process, never both
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ratings.rated_games)
                            ).scalar_one() == len(ids)
        assert conn.execute(select(func.count()).select_from(ratings.rating_history)
                            ).scalar_one() == 2 * len(ids)
    # No update lost: the same as the twelve wins applied one after the other.
    a, b = Rating(), Rating()
    for _ in ids:
        [[a], [b]] = rate([[a], [b]], [0, 1])
    assert ratings.rating_of(store.engine, ann.id, "kings") == pytest.approx(a.rating)
    assert ratings.rating_of(store.engine, bob.id, "kings") == pytest.approx(b.rating)
    store.close()


def test_a_game_whose_rating_failed_is_rated_by_the_housekeeping(client, monkeypatch) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    real = ratings.settle

    def failing(*args: Any) -> bool:
        raise RuntimeError("the process stopped here")

    monkeypatch.setattr(ratings, "settle", failing)
    as_(client, people["Bob"])
    r = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    assert r.status_code == 200, r.text  # the game ended all the same
    assert rating(client, "Ann", "kings")["played"] == 0
    monkeypatch.setattr(ratings, "settle", real)
    hub = client.app.state.hub
    assert client.portal.call(hub.settle_missed, 0.0) == 1
    assert rating(client, "Ann", "kings")["rating"] == round(
        glicko2_period(Rating(), [(Rating(), 1.0)]).rating)
    assert client.portal.call(hub.settle_missed, 0.0) == 0  # done: not found again


def test_profiles_and_archives_hold_nothing_hidden(client) -> None:
    """No rack, hand, crib or bag in any of it: only names, places, scores, ratings."""
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "classic", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])
    client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    as_(client, None)

    def keys(data: Any) -> set[str]:
        if isinstance(data, dict):
            return set(data) | {k for v in data.values() for k in keys(v)}
        if isinstance(data, list):
            return {k for v in data for k in keys(v)}
        return set()

    seen = set()
    for path in ("/api/players/Ann", "/api/players/Ann/games", "/api/ratings/classic"):
        seen |= keys(client.get(path).json())
    assert not seen & {"rack", "racks", "hand", "hands", "crib", "bag", "deck", "cards",
                       "tiles", "turns", "seed", "token", "invite"}
    assert {"players", "result", "rating", "score"} <= seen


def test_partners_are_rated_as_a_team_by_plackett_luce(client) -> None:
    people = {n: sign_up(client, n) for n in ("Ann", "Bob", "Cat", "Dan")}
    game_id, tokens = rated_game(client, "classic", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])  # seats 0 and 2 are partners, 1 and 3 the others
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).status_code \
        == 200
    expected = rate([[Rating(), Rating()], [Rating(), Rating()]], [0, 1])
    for seat, name in enumerate(people):
        mine = rating(client, name, "cribbage")
        assert mine["rating"] == round(expected[seat % 2][seat // 2].rating)
        assert mine["won" if seat % 2 == 0 else "lost"] == 1
    assert rating(client, "Ann", "cribbage")["rating"] > 1500 > rating(client, "Dan",
                                                                       "cribbage")["rating"]


def test_a_rated_game_across_two_servers_on_postgresql(postgres_url: str,
                                                       tmp_path: Path) -> None:
    """Ann on one server process, Bob on another: Bob resigns through his; both see
    the same ratings at once, the game rated once."""
    from sqlalchemy import create_engine, func, select
    from web_support import Server, fresh_database

    from kingscrib.web.db.storage import postgres_driver

    url = fresh_database(postgres_url, "ratings_two")
    servers = [Server(url, data_dir=tmp_path,  # (both people on this machine's address)
                      extra_args=["--limit", "unrate_shared_addresses=no"]) for _ in range(2)]
    try:
        for s in servers:
            s.start()
        a, b = (s.url for s in servers)

        def account(base: str, name: str) -> dict[str, str]:
            r = httpx.post(f"{base}/api/account/signup", headers={"Origin": base},
                           json={"name": name, "password": PASSWORD})
            assert r.status_code == 201, r.text
            return {"Cookie": f"{sessions.COOKIE}={r.cookies[sessions.COOKIE]}",
                    "Origin": base}

        ann, bob = account(a, "Ann"), account(b, "Bob")
        created = httpx.post(f"{a}/api/games", headers=ann, json={
            "seats": [{"name": "Ann"}, {}], "rated": True}).json()
        game_id = created["game_id"]
        joined = httpx.post(f"{b}/api/games/{game_id}/join", headers=bob,
                            json={"invite": created["invite"], "name": "Bob"})
        assert joined.status_code == 200, joined.text
        seat_of = {0: (a, ann, created["token"]), 1: (b, bob, joined.json()["token"])}
        for _ in (0, 1):  # each moves: a game is rated once both sides have moved
            base, who, token = seat_of[httpx.get(f"{a}/api/games/{game_id}").json()["turn"]]
            moved = httpx.post(f"{base}/api/games/{game_id}/actions", json={"action": "pass"},
                               headers={**who, "Authorization": f"Bearer {token}"})
            assert moved.status_code == 200, moved.text
        r = httpx.post(f"{b}/api/games/{game_id}/resign",
                       headers={**bob, "Authorization": f"Bearer {joined.json()['token']}"})
        assert r.status_code == 200, r.text
        won = round(glicko2_period(Rating(), [(Rating(), 1.0)]).rating)
        for base in (a, b):
            board = httpx.get(f"{base}/api/ratings/kings").json()["players"]
            assert [(p["name"], p["rating"]) for p in board] == [("Ann", won),
                                                                 ("Bob", 3000 - won)]
        engine = create_engine(postgres_driver(url))
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(ratings.rated_games)
                                ).scalar_one() == 1
        engine.dispose()
    finally:
        for s in servers:
            s.stop()


def test_a_rematch_of_a_rated_game_is_rated(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    game_id, tokens = rated_game(client, "kings", people)
    first_moves(client, game_id, tokens, people)
    as_(client, people["Bob"])
    client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    seated = {}
    for seat, name in enumerate(people):
        as_(client, people[name])
        r = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        seated[name] = r.json()
    new = seated["Ann"]["game_id"]
    assert client.get(f"/api/games/{new}").json()["rated"] is True
    by_seat = sorted(people, key=lambda n: seated[n]["seat"])
    first_moves(client, new, {seated[n]["seat"]: seated[n]["token"] for n in people},
                {n: people[n] for n in by_seat})
    as_(client, people["Ann"])
    client.post(f"/api/games/{new}/resign", headers=auth(seated["Ann"]["token"]))
    for name in people:
        assert [h["game_id"] for h in rating(client, name, "kings")["history"]] == [game_id, new]


def test_the_leaderboard_lists_each_computer_level_once_weakest_first(client) -> None:
    for game, titles in (
            ("kings", ["Random", "Beginner", "Casual", "Strong", "Expert (previous)",
                       "Simulator", "Expert"]),
            ("cribbage", ["Random", "Baseline", "Beginner", "Casual", "Strong",
                          "Expert (previous)", "Expert"])):
        levels = client.get(f"/api/ratings/{game}").json()["levels"]
        assert [level["title"] for level in levels] == titles
        assert all(level["line"] for level in levels)
        shown = [level["rating"] for level in levels]
        assert shown == sorted(shown)
        # A Beginner is a step of its own under Casual in both games, not a twin of it.
        by_title = {level["title"]: level["rating"] for level in levels}
        assert by_title["Casual"] - by_title["Beginner"] >= 200, (game, by_title)


def test_the_archive_says_the_sides_partners_and_how_a_game_ended(client) -> None:
    people = {"Ann": sign_up(client, "Ann"), "Bob": sign_up(client, "Bob")}
    # Cribbage for four: Ann and the computer opposite her against Bob and another.
    as_(client, people["Ann"])
    four = client.post("/api/games", json={"game": "cribbage", "seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "easy"}, {"kind": "computer",
                                                                  "level": "hard"},
        {"name": "Bob"}]}).json()
    as_(client, people["Bob"])
    joined = client.post(f"/api/games/{four['game_id']}/join",
                         json={"invite": four["invite"], "seat": 3, "name": "Bob"}).json()
    as_(client, people["Ann"])
    r = client.post(f"/api/games/{four['game_id']}/resign", headers=auth(four["token"]))
    assert r.status_code == 200, r.text
    three = client.post("/api/games", json={"seats": [
        {"name": "Ann"}, {"kind": "computer", "level": "easy"},
        {"kind": "computer", "level": "medium"}]}).json()
    client.post(f"/api/games/{three['game_id']}/resign", headers=auth(three["token"]))
    assert joined["token"]
    as_(client, None)
    games = {g["game_id"]: g for g in client.get("/api/players/ann/games").json()["games"]}
    partners = games[four["game_id"]]
    assert partners["sides"] == 2 and partners["ended_by"] == "resigned"
    assert [p["side"] for p in partners["players"]] == [0, 1, 0, 1]
    assert [p["account"] for p in partners["players"]] == [True, False, False, True]
    alone = games[three["game_id"]]
    assert alone["sides"] == 3 and alone["ended_by"] == "resigned"
    assert [p["side"] for p in alone["players"]] == [0, 1, 2]
