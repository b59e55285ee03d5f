"""Draw the README's terminal screenshots (docs/images/terminal-*.svg).

Each game is played a few moves against today's default opponent at 80x24 and the
screen saved as SVG by Textual. Run from the repository: ``python scripts/terminal_screens.py``.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"


async def settle(pilot) -> None:
    from kingscrib.terminal.controllers.reply import THINKING

    app = pilot.app
    await pilot.pause(0.3)
    app.query_one("#command").cursor_blink = False
    for _ in range(1000):
        await pilot.pause(0.01)
        if not app.thinking and app.session.state != THINKING:
            return


async def type_line(pilot, line: str) -> None:
    await pilot.press(*[{" ": "space"}.get(c, c) for c in line], "enter")
    await settle(pilot)


async def kings() -> None:
    from kingscrib.terminal import storage
    from kingscrib.terminal.controllers.kings import Seat, Session, default_level
    from kingscrib.terminal.kings_app import KingsApp

    session = Session.new([Seat("You"), Seat("Computer", "computer", default_level())], seed=9)
    app = KingsApp(session, lambda reply: storage.keep_what_a_reply_asks(session, reply))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await type_line(pilot, "d1 across 4 5 6 k k")
        await pilot.pause(0.2)
        app.save_screenshot("terminal-kings.svg", str(IMAGES))


async def cribbage() -> None:
    from kingscrib.cli.classic import after_reply
    from kingscrib.terminal.classic_app import ClassicApp
    from kingscrib.terminal.controllers.classic import ClassicSession

    session = ClassicSession.new(seed=3, muggins=True)
    app = ClassicApp(session, lambda reply: after_reply(session, reply))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for line in ("5 6", "1", "1"):
            await type_line(pilot, line)
        await pilot.pause(0.2)
        app.save_screenshot("terminal-cribbage.svg", str(IMAGES))


def main() -> None:
    os.environ["KINGSCRIB_DATA_DIR"] = tempfile.mkdtemp()
    IMAGES.mkdir(parents=True, exist_ok=True)
    asyncio.run(kings())
    asyncio.run(cribbage())
    print("wrote", *sorted(p.name for p in IMAGES.glob("terminal-*.svg")))


if __name__ == "__main__":
    main()
