"""Draw the README's web screenshots (docs/images/web-kings.png, web-cribbage.png,
web-front.png).

Starts ``kingscrib serve`` on a free port with a throw-away database, plays a few moves of
each game against today's default computer (the person's moves are the hint's best, so
the pictures are the same each run) and saves the page at 1280x800 in light mode with
Debian's Chromium; then the start page (the front door), those two games among its live
games, its example turn still (reduced motion: the finished count). Run from the repository: ``python scripts/web_screens.py``
(``--theme dark``, ``--size 390x844`` and ``--out DIR`` draw the others, to look at).
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextlib.contextmanager
def server():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = tempfile.mkdtemp()
    process = subprocess.Popen(
        [sys.executable, "-c", "from kingscrib.cli.main import main; main()", "serve",
         "--port", str(port), "--database-url", f"sqlite:///{data}/web.sqlite3",
         "--computer-delay", "0", "--allow-seed"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def new_game(url: str, game: str, seed: int) -> tuple[str, str]:
    levels = httpx.get(f"{url}/api/levels").json()
    level = levels.get("games", {}).get(game, {}).get("default_level", "greedy")
    created = httpx.post(f"{url}/api/games", json={
        "game": game, "seed": seed,
        "seats": [{"name": "Ann"}, {"kind": "computer", "level": level}]}).json()
    return created["game_id"], created["token"]


def my_turn(url: str, game: str, token: str) -> dict:
    """Wait for the computer; the state when this seat must act (or the game is over)."""
    for _ in range(600):
        state = httpx.get(f"{url}/api/games/{game}",
                          headers={"Authorization": f"Bearer {token}"}).json()
        waiting = state.get("waiting", [state.get("turn")])
        if state["over"] or 0 in waiting:
            return state
        time.sleep(0.1)
    raise RuntimeError("the computer did not move")


def follow_hints(url: str, game: str, token: str, moves: int) -> None:
    """``moves`` of this seat's turns, each the hint's best (a Cribbage count: the true one)."""
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(moves):
        state = my_turn(url, game, token)
        if state.get("can", {}).get("claim"):
            body = {"action": "claim", "points": state["claiming"]["score"]}
        elif state.get("can", {}).get("go"):
            body = {"action": "go"}
        else:
            hint = httpx.post(f"{url}/api/games/{game}/hint", headers=auth, timeout=120).json()
            if "cards" in hint:
                body = ({"action": "discard", "cards": hint["cards"]} if state["can"]["discard"]
                        else {"action": "play", "card": hint["cards"][0]})
            elif hint["play"]:
                body = {"action": "play", "tiles": hint["tiles"]}
            else:
                body = {"action": "exchange", "tiles": hint["exchange_tiles"]}
        reply = httpx.post(f"{url}/api/games/{game}/actions", json=body, headers=auth)
        reply.raise_for_status()
    my_turn(url, game, token)


def open_seat(page, url: str, game: str, token: str) -> None:
    page.goto(url + "/")
    page.evaluate("([g, t]) => localStorage.setItem(`kingscrib:token:${g}`, t)", [game, token])
    page.goto(f"{url}/?game={game}")


def kings(page, url: str, path: Path) -> None:
    game, token = new_game(url, "kings", seed=9)
    follow_hints(url, game, token, moves=3)
    open_seat(page, url, game, token)
    page.wait_for_selector(".turn-banner.mine")
    # The next play placed but not yet sent: its preview shows what it scores.
    hint = httpx.post(f"{url}/api/games/{game}/hint",
                      headers={"Authorization": f"Bearer {token}"}, timeout=120).json()
    for square, tile in hint.get("tiles", {}).items():
        held = "6" + tile[1:] if tile[0] == "9" else tile  # a 6/9 tile is held as a 6
        page.locator(f'#rack .tile[data-held="{held}"]').first.click()
        if tile[0] == "9":
            page.click("#turn69")
        page.click(f'[data-square="{square}"]')
    page.wait_for_selector("#preview:not(:empty)")
    settle(page)
    page.screenshot(path=str(path))


def cribbage(page, url: str, path: Path) -> None:
    game, token = new_game(url, "cribbage", seed=3)
    follow_hints(url, game, token, moves=3)
    open_seat(page, url, game, token)
    page.wait_for_selector("#c-banner.mine")
    settle(page)
    page.screenshot(path=str(path))


def front(page, url: str, path: Path) -> None:
    """The start page as a newcomer sees it (a browser of its own), down to the live games."""
    page.goto(url + "/")
    page.wait_for_selector("#meet[data-ready]")
    page.wait_for_selector("#demo[data-step='done']")
    page.wait_for_function("() => document.querySelectorAll('#watch .watch-card svg rect').length > 2")
    page.wait_for_timeout(500)  # the second card's picture
    settle(page)
    bottom = page.evaluate("() => document.getElementById('watch').getBoundingClientRect().bottom")
    size = page.viewport_size
    page.screenshot(path=str(path), full_page=True,
                    clip={"x": 0, "y": 0, "width": size["width"], "height": max(size["height"], bottom + 16)})


def settle(page) -> None:
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    page.mouse.move(0, 0)


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--theme", choices=("light", "dark"), default="light")
    parser.add_argument("--size", default="1280x800", help="WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--out", type=Path, default=IMAGES)
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = "" if (args.theme, args.size) == ("light", "1280x800") else f"-{args.theme}-{args.size}"
    with server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        phone = width < 600
        def context():
            return browser.new_context(viewport={"width": width, "height": height},
                                       color_scheme=args.theme, is_mobile=phone, has_touch=phone,
                                       reduced_motion="reduce")
        games = context()
        for name, draw in (("kings", kings), ("cribbage", cribbage), ("front", front)):
            path = args.out / f"web-{name}{suffix}.png"
            draw((context() if name == "front" else games).new_page(), url, path)
            print("wrote", path, f"{path.stat().st_size // 1024} KB")
        browser.close()


if __name__ == "__main__":
    main()
