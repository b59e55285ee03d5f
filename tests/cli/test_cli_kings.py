"""The Kings Cribbage command-line contract: score, moves, selfplay, replay."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kingscrib.cli.kings_commands import moves, replay, score, selfplay

RUNNER = CliRunner()

# Worked examples of RULES.md Part 1 (hand -> total), and the invalid hands.
WORKED = {"98799": 17, "K69K": 4, "JJ5": 6, "7A7A": 8, "5QKK": 8, "7833": 4, "7447": 8,
          "87879": 24, "9TJJ5": 14, "5555J": 28}
INVALID = ["676878", "666T", "677", "4568"]


def run(command, args, stdin=None):
    return RUNNER.invoke(command, args, input=stdin)


def test_score_json_matches_every_worked_example():
    result = run(score, ["--json", *WORKED])
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert {r["hand"]: r["total"] for r in rows} == WORKED
    assert all(r["valid"] for r in rows)
    first = rows[0]
    assert first == {"hand": "98799", "valid": True, "fifteens": 2, "pairs": 6, "runs": 9,
                     "total": 17}


def test_score_reads_standard_input_and_explains_invalid_hands():
    result = run(score, ["--json", "-"], stdin="\n".join(INVALID + ["10 j j 5 9", ""]) + "\n")
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["valid"] for r in rows] == [False, False, False, False, True]
    assert all("reason" in r for r in rows[:4]) and "reason" not in rows[4]
    # the reasons name the ranks as the tiles show them (10, not the engine's T)
    assert "6 tiles" in rows[0]["reason"] and "the 10 scores nothing" in rows[1]["reason"]
    assert rows[4]["hand"] == "TJJ59" and rows[4]["total"] == 14


def test_score_text_and_bad_hand():
    result = run(score, ["9TJJ5", "7Z"])
    assert result.exit_code == 1
    assert "9TJJ5 = 14" in result.output
    assert "'Z' is not a rank" in result.output


def test_moves_json_lists_each_play_once_with_scores():
    position = {"board": {"G7": "8L", "H7": "7D"}, "rack": ["7L", "3D", "3L"], "bag": 40}
    result = run(moves, ["--json", "-"], stdin=json.dumps(position) + "\n")
    assert result.exit_code == 0
    plays = json.loads(result.output.strip())
    keys = [tuple(sorted(p["tiles"].items())) for p in plays]
    assert len(keys) == len(set(keys))
    by_key = {k: p["score"] for k, p in zip(keys, plays)}
    # 78 extended to 7833 scores 4 (RULES.md "Scoring a play").
    assert by_key[(("I7", "3D"), ("J7", "3L"))] == 4
    assert by_key[(("I7", "3L"), ("J7", "3D"))] == 4
    assert [p["score"] for p in plays] == sorted((p["score"] for p in plays), reverse=True)


def test_moves_reports_bad_positions_and_goes_on():
    good = json.dumps({"board": {"G7": "8L", "H7": "7D"}, "rack": ["7L"]})
    lines = "\n".join(["{not json", '{"board": {"A1": "7L"}, "rack": []}', good]) + "\n"
    result = run(moves, ["--json", "-"], stdin=lines)
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.output.splitlines() if line.startswith(("{", "["))]
    assert "not JSON" in out[0]["error"]
    assert "corner patch" in out[1]["error"]
    squares = {tuple(p["tiles"]) for p in out[2]}
    # 787, 877, 7-8 down and 7-7 down are all hands in which every tile scores.
    assert squares == {("F7",), ("I7",), ("G6",), ("G8",), ("H6",), ("H8",)}


def test_selfplay_is_reproducible_and_replays(tmp_path):
    args = ["--json", "--seed", "11", "--players", "3", "--rules", '{"joker": true}']
    first = run(selfplay, args)
    second = run(selfplay, args)
    assert first.exit_code == 0 and first.output == second.output
    record = json.loads(first.output)
    assert record["game"] == "kings" and record["rules"]["joker"] is True
    assert len(record["players"]) == 3 and record["end"]["reason"] in {"out", "blocked",
                                                                        "scoreless"}
    path = tmp_path / "game.json"
    path.write_text(first.output)
    checked = run(replay, [str(path)])
    assert checked.exit_code == 0, checked.output
    assert "OK" in checked.output


def test_selfplay_rejects_unknown_player_and_bad_rules():
    assert "unknown player" in run(selfplay, ["--a", "wizard"]).output
    assert "unknown rule" in run(selfplay, ["--rules", '{"jokers": true}']).output
    assert "not JSON" in run(selfplay, ["--rules", "{"]).output


def test_replay_names_the_first_broken_turn(tmp_path):
    record = json.loads(run(selfplay, ["--json", "--seed", "4"]).output)
    plays = [i for i, t in enumerate(record["turns"]) if t["action"] == "play"]
    target = plays[2]
    record["turns"][target]["score"] += 2
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = run(replay, ["-q", str(path)])
    assert result.exit_code == 1
    assert f"turn {target + 1}:" in result.output


def test_replay_rejects_a_drawn_tile_that_does_not_exist(tmp_path):
    record = json.loads(run(selfplay, ["--json", "--seed", "5"]).output)
    # Claim every turn drew the same tile: the set has only 4 light kings.
    for turn in record["turns"]:
        if turn.get("drew"):
            turn["drew"] = ["KL"] * len(turn["drew"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = run(replay, ["-q", str(path)])
    assert result.exit_code == 1
    assert "turn" in result.output and "not" in result.output


def test_replay_of_garbage_is_a_clear_error(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1, 2")
    result = run(replay, [str(path)])
    assert result.exit_code == 1 and "not JSON" in result.output


def test_every_two_tile_first_play_pairs_are_listed():
    # On an empty board a pair of equal ranks is a valid first hand anywhere it fits.
    rack = ["5L", "5D"]
    result = run(moves, ["--json", "-"], stdin=json.dumps({"board": {}, "rack": rack}) + "\n")
    plays = json.loads(result.output)
    # Count the spans of 2 adjacent squares: rows and columns, less those in the patch.
    from kingscrib.kings.board import PLAYABLE, SIZE

    spans = sum(1 for s in PLAYABLE for d in (1, SIZE)
                if (s + d) in PLAYABLE and (d == SIZE or (s % SIZE) + 1 < SIZE))
    # 5L5D and 5D5L on each span; each scores the pair 2 + first play 10.
    assert len(plays) == 2 * spans
    assert {p["score"] for p in plays} == {12}
