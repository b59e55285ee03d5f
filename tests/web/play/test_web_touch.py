"""Dragging with a finger: real touch events (CDP Input.dispatchTouchEvent) in a touch
phone context move a Kings rack tile onto the board and classic cards onto the crib and
the play; tapping a tile, then a square, still works."""

from __future__ import annotations

import json
import time

from browser_pages import SIZES, screenshot, start_from_lobby
from test_web_browser import HISTORY_LONGER, held, history_length

SHOW_BOTH = """([a, b]) => {
  const r = [a.getBoundingClientRect(), b.getBoundingClientRect()];
  const top = Math.min(r[0].top, r[1].top) + scrollY;
  const bottom = Math.max(r[0].bottom, r[1].bottom) + scrollY;
  scrollTo(0, (top + bottom) / 2 - innerHeight / 2);
}"""


def touch_drag(page, source, target, steps: int = 8) -> None:
    """A finger put down on ``source``, moved in steps and lifted over ``target`` (the page
    scrolled first so that both are on screen, as a player would)."""
    # A player aims at a card where it comes to rest (js/common/motion.js glides it there).
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
    page.evaluate(SHOW_BOTH, [source.element_handle(), target.element_handle()])
    a, b = source.bounding_box(), target.bounding_box()
    for box in (a, b):
        assert 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"]
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                              "touchPoints": [{"x": x0, "y": y0}]})
        for i in range(1, steps + 1):
            x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                  "touchPoints": [{"x": x, "y": y}]})
        for _ in range(3):  # the finger rests before it lifts: a drop, not a fling
            time.sleep(0.05)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                  "touchPoints": [{"x": x1, "y": y1}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def test_kings_tiles_dragged_by_touch(browser, server) -> None:
    context = browser.new_context(**SIZES["phone"])
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer"])
        for _ in range(6):  # until the hint is a play (rarely an exchange at first)
            page.wait_for_selector("#hint:not([disabled])", timeout=60_000)
            before = history_length(page)
            page.tap("#hint")
            page.wait_for_selector("#hint-box[data-hint]", timeout=60_000)
            hint = json.loads(page.get_attribute("#hint-box", "data-hint"))
            if hint["play"]:
                break
            page.tap("#pass")
            page.wait_for_function(HISTORY_LONGER, arg=before, timeout=30_000)
        assert hint["play"], "no play was hinted in six turns"
        for n, (square, tile) in enumerate(hint["tiles"].items()):
            rack_tile = page.locator(f'#rack .tile[data-held="{held(tile)}"]').first
            target = page.locator(f'[data-square="{square}"]')
            if n == 1:  # tap the tile, then the square
                rack_tile.tap()
                target.tap()
            else:
                touch_drag(page, rack_tile, target)
            page.wait_for_selector(f'[data-square="{square}"] .tile.pending')
            if tile[0] == "9":
                page.tap(f'[data-square="{square}"] .tile')
                page.tap("#turn69")
        page.wait_for_selector(f'#preview[data-score="{hint["score"]}"]', timeout=10_000)
        screenshot(page, "touch-drag-kings-phone")
        page.tap("#commit")
        page.wait_for_function(HISTORY_LONGER, arg=before, timeout=30_000)
        for square, tile in hint["tiles"].items():
            placed = page.get_attribute(f'[data-square="{square}"] .tile', "data-tile")
            assert placed == tile
    finally:
        context.close()


MY_MOVE = """() => !document.querySelector('#c-discard').hidden
  || document.querySelector('#c-hand .card.playable') !== null
  || !document.querySelector('#c-go').hidden"""


def test_classic_cards_dragged_by_touch(browser, server) -> None:
    context = browser.new_context(**SIZES["phone"])
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
        page.wait_for_function(MY_MOVE, timeout=60_000)
        assert page.is_visible("#c-discard")  # everyone lays away first
        hand = page.locator("#c-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        crib = page.locator(".c-crib-pile")
        touch_drag(page, page.locator(f'#c-hand .card[data-card="{hand[0]}"]'), crib)
        assert page.locator("#c-hand .card.chosen").count() == 1
        touch_drag(page, page.locator(f'#c-hand .card[data-card="{hand[1]}"]'), crib)
        page.wait_for_function(f"""() => !document.querySelector('#c-hand .card[data-card="{hand[0]}"]')""")
        assert sorted(page.locator("#c-hand .card").evaluate_all(
            "els => els.map(e => e.dataset.card)")) == sorted(hand[2:])
        for _ in range(4):  # until a card of ours can be laid
            page.wait_for_function(MY_MOVE, timeout=60_000)
            if page.is_visible("#c-go"):
                page.tap("#c-go")
                continue
            card = page.locator("#c-hand .card.playable").first
            name = card.get_attribute("data-card")
            touch_drag(page, card, page.locator("#c-play"))
            page.wait_for_selector(f'#c-series .card[data-card="{name}"]')
            assert page.locator(f'#c-hand .card[data-card="{name}"]').count() == 0
            screenshot(page, "touch-drag-classic-phone")
            break
        else:
            raise AssertionError("no card could be laid in four turns")
    finally:
        context.close()
