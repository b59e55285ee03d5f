"""The engine contract (kingscrib.core.contract), tested once against both engines.

Everything here goes through the contract's verbs only (start, to_move,
legal_actions, apply, view, winners, record, from_record and the record modules'
dumps/loads/replay); only the making of a refused action is per engine.
"""

import random
from collections.abc import Callable
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kingscrib import core
from kingscrib.classic import record as classic_record
from kingscrib.classic.cards import deck
from kingscrib.classic.game import ClassicGame
from kingscrib.classic.game import Discard as CardDiscard
from kingscrib.classic.game import Play as CardPlay
from kingscrib.kings import record as kings_record
from kingscrib.kings.board import CENTRE
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Exchange, Play
from kingscrib.kings.tiles import full_set


def kings_refused(game: Game) -> list[object]:
    """Actions of tiles the seat to move does not hold."""
    rack = {str(t) for t in game.racks[game.turn]}
    absent = next(t for t in full_set() if str(t) not in rack)
    return [Play.of({CENTRE: absent}), Exchange((absent,))]


def cribbage_refused(game: ClassicGame) -> list[object]:
    """A card laid and cards laid away that the seat to move does not hold."""
    seat = game.to_move()
    held = set(game.hand(seat)) if seat is not None else set()
    absent = [c for c in deck() if c not in held]
    return [CardPlay(absent[0]), CardDiscard(tuple(absent[:game.rules.discards]))]


ENGINES: list[tuple[type, ModuleType, Callable[..., list[object]]]] = [
    (Game, kings_record, kings_refused),
    (ClassicGame, classic_record, cribbage_refused),
]
ids = [engine.game_id for engine, _, _ in ENGINES]
engines = pytest.mark.parametrize("engine, records, refused", ENGINES, ids=ids)
few = settings(max_examples=8, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])


def snapshot(state, legal: bool = True) -> tuple:
    """All the contract shows of a game: its record, whose move, every seat's view and
    (unless ``legal`` is False: they take longest to list) the legal actions."""
    return (state.record(), state.to_move(), [state.view(seat) for seat in range(state.players)],
            state.legal_actions() if legal else None)


def play_at_random(state, rng: random.Random, limit: int | None = None) -> int:
    """Play legal actions chosen by ``rng``, through the contract, to the end (or
    ``limit`` actions); returns how many were played."""
    played = 0
    while not state.is_over and (limit is None or played < limit):
        seat = state.to_move()
        legal = state.legal_actions()
        assert seat is not None and 0 <= seat < state.players and legal
        state.apply(rng.choice(legal), seat)
        played += 1
    return played


def test_both_engines_have_their_game_id():
    assert [engine.game_id for engine, _, _ in ENGINES] == list(core.GAME_IDS)


@engines
@few
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1))
def test_random_legal_play_ends_with_winners(engine, records, refused, seed, choices):
    state = engine.start(seed=seed)
    assert state.game_id in core.GAME_IDS and not state.is_over
    play_at_random(state, random.Random(choices))
    assert state.is_over and state.to_move() is None and state.legal_actions() == []
    assert state.winners() and set(state.winners()) <= set(range(state.players))


@engines
@few
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1),
       stop=st.integers(0, 60))
def test_a_record_round_trips(engine, records, refused, seed, choices, stop):
    state = engine.start(seed=seed, names=["Ann", "Bob"])
    play_at_random(state, random.Random(choices), limit=stop)
    record = state.record()
    text = records.dumps(state)
    assert records.dumps(record) == text  # a game or its record: the same text
    assert records.loads(text) == record
    for again in (engine.from_record(records.loads(text)), records.replay(record)):
        assert type(again) is engine
        assert snapshot(again) == snapshot(state)


@engines
@few
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1),
       stop=st.integers(0, 60))
def test_an_illegal_action_is_refused_and_changes_nothing(engine, records, refused, seed,
                                                          choices, stop):
    state = engine.start(seed=seed)
    play_at_random(state, random.Random(choices), limit=stop)
    before = snapshot(state)
    seat = state.to_move()
    legal = before[-1][0] if before[-1] else None
    attempts = [(action, None) for action in refused(state)] + [
        ("not an action", None), (None, None), (legal, state.players), (legal, -1),
    ]
    if seat is not None:
        attempts.append(("not an action", seat))
    for action, as_seat in attempts:
        with pytest.raises(core.IllegalAction) as caught:
            state.apply(action, as_seat)
        assert caught.value.message  # a message for the player
        assert snapshot(state, legal=False) == before[:-1] + (None,)
    assert snapshot(state) == before


@engines
def test_each_seat_has_its_view(engine, records, refused):
    state = engine.start(seed=5, names=["Ann", "Bob", "Cy"])
    assert state.players == 3
    for seat in range(3):
        assert state.view(seat).seat == seat


@engines
def test_a_record_of_the_other_game_is_refused(engine, records, refused):
    other = next(e for e, _, _ in ENGINES if e is not engine)
    with pytest.raises(ValueError):
        records.loads(records.dumps(other.start(seed=1).record()))


def test_a_cribbage_record_may_say_cribbage_or_classic():
    state = ClassicGame.start(seed=9)
    record = state.record()
    assert record["game"] == "classic"  # what older readers expect
    for name in ("classic", "cribbage"):
        again = classic_record.loads(classic_record.dumps({**record, "game": name}))
        assert classic_record.replay(again).record() == record


def test_the_engine_classes_meet_the_protocols():
    # mypy checks the engines' own assignments of their classes to core.Engine; here
    # each verb is looked up on the class and on a game.
    for engine, _, _ in ENGINES:
        for verb in ("start", "from_record"):
            assert callable(getattr(engine, verb))
        state = engine.start(seed=2)
        for verb in ("to_move", "legal_actions", "apply", "view", "winners", "record"):
            assert callable(getattr(state, verb))
        assert isinstance(state.players, int) and state.is_over is False
