"""Dark mode (the system's, or chosen and remembered), things that glide rather than jump
(and stay still for reduced motion), and the sound set (off until turned on, remembered)."""

from __future__ import annotations

import pytest
from browser_pages import DESKTOP, PHONE, serious_violations, start_from_lobby

BACKGROUND = """() => {
  const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
  return (r + g + b) / 3;
}"""


def brightness(page) -> float:
    return page.evaluate(BACKGROUND)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_dark_follows_the_system_then_the_choice_is_remembered(browser, server, size) -> None:
    context = browser.new_context(color_scheme="dark", **(PHONE if size == "phone" else DESKTOP))
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#new-game[data-ready]")
        assert brightness(page) < 60  # the system says dark
        assert page.evaluate("() => document.body.scrollWidth <= innerWidth")  # header fits
        assert serious_violations(page) == []
        page.click("#theme")  # auto -> dark
        page.click("#theme")  # dark -> light
        assert page.get_attribute("#theme", "data-theme") == "light"
        assert brightness(page) > 200
        page.reload()
        page.wait_for_selector("#new-game[data-ready]")
        assert brightness(page) > 200  # remembered
        page.click("#theme")  # light -> auto
        assert brightness(page) < 60
        # The games in dark: nothing an audit calls serious (contrast above all).
        start_from_lobby(page, server.url, ["human", "computer"])
        page.wait_for_selector(".turn-banner.mine", timeout=60_000)
        assert serious_violations(page) == []
        start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
        page.wait_for_selector("#c-hand .card")
        assert serious_violations(page) == []
    finally:
        context.close()


GLIDING = "() => document.getAnimations().filter((a) => a.playState === 'running').length"


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_card_laid_glides_unless_motion_is_reduced(browser, server, motion: str) -> None:
    context = browser.new_context(reduced_motion=motion, **DESKTOP)
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
        page.wait_for_selector("#c-discard:not([hidden])")
        page.locator("#c-hand .card").nth(0).click()
        page.locator("#c-hand .card").nth(1).click()
        page.click("#c-discard")
        page.wait_for_selector("#c-hand .card.playable", timeout=60_000)
        card = page.locator("#c-hand .card.playable").first.get_attribute("data-card")
        page.evaluate("""(card) => new Promise((done) => {
          const seen = new MutationObserver(() => {
            if (document.querySelector(`#c-series [data-card="${card}"]`)) {
              seen.disconnect();
              window.glidingAfterLaying = document.getAnimations().length;
              done();
            }
          });
          seen.observe(document.getElementById('c-series'), { childList: true, subtree: true });
          document.querySelector(`#c-hand [data-card="${card}"]`).click();
        })""", card)
        gliding = page.evaluate("() => window.glidingAfterLaying")
        assert (gliding > 0) == (motion == "no-preference")
    finally:
        context.close()


# The page's sounds are made with WebAudio; here each note started is counted.
COUNT_NOTES = """
window.notes = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  createOscillator() {
    const osc = super.createOscillator();
    const start = osc.start.bind(osc);
    osc.start = (...args) => { window.notes += 1; return start(...args); };
    return osc;
  }
};
"""


def test_sounds_are_off_until_turned_on_and_the_choice_is_kept(browser, server) -> None:
    context = browser.new_context(**DESKTOP)
    context.add_init_script(COUNT_NOTES)
    page = context.new_page()
    try:
        start_from_lobby(page, server.url, ["human", "computer"], game="cribbage")
        page.wait_for_selector("#c-discard:not([hidden])")
        assert page.inner_text("#sound") == "Sound off"

        page.locator("#c-hand .card").nth(0).click()
        page.locator("#c-hand .card").nth(1).click()
        page.click("#c-discard")
        computer_laid(page, 1)
        assert page.evaluate("() => window.notes") == 0  # off by default: not a note
        page.click("#sound")
        assert page.inner_text("#sound") == "Sound on"
        page.reload()
        page.wait_for_selector("#c-hand")
        assert page.inner_text("#sound") == "Sound on"  # remembered
        before = page.evaluate("() => window.notes")
        for _ in range(20):  # play on until the computer lays, says go or scores: heard
            page.wait_for_function(f"""() => window.notes > {before}
                || document.getElementById('c-banner').classList.contains('mine')""",
                                   timeout=60_000)
            if page.evaluate("() => window.notes") > before:
                break
            act(page)
        assert page.evaluate("() => window.notes") > before
    finally:
        context.close()


COMPUTER_CARDS = """() => [...document.querySelectorAll('#c-calls li')]
                      .filter((li) => /^Computer.* plays /.test(li.textContent)).length"""


def computer_laid(page, n: int) -> None:
    """Play this seat's cards (or Go) until the computer has laid ``n`` cards this deal."""
    for _ in range(20):
        page.wait_for_function(f"""() => ({COMPUTER_CARDS})() >= {n}
            || document.getElementById('c-banner').classList.contains('mine')""", timeout=60_000)
        if page.evaluate(COMPUTER_CARDS) >= n:
            return
        act(page)
    raise AssertionError("the computer laid no card")


def act(page) -> None:
    """This seat's turn: Go, or its first playable card, or a discard of the first cards."""
    version = int(page.get_attribute("#cribbage", "data-version"))
    if page.is_visible("#c-go"):
        page.click("#c-go")
    elif page.is_visible("#c-discard"):
        cards = page.locator("#c-hand .card")
        i = 0
        while page.is_disabled("#c-discard"):
            cards.nth(i).click()
            i += 1
        page.click("#c-discard")
        # the computer's discard may bump the version first: wait for ours
        page.wait_for_selector("#c-discard", state="hidden", timeout=30_000)
    else:
        page.locator("#c-hand .card.playable").first.click()
    page.wait_for_function("(v) => Number(document.getElementById('cribbage').dataset.version) > v",
                           arg=version)
