"""Every lesson step read at 80x24, the size the lessons are laid out for: all of its text
is on the screen or reached by the keys its footer names; and snapshots of every step at
80x24 and 120x40 (looked at and accepted)."""

from __future__ import annotations

import asyncio
import re

import pytest
from rich.console import Console

from kingscrib.learn import check, lessons
from kingscrib.learn import progress as learn_progress
from kingscrib.learn.lesson import NUMBER
from kingscrib.terminal.learn_app import LearnApp
from kingscrib.terminal.screens.lessons import LessonScreen

STEPS = [(game, n, at) for game in ("kings", "cribbage")
         for n, each in enumerate(lessons(game)) for at in range(len(each.steps))]


def lines_of(app) -> list[str]:
    console = Console(width=app.size.width, record=True, color_system=None,
                      file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False).splitlines()


def words(text: str) -> str:
    return " ".join(text.split())


async def opened(pilot, game: str, n: int, at: int) -> LessonScreen:
    app = pilot.app
    screen = LessonScreen(lessons(game)[n], n + 1, len(lessons(game)))
    screen.at = at
    await app.push_screen(screen)
    await pilot.pause()
    await pilot.pause()
    return screen


def app_of(game: str) -> LearnApp:
    return LearnApp(game, learn_progress.empty(), None)


async def read_whole_step(game: str, n: int, at: int) -> None:
    lesson = lessons(game)[n]
    step = lesson.steps[at]
    app = app_of(game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await opened(pilot, game, n, at)
        teach = screen.query_one("#teach")
        left = teach.region.x  # the text panel's columns, right of its border
        seen: dict[int, str] = {}  # the panel's lines by their place in the whole text
        screens = []
        for _ in range(20):
            shown = lines_of(app)
            screens.append("\n".join(shown))
            for row in range(teach.region.height):
                seen[int(teach.scroll_y) + row] = shown[teach.region.y + row][left:]
            keys = shown[-1] if shown[-1].strip() else shown[-2]
            if "PgDn" not in keys or teach.scroll_y >= teach.max_scroll_y:
                break
            await pilot.press("pagedown")
            await pilot.pause()
        panel = words(" ".join(seen[i].strip("│▁▂▃▄▅▆▇█ ") for i in sorted(seen)))
        for paragraph in [lesson.title, *lesson.teach.split("\n")]:
            assert words(paragraph) in panel, (paragraph, panel)
        below = words(" ".join(screens[0].splitlines()[teach.region.bottom:]))
        assert words(step.task) in below
        if game == "kings":
            shown = screens[0].splitlines()
            at_rack = next(i for i, line in enumerate(shown) if "Your rack:" in line)
            first = "\n".join(line[:left - 2] for line in shown[at_rack:at_rack + 2])
            bag = step.setup.get("bag") or 0
            assert (f"bag {bag}" if bag else "the bag is empty") in first
            for code in step.setup["rack"]:
                shown_code = "6/9" + code[1] if code[0] in "69" else code
                assert re.search(rf"(?<![\w/]){re.escape(shown_code)}(?!\w)", first), code


@pytest.mark.parametrize(("game", "n", "at"), STEPS)
def test_every_lesson_step_can_be_read_whole_at_80x24(game, n, at):
    asyncio.run(asyncio.wait_for(read_whole_step(game, n, at), 60))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize(("game", "n", "at"), STEPS)
def test_every_lesson_step_snapshot(snap_compare, game, n, at, size):
    async def run(pilot) -> None:
        await opened(pilot, game, n, at)
        pilot.app.screen.query_one("#answer").cursor_blink = False
        await pilot.pause(0.1)
    assert snap_compare(app_of(game), terminal_size=size, run_before=run)


def said_of(step, typed: str) -> str:
    """What the lesson says to ``typed``, written out from the step and the checker."""
    if typed == "hint":
        return f"Hint: {step.hint}"
    if typed == "show":
        return f"The answer: {step.intended}"
    verdict = check(step, typed)
    breakdown = "  " + "; ".join(verdict.breakdown) if verdict.breakdown else ""
    return ("✓ " if verdict.ok else "✗ ") + verdict.message + breakdown


async def read_what_is_said(game: str, n: int, at: int) -> None:
    step = lessons(game)[n].steps[at]
    typed = ["hint", "show", *(["0"] if step.answer == NUMBER else []), step.intended]
    app = app_of(game)
    async with app.run_test(size=(80, 24)) as pilot:
        await opened(pilot, game, n, at)
        for text in typed:
            await pilot.press(*text, "enter")
            await pilot.pause()
            await pilot.pause()
            shown = lines_of(app)
            assert words(said_of(step, text)) in words(" ".join(shown)), (text, shown)
            keys = shown[-1]
            teach = pilot.app.screen.query_one("#teach")
            assert ("PgDn" in keys) == (teach.max_scroll_y > 0), keys  # the text's keys


@pytest.mark.parametrize(("game", "n", "at"), STEPS)
def test_what_a_lesson_says_to_each_key_its_footer_names_is_whole_at_80x24(game, n, at):
    """hint, show and Enter (a wrong count, then the answer): what is said is never cut
    (a wrong count's breakdown lists each fifteen), and PgDn is named while the text
    beside the position is longer than its panel."""
    asyncio.run(asyncio.wait_for(read_what_is_said(game, n, at), 60))
