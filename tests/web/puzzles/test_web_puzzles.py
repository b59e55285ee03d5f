"""Puzzles over HTTP (docs/web.md, "Puzzles"): answers judged on the server, ratings that
move the right way (stored for accounts, returned to guests and never trusted), the
daily puzzle, the choice near a rating, and bad input refused with nothing changed."""

from __future__ import annotations

import datetime
import hashlib
from pathlib import Path
from typing import Any

import pytest
from web_support import PASSWORD, csrf, https_client, postgres_cluster, signup, table_rows

from kingscrib.kings.moves import Exchange, Play
from kingscrib.kings.position import Position
from kingscrib.puzzles import kings
from kingscrib.puzzles.puzzle import Puzzle, shipped
from kingscrib.web.puzzles import routes as puzzles_router
from kingscrib.web.puzzles.store import puzzle_answers, puzzle_players
from kingscrib.web.puzzles.store import puzzle_ratings as puzzle_ratings_table
from kingscrib.web.ratings import puzzle_ratings as ratings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
HIDDEN = ("answer", "margin", "breakdown", "second", "theme", "top_now")


@pytest.fixture()
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"
def move_of(p: Puzzle, text: str) -> dict[str, Any]:
    """The game's own action for an answer written in the game's notation."""
    if p.game == "cribbage":
        cards = text.split()
        return ({"action": "discard", "cards": cards} if p.kind == "best-discard"
                else {"action": "play", "card": cards[0]})
    action = kings.read_answer(Position.from_json(p.position), text)
    if isinstance(action, Play):
        return {"action": "play", "tiles": action.tiles_json()}
    if isinstance(action, Exchange):
        return {"action": "exchange", "tiles": [str(t) for t in action.tiles]}
    return {"action": "pass"}


def wrong_text(p: Puzzle) -> str:
    if p.game == "kings":
        return p.second["move"]
    return " ".join(p.second["discard"] if p.kind == "best-discard" else p.second["cards"][:1])


def kings_puzzle() -> Puzzle:
    return shipped("kings")[0]


def discard_puzzle() -> Puzzle:
    return next(p for p in shipped("cribbage") if p.kind == "best-discard")


def card_puzzle() -> Puzzle:
    return next(p for p in shipped("cribbage") if p.kind == "best-card")


def answer(c: Any, p: Puzzle, move: dict[str, Any], **extra: Any) -> Any:
    return c.post(f"/api/puzzles/{p.id}/answer", json={"answer": move, **extra},
                  headers=extra.pop("headers", None) or {})


@pytest.mark.parametrize("which", [kings_puzzle, discard_puzzle, card_puzzle])
def test_right_and_wrong_answers_move_a_guests_rating_up_and_down(url, which):
    p = which()
    with https_client(url) as c:
        right = answer(c, p, move_of(p, p.answer))
        assert right.status_code == 200, right.text
        got = right.json()
        assert got["right"] is True and got["answer"] == p.answer
        assert got["lines"][0].startswith("Best: ")
        assert got["standing"]["rating"] > ratings.START
        assert got["standing"]["streak"] == 1 and got["standing"]["solved"] == 1
        wrong = answer(c, p, move_of(p, wrong_text(p)), guest=got["standing"])
        assert wrong.status_code == 200, wrong.text
        after = wrong.json()
        assert after["right"] is False
        assert any("gave up" in line for line in after["lines"]), after["lines"]
        assert after["standing"]["rating"] < got["standing"]["rating"]
        assert after["standing"]["streak"] == 0 and after["standing"]["best_streak"] == 1
        assert after["standing"]["tried"] == 2
        assert after["best"] == move_of(p, p.answer)
    assert table_rows(url, puzzle_ratings_table) == []  # guests move no stored rating


def test_the_page_never_receives_the_answer_before_answering(url):
    with https_client(url) as c:
        for p in (kings_puzzle(), discard_puzzle(), card_puzzle()):
            shown = c.get(f"/api/puzzles/{p.id}").json()["puzzle"]
            assert shown["position"] == p.position
            assert not set(HIDDEN) & set(shown)
        for game in ("kings", "cribbage"):
            for path in ("/api/puzzles/next", "/api/puzzles/daily"):
                shown = c.get(path, params={"game": game}).json()["puzzle"]
                assert not set(HIDDEN) & set(shown)


def test_an_accounts_rating_is_stored_and_only_a_first_answer_counts(url):
    p, q = kings_puzzle(), discard_puzzle()
    with https_client(url) as c:
        signup(c)
        headers = csrf(c)
        # a guest rating sent by a logged-in player is ignored: the stored one is used
        r = c.post(f"/api/puzzles/{p.id}/answer", headers=headers, json={
            "answer": move_of(p, p.answer), "guest": {"rating": 4000, "rd": 30}})
        assert r.status_code == 200, r.text
        first = r.json()
        assert first["rated"] and first["before"]["rating"] == ratings.START
        assert first["standing"]["rating"] > ratings.START
        me = c.get("/api/puzzles/me", params={"game": "kings"}).json()
        assert me["standing"] == first["standing"]
        prior = ratings.priors("kings")[p.id].rating
        stored = {r.puzzle_id: r for r in table_rows(url, puzzle_ratings_table)}
        assert stored[p.id].rating < prior  # solved: the puzzle looks easier
        again = c.post(f"/api/puzzles/{p.id}/answer", headers=headers,
                       json={"answer": move_of(p, wrong_text(p))}).json()
        assert again["right"] is False and again["rated"] is False
        assert again["standing"] == first["standing"]
        failed = c.post(f"/api/puzzles/{q.id}/answer", headers=headers,
                        json={"answer": move_of(q, wrong_text(q))}).json()
        assert failed["rated"] and failed["right"] is False
        stored = {r.puzzle_id: r for r in table_rows(url, puzzle_ratings_table)}
        assert stored[q.id].rating > ratings.priors("cribbage")[q.id].rating
        assert c.get("/api/puzzles/me", params={"game": "cribbage"}).json()[
            "standing"]["rating"] < ratings.START
        # an answered puzzle is not served to the account again
        skip = {r.puzzle_id for r in table_rows(url, puzzle_answers)}
        for _ in range(10):
            assert c.get("/api/puzzles/next", params={"game": "kings"}).json()[
                "puzzle"]["id"] not in skip


def test_an_accounts_answer_needs_the_csrf_token(url):
    p = kings_puzzle()
    with https_client(url) as c:
        signup(c)
        r = answer(c, p, move_of(p, p.answer))
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
        r = c.post(f"/api/puzzles/{p.id}/answer", json={"answer": move_of(p, p.answer)},
                   headers={**csrf(c), "Origin": "https://elsewhere.example"})
        assert r.status_code == 403
    assert table_rows(url, puzzle_players) == [] and table_rows(url, puzzle_answers) == []


def test_a_guest_cannot_forge_a_rating_into_the_stored_one(url):
    p = kings_puzzle()
    with https_client(url) as guest, https_client(url) as member:
        forged = {"rating": 4000, "rd": 30, "vol": 0.06, "streak": 999, "best_streak": 999,
                  "tried": 5, "solved": 5}
        r = answer(guest, p, move_of(p, wrong_text(p)), guest=forged)
        assert r.status_code == 200
        assert r.json()["standing"]["rating"] < 4000  # returned, moved from what was sent
        assert table_rows(url, puzzle_ratings_table) == [] and table_rows(url, puzzle_players) == []
        signup(member, "Bob")
        r = member.post(f"/api/puzzles/{p.id}/answer", headers=csrf(member),
                        json={"answer": move_of(p, p.answer), "guest": forged})
        got = r.json()
        assert got["before"]["rating"] == ratings.START and got["before"]["streak"] == 0
        # the puzzle's rating moved against the member's real rating, not the forged one
        mine, theirs = ratings.answer(ratings.Rating(), ratings.priors("kings")[p.id], True)
        assert got["standing"]["rating"] == mine.rating
        assert table_rows(url, puzzle_ratings_table)[0].rating == theirs.rating


def test_the_daily_puzzle_is_the_same_for_two_clients(url, tmp_path):
    other = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    with https_client(url) as a, https_client(other) as b:
        for game in ("kings", "cribbage"):
            one = a.get("/api/puzzles/daily", params={"game": game}).json()["puzzle"]
            two = b.get("/api/puzzles/daily", params={"game": game}).json()["puzzle"]
            assert one == two
            day = datetime.datetime.now(datetime.UTC).date()
            assert one["daily"] == day.isoformat()
            digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()
            puzzles = shipped(game)
            assert one["id"] == puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)].id


def test_the_daily_puzzle_changes_with_the_date(url, monkeypatch):
    seen = set()
    with https_client(url) as c:
        for d in range(5):
            monkeypatch.setattr(puzzles_router, "today",
                                lambda d=d: datetime.date(2026, 1, 1) + datetime.timedelta(d))
            seen.add(c.get("/api/puzzles/daily", params={"game": "kings"}).json()["puzzle"]["id"])
    assert len(seen) >= 4


@pytest.mark.parametrize("target", [1200.0, 1800.0])
def test_the_next_puzzle_is_near_the_players_rating(url, target):
    priors = ratings.priors("kings")
    distances = sorted(abs(r.rating - target) for r in priors.values())
    widest = distances[ratings.NEAR - 1]
    with https_client(url) as c:
        for _ in range(5):
            shown = c.get("/api/puzzles/next",
                          params={"game": "kings", "rating": target}).json()["puzzle"]
            assert abs(priors[shown["id"]].rating - target) <= widest
            assert shown["rating"] == round(priors[shown["id"]].rating)


def test_a_rating_stays_within_the_bounds_an_answer_accepts():
    """Long runs either way never leave a rating the next answer would refuse."""
    for right, puzzle in ((True, ratings.Rating(ratings.HIGHEST, 30.0)),
                          (False, ratings.Rating(ratings.LOWEST, 30.0))):
        me = ratings.Rating(ratings.HIGHEST if right else ratings.LOWEST, 31.0, 0.19)
        for _ in range(50):
            me, _ = ratings.answer(me, puzzle, right)
            puzzles_router.GuestStanding(rating=me.rating, rd=me.rd, vol=me.vol)


def test_priors_make_a_small_margin_harder():
    ps = shipped("cribbage")
    priors = ratings.prior_ratings(ps)
    small = min(ps, key=lambda p: p.margin)
    large = max(ps, key=lambda p: p.margin)
    assert priors[small.id].rating > priors[large.id].rating
    assert all(ratings.EASIEST <= r.rating <= ratings.HARDEST for r in priors.values())


@pytest.mark.parametrize("make, status, message", [
    (lambda p: {"answer": {"action": "fly"}}, 400, "action must be"),
    (lambda p: {"answer": {"action": "play", "tiles": {"A1": "7L"}}}, 400, "corner patch"),
    (lambda p: {"answer": {"action": "play", "tiles": {"G7": "zz"}}}, 400, ""),
    (lambda p: {"answer": {"action": "exchange", "tiles": ["2L", "2L", "2L", "2L", "2L"]}},
     400, "not an answer"),
    (lambda p: {"answer": {"action": "pass"}, "guest": {"rating": -5}}, 422, "rating"),
    (lambda p: {"answer": {"action": "pass"}, "guest": {"rd": 1000}}, 422, "rd"),
    (lambda p: {"answer": {"action": "pass"}, "extra": 1}, 422, "extra"),
    (lambda p: {"answer": "pass"}, 422, "answer"),
])
def test_bad_kings_answers_are_refused_with_a_precise_message(url, make, status, message):
    p = kings_puzzle()
    with https_client(url) as c:
        r = c.post(f"/api/puzzles/{p.id}/answer", json=make(p))
        assert r.status_code == status, r.text
        assert message in r.json()["error"]
    assert table_rows(url, puzzle_ratings_table) == []


@pytest.mark.parametrize("make, message", [
    (lambda p: {"action": "play", "card": p.position["hand"][0]}, 'answered with {"action": "discard"}'),
    (lambda p: {"action": "discard", "cards": ["5H"]}, "name two cards"),
    (lambda p: {"action": "discard", "cards": ["ZZ", "5H"]}, "not a card"),
    (lambda p: {"action": "discard", "cards": [c for c in ("AS", "AH", "AD", "2S", "2H")
                                               if c not in p.position["hand"]][:2]},
     "is not in your hand"),
])
def test_bad_cribbage_answers_are_refused_with_a_precise_message(url, make, message):
    p = discard_puzzle()
    with https_client(url) as c:
        r = c.post(f"/api/puzzles/{p.id}/answer", json={"answer": make(p)})
        assert r.status_code == 400, r.text
        assert message in r.json()["error"]


def test_unknown_puzzles_and_games_are_refused(url):
    with https_client(url) as c:
        r = c.get("/api/puzzles/no-such-puzzle")
        assert r.status_code == 404 and "no puzzle 'no-such-puzzle'" in r.json()["error"]
        r = c.post("/api/puzzles/no-such-puzzle/answer", json={"answer": {"action": "pass"}})
        assert r.status_code == 404
        r = c.get("/api/puzzles/next", params={"game": "chess"})
        assert r.status_code == 422 and "game" in r.json()["error"]
        r = c.get("/api/puzzles/next", params={"game": "kings", "rating": "high"})
        assert r.status_code == 422
        assert c.get("/puzzles/chess").status_code in (404, 422)
        for path in ("/puzzles", "/puzzles/kings", "/puzzles/cribbage"):
            page = c.get(path)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_deleting_an_account_deletes_its_puzzle_record(url):
    p = kings_puzzle()
    with https_client(url) as c:
        signup(c)
        c.post(f"/api/puzzles/{p.id}/answer", headers=csrf(c),
               json={"answer": move_of(p, p.answer)})
        assert table_rows(url, puzzle_players) and table_rows(url, puzzle_answers)
        r = c.request("DELETE", "/api/account", headers=csrf(c), json={"password": PASSWORD})
        assert r.status_code == 200, r.text
    assert table_rows(url, puzzle_players) == [] and table_rows(url, puzzle_answers) == []
    assert len(table_rows(url, puzzle_ratings_table)) == 1  # the puzzle's own rating stays


def test_an_accounts_puzzle_record_on_postgresql():
    """The same on PostgreSQL (foreign keys enforced): stored, rated once, and deleted
    with the account."""
    p = kings_puzzle()
    with postgres_cluster() as pg_url, https_client(pg_url) as c:
        signup(c)
        first = c.post(f"/api/puzzles/{p.id}/answer", headers=csrf(c),
                       json={"answer": move_of(p, p.answer)}).json()
        assert first["rated"] and first["standing"]["rating"] > ratings.START
        again = c.post(f"/api/puzzles/{p.id}/answer", headers=csrf(c),
                       json={"answer": move_of(p, p.answer)}).json()
        assert again["rated"] is False
        assert len(table_rows(pg_url, puzzle_answers)) == 1
        r = c.request("DELETE", "/api/account", headers=csrf(c), json={"password": PASSWORD})
        assert r.status_code == 200, r.text
        assert table_rows(pg_url, puzzle_players) == [] and table_rows(pg_url, puzzle_answers) == []
