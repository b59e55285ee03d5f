"""The examples of docs/engines.md run as written."""

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "engines.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example {i + 1}" for i in range(len(BLOCKS))])
def test_an_example_runs(block, capsys):
    exec(compile(block, str(PAGE), "exec"), {"__name__": "engines_example"})
    printed = capsys.readouterr().out
    for comment in re.findall(r"print\(.*\)  # (.*)", block):
        assert comment in printed  # a comment after print() shows what it prints
