"""The clocks and the Resign button on the page (Debian's Chromium), at phone and desktop
sizes, for both games: the clock is chosen on the start page, shows and counts down,
nothing sticks out sideways, resigning asks once more and ends the game, the record
downloads and replays, and the axe audit finds nothing serious. And a clock that runs
out after a restart of the server."""

from __future__ import annotations

import re
import sqlite3
import time

import httpx
import pytest
from browser_pages import SIZES, outside_viewport, screenshot, serious_violations, sized_page
from web_support import running_server

from kingscrib.classic.record import replay as replay_classic
from kingscrib.kings.record import check_record

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def seconds(text: str) -> int:
    m, s = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()
    return int(m) * 60 + int(s)


def start_with_clock(page, url: str, game: str, minutes: int) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#new-game[data-ready]")
    page.check(f'#game-choice input[value="{game}"]')
    page.locator(".seat-row").nth(0).locator(".name").fill("Ann")
    page.locator(".seat-row").nth(1).locator(".kind").select_option("computer")
    page.locator(".seat-row").nth(1).locator(".level").select_option(
        "medium" if game == "kings" else "easy")
    page.select_option("#clock-choice", str(minutes * 60))
    assert ("overtime" in page.inner_text("#clock-rule")) == (game == "kings")
    page.click("#start")


@pytest.mark.parametrize("game", ["kings", "cribbage"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_clocks_count_down_and_resign_ends_the_game(browser, server, size: str, game: str):
    with sized_page(browser, size) as (page, errors):
        start_with_clock(page, server.url, game, 5)
        clocks = "#clocks" if game == "kings" else "#c-clocks"
        page.wait_for_selector(f"{clocks} li.running", timeout=30_000)
        assert page.locator(f"{clocks} li").count() == 2
        running = page.locator(f"{clocks} li.running").first
        assert running.inner_text().startswith("▶")
        before = seconds(running.locator(".time").inner_text())
        assert 280 <= before <= 300
        page.wait_for_timeout(2500)
        running = page.locator(f"{clocks} li.running").first
        after = seconds(running.locator(".time").inner_text())
        assert 1 <= before - after <= 4 or after < before  # it counts down
        label = running.locator(".time").get_attribute("aria-label")
        assert label.endswith("running")
        assert outside_viewport(page) == []
        screenshot(page, f"{game}-clocks-{size}")
        assert serious_violations(page) == []
        # A spectator sees the same clocks counting down.
        game_id = page.url.split("game=")[1]
        watcher = page.context.new_page()
        watcher.goto(f"{server.url}/?game={game_id}&watch=1")
        watcher.wait_for_selector(f"{clocks} li.running")
        assert watcher.locator(f"{clocks} li").count() == 2
        assert watcher.is_hidden("#resign-box" if game == "kings" else "#c-resign-box")
        watcher.close()
        # Resign asks once more; "Keep playing" takes it back.
        box = "#resign-box" if game == "kings" else "#c-resign-box"
        page.click(f"{box} .resign")
        assert "Yes, resign" in page.inner_text(f"{box} .resign")
        page.click(f"{box} button:has-text('Keep playing')")
        assert page.inner_text(f"{box} .resign") == "Resign…"
        page.click(f"{box} .resign")
        page.click(f"{box} .resign")
        end = "#end" if game == "kings" else "#c-end"
        page.wait_for_selector(f"{end}:not([hidden])")
        text = page.inner_text(f"{end} #result-text" if game == "kings" else "#c-end-text")
        assert text.startswith("Ann resigned:") and "wins" in text
        assert page.locator(f"{clocks} li.running").count() == 0  # the clocks stopped
        assert page.is_hidden(box)
        if game == "kings":  # screen readers hear it through the live region
            assert "Ann resigned:" in page.text_content("#announce")
        if game == "cribbage":  # the deal stops: nothing more to lay away or play
            assert page.is_hidden("#c-discard") and page.is_hidden("#c-go")
        assert outside_viewport(page) == []
        screenshot(page, f"{game}-resigned-{size}")
        assert serious_violations(page) == []
        state = httpx.get(f"{server.url}/api/games/{game_id}").json()
        assert state["result"]["reason"] == "resigned" and state["result"]["seat"] == 0
        record = httpx.get(server.url + page.get_attribute("#record-link", "href")).json()
        assert record["result"] == state["result"]
        (check_record if game == "kings" else replay_classic)(record)
        # A resigned game is finished: its replay offers the analysis, which completes.
        page.goto(f"{server.url}/?replay={game_id}")
        page.click("#r-analyse")
        page.wait_for_selector("#r-analysis[data-done]", timeout=60_000)
        assert httpx.get(f"{server.url}/api/games/{game_id}/analysis").json()["status"] == "done"
        assert errors == []


# ----- a restart ----------------------------------------------------------------------

def test_a_clock_runs_out_after_a_restart_and_the_outage_is_not_charged(browser, tmp_path):
    """Create a game with a 6-second clock, stop the server for longer than that, start it
    again on the same database: the clock goes on from where it stopped, runs out with
    nobody touching the game, the mover loses on time, and the page says so."""
    db = tmp_path / "web.sqlite3"
    with running_server(db) as server:
        base = server.url
        created = httpx.post(f"{base}/api/games", json={
            "seed": 11, "clock_seconds": 6, "clock_overtime": 0,
            "seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        game_id = created["game_id"]
        httpx.post(f"{base}/api/games/{game_id}/join", json={"invite": created["invite"]})
        mover = httpx.get(f"{base}/api/games/{game_id}").json()["turn"]
        time.sleep(1.0)
    time.sleep(8.0)  # longer than the clock: it would have run out had the outage counted
    with running_server(db) as again:
        seen = httpx.get(f"{again.url}/api/games/{game_id}").json()
        # (the first server's stop took part of the 6 seconds: less on a quiet machine)
        assert seen["result"] is None, seen
        assert 1.0 < seen["clock"]["left"][mover] < 5.5, seen["clock"]
        deadline = time.monotonic() + 15
        # Nobody touches the game: the housekeeping loop finds the clock that ran out.
        with sqlite3.connect(db) as con:
            while time.monotonic() < deadline:
                row = con.execute("SELECT result FROM clocks WHERE game_id = ?",
                                  (game_id,)).fetchone()
                if row[0]:
                    break
                time.sleep(0.2)
        ended = httpx.get(f"{again.url}/api/games/{game_id}").json()
        assert ended["result"] is not None, ended["clock"]
        assert ended["result"]["reason"] == "time" and ended["result"]["seat"] == mover
        assert ended["result"]["winners"] == [1 - mover] and ended["over"]
        record = httpx.get(f"{again.url}/api/games/{game_id}/record").json()
        assert record["result"] == ended["result"]
        check_record(record)
        page = browser.new_page(**SIZES["phone"])
        try:
            page.goto(f"{again.url}/?game={game_id}&watch=1")
            page.wait_for_selector("#end:not([hidden]) #result-text")
            loser = ("Ann", "Bob")[mover]
            assert page.inner_text("#result-text").startswith(f"{loser} ran out of time:")
            assert "out of time" in page.inner_text("#standings")
            assert page.inner_text("#turn-banner").startswith("Game over.")
            assert outside_viewport(page) == []
            screenshot(page, "kings-out-of-time-phone")
        finally:
            page.close()
