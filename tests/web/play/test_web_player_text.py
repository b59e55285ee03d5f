"""What the page says to players: names as the seats have them, and whole sentences."""

from __future__ import annotations

import re

import httpx
from browser_pages import DESKTOP, VERSION_AFTER, serious_violations, start_from_lobby, version

# "light ace at G7", "dark 10 at M13": colour and rank in words, then the square.
PLACEMENT = re.compile(r"\b(light|dark) (ace|[2-9]|10|jack|queen|king) at [A-M]\d{1,2}\b")
ENGINE_TILE = re.compile(r"\b[A2-9TJQK][LD]\b")  # the engine's "TD", "AL"

MINE_OR_SHOWN = """() => document.getElementById('c-banner').classList.contains('mine')
                    || document.querySelector('#c-show .muggins') !== null"""


def muggins_game(url: str, page) -> str:
    """A Cribbage game under muggins against the medium computer, this page in seat 1."""
    page.goto(url + "/")
    page.wait_for_selector("#new-game[data-ready]")
    page.check('#game-choice input[value="cribbage"]')
    page.locator(".seat-row").nth(1).locator(".level").select_option("medium")
    page.check("#cribbage-options [name=muggins]")
    page.click("#start")
    page.wait_for_selector("#c-hand .card")
    return page.url.split("game=")[1].split("&")[0]


def test_muggins_names_the_taker_whole_and_says_points(browser, server) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    game_id = muggins_game(server.url, page)
    computer = httpx.get(f"{server.url}/api/games/{game_id}").json()["seats"][1]["name"]
    assert " " in computer  # the name that was cut at its first space
    for _ in range(300):
        page.wait_for_function(MINE_OR_SHOWN, timeout=60_000)
        if page.locator("#c-show .muggins").count():
            break
        before = version(page)
        if page.is_visible("#c-claim-box"):
            page.fill("#c-claim", "0")  # count nothing: whatever the hand holds is missed
            page.click("#c-claim-send")
        elif page.is_visible("#c-discard"):
            cards = page.locator("#c-hand .card")
            cards.nth(0).click()
            cards.nth(1).click()
            page.click("#c-discard")
            # the computer's discard may bump the version first: wait for ours
            page.wait_for_selector("#c-discard", state="hidden", timeout=30_000)
        elif page.is_visible("#c-go"):
            page.click("#c-go")
        else:
            page.locator("#c-hand .card.playable").first.click()
        page.wait_for_function(VERSION_AFTER, arg=before, timeout=30_000)
    text = page.locator("#c-show .muggins").first.inner_text()
    match = re.fullmatch(r"Muggins! (.+) takes (\d+) missed points?", text)
    assert match, text
    assert match.group(1) == computer
    assert (match.group(2) == "1") == text.endswith("point")
    page.context.close()


def test_kings_history_hint_and_refusal_use_the_people_notation(browser, server) -> None:
    """The history, the hint and a refusal all write a tile as "dark 10 at G7": the
    engine's T and its "TD at G7" never reach the page."""
    page = browser.new_context(**DESKTOP).new_page()
    start_from_lobby(page, server.url, ["computer", "human"])
    played = page.locator("#history li").filter(has_text="played")
    for _ in range(6):  # pass until the computer has played (not exchanged) once
        page.wait_for_selector(".turn-banner.mine", timeout=60_000)
        if played.count():
            break
        turns = page.locator("#history li").count()
        page.click("#pass")
        page.wait_for_function("(n) => document.querySelectorAll('#history li').length >= n + 2",
                               arg=turns, timeout=60_000)
    history = played.first.inner_text()
    assert PLACEMENT.search(history), history
    page.click("#hint")
    page.wait_for_selector("#hint-box[data-hint]")
    hint = page.inner_text("#hint-box")
    assert PLACEMENT.search(hint) or "exchange" in hint, hint
    # A tile put far from the others: the refusal names squares, never engine tiles.
    page.locator("#rack .tile").nth(0).click()
    page.click('[data-square="A13"]')
    page.wait_for_selector("#preview.bad")
    for text in (history, hint, page.inner_text("#preview")):
        assert not ENGINE_TILE.search(text), text
    page.context.close()


def test_invite_copy_join_page_facts_and_the_remembered_name(browser, server) -> None:
    host = browser.new_context(**DESKTOP)
    host.grant_permissions(["clipboard-read", "clipboard-write"])
    page = host.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#new-game[data-ready]")
    assert page.input_value(".seat-row .name") == ""  # nothing remembered yet
    page.locator(".seat-row").nth(0).locator(".name").fill("Ann")
    page.locator(".seat-row").nth(1).locator(".kind").select_option("human")
    page.check("#rule-options [name=joker]")
    page.select_option("#clock-choice", "600")
    page.click("#start")
    page.wait_for_selector("#invite-link")
    page.click("#invite-copy")
    page.wait_for_function("() => document.getElementById('invite-copy').textContent === 'Copied'")
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert link == page.input_value("#invite-link")
    # The start page remembers the name for the next game.
    page.goto(server.url + "/")
    page.wait_for_selector("#new-game[data-ready]")
    assert page.input_value(".seat-row .name") == "Ann"

    friend = browser.new_context(**DESKTOP).new_page()
    friend.goto(link)
    friend.wait_for_selector("#join-details dd")
    facts = dict(zip(friend.locator("#join-details dt").all_inner_texts(),
                     friend.locator("#join-details dd").all_inner_texts(), strict=True))
    assert friend.inner_text("#join-title") == "Join a game of Kings Cribbage"
    assert facts["Invited by"] == "Ann"
    assert facts["Players"] == "Ann, an open seat"
    assert "Joker" in facts["Rules"]
    assert facts["Clock"].startswith("10 minutes each")
    assert serious_violations(friend) == []
    friend.fill("#join-name", "Bob")
    friend.click("#join-seats button")
    friend.wait_for_selector("#rack .tile")
    friend.goto(server.url + "/")
    friend.wait_for_selector("#new-game[data-ready]")
    assert friend.input_value(".seat-row .name") == "Bob"  # joining remembers it too
    host.close()
    friend.context.close()


def test_cribbage_hint_is_labelled_and_marks_its_cards(browser, server) -> None:
    from kingscrib.classic.cards import Card

    page = browser.new_context(**DESKTOP).new_page()
    start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
    page.wait_for_selector("#c-discard:not([hidden])")
    page.click("#c-hint")
    page.wait_for_selector("#c-hint-box b")
    text = page.inner_text("#c-hint-box")
    assert text.startswith("Hint (you asked; from the coach): lay away ")
    marked = page.locator("#c-hand .card.hinted").evaluate_all("els => els.map(e => e.dataset.card)")
    assert len(marked) == 2
    assert f"lay away {' '.join(Card.parse(c).pretty() for c in marked)}" in text
    assert serious_violations(page) == []
    for card in marked:
        page.click(f'#c-hand [data-card="{card}"]')
    page.click("#c-discard")
    page.wait_for_selector("#c-hint-box", state="hidden")  # the next state clears it
    page.context.close()


def test_the_invitation_counts_its_days_per_move(browser, server) -> None:
    page = browser.new_context(**DESKTOP).new_page()
    for days, said in ((1, "1 day per move"), (3, "3 days per move")):
        created = httpx.post(f"{server.url}/api/games", json={
            "seats": [{"name": "Ann"}, {}], "clock_days_per_move": days}).json()
        page.goto(f"{server.url}/?game={created['game_id']}&invite={created['invite']}")
        page.wait_for_selector("#join-details dd")
        facts = dict(zip(page.locator("#join-details dt").all_inner_texts(),
                         page.locator("#join-details dd").all_inner_texts(), strict=True))
        assert facts["Clock"] == f"{said} (correspondence); whoever runs out of time loses"
    page.context.close()
