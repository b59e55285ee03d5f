"""The longer fuzzing run: the parser fuzzers of the suite with a large budget, then
schemathesis against a real server's OpenAPI schema (every endpoint).

    python benchmarks/web_fuzz.py --examples 3000 --api-examples 300

Prints, per target, how many inputs were tried, how long it took and whether any
raised something other than its documented error (the run stops at the first).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import fuzz_parsers as fz  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

TARGETS = {
    "move notation": (fz.notation_text, fz.check_notation),
    "position JSON": (fz.json_values | st.text(max_size=30), fz.check_position),
    "Kings record, any shape": (fz.json_values, fz.check_kings_record),
    "Kings record, mutated": (st.data(), lambda d: fz.check_kings_record(
        fz.mutated(fz.KINGS_RECORD, d.draw))),
    "classic record, mutated": (st.data(), lambda d: fz.check_classic_record(
        fz.mutated(fz.CLASSIC_RECORD, d.draw))),
    "card input": (st.text(max_size=12), fz.check_cards),
    "web action messages": (st.dictionaries(st.sampled_from(
        ["action", "tiles", "cards", "card", "claim", "points"]), fz.json_values, max_size=4),
        fz.check_web_actions),
}


def fuzz_one(strategy, check, examples: int) -> int:
    count = 0

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(value) -> None:
        nonlocal count
        count += 1
        check(value)

    run()
    return count


def fuzz_parsers(examples: int) -> None:
    for name, (strategy, check) in TARGETS.items():
        began = time.perf_counter()
        count = fuzz_one(strategy, check, examples)
        print(f"{name:<26} {count:>7} inputs {time.perf_counter() - began:>7.1f} s  ok")


def fuzz_api(examples: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from web_support import running_server

    lifted = []
    for limit in ("address_rate", "address_burst", "rate_per_second", "rate_burst",
                  "games_per_hour"):
        lifted += ["--limit", f"{limit}=1000000"]
    with tempfile.TemporaryDirectory() as folder, \
            running_server(Path(folder) / "web.sqlite3", extra_args=lifted) as server:
        began = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "run", f"{server.url}/openapi.json",
             "--checks", "not_a_server_error", "--max-examples", str(examples),
             "--workers", "1"], capture_output=True, text=True)
        tail = "\n".join(result.stdout.strip().splitlines()[-6:])
        status = "ok" if result.returncode == 0 else "FAILED"
        print(f"schemathesis, every endpoint: {examples} examples an operation,"
              f" {time.perf_counter() - began:.1f} s  {status}\n{tail}")
        if result.returncode:
            print(result.stdout[-4000:])
            sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--api-examples", type=int, default=300)
    args = parser.parse_args()
    fuzz_parsers(args.examples)
    fuzz_api(args.api_examples)


if __name__ == "__main__":
    main()
