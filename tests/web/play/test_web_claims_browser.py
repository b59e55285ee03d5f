"""An over-claim as the claimer sees it in the page (Chromium against a real server):
the correction, in the message line and under the play or hand."""

from __future__ import annotations

import httpx
from browser_pages import screenshot
from web_support import auth

from kingscrib.classic.game import Claim, ClassicGame
from kingscrib.classic.rules import RuleSet as ClassicRules
from kingscrib.classic.show import score_show
from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import Game
from kingscrib.kings.rules import RuleSet


def two_people(server, body: dict) -> tuple[str, list[str]]:
    created = httpx.post(f"{server.url}/api/games", json={
        "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 11, **body}).json()
    joined = httpx.post(f"{server.url}/api/games/{created['game_id']}/join",
                        json={"invite": created["invite"]}).json()
    return created["game_id"], [created["token"], joined["token"]]


def open_as(browser, server, gid: str, token: str):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/")
    page.evaluate("([id, t]) => localStorage.setItem(`kingscrib:token:${id}`, t)", [gid, token])
    page.goto(f"{server.url}/?game={gid}")
    return page


def act(server, gid: str, token: str, body: dict) -> None:
    r = httpx.post(f"{server.url}/api/games/{gid}/actions", json=body, headers=auth(token))
    assert r.status_code == 200, r.text


def test_the_kings_claimer_reads_the_correction(browser, server) -> None:
    gid, tokens = two_people(server, {"rules": {"joker": True}})
    engine = Game.new(["Ann", "Bob"], RuleSet(joker=True), 11)
    page = open_as(browser, server, gid, tokens[0])
    page.wait_for_selector("#rack .tile")
    if engine.turn == 1:  # Bob plays first, claiming in full
        best = legal_plays(engine.board, engine.racks[1], engine.rules)[0]
        act(server, gid, tokens[1], {"action": "play", "tiles": best.play.tiles_json()})
        engine.play(best.play)
    best = legal_plays(engine.board, engine.racks[0], engine.rules)[0]
    act(server, gid, tokens[0], {"action": "play", "tiles": best.play.tiles_json(),
                                 "claim": best.total + 2})
    said = f"You claimed {best.total + 2}; the play is worth {best.total}: 2 go to Bob."
    page.wait_for_function("(s) => document.getElementById('message').textContent === s",
                           arg=said, timeout=10_000)
    assert f"{best.total} (claimed {best.total + 2}: 2 to Bob)" in page.inner_text("#history")
    screenshot(page, "kings-over-claim")
    page.close()


def lay_by_clicking(page, tiles: dict[str, str]) -> None:
    """Place ``tiles`` (square: tile) from the rack by clicking, turning a 9 held as a 6."""
    for square, tile in tiles.items():
        held = "6" + tile[1] if tile[0] == "9" else tile
        page.locator(f'#rack .tile[data-held="{held}"]').first.click()
        if tile[0] == "9":
            page.click("#turn69")
        page.click(f'[data-square="{square}"]')
    page.wait_for_function("() => document.getElementById('preview').textContent"
                           ".startsWith('Legal')", timeout=10_000)


# The server sends the new state, then the reply to the action; on a busy machine the
# reply can come well after the state. This holds every reply back 800 ms, so a page that
# acts only on the reply shows the played state with the old claim still in the box.
SLOW_REPLIES = """
(() => {
  const setter = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage").set;
  Object.defineProperty(WebSocket.prototype, "onmessage", {
    set(handler) {
      setter.call(this, (event) => {
        const ref = JSON.parse(event.data).ref;
        if (ref === undefined) { handler(event); return; }
        window.heldReplies = (window.heldReplies || 0) + 1;
        setTimeout(() => { window.heldReplies -= 1; handler(event); }, 800);
      });
    },
  });
})();
"""


def test_the_kings_claim_box_starts_empty_each_turn(browser, server) -> None:
    """Claim 19 for a play worth 16, and the next play, the box untouched, claims its
    full value: the box is this play's, not the next one's. The box is empty as soon as
    the play shows, however late the server's reply to it comes."""
    gid, tokens = two_people(server, {"rules": {"joker": True}})
    engine = Game.new(["Ann", "Bob"], RuleSet(joker=True), 11)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.add_init_script(SLOW_REPLIES)
    page.goto(server.url + "/")
    page.evaluate("([id, t]) => localStorage.setItem(`kingscrib:token:${id}`, t)", [gid, tokens[0]])
    page.goto(f"{server.url}/?game={gid}")
    page.wait_for_selector("#rack .tile")
    assert engine.turn == 0  # seed 11: Ann first
    assert page.get_attribute("#claim", "placeholder") == "all"
    assert page.inner_text("#claim-note") == "empty: the play's full value"
    first = legal_plays(engine.board, engine.racks[0], engine.rules)[0]
    lay_by_clicking(page, first.play.tiles_json())
    page.fill("#claim", str(first.total + 3))
    page.click("#commit")
    said = f"You claimed {first.total + 3}; the play is worth {first.total}: 3 go to Bob."
    page.wait_for_function("(s) => document.getElementById('message').textContent === s",
                           arg=said, timeout=10_000)
    engine.play(first.play, claim=first.total + 3)
    assert page.input_value("#claim") == ""
    page.wait_for_function("() => window.heldReplies === 0", timeout=10_000)
    reply = legal_plays(engine.board, engine.racks[1], engine.rules)[0]
    act(server, gid, tokens[1], {"action": "play", "tiles": reply.play.tiles_json()})
    engine.play(reply.play)
    page.wait_for_function("() => document.querySelectorAll('#history li').length === 2",
                           timeout=10_000)
    second = legal_plays(engine.board, engine.racks[0], engine.rules)[0]
    lay_by_clicking(page, second.play.tiles_json())
    page.click("#commit")
    page.wait_for_function("() => document.querySelectorAll('#history li').length === 3",
                           timeout=10_000)
    engine.play(second.play)
    assert "claimed" not in page.inner_text("#message")
    assert f": {second.total} (claimed {second.total})" in page.locator("#history li").nth(2).inner_text()
    seats = httpx.get(f"{server.url}/api/games/{gid}").json()["seats"]
    assert [s["score"] for s in seats] == list(engine.scores)
    page.close()


def test_the_cribbage_claimer_reads_the_correction(browser, server) -> None:
    gid, tokens = two_people(server, {"game": "classic", "rules": {"muggins": True}})
    engine = ClassicGame(ClassicRules(players=2, muggins=True), 11, explicit_go=True)
    page = open_as(browser, server, gid, tokens[0])
    page.wait_for_selector("#c-hand .card")
    while engine.show_item is None or engine.show_item.seat != 0:
        seat = engine.waiting_for()[0]
        action = engine.legal_for(seat)[0]
        if isinstance(action, Claim):  # Bob counts his hand exactly
            item = engine.show_item
            action = Claim(score_show(item.cards, engine.starter, item.kind == "crib").total)
        act(server, gid, tokens[seat], _body(action))
        engine.apply(action, seat)
    item = engine.show_item
    value = score_show(item.cards, engine.starter, item.kind == "crib").total
    page.wait_for_selector("#c-claim-box:not([hidden])")
    page.fill("#c-claim", str(value + 3))
    page.click("#c-claim-send")
    said = f"You claimed {value + 3}; the {item.kind} is worth {value}: 3 go to Bob"
    page.wait_for_function("(s) => document.getElementById('c-message').textContent === s",
                           arg=said, timeout=10_000)
    assert said in page.inner_text("#cribbage")
    screenshot(page, "cribbage-over-claim")
    page.close()


def _body(action) -> dict:
    if hasattr(action, "cards"):
        return {"action": "discard", "cards": [str(c) for c in action.cards]}
    if hasattr(action, "card"):
        return {"action": "play", "card": str(action.card)}
    if isinstance(action, Claim):
        return {"action": "claim", "points": action.points}
    return {"action": "go"}
