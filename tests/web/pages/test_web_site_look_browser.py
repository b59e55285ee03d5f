"""The site's one look, in Chromium at 390x844, 1280x800 and 1920x1080, light and dark: every page
the header and the footer lead to carries the same header (the five links, the account,
the live status), fits a phone's width without scrolling sideways, and passes the axe
audit; a member's name in the header leads to the profile; the lobby's dot says "live"."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from browser_pages import SIZES, screenshot, serious_violations

from kingscrib.web.accounts import sessions

PASSWORD = "tiles and pegs"
NAV = ["Play", "Learn", "Puzzles", "Tournaments", "Leaderboard"]
FOOTER = ["/rules/kings", "/rules/cribbage", "/learn", "/learn?game=cribbage"]
WIDTH = "() => document.scrollingElement.scrollWidth"
LOOKS = {**SIZES, "wide": {"viewport": {"width": 1920, "height": 1080}}}


@pytest.fixture(scope="module")
def site(server) -> dict[str, Any]:
    """Ann Lee has an account and has entered an upcoming Swiss tournament of hers."""
    url = server.url
    r = httpx.post(f"{url}/api/account/signup", json={"name": "Ann Lee", "password": PASSWORD},
                   headers={"Origin": url})
    assert r.status_code == 201, r.text
    token = r.cookies[sessions.COOKIE]
    ann = {"Cookie": f"{sessions.COOKIE}={token}", "Origin": url,
           sessions.CSRF_HEADER: sessions.csrf_token(token)}
    r = httpx.post(f"{url}/api/tournaments", headers=ann, json={
        "name": "A Swiss with a rather long name for a phone", "game": "cribbage", "format": "swiss",
        "rounds": 3, "starts_in": 3600})  # seconds: upcoming all through the module
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert httpx.post(f"{url}/api/tournaments/{tid}/join", headers=ann).status_code == 200
    return {"tournament": tid, "session": token}


def pages(site: dict[str, Any]) -> list[str]:
    return ["/", "/learn", "/puzzles", "/tournaments", "/leaderboard", "/rules/kings",
            "/rules/cribbage", "/learn?game=cribbage", f"/tournaments/{site['tournament']}",
            "/players/ann%20lee"]


def header(page) -> dict[str, Any]:
    return page.evaluate("""() => {
        const h = document.querySelector('body > header');
        const shown = (e) => e && !e.closest('[hidden]') && e.getClientRects().length > 0;
        return {
            links: [...h.querySelectorAll('nav.site-links a')].map((a) => [a.textContent.trim(), a.getAttribute('href')]),
            brand: shown(h.querySelector('a.brand')),
            account: [...h.querySelectorAll('#site-account a')].filter(shown).map((a) => a.textContent.trim()),
            live: h.querySelector('#connection').textContent.trim(),
            footer: [...document.querySelectorAll('body > footer a')].map((a) => a.getAttribute('href')),
        };
    }""")


def visit(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#connection.online")
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(LOOKS))
def test_every_page_has_the_same_header_fits_a_phone_and_passes_axe(
        browser, server, site, size: str, scheme: str) -> None:
    context = browser.new_context(**LOOKS[size], color_scheme=scheme)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        width = LOOKS[size]["viewport"]["width"]
        heights = set()
        for path in pages(site):
            visit(page, server.url + path)
            seen = header(page)
            assert [label for label, _ in seen["links"]] == NAV, path
            assert seen["links"][0][1] == "/" and seen["brand"], path
            assert seen["account"] == ["Log in", "Sign up"], path
            assert seen["live"] == "live", path
            assert seen["footer"][:4] == FOOTER, path
            assert page.evaluate(WIDTH) <= width, (path, page.evaluate(WIDTH))
            assert serious_violations(page) == [], path
            heights.add(page.locator("body > header").bounding_box()["height"])
            screenshot(page, f"site{path.replace('/', '-').replace('?', '-').replace('=', '-')}-{size}-{scheme}")
        assert errors == []
        # The same header: one height on every page (on a laptop and wider, one line).
        assert len(heights) == 1, heights
        if size != "phone":
            assert heights.pop() < 3 * 16, "the header takes one line"
    finally:
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_members_name_in_the_header_leads_to_the_profile(browser, server, site, size: str) -> None:
    context = browser.new_context(**SIZES[size])
    context.add_cookies([{"name": sessions.COOKIE, "value": site["session"], "url": server.url,
                          "secure": True, "httpOnly": True}])
    try:
        page = context.new_page()
        for path in ["/", "/leaderboard", "/tournaments", f"/tournaments/{site['tournament']}"]:
            visit(page, server.url + path)
            me = page.locator("header #site-me")
            me.wait_for(state="visible")
            assert me.inner_text().endswith("Ann Lee") and page.locator("#site-guest").is_hidden(), path
            assert page.evaluate(WIDTH) <= SIZES[size]["viewport"]["width"], path
        me.click()
        page.wait_for_url(server.url + "/players/Ann%20Lee")
        page.wait_for_selector("#player-name:has-text('Ann Lee')")
    finally:
        context.close()


def test_a_guests_log_in_opens_the_start_pages_form(browser, server) -> None:
    context = browser.new_context(**SIZES["phone"])
    try:
        page = context.new_page()
        visit(page, server.url + "/leaderboard")
        page.click("header #site-login")
        page.wait_for_selector("#account-form:not([hidden])")
        assert page.inner_text("#account-form-title") == "Log in"
        assert page.evaluate("document.activeElement.id") == "account-name"
        # the lobby's own links no longer repeat the header's
        shown = "main a[href='/puzzles']:visible, main a[href='/leaderboard']:visible, main a[href='/tournaments']:visible"
        assert page.locator(shown).count() == 0
    finally:
        context.close()


def test_on_a_phone_lists_become_cards_and_wide_tables_scroll_with_a_hint(browser, server, site) -> None:
    context = browser.new_context(**SIZES["phone"])
    right = "els => Math.max(...els.map((e) => e.getBoundingClientRect().right))"
    try:
        page = context.new_page()
        visit(page, f"{server.url}/tournaments")
        page.wait_for_selector("#upcoming tbody tr")
        # the list: each tournament a card of lines, nothing past the screen's edge
        assert page.locator("#upcoming td, #upcoming th").evaluate_all(right) <= 390
        assert page.locator("#upcoming thead").bounding_box()["width"] <= 1  # for screen readers only
        assert page.locator("#upcoming td.number").first.evaluate(
            "e => getComputedStyle(e, '::before').content") == '"Players: "'
        visit(page, f"{server.url}/tournaments/{site['tournament']}")
        page.wait_for_selector("#standings tbody tr")
        # the standings are compared row against row: a table, scrolled in its box, which
        # says so while there is more to the right
        box = page.locator("#standings .table-scroll")
        assert box.evaluate("e => e.scrollWidth > e.clientWidth")
        assert page.locator("#standings .scroll-hint").is_visible()
        assert box.bounding_box()["x"] + box.bounding_box()["width"] <= 390
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        assert page.locator("#standings th:has-text('W-D-L')").bounding_box()["x"] < 390
        assert page.locator("#players td, #players th").evaluate_all(right) <= 390
    finally:
        context.close()
    context = browser.new_context(**SIZES["desktop"])
    try:
        page = context.new_page()
        visit(page, f"{server.url}/tournaments/{site['tournament']}")
        page.wait_for_selector("#standings tbody tr")
        assert page.locator("#standings .scroll-hint").is_hidden()  # nothing to scroll
        assert page.locator("#upcoming thead").count() == 0  # (the list is on /tournaments)
    finally:
        context.close()


def test_the_tournament_form_shows_only_the_chosen_formats_fields(browser, server, site) -> None:
    context = browser.new_context(**SIZES["phone"])
    context.add_cookies([{"name": sessions.COOKIE, "value": site["session"], "url": server.url,
                          "secure": True, "httpOnly": True}])
    shown = """f => [...f.querySelectorAll('input, select')].filter((e) => e.closest('label')
        && !e.closest('[hidden]')).map((e) => e.name)"""
    common = ["name", "game", "format", "starts_in", "clock", "max_players", "min_rating",
              "max_rating", "no_show", "rated", "mirrored"]
    try:
        page = context.new_page()
        visit(page, f"{server.url}/tournaments")
        form = page.locator("#create")
        form.wait_for(state="visible")
        expected = {
            ("swiss", "cribbage"): ["rounds"],
            ("arena", "cribbage"): ["minutes", "partners"],
            ("round_robin", "cribbage"): ["partners"],
            ("round_robin", "kings"): [],
            ("match", "cribbage"): ["team_a", "team_b", "team_best"],
        }
        for (format_, game), own in expected.items():
            page.select_option("#create select[name=game]", game)
            page.select_option("#create select[name=format]", format_)
            assert sorted(form.evaluate(shown)) == sorted(common + own), (format_, game)
        assert page.evaluate(WIDTH) <= 390
        # a Swiss made from the form starts with the format's own fields only
        page.select_option("#create select[name=format]", "swiss")
        page.fill("#create input[name=name]", "Form Swiss")
        page.click("#create button[type=submit]")
        page.wait_for_url(f"{server.url}/tournaments/*")
        page.wait_for_selector("#title:has-text('Form Swiss')")
        # the facts stay hidden (data-filling) until the whole view is drawn: wait to see them
        page.wait_for_selector("#facts:has-text('3 rounds')")
    finally:
        context.close()
