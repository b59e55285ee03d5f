"""The examples in the classic modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "kingscrib.classic",
    "kingscrib.classic.cards",
    "kingscrib.classic.show",
    "kingscrib.classic.pegging",
    "kingscrib.classic.game",
    "kingscrib.classic.record",
    "kingscrib.classic.stats",
    "kingscrib.classic.discard",
    "kingscrib.players.classic",
    "kingscrib.players.classic.winprob",
    "kingscrib.players.classic.coach",
    "kingscrib.players.classic.review",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
