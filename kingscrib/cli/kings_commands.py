"""Kings Cribbage sub-commands of ``kingscrib``: score, moves, selfplay, replay."""

from __future__ import annotations

import click

COMMANDS: list[click.Command] = []
