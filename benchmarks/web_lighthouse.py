"""Lighthouse over the site's pages: performance, accessibility, best practices and
cumulative layout shift (CLS) of every page of the navigation, a game page and a
tournament page.

    (cd benchmarks/.lighthouse && npm i -E lighthouse@12.2.3)   # once; git-ignored
    python benchmarks/web_lighthouse.py                         # Lighthouse's phone
    python benchmarks/web_lighthouse.py --preset desktop --runs 3

Starts ``kingscrib serve`` on a fresh SQLite database in a temporary folder, fills it
with what the pages show (an account, a Swiss tournament, a Kings game and a Cribbage
game against the computer, one move in each), runs Lighthouse (the npm package, 12.2.3:
the last to run on Node 18-20) against Debian's Chromium for each page and prints one
line per page: the median over ``--runs`` of each score. The targets
(docs/benchmarks.md): performance >= 95, accessibility 100, best practices 100, CLS <
0.1. Installs nothing itself; not run in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "benchmarks" / ".lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
CATEGORIES = ("performance", "accessibility", "best-practices")
PASSWORD = "lighthouse benchmark"
ATTEMPTS = 3  # tries of one run before giving up
# The header's and the footer's links (kingscrib/web/pages.py, templates/layout.html).
NAVIGATION = ["/", "/learn", "/puzzles", "/tournaments", "/leaderboard", "/rules/kings",
              "/rules/cribbage", "/learn?game=cribbage"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``kingscrib serve`` of this checkout on a fresh SQLite database; its address."""
    port = free_port()
    log = (folder / "serve.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", "from kingscrib.cli.main import main; main()", "serve",
         "--port", str(port), "--database-url", f"sqlite:///{folder / 'web.sqlite3'}"],
        cwd=ROOT, env=dict(os.environ, KINGSCRIB_DATA_DIR=str(folder)),
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server stopped: {(folder / 'serve.log').read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(10)
        log.close()


def fill(url: str) -> list[tuple[str, str]]:
    """An account, a tournament and two games to show; the pages that show them."""
    with httpx.Client(base_url=url, timeout=30) as c:
        r = c.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        r.raise_for_status()
        session = {name: value for name, value in r.cookies.items()}
        cookie = "; ".join(f"{k}={v}" for k, v in session.items())  # Secure: sent by hand
        token = c.get("/api/account", headers={"Cookie": cookie}).json()["csrf"]
        member = {"Cookie": cookie, "X-CSRF-Token": token}
        tournament = c.post("/api/tournaments", headers=member, json={
            "name": "Friday Swiss", "game": "kings", "format": "swiss", "rounds": 3,
            "starts_in": 3600})
        tournament.raise_for_status()
        pages = [(path, path) for path in NAVIGATION]
        for game in ("kings", "cribbage"):
            created = c.post("/api/games", json={"game": game, "seats": [
                {"name": "Ann"}, {"kind": "computer", "level": "easy"}]})
            created.raise_for_status()
            pages.append((f"{game} game", f"/?game={created.json()['game_id']}&watch=1"))
        pages.append(("tournament", f"/tournaments/{tournament.json()['id']}"))
        pages.append(("profile", "/players/Ann"))
        return pages


def lighthouse(command: Path, chrome: str, url: str, preset: str,
               keep: Path | None = None) -> dict[str, float]:
    """One Lighthouse run: each category's score (0-100), the CLS and the LCP (ms); its
    whole report written to ``keep`` if given."""
    args = [str(command), url, "--output=json", "--output-path=stdout", "--quiet",
            f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"]
    if preset == "desktop":
        args.append("--preset=desktop")
    for attempt in range(ATTEMPTS):  # a busy machine sometimes loses the trace (NO_NAVSTART)
        done = subprocess.run(args, capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, CHROME_PATH=chrome), check=False)
        if done.returncode == 0:
            break
        if attempt == ATTEMPTS - 1:
            raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    if keep is not None:
        keep.write_text(done.stdout)
    scores = {name: round(100 * (report["categories"][name]["score"] or 0))
              for name in CATEGORIES}
    shift = report["audits"]["cumulative-layout-shift"].get("numericValue", 0.0)
    paint = report["audits"]["largest-contentful-paint"].get("numericValue", 0.0)
    return {**scores, "cls": float(shift), "lcp": float(paint)}


def report_path(folder: Path | None, page: str, run: int) -> Path | None:
    """Where run ``run`` of ``page`` keeps its report (None: not kept)."""
    if folder is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    name = "".join(c if c.isalnum() else "-" for c in page).strip("-") or "start"
    return folder / f"{name}-{run + 1}.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", type=Path, default=LIGHTHOUSE,
                        help="the lighthouse command (default: benchmarks/.lighthouse's)")
    parser.add_argument("--chrome", default=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    parser.add_argument("--preset", choices=["mobile", "desktop"], default="mobile",
                        help="Lighthouse's phone (its default) or its desktop")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (the median is shown)")
    parser.add_argument("--only", nargs="*", default=None,
                        help="only these pages, named as printed (/learn, 'kings game'...)")
    parser.add_argument("--reports", type=Path, default=None,
                        help="a folder to keep each run's whole Lighthouse report in (JSON)")
    options = parser.parse_args()
    if not options.lighthouse.exists():
        sys.exit(f"no {options.lighthouse}: run (cd benchmarks/.lighthouse && npm i -E lighthouse@12.2.3)")
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder)) as url:
        pages = fill(url)
        if options.only:
            pages = [(n, p) for n, p in pages if n in options.only]
        print(f"Lighthouse, {options.preset}, median of {options.runs} run(s) a page")
        print(f"{'page':24} {'perf':>5} {'a11y':>5} {'best':>5} {'CLS':>7} {'LCP s':>6}")
        failing = []
        for name, path in pages:
            runs = [lighthouse(options.lighthouse, options.chrome, url + path, options.preset,
                               report_path(options.reports, name, run))
                    for run in range(options.runs)]
            median = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            print(f"{name:24} {median['performance']:5.0f} {median['accessibility']:5.0f} "
                  f"{median['best-practices']:5.0f} {median['cls']:7.3f} {median['lcp'] / 1000:6.2f}",
                  flush=True)
            if (median["performance"] < 95 or median["accessibility"] < 100
                    or median["best-practices"] < 100 or median["cls"] >= 0.1):
                failing.append(name)
        print("below a target: " + (", ".join(failing) if failing else "none"))


if __name__ == "__main__":
    main()
