"""Write the OpenSpiel playthroughs of our games that CI compares (tests/spiel/playthroughs).

    python scripts/spiel_playthroughs.py          # rewrite every file

A playthrough is OpenSpiel's own text of one game (``generate_playthrough.playthrough``,
the format of OpenSpiel's ``integration_tests/playthroughs``): the game's parameters and
spaces, then state after state its strings, tensors, legal actions and returns, and the
action taken, here a seeded random game. ``tests/spiel/test_spiel_playthroughs.py`` plays
each file's actions again and requires the same text: a change to what a state shows (its
observation, information state, legal actions, chance outcomes, returns) shows as a diff
of these files, to be reviewed and the files written again on purpose.
"""

from __future__ import annotations

from pathlib import Path

from open_spiel.python.algorithms import generate_playthrough

import kingscrib.spiel  # noqa: F401  (registers the games)

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "spiel" / "playthroughs"
# file name -> (game string, seed of the random game)
PLAYTHROUGHS = {
    "kingscrib_cribbage.txt": ("kingscrib_cribbage", 1),
    "kings_cribbage.txt": ("kings_cribbage", 1),
}


def main() -> None:
    for name, (game, seed) in PLAYTHROUGHS.items():
        text = generate_playthrough.playthrough(game, None, seed=seed)
        (FOLDER / name).write_text(text, encoding="utf-8")
        print(f"{name}: {len(text):,} characters")


if __name__ == "__main__":
    main()
