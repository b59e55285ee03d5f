"""``kingscrib play``: Kings Cribbage in the terminal (people and computers, 2-4 seats).

This module only reads lines and prints; the game is run by
:class:`kingscrib.terminal.controllers.kings.Session` and drawn by
:mod:`kingscrib.terminal.views.kings`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from kingscrib.cli import user_files
from kingscrib.kings.rules import EXCHANGE_WHEN_STUCK, RuleSet
from kingscrib.players import level_names
from kingscrib.players.kings import PLAYERS
from kingscrib.terminal import storage
from kingscrib.terminal.controllers.kings import (
    CLAIM,
    COMPUTER,
    HANDOVER,
    HUMAN,
    MOVE,
    OVER,
    THINKING,
    Reply,
    Session,
    default_level,
    describe_seats,
    make_seats,
)
from kingscrib.terminal.views import kings as kings_view
from kingscrib.terminal.views.replies import render_messages

_HUMAN_WORDS = {"human", "person", "me", "you", "h"}


def _levels() -> str:
    return level_names.choices_text("kings", PLAYERS)


def _level(text: str) -> str | None:
    """The technical level for a level's title or short name (any case), or None."""
    level = level_names.resolve("kings", text)
    return level if level in PLAYERS else None


def _read_rules(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    source = text
    if not text.lstrip().startswith("{") and Path(text).expanduser().is_file():
        source = user_files.read_text(str(Path(text).expanduser()))
    try:
        data = user_files.parse(source)
        RuleSet.from_json(data)  # a JSON object of known rules, or ValueError saying why
    except (ValueError, TypeError) as e:
        raise click.BadParameter(str(e), param_hint="--rules") from None
    return {str(key): value for key, value in data.items()}


def _seat_kinds(seats: tuple[str, ...], players: int | None) -> list[str]:
    kinds = []
    for s in seats:
        word = s.strip().lower()
        if word in _HUMAN_WORDS:
            kinds.append(HUMAN)
        elif word in ("computer", "cpu", "c"):
            kinds.append(COMPUTER)
        elif level := _level(word):
            kinds.append(level)
        else:
            raise click.BadParameter(
                f"{s!r} is neither human nor a computer level ({_levels()})",
                param_hint="--seat")
    count = players or max(len(kinds), 2)
    if len(kinds) > count:
        raise click.BadParameter(f"{len(kinds)} seats given for {count} players",
                                 param_hint="--seat")
    if not kinds:
        kinds = [HUMAN]
    return kinds + [COMPUTER] * (count - len(kinds))


def _summary(data: dict[str, Any]) -> str:
    try:
        game = data["game"]
        names = [p["name"] for p in game["players"]]
        scores = [0] * len(names)
        for t in game["turns"]:
            # a claim gives at most the play's value; the next player takes any excess
            scores[t["player"]] += min(t.get("claimed", t.get("score", 0)), t.get("score", 0))
            if "overclaim" in t:
                scores[t["overclaim"]["player"]] += t["overclaim"]["points"]
            if "joker" in t:
                scores[t["joker"]["caller"]] += t["joker"]["points"]
        who = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
        return f"turn {len(game['turns']) + 1}: {who}"
    except (KeyError, TypeError, IndexError):
        return "it cannot be summarised"


@click.command("play", context_settings={"help_option_names": ["-h", "--help"]},
               epilog=level_names.help_table("kings", PLAYERS))
@click.option("--players", "-n", type=click.IntRange(2, 4), default=None,
              help="Number of seats, 2 to 4 (default: 2, or as many as --seat gives).")
@click.option("--seat", "seats", multiple=True, metavar="human|LEVEL",
              help="Who sits in the next seat: human, or a computer level. Repeat for each"
                   " seat; seats left over are computers. Default: you, then computers.")
@click.option("--names", default=None, metavar="A,B,...",
              help="Names of the seats in order, separated by commas.")
@click.option("--level", default=None, metavar="LEVEL",
              help=f"Level of the computer seats, a title or its short name (default:"
                   f" {level_names.title('kings', default_level())}, a gentle first"
                   " opponent). The levels are listed below.")
@click.option("--seed", type=int, default=None, help="Seed of the shuffle (a game to replay).")
@click.option("--rules", "rules_json", default=None, metavar="JSON",
              help='Rules as a JSON object or a file holding one, e.g. {"joker": true}.')
@click.option("--joker", is_flag=True, help="Joker rule: claim your own points; missed"
              " points can be taken by calling joker.")
@click.option("--servant", is_flag=True, help="Servant rule: the lowest scorer is named"
              " after every round (and after every game of a match).")
@click.option("--solitaire", is_flag=True, help="Two seats: Light draws light tiles, Dark"
              " draws dark ones.")
@click.option("--when-stuck", is_flag=True, help="Exchange or pass only when no play is"
              " possible.")
@click.option("--reduced-first-bonus", is_flag=True, help="The first-play and five-tile"
              " bonuses do not combine.")
@click.option("--games", type=click.IntRange(1, 99), default=1, show_default=True,
              help="Play a match of this many games; scores are totalled.")
@click.option("--resume", is_flag=True, help="Continue the game saved when you last quit.")
@click.option("--new", "force_new", is_flag=True, help="Start a new game even though one is"
              " saved (the saved one is kept in the games folder).")
@click.option("--record", "record_file", type=click.Path(dir_okay=False), default=None,
              help="Also write the finished game's record (a match: all its games) here.")
@click.option("--no-color", is_flag=True, help="Draw without colour (tiles as 7L / 7D; also"
              " when NO_COLOR is set).")
@click.option("--line", "line_mode", is_flag=True, help="Play line by line instead of full"
              " screen (the default when the input or output is not a terminal).")
def play(players: int | None, seats: tuple[str, ...], names: str | None, level: str | None,
         seed: int | None, rules_json: str | None, joker: bool, servant: bool,
         solitaire: bool, when_stuck: bool, reduced_first_bonus: bool, games: int,
         resume: bool, force_new: bool, record_file: str | None, no_color: bool,
         line_mode: bool) -> None:
    """Play Kings Cribbage in the terminal: you against the computer, or any mix of
    2 to 4 people and computers at one keyboard.

    \b
    At the prompt type a move in notation, or a command:
      G7 across 7A7A     play tiles from G7 rightwards (down: downwards)
      H8 3D              a single tile; colours L/D only when needed
      exchange 7L KD     swap tiles with the bag (short: x 7 K)
      pass, hint, undo, joker, rules, help, save, quit

    undo takes back your last turn and the computer's after it, then shuffles
    the bag again: the same move may draw other tiles, so undo never previews
    a draw.

    On a terminal the game runs full screen: Tab lays tiles with the keyboard
    (arrows, a rank, Space, Backspace, Enter) and a click on a rack tile then a
    square lays it with the mouse. Through a pipe, or with --line, it runs line
    by line.

    The game is saved after every move: quit at any time and continue with
    `kingscrib play --resume`. A finished game's record goes to the games
    folder of the data directory ($KINGSCRIB_DATA_DIR).
    """
    console = Console(no_color=no_color or None, highlight=False)
    if resume and force_new:
        raise click.UsageError("--resume and --new do not go together")
    if level is not None:
        if _level(level) is None:
            raise click.BadParameter(f"unknown level {level!r}; choose from {_levels()}",
                                     param_hint="--level")
        level = _level(level)
    try:
        saved = storage.read_autosave()
        if saved is not None:
            try:
                Session.from_snapshot(saved)
            except ValueError as e:
                raise ValueError(f"{e} ({storage.autosave_path()})") from None
    except ValueError as e:
        saved = None
        if resume:
            raise click.ClickException(str(e)) from None
        kept = storage.keep_autosave()
        if not go_on_after_moving_aside(console, f"The autosave could not be read ({e})",
                                        kept, line_mode, "kingscrib play"):
            return

    session: Session | None = None
    if resume:
        ctx = click.get_current_context()
        ignored = [param.opts[0] for param in ctx.command.params
                   if param.name not in ("resume", "record_file", "no_color", "line_mode")
                   and ctx.get_parameter_source(param.name)
                   == click.core.ParameterSource.COMMANDLINE]
        if ignored:
            console.print(f"[yellow]The saved game keeps its own seats and rules:"
                          f" {escape(', '.join(ignored))} ignored.[/]")
        if saved is None:
            raise click.ClickException(
                f"there is no saved game to resume in {storage.autosave_path().parent};"
                " start one with `kingscrib play`")
        try:
            session = Session.from_snapshot(saved)
        except ValueError as e:
            raise click.ClickException(f"{e} ({storage.autosave_path()})") from None
    elif saved is not None and not force_new:
        console.print(f"An unfinished game is saved ({escape(_summary(saved))}).")
        console.print("Continue it with [bold]kingscrib play --resume[/], or start afresh"
                      " with [bold]kingscrib play --new[/] (the old one is kept).")
        choice = click.prompt("Resume it (r), start a new game (n) or quit (q)?",
                              type=click.Choice(["r", "n", "q"]), default="r")
        if choice == "q":
            return
        if choice == "r":
            try:
                session = Session.from_snapshot(saved)
            except ValueError as e:
                raise click.ClickException(f"{e} ({storage.autosave_path()})") from None
        else:
            force_new = True
    if session is None:
        rules = _read_rules(rules_json)
        rules.update({k: True for k, on in (("joker", joker), ("servant", servant),
                                            ("solitaire", solitaire),
                                            ("reduced_first_bonus", reduced_first_bonus))
                      if on})
        if when_stuck:
            rules["exchange"] = EXCHANGE_WHEN_STUCK
        try:
            rule_set = RuleSet.from_json(rules)
            kinds = _seat_kinds(seats, players)
            seat_list = make_seats(kinds, (names or "").split(",") if names else (), level)
            session = Session.new(seat_list, rule_set, games=games, seed=seed)
        except ValueError as e:
            raise click.UsageError(str(e)) from None
        if force_new and saved is not None:
            kept = storage.keep_autosave()
            console.print(f"[dim]The unfinished game was kept as {escape(str(kept))}.[/]")
        console.print(f"[bold]Kings Cribbage[/]: {escape(describe_seats(session.seats))}."
                      " Type [bold]help[/] for the commands.")
    storage.write_autosave(session.snapshot())
    if not line_mode and full_screen_possible():
        _run_full_screen(console, session, record_file)
        return
    try:
        _run(console, session, record_file)
    except KeyboardInterrupt:  # e.g. while the computer thinks: the last action is saved
        console.print()
        _saved_message(console)


def go_on_after_moving_aside(console: Console, problem: str, kept: Path | None,
                             line_mode: bool, command: str) -> bool:
    """Say that a saved game could not be read and where it was moved; before a full-screen
    game (which would hide the message) ask whether to start afresh. False: quit."""
    where = f"it was moved to {kept}, where it is kept" if kept else "it is gone"
    console.print(f"[yellow]{escape(problem)}; {escape(where)}.[/]")
    if line_mode or not full_screen_possible():
        console.print("A new game starts.")
        return True
    choice = click.prompt("Start a new game (n) or quit (q)?", type=click.Choice(["n", "q"]),
                          default="n")
    if choice == "q":
        console.print(f"Nothing was started; `{command}` starts a new game.")
        return False
    return True


def clear_with_scrollback(console: Console) -> None:
    """Clear the screen and the terminal's scrollback (ESC[3J), so no rack stays there."""
    console.clear()
    console.file.write("\x1b[3J")
    console.file.flush()


def full_screen_possible() -> bool:
    """The full-screen game needs a terminal on both standard input and output."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def wants_plain(console: Console) -> bool:
    """Draw light and dark as letters: no colour asked for (--no-color, NO_COLOR) or none
    available."""
    return console.no_color or console.color_system is None or bool(os.environ.get("NO_COLOR"))


def _run_full_screen(console: Console, session: Session, record_file: str | None) -> None:
    from kingscrib.terminal.kings_app import KingsApp

    app = KingsApp(session, lambda reply: storage.keep_what_a_reply_asks(session, reply),
                   plain=wants_plain(console), first_move_guide=True)
    app.run()
    if session.state == OVER:
        console.print(kings_view.screen(session, console.width, wants_plain(console)))
        _finish(console, session, record_file)
    else:
        storage.write_autosave(session.snapshot())
        _saved_message(console)


def _run(console: Console, session: Session, record_file: str | None) -> None:
    plain = wants_plain(console)
    _show(console, session.intro(), session)
    while session.state != OVER:
        state = session.state
        if state == THINKING:
            with console.status(f"{escape(session.to_move.name)} is thinking…",
                                spinner="dots"):
                reply = session.computer_turn()
            if _show(console, reply, session):
                return
            continue
        if state == HANDOVER and console.is_terminal:
            clear_with_scrollback(console)
        elif session.needs_screen and state in (MOVE, CLAIM):
            console.print(kings_view.screen(session, console.width, plain))
            session.needs_screen = False
        try:
            line = console.input(f"[bold green]{escape(session.prompt())}[/] › ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            _saved_message(console)
            return
        if line.strip().lower() == "hint":
            with console.status("Looking for the best plays…", spinner="dots"):
                reply = session.handle(line)
        else:
            reply = session.handle(line)
        if _show(console, reply, session):
            return
    _finish(console, session, record_file)


def _finish(console: Console, session: Session, record_file: str | None) -> None:
    storage.remove_autosave()
    if record_file:
        data = session.finished[-1] if session.match.games == 1 else session.match_record()
        path = storage.write_file(record_file, data)
        console.print(f"Record written to {escape(str(path))}")


def _show(console: Console, reply: Reply, session: Session) -> bool:
    """Print a reply and save; True when the user quits."""
    for message in render_messages(reply, wants_plain(console)):
        console.print(message)
    for note in storage.keep_what_a_reply_asks(session, reply):
        console.print(Text(note, style="dim"))
    if reply.quit:
        _saved_message(console)
        return True
    return False


def _saved_message(console: Console) -> None:
    console.print("The game is saved. Continue it with [bold]kingscrib play --resume[/].")


__all__ = ["play"]
