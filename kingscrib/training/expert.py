"""Rebuilding every table the classic expert loads (``kingscrib classic train-expert``).

In order: the keep ratios (the pegging table draws opponent hands by them), the pegging
table of kept hands, the self-play deals and the win-probability table, the same deals
by phase (the endgame), and the crib prior with a deal's means. Each file records the
command that built it. Single core; about half an hour with the defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kingscrib.players.classic import crib_model as shipped_crib
from kingscrib.players.classic import pegtable as shipped_pegging
from kingscrib.players.classic import reader
from kingscrib.players.classic import winprob as shipped_winprob
from kingscrib.training import crib_model, keep_ratios, pegtable, winprob


@dataclass(frozen=True)
class ExpertTraining:
    """How much self-play builds each table (the command's options)."""

    games: int = 2000  # self-play games whose deals build the win-probability table
    hands: int = 4000  # random hands whose discards build the crib prior
    means_games: int = 300  # self-play games for a deal's average pegging and crib
    peg_hands: int = 320  # opponent hands each kept hand's pegging is searched against
    seed: int = 1

    @property
    def command(self) -> str:
        return (f"kingscrib classic train-expert --games {self.games} --hands {self.hands} "
                f"--means-games {self.means_games} --peg-hands {self.peg_hands}"
                f" --seed {self.seed}")


def pegging_steps() -> int:
    """How many steps :func:`train_expert` reports to ``pegging_progress``."""
    return 2 * len(reader.kept_hands())


def train_expert(options: ExpertTraining, report: Callable[[str], None] = print,
                 pegging_progress: Callable[[int, int], None] | None = None) -> None:
    """Rebuild the expert's shipped tables in place; ``report`` hears one line per file
    written, ``pegging_progress(done, total)`` of each kept hand's pegging searched."""
    command, seed = options.command, options.seed
    keep_ratios.save_keep_ratios(command)
    reader.keep_ratios.cache_clear()  # the pegging table below reads the new ratios
    report(f"keep ratios -> {reader.RATIOS_FILE}")
    pegging = pegtable.build(options.peg_hands, seed, progress=pegging_progress)
    pegtable.save(pegging, command)
    report(f"pegging table -> {shipped_pegging.TABLE_FILE}")
    deals, table = winprob.train(options.games, seed)
    winprob.save(deals, table, command)
    report(f"{len(deals)} deals -> {shipped_winprob.TABLE_FILE}")
    phases = winprob.sample_phases(options.games, seed)  # the same games, by phase
    winprob.save_phases(phases, command)
    report(f"{len(phases)} deals by phase -> {shipped_winprob.PHASES_FILE}")
    prior = crib_model.train_prior(options.hands, seed)
    means = crib_model.train_means(options.means_games, seed)
    crib_model.save_prior(prior, means, command)
    report(f"crib prior and means {means} -> {shipped_crib.PRIOR_FILE}")


__all__ = ["ExpertTraining", "pegging_steps", "train_expert"]
