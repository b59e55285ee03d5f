"""Kings Cribbage sub-commands of ``kingscrib``: score, moves, selfplay, replay.

These are a contract: other tools call them exactly so (see the README).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from kingscrib.cli import user_files
from kingscrib.cli.progress import progress_for, progress_option
from kingscrib.common import shown
from kingscrib.counting import rank_char
from kingscrib.kings.game import Game
from kingscrib.kings.hands import hand_value, parse_hand
from kingscrib.kings.moves import Exchange, Pass, Play
from kingscrib.kings.notation import format_action, format_play
from kingscrib.kings.position import Position, PositionError
from kingscrib.kings.record import RecordError, dumps, iter_check
from kingscrib.kings.rules import RuleSet

err_console = Console(stderr=True)


# ----- score ------------------------------------------------------------------

def hand_json(text: str) -> dict[str, Any]:
    """The ``score --json`` object of one hand (``error`` when it cannot be read)."""
    try:
        ranks = parse_hand(text)
    except ValueError as e:
        return {"hand": shown.escaped(" ".join(text.split())), "error": str(e)}
    value = hand_value(ranks)
    c = value.count
    data: dict[str, Any] = {
        "hand": "".join(rank_char(r) for r in ranks),
        "valid": value.valid,
        "fifteens": c.fifteen_points,
        "pairs": c.pair_points,
        "runs": c.run_points,
        "total": c.total,
    }
    if not value.valid:
        data["reason"] = value.reason
    return data


def _hand_text(data: dict[str, Any]) -> str:
    if "error" in data:
        return f"{data['hand']}: error: {data['error']}"
    parts = [f"{k} {data[k]}" for k in ("fifteens", "pairs", "runs") if data[k]]
    line = f"{data['hand']} = {data['total']}" + (f" ({', '.join(parts)})" if parts else "")
    if not data["valid"]:
        line += f"  INVALID: {data['reason']}"
    return line


@click.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.argument("hands", nargs=-1, required=True)
def score(as_json: bool, hands: tuple[str, ...]) -> None:
    """Score crib hands: fifteens, pairs, runs, and whether the hand is valid.

    For example `kingscrib score 98799 9TJJ5`. Give `-` to read one hand per line
    from standard input. A hand is rank characters A 2-9 T J Q K (10 for T; case
    and spaces ignored). The total is what the fifteens, pairs and runs count; an
    invalid hand (a tile that scores nothing, or more than 5 tiles) cannot be
    played and says why. A line of more than 13 tiles, longer than the board, is
    refused. A hand that cannot be read, or no hand at all, gives exit status 1.
    """
    lines: Iterable[tuple[int | None, str | None, str | None]] = (
        (None, h, None) for h in hands)
    if hands == ("-",):  # answered line by line, as the lines arrive
        lines = user_files.iter_lines("-")
    errors = 0
    for number, text, why in lines:
        if text is not None:
            data = hand_json(text)
        else:  # the line cannot be read at all: name it by its number
            data = {"hand": f"line {number}", "line": number, "error": why}
        if "error" in data:
            errors += 1
        click.echo(json.dumps(data) if as_json else _hand_text(data))
        if errors >= user_files.MAX_ERRORS and hands == ("-",):
            summary = user_files.too_many_errors(errors, "hands")
            click.echo(json.dumps({"error": summary}) if as_json else f"error: {summary}")
            break
    if errors:
        sys.exit(1)


# ----- moves ------------------------------------------------------------------

@click.command()
@click.option("--json", "as_json", is_flag=True,
              help="For each position, one line holding a JSON array of every legal play.")
@click.option("--top", default=10, show_default=True, help="Plays shown in the table.")
@click.argument("file", default="-")
def moves(as_json: bool, top: int, file: str) -> None:
    """List the legal plays of positions (JSON lines in FILE, or `-` for standard input).

    A position is `{"board": {"G7": "8L"}, "rack": ["7L", ...], "bag": 60, "rules": {}}`.
    A line that is not a valid position gives `{"error": ...}` and exit status 1.
    """
    failed = False
    console = Console()
    for number, line, why in user_files.iter_lines(file):
        try:
            if why is not None:
                raise PositionError(why)
            position = Position.from_json(line)
        except PositionError as e:
            failed = True
            click.echo(click.style(f"position {number}: {e}", fg="red"), err=True)
            if as_json:
                click.echo(json.dumps({"error": f"position {number}: {e}"}))
            continue
        plays = position.legal_moves()
        if as_json:
            found = [sp.to_json(notation=format_play(sp.play, position.board))
                     for sp in plays]
            click.echo(json.dumps(found, separators=(",", ":")))
            continue
        table = Table(title=f"Position {number}: {len(plays)} legal plays")
        for column in ("#", "play", "score", "breakdown"):
            table.add_column(column)
        for i, sp in enumerate(plays[:top], 1):
            table.add_row(str(i), format_play(sp.play, position.board), str(sp.total),
                          sp.score.describe())
        console.print(table)
    if failed:
        sys.exit(1)


# ----- selfplay ---------------------------------------------------------------

def _rules_option(text: str | None) -> RuleSet:
    if not text:
        return RuleSet()
    try:
        return RuleSet.from_json(user_files.parse(text))
    except (ValueError, TypeError) as e:
        raise click.BadParameter(str(e), param_hint="--rules") from None


def _player_names() -> list[str]:
    from kingscrib.players.kings import PLAYERS

    return list(PLAYERS)


def selfplay_game(a: str, b: str, players: int, rules: RuleSet, seed: int) -> dict[str, Any]:
    """One computer game (seats alternate A, B, A, B) as a game record."""
    from kingscrib.players.kings import make_player
    from kingscrib.players.kings.driver import play_game

    names = [a if seat % 2 == 0 else b for seat in range(players)]
    seats = [make_player(n, seed * 10 + i) for i, n in enumerate(names)]
    game = play_game(seats, rules, seed, names=names)
    return game.to_record()


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Write each game record as a JSON line.")
@click.option("--seed", default=1, show_default=True, help="Seed of the first game (then +1).")
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4))
@click.option("--games", default=1, show_default=True, type=click.IntRange(1))
@click.option("--rules", "rules_json", default=None, help='Rule options as JSON, e.g. \'{"joker": true}\'.')
@click.option("--a", "player_a", default="greedy", show_default=True,
              help="Computer player in seats 1 and 3.")
@click.option("--b", "player_b", default="greedy", show_default=True,
              help="Computer player in seats 2 and 4.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also append the game records (JSON lines) to this file.")
@progress_option
def selfplay(as_json: bool, seed: int, players: int, games: int, rules_json: str | None,
             player_a: str, player_b: str, out: str | None,
             show_progress: bool | None) -> None:
    """Play computer-vs-computer games. The same seed gives the same game."""
    rules = _rules_option(rules_json)
    known = _player_names()
    for name in (player_a, player_b):
        if name not in known:
            raise click.BadParameter(f"unknown player {name!r}; choose from {', '.join(known)}")
    sink = open(out, "a", encoding="utf-8") if out else None
    try:
        with progress_for(False if games < 2 else show_progress) as progress:
            task = progress.add_task("self-play", total=games)
            for g in range(games):
                record = selfplay_game(player_a, player_b, players, rules, seed + g)
                line = dumps(record)
                if sink:
                    sink.write(line + "\n")
                    sink.flush()
                if as_json:
                    click.echo(line)
                else:
                    end = record["end"]
                    scores = ", ".join(f"{p['name']} {s}" for p, s in
                                       zip(record["players"], end["scores"]))
                    click.echo(f"game {g + 1} (seed {seed + g}): {scores}; {end['reason']},"
                               f" {len(record['turns'])} turns")
                progress.advance(task)
    finally:
        if sink:
            sink.close()


# ----- replay -----------------------------------------------------------------

def _describe_turn(turn: Any, game: Game) -> str:
    name = game.names[turn.player]
    if turn.action == "play":
        before = {s: t for s, t in game.board.items() if s not in turn.tiles}
        text = format_play(Play.of(turn.tiles), before)
        line = f"{name}: {text}  +{turn.score}  [{turn.detail.describe()}]"
        if turn.claimed is not None and turn.claimed != turn.score:
            line += f"  claimed {turn.claimed}"
        if turn.overclaim:
            line += (f"  over-claim: {game.names[turn.overclaim['player']]}"
                     f" +{turn.overclaim['points']}")
    else:
        action = Exchange(tuple(turn.returned)) if turn.action == "exchange" else Pass()
        line = f"{name}: {format_action(action, game.board)}"
    if turn.joker:
        line += f"  Joker! {game.names[turn.joker['caller']]} {turn.joker['points']:+d}"
    if turn.servant is not None:
        line += f"  (Servant: {game.names[turn.servant]})"
    return line


@click.command()
@click.option("--quiet", "-q", is_flag=True, help="Only check; print the verdict.")
@click.argument("file", default="-")
def replay(quiet: bool, file: str) -> None:
    """Show a saved game turn by turn and check it against the rules.

    FILE holds one game record (or several, one per line). The first turn that
    breaks a rule is named and the exit status is 1.
    """
    number = 1
    try:
        for number, record in user_files.documents(user_files.read_text(file), file):
            game = None
            for i, turn, game in iter_check(record):
                if not quiet:
                    click.echo(f"{i + 1:3d}. {_describe_turn(turn, game)}   "
                               f"scores {' '.join(map(str, game.scores))}")
            if game is not None and game.end is not None:
                standings = ", ".join(f"{n} {s} (-{p})" for n, s, p in zip(
                    game.names, game.final_scores, game.end.penalties))
                click.echo(f"end ({game.end.reason}): {standings}")
            click.echo(f"record {number}: OK, every turn follows the rules")
    except RecordError as e:
        click.echo(click.style(f"record {number}: {e}", fg="red"), err=True)
        sys.exit(1)


COMMANDS: list[click.Command] = [score, moves, selfplay, replay]
