"""Hypothesis strategies and checks shared by the parser fuzz tests (in the suite, a
bounded budget) and benchmarks/web_fuzz.py (a longer run).

Every parser a user can reach is given generated text or JSON, and valid inputs
mutated at one place; the only exception it may raise is its documented error.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.game import ClassicGame
from kingscrib.classic.record import RecordError as ClassicRecordError
from kingscrib.classic.record import loads as classic_loads
from kingscrib.classic.record import replay as cribbage_replay
from kingscrib.common.shuffle import new_secret
from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Pass
from kingscrib.kings.notation import NotationError, parse_action
from kingscrib.kings.position import Position, PositionError
from kingscrib.kings.record import RecordError, check_record, game_from_record
from kingscrib.kings.record import loads as kings_loads
from kingscrib.web.errors import WebError
from kingscrib.web.play.games.cribbage import parse_action as classic_web_action
from kingscrib.web.play.games.kings_view import parse_action as kings_web_action

NOTATION_CHARS = "ABCDEFGHIJKLMacdeghnoprswx0123456789TJQKLD() /,-\t\n\u00a0é"
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                   max_size=4),
    max_leaves=12)
notation_text = st.text(alphabet=NOTATION_CHARS, max_size=40) | st.text(max_size=20)


def _kings_game(turns: int) -> Game:
    game = Game.new(["A", "B"], seed=new_secret())
    for _ in range(turns):
        plays = legal_plays(game.board, game.racks[game.turn], game.rules)
        game.play(plays[0].play if plays else Pass())
    return game


KINGS = _kings_game(6)
KINGS_RECORD = KINGS.to_record()
_classic = ClassicGame(seed=new_secret())
for _ in range(20):
    _seat = _classic.waiting_for()[0]
    _classic.apply(_classic.legal_for(_seat)[0], _seat)
CLASSIC_RECORD = _classic.record()


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value (to mutate one)."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


def mutated(record: dict[str, Any], draw: Any) -> dict[str, Any]:
    """``record`` with one value replaced by generated JSON (or deleted)."""
    data = copy.deepcopy(record)
    where = draw(st.sampled_from(paths(data)[1:]))
    parent = data
    for key in where[:-1]:
        parent = parent[key]
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = draw(json_values)
    return data


def check_notation(text: str) -> None:
    try:
        parse_action(text, KINGS.board, KINGS.racks[KINGS.turn])
    except NotationError:
        pass


def check_position(data: Any) -> None:
    try:
        Position.from_json(data)
    except PositionError:
        pass


def check_kings_record(data: Any) -> None:
    for reader in (check_record, game_from_record):
        try:
            reader(copy.deepcopy(data))
        except RecordError:
            pass
    try:
        kings_loads(json.dumps(data))
    except RecordError:
        pass


def check_classic_record(data: Any) -> None:
    try:
        cribbage_replay(copy.deepcopy(data))
    except ClassicRecordError:
        pass
    try:
        classic_loads(json.dumps(data))
    except ClassicRecordError:
        pass


def check_cards(text: str) -> None:
    try:
        Card.parse(text)
    except ValueError:
        pass
    try:
        parse_cards(text)
    except ValueError:
        pass


def check_web_actions(message: Any) -> None:
    if not isinstance(message, dict):
        return
    for parser in (kings_web_action, classic_web_action):
        try:
            parser(message)
        except WebError as e:
            assert 400 <= e.status < 500
