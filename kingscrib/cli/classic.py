"""``kingscrib classic``: classic Cribbage from the command line.

Sub-commands: ``play`` (terminal game), ``score``, ``stats``, ``discard`` (with
``--coach``), ``selfplay``, ``tournament``, ``train-expert`` and ``train-learned``. The rules live in :mod:`kingscrib.classic`;
this module only reads input and shows results.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.discard import analyse_discards
from kingscrib.classic.show import ShowScore, score_show
from kingscrib.classic.stats import TOTAL_HANDS, score_stats
from kingscrib.cli import user_files
from kingscrib.cli.backend_options import backend_from_options, backend_options
from kingscrib.cli.progress import progress_for, progress_option
from kingscrib.common import jsontext
from kingscrib.players import level_names
from kingscrib.players.level_names import GENTLE_DEFAULT
from kingscrib.terminal.controllers.classic import ClassicSession
from kingscrib.terminal.controllers.reply import Reply
from kingscrib.terminal.views import classic as classic_view
from kingscrib.terminal.views.replies import render_message, render_messages

if TYPE_CHECKING:
    from rich.console import Console

    from kingscrib.classic.game import ClassicGame


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def classic() -> None:
    """Classic six-card Cribbage: play, score hands, analyse discards."""


def _read_hand(text: str, where: str) -> tuple[list[Card], Card]:
    """Four hand cards and the starter from one line; a precise error otherwise."""
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        raise user_files.InputError(f"{where}{exc}") from None
    if len(cards) != 5:
        raise user_files.InputError(
            f"{where}give 5 cards, the four of the hand then the starter (got {len(cards)})"
        )
    return cards[:4], cards[4]


@classic.command()
@click.option("--crib", is_flag=True, help="Score as a crib (a flush needs all five cards).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.argument("cards", nargs=-1, required=True)
def score(crib: bool, as_json: bool, cards: tuple[str, ...]) -> None:
    """Score a hand: four cards and the starter last, e.g. 5H 5S 5C JD 5D.

    With `-`, read one hand per line from standard input.
    """
    if cards != ("-",):
        hand, starter = _read_hand(" ".join(cards), "")
        _echo_score(score_show(hand, starter, crib=crib), as_json)
        return
    errors = 0
    # a bad line is reported on its own and the batch goes on (up to MAX_ERRORS of them)
    for n, line, why in user_files.iter_lines("-"):
        try:
            if line is None:  # it could not be read: ``why`` says why
                raise user_files.InputError(f"line {n}: {why}")
            hand, starter = _read_hand(line, f"line {n}: ")
        except user_files.InputError as exc:
            errors += 1
            if as_json:
                click.echo(json.dumps({"line": n, "error": exc.message}))
            else:
                click.echo(f"error: {exc.message}")
            if errors >= user_files.MAX_ERRORS:
                summary = user_files.too_many_errors(errors, "hands")
                click.echo(json.dumps({"error": summary}) if as_json else f"error: {summary}")
                break
            continue
        _echo_score(score_show(hand, starter, crib=crib), as_json)
    if errors:
        sys.exit(1)


def _echo_score(result: ShowScore, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        click.echo(f"{result.total}: {result.explain()}")


@classic.command()
@click.option("--json", "as_json", is_flag=True, help="Print the distribution as JSON.")
def stats(as_json: bool) -> None:
    """The exact distribution of show scores over all 12,994,800 hands with a starter."""
    result = score_stats()
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    click.echo(f"{'score':>5} {'hand':>11} {'%':>7} {'crib':>11} {'%':>7}")
    for i, (h, c) in enumerate(zip(result.hand, result.crib)):
        click.echo(
            f"{i:>5} {h:>11,} {100 * h / TOTAL_HANDS:>6.3f}% {c:>11,} {100 * c / TOTAL_HANDS:>6.3f}%"
        )
    click.echo(f"{'total':>5} {sum(result.hand):>11,} {'':>7} {sum(result.crib):>11,}")
    click.echo(f"{'mean':>5} {result.mean_hand:>11.4f} {'':>7} {result.mean_crib:>11.4f}")


def _scores(text: str | None) -> tuple[int, int]:
    """``--scores ME,THEM`` (0-120 each)."""
    if text is None:
        return 0, 0
    parts = text.replace("-", ",").split(",")
    try:
        me, them = (int(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"give the scores as ME,THEM (e.g. 95,101), not {text!r}",
                                 param_hint="--scores") from None
    if not (0 <= me <= 120 and 0 <= them <= 120):
        raise click.BadParameter("each score is from 0 to 120", param_hint="--scores")
    return me, them


@classic.command()
@click.option("--dealer", is_flag=True, help="The crib is yours (otherwise it is the opponent's).")
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
@click.option("--coach", is_flag=True,
              help="The expert's advice: likely crib, pegging and the chance to win.")
@click.option("--scores", default=None, metavar="ME,THEM",
              help="The scores before the deal, for --coach (default 0,0).")
@click.argument("six_cards", nargs=-1, required=True)
def discard(dealer: bool, as_json: bool, coach: bool, scores: str | None,
            six_cards: tuple[str, ...]) -> None:
    """Rank the 15 ways to discard two of SIX_CARDS (two-player game), best first."""
    try:
        cards = parse_cards(" ".join(six_cards))
    except ValueError as exc:
        raise user_files.InputError(str(exc)) from None
    if len(cards) != 6:
        raise user_files.InputError(f"give exactly 6 cards (got {len(cards)})")
    if scores is not None and not coach:
        raise click.BadParameter("--scores goes with --coach", param_hint="--scores")
    if coach:
        from kingscrib.players.classic.coach import coach_discard

        me, them = _scores(scores)
        advice = coach_discard(cards, i_deal=dealer, me=me, opponent=them)
        if as_json:
            click.echo(json.dumps({"dealer": dealer, "scores": [me, them], "best": advice.best,
                                   "options": advice.options}))
        else:
            click.echo("\n".join(advice.lines))
        return
    options = analyse_discards(cards, dealer=dealer)
    if as_json:
        click.echo(json.dumps({"dealer": dealer, "options": [o.to_json() for o in options]}))
        return
    crib_word = "own crib" if dealer else "their crib"
    click.echo(f"{'discard':<8} {'keep':<12} {'hand':>7} {crib_word:>10} {'total':>7}")
    for o in options:
        click.echo(
            f"{' '.join(map(str, o.discard)):<8} {' '.join(map(str, o.keep)):<12} "
            f"{o.hand:>7.3f} {o.crib:>+10.3f} {o.total:>7.3f}"
        )


AUTOSAVE_FORMAT = "kingscrib-classic-autosave/1"  # the terminal game's (classic_session)


@classic.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON array of the decisions.")
@click.option("--game", "pick", type=click.IntRange(1), default=None,
              help="Of a file of several games (JSON lines), only the N-th.")
@click.argument("record_file", metavar="RECORD")
def analyze(as_json: bool, pick: int | None, record_file: str) -> None:
    """Judge each discard and card of a two-player game record against the coach's best.

    RECORD is a classic game record file (kingscrib-game/1), the terminal game's
    autosave (its game so far), or JSON lines of records (as `classic selfplay --json`
    writes: each is judged in turn, or only the N-th with --game N); `-` reads standard
    input. Each decision with a real choice is shown beside the coach's best option,
    with the chance to win and the expected points given up.
    """
    found = user_files.documents(user_files.read_text(record_file), record_file)
    subjects = []
    for line, value in found:
        if isinstance(value, dict) and value.get("format") == AUTOSAVE_FORMAT:
            subjects.append(("the autosaved game", value.get("record")))
        else:
            subjects.append((f"line {line}", value))
    subjects = user_files.choose(subjects, pick)
    for name, data in subjects:
        if len(subjects) > 1 and not as_json:
            click.echo(f"== {name}")
        _review_classic(data, f"{name}: " if len(subjects) > 1 else "", as_json)


def _review_classic(data: object, where: str, as_json: bool) -> None:
    from kingscrib.classic.record import RecordError
    from kingscrib.cli.ai_commands import seat_label
    from kingscrib.players.classic.review import review_record

    try:
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        rows = review_record(data)
    except RecordError as e:
        raise click.ClickException(f"{where}bad game record: {e}") from None
    if as_json:
        click.echo(json.dumps([r.to_json() for r in rows]))
        return
    players = data.get("players") if isinstance(data, dict) else None
    names = [p.get("name") if isinstance(p, dict) else None
             for p in (players if isinstance(players, list) else [])]
    slips: dict[int, list[int]] = {}
    for r in rows:
        mark = ""
        if r.slip:
            mark = (f"   best: {r.best} (win {100 * r.win_best:.1f}%, {r.points_best:+.1f} pts;"
                    f" given up {100 * r.win_lost:.1f}% to win, {r.points_lost:.1f} pts)")
        tally = slips.setdefault(r.seat, [0, 0])
        tally[0] += r.slip
        tally[1] += 1
        click.echo(f"{r.turn:4} deal {r.deal:<2} {r.player:<12} {r.made:<16} "
                   f"win {100 * r.win_made:5.1f}% {r.points_made:+6.1f} pts{mark}")
    click.echo("decisions worse than the coach's best: "
               + ", ".join(f"{seat_label(names, seat)} {s} of {t}"
                           for seat, (s, t) in sorted(slips.items())))


@classic.command("train-expert")
@click.option("--games", type=click.IntRange(1), default=2000, show_default=True,
              help="Self-play games whose deals build the win-probability table.")
@click.option("--hands", type=click.IntRange(1), default=4000, show_default=True,
              help="Random hands whose discards build the crib prior.")
@click.option("--means-games", type=click.IntRange(1), default=300, show_default=True,
              help="Self-play games for a deal's average pegging and crib.")
@click.option("--peg-hands", type=click.IntRange(1), default=320, show_default=True,
              help="Opponent hands each kept hand's pegging is searched against.")
@click.option("--seed", type=int, default=1, show_default=True)
def train_expert(games: int, hands: int, means_games: int, peg_hands: int, seed: int) -> None:
    """Rebuild the expert's shipped data: the deals and win-probability table, the deals
    by phase, the crib prior, a deal's averages and the kept hands' pegging table (single
    core; about half an hour with the defaults)."""
    from kingscrib.training.expert import ExpertTraining, pegging_steps
    from kingscrib.training.expert import train_expert as train

    bar = click.progressbar(length=pegging_steps(), label="pegging of kept hands")

    def pegging(done: int, total: int) -> None:
        bar.update(1)
        if done == total:
            bar.render_finish()  # the lines after it start on a line of their own

    train(ExpertTraining(games, hands, means_games, peg_hands, seed), click.echo, pegging)


@classic.command("train-learned")
@click.option("--steps", type=click.IntRange(1), default=20_000_000, show_default=True,
              help="Self-play steps, all games of the batch together.")
@click.option("--batch", type=click.IntRange(1), default=512, show_default=True,
              help="Games stepped at once on the batched engine.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              default=Path("learned.npz"), show_default=True, help="The trained weights.")
@click.option("--checkpoints", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="A folder for the weights after every --every steps.")
@click.option("--every", type=click.IntRange(1), default=2_000_000, show_default=True)
@click.option("--eval-pairs", type=click.IntRange(0), default=0, show_default=True,
              help="At each checkpoint, mirrored pairs against random, easy and hard (the"
                   " learning curve; 0: none).")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Start from these weights instead of from scratch.")
@progress_option
def train_learned(steps: int, batch: int, seed: int, out: Path, checkpoints: Path | None,
                  every: int, eval_pairs: int, resume: Path | None,
                  show_progress: bool | None) -> None:
    """Train the ``learned`` player from scratch by self-play on the batched engine
    (docs/rl.md, "A learned player"); ship the result by copying it to
    kingscrib/players/classic/data/learned.npz."""
    from kingscrib.env.batched_cribbage import BatchedCribbage
    from kingscrib.players.classic.learned import Weights
    from kingscrib.training.learned import Progress, Settings, evaluate, train

    settings = Settings(steps=steps, batch=batch, seed=seed)
    env = BatchedCribbage(batch, seed=seed)
    if checkpoints is not None:
        checkpoints.mkdir(parents=True, exist_ok=True)
    with progress_for(show_progress, transient=False) as progress:
        task = progress.add_task("self-play (thousand steps)", total=steps // 1000)
        seen = [0]

        def report(p: Progress) -> None:
            progress.advance(task, p.steps // 1000 - seen[0])
            seen[0] = p.steps // 1000

        def checkpoint(done: int, weights: Weights) -> None:
            if checkpoints is not None:
                weights.save(checkpoints / f"step{done:010d}.npz")
            if eval_pairs:
                rates = {o: evaluate(weights, o, eval_pairs) for o in ("random", "easy", "hard")}
                click.echo(f"{done} steps: " + ", ".join(
                    f"v {o} {r:.1%}" for o, r in rates.items()), err=True)

        weights = train(env, settings, Weights.load(resume) if resume else None, report,
                        checkpoint, every)
    weights.save(out)
    click.echo(f"weights written to {out}")


# ------------------------------------------------------------------ self-play


def _check_players(*names: str, players: int = 2) -> None:
    from kingscrib.players.classic import PLAYER_NAMES, TWO_PLAYER_NAMES

    known = PLAYER_NAMES + TWO_PLAYER_NAMES
    for n in names:
        if n not in known:
            raise click.BadParameter(f"unknown player {n!r}; choose from {', '.join(known)}")
        if n in TWO_PLAYER_NAMES and players != 2:
            raise click.BadParameter(f"{n!r} plays the two-player game only")


@classic.command()
@click.option("--json", "as_json", is_flag=True, help="One game record (JSON) per line.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--games", type=click.IntRange(1), default=1, show_default=True)
@click.option("--a", "a", default="expert", show_default=True, help="Player A (even seats).")
@click.option("--b", "b", default="expert", show_default=True, help="Player B (the others).")
@progress_option
def selfplay(as_json: bool, seed: int, players: int, games: int, a: str, b: str,
             show_progress: bool | None) -> None:
    """Computer against computer; game i uses seed SEED+i (same seed, same game)."""
    from kingscrib.arena.cribbage import run_game, seating

    _check_players(a, b, players=players)
    with progress_for(False if games < 2 else show_progress) as progress:
        task = progress.add_task("self-play", total=games)
        for i in range(games):
            _selfplay_one(run_game(seating(a, b, players, False), players, seed + i),
                          seed + i, as_json)
            progress.advance(task)


def _selfplay_one(game: ClassicGame, seed: int, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(game.record()))
        return
    scores = " ".join(str(s) for s in game.scores)
    winner = "nobody" if game.winner is None else game.side_name(game.winner)
    click.echo(f"seed {seed}: {winner} wins ({scores}) in {len(game.deals)} deals")


@classic.command()
@click.option("--a", "a", required=True, help="Player A (e.g. expert).")
@click.option("--b", "b", required=True, help="Player B (e.g. baseline).")
@click.option("--pairs", type=click.IntRange(1), required=True, help="Mirrored pairs of games.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--workers", type=click.IntRange(1), default=None, help="Processes (all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@progress_option
@backend_options
def tournament(
    a: str, b: str, pairs: int, seed: int, players: int, workers: int | None, as_json: bool,
    show_progress: bool | None, backend: str, address: str | None,
) -> None:
    """A against B over mirrored pairs: same deck order, seats swapped."""
    from kingscrib.arena.cribbage import match

    _check_players(a, b, players=players)
    chosen = backend_from_options(backend, address, workers)
    with progress_for(show_progress, transient=as_json) as progress:
        summary = match(a, b, pairs, seed, players, chosen, progress)
    if as_json:
        click.echo(json.dumps(summary))
        return
    low, high = summary["ci95"]
    click.echo(
        f"{a} v {b}: {summary['a_wins']}-{summary['b_wins']} in {summary['games']} games,"
        f" {a} wins {100 * summary['a_win_rate']:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%),"
        f" mean spread {summary['mean_spread']:+}, first dealer wins"
        f" {100 * summary['first_player_win_rate']:.1f}%"
    )


# ------------------------------------------------------------- terminal game

AUTOSAVE_NAME = "classic-autosave.json"


def autosave_path() -> Path:
    """Where the terminal game keeps the game in progress."""
    from kingscrib.common.paths import data_dir

    return data_dir() / AUTOSAVE_NAME


def _save(session: ClassicSession) -> None:
    from kingscrib.common.paths import write_atomically

    write_atomically(autosave_path(), json.dumps(session.snapshot()))


def _keep_aside(prefix: str) -> Path | None:
    """Move the autosave to the games folder (it is never just overwritten or deleted)."""
    from kingscrib.terminal.storage import free_path

    path = autosave_path()
    if not path.exists():
        return None
    target = free_path(prefix + time.strftime("%Y%m%d-%H%M%S"))
    path.replace(target)
    return target


def after_reply(session: ClassicSession, reply: Reply) -> list[str]:
    """Save what a reply asks (both front ends call this after every reply)."""
    from kingscrib.terminal.storage import save_record

    notes = [f"Game record saved to {save_record(r, 'classic-')}" for r in reply.finished]
    if session.game.phase == "over":
        autosave_path().unlink(missing_ok=True)
    elif reply.changed or reply.save or reply.quit:
        _save(session)
        if reply.save:
            notes.append(f"Saved to {autosave_path()}; the game is saved after every action too.")
    return notes


def _read_saved() -> tuple[ClassicSession | None, str | None]:
    """The saved game, or (None, why it cannot be resumed); (None, None) when there is none."""
    path = autosave_path()
    if not path.exists():
        return None, None
    try:
        data = jsontext.loads(path.read_bytes())
        return ClassicSession.from_snapshot(data), None
    except (OSError, ValueError) as exc:  # ValueError: jsontext or the snapshot say why
        return None, f"the saved game {path} cannot be resumed: {exc}"


def _run_lines(session: ClassicSession, console: Console) -> None:
    """Line mode: print, read a line, hand it to the session; saved after every action."""
    from kingscrib.cli.play import clear_with_scrollback
    from kingscrib.terminal.controllers.kings import HANDOVER, MOVE, OVER, THINKING

    shown: tuple[object, ...] | None = None
    while session.state != OVER:
        state = session.state
        if state == THINKING:
            reply = session.computer_turn()
            _print_reply(console, session, reply)
            continue
        if state == HANDOVER and console.is_terminal:
            clear_with_scrollback(console)
        if state == MOVE:
            g = session.game
            where = (g.phase, len(g.deals), g.to_act)
            if where != shown:
                shown = where
                if g.phase == "discard":
                    console.rule(f"Deal {len(g.deals)}")
                    console.print(render_message(session.peg_board()))
                console.print(classic_view.table_view(session))
                console.print(classic_view.hand_text(session))
        try:
            line = click.prompt(session.prompt(), default="", show_default=False)
        except click.Abort:
            after_reply(session, Reply(quit=True))
            console.print(f"\nSaved. Resume with: kingscrib classic play --resume"
                          f" ({autosave_path()})")
            return
        reply = session.handle(line)
        if _print_reply(console, session, reply):
            return


def _print_reply(console: Console, session: ClassicSession, reply: Reply) -> bool:
    for message in render_messages(reply):
        console.print(message)
    for note in after_reply(session, reply):
        console.print(note, style="dim")
    if reply.quit:
        console.print(f"Saved. Resume with: kingscrib classic play --resume ({autosave_path()})")
        return True
    return False


# the levels the terminal offers ("learned": two players only)
TERMINAL_LEVELS = ("easy", "medium", "hard", "expert", "learned")


def _classic_level(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    level = level_names.resolve("cribbage", value)
    if level not in TERMINAL_LEVELS:
        choices = level_names.choices_text("cribbage", TERMINAL_LEVELS)
        raise click.BadParameter(f"unknown level {value!r}; choose from {choices}")
    return level


@classic.command(epilog=level_names.help_table("cribbage", TERMINAL_LEVELS))
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--humans", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Human seats (hot-seat); the others are the computer.")
@click.option("--level", default=GENTLE_DEFAULT, callback=_classic_level, metavar="LEVEL",
              help="The computer's level, a title or its short name (default:"
                   f" {level_names.title('cribbage', GENTLE_DEFAULT)}, a gentle first"
                   " opponent). The levels are listed below.")
@click.option("--muggins", is_flag=True, help="Count your own hands; the computer takes what you miss.")
@click.option("--skunk", is_flag=True, help="Score skunks (double and triple games).")
@click.option("--seed", type=int, default=None, help="Seed of the deal (random by default).")
@click.option("--name", default="you", show_default=True, help="Your name.")
@click.option("--resume", is_flag=True, help="Resume the autosaved game.")
@click.option("--new", "force_new", is_flag=True, help="Start a new game even though one is"
              " saved (the saved one is kept in the games folder).")
@click.option("--line", "line_mode", is_flag=True, help="Play line by line instead of full"
              " screen (the default when the input or output is not a terminal).")
def play(players: int, humans: int, level: str, muggins: bool, skunk: bool,
         seed: int | None, name: str, resume: bool, force_new: bool, line_mode: bool) -> None:
    """Play classic Cribbage in the terminal against the computer (or hot-seat).

    \b
    Name cards as cards (5H JD or 5♥ J♦), by rank alone when your hand holds
    one of that rank (5 J), or by place in your hand (#1 #2); a number that
    could be a rank or a place is asked about. Also: hint, help, save, quit.
    The game is saved after every action; continue with --resume.
    """
    from rich.console import Console

    from kingscrib.cli.play import full_screen_possible, go_on_after_moving_aside

    console = Console(highlight=False)
    if resume and force_new:
        raise click.UsageError("--resume and --new do not go together")
    saved, problem = _read_saved()
    if resume:
        if problem:
            raise click.ClickException(problem)
        if saved is None:
            raise click.ClickException(f"no saved game to resume ({autosave_path()} does not"
                                       " exist)")
        session = saved
    else:
        if problem:
            kept = _keep_aside("unreadable-classic-")
            if not go_on_after_moving_aside(console, problem, kept, line_mode,
                                            "kingscrib classic play"):
                return
        elif saved is not None and not force_new:
            g = saved.game
            score = ", ".join(f"{g.side_name(s)} {p}" for s, p in enumerate(g.scores))
            console.print(f"An unfinished classic game is saved (deal {len(g.deals)}: {score}).")
            choice = click.prompt("Resume it (r), start a new game (n; the old one is kept)"
                                  " or quit (q)?", type=click.Choice(["r", "n", "q"]),
                                  default="r")
            if choice == "q":
                return
            if choice == "r":
                resume = True
            else:
                force_new = True
        if resume:
            session = saved  # type: ignore[assignment]
        else:
            if force_new and saved is not None:
                kept = _keep_aside("unfinished-classic-")
                console.print(f"[dim]The unfinished game was kept as {kept}.[/]")
            try:
                session = ClassicSession.new(players, humans, level, muggins, skunk, seed, name)
            except ValueError as exc:
                raise click.BadParameter(str(exc)) from None
    _save(session)
    if not line_mode and full_screen_possible():
        from kingscrib.terminal.classic_app import ClassicApp

        ClassicApp(session, lambda reply: after_reply(session, reply)).run()
        if session.game.phase != "over":
            _save(session)
            console.print(f"Saved. Resume with: kingscrib classic play --resume"
                          f" ({autosave_path()})")
        else:
            for line in session.result_lines():
                console.print(render_message(line))
        return
    for message in render_messages(session.intro()):
        console.print(message)
    _run_lines(session, console)
