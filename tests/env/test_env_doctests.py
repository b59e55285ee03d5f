"""The examples in the docstrings of the environments and the backends hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kingscrib.env", "kingscrib.env.kings", "kingscrib.env.cribbage",
           "kingscrib.env.cribbage_v1", "kingscrib.env.kings_v1", "kingscrib.env.flat",
           "kingscrib.env.single", "kingscrib.env.batched_cribbage",
           "kingscrib.env.batched_kings", "kingscrib.common.backends",
           "kingscrib.arena.intervals"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
