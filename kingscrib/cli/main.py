"""The ``kingscrib`` command: one click group, each sub-command in its own module.

Sub-commands are imported only when used, so `kingscrib classic ...` never
loads the Kings Cribbage engine and every command starts quickly.
"""

from __future__ import annotations

import importlib

import click

from kingscrib import __version__

# command name -> "module:attribute" of its click command
COMMANDS = {
    "play": "kingscrib.cli.play:play",
    "learn": "kingscrib.cli.learn:learn",
    "rules": "kingscrib.cli.learn:rules",
    "score": "kingscrib.cli.kings_commands:score",
    "moves": "kingscrib.cli.kings_commands:moves",
    "selfplay": "kingscrib.cli.kings_commands:selfplay",
    "replay": "kingscrib.cli.kings_commands:replay",
    "tournament": "kingscrib.cli.ai_commands:tournament",
    "arena": "kingscrib.cli.arena_command:arena",
    "analyze": "kingscrib.cli.ai_commands:analyze",
    "train-leaves": "kingscrib.cli.ai_commands:train_leaves",
    "classic": "kingscrib.cli.classic:classic",
    "puzzles": "kingscrib.cli.puzzle_commands:puzzles",
    "puzzle": "kingscrib.cli.puzzle_commands:puzzle",
    "serve": "kingscrib.cli.web_commands:serve",
    "db": "kingscrib.cli.web_commands:db",
    "moderator": "kingscrib.cli.moderator_commands:moderator",
}


class LazyGroup(click.Group):
    """A group whose sub-commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module, attribute = COMMANDS[name].split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kingscrib")
def cli() -> None:
    """Kings Cribbage (and classic Cribbage): play, score, analyse.

    Start a game in the terminal with `kingscrib play`; learn the game first with
    `kingscrib learn`.
    """


def _register() -> None:
    """Load every sub-command now (for tools that walk ``cli.commands``)."""
    for name in COMMANDS:
        cli.get_command(click.Context(cli), name)


def main() -> None:
    cli()


if __name__ == "__main__":
    main()
