"""The tutorial's web API: the lessons, the checker (the same verdicts as the terminal's),
bad requests refused with the reason, an account's progress (merged, never lost, gone
with the account), and the pages served."""

from __future__ import annotations

import pytest
from web_support import https_client

from kingscrib.learn import check, lessons

PASSWORD = "tiles and pegs"


@pytest.fixture()
def client(tmp_path):
    with https_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        yield c


def sign_up(client, name: str = "Learner") -> dict[str, str]:
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def test_the_lessons_and_the_pages(client):
    for game in ("kings", "cribbage"):
        data = client.get(f"/api/learn/{game}").json()
        assert [each["id"] for each in data["lessons"]] == [each.id for each in lessons(game)]
        assert data["goal"]
    for path in ("/learn", "/rules/kings", "/rules/cribbage"):
        page = client.get(path)
        assert page.status_code == 200 and "<main" in page.text
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/api/learn/chess").status_code == 404


def test_the_checker_says_what_the_engine_says(client):
    for game in ("kings", "cribbage"):
        for lesson in lessons(game):
            for n, step in enumerate(lesson.steps):
                answer = client.post(f"/api/learn/{game}/{lesson.id}/{n}",
                                     json={"answer": step.intended}).json()
                assert answer["ok"], (lesson.id, n, answer)
                assert answer["message"] == check(step, step.intended).message
    laid = client.post("/api/learn/kings/valid-hands/0",
                       json={"answer": {"tiles": {"H7": "6L", "I7": "9D", "J7": "KD"}}}).json()
    assert laid["ok"] and laid["tiles"] == {"H7": "6L", "I7": "9D", "J7": "KD"}
    assert laid["breakdown"] == ["K69K = 4 (fifteens 2, pairs 2)"]
    wrong = client.post("/api/learn/kings/valid-hands/0",
                        json={"answer": {"tiles": {"H7": "6L", "I7": "6D"}}}).json()
    assert not wrong["ok"] and "scores nothing" in wrong["message"] and "tiles" not in wrong
    discard = client.post("/api/learn/cribbage/the-crib/1", json={"answer": ["5H", "5S"]}).json()
    assert not discard["ok"] and "6♣ 9♣" in discard["message"]


@pytest.mark.parametrize(("path", "body", "status", "said"), [
    ("/api/learn/kings/no-such/0", {"answer": "pass"}, 404, "no lesson 'no-such'"),
    ("/api/learn/kings/valid-hands/2", {"answer": "pass"}, 404, "steps 0 to 1"),
    ("/api/learn/kings/valid-hands/0", {"answer": "x" * 500}, 400, "too long"),
    ("/api/learn/kings/valid-hands/0", {"answer": {"squares": {}}}, 400, "a play is"),
    ("/api/learn/kings/valid-hands/0", {"answer": "pass", "more": 1}, 422, "more"),
])
def test_bad_requests_are_refused_with_the_reason(client, path, body, status, said):
    answer = client.post(path, json=body)
    assert answer.status_code == status
    assert said in answer.json()["error"]


def test_a_bad_typed_move_is_a_verdict_not_an_error(client):
    answer = client.post("/api/learn/kings/valid-hands/0", json={"answer": "Z99 across"})
    assert answer.status_code == 200 and not answer.json()["ok"]
    assert answer.json()["message"].startswith("Not a move:")


def test_an_accounts_progress_is_merged_and_never_lost(client):
    assert client.get("/api/learn-progress").status_code == 401
    assert client.post("/api/learn-progress",
                       json={"progress": {"kings": ["valid-hands"]}}).status_code == 401
    csrf = sign_up(client)
    assert client.get("/api/learn-progress").json()["progress"] == {"kings": [], "cribbage": []}
    refused = client.post("/api/learn-progress", json={"progress": {"kings": ["valid-hands"]}})
    assert refused.status_code == 403  # no CSRF token
    sent = client.post("/api/learn-progress", headers=csrf,
                       json={"progress": {"kings": ["valid-hands", "touching"]}})
    assert sent.json()["progress"] == {"kings": ["touching", "valid-hands"], "cribbage": []}
    other_browser = client.post("/api/learn-progress", headers=csrf,
                                json={"progress": {"cribbage": ["counting"]}})
    assert other_browser.json()["progress"] == {"kings": ["touching", "valid-hands"],
                                                "cribbage": ["counting"]}
    bad = client.post("/api/learn-progress", headers=csrf,
                      json={"progress": {"kings": ["no-such-lesson"]}})
    assert bad.status_code == 400 and "no-such-lesson" in bad.json()["error"]
    for flood in ({"kings": ["valid-hands"] * 1000}, {"chess": []}, {"kings": ["x" * 500]}):
        refused = client.post("/api/learn-progress", headers=csrf, json={"progress": flood})
        assert refused.status_code in (400, 422) and refused.json()["error"]
    assert client.get("/api/learn-progress").json()["progress"]["kings"] == [
        "touching", "valid-hands"]
    gone = client.request("DELETE", "/api/account", headers=csrf, json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    sign_up(client, "Learner")  # the name is free again, and starts afresh
    assert client.get("/api/learn-progress").json()["progress"] == {"kings": [], "cribbage": []}


def test_the_levels_carry_their_titles_and_the_gentle_level(client):
    from kingscrib.players.level_names import GENTLE_DEFAULT, describe
    meta = client.get("/api/levels").json()
    for game in ("kings", "cribbage"):
        assert meta["gentle"][game] == GENTLE_DEFAULT
        for level in meta["games"][game]["levels"]:
            assert meta["names"][game][level] == {"title": describe(game, level).title,
                                                  "line": describe(game, level).line}
    assert meta["names"]["kings"]["easy"]["title"] == "Beginner"


@pytest.mark.parametrize("answer", ["²", "4²", "½", "", " ", "-4", "4.0"])
def test_a_number_that_is_not_a_whole_number_is_a_verdict(client, answer):
    for path in ("/api/learn/kings/variants/0", "/api/learn/cribbage/counting/0"):
        verdict = client.post(path, json={"answer": answer})
        assert verdict.status_code == 200 and not verdict.json()["ok"]
