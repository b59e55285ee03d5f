"""Replays: a stored game stepped through turn by turn matches its record (the board, the
turn outlined, the running scores, the final scores); a shareable link names the turn; a
record opened from a file is checked by the server (a corrupt one is refused with the
reason); a spectator steps back through a live game; the page passes an axe audit."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from browser_pages import (
    SIZES,
    open_step_link,
    outside_viewport,
    screenshot,
    serious_violations,
    start_from_lobby,
)

BOARD = """() => Object.fromEntries([...document.querySelectorAll('#r-board .sq')]
  .filter((sq) => sq.querySelector('.tile'))
  .map((sq) => [sq.dataset.square, sq.querySelector('.tile').dataset.tile]))"""
OUTLINED = """() => [...document.querySelectorAll('#r-board .tile.last')]
  .map((t) => t.parentElement.dataset.square).sort()"""
SCORES = """() => [...document.querySelectorAll('#r-scores tr[data-seat] .score')]
  .map((td) => Number(td.textContent))"""


@pytest.fixture(scope="module")
def finished(server) -> tuple[str, dict, str]:
    """A three-computer Kings game played to its end, its record and its invite code
    (which its creator holds)."""
    created = httpx.post(server.url + "/api/games", json={
        "seats": [{"kind": "computer", "level": "greedy"}] * 3, "seed": 21}).json()
    game = created["game_id"]
    deadline = time.monotonic() + 60
    while not httpx.get(f"{server.url}/api/games/{game}").json()["over"]:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    return game, httpx.get(f"{server.url}/api/games/{game}/record").json(), created["invite"]


def test_stepping_through_a_stored_game_matches_its_record(browser, server, finished) -> None:
    game, record, _ = finished
    context = browser.new_context(**SIZES["desktop"])
    page = context.new_page()
    try:
        page.goto(f"{server.url}/?replay={game}")
        page.wait_for_selector("#r-list li")
        assert page.locator("#r-list li").count() == len(record["turns"])
        page.keyboard.press("Home")
        assert page.evaluate(BOARD) == {}
        board: dict[str, str] = {}
        scores = [0] * len(record["players"])
        for n, turn in enumerate(record["turns"], start=1):
            page.keyboard.press("ArrowRight")
            assert page.get_attribute("#r-at", "data-at") == str(n)
            if turn["action"] == "play":
                board.update(turn["tiles"])
                scores[turn["player"]] += turn["score"]
                assert page.evaluate(OUTLINED) == sorted(turn["tiles"])
                assert str(turn["score"]) in page.inner_text("#r-turn")
            else:
                assert page.evaluate(OUTLINED) == []
            assert page.evaluate(BOARD) == board
            assert page.evaluate(SCORES) == scores
        finals = page.locator("#r-scores .final").all_inner_texts()
        assert [int(x) for x in finals] == record["end"]["scores"]
        page.click("#r-prev")
        assert page.get_attribute("#r-at", "data-at") == str(len(record["turns"]) - 1)
        # The link names the turn: opened elsewhere it shows that turn.
        other = open_step_link(page, context, server.url, game, 5)
        assert other.evaluate(BOARD) == page.evaluate(BOARD)
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_record_opened_from_a_file(browser, server, finished, tmp_path: Path,
                                     size: str) -> None:
    _, record, _ = finished
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    corrupt = dict(record, turns=[dict(t) for t in record["turns"]])
    first_play = next(i for i, t in enumerate(corrupt["turns"]) if t["action"] == "play")
    corrupt["turns"][first_play]["score"] += 1
    bad = tmp_path / "corrupt.json"
    bad.write_text(json.dumps(corrupt))
    garbage = tmp_path / "notes.json"
    garbage.write_text("not json {")
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.click("#open-record")
        page.wait_for_selector("#r-file")
        page.set_input_files("#r-file", str(garbage))
        page.wait_for_selector("#r-message:has-text('is not JSON')")
        page.set_input_files("#r-file", str(bad))
        page.wait_for_selector(f"#r-message:has-text('turn {first_play + 1}: the play scores')")
        assert page.locator("#r-list li").count() == 0  # nothing shown from a bad record
        page.set_input_files("#r-file", str(good))
        page.wait_for_selector("#r-list li")
        assert page.locator("#r-list li").count() == len(record["turns"])
        finals = page.locator("#r-scores .final").all_inner_texts()
        assert [int(x) for x in finals] == record["end"]["scores"]
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        screenshot(page, f"replay-{size}")
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
    finally:
        context.close()


def test_a_spectator_steps_back_through_a_live_game(browser, server) -> None:
    context = browser.new_context(**SIZES["phone"])
    try:
        player = context.new_page()
        start_from_lobby(player, server.url, ["human", "computer"])
        player.wait_for_selector("#rack .tile")
        game = player.url.split("game=")[1]
        player.click("#pass")
        player.wait_for_selector("#history li")
        watcher = context.new_page()
        watcher.goto(f"{server.url}/?game={game}&watch=1")
        watcher.wait_for_selector("#history li")
        turns = watcher.locator("#history li").count()
        watcher.click("#replay-link")
        watcher.wait_for_selector("#r-list li")
        assert watcher.locator("#r-list li").count() == turns
        watcher.click("#r-first")
        assert watcher.get_attribute("#r-at", "data-at") == "0"
        watcher.click("#r-game")
        watcher.wait_for_selector("#history li")
    finally:
        context.close()


def test_the_analysis_runs_in_the_background_and_equals_kingscrib_analyze(
        browser, server, finished, tmp_path: Path) -> None:
    game, record, invite = finished
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    cli = subprocess.run([sys.executable, "-c", "from kingscrib.cli.main import main; main()",
                          "analyze", str(path), "--json"], capture_output=True, text=True,
                         check=True, timeout=300)
    expected = json.loads(cli.stdout)
    # Only the creator of a game of computers only may start its analysis: anyone else
    # is told so on the page, and nothing starts.
    context = browser.new_context(**SIZES["desktop"])
    page = context.new_page()
    try:
        page.goto(f"{server.url}/?replay={game}")
        page.wait_for_selector("#r-analyse")
        page.click("#r-analyse")
        page.wait_for_selector("#r-progress-text:has-text('only a player of this game')")
        assert httpx.get(f"{server.url}/api/games/{game}/analysis").json() == {"status": "none"}
        # The creator's browser holds the invite code it was given.
        page.evaluate(f"localStorage.setItem('kingscrib:invite:{game}', '{invite}')")
        page.reload()
        page.wait_for_selector("#r-analyse:not([disabled])")
        page.click("#r-analyse")
        page.wait_for_selector("#r-analysis[data-done]", timeout=120_000)
        stored = httpx.get(f"{server.url}/api/games/{game}/analysis").json()
        assert stored["status"] == "done"
        page_only = {"best_tiles", "best_text", "played_text"}  # the page's additions
        rows = [{k: v for k, v in row.items() if k not in page_only} for row in stored["turns"]]
        assert rows == expected
        # The mistakes are marked in the list, and a summary per player sums the game up.
        marked = [i + 1 for i, li in enumerate(page.locator("#r-list li").all())
                  if "slip" in (li.get_attribute("class") or "")]
        assert marked == [r["turn"] for r in expected if r["mistake"]]
        for seat in range(len(record["players"])):
            mine = [r for r in expected if r["player"] == seat]
            cells = page.locator(f'#r-summary tr[data-seat="{seat}"] td').all_inner_texts()
            good = sum(1 for r in mine if (r["equity_lost"] or 0) <= 0)
            assert cells[1:] == [str(sum(max(0, r["points_lost"]) for r in mine)),
                                 str(sum(r["mistake"] for r in mine)),
                                 f"{int(100 * good / len(mine) + 0.5)}%"]  # JS rounds half up
        # Each turn shows its play beside the best option; a better play shows on the board.
        worse = next((r for r in stored["turns"] if r.get("best_tiles")
                      and r["best"] != r["played"]), None)
        page.click("#r-first")
        for _ in range(worse["turn"] if worse else 1):
            page.click("#r-next")
        row = stored["turns"][(worse["turn"] if worse else 1) - 1]
        assert f"Engine's best: {row['best_text']}" in page.inner_text("#r-best")
        assert "T" not in row["best_text"] and "T" not in row["played_text"]  # 10, not T
        if worse:
            ghosts = page.locator("#r-board .tile.best").count()
            assert ghosts >= 1
        screenshot(page, "replay-analysis-desktop")
        # Done once: asking again does not start it over.
        again = httpx.post(f"{server.url}/api/games/{game}/analysis",
                           json={"invite": invite}).json()
        assert again["status"] == "done" and again["turns"] == stored["turns"]
        assert serious_violations(page) == []
    finally:
        context.close()


def test_analysis_refusals(server) -> None:
    created = httpx.post(server.url + "/api/games", json={
        "seats": [{"kind": "human"}, {"kind": "computer", "level": "greedy"}]}).json()
    reply = httpx.post(f"{server.url}/api/games/{created['game_id']}/analysis")
    assert reply.status_code == 409 and "over" in reply.json()["error"]
    assert httpx.get(f"{server.url}/api/games/{created['game_id']}/analysis").json() == {
        "status": "none"}
    assert httpx.post(f"{server.url}/api/games/nosuchgame/analysis").status_code == 404
    # A Kings game's state holds every turn: it offers no step replay of its own.
    reply = httpx.get(f"{server.url}/api/games/{created['game_id']}/replay")
    assert reply.status_code == 400 and "holds every turn" in reply.json()["error"]
