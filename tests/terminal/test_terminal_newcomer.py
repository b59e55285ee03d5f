"""Both full-screen games tried as a new user would, at 80x24 and 110x30: keys typed
faster than the screens change, screens taller than the terminal, what a move shows."""

from __future__ import annotations

import asyncio
import io

import pytest
from rich.console import Console
from test_terminal_app import screen_text
from textual import events
from textual.containers import VerticalScroll

from kingscrib.cli.classic import after_reply
from kingscrib.terminal import storage
from kingscrib.terminal.classic_app import ClassicApp
from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.kings import MOVE, THINKING, Seat, Session
from kingscrib.terminal.kings_app import KingsApp
from kingscrib.terminal.screens.handover import HandoverScreen
from kingscrib.terminal.screens.info import InfoScreen
from kingscrib.terminal.views import classic as classic_view
from kingscrib.terminal.views.replies import plain_text

SMALL, WIDE = (80, 24), (110, 30)


@pytest.fixture(autouse=True)
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    return tmp_path


def kings(seats=None, seed=9) -> KingsApp:
    session = Session.new(seats or [Seat("You"), Seat("Computer", "computer", "greedy")],
                          seed=seed)
    return KingsApp(session, lambda reply: storage.keep_what_a_reply_asks(session, reply))


def classic(seed=3, **kw) -> ClassicApp:
    session = ClassicSession.new(seed=seed, level="easy", **kw)
    return ClassicApp(session, lambda reply: after_reply(session, reply))


async def settle(pilot) -> None:
    app = pilot.app
    for _ in range(500):
        await pilot.pause(0.01)
        if not app.thinking and app.session.state != THINKING:
            await pilot.pause(0.05)
            return
    raise AssertionError("the computer never finished")


def typed_at_once(app, keys) -> None:
    """Keys arriving together, as from a fast typist or a paste: all are queued before
    any is handled (the pilot's press waits for each key to be handled)."""
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app._driver.send_message(event)


async def type_line(pilot, text: str) -> None:
    await pilot.press(*[{" ": "space"}.get(ch, ch) for ch in text], "enter")
    await settle(pilot)


# ----- keys faster than the screens ---------------------------------------------------

@pytest.mark.parametrize("make", [classic, kings])
def test_quit_typed_at_once_after_help_quits_without_a_crash(make):
    app = make()

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await pilot.press(*"help", "enter")
            assert isinstance(app.screen, InfoScreen)
            typed_at_once(app, [*"quit", "enter"])
            await pilot.pause(0.3)
        assert app.return_code == 0  # quit, not a traceback

    asyncio.run(asyncio.wait_for(run(), 60))


@pytest.mark.parametrize("make", [classic, kings])
def test_every_key_at_once_on_an_info_screen_leaves_the_game_screen(make):
    app = make()

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await pilot.press("f1")
            typed_at_once(app, ["escape", "enter", "space", "x", "down", "enter", "f1",
                                "escape", "escape", "tab", "enter", "pagedown", "z"])
            await settle(pilot)
            await pilot.pause(0.2)
            assert len(app.screen_stack) <= 2  # at most the help opened again by F1
            while isinstance(app.screen, InfoScreen):
                await pilot.press("escape")
            assert app.screen is app.screen_stack[0]
            assert app.return_code is None

    asyncio.run(asyncio.wait_for(run(), 60))


def test_two_enters_at_once_on_the_handover_screen_hand_over_once():
    app = kings([Seat("Ann"), Seat("Bob")], seed=0)

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause(0.2)
            assert isinstance(app.screen, HandoverScreen)
            typed_at_once(app, ["enter", "enter", "enter", "q"])
            await pilot.pause(0.3)
            assert app.session.state == MOVE
            assert len(app.screen_stack) == 1
            assert "'s rack:" in screen_text(app)

    asyncio.run(asyncio.wait_for(run(), 60))


# ----- screens taller than the terminal ---------------------------------------------------

@pytest.mark.parametrize("make, command, last", [
    (kings, "help", "kingscrib play --resume"),
    (kings, "rules", "none (the standard rules)"),
    (classic, "help", "classic play --resume"),
])
def test_help_and_rules_scroll_to_their_last_line_at_80x24(make, command, last):
    app = make()

    def shown() -> str:
        return " ".join(screen_text(app).replace("│", " ").split())

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await type_line(pilot, command)
            assert isinstance(app.screen, InfoScreen)
            for _ in range(3):
                await pilot.press("pagedown")
            await pilot.pause(0.1)
            assert last in shown()
            assert isinstance(app.screen, InfoScreen)  # scrolling does not close it
            await pilot.press("home")
            await pilot.pause(0.1)
            assert last not in shown() or app.screen.query_one(VerticalScroll).max_scroll_y == 0

    asyncio.run(asyncio.wait_for(run(), 60))



# ----- what a move shows ------------------------------------------------------------------

def test_your_own_kings_move_stays_on_the_message_line_with_the_reply():
    app = kings()

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await type_line(pilot, "d1 across 4 5 6 k k")
            mine, theirs = app.session.game.history[-2:]
            assert mine.player == 0 and theirs.player == 1
            message = " ".join(str(app.query_one("#message").render()).split())
            assert f"You played D1 across 4L 5L 6D KD KL for {mine.score}." in message
            assert "Computer played" in message

    asyncio.run(asyncio.wait_for(run(), 60))


def at_play(seed=3, muggins=False) -> ClassicSession:
    """A classic game of seed 3 at the person's first card to lay."""
    session = ClassicSession.new(seed=seed, level="easy", muggins=muggins)
    while session.state == THINKING:
        session.computer_turn()
    session.handle("#1 #2")
    while session.state == THINKING:
        session.computer_turn()
    assert session.game.phase == "play" and session.state == MOVE
    return session


def test_a_discard_is_echoed_with_its_cards_and_whose_crib():
    session = ClassicSession.new(seed=3, level="easy")
    while session.state == THINKING:
        assert plain_text(session.computer_turn()).strip().startswith("computer laid away 2 cards")
    hand = sorted(session.game.view(0).hand)
    dealer_is_you = session.game.dealer == 0
    text = plain_text(session.handle("#1 #2"))
    first = text.splitlines()[0].strip()
    crib = "your" if dealer_is_you else "computer's"
    assert first == f"you laid away {hand[0].pretty()}  {hand[1].pretty()} to {crib} crib"


def test_the_classic_texts_say_your_not_you_s():
    from kingscrib.classic.game import possessive

    session = at_play(muggins=True)
    wrong = sorted(session.game.view(1).hand)[0]
    text = plain_text(session.handle(str(wrong)))
    assert f"{wrong.pretty()} is not in your hand" in text and "you's" not in text
    assert [possessive(n) for n in ("you", "You", "Ann")] == ["your", "your", "Ann's"]
    for _ in range(20):  # to the person's count of their hand (muggins)
        if session.game.phase == "show" and session.state == MOVE:
            break
        if session.state == THINKING:
            session.computer_turn()
        else:
            session.handle("#1")
    item = session.game.show_item
    assert session.game.phase == "show" and item is not None
    table = Console(record=True, file=io.StringIO(), width=100)
    table.print(classic_view.table_view(session))
    whose = "your" if item.seat == 0 else "computer's"
    assert f"Showing {whose} {item.kind}" in table.export_text()


def test_go_while_a_card_can_be_laid_says_so():
    session = at_play()
    text = plain_text(session.handle("go"))
    assert "no need to say go" in text and "suit" not in text
    assert session.state == MOVE and session.game.phase == "play"


def test_an_unreadable_card_gets_an_example_without_repeats():
    session = at_play()
    text = plain_text(session.handle("xx"))
    cards = [w.strip(",") for w in text.split() if w[-1:] in "♣♦♥♠"]
    assert cards and len(cards) == len(set(cards)), text


def test_hint_in_the_play_is_the_coach_s_best_card_and_why():
    from kingscrib.terminal.controllers.classic import pretty_text

    session = at_play()
    advice = session.coach_advice()
    text = plain_text(session.handle("hint"))
    assert text.splitlines()[0] == f"Coach: {pretty_text(advice.best)}"
    assert "chance to win" in text and "Cards you may lay" not in text


def test_the_prompt_says_a_place_is_written_with_a_hash():
    session = at_play()
    hand = sorted(session.game.view(0).hand)
    prompt = session.prompt()
    assert f"#1-#{len(hand)} by place" in prompt
    # typing #1 lays the card at that place, as the prompt says
    assert plain_text(session.handle("#1")).strip().startswith(f"you: {hand[0].pretty()}")


def test_the_back_pegs_survive_a_resume():
    session = at_play()
    for _ in range(40):
        if session.state == THINKING:
            session.computer_turn()
        elif session.game.phase == "play":
            session.handle("#1")
        else:
            break
    live = session.back_pegs
    assert any(live) and live != list(session.game.scores)
    resumed = ClassicSession.from_snapshot(session.snapshot())
    assert resumed.back_pegs == live
    assert classic_view.peg_board(resumed.game, resumed.back_pegs).plain == classic_view.peg_board(session.game, session.back_pegs).plain
    assert "○" in classic_view.peg_board(resumed.game, resumed.back_pegs).plain


def test_at_110x30_the_score_table_is_whole_beside_the_history():
    app = kings()

    async def run():
        async with app.run_test(size=WIDE) as pilot:
            await settle(pilot)
            await type_line(pilot, "d1 across 4 5 6 k k")
            screen = screen_text(app)
            assert "Moves" in screen  # the history is shown
            header = [ln.split("│")[0] for ln in screen.splitlines() if "player" in ln]
            assert header and header[0].split()[-3:] == ["player", "score", "tiles"], header
            scores = app.session.game.final_scores
            racks = [len(r) for r in app.session.game.racks]
            left = [ln.split("│")[0].split() for ln in screen.splitlines()]
            assert ["▶", "You", str(scores[0]), str(racks[0])] in [w[-4:] for w in left]
            assert ["Computer", str(scores[1]), str(racks[1])] in [w[-3:] for w in left]
            assert "…" not in "".join(ln.split("│")[0] for ln in screen.splitlines()[:8])
            # the latest move is in the history, however the lines wrap
            assert "2. Computer:" in screen

    asyncio.run(asyncio.wait_for(run(), 60))


# ----- laying tiles on the board ------------------------------------------------------------

async def cursor_to(pilot, square: str) -> None:
    from kingscrib.kings.board import column_of, parse_square, row_of

    app = pilot.app
    target = parse_square(square)
    while app.draft.cursor != target:
        dr = row_of(target) - row_of(app.draft.cursor)
        dc = column_of(target) - column_of(app.draft.cursor)
        await pilot.press("down" if dr > 0 else "up" if dr < 0 else
                          "right" if dc > 0 else "left")


def test_space_after_a_tile_turns_the_play_down_and_the_next_tile_follows():
    # seed 9: the person's rack is 4L 5L 6/9D KD KL; the scenario seen was at E3 with T J
    app = kings()

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await pilot.press("tab")
            assert "→ across (Space turns)" in screen_text(app)  # shown before any Space
            await cursor_to(pilot, "E3")
            await pilot.press("4", "5", "backspace", "space", "5")
            assert app.draft.notation({}) == "E3 down 4L 5L"
            assert "↓ down (Space turns)" in screen_text(app)
            await pilot.press("space")  # two tiles fix the direction
            assert app.draft.direction == "down"
            assert "the tiles laid fix the direction" in screen_text(app)

    asyncio.run(asyncio.wait_for(run(), 60))


def test_the_direction_is_kept_from_one_turn_to_the_next():
    app = kings()

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await pilot.press("tab", "space")
            assert app.draft.direction == "down"
            await pilot.press("tab")
            await type_line(pilot, "d1 across 4 5 6 k k")
            assert len(app.session.game.history) == 2
            assert app.draft.direction == "down"

    asyncio.run(asyncio.wait_for(run(), 60))


def test_an_error_typed_at_the_command_line_goes_once_the_board_is_used():
    app = kings()

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            await type_line(pilot, "G7 across Z")
            assert "cannot read 'Z'" in screen_text(app)
            await pilot.press("tab")
            assert "cannot read 'Z'" not in screen_text(app)
            await pilot.press("4")
            assert "cannot read 'Z'" not in screen_text(app)
            assert "Draw for first play" in str(app.query_one("#message").render())

    asyncio.run(asyncio.wait_for(run(), 60))


# ----- a terminal too small -----------------------------------------------------------------

@pytest.mark.parametrize("make, name", [(kings, "Kings Cribbage"), (classic, "Classic Cribbage")])
def test_below_80x24_the_game_says_the_terminal_is_too_small(make, name):
    app = make()

    async def run():
        async with app.run_test(size=(79, 24)) as pilot:
            await settle(pilot)
            screen = screen_text(app)
            assert "The terminal is too small (79x24)" in screen
            assert f"{name} needs at least 80x24" in screen
            await pilot.resize_terminal(80, 23)
            await pilot.pause(0.1)
            assert "The terminal is too small (80x23)" in screen_text(app)
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.1)
            assert "too small" not in screen_text(app)
            assert "help" in screen_text(app)  # the game's own key line is back

    asyncio.run(asyncio.wait_for(run(), 60))


# ----- any keys, any speed ------------------------------------------------------------------

KEYS = ["enter", "escape", "tab", "space", "backspace", "up", "down", "left", "right",
        "pagedown", "pageup", "home", "end", "f1", "slash", *"hx4567kLD19", "?"]


@pytest.mark.parametrize("make", [classic, kings])
def test_bursts_of_any_keys_never_break_the_game(make):
    import random

    app = make()
    rng = random.Random(24)

    async def run():
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot)
            for _ in range(6):
                typed_at_once(app, [rng.choice(KEYS) for _ in range(40)])
                await pilot.pause(0.2)
                await settle(pilot)
            while len(app.screen_stack) > 1:
                await pilot.press("escape" if isinstance(app.screen, InfoScreen) else "enter")
                await settle(pilot)
            assert app.return_code is None and app.screen is app.screen_stack[0]
            await pilot.press("f1")  # still answers
            assert isinstance(app.screen, InfoScreen)

    asyncio.run(asyncio.wait_for(run(), 120))
