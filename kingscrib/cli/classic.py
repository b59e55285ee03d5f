"""``kingscrib classic``: classic Cribbage from the command line.

Sub-commands: ``play`` (terminal game), ``score``, ``stats``, ``discard`` (with
``--coach``), ``selfplay``, ``tournament`` and ``train-expert``. The rules live in :mod:`kingscrib.classic`;
this module only reads input and shows results.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kingscrib.backends import backend_from_options, backend_options, run_jobs
from kingscrib.classic.cards import Card, parse_cards
from kingscrib.classic.discard import analyse_discards
from kingscrib.classic.show import score_show
from kingscrib.classic.stats import TOTAL_HANDS, score_stats

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from kingscrib.classic.game import ClassicGame, PlayerView


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def classic() -> None:
    """Classic six-card Cribbage: play, score hands, analyse discards."""


def _read_hand(text: str, where: str) -> tuple[list[Card], Card]:
    """Four hand cards and the starter from one line; a precise error otherwise."""
    try:
        cards = parse_cards(text)
    except ValueError as exc:
        raise click.BadParameter(f"{where}{exc}") from None
    if len(cards) != 5:
        raise click.BadParameter(
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
    if cards == ("-",):
        lines = [(i + 1, line) for i, line in enumerate(sys.stdin.read().splitlines())]
        jobs = [(n, line) for n, line in lines if line.strip()]
        if not jobs:
            raise click.BadParameter("no hand on standard input")
        hands = [_read_hand(line, f"line {n}: ") for n, line in jobs]
    else:
        hands = [_read_hand(" ".join(cards), "")]
    for hand, starter in hands:
        result = score_show(hand, starter, crib=crib)
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
        raise click.BadParameter(str(exc)) from None
    if len(cards) != 6:
        raise click.BadParameter(f"give exactly 6 cards (got {len(cards)})")
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


@classic.command("train-expert")
@click.option("--games", type=click.IntRange(1), default=2000, show_default=True,
              help="Self-play games whose deals build the win-probability table.")
@click.option("--hands", type=click.IntRange(1), default=4000, show_default=True,
              help="Random hands whose discards build the crib prior.")
@click.option("--means-games", type=click.IntRange(1), default=300, show_default=True,
              help="Self-play games for a deal's average pegging and crib.")
@click.option("--seed", type=int, default=1, show_default=True)
def train_expert(games: int, hands: int, means_games: int, seed: int) -> None:
    """Rebuild the expert's shipped data: the deals and win-probability table, the crib
    prior and a deal's averages (single core; about ten minutes with the defaults)."""
    from kingscrib.players.classic import crib_model, winprob

    command = (f"kingscrib classic train-expert --games {games} --hands {hands} "
               f"--means-games {means_games} --seed {seed}")
    deals, table = winprob.train(games, seed)
    winprob.save(deals, table, command)
    click.echo(f"{len(deals)} deals -> {winprob.TABLE_FILE}")
    prior = crib_model.train_prior(hands, seed)
    means = crib_model.train_means(means_games, seed)
    crib_model.save_prior(prior, means, command)
    click.echo(f"crib prior and means {means} -> {crib_model.PRIOR_FILE}")


# ------------------------------------------------------------------ self-play


def _a_seats(players: int, swapped: bool) -> list[int]:
    """Seats of player A: the even seats (partners in the four-player game), the odd
    ones when swapped; with three players A has one seat (0, or 1 when swapped)."""
    if players == 3:
        return [1 if swapped else 0]
    return [s for s in range(players) if (s % 2 == 0) != swapped]


def _seating(a: str, b: str, players: int, swapped: bool) -> list[str]:
    """Names by seat."""
    seats = _a_seats(players, swapped)
    return [a if s in seats else b for s in range(players)]


def _run_game(names: list[str], players: int, seed: int) -> ClassicGame:
    from kingscrib.classic.rules import RuleSet
    from kingscrib.players.classic import make_player, play_game

    seats = [make_player(n, seed * 10 + i) for i, n in enumerate(names)]
    return play_game(RuleSet(players=players), seed=seed, players=seats)


def _check_players(*names: str) -> None:
    from kingscrib.players.classic import PLAYER_NAMES

    for n in names:
        if n not in PLAYER_NAMES:
            raise click.BadParameter(f"unknown player {n!r}; choose from {', '.join(PLAYER_NAMES)}")


@classic.command()
@click.option("--json", "as_json", is_flag=True, help="One game record (JSON) per line.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--games", type=click.IntRange(1), default=1, show_default=True)
@click.option("--a", "a", default="expert", show_default=True, help="Player A (even seats).")
@click.option("--b", "b", default="expert", show_default=True, help="Player B (the others).")
def selfplay(as_json: bool, seed: int, players: int, games: int, a: str, b: str) -> None:
    """Computer against computer; game i uses seed SEED+i (same seed, same game)."""
    _check_players(a, b)
    for i in range(games):
        game = _run_game(_seating(a, b, players, False), players, seed + i)
        if as_json:
            click.echo(json.dumps(game.record()))
        else:
            scores = " ".join(str(s) for s in game.scores)
            click.echo(
                f"seed {seed + i}: {game.side_name(game.winner)} wins "  # type: ignore[arg-type]
                f"({scores}) in {len(game.deals)} deals"
            )


def _play_pair(job: tuple[str, str, int, int]) -> list[tuple[bool, int, bool]]:
    """Two games on one seed with the seats swapped: (a won, a's spread, first dealer won)."""
    a, b, players, seed = job
    out = []
    for swapped in (False, True):
        names = _seating(a, b, players, swapped)
        game = _run_game(names, players, seed)
        rules = game.rules
        a_sides = {rules.side_of(s) for s in _a_seats(players, swapped)}
        a_best = max(game.scores[s] for s in a_sides)
        b_best = max(game.scores[s] for s in range(rules.sides) if s not in a_sides)
        won = game.winner in a_sides
        first = rules.side_of(game.first_dealer) == game.winner
        out.append((won, a_best - b_best, first))
    return out


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@classic.command()
@click.option("--a", "a", required=True, help="Player A (e.g. expert).")
@click.option("--b", "b", required=True, help="Player B (e.g. baseline).")
@click.option("--pairs", type=click.IntRange(1), required=True, help="Mirrored pairs of games.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--workers", type=click.IntRange(1), default=None, help="Processes (all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@backend_options
def tournament(
    a: str, b: str, pairs: int, seed: int, players: int, workers: int | None, as_json: bool,
    backend: str, address: str | None,
) -> None:
    """A against B over mirrored pairs: same deck order, seats swapped."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    _check_players(a, b)
    chosen = backend_from_options(backend, address, workers)
    jobs = [(a, b, players, seed + i) for i in range(pairs)]
    results: list[tuple[bool, int, bool]] = []
    console = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=as_json,
    ) as progress:
        for pair in run_jobs(_play_pair, jobs, chosen, progress, f"{a} v {b} (pairs)"):
            results.extend(pair)
    games = len(results)
    a_wins = sum(1 for w, _, _ in results if w)
    b_wins = games - a_wins
    draws = 0
    rate = (a_wins + draws / 2) / games
    low, high = wilson(a_wins + draws / 2, games)
    summary = {
        "a": a,
        "b": b,
        "players": players,
        "games": games,
        "a_wins": a_wins,
        "b_wins": b_wins,
        "draws": draws,
        "a_win_rate": round(rate, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "mean_spread": round(sum(s for _, s, _ in results) / games, 2),
        "first_player_win_rate": round(sum(1 for _, _, f in results if f) / games, 4),
        "seed": seed,
    }
    if as_json:
        click.echo(json.dumps(summary))
        return
    click.echo(
        f"{a} v {b}: {a_wins}-{b_wins} in {games} games, {a} wins {100 * rate:.1f}% "
        f"(95% CI {100 * low:.1f}-{100 * high:.1f}%), mean spread {summary['mean_spread']:+}, "
        f"first dealer wins {100 * summary['first_player_win_rate']:.1f}%"
    )


# ------------------------------------------------------------- terminal game

AUTOSAVE_NAME = "classic-autosave.json"


def autosave_path() -> Path:
    """Where the terminal game keeps the game in progress."""
    from kingscrib.paths import data_dir

    return data_dir() / AUTOSAVE_NAME


def _possessive(name: str) -> str:
    return "your" if name == "you" else f"{name}'s"


def _card_text(card: Card) -> Text:
    from rich.text import Text

    return Text(card.pretty(), style="bold red" if card.is_red else "bold")


def _cards_text(cards: Sequence[Card], numbered: bool = False) -> Text:
    from rich.text import Text

    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append("  ")
        if numbered:
            out.append(f"{i + 1}:", style="dim")
        out.append_text(_card_text(c))
    return out


class TerminalGame:
    """The terminal front end: shows the game, asks humans, lets computers move."""

    def __init__(
        self, game: ClassicGame, humans: list[int], level: str, console: Console
    ) -> None:
        from kingscrib.players.classic import make_player

        self.game = game
        self.humans = humans
        self.level = level
        self.console = console
        self.computers = {
            s: make_player(level, game.seed * 10 + s)
            for s in range(game.rules.players)
            if s not in humans
        }
        self.seen = 0

    # -- display
    def board(self) -> None:
        from rich.text import Text

        g = self.game
        for side, score in enumerate(g.scores):
            filled = score * 40 // 121
            line = Text(f"{g.side_name(side):>22} ")
            line.append("■" * filled, style="green")
            line.append("·" * (40 - filled), style="dim")
            line.append(f" {score:>3}/121")
            self.console.print(line)

    def show_events(self) -> None:
        g = self.game
        for e in g.events[self.seen:]:
            who = g.names[e.seat]
            if e.kind == "go-said":
                self.console.print(f"  {who}: go")
            elif e.kind == "starter":
                self.console.print("  Starter: ", _cards_text(e.cards))
            elif e.kind == "peg":
                self.console.print(f"  {who}: ", _cards_text(e.cards), f"  {e.text}")
            elif e.kind == "show":
                label, _, words = e.text.partition(": ")
                self.console.print(
                    f"  {_possessive(who)} {label}: ", _cards_text(e.cards),
                    f"  {e.points}: {words}",
                )
            elif e.kind == "win":
                self.console.print(f"[bold green]{e.text}![/]")
            else:
                pts = f" (+{e.points})" if e.points else ""
                self.console.print(f"  {who}: {e.text}{pts}")
        self.seen = len(g.events)

    # -- saving
    def save(self) -> None:
        from kingscrib.paths import write_atomically

        data = {"record": self.game.record(), "humans": self.humans, "level": self.level}
        write_atomically(autosave_path(), json.dumps(data))

    # -- loop
    def run(self) -> None:
        g = self.game
        self.save()
        while g.phase != "over":
            self.show_events()
            seat = g.to_act
            assert seat is not None
            if seat in self.computers:
                g.apply(self.computers[seat].choose(g.view(seat)))
                continue
            self.human_turn(seat)
            self.save()
        self.show_events()
        self.board()
        end = g.record()["end"]
        if g.rules.skunk and end["game_points"] > 1:
            self.console.print(f"A {'double ' if end['game_points'] == 3 else ''}skunk!")
        autosave_path().unlink(missing_ok=True)

    def human_turn(self, seat: int) -> None:
        from kingscrib.classic.game import Claim, Discard, IllegalAction, Play

        g = self.game
        view = g.view(seat)
        name = g.names[seat]
        if g.phase == "discard":
            dealer = g.names[g.dealer]
            self.console.rule(f"Deal: {dealer} {'deal' if dealer == 'you' else 'deals'}")
            self.board()
            n = g.rules.discards
            whose = "your" if view.is_dealer or g.rules.side_of(g.dealer) == view.side else "their"
            self.console.print(f"{name}, hand: ", _cards_text(sorted(view.hand), True))
            prompt = f"{name}: lay away {n} card(s) to {whose} crib (numbers or cards, h = hint)"
            while True:
                answer = click.prompt(prompt).strip()
                if answer.lower() in ("h", "hint"):
                    self.hint(view)
                    continue
                try:
                    cards = self.read_cards(answer, sorted(view.hand))
                    g.apply(Discard(tuple(cards)))
                    return
                except (ValueError, IllegalAction) as exc:
                    self.console.print(f"[red]{exc}[/]")
        if g.phase == "play":
            self.console.print(
                f"Count {g.count}: ", _cards_text(g.pile), "   hand: ",
                _cards_text(sorted(view.hand), True),
            )
            while True:
                answer = click.prompt(f"{name}: your card").strip()
                try:
                    cards = self.read_cards(answer, sorted(view.hand))
                    if len(cards) != 1:
                        raise ValueError("lay one card")
                    g.apply(Play(cards[0]))
                    return
                except (ValueError, IllegalAction) as exc:
                    self.console.print(f"[red]{exc}[/]")
        if g.phase == "show":
            item = g.show_item
            assert item is not None and g.starter is not None
            self.console.print(
                f"{name}, count your {item.kind}: ", _cards_text(item.cards), "  starter ",
                _card_text(g.starter),
            )
            while True:
                answer = click.prompt("Points", type=str).strip()
                try:
                    g.apply(Claim(int(answer)))
                    return
                except ValueError as exc:
                    msg = str(exc) if "claim" in str(exc) else f"{answer!r} is not a number"
                    self.console.print(f"[red]{msg}[/]")

    def hint(self, view: PlayerView) -> None:
        from kingscrib.classic.discard import analyse_discards
        from kingscrib.players.classic.levels import owns_crib

        for o in analyse_discards(list(view.hand), owns_crib(view), view.rules.discards)[:3]:
            self.console.print(
                "  lay away ", _cards_text(o.discard), f": hand {o.hand:.2f}, crib {o.crib:+.2f}"
            )

    @staticmethod
    def read_cards(answer: str, hand: list[Card]) -> list[Card]:
        """Cards by number in the hand shown (1-based) or by name (5H, 10D)."""
        cards = []
        for token in answer.replace(",", " ").split():
            if token.isdigit() and token not in ("10",):
                i = int(token)
                if not 1 <= i <= len(hand):
                    raise ValueError(f"there is no card number {i} (1 to {len(hand)})")
                cards.append(hand[i - 1])
            else:
                cards.append(Card.parse(token))
        if not cards:
            raise ValueError("name at least one card")
        return cards


@classic.command()
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--humans", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Human seats (hot-seat); the others are the computer.")
@click.option("--level", type=click.Choice(["easy", "medium", "hard", "expert"]),
              default="expert", show_default=True)
@click.option("--muggins", is_flag=True, help="Count your own hands; the computer takes what you miss.")
@click.option("--skunk", is_flag=True, help="Score skunks (double and triple games).")
@click.option("--seed", type=int, default=None, help="Seed of the deal (random by default).")
@click.option("--name", default="you", show_default=True, help="Your name.")
@click.option("--resume", is_flag=True, help="Resume the autosaved game.")
def play(players: int, humans: int, level: str, muggins: bool, skunk: bool,
         seed: int | None, name: str, resume: bool) -> None:
    """Play classic Cribbage in the terminal against the computer (or hot-seat)."""
    import random

    from rich.console import Console

    from kingscrib.classic.game import ClassicGame
    from kingscrib.classic.record import RecordError, replay
    from kingscrib.classic.rules import RuleSet

    console = Console(highlight=False)
    if resume:
        path = autosave_path()
        if not path.exists():
            raise click.ClickException(f"no saved game to resume ({path} does not exist)")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            game = replay(data["record"])
            humans_list = [int(h) for h in data["humans"]]
            level = data.get("level", level)
        except (RecordError, ValueError, KeyError, TypeError) as exc:
            raise click.ClickException(f"the saved game {path} cannot be resumed: {exc}") from None
        console.print(f"Resuming the game of seed {game.seed}.")
        skip_events = len(game.events)
    else:
        if humans > players:
            raise click.BadParameter(f"{humans} humans do not fit in a {players}-player game")
        rules = RuleSet(players=players, muggins=muggins, skunk=skunk)
        humans_list = list(range(humans))
        names = [name if humans == 1 else f"{name} {i + 1}" for i in humans_list]
        names += [f"computer {i + 1}" if players - humans > 1 else "computer"
                  for i in range(players - humans)]
        game = ClassicGame(rules, seed=seed if seed is not None else random.randrange(10**9),
                           names=names)
        cut = ", ".join(f"{n} {c}" for n, c in zip(names, game.cuts[-1]))
        console.print(f"Cut for deal: {cut}. {names[game.first_dealer]} deal(s) first.")
        skip_events = 0
    front = TerminalGame(game, humans_list, level, console)
    front.seen = skip_events
    try:
        front.run()
    except click.Abort:
        front.save()
        console.print(f"\nSaved. Resume with: kingscrib classic play --resume ({autosave_path()})")
