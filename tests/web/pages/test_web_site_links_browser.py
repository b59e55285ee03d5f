"""The way back to the lobby from every separate page, in Chromium at 390x844 and
1280x800: the header holds the same small lobby link next to the site's name, reached
(Play) by the keyboard right after that name, inside the viewport, and it opens the lobby. On a
phone the site links take a line under the name, and give way to the game at a table."""

from __future__ import annotations

import pytest
from browser_pages import (
    outside_viewport,
    screenshot,
    serious_violations,
    sized_page,
    start_from_lobby,
)

PAGES = ["/leaderboard", "/players/nobody", "/your-turn", "/tournaments", "/tournaments/1",
         "/puzzles", "/learn", "/rules/kings", "/rules/cribbage", "/moderate"]

FOCUSED = "() => { const e = document.activeElement; return e ? `${e.tagName}.${e.className}` : ''; }"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_separate_page_leads_back_to_the_lobby_from_its_header(
        browser, server, size: str) -> None:
    with sized_page(browser, size) as (page, errors):
        looks = set()
        for path in PAGES:
            page.goto(server.url + path)
            link = page.locator("header nav.site-links a.lobby-link")
            assert link.count() == 1, path
            assert link.is_visible(), path
            assert link.get_attribute("href") == "/", path
            assert link.inner_text() == "Play", path
            looks.add(link.evaluate("""e => { const s = getComputedStyle(e);
                return [s.fontSize, s.color, s.textDecorationLine].join(' '); }"""))
            assert outside_viewport(page) == [], path
            # From the top of the page: the site's name, then the Lobby link.
            page.keyboard.press("Tab")
            assert page.evaluate(FOCUSED) == "A.brand", path
            page.keyboard.press("Tab")
            assert page.evaluate(FOCUSED) == "A.lobby-link", path
            screenshot(page, f"lobby-link{path.replace('/', '-')}-{size}")
        assert len(looks) == 1, looks  # the same look on every page
        assert serious_violations(page) == []  # the last page, with its header
        page.goto(server.url + "/rules/kings")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_url(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")  # the lobby
        assert errors == []


def test_the_site_links_on_a_phone_sit_under_the_name_and_give_way_at_a_table(
        browser, server) -> None:
    with sized_page(browser, "phone") as (page, errors):
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        links, brand = page.locator("header nav.site-links"), page.locator("header .brand")
        assert links.is_visible()
        assert links.bounding_box()["y"] >= brand.bounding_box()["y"] + brand.bounding_box()["height"]
        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector("#rack .tile")
        assert links.is_hidden() and brand.is_visible()  # the name still leads to the lobby
        assert errors == []
    with sized_page(browser, "desktop") as (page, errors):
        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector("#rack .tile")
        assert page.locator("header nav.site-links a.lobby-link").is_visible()
        assert errors == []
