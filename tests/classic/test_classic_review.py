"""The coach's review of a classic record (`kingscrib classic analyze`): which decisions are
judged (checked against a reference walk of the record written here), what each row says,
the command's text and JSON, and the records it refuses."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingscrib.classic.game import ClassicGame
from kingscrib.classic.record import RecordError
from kingscrib.classic.rules import RuleSet
from kingscrib.cli.classic import classic
from kingscrib.players.classic.review import review_record

VALUE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10}


def value(card: str) -> int:
    return VALUE.get(card[0]) or int(card[0])


def two_deals(seed: int, players: int = 2) -> dict:
    """A random game's record, stopped once two deals are over."""
    game = ClassicGame(RuleSet(players=players), seed=seed)
    rng = random.Random(seed)
    while len(game.deals) < 3 and game.phase != "over":
        seat = game.waiting_for()[0]
        game.apply(rng.choice(game.legal_for(seat)), seat)
    return game.record()


def reference_decisions(record: dict) -> list[tuple[str, int, str]]:
    """Every discard, and every card laid while cards of two or more ranks fitted under 31,
    read straight from the record."""
    out = []
    for deal in record["deals"]:
        kept = []
        for seat, cards in enumerate(deal["discards"]):
            if cards is None:
                return out
            kept.append([c for c in deal["hands"][seat] if c not in cards])
        order = [(deal["dealer"] + 1 + i) % 2 for i in range(2)]
        out += [("discard", s, "lay away " + " ".join(sorted(deal["discards"][s],
                                                                key=deal["hands"][s].index)))
                for s in order]
        count = 0
        for p in deal["plays"]:
            if p["action"] == "play":
                held = kept[p["player"]]
                ranks = {c[0] for c in held if value(c) + count <= 31}
                if len(ranks) > 1:
                    out.append(("play", p["player"], f"lay {p['card']}"))
                held.remove(p["card"])
                count = 0 if p["count"] == 31 else p["count"]
            elif "score" in p:  # a go or the last card pegged: the count starts again
                count = 0
    return out


@pytest.fixture(scope="module")
def record() -> dict:
    return two_deals(8)


@pytest.fixture(scope="module")
def rows(record: dict) -> list[dict]:
    seen = []
    rows = [r.to_json() for r in review_record(record, lambda done, total: seen.append(
        (done, total)))]
    assert seen == [(i, len(rows)) for i in range(1, len(rows) + 1)]
    return rows


def test_the_decisions_judged_are_the_real_choices(record: dict, rows: list[dict]) -> None:
    got = [(r["decision"], r["seat"], r["made"]) for r in rows]
    want = reference_decisions(record)
    # the discard's two cards may be written in either order
    norm = [(d, s, " ".join(sorted(m.split()))) for d, s, m in got]
    assert norm == [(d, s, " ".join(sorted(m.split()))) for d, s, m in want]


def test_each_row_against_the_coach_best(rows: list[dict]) -> None:
    for r in rows:
        best = r["options"][0]
        key = "points" if r["decision"] == "discard" else "pegging"
        if r["decision"] == "discard":
            assert r["best"] == "lay away " + " ".join(best["discard"])
        elif r["best"] != r["made"]:  # a card of the best one's rank counts as the best
            assert r["best"] == f"lay {best['card']}"
        if r["best"] != r["made"]:
            assert (r["win_best"], r["points_best"]) == (best["win"], best[key])
        assert r["win_lost"] == round(r["win_best"] - r["win_made"], 4)
        assert r["points_lost"] == round(r["points_best"] - r["points_made"], 3)
        measure = r["win_lost"] if r["ranked_by"] == "win" else r["points_lost"]
        assert r["slip"] == (measure > (0.005 if r["ranked_by"] == "win" else 0.05))
        assert r["player"] == f"player {r['seat'] + 1}"


def test_the_command_prints_the_same_rows(record: dict, rows: list[dict], tmp_path: Path
                                          ) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    runner = CliRunner()
    out = runner.invoke(classic, ["analyze", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == rows
    text = runner.invoke(classic, ["analyze", str(path)])
    assert text.exit_code == 0
    slips = sum(r["slip"] for r in rows if r["seat"] == 0)
    assert f"player 1 {slips} of {sum(r['seat'] == 0 for r in rows)}" in text.output


def test_records_it_refuses(tmp_path: Path) -> None:
    runner = CliRunner()
    three = tmp_path / "three.json"
    three.write_text(json.dumps(two_deals(3, players=3)))
    out = runner.invoke(classic, ["analyze", str(three)])
    assert out.exit_code == 1 and "two-player games only" in out.output
    bad = two_deals(4)
    bad["deals"][0]["plays"][0]["count"] += 1
    with pytest.raises(RecordError, match="deal 1: plays"):
        review_record(bad)
    out = runner.invoke(classic, ["analyze", "-"], input="{not json")
    assert out.exit_code == 1 and "not JSON" in out.output
    out = runner.invoke(classic, ["analyze", str(tmp_path / "missing.json")])
    assert out.exit_code == 1 and "missing.json' does not exist" in out.output
