"""Every parser a user can reach, fuzzed (bounded budget): move notation, position and
record JSON of both games, card input, the web's action messages. Only the documented
error may come out (``tests/fuzz_parsers.py``; a longer run: benchmarks/web_fuzz.py)."""

from __future__ import annotations

import fuzz_parsers as fz
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BUDGET = settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])


@BUDGET
@given(fz.notation_text)
def test_move_notation(text: str) -> None:
    fz.check_notation(text)


@BUDGET
@given(st.one_of(fz.json_values, fz.json_values.map(lambda v: {"board": v, "rack": ["7L"]}),
                 fz.json_values.map(lambda v: {"board": {"G7": "8L"}, "rack": v, "bag": 3}),
                 st.text(max_size=30)))
def test_position_json(data) -> None:
    fz.check_position(data)


@BUDGET
@given(st.data())
def test_kings_records_mutated_anywhere(data) -> None:
    fz.check_kings_record(fz.mutated(fz.KINGS_RECORD, data.draw))


@BUDGET
@given(fz.json_values)
def test_kings_records_of_any_shape(value) -> None:
    fz.check_kings_record(value)


@BUDGET
@given(st.data())
def test_classic_records_mutated_anywhere(data) -> None:
    fz.check_classic_record(fz.mutated(fz.CLASSIC_RECORD, data.draw))


@BUDGET
@given(st.text(alphabet="A23456789TJQK10HDSC ,jqk\u0130x", max_size=12) | st.text(max_size=8))
def test_card_input(text: str) -> None:
    fz.check_cards(text)


@BUDGET
@given(st.dictionaries(st.sampled_from(["action", "tiles", "cards", "card", "claim", "points"]),
                       fz.json_values | st.sampled_from(["play", "pass", "exchange", "go",
                                                          "discard", "claim", "joker"]),
                       max_size=4))
def test_web_action_messages(message) -> None:
    fz.check_web_actions(message)
