"""``kingscrib arena``: rate every agent of a game over mirrored pairs (Bradley-Terry)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kingscrib.cli.backend_options import backend_from_options, backend_options
from kingscrib.cli.progress import progress_for, progress_option
from kingscrib.common.backends import use_backend


@click.command()
@click.option("--game", type=click.Choice(["kings", "cribbage"]), default="cribbage",
              show_default=True)
@click.option("--agents", "agents_field", metavar="A,B,...",
              help="The agents to rate: registered names (--list) or module:Class"
                   " (default: the game's quick agents).")
@click.option("--pairs", type=click.IntRange(1), default=20, show_default=True,
              help="Mirrored pairs per match (every couple of agents), on the same seeds.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Pair k of every match plays seed SEED + k.")
@click.option("--anchor", default=None, help="The agent rated 0 (default: the mean is 0).")
@click.option("--samples", type=click.IntRange(0), default=200, show_default=True,
              help="Bootstrap fits over the pairs for the 95% intervals.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the markdown table to this file.")
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Processes (default: all cores).")
@click.option("--list", "list_agents", is_flag=True, help="List the game's agents and stop.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@progress_option
@backend_options
def arena(game: str, agents_field: str | None, pairs: int, seed: int, anchor: str | None,
          samples: int, out: Path | None, workers: int | None, list_agents: bool,
          as_json: bool, show_progress: bool | None, backend: str, address: str | None) -> None:
    """Rate agents of a game against each other: every couple plays PAIRS mirrored pairs
    (one seed, seats swapped) on fixed seeds, and a Bradley-Terry fit (Elo scale, 95%
    intervals by a bootstrap over the pairs) ranks them. Prints a markdown table."""
    from kingscrib.arena.agents import AGENTS, DEFAULT, UnknownAgent, spec_of
    from kingscrib.arena.league import run_arena, table, to_json

    if list_agents:
        for name, spec in AGENTS[game].items():
            click.echo(f"{name:14} {spec}")
        return
    names = ([a.strip() for a in agents_field.split(",") if a.strip()] if agents_field
             else list(DEFAULT[game]))
    try:
        for name in names:
            spec_of(game, name)
    except UnknownAgent as e:
        raise click.BadParameter(str(e), param_hint="--agents") from None
    chosen = backend_from_options(backend, address, workers)
    try:
        with progress_for(show_progress, transient=False) as progress, use_backend(chosen):
            result = run_arena(game, names, pairs, seed, chosen, progress, samples, anchor)
    except (UnknownAgent, ValueError) as e:
        raise click.UsageError(str(e)) from None
    text = table(result)
    if out is not None:
        out.write_text(text, encoding="utf-8")
    if as_json:
        click.echo(json.dumps(to_json(result)))
        return
    click.echo(f"{game}: {len(names)} agents, {pairs} mirrored pairs a match"
               f" (seeds {seed}-{seed + pairs - 1}), {result.seconds:.0f} s\n")
    click.echo(text, nl=False)
