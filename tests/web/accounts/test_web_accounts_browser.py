"""The account panel of the start page in Chromium: a guest with a game signs up (the
game comes along), logs out (the account's game is no longer this browser's), logs in
again by keyboard and opens the game, which plays on; the panel fits both sizes and
passes the axe audit."""

from __future__ import annotations

import pytest
from browser_pages import (
    outside_viewport,
    screenshot,
    serious_violations,
    sized_page,
    start_from_lobby,
)

PASSWORD = "tiles and pegs"


def status(page) -> str:
    return page.inner_text("#account-status")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sign_up_log_out_and_log_in_on_the_start_page(browser, server, size: str) -> None:
    name = f"Maya {size}"
    with sized_page(browser, size) as (page, errors):
        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector("#rack .tile")
        page.goto(server.url + "/")
        page.wait_for_selector("#account:not([hidden])")
        page.wait_for_selector("#your-turn-list li[data-game]")  # listed there, not twice
        page.wait_for_selector("#my-games-list li", state="attached")
        assert status(page) == "Playing as a guest."
        screenshot(page, f"account-guest-{size}")

        page.click("#show-signup")
        assert page.get_attribute("#show-signup", "aria-expanded") == "true"
        assert page.evaluate("document.activeElement.id") == "account-name"
        page.fill("#account-name", "Computer")  # refused, with the reason, nothing changes
        page.fill("#account-password", PASSWORD)
        page.click("#account-submit")
        page.wait_for_selector("#account-message:has-text('computer seat')")
        assert status(page) == "Playing as a guest."
        page.fill("#account-name", name)
        screenshot(page, f"account-signup-{size}")
        assert serious_violations(page) == []
        page.click("#account-submit")
        page.wait_for_selector(f"#account-status:has-text('Logged in as {name}.')")
        assert page.is_hidden("#account-form")
        assert page.locator("#my-games-list li").count() == 1  # the guest's game came along
        assert outside_viewport(page) == []
        assert serious_violations(page) == []
        screenshot(page, f"account-member-{size}")
        cookie = next(c for c in page.context.cookies() if c["name"] == "kingscrib_session")
        assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Lax"

        page.click("#logout")
        page.wait_for_selector("#account-status:has-text('Playing as a guest.')")
        page.wait_for_selector("#my-games", state="hidden")  # the account's, not the guest's

        # Log in again by keyboard only: Enter on the focused button, type, Enter.
        assert page.evaluate("document.activeElement.id") == "show-login"
        page.keyboard.press("Enter")
        page.keyboard.type(name.upper())  # names match whatever the case
        page.keyboard.press("Tab")
        page.keyboard.type("wrong password")
        page.keyboard.press("Enter")
        page.wait_for_selector("#account-message:has-text('wrong user name or password')")
        page.fill("#account-password", "")
        page.focus("#account-password")
        page.keyboard.type(PASSWORD)
        screenshot(page, f"account-login-{size}")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#account-status:has-text('Logged in as {name}.')")
        page.wait_for_selector("#my-games-list li", state="attached")
        page.reload()  # the session outlives the page
        page.wait_for_selector(f"#account-status:has-text('Logged in as {name}.')")
        page.click("#your-turn-list li a")  # the account's game plays on, logged in
        page.wait_for_selector("#rack .tile")
        page.wait_for_selector("#turn-banner.mine")
        page.goto(server.url + "/")
        page.wait_for_selector(f"#account-status:has-text('Logged in as {name}.')")
        page.click("#logout")
        page.wait_for_selector("#account-status:has-text('Playing as a guest.')")
        assert errors == []
