"""The game ids and their parser (kingscrib.core.ids)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kingscrib.core import (
    CRIBBAGE,
    GAME_IDS,
    KINGS,
    IllegalAction,
    UnknownGame,
    is_game_id,
    parse_game_id,
)


def test_the_two_ids():
    assert GAME_IDS == ("kings", "cribbage") == (KINGS, CRIBBAGE)


@pytest.mark.parametrize("text, wanted", [
    ("kings", "kings"), ("cribbage", "cribbage"), ("classic", "cribbage"),
    (" Kings ", "kings"), ("CLASSIC", "cribbage"), ("Cribbage\n", "cribbage"),
])
def test_ids_and_the_classic_alias_are_read(text, wanted):
    assert parse_game_id(text) == wanted
    assert is_game_id(text)


@pytest.mark.parametrize("text", ["chess", "", "king", "classics", None, 1, ["kings"]])
def test_anything_else_is_refused_saying_what_is_accepted(text):
    with pytest.raises(UnknownGame) as caught:
        parse_game_id(text)
    message = str(caught.value)
    assert repr(text) in message
    assert "'kings' or 'cribbage'" in message and "'classic'" in message
    assert not is_game_id(text)


@given(st.text(max_size=12))
def test_the_parser_accepts_exactly_the_ids_and_the_alias(text):
    # Reference: the ids and the one alias, case and surrounding spaces ignored.
    names = {"kings": "kings", "cribbage": "cribbage", "classic": "cribbage"}
    folded = text.strip().casefold()
    if folded in names:
        assert parse_game_id(text) == names[folded]
    else:
        with pytest.raises(UnknownGame):
            parse_game_id(text)


def test_illegal_action_carries_the_message_for_the_player():
    error = IllegalAction("G7 is already taken")
    assert error.message == str(error) == "G7 is already taken"
    assert isinstance(error, ValueError)  # callers that catch ValueError still do
