"""The fair-play limits as a flood meets them (docs/benchmarks.md, "Fair play limits"):
seeks posted from one address under ever-new ``X-Lobby-Visitor`` headers, the size of a
new browser's first lobby message, and tournaments created by one account in a burst.
One in-process server (SQLite) at the default limits, the request rate lifted so that
only the limits measured refuse.

    python benchmarks/web_fair_limits.py [--seeks 450] [--tournaments 200]
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fastapi.testclient import TestClient  # noqa: E402

from kingscrib.web import Settings, create_app  # noqa: E402
from kingscrib.web.server.limits import LimitSettings  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeks", type=int, default=450)
    parser.add_argument("--tournaments", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        limits = LimitSettings(rate_per_second=1e6, rate_burst=1e6, address_rate=1e6,
                               address_burst=1e6)
        app = create_app(Settings(database_url=f"sqlite:///{folder}/web.sqlite3",
                                  limits=limits, tournament_every=0))
        with TestClient(app, base_url="https://testserver") as c:
            began = time.perf_counter()
            accepted = 0
            for _ in range(args.seeks):
                r = c.post("/api/lobby/seeks", json={"name": "Flood"},
                           headers={"X-Lobby-Visitor": secrets.token_urlsafe(16)})
                accepted += r.status_code == 201
            seconds = time.perf_counter() - began
            with c.websocket_connect("/api/lobby/live") as ws:
                ws.send_json({"type": "hello", "visitor": secrets.token_urlsafe(16)})
                first = ws.receive_json()
                first = first[0] if isinstance(first, list) else first
            size = len(json.dumps(first, separators=(",", ":")))
            print(f"seeks: {accepted} of {args.seeks} accepted from one address under"
                  f" {args.seeks} visitor headers ({seconds:.1f} s); a new browser's first"
                  f" message: {len(first['seeks'])} seeks, {size / 1000:.1f} kB")
            r = c.post("/api/account/signup", json={"name": "Maker",
                                                     "password": "correct horse battery"})
            csrf = {"X-CSRF-Token": r.json()["csrf"]}
            began = time.perf_counter()
            made = 0
            for _ in range(args.tournaments):
                r = c.post("/api/tournaments", headers=csrf, json={
                    "name": "Flood", "game": "classic", "format": "swiss", "rounds": 3,
                    "starts_in": 3600})
                made += r.status_code == 201
            seconds = time.perf_counter() - began
            print(f"tournaments: {made} of {args.tournaments} created by one account"
                  f" ({seconds:.1f} s for all the requests)")


if __name__ == "__main__":
    main()
