"""The ``kingscrib`` command: one click group, each sub-command in its own module."""

from __future__ import annotations

import click

from kingscrib import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kingscrib")
def cli() -> None:
    """Kings Cribbage (and classic Cribbage): play, score, analyse.

    Start a game in the terminal with `kingscrib play`.
    """


def _register() -> None:
    # Imported here so that each front end stays in its own module.
    from kingscrib.cli import kings_commands

    for command in kings_commands.COMMANDS:
        cli.add_command(command)
    from kingscrib.cli import ai_commands

    for command in ai_commands.COMMANDS:
        cli.add_command(command)
    from kingscrib.cli.classic import classic

    cli.add_command(classic)
    from kingscrib.cli.play import play

    cli.add_command(play)
    from kingscrib.cli import web_commands

    for command in web_commands.COMMANDS:
        cli.add_command(command)


def main() -> None:
    _register()
    cli()


if __name__ == "__main__":
    main()
