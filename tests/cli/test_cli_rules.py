"""``kingscrib rules``: the full rules ship with the package, so the in-game ``rules``
command can point a pip-installed player to something that is there."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from kingscrib.cli.main import _register, cli
from kingscrib.kings.rules import RuleSet
from kingscrib.learn.rules import rules_text
from kingscrib.terminal.views.classic_rules import rule_lines
from kingscrib.terminal.views.kings import render_legend

_register()
DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_packaged_rules_are_the_docs():
    assert rules_text("kings") == (DOCS / "rules.md").read_text(encoding="utf-8")
    classic = (DOCS / "classic.md").read_text(encoding="utf-8")
    assert rules_text("cribbage") == classic[:classic.index("\n## Using it\n") + 1]
    with pytest.raises(ValueError):
        rules_text("chess")


@pytest.mark.parametrize("words, game", [([], "kings"), (["cribbage"], "cribbage"),
                                         (["classic"], "cribbage")])
def test_kingscrib_rules_prints_them(words, game):
    result = CliRunner().invoke(cli, ["rules", *words])
    assert result.exit_code == 0
    assert result.output == rules_text(game)
    assert CliRunner().invoke(cli, ["rules", "chess"]).exit_code == 2


def test_the_in_game_rules_point_to_the_rules_command_not_to_a_docs_file():
    out = io.StringIO()
    Console(file=out, width=200).print(render_legend(RuleSet()))
    assert "The full rules: kingscrib rules." in out.getvalue()
    assert "docs/" not in out.getvalue()
    more = dict(rule_lines(_classic_rules()))["more"]
    assert "kingscrib rules cribbage" in more and "docs/" not in more


def _classic_rules():
    from kingscrib.classic.rules import RuleSet as ClassicRules

    return ClassicRules()
