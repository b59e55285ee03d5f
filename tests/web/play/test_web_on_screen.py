"""The controls a player needs now are on screen, without scrolling, on a phone (390x844)
and two laptop screens (1280x800, 1366x768): the hand and its button at the discard,
*Go*, the claim box with the hand just counted, the rack and the Kings buttons, the end
box with *Rematch*."""

from __future__ import annotations

import httpx
import pytest
from browser_pages import PHONE, VERSION_AFTER, start_from_lobby, version
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SIZES = {
    "phone": PHONE,
    "1280x800": {"viewport": {"width": 1280, "height": 800}},
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
}

# Each shown element of each selector (only the last with " @last"), once every glide has
# come to rest: whole inside the viewport where the page is scrolled now, and not covered (the point at its middle is
# itself or inside it).
OFF_SCREEN = """async (selectors) => {
  // where things come to rest: the page's glides (js/common/motion.js) finished
  await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
  const out = [];
  for (const given of selectors) {
    const sel = given.replace(/ @last$/, "");
    let els = [...document.querySelectorAll(sel)]
      .filter((el) => !el.closest('[hidden]') && el.getClientRects().length);
    if (given !== sel) els = els.slice(-1);
    if (!els.length) { out.push(`${sel}: not shown`); continue; }
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5) {
        out.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}x${innerHeight}`);
        continue;
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(el === hit || el.contains(hit))) out.push(`${sel}: covered by ${hit?.tagName}.${hit?.className}`);
    }
  }
  return out;
}"""


def off_screen(page, *selectors: str) -> list[str]:
    return page.evaluate(OFF_SCREEN, list(selectors))


def context_of(browser, size: str):
    return browser.new_context(**SIZES[size])


MINE_OR_OVER = """() => document.getElementById('c-banner').classList.contains('mine')
                   || !document.getElementById('c-end').hidden"""
LAID_NOW = "#c-series .laid"


def play_classic(page, seen: dict[str, list[str]], deals: int) -> None:
    """Play this seat's turns by clicking for ``deals`` deals, checking at each turn that
    what it needs is on screen; ``seen`` gathers what was not, by kind of turn."""
    for _ in range(400):
        page.wait_for_function(MINE_OR_OVER, timeout=60_000)
        if page.is_visible("#c-end"):
            return
        before = version(page)
        if page.is_visible("#c-claim-box"):
            # The hand being counted, the claim box, and the hand counted just before.
            need = ["#c-hand .card", "#c-claim", "#c-claim-send"]
            if page.locator("#c-show .show-hand:not(.waiting)").count():
                need.append("#c-show .show-hand:not(.waiting) @last")
            seen.setdefault("claim", []).extend(off_screen(page, *need))
            page.fill("#c-claim", "0")
            page.click("#c-claim-send")
        elif page.is_visible("#c-discard"):
            if len(seen.get("discard", [])) or seen.setdefault("deals", []).count("") >= deals:
                return
            seen["deals"].append("")
            seen.setdefault("discard", []).extend(off_screen(page, "#c-hand .card", "#c-discard"))
            cards = page.locator("#c-hand .card")
            i = 0
            while page.is_disabled("#c-discard"):
                cards.nth(i).click()
                i += 1
            try:
                page.click("#c-discard", timeout=10_000)
            except PlaywrightTimeout:
                if page.is_visible("#c-discard"):
                    raise
                continue  # the page moved on while cards were picked: look again
            # The seats discard at once: another seat's discard can change the version
            # before ours is answered, so wait for ours (the button goes when it is taken).
            page.wait_for_selector("#c-discard", state="hidden", timeout=30_000)
            continue
        elif page.is_visible("#c-go"):
            kind = "go with 7 cards laid" if page.locator(LAID_NOW).count() >= 7 else "go"
            seen.setdefault(kind, []).extend(off_screen(page, "#c-hand .card", "#c-go", "#c-count"))
            page.click("#c-go")
        else:
            seen.setdefault("play", []).extend(off_screen(page, "#c-hand .card", "#c-count"))
            page.locator("#c-hand .card.playable").first.click()
        page.wait_for_function(VERSION_AFTER, arg=before, timeout=30_000)


@pytest.mark.parametrize("size", list(SIZES))
def test_cribbage_hand_go_and_claims_stay_on_screen(browser, server, size: str) -> None:
    """Four seats (the series grows long) under muggins, for three deals."""
    context = context_of(browser, size)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        page.check('#game-choice input[value="cribbage"]')
        page.check("#cribbage-options [name=muggins]")
        start_from_lobby_rows(page, 4)
        page.click("#start")
        page.wait_for_selector("#c-hand .card")
        seen: dict[str, list[str]] = {}
        play_classic(page, seen, deals=3)
        assert {k: v for k, v in seen.items() if v and k != "deals"} == {}
        assert {"discard", "claim", "play"} <= seen.keys()
    finally:
        context.close()


def start_from_lobby_rows(page, n: int) -> None:
    while page.locator(".seat-row").count() < n:
        page.click("#add-seat")


@pytest.mark.parametrize("size", list(SIZES))
def test_three_player_hand_at_the_discard(browser, server, size: str) -> None:
    context = context_of(browser, size)
    page = context.new_page()
    try:
        # A computer deals, so its long name carries the "dealer · crib" badge too.
        for seed in range(50):
            created = httpx.post(server.url + "/api/games", json={
                "game": "classic", "seed": seed, "seats": [{"name": "Ann"}] + [
                    {"kind": "computer", "level": "medium"}] * 2}).json()
            state = httpx.get(f"{server.url}/api/games/{created['game_id']}").json()
            if state["dealer"] != 0:
                break
        page.goto(server.url + "/")
        page.evaluate("([g, t]) => localStorage.setItem(`kingscrib:token:${g}`, t)",
                      [created["game_id"], created["token"]])
        page.goto(f"{server.url}/?game={created['game_id']}")
        page.wait_for_selector("#c-discard:not([hidden])")
        assert off_screen(page, "#c-hand .card", "#c-discard", "#c-banner") == []
        assert off_screen(page, ".c-seat .badge") == []  # and no badge split over two lines
        assert page.evaluate("""() => [...document.querySelectorAll('.c-seat .badge')].every((b) =>
          b.getClientRects().length === 1  // not split between two lines of the seat's box
          && b.getBoundingClientRect().height < 2 * parseFloat(getComputedStyle(b).fontSize))""")
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_kings_rack_and_buttons_then_the_end_box(browser, server, size: str) -> None:
    context = context_of(browser, size)
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer", "computer"])
        page.wait_for_selector(".turn-banner.mine", timeout=60_000)
        need = ["#rack .tile", "#commit", "#exchange", "#pass", "#hint"]
        assert off_screen(page, *need) == []
        # A placed tile and its preview do not push the buttons away.
        page.locator("#rack .tile").nth(0).click()
        page.click('[data-square="A13"]')  # free whoever began, and far: a refusal
        page.wait_for_selector("#preview:not(:empty)")
        assert off_screen(page, *need, "#preview") == []
        # Resign: the end box and Rematch come into view.
        page.click("#resign-box .resign")
        page.click("#resign-box .resign")
        page.wait_for_selector("#end:not([hidden]) #rematch")
        assert off_screen(page, "#end h2", "#rematch") == []
    finally:
        context.close()


def test_four_kings_seats_on_a_phone_show_whoever_is_to_move(browser, server) -> None:
    """Four seats at 390x844, the last of them to move: its score row is on the first
    screen with the rack and the buttons, no empty band pushing it below."""
    for seed in range(50):
        created = httpx.post(server.url + "/api/games", json={
            "game": "kings", "seed": seed,
            "seats": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}, {"name": "Di"}]}).json()
        if httpx.get(f"{server.url}/api/games/{created['game_id']}").json()["turn"] == 3:
            break
    context = context_of(browser, "phone")
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.evaluate("([g, t]) => localStorage.setItem(`kingscrib:token:${g}`, t)",
                      [created["game_id"], created["token"]])
        page.goto(f"{server.url}/?game={created['game_id']}")
        page.wait_for_selector("#scores tr.to-move")
        assert page.locator("#scores tr[data-seat]").last.get_attribute("class") == "to-move"
        assert off_screen(page, "#scores tr.to-move", "#rack .tile", "#commit", "#pass") == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_cribbage_end_box_and_rematch_after_resigning(browser, server, size: str) -> None:
    context = context_of(browser, size)
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
        page.wait_for_selector("#c-hand .card")
        page.click("#c-resign-box .resign")
        page.click("#c-resign-box .resign")
        page.wait_for_selector("#c-end:not([hidden]) #rematch")
        assert off_screen(page, "#c-end h2", "#rematch") == []
    finally:
        context.close()


def top_of(page, selector: str) -> float:
    return page.locator(selector).bounding_box()["y"]


@pytest.mark.parametrize("size", list(SIZES))
def test_kings_buttons_keep_their_line(browser, server, size: str) -> None:
    """A long refusal in the preview, and *Exchange…* turning into *Exchange 2 tiles*,
    leave *Play* and *Pass* where they were."""
    context = context_of(browser, size)
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector(".turn-banner.mine", timeout=60_000)
        commit, passing = top_of(page, "#commit"), top_of(page, "#pass")
        for square in ("A13", "M1"):  # two tiles far apart: a refusal of two lines or more
            page.locator("#rack .tile").nth(0).click()
            page.click(f'[data-square="{square}"]')
        page.wait_for_selector("#preview.bad")
        assert (top_of(page, "#commit"), top_of(page, "#pass")) == (commit, passing)
        page.click("#recall")
        page.click("#exchange")
        page.locator("#rack .tile").nth(0).click()
        page.locator("#rack .tile").nth(1).click()
        assert page.inner_text("#exchange") == "Exchange 2 tiles"
        assert (top_of(page, "#commit"), top_of(page, "#pass")) == (commit, passing)
    finally:
        context.close()


CURSOR_SHOWN = """() => {
  const sq = document.querySelector('#board .sq.cursor');
  // its ring (white and #111; the centre square has an outline of its own) or its arrow
  return getComputedStyle(sq).boxShadow.includes('rgb(17, 17, 17)')
    || getComputedStyle(sq, '::after').content !== 'none';
}"""


@pytest.mark.parametrize("who", ["phone", "spectator", "keyboard"])
def test_the_board_cursor_is_for_a_keyboard_player_only(browser, server, who: str) -> None:
    context = context_of(browser, "phone" if who == "phone" else "1280x800")
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector(".turn-banner.mine", timeout=60_000)
        if who == "phone":  # a turn's tile tapped onto the board: no keyboard involved
            page.locator("#rack .tile").nth(0).tap()
            page.locator('[data-square="A13"]').tap()
        if who == "spectator":
            page.goto(page.url + "&watch=1")
            page.wait_for_selector("#scores tr[data-seat]")
            page.keyboard.press("ArrowRight")  # keys do nothing to a spectator's board
        if who == "keyboard":
            page.keyboard.press("ArrowRight")
        shown = who == "keyboard"
        assert page.is_visible("#cursor-note") == shown
        assert page.evaluate(CURSOR_SHOWN) == shown
    finally:
        context.close()
