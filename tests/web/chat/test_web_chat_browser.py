"""Chat in Chromium: two players in two browser contexts chat in their game, a logged-in
spectator in a third context chats in the spectators' room (neither room sees the other),
text shows as typed (never as markup), and a muted player's messages vanish for the
muter only, who still has them muted after a reload."""

from __future__ import annotations

import httpx
from browser_pages import (
    DESKTOP,
    PHONE,
    outside_viewport,
    screenshot,
    serious_violations,
    watch_errors,
)

PASSWORD = "tiles and pegs"


def open_game(browser, url: str, game_id: str, token: str | None, size: dict):
    context = browser.new_context(**size)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(url + "/")
    if token:
        page.evaluate("([id, t]) => localStorage.setItem(`kingscrib:token:${id}`, t)",
                      [game_id, token])
    return context, page, errors


def lines(page) -> list[str]:
    return page.locator("#chat-log .chat-words").all_inner_texts()


def send(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def test_two_players_and_a_spectator_chat_and_a_mute_holds_for_the_muter_only(
        browser, server) -> None:
    created = httpx.post(f"{server.url}/api/games",
                         json={"seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    gid = created["game_id"]
    bob_token = httpx.post(f"{server.url}/api/games/{gid}/join",
                           json={"invite": created["invite"], "name": "Bob"}).json()["token"]
    ann_ctx, ann, ann_errors = open_game(browser, server.url, gid, created["token"], DESKTOP)
    bob_ctx, bob, bob_errors = open_game(browser, server.url, gid, bob_token, PHONE)
    fan_ctx, fan, fan_errors = open_game(browser, server.url, gid, None, DESKTOP)
    try:
        signed = fan.evaluate("""async (password) => (await fetch('/api/account/signup', {
            method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Fan', password})})).status""", PASSWORD)
        assert signed == 201
        for page in (ann, bob, fan):
            page.goto(f"{server.url}/?game={gid}")
            page.wait_for_selector("#chat-form:not([hidden])")
        assert ann.inner_text("#chat-title") == "Chat with the players"
        assert fan.inner_text("#chat-title") == "Spectators' chat"

        send(ann, "<b>hello</b> Bob & good luck")
        bob.wait_for_selector("#chat-log .chat-line")
        assert lines(bob) == ["<b>hello</b> Bob & good luck"]  # shown as typed
        assert bob.locator("#chat-log b.chat-name").count() == 1  # no <b> made from it
        assert bob.inner_text("#chat-log .chat-name") == "Ann"
        send(bob, "thanks, you too")
        ann.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 2")
        send(fan, "enjoying this one")
        fan.wait_for_selector("#chat-log .chat-line")
        assert lines(fan) == ["enjoying this one"]  # the players' room is not shown here
        bob.wait_for_timeout(300)
        assert lines(ann) == ["<b>hello</b> Bob & good luck", "thanks, you too"]
        assert lines(bob) == lines(ann)  # nor the spectators' room there

        # Bob mutes Ann: her messages vanish for him only, now and later.
        bob.click(".chat-line[data-sender='g0'] .chat-mute")
        bob.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 1")
        assert lines(bob) == ["thanks, you too"]
        send(ann, "can you read me?")
        ann.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 3")
        send(bob, "still here")
        ann.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 4")
        bob.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 2")
        assert lines(bob) == ["thanks, you too", "still here"]
        bob.reload()
        bob.wait_for_selector("#chat-log .chat-line")
        bob.wait_for_timeout(300)
        assert lines(bob) == ["thanks, you too", "still here"]
        assert lines(ann)[2] == "can you read me?"

        # Refused input says why and keeps nothing.
        send(ann, "x" * 300 + "y")  # the field holds 300: the 301st is never typed
        ann.wait_for_function("() => document.querySelectorAll('#chat-log .chat-line').length === 5")
        assert lines(ann)[-1] == "x" * 300
        for page in (ann, bob, fan):
            assert outside_viewport(page) == []
            assert serious_violations(page) == []
        screenshot(ann, "chat-player-desktop")
        screenshot(bob, "chat-player-phone")
        screenshot(fan, "chat-spectator-desktop")
        assert ann_errors == bob_errors == fan_errors == []
    finally:
        for context in (ann_ctx, bob_ctx, fan_ctx):
            context.close()


def test_your_turn_and_a_moderator_who_hides_a_reported_message_and_bans_an_account(
        browser, server) -> None:
    from click.testing import CliRunner

    from kingscrib.cli.main import cli

    created = httpx.post(f"{server.url}/api/games",
                         json={"seats": [{"name": "Ann"}, {"name": "Bob"}],
                               "clock_days_per_move": 2}).json()
    gid = created["game_id"]
    joined = httpx.post(f"{server.url}/api/games/{gid}/join",
                        json={"invite": created["invite"], "name": "Bob"}).json()
    tokens = [created["token"], joined["token"]]
    mover = httpx.get(f"{server.url}/api/games/{gid}").json()["turn"]
    said = httpx.post(f"{server.url}/api/games/{gid}/chat", json={"text": "<i>rude</i> words"},
                      headers={"Authorization": f"Bearer {tokens[1 - mover]}"}).json()
    reported = httpx.post(f"{server.url}/api/chat/{said['id']}/report",
                          headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert reported.status_code == 201
    player_ctx, player, player_errors = open_game(browser, server.url, gid, tokens[mover],
                                                  PHONE)
    mod_ctx, mod, mod_errors = open_game(browser, server.url, gid, None, DESKTOP)
    try:
        # The start page says the game waits for this browser's seat, in the title too.
        player.goto(server.url + "/")
        player.wait_for_selector("#your-turn-list li[data-game]")
        assert player.inner_text("#your-turn-count") == "1"
        assert player.title().startswith("(1) ")
        assert "for this move" in player.inner_text("#your-turn-list li")
        screenshot(player, "your-turn-phone")
        assert serious_violations(player) == []
        player.click(f"#your-turn-list a[href='/?game={gid}']")
        player.wait_for_selector("#chat-log .chat-line")
        assert player.inner_text("#chat-log .chat-words") == "<i>rude</i> words"

        signed = mod.evaluate("""async (password) => (await fetch('/api/account/signup', {
            method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Mo', password})})).status""", PASSWORD)
        assert signed == 201
        mod.goto(server.url + "/moderate")
        mod.wait_for_selector("#mod-status:has-text('moderators only')")
        granted = CliRunner().invoke(cli, ["moderator", "grant", "Mo", "--database-url",
                                           server.database_url])
        assert granted.exit_code == 0, granted.output
        mod.goto(server.url + "/")  # a moderator's account panel links to the page
        mod.click("#moderate-link")
        row = mod.locator(f"#report-rows tr[data-message='{said['id']}']")
        row.wait_for()
        assert row.locator("td").first.inner_text() == "<i>rude</i> words"
        assert mod.locator("#report-rows i").count() == 0
        mod.wait_for_selector("#no-flags:not([hidden])")  # no rated game set aside yet
        assert outside_viewport(mod) == []
        assert serious_violations(mod) == []
        screenshot(mod, "moderate-desktop")
        row.locator("button:has-text('Hide')").click()
        mod.wait_for_selector("#no-reports:not([hidden])")
        player.wait_for_function("() => !document.querySelector('#chat-log .chat-line')")

        # A ban by name from the page: the account is refused when it starts a game and
        # when it logs in again, each time saying why.
        troll_ctx, troll, troll_errors = open_game(browser, server.url, gid, None, DESKTOP)
        signed = troll.evaluate("""async (password) => (await fetch('/api/account/signup', {
            method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Troll', password})})).status""", PASSWORD)
        assert signed == 201
        mod.fill("#ban-name", "Troll")
        mod.fill("#ban-reason", "abuse in chat")
        mod.click("#ban-form button[type=submit]")
        mod.wait_for_selector("#ban-list li:has-text('Troll — abuse in chat')")
        troll.goto(server.url + "/")
        troll.wait_for_selector("#new-game[data-ready]")
        alerts: list[str] = []  # the start page alerts its refusals
        troll.once("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
        troll.click("#start")
        troll.wait_for_function("() => !document.getElementById('start').disabled")
        assert alerts == ["this account is banned by the moderators: it cannot create games"]
        troll.click("#logout")
        troll.wait_for_selector("#account-status:has-text('guest')")
        troll.click("#show-login")
        troll.fill("#account-name", "Troll")
        troll.fill("#account-password", PASSWORD)
        troll.click("#account-submit")
        troll.wait_for_selector("#account-message:has-text('banned by the moderators')")
        troll_ctx.close()
        assert player_errors == mod_errors == troll_errors == []
    finally:
        player_ctx.close()
        mod_ctx.close()


def test_a_game_of_computers_only_shows_its_spectators_chat_and_speaks_of_no_players(
        browser, server) -> None:
    for game, level in (("kings", "greedy"), ("classic", "easy")):
        created = httpx.post(f"{server.url}/api/games", json={
            "game": game, "seats": [{"kind": "computer", "level": level}] * 2}).json()
        assert created["token"] is None  # nobody holds a seat
        context, page, errors = open_game(browser, server.url, created["game_id"], None, PHONE)
        try:
            signed = page.evaluate("""async ([name, password]) => (await fetch('/api/account/signup', {
                method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({name, password})})).status""", [f"Fan{game}", PASSWORD])
            assert signed == 201
            page.goto(f"{server.url}/?game={created['game_id']}")
            page.wait_for_selector("#chat-form:not([hidden])")
            page.wait_for_function(
                "() => !document.getElementById('chat-note').textContent.includes('players')")
            assert page.inner_text("#chat-title") == "Spectators' chat"
            assert "player" not in page.inner_text("#chat").lower()
            assert page.locator("#chat").count() == 1  # one chat panel, the spectators'
            send(page, "nice play, computer")
            page.wait_for_selector("#chat-log .chat-line")
            assert lines(page) == ["nice play, computer"]
            assert errors == []
        finally:
            context.close()


def test_a_message_refused_for_flooding_stays_in_the_box_with_its_reason(
        browser, server) -> None:
    from kingscrib.web.chat.rooms import BURST, EVERY
    created = httpx.post(f"{server.url}/api/games",
                         json={"seats": [{"name": "Ann"}, {"name": "Bob"}]}).json()
    gid = created["game_id"]
    bob_token = httpx.post(f"{server.url}/api/games/{gid}/join",
                           json={"invite": created["invite"], "name": "Bob"}).json()["token"]
    ann_ctx, ann, ann_errors = open_game(browser, server.url, gid, created["token"], DESKTOP)
    bob_ctx, bob, bob_errors = open_game(browser, server.url, gid, bob_token, DESKTOP)
    try:
        for page in (ann, bob):
            page.goto(f"{server.url}/?game={gid}")
            page.wait_for_selector("#chat-form:not([hidden])")
        for n in range(BURST):
            send(ann, f"message {n + 1}")
            ann.wait_for_function("(n) => document.querySelectorAll('#chat-log li').length === n",
                                  arg=n + 1)
            # taken: the box empties (when the server's answer comes, which may be just
            # after the message itself reached the log)
            ann.wait_for_function("() => document.getElementById('chat-text').value === ''")
        send(ann, "one too many")
        ann.wait_for_function("() => document.getElementById('chat-message').textContent")
        assert "too fast" in ann.inner_text("#chat-message")
        assert ann.input_value("#chat-text") == "one too many"  # not lost
        send(bob, "slow down, Ann")
        ann.wait_for_function("(n) => document.querySelectorAll('#chat-log li').length === n",
                              arg=BURST + 1)
        assert "too fast" in ann.inner_text("#chat-message")  # still there to read
        ann.wait_for_timeout(EVERY * 1000 + 200)
        ann.press("#chat-text", "Enter")  # the same text, sent again
        ann.wait_for_function("(n) => document.querySelectorAll('#chat-log li').length === n",
                              arg=BURST + 2)
        assert lines(bob)[-1] == "one too many"
        ann.wait_for_function("() => document.getElementById('chat-text').value === ''")
        assert ann.inner_text("#chat-message") == ""
        assert ann_errors == [] and bob_errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()
