"""The learning example (examples/learn_kings.py) as a benchmark: win rates against
``random`` and ``greedy`` before and after training, and the CPU time it took.

    python benchmarks/rl_learning.py [--games 1000] [--eval 200] [--seed 1]

Not part of the test suite: it takes a few CPU minutes.
"""

from __future__ import annotations

import runpy
import sys
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "learn_kings.py"

if __name__ == "__main__":
    sys.argv = [str(EXAMPLE), *sys.argv[1:]]
    start, wall = time.process_time(), time.perf_counter()
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    print(f"whole run: {time.process_time() - start:.0f} s CPU, "
          f"{time.perf_counter() - wall:.0f} s wall")
