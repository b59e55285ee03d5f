"""Learning curves of the MaskablePPO examples: win rate against ``random`` and ``easy``
over training steps, and the training speed.

    python benchmarks/rl_curves.py cribbage [example options, e.g. --steps 400000]
    python benchmarks/rl_curves.py kings [--steps 60000 --checkpoints 6]

Runs ``examples/maskable_ppo_<game>.py`` with the options given (their defaults
otherwise), prints one line a checkpoint as it comes, then the Markdown table of
docs/rl.md and the whole run's CPU and wall time. Takes CPU hours at the defaults.
"""

from __future__ import annotations

import runpy
import sys
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = ("cribbage", "kings")

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in GAMES:
        sys.exit(f"usage: python benchmarks/rl_curves.py {{{'|'.join(GAMES)}}} [options]")
    example = EXAMPLES / f"maskable_ppo_{sys.argv[1]}.py"
    sys.argv = [str(example), *sys.argv[2:]]
    start, wall = time.process_time(), time.perf_counter()
    runpy.run_path(str(example), run_name="__main__")
    print(f"whole run: {time.process_time() - start:.0f} s CPU, "
          f"{time.perf_counter() - wall:.0f} s wall")
