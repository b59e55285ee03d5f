"""Our OpenSpiel games replay their checked-in playthroughs exactly (as OpenSpiel's own
games do theirs): every state's strings, tensors, legal actions, chance outcomes and
returns. ``python scripts/spiel_playthroughs.py`` writes the files again after a change
made on purpose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from open_spiel.python.algorithms import generate_playthrough

import kingscrib.spiel  # noqa: F401  (registers the games)

FOLDER = Path(__file__).resolve().parent / "playthroughs"
FILES = sorted(FOLDER.glob("*.txt"))


def test_there_is_a_playthrough_of_each_game():
    assert {f.name for f in FILES} == {"kingscrib_cribbage.txt", "kings_cribbage.txt"}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_the_game_replays_its_playthrough(path):
    original = path.read_text(encoding="utf-8")
    game = re.search(r"^game: (.*)$", original, re.M).group(1)
    actions = [int(a) for a in re.findall(r"^action: (-?\d+)$", original, re.M)]
    assert len(actions) > 200
    again = generate_playthrough.playthrough(game, actions)
    if again != original:
        old, new = original.splitlines(), again.splitlines()
        first = next((k for k, (a, b) in enumerate(zip(old, new)) if a != b),
                     min(len(old), len(new)))
        pytest.fail(f"{path.name} differs from line {first + 1}:\n  file: "
                    f"{old[first] if first < len(old) else '<end>'}\n  now:  "
                    f"{new[first] if first < len(new) else '<end>'}")
