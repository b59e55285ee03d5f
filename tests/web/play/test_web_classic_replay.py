"""Classic Cribbage replays: a stored game stepped through action by action matches its
record (each card laid, the count, the scores, the shows, the end); a record opened from
a file replays the same way and a corrupt one is refused with the reason; a live game is
replayed up to now; the page passes the layout and axe checks at both sizes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from browser_pages import SIZES, open_step_link, outside_viewport, screenshot, serious_violations

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.rules import RuleSet

SCORES = """() => [...document.querySelectorAll('#c-scores tr[data-side] .score')]
  .map((td) => Number(td.textContent))"""
SERIES = """() => [...document.querySelectorAll('#c-series .laid .card')].map((c) => c.dataset.card)"""
HELD = """() => [...document.querySelectorAll('#c-seats .c-seat')]
  .map((seat) => [...seat.querySelectorAll('.backs .card')].map((c) => c.dataset.card ?? 'back'))"""
SHOWN = """() => [...document.querySelectorAll('#c-show .show-hand[data-kind]')]
  .map((h) => [...h.querySelectorAll('.card:not(.starter)')].map((c) => c.dataset.card).sort())"""


def pretty(card: str) -> str:
    """A card as the page writes it: 10♥, Q♠."""
    return ("10" if card[0] == "T" else card[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[card[1]]


def cards_in(text: str) -> str:
    """``lay away 7C TD`` as the page writes it: ``lay away 7♣ 10♦``."""
    return " ".join(pretty(w) if len(w) == 2 and w[1] in "CDHS" else w for w in text.split())


def finished_game(url: str, players: int = 2, seed: int = 4) -> tuple[str, dict, str]:
    """A game of computers played to its end, its record and its invite code (which its
    creator holds)."""
    created = httpx.post(url + "/api/games", json={
        "game": "classic", "seed": seed, "rules": {"muggins": True},
        "seats": [{"kind": "computer", "level": "easy"}] * players}).json()
    game = created["game_id"]
    deadline = time.monotonic() + 90
    while not httpx.get(f"{url}/api/games/{game}").json()["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    return game, httpx.get(f"{url}/api/games/{game}/record").json(), created["invite"]


@pytest.fixture(scope="module")
def finished(server) -> tuple[str, dict, dict]:
    game, record, invite = finished_game(server.url)
    replay = httpx.get(f"{server.url}/api/games/{game}/replay").json()
    INVITES[game] = invite
    return game, record, replay


INVITES: dict[str, str] = {}  # the finished games' invite codes, as their creator holds them


def test_the_steps_follow_the_record(server, finished) -> None:
    _, record, replay = finished
    plays = [p for d in record["deals"] for p in d["plays"] if p["action"] == "play"]
    steps = [s for s in replay["steps"] if s["action"] == "play"]
    assert [(s["seat"], s["card"], s["count"]) for s in steps] == [
        (p["player"], p["card"], p["count"]) for p in plays]
    discards = [(seat, cards) for d in record["deals"] for seat, cards
                in enumerate(d["discards"])]
    laid = [(s["seat"], s["cards"]) for s in replay["steps"] if s["action"] == "discard"]
    assert sorted(laid) == sorted(discards)  # named: the game is over
    claims = [s["claimed"] for d in record["deals"] for s in d["show"]]
    assert [s["points"] for s in replay["steps"] if s["action"] == "claim"] == claims
    # The points pegged by the steps add up to the final scores, side by side.
    totals = [0, 0]
    for step in replay["steps"]:
        for p in step["pegged"]:
            totals[p["seat"] % 2] += p["points"]
        assert [min(t, 121) for t in totals] == step["state"]["scores"]
    assert replay["end"]["scores"] == record["end"]["scores"]
    # Each deal's show, as counted in the record, is the finished deal's show.
    for deal, shown in zip(record["deals"], replay["deals"]):
        assert [(s["player"], s["cards"], s["score"]) for s in deal["show"]] == [
            (s["seat"], s["cards"], s["score"]) for s in shown["show"]]


def test_a_finished_game_shows_every_hand_and_the_crib(finished) -> None:
    """Each step of a finished game lays the hands and the crib face up: the record's
    dealt hands, less the cards laid away and laid in the play so far."""
    _, record, replay = finished
    number = 0
    for step in [{"state": replay["start"]}] + replay["steps"]:
        state = step["state"]
        if state["deal"] != number:  # a new deal: the hands as dealt
            number = state["deal"]
            deal = record["deals"][number - 1]
            held = [list(hand) for hand in deal["hands"]]
        if step.get("action") == "discard":
            held[step["seat"]] = [c for c in held[step["seat"]] if c not in step["cards"]]
        elif step.get("action") == "play":
            held[step["seat"]].remove(step["card"])
        assert [sorted(h) for h in state["held"]] == [sorted(h) for h in held]
        crib = [c for seat, cards in enumerate(deal["discards"])  # two players: no deck card
                if state["phase"] != "discard" or state["discarded"][seat] for c in cards]
        assert sorted(state["crib_cards"]) == sorted(crib)


def test_a_record_file_replays_like_the_stored_game(server, finished) -> None:
    _, record, replay = finished
    from_file = httpx.post(f"{server.url}/api/games/replay", json=record)
    assert from_file.status_code == 200, from_file.text
    assert from_file.json() == replay
    corrupt = json.loads(json.dumps(record))
    play = next(p for p in corrupt["deals"][1]["plays"] if p["action"] == "play")
    play["count"] += 1
    refused = httpx.post(f"{server.url}/api/games/replay", json=corrupt)
    assert refused.status_code == 400
    assert "deal 2: plays is" in refused.json()["error"]
    huge = httpx.post(f"{server.url}/api/games/replay", json=dict(record, notes="x" * 300_000))
    assert huge.status_code == 413 and "over 262144 bytes" in huge.json()["error"]
    refused = httpx.post(f"{server.url}/api/games/replay", json=dict(record, game="chess"))
    assert refused.status_code == 400
    assert "'kings' or 'cribbage', 'classic' for 'cribbage')" in refused.json()["error"]


def test_a_terminal_game_record_replays(server) -> None:
    """A record of a game where go was never said aloud (the terminal's) replays too."""
    game = ClassicGame(RuleSet(players=3), seed=11)
    rng = random.Random(3)
    while game.phase != "over":
        seat = game.waiting_for()[0]
        game.apply(rng.choice(game.legal_for(seat)), seat)
    reply = httpx.post(f"{server.url}/api/games/replay", json=game.record())
    assert reply.status_code == 200, reply.text
    assert reply.json()["end"]["scores"] == game.scores
    gos = sum(p["action"] == "go" and "score" not in p for d in game.deals for p in d["plays"])
    assert sum(s["action"] == "go" for s in reply.json()["steps"]) == gos


def test_stepping_through_on_the_page(browser, server, finished) -> None:
    game, _, replay = finished
    context = browser.new_context(**SIZES["desktop"])
    page = context.new_page()
    try:
        page.goto(f"{server.url}/?replay={game}")
        page.wait_for_selector("#r-list li")
        assert page.locator("#r-list li").count() == len(replay["steps"])
        page.keyboard.press("Home")
        assert page.evaluate(SCORES) == [0, 0]
        assert "deals first" in page.inner_text("#r-turn")
        for n, step in enumerate(replay["steps"], start=1):
            page.keyboard.press("ArrowRight")
            assert page.get_attribute("#r-at", "data-at") == str(n)
            state = step["state"]
            assert page.evaluate(SCORES) == state["scores"]
            assert page.evaluate(HELD) == state["held"]
            if state["phase"] == "play":
                assert page.evaluate(SERIES) == [s["card"] for s in state["series"]]
                assert page.inner_text("#c-count") == f"Count: {state['count']}"
            if state["phase"] == "discard" and state["deal"] > 1:  # the last deal's show
                shown = replay["deals"][state["deal"] - 2]["show"]
                assert page.evaluate(SHOWN) == [sorted(s["cards"]) for s in shown]
                assert shown[0]["said"] in page.inner_text("#c-show")
        assert "Game over" in page.inner_text("#c-end")
        other = open_step_link(page, context, server.url, game, 7)
        assert other.evaluate(SCORES) == page.evaluate(SCORES)
        screenshot(page, "classic-replay-desktop")
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
    finally:
        context.close()


def test_a_record_file_and_a_live_game_on_a_phone(browser, server, finished,
                                                   tmp_path: Path) -> None:
    _, record, replay = finished
    path = tmp_path / "cribbage.json"
    path.write_text(json.dumps(record))
    live = httpx.post(server.url + "/api/games", json={
        "game": "classic", "seats": [{"name": "Ann"}, {"kind": "computer", "level": "easy"}]})
    token = live.json()["token"]
    gid = live.json()["game_id"]
    hand = httpx.get(f"{server.url}/api/games/{gid}",
                     headers={"Authorization": f"Bearer {token}"}).json()["hand"]
    done = httpx.post(f"{server.url}/api/games/{gid}/actions", json={
        "action": "discard", "cards": hand[:2]}, headers={"Authorization": f"Bearer {token}"})
    assert done.status_code == 200, done.text
    context = browser.new_context(**SIZES["phone"])
    page = context.new_page()
    try:
        page.goto(server.url + "/?replay=file")
        # replay.js is imported after the page loads: its file input works once shown
        page.wait_for_selector("#replay:not([hidden])")
        page.set_input_files("#r-file", str(path))
        page.wait_for_selector("#r-list li")
        assert page.locator("#r-list li").count() == len(replay["steps"])
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("#r-at", "data-at") == "1"
        screenshot(page, "classic-replay-phone")
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        # A spectator of the live game steps back through it: nothing laid away is named.
        page.goto(f"{server.url}/?game={gid}&watch=1")
        page.wait_for_selector("#cribbage:not([hidden])")
        page.click("#c-replay-link")
        page.wait_for_selector("#r-list li")
        steps = page.locator("#r-list li").all_inner_texts()
        # (the dealer's step also tells "his heels" when the starter is a jack)
        assert any(step.startswith("Ann lays away 2 cards.") for step in steps), steps
        assert not any(pretty(card) in " ".join(steps) for card in hand[:2])
    finally:
        context.close()


def test_the_analysis_equals_kingscrib_classic_analyze(browser, server, finished,
                                                       tmp_path: Path) -> None:
    game, record, replay = finished
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    cli = subprocess.run([sys.executable, "-c", "from kingscrib.cli.main import main; main()",
                          "classic", "analyze", str(path), "--json"], capture_output=True,
                         text=True, check=True, timeout=300)
    expected = json.loads(cli.stdout)
    context = browser.new_context(**SIZES["desktop"])
    # The creator's browser holds the invite code it was given, which lets it start the
    # analysis of a game of computers only.
    context.add_init_script(f"localStorage.setItem('kingscrib:invite:{game}', '{INVITES[game]}')")
    page = context.new_page()
    try:
        page.goto(f"{server.url}/?replay={game}")
        page.wait_for_selector("#r-analyse")
        page.click("#r-analyse")
        page.wait_for_selector("#r-progress:not([hidden])")  # progress while it runs
        page.wait_for_selector("#r-analysis[data-done]", timeout=180_000)
        stored = httpx.get(f"{server.url}/api/games/{game}/analysis").json()
        assert stored == {"status": "done", "turns": expected}
        for row in expected:  # each row is judged at its own step of the replay
            step = replay["steps"][row["turn"] - 1]
            assert (step["seat"], step["action"]) == (row["seat"], row["decision"])
            made = ("lay away " + " ".join(sorted(step["cards"])) if step["action"] == "discard"
                    else f"lay {step['card']}")
            assert sorted(made.split()) == sorted(row["made"].split())
        slips = [r for r in expected if r["slip"]]
        assert page.locator("#r-list li.slip").count() == len(slips)
        row = slips[0] if slips else expected[0]
        page.goto(f"{server.url}/?replay={game}&turn={row['turn']}")
        page.wait_for_selector("#r-analysis[data-done]")
        shown = page.inner_text("#r-best")
        assert f"Coach's best: {cards_in(row['best'])}" in shown and cards_in(row["made"]) in shown
        screenshot(page, "classic-replay-analysis-desktop")
        again = httpx.post(f"{server.url}/api/games/{game}/analysis",
                           json={"invite": INVITES[game]}).json()
        assert again == stored  # computed once
        assert serious_violations(page) == []
    finally:
        context.close()


def test_the_analysis_of_a_three_player_game_is_refused(server) -> None:
    game, _, _ = finished_game(server.url, players=3, seed=5)
    reply = httpx.post(f"{server.url}/api/games/{game}/analysis")
    assert reply.status_code == 400 and "two-player" in reply.json()["error"]
