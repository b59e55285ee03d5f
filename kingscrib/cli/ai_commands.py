"""Computer-player sub-commands of ``kingscrib``: tournament, train-leaves, analyze."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from kingscrib.cli import user_files
from kingscrib.cli.backend_options import backend_from_options, backend_options
from kingscrib.cli.progress import progress_for, progress_option
from kingscrib.common.backends import use_backend

COMMANDS: list[click.Command] = []


def _check_player(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from kingscrib.players.kings import PLAYERS

    if value not in PLAYERS:
        raise click.BadParameter(f"unknown player {value!r}; choose from {', '.join(PLAYERS)}")
    return value


def _check_optional_player(ctx: click.Context, param: click.Parameter,
                           value: str | None) -> str | None:
    return None if value is None else _check_player(ctx, param, value)


@click.command()
@click.option("--a", "a", callback=_check_optional_player, help="First player (PLAYERS).")
@click.option("--b", "b", callback=_check_optional_player, help="Second player.")
@click.option("--pairs", type=click.IntRange(1), default=100, show_default=True,
              help="Mirrored pairs of games (same seed, seats swapped).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Seats per game; A and B alternate seats.")
@click.option("--swiss", "swiss_field", metavar="P1,P2,...",
              help="A Swiss tournament among these players instead of A against B"
                   " (strongest first: the order ranks them at the start).")
@click.option("--game", type=click.Choice(["kings", "cribbage"]), default="kings",
              show_default=True, help="The game of a --swiss tournament.")
@click.option("--rounds", type=click.IntRange(1), default=None,
              help="Rounds of a --swiss tournament (default: enough for a clear winner).")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Processes (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@progress_option
@backend_options
def tournament(a: str | None, b: str | None, pairs: int, seed: int, players: int,
               swiss_field: str | None, game: str, rounds: int | None, workers: int | None,
               as_json: bool, show_progress: bool | None, backend: str,
               address: str | None) -> None:
    """Play mirrored pairs of Kings Cribbage games between two computer players, or a
    Swiss tournament among several (--swiss, either game)."""
    chosen = backend_from_options(backend, address, workers)
    if swiss_field is not None:
        if a or b:
            raise click.UsageError("--swiss names every player: leave out --a and --b")
        _swiss(game, [p.strip() for p in swiss_field.split(",") if p.strip()], rounds, seed,
               chosen, as_json, show_progress)
        return
    if not (a and b):
        raise click.UsageError("name two players with --a and --b, or several with --swiss")
    from kingscrib.arena.kings import match

    with progress_for(show_progress, transient=False) as progress, use_backend(chosen):
        result = match(a, b, pairs, seed, players, workers, progress=progress)
    if as_json:
        click.echo(json.dumps(result))
        return
    lo, hi = result["ci95"]
    click.echo(f"{a} v {b}: {result['games']} games ({pairs} mirrored pairs, seed {seed})")
    click.echo(f"  {a} wins {result['a_wins']}, {b} wins {result['b_wins']},"
               f" draws {result['draws']}")
    click.echo(f"  {a} win rate {result['a_win_rate']:.1%} (95% CI {lo:.1%} - {hi:.1%}),"
               f" mean spread {result['mean_spread']:+}")
    click.echo(f"  first player wins {result['first_player_win_rate']:.1%}")


def _swiss(game: str, field: list[str], rounds: int | None, seed: int, chosen: Any,
           as_json: bool, show_progress: bool | None) -> None:
    from kingscrib.tournaments.computers import check_entrants, default_rounds, swiss

    try:
        check_entrants(game, field)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--swiss") from None
    rounds = rounds or default_rounds(len(field))
    with progress_for(show_progress, transient=False) as progress, use_backend(chosen):
        played, table = swiss(game, field, rounds, seed, progress=progress)
    if as_json:
        click.echo(json.dumps({
            "game": game, "seed": seed,
            "rounds": [{"pairs": [list(p) for p in r.round.pairs], "bye": r.round.bye,
                        "results": [[x.a, x.b, x.points_a, x.margin] for x in r.results]}
                       for r in played],
            "standings": [{"player": s.entrant, "points": s.points, "buchholz": s.buchholz,
                           "sonneborn_berger": s.sonneborn_berger, "spread": s.spread,
                           "won": s.wins, "lost": s.losses, "byes": s.byes}
                          for s in table]}))
        return
    for number, r in enumerate(played, 1):
        line = ", ".join(f"{x} v {y}" for x, y in r.round.pairs)
        click.echo(f"round {number}: {line}" + (f"; bye {r.round.bye}" if r.round.bye else ""))
    click.echo(f"{'':3} {'player':12} {'points':>6} {'Buchholz':>8} {'S-B':>6} {'spread':>7}")
    for place, s in enumerate(table, 1):
        click.echo(f"{place:>2}. {s.entrant:12} {s.points:>6g} {s.buchholz:>8g}"
                   f" {s.sonneborn_berger:>6g} {s.spread:>+7}")


@click.command("train-leaves")
@click.option("--games", type=click.IntRange(10), default=2000, show_default=True,
              help="Self-play games per round.")
@click.option("--rounds", type=click.IntRange(1), default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--workers", type=click.IntRange(1), default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the table (default: the one shipped in the package).")
@backend_options
def train_leaves(games: int, rounds: int, seed: int, workers: int | None,
                 out: Path | None, backend: str, address: str | None) -> None:
    """Learn the equity player's leave values by self-play (reproducible from the seed)."""
    from kingscrib.training.leaves import train, write

    chosen = backend_from_options(backend, address, workers)
    with progress_for(None, transient=False) as progress, use_backend(chosen):
        table = train(games, seed, rounds, workers, progress)
    path = write(table, out)
    click.echo(f"wrote {path} ({table.meta['samples_last_round']} samples in the last round)")


COMMANDS += [tournament, train_leaves]


AUTOSAVE_FORMAT = "kingscrib-autosave/1"  # the terminal game's autosave (kingscrib.terminal.controllers.kings)
MATCH_FORMAT = "kingscrib-match/1"


def _subjects(value: Any, line: int) -> list[tuple[str, Any]]:
    """What one JSON document holds to analyse, each with a name: a position, a game
    record, the game in progress inside an autosave, or each game of a match record."""
    if isinstance(value, dict) and value.get("format") == AUTOSAVE_FORMAT:
        return [(f"the autosaved game (line {line})" if line > 1 else "the autosaved game",
                 value.get("game"))]
    if isinstance(value, dict) and value.get("format") == MATCH_FORMAT:
        games = value.get("games")
        if not isinstance(games, list) or not games:
            raise click.ClickException("the match record holds no finished game")
        return [(f"game {i} of the match", g) for i, g in enumerate(games, 1)]
    return [(f"line {line}", value)]


@click.command()
@click.argument("source")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True)
@click.option("--sim", "sim_seconds", type=click.FloatRange(0), default=0.0,
              help="Also simulate the options for this many seconds.")
@click.option("--game", "pick", type=click.IntRange(1), default=None,
              help="Of a file of several games (JSON lines, a match), only the N-th.")
@click.option("--json", "as_json", is_flag=True)
def analyze(source: str, top: int, sim_seconds: float, pick: int | None,
            as_json: bool) -> None:
    """Best plays of a position, or a saved game reviewed turn by turn.

    SOURCE is a position (JSON text or a file holding it), a game record file
    (kingscrib-game/1), the terminal game's autosave (its game so far), a match
    record, or JSON lines of these (as `selfplay --json` writes: each is analysed in
    turn, or only the N-th with --game N); `-` reads from standard input. A record
    whose stored scores break the rules is analysed with the rules' scores and a
    warning (as `replay` reports it).
    """
    if source.lstrip().startswith("{"):
        found = [(1, user_files.read_json(source, "SOURCE", inline=True))]
    else:
        found = list(user_files.documents(user_files.read_text(source), source))
    subjects = [s for line, value in found for s in _subjects(value, line)]
    subjects = user_files.choose(subjects, pick)
    for name, value in subjects:
        if len(subjects) > 1 and not as_json:
            click.echo(f"== {name}")
        _analyse_one(value, name if len(subjects) > 1 else "", top, sim_seconds, as_json)


def _analyse_one(data: Any, name: str, top: int, sim_seconds: float, as_json: bool) -> None:
    from kingscrib.kings.position import Position, PositionError

    where = f"{name}: " if name else ""
    if isinstance(data, dict) and "turns" in data:
        _review(data, where, as_json)
        return
    try:
        position = Position.from_json(data)
    except PositionError as e:
        raise click.ClickException(f"{where}not a position nor a game record: {e}") from None
    from kingscrib.players.kings.analysis import analyse_position

    rows = analyse_position(position, top, sim_seconds)
    if as_json:
        click.echo(json.dumps(rows))
        return
    sim = any("sim" in r for r in rows)
    head = f"{'move':<30} {'score':>5} {'leave':>6} {'reply':>6} {'equity':>7}" + \
        ("   sim" if sim else "")
    click.echo(head)
    for r in rows:
        extra = f" {r['sim']:>6}" if sim else ""
        reply = "-" if r["reply"] is None else r["reply"]
        click.echo(f"{r['move']:<30} {r['score']:>5} {r['leave']:>6} {reply:>6} "
                   f"{r['equity']:>7}{extra}")


def _review(data: dict[str, Any], where: str, as_json: bool) -> None:
    from kingscrib.kings.record import RecordError, check_record
    from kingscrib.players.kings.analysis import review_game

    try:
        reviews = review_game(data)
    except ValueError as e:
        raise click.ClickException(f"{where}bad game record: {e}") from None
    try:
        check_record(data)  # replay's check: names a stored score that was edited
    except RecordError as e:
        click.echo(click.style(f"warning: {where}the record breaks the rules: {e}; the review"
                               " counts every play as the rules score it", fg="yellow"),
                   err=True)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in reviews]))
        return
    names = [p.get("name") if isinstance(p, dict) else None for p in data.get("players", [])]
    lost: dict[int, float] = {seat: 0.0 for seat in range(len(names))}
    for r in reviews:
        mark = ""
        if r.equity_lost is None:
            mark = f"   best: {r.best} (equity {r.best_equity:.1f})" if r.best else ""
        elif r.equity_lost > 0.05:
            mark = (f"   best: {r.best} = {r.best_score}, equity -{r.equity_lost:.1f}"
                    + ("  mistake" if r.mistake else ""))
        lost[r.player] = lost.get(r.player, 0.0) + (r.equity_lost or 0.0)
        click.echo(f"{r.turn:3} {r.name:<12} {r.played:<28} {r.score:>3}{mark}")
    if not reviews:
        click.echo("no turn has been played yet: nothing to review")
        return
    click.echo("equity given up against the best option each turn: "
               + ", ".join(f"{seat_label(names, seat)} {v:.1f}" for seat, v in lost.items()))


def seat_label(names: list[Any], seat: int) -> str:
    """A seat's name, with its number when another seat has the same name ("greedy (seat
    1)"), so that two seats never read as one."""
    name = names[seat] if seat < len(names) else None
    if not isinstance(name, str):
        return f"seat {seat + 1}"
    return f"{name} (seat {seat + 1})" if names.count(name) > 1 else name


COMMANDS.append(analyze)
