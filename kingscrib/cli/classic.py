"""``kingscrib classic``: classic Cribbage from the command line.

Sub-commands: ``play`` (terminal game), ``score``, ``stats``, ``discard``,
``selfplay`` and ``tournament``. The rules live in :mod:`kingscrib.classic`;
this module only reads input and shows results.
"""

from __future__ import annotations

import json
import sys

import click

from kingscrib.classic.cards import parse_cards
from kingscrib.classic.discard import analyse_discards
from kingscrib.classic.show import score_show
from kingscrib.classic.stats import TOTAL_HANDS, score_stats


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def classic() -> None:
    """Classic six-card Cribbage: play, score hands, analyse discards."""


def _read_hand(text: str, where: str) -> tuple[list, object]:
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
        result = score_show(hand, starter, crib=crib)  # type: ignore[arg-type]
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


@classic.command()
@click.option("--dealer", is_flag=True, help="The crib is yours (otherwise it is the opponent's).")
@click.option("--json", "as_json", is_flag=True, help="Print the options as JSON.")
@click.argument("six_cards", nargs=-1, required=True)
def discard(dealer: bool, as_json: bool, six_cards: tuple[str, ...]) -> None:
    """Rank the 15 ways to discard two of SIX_CARDS (two-player game), best first."""
    try:
        cards = parse_cards(" ".join(six_cards))
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if len(cards) != 6:
        raise click.BadParameter(f"give exactly 6 cards (got {len(cards)})")
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
