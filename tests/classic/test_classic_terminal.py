"""The classic terminal game: its session core, the full-screen app driven by Textual's
pilot (with muggins, hot seat), the line mode's faults and the coach, each pinned down."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from click.testing import CliRunner
from rich.console import Console

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.game import Claim, Discard, Play
from kingscrib.classic.naming import WhichCards, read_cards
from kingscrib.cli.classic import after_reply, autosave_path, classic
from kingscrib.players.classic.coach import coach_discard, coach_play
from kingscrib.terminal.classic_app import ClassicApp
from kingscrib.terminal.controllers.classic import GLOSSARY_LINK, ClassicSession, pretty_text
from kingscrib.terminal.controllers.kings import HANDOVER, MOVE, OVER, THINKING
from kingscrib.terminal.screens.handover import HandoverScreen
from kingscrib.terminal.views.replies import plain_text


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.setenv("KINGSCRIB_DATA_DIR", str(tmp_path))
    return tmp_path


def screen_text(app) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)


def answer(session: ClassicSession) -> str:
    """A legal line for the person to act: the first discard or card by rank where the
    hand decides it, and a claim of nothing in the show (muggins takes the rest)."""
    g = session.game
    view = g.view(g.to_act)
    legal = list(view.legal)
    if isinstance(legal[0], Discard):
        return " ".join(str(c).lower() for c in legal[0].cards)
    if isinstance(legal[0], Play):
        card = legal[0].card
        rank = str(card)[0]
        alone = sum(1 for c in view.hand if c.rank == card.rank) == 1 and not (
            rank.isdigit() and int(rank) <= len(view.hand))  # a small digit is a number
        return (rank if alone else str(card)).lower()  # the pilot types plain keys
    assert isinstance(legal[0], Claim)
    return "0"


async def until(pilot, ready) -> None:
    """Wait (a while at most) until ``ready()``: the screen is redrawn after a refresh."""
    for _ in range(300):
        if ready():
            await pilot.pause(0.05)  # and drawn
            return
        await pilot.pause(0.01)
    raise AssertionError("the screen never got there")


async def settle(app, pilot) -> None:
    for _ in range(500):
        await pilot.pause(0.01)
        if not app.thinking and app.session.state != THINKING:
            return
    raise AssertionError("the computer never finished")


# ----- the session core ---------------------------------------------------------------

def test_cards_by_place_card_symbol_or_rank_alone():
    hand = sorted(parse_cards("5H JD 7C 7S KH 2D"))  # 2♦ 5♥ 7♣ 7♠ J♦ K♥
    assert read_cards("#1 #2", hand) == [Card.parse("2D"), Card.parse("5H")]
    assert read_cards("1 4", hand) == [Card.parse("2D"), Card.parse("7S")]  # no ace, no 4
    assert read_cards("J K", hand) == [Card.parse("JD"), Card.parse("KH")]
    assert read_cards("7♠ j", hand) == [Card.parse("7S"), Card.parse("JD")]
    with pytest.raises(ValueError, match="holds 2 7s: write which, e.g. 7♣ or 7C"):
        read_cards("7", hand)
    with pytest.raises(ValueError, match="holds no 9, and 9 is no place in it"):
        read_cards("9", hand)
    with pytest.raises(ValueError, match="5♥ is named twice"):
        read_cards("5H #2", hand)


def test_a_number_that_is_a_rank_and_a_place_is_asked_about_and_changes_nothing():
    # the hand: 2 3 were read as places and laid away 3♠ 5♠ without asking
    hand = parse_cards("2S 3S 5S 6S 7H 9S")
    with pytest.raises(WhichCards) as asked:
        read_cards("2 3", hand)
    assert "2♠ 3♠" in str(asked.value) and "#2 #3" in str(asked.value)
    assert "3♠ 5♠" in str(asked.value)
    assert read_cards(asked.value.by_rank, hand) == parse_cards("2S 3S")
    assert read_cards(asked.value.by_place, hand) == parse_cards("3S 5S")
    assert read_cards("2", parse_cards("2D")) == parse_cards("2D")  # one card: both agree
    for seed in range(100):  # a deal whose hand holds a 2-6 that is not at its own place
        session = computers_first(ClassicSession.new(seed=seed, level="easy"))
        held = sorted(session.game.view(0).hand)
        both = next((c for c in held[:-1] if 2 <= c.rank <= 6 and held[c.rank - 1] != c
                     and sum(h.rank == c.rank for h in held) == 1), None)
        if both is not None:
            break
    assert both is not None
    before = len(session.game.events)
    text = plain_text(session.handle(f"{both.rank} {held[-1]}"))
    assert f"Type {both.pretty()} {held[-1].pretty()} or #{both.rank}" in text
    assert len(session.game.events) == before and session.game.phase == "discard"


def test_messages_write_cards_with_suit_symbols_only():
    assert pretty_text("the starter is 6C; 10D and TH") == "the starter is 6♣; 10♦ and 10♥"
    session = computers_first(ClassicSession.new(seed=3, level="easy"))
    reply = session.handle("ZZ")
    assert "'ZZ' is not a card" in plain_text(reply)
    session.handle("#1 #2")
    computers_first(session)
    text = "\n".join(line.plain for line in session.event_lines(session.game.events))
    assert "Starter: " + session.game.starter.pretty() in text
    assert not any(str(c) in text for c in [session.game.starter])


def computers_first(session: ClassicSession) -> ClassicSession:
    while session.state not in (MOVE, OVER):
        session.computer_turn()
    return session


def test_help_and_quit_are_commands_not_cards(data):
    session = computers_first(ClassicSession.new(seed=3, level="easy"))
    assert "lay away cards" in plain_text(session.handle("help"))
    assert session.handle("quit").quit
    assert session.game.phase == "discard" and session.game.to_act == 0


@pytest.mark.parametrize("options", [{}, {"muggins": True, "skunk": True}, {"players": 3}])
def test_rules_shows_the_rules_in_short_with_this_games_options(data, options):
    session = computers_first(ClassicSession.new(seed=3, level="easy", **options))
    before = (session.game.phase, session.game.to_act, len(session.game.events))
    reply = session.handle("rules")
    text = " ".join(plain_text(reply).split())
    assert not reply.changed and not reply.quit
    assert "first to 121" in text and "nobs" in text and "his heels" in text
    assert ("points missed, or claimed too many, go to the next player" in text) == \
        bool(options.get("muggins"))
    assert ("under 91 counts two games" in text) == bool(options.get("skunk"))
    hand = "5 cards each; each lays 1 away" if options.get("players") == 3 else \
        "6 cards each; each lays 2 away"
    assert hand in text
    assert (session.game.phase, session.game.to_act, len(session.game.events)) == before
    assert "rules" in plain_text(session.handle("help"))


def test_an_unknown_level_in_an_autosave_is_refused(data):
    snapshot = ClassicSession.new(seed=3).snapshot()
    snapshot["level"] = "godlike"
    with pytest.raises(ValueError, match="unknown computer level 'godlike'"):
        ClassicSession.from_snapshot(snapshot)
    del snapshot["humans"]
    with pytest.raises(ValueError, match="the autosave has no 'humans'"):
        ClassicSession.from_snapshot(snapshot)


# ----- the full-screen app -------------------------------------------------------------

@pytest.mark.parametrize("size, whole", [((80, 24), True), ((160, 50), False)])
def test_a_game_with_muggins_in_the_full_screen_app(data, size, whole):
    session = ClassicSession.new(seed=3, level="easy", muggins=True)
    app = ClassicApp(session, lambda reply: after_reply(session, reply))

    async def run():
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            first = screen_text(app)
            assert len(first.splitlines()) == size[1]
            for needed in ("Classic Cribbage", "Starter:", "0/121", "Your hand: 1:",
                           "lay away 2 cards"):
                assert needed in first, needed
            actions = 0
            while session.state != OVER and (whole or actions < 8) and actions < 300:
                assert session.state == MOVE, session.state
                line = answer(session)
                await pilot.press(*[{" ": "space"}.get(c, c) for c in line], "enter")
                await settle(app, pilot)
                actions += 1
                screen = screen_text(app)
                assert len(screen.splitlines()) == size[1]  # never scrolls
                g = session.game
                for score in g.scores:
                    assert f"{score:>3}/121" in screen
                if session.state == MOVE and g.phase == "play":
                    assert f"Count: {g.count}" in screen
                if session.state == MOVE:
                    saved = json.loads(autosave_path().read_text())
                    assert saved["record"] == g.record()
            if not whole:
                return
            record = session.game.record()
            assert "muggins" in json.dumps(record)  # the computer took missed points
            assert max(session.game.scores) == 121
            assert not autosave_path().exists()
            assert list((data / "games").glob("classic-*.json"))

    asyncio.run(run())


def test_classic_hot_seat_hides_the_hands_between_players(data):
    session = ClassicSession.new(players=2, humans=2, seed=4, level="easy")
    app = ClassicApp(session, lambda reply: after_reply(session, reply))

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, HandoverScreen))
            assert session.state == HANDOVER
            screen = screen_text(app)
            assert "Pass the keyboard to" in screen and "hand" not in screen
            await pilot.press("enter")
            mover = session.name(session.game.to_act)
            assert f"{mover}'s hand: 1:" in screen_text(app)
            await pilot.press("number_sign", "1", "space", "number_sign", "2", "enter")
            await until(pilot, lambda: isinstance(app.screen, HandoverScreen))
            assert session.state == HANDOVER
            screen = screen_text(app)
            assert "hand" not in screen and "♣" not in screen.split("Pass")[0][-5:]

    asyncio.run(run())


# ----- the line mode --------------------------------------------------------------------

def test_starting_again_asks_and_keeps_the_unfinished_game(data):
    runner = CliRunner()
    out = runner.invoke(classic, ["play", "--seed", "3", "--level", "easy"], input="#1 #2\nquit\n")
    assert out.exit_code == 0, out.output
    first = json.loads(autosave_path().read_text())
    out = runner.invoke(classic, ["play", "--seed", "8"], input="q\n")
    assert "An unfinished classic game is saved" in out.output
    assert json.loads(autosave_path().read_text()) == first
    out = runner.invoke(classic, ["play", "--seed", "8"], input="n\nquit\n")
    kept = list((data / "games").glob("unfinished-classic-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text()) == first
    assert json.loads(autosave_path().read_text())["record"]["seed"] == 8


def test_a_corrupt_autosave_is_kept_aside_with_its_name(data):
    autosave_path().write_bytes(b"\xff\xfe binary")
    out = CliRunner().invoke(classic, ["play", "--resume"])
    assert out.exit_code != 0 and str(autosave_path()) in out.output
    out = CliRunner().invoke(classic, ["play", "--seed", "3"], input="quit\n")
    flat = " ".join(out.output.split())  # (the message wraps at the terminal's width)
    assert "cannot be resumed" in flat and "moved to" in flat
    assert list((data / "games").glob("unreadable-classic-*.json"))


def test_ranks_alone_help_and_quit_in_line_mode(data):
    session = computers_first(ClassicSession.new(seed=3, level="easy"))
    hand = sorted(session.game.view(0).hand)
    unique = [c for c in hand if sum(1 for d in hand if d.rank == c.rank) == 1
              and not str(c)[0].isdigit()]
    line = " ".join(str(c)[0] for c in unique[:2]) if len(unique) >= 2 else "1 2"
    out = CliRunner().invoke(classic, ["play", "--seed", "3", "--level", "easy"],
                             input=f"help\n{line}\nquit\n")
    assert out.exit_code == 0, out.output
    assert "lay away cards" in out.output and "Saved. Resume with" in out.output
    saved = json.loads(autosave_path().read_text())
    assert saved["record"]["deals"][0]["discards"][0] is not None


def test_classic_score_reports_each_bad_line_and_goes_on():
    stdin = "5H 5S 5C JD 5D\n5H 5S ZZ JD 5D\nAH 2S 3C 4D 5C\n"
    out = CliRunner().invoke(classic, ["score", "--json", "-"], input=stdin)
    assert out.exit_code == 1
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert [r.get("total") for r in rows] == [29, None, 7]
    assert rows[1]["line"] == 2 and "'ZZ' is not a card" in rows[1]["error"]


def test_a_lone_q_is_the_queen_not_quit():
    session = computers_first(ClassicSession.new(seed=3, level="easy"))
    assert not session.handle("q").quit


# ----- the coach -------------------------------------------------------------------------
def until_human(session: ClassicSession, phase: str) -> ClassicSession:
    """Play on (computers and the person's first legal line) until the person is to act
    in ``phase``."""
    for _ in range(200):
        computers_first(session)
        if session.state == MOVE and session.game.phase == phase:
            return session
        assert session.state == MOVE, session.state
        session.handle(answer(session))
    raise AssertionError(f"never the person's turn in the {phase}")


def frozen(session: ClassicSession) -> tuple:
    g = session.game
    return (json.dumps(g.record()), g.phase, g.to_act, tuple(g.scores), len(g.events),
            session.seen, session.state)


def shown(reply) -> list[str]:
    return [m.plain for m in reply.messages]


def test_the_coach_at_a_discard_is_coach_discard_and_changes_nothing():
    session = until_human(ClassicSession.new(seed=3, level="easy"), "discard")
    g = session.game
    view = g.view(0)
    expected = coach_discard(view.hand, g.dealer == 0, g.scores[0], g.scores[1])
    before = frozen(session)
    reply = session.handle("coach")
    assert session.coach_advice() == expected
    assert shown(reply) == [f"Coach: {pretty_text(expected.best)}"] + [
        pretty_text(line) for line in expected.lines] + [GLOSSARY_LINK]
    assert "chance to win" in plain_text(reply) and not reply.changed
    assert frozen(session) == before


def test_the_coach_at_a_card_to_lay_is_coach_play_and_changes_nothing():
    session = until_human(ClassicSession.new(seed=5, level="easy"), "play")
    g = session.game
    expected = coach_play(g.view(0))
    before = frozen(session)
    reply = session.handle("coach")
    assert session.coach_advice() == expected
    assert expected.best.startswith("lay ")
    assert shown(reply) == [f"Coach: {pretty_text(expected.best)}"] + [
        pretty_text(line) for line in expected.lines] + [GLOSSARY_LINK]
    assert not reply.changed and frozen(session) == before
    session.handle(answer(session))  # and the game goes on as before
    assert len(g.events) > before[4]


def test_the_coach_is_refused_when_the_decision_is_not_the_persons():
    session = ClassicSession.new(seed=3, level="easy")
    for _ in range(200):  # a computer to act
        if session.state == THINKING:
            break
        session.handle(answer(session)) if session.state == MOVE else session.computer_turn()
    assert session.state == THINKING
    before = frozen(session)
    reply = session.handle("coach")
    computer = session.name(session.game.to_act)
    assert f"the coach advises only on your own decision: {computer} is to act" in plain_text(reply)
    assert frozen(session) == before and not reply.changed

    hot_seat = ClassicSession.new(players=2, humans=2, seed=4, level="easy")
    assert hot_seat.state == HANDOVER
    before = frozen(hot_seat)
    assert "pass the keyboard to" in plain_text(hot_seat.handle("coach"))
    assert frozen(hot_seat) == before  # not taken as the keyboard handed over


def test_the_coach_needs_two_players_and_does_not_count_the_show():
    three = until_human(ClassicSession.new(players=3, seed=3, level="easy"), "discard")
    before = frozen(three)
    reply = three.handle("coach")
    assert "the coach needs a two-player game (this one has 3 players)" in plain_text(reply)
    assert frozen(three) == before
    muggins = until_human(ClassicSession.new(seed=3, level="easy", muggins=True), "show")
    before = frozen(muggins)
    assert "not on counting the show" in plain_text(muggins.handle("coach"))
    assert frozen(muggins) == before
    assert "coach" in plain_text(muggins.handle("help"))


def test_the_coach_in_line_mode(data):
    out = CliRunner().invoke(classic, ["play", "--seed", "3", "--level", "easy"],
                             input="coach\nquit\n")
    assert out.exit_code == 0, out.output
    session = until_human(ClassicSession.from_snapshot(json.loads(autosave_path().read_text())),
                          "discard")
    g = session.game
    view = g.view(0)
    expected = coach_discard(view.hand, g.dealer == 0, g.scores[0], g.scores[1])
    assert f"Coach: {pretty_text(expected.best)}" in out.output
    assert " ".join(out.output.split()).replace(GLOSSARY_LINK, "").count("chance to win") == len(expected.lines) - 1
    assert json.loads(autosave_path().read_text())["record"]["deals"][0]["discards"][0] is None


def test_the_coach_in_the_full_screen_app(data):
    session = ClassicSession.new(seed=3, level="easy")
    app = ClassicApp(session, lambda reply: after_reply(session, reply))

    async def run():
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(app, pilot)
            assert "coach" in screen_text(app)  # on the key line
            g = session.game
            view = g.view(0)
            expected = coach_discard(view.hand, g.dealer == 0, g.scores[0], g.scores[1])
            before = frozen(session)
            await pilot.press("c", "o", "a", "c", "h", "enter")
            await settle(app, pilot)
            screen = screen_text(app)
            assert f"Coach: {pretty_text(expected.best)}" in screen
            assert pretty_text(expected.lines[-1]) in screen
            assert frozen(session) == before

    asyncio.run(run())


def test_a_game_of_a_secret_seed_seats_its_computers_with_a_number_seed():
    """A game from the server has a secret text seed: each computer gets a number of its
    own from it (and a number seed keeps seed * 10 + seat, as autosaves were made)."""
    from kingscrib.classic.game import ClassicGame
    from kingscrib.classic.rules import RuleSet
    from kingscrib.terminal.controllers.classic import computer_seed

    secret = "0123456789abcdef" * 2
    seeds = [computer_seed(secret, seat) for seat in range(3)]
    assert all(isinstance(s, int) for s in seeds) and len(set(seeds)) == 3
    assert seeds == [computer_seed(secret, seat) for seat in range(3)]
    assert computer_seed(7, 1) == 71
    game = ClassicGame(RuleSet(players=2), seed=secret, names=["you", "computer"])
    session = ClassicSession(game, [0], "easy")
    assert session.state in (MOVE, THINKING)


def test_a_resumed_game_names_the_computer_level_and_shows_the_deal_so_far():
    from kingscrib.terminal.controllers.classic import ClassicSession
    from kingscrib.terminal.controllers.kings import MOVE, THINKING

    session = ClassicSession.new(seed=4, level="easy")
    while session.game.phase == "discard" or len(session.game.played) < 2:
        if session.state == THINKING:
            session.computer_turn()
        else:
            assert session.state == MOVE
            session.handle("#1 #2" if session.game.phase == "discard" else "#1")
    g = session.game
    resumed = ClassicSession.from_snapshot(json.loads(json.dumps(session.snapshot())))
    text = "\n".join(m.plain for m in resumed.intro().messages)
    assert "Resumed against the computer at Beginner: deal 1" in text
    assert f"Deal 1 so far:\n  Starter: {g.starter.pretty()}" in text
    for seat, card in g.played:  # every card laid so far, by whom
        assert f"{g.names[seat]}: {card.pretty()}" in text


def test_classic_play_help_fits_80_columns_and_states_the_card_grammar():
    out = CliRunner().invoke(classic, ["play", "--help"], terminal_width=80)
    assert out.exit_code == 0
    assert max(len(line) for line in out.output.splitlines()) <= 80
    assert "#1 #2" in out.output and "asked about" in out.output
