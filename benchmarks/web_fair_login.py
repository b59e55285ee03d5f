"""Log-in limits under concurrency, and a real log-in's time while others flood.

    python benchmarks/web_fair_login.py              # this checkout's server
    python benchmarks/web_fair_login.py --rounds 5   # more flood rounds

A real ``kingscrib serve`` (SQLite in a temporary folder, ``--trust-proxy 127.0.0.1`` so
that each request names its client address in ``X-Forwarded-For``), one account
("Owner", a good password). Prints:

- guesses *checked* (answered 401, a password hash compared) and refused (429) when
  60 and 120 wrong log-ins for one name are sent at once from one address, and 120 at
  once from five addresses; the limits are 10 per name and address, 30 per address,
  100 per name (kingscrib.web.accounts.store);
- the owner's log-in (from an address of its own) on a quiet server, then sent 50 ms
  after 120 bogus log-ins from five other addresses were sent at once, each address
  within its limits (24 guesses each, at other names), and again ``--later`` seconds
  after such a flood: medians over ``--rounds``, and the ratios. Every round uses fresh
  addresses, so no limit is reached. The flood is sent by a process of its own: sent
  from the owner's event loop, its 120 requests' client work would be counted in the
  owner's time.

The server runs the code of the current directory (``kingscrib`` as imported from it):
run it from another checkout to measure that one.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from web_support import Server  # noqa: E402

PASSWORD = "correct horse battery"


async def _post(client: httpx.AsyncClient, url: str, name: str, password: str,
                address: str) -> tuple[int, float]:
    start = time.perf_counter()
    r = await client.post(f"{url}/api/account/login", json={"name": name, "password": password},
                          headers={"X-Forwarded-For": address})
    return r.status_code, time.perf_counter() - start


async def guesses(url: str, count: int, name: str, addresses: list[str]) -> dict[int, int]:
    async with httpx.AsyncClient(timeout=600) as client:
        answers = await asyncio.gather(*(
            _post(client, url, name, "guess guess", addresses[i % len(addresses)])
            for i in range(count)))
    codes = [code for code, _ in answers]
    return {code: codes.count(code) for code in sorted(set(codes))}


async def _flood(url: str, flood: list[str]) -> None:
    async with httpx.AsyncClient(timeout=600, limits=httpx.Limits(max_connections=400)) as c:
        await asyncio.gather(*(_post(c, url, f"user {i}", "guess guess", flood[i % len(flood)])
                               for i in range(24 * len(flood))))


def _flood_process(url: str, flood: list[str], started: Any) -> None:
    started.set()
    asyncio.run(_flood(url, flood))


async def owner_time(url: str, address: str, flood: list[str], after: float = 0.05
                     ) -> tuple[float, int]:
    """The owner's log-in time, sent ``after`` seconds after ``flood`` addresses sent 24
    bogus log-ins each at once (none when empty). The flood is sent by a process of its
    own, so that the owner's time does not count the flood's client work."""
    child = None
    if flood:
        started = multiprocessing.Event()
        child = multiprocessing.Process(target=_flood_process, args=(url, flood, started))
        child.start()
        started.wait()
        await asyncio.sleep(after)  # the flood is in line first
    async with httpx.AsyncClient(timeout=600) as own:  # a connection of its own
        code, took = await _post(own, url, "Owner", PASSWORD, address)
    if child is not None:
        child.join()
    return took, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--later", type=float, default=2.0,
                        help="also log in this many seconds into the flood (0: not)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "web.sqlite3",
                        extra_args=["--trust-proxy", "127.0.0.1"]).start()
        try:
            url = server.url
            r = httpx.post(f"{url}/api/account/signup",
                           json={"name": "Owner", "password": PASSWORD},
                           headers={"X-Forwarded-For": "192.0.2.1"})
            assert r.status_code == 201, r.text
            for label, count, name, addresses in (
                    ("60 at once, one name, one address", 60, "Target A", ["203.0.113.1"]),
                    ("120 at once, one name, one address", 120, "Target B", ["203.0.113.2"]),
                    ("120 at once, one name, five addresses", 120, "Target C",
                     [f"203.0.113.{10 + i}" for i in range(5)]),
                    ("120 at once, other names, one address", 120, "", ["203.0.113.20"])):
                if name:
                    found = asyncio.run(guesses(url, count, name, addresses))
                else:
                    async def spread(n: int = count, a: list[str] = addresses) -> dict[int, int]:
                        async with httpx.AsyncClient(timeout=600) as client:
                            answers = await asyncio.gather(*(
                                _post(client, url, f"n{i}", "guess guess", a[0])
                                for i in range(n)))
                        codes = [code for code, _ in answers]
                        return {code: codes.count(code) for code in sorted(set(codes))}
                    found = asyncio.run(spread())
                print(f"{label}: checked (401) {found.get(401, 0)}, refused (429)"
                      f" {found.get(429, 0)}, other {count - found.get(401, 0) - found.get(429, 0)}")
            quiet, flooded, later = [], [], []
            for i in range(args.rounds):
                took, code = asyncio.run(owner_time(url, f"192.0.2.{10 + i}", []))
                assert code == 200, code
                quiet.append(took)
                flood = [f"198.51.{i}.{j}" for j in range(5)]
                took, code = asyncio.run(owner_time(url, f"192.0.2.{50 + i}", flood))
                assert code == 200, code
                flooded.append(took)
                if args.later:
                    flood = [f"198.51.{100 + i}.{j}" for j in range(5)]
                    took, code = asyncio.run(owner_time(url, f"192.0.2.{100 + i}", flood,
                                                        args.later))
                    assert code == 200, code
                    later.append(took)
            q = statistics.median(quiet)
            print(f"owner's log-in, quiet: median {q * 1000:.0f} ms"
                  f" ({', '.join(f'{t * 1000:.0f}' for t in quiet)})")
            for label, times in (("as it starts", flooded),
                                 (f"{args.later:g} s into it", later)):
                if times:
                    f = statistics.median(times)
                    print(f"owner's log-in, 120 bogus from 5 addresses at once, {label}:"
                          f" median {f * 1000:.0f} ms"
                          f" ({', '.join(f'{t * 1000:.0f}' for t in times)}); ratio {f / q:.2f}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
