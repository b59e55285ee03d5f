"""``kingscrib puzzles generate|verify`` and ``kingscrib puzzle``: find the best option
in positions taken from self-play (see :mod:`kingscrib.puzzles`)."""

from __future__ import annotations

import datetime
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress
from rich.text import Text

from kingscrib.cli.backend_options import backend_from_options, backend_options
from kingscrib.cli.progress import progress_for, progress_option
from kingscrib.common.wrap import wrap_words
from kingscrib.puzzles.puzzle import GAMES, Puzzle, PuzzleError, dump_set, load_set, shipped

QUIT_WORDS = {"quit", "q", "exit"}
SKIP_WORDS = {"skip", "s", "next"}


@click.group("puzzles")
def puzzles() -> None:
    """Make and check puzzle sets."""


@puzzles.command()
@click.option("--game", type=click.Choice(GAMES), required=True)
@click.option("--count", type=click.IntRange(1), default=20, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the first self-play game (then +1).")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Processes (or CPUs of a Ray started here); default: all.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the set to this new file (default: print it).")
@click.option("--kind", type=click.Choice(["best-card"]), default=None,
              help="Only puzzles of this kind (Cribbage's best card in the play).")
@progress_option
@backend_options
def generate(game: str, count: int, seed: int, workers: int | None, out: str | None,
             kind: str | None, show_progress: bool | None, backend: str,
             address: str | None) -> None:
    """Find COUNT puzzles of GAME in self-play; the same seed gives the same puzzles."""
    from kingscrib.puzzles.generate import generate as run
    from kingscrib.puzzles.puzzle import KINDS

    if kind and kind not in KINDS[game]:
        raise click.BadParameter(f"a {game} puzzle's kind is one of {', '.join(KINDS[game])}",
                                 param_hint="--kind")
    if out and Path(out).exists():  # never overwrite what a user made
        raise click.BadParameter(f"{out} already exists: name a new file", param_hint="--out")
    chosen = backend_from_options(backend, address, workers)
    with progress_for(show_progress) as progress:
        task = progress.add_task(f"{game} puzzles", total=count)
        found = run(game, count, chosen, seed,
                    on_found=lambda n: progress.advance(task, n), kind=kind)
    if out:
        dump_set(found, Path(out))
        click.echo(f"{len(found)} {game} puzzles written to {out}", err=True)
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "set.json"
            dump_set(found, path)
            click.echo(path.read_text(encoding="utf-8"), nl=False)


@puzzles.command()
@click.argument("file", type=click.Path(dir_okay=False))
def verify(file: str) -> None:
    """Analyse every puzzle of FILE again from scratch; fail on any that does not hold."""
    from kingscrib.puzzles.verify import problems

    try:
        found = load_set(file)
    except PuzzleError as e:
        raise click.ClickException(str(e)) from None
    bad = 0
    with Progress(console=Console(stderr=True), transient=True,
                  disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task("verifying", total=len(found))
        for p in found:
            wrong = problems(p)
            if wrong:
                bad += 1
                click.echo(f"{p.id}: " + "; ".join(wrong))
            progress.advance(task)
    if bad:
        raise click.ClickException(f"{bad} of {len(found)} puzzles do not hold")
    click.echo(f"all {len(found)} puzzles hold")


# ----- playing ------------------------------------------------------------------------
def _say(console: Console, text: str, style: str = "") -> None:
    """``text`` wrapped to the console's width between words, never inside a number or a
    card's name (a terminal left to wrap it cuts at the last column)."""
    for row in wrap_words(text, console.width):
        console.print(Text(row, style=style), soft_wrap=True)


def _show(console: Console, puzzle: Puzzle, plain: bool) -> None:
    console.print(Text(f"Puzzle {puzzle.id}", style="bold"))
    pos = puzzle.position
    if puzzle.game == "kings":
        from kingscrib.kings.position import Position
        from kingscrib.terminal.views.kings import render_board, render_rack

        position = Position.from_json(pos)
        console.print(render_board(position.board, plain=plain))
        bag = position.bag or 0
        console.print(Text("Your rack: ").append_text(render_rack(position.rack, plain=plain))
                      .append(f"   ({bag} tile{'s' if bag != 1 else ''} in the bag)"))
        _say(console, "Find the best play: the most equity (points now + the tiles kept"
                      " - a share of the reply it allows).")
    elif puzzle.kind == "best-discard":
        whose = "You deal: the crib is yours." if pos["dealer"] else \
            "They deal: the crib is theirs."
        _say(console, f"{whose} Your six cards: {' '.join(pos['hand'])}")
        _say(console, "Which two do you lay away? (the most points expected: hand + crib)")
    else:
        played = ", ".join(f"{'you' if who == 'me' else 'they'} {c}" for who, c in pos["played"])
        count = sum(min(10, "A23456789TJQK".index(c[0]) + 1) for c in pos["pile"])
        _say(console, f"{'You deal' if pos['dealer'] else 'They deal'}; starter "
                      f"{pos['starter']}; you laid away {' '.join(pos['discards'])}.")
        _say(console, f"Played so far: {played or 'nothing'}. The count is {count}; "
                      f"they hold {pos['opponent_cards']} card"
                      f"{'s' if pos['opponent_cards'] != 1 else ''}.")
        _say(console, f"Your hand: {' '.join(pos['hand'])}. Which card do you lay?"
                      " (the most points pegged from here, yours less theirs)")


def _pool(game: str | None, file: str | None) -> list[Puzzle]:
    if file:
        try:
            found = load_set(file)
        except PuzzleError as e:
            raise click.ClickException(str(e)) from None
        return [p for p in found if game is None or p.game == game]
    games = [game] if game else list(GAMES)
    by_game = [list(shipped(g)) for g in games]
    # interleave the games so that a session without --game meets both
    return [p for group in zip(*by_game) for p in group] if len(by_game) > 1 else by_game[0]


@click.command("puzzle")
@click.option("--game", type=click.Choice(GAMES), default=None,
              help="Only this game's puzzles (default: both, in turn).")
@click.option("--daily", is_flag=True, help="Today's puzzle: the same for everyone.")
@click.option("--file", "file", type=click.Path(dir_okay=False), default=None,
              help="Puzzles from this set instead of the shipped ones.")
@click.option("--no-color", "plain", is_flag=True, help="Draw without colour.")
def puzzle(game: str | None, daily: bool, file: str | None, plain: bool) -> None:
    """Solve puzzles: find the engine's best option; each answer is explained."""
    from kingscrib.puzzles.explain import PROMPTS, judge
    from kingscrib.puzzles.progress import Progress as Saved
    from kingscrib.puzzles.progress import daily_index

    console = Console(no_color=plain, highlight=False)
    pool = _pool(game, file)
    if not pool:
        raise click.ClickException("no puzzles to play")
    saved = Saved.load()
    if daily:
        today = datetime.datetime.now(datetime.UTC).date()
        queue = [pool[daily_index(today, len(pool), game or "all")]]
        _say(console, f"Daily puzzle for {today.isoformat()}")
    else:
        solved = set(saved.solved)
        queue = [p for p in pool if p.id not in solved]
        if not queue:
            _say(console, "You have solved every puzzle here; starting again.")
            queue = pool
    _say(console, f"Solved {len(saved.solved)}, streak {saved.streak} (best "
                  f"{saved.best_streak}). Type 'skip' for another puzzle, 'quit' to stop.")
    for p in queue:
        _show(console, p, plain)
        while True:
            try:
                text = click.prompt(PROMPTS[p.kind], prompt_suffix="> ").strip()
            except click.Abort:
                console.print()
                return
            word = text.lower()
            if word in QUIT_WORDS:
                return
            if word in SKIP_WORDS:
                break
            try:
                right, lines = judge(p, text)
            except ValueError as e:
                _say(console, f"Not an answer: {e}. Try again.", "bold red")
                continue
            saved.record(p.id, right)
            saved.save()
            console.print(Text("Right!" if right else "Not the best.",
                               style="bold green" if right else "bold red"))
            for line in lines:
                _say(console, line)
            _say(console, f"Streak {saved.streak} (best {saved.best_streak}), "
                          f"{len(saved.solved)} solved.")
            break
