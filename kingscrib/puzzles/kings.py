"""Kings Cribbage puzzles: find the best play of a position, by the engine's equity.

A position is a puzzle when its best option (ranked as ``kingscrib analyze`` ranks them:
score + value of the tiles kept - a share of the next player's expected best reply) beats
the second by at least :data:`MARGIN` points of equity and is not simply the play that
scores most now. Where the margin is small (under :data:`SIM_MARGIN`, tiles still in the
bag) the simulation decides too: the options within that margin of the best are played
out :data:`SIM_PLAYOUTS` times each over the unseen tiles (the ``sim`` player's
play-outs, the same draws for every option), and the best must have the best mean. The
ranking and the play-outs are reproducible from the position and the puzzle's seed, so
:func:`check` re-checks a puzzle from scratch.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from kingscrib.kings.moves import Action
from kingscrib.kings.notation import NotationError, format_action, parse_action
from kingscrib.kings.play import IllegalPlay, check_play
from kingscrib.kings.position import Position
from kingscrib.players.kings.analysis import Option, play_key, ranked, same_action, view_of
from kingscrib.players.kings.defence import DEFENCE_WIDTH
from kingscrib.players.kings.equity import Candidate, candidates, materialise
from kingscrib.players.kings.leaves import shipped
from kingscrib.players.kings.sim import SimPlayer
from kingscrib.puzzles.puzzle import Puzzle

MARGIN = 3.0  # equity points the best option must be ahead of the second
SIM_MARGIN = 5.0  # under this margin (and tiles in the bag) the simulation decides too
SIM_PLAYOUTS = 100  # play-outs of each close option (all of them: none is dropped early)
KIND = "best-play"
SELFPLAY_PLAYER = "greedy"  # plays the self-play games: fast, and its positions tempt greed
# A self-play position: the position, the seed of its analysis, its puzzle's id.
SelfPlayPosition = tuple[Position, int, str]


@dataclass(frozen=True)
class KingsAnalysis:
    """The options of a position, best first, and the most any play scores now."""

    options: list[Option]
    top_score: int
    chosen: list[Candidate] = field(default_factory=list, compare=False)  # the options'
    bag: int = 0

    @property
    def margin(self) -> float:
        return self.options[0].equity - self.options[1].equity if len(self.options) > 1 else 0.0

    def is_puzzle(self, margin: float = MARGIN) -> bool:
        return (len(self.options) > 1 and self.margin >= margin
                and self.options[0].score < self.top_score)


def analyse(position: Position, seed: int) -> KingsAnalysis:
    """Every distinct option the equity player weighs, ranked as ``kingscrib analyze`` does."""
    view = view_of(position)
    table = shipped()
    chosen = ranked(view, table, seed, DEFENCE_WIDTH)
    board = position.board
    options = [Option(materialise(c), format_action(materialise(c), board), c.score,
                      c.leave_value, c.reply, c.equity) for c in chosen]
    everything = candidates(view, table)
    top = max((c.score for c in everything), default=0)
    return KingsAnalysis(options, top, chosen, position.bag or 0)


def needs_simulation(found: KingsAnalysis) -> bool:
    """Whether the simulation decides too: a small margin, and tiles left to draw."""
    return found.bag > 0 and len(found.options) > 1 and found.margin < SIM_MARGIN


def simulated(position: Position, seed: int, found: KingsAnalysis) -> list[Option]:
    """The options within :data:`SIM_MARGIN` of the best (in equity order), each with the
    mean of its :data:`SIM_PLAYOUTS` play-outs (seeded by ``seed``)."""
    top = found.options[0].equity
    close = [(o, c) for o, c in zip(found.options, found.chosen) if top - o.equity < SIM_MARGIN]
    sim = SimPlayer(seed, max_iterations=SIM_PLAYOUTS, min_iterations=SIM_PLAYOUTS)
    sim.simulate(view_of(position), [c for _, c in close], math.inf)
    stats = {id(s.candidate): s for s in sim.last}
    return [replace(o, sim=round(stats[id(c)].mean, 2), sim_iterations=stats[id(c)].n)
            for o, c in close]


def simulated_mean(option: Option) -> float:
    """The mean of an option's simulated play-outs (ValueError when it was not simulated)."""
    if option.sim is None:
        raise ValueError(f"{option.move} was not simulated")
    return option.sim


def simulation_agrees(options: list[Option]) -> bool:
    """Whether the best by equity also has the best simulated mean."""
    return all(simulated_mean(options[0]) >= simulated_mean(o) for o in options[1:])


def read_answer(position: Position, text: str) -> Action:
    """The player's answer in the game's notation, checked against the board and rack;
    raises ValueError with a precise message when it is not a legal option."""
    try:
        action = parse_action(text, position.board, position.rack)
    except NotationError as e:
        raise ValueError(str(e)) from None
    placed = getattr(action, "placed", None)
    if placed is not None:
        try:
            check_play(position.board, placed, position.rules, position.rack)
        except IllegalPlay as e:
            raise ValueError(f"not a legal play: {e}") from None
    return action


def same_option(action: Action, best: Action, position: Position) -> bool:
    """Whether ``action`` is the best option (the same tiles making the same hands count
    as the same play, wherever along the line they lie)."""
    if action == best:
        return True
    try:
        return play_key(action, position.board) == play_key(best, position.board)
    except IllegalPlay:
        return False


def weigh_answer(position: Position, seed: int, action: Action) -> Option | None:
    """The answer weighed exactly as the options were (the same defence racks)."""
    view = view_of(position)
    weighed = ranked(view, shipped(), seed, DEFENCE_WIDTH, also=action)
    for c in weighed:
        if same_action(c, action, position.board):
            chosen = materialise(c)
            return Option(chosen, format_action(chosen, position.board), c.score, c.leave_value,
                          c.reply, c.equity)
    return None


def theme(best: Option, greedy: Option | None) -> str:
    """A few words on why the best option wins, against the play that scores most now."""
    from kingscrib.kings.moves import Exchange, Pass

    if isinstance(best.action, Exchange):
        return "exchange for a better rack"
    if isinstance(best.action, Pass):
        return "keep the rack"
    if best.reply is None:  # the bag is empty: no reply weighed, the rack's points count
        return "leave fewer points on the rack"
    if greedy is None or greedy.reply is None:
        return "keep the better tiles"
    leave_gain = best.leave - greedy.leave
    defence_gain = (greedy.reply - best.reply) * 0.5
    return "keep the better tiles" if leave_gain >= defence_gain else "give less away"


def make_puzzle(position: Position, seed: int, puzzle_id: str,
                margin: float = MARGIN) -> Puzzle | None:
    """The puzzle of ``position`` (analysed with ``seed``), or None when it is none."""
    found = analyse(position, seed)
    if not found.is_puzzle(margin):
        return None
    best, second = found.options[0], found.options[1]
    if needs_simulation(found):
        sims = simulated(position, seed, found)
        if not simulation_agrees(sims):
            return None
        best, second = sims[0], sims[1]
    greedy = max(found.options, key=lambda o: (o.score, o.equity))
    return Puzzle(puzzle_id, "kings", KIND, position.to_json(), best.move,
                  round(found.margin, 2), best.to_json(), second.to_json(), found.top_score,
                  theme(best, greedy if greedy.score >= found.top_score else None), seed)


def check(puzzle: Puzzle) -> list[str]:
    """What is wrong with a Kings puzzle, analysed again from scratch (empty: all holds)."""
    position = Position.from_json(puzzle.position)
    found = analyse(position, puzzle.seed)
    problems = []
    if len(found.options) < 2:
        return ["fewer than two options"]
    try:
        stated = read_answer(position, puzzle.answer)
    except ValueError as e:
        return [f"the answer {puzzle.answer!r} cannot be read: {e}"]
    if not same_option(stated, found.options[0].action, position):
        problems.append(f"the best option is {found.options[0].move}, not {puzzle.answer}")
    if abs(found.margin - puzzle.margin) > 0.01:
        problems.append(f"the margin is {found.margin:.2f}, not {puzzle.margin}")
    if found.margin < MARGIN:
        problems.append(f"the margin {found.margin:.2f} is under {MARGIN}")
    if found.options[0].score >= found.top_score:
        problems.append("the best option is also the highest score now")
    if found.top_score != puzzle.top_now:
        problems.append(f"the highest score now is {found.top_score}, not {puzzle.top_now}")
    if needs_simulation(found) and not problems:
        sims = simulated(position, puzzle.seed, found)
        if not simulation_agrees(sims):
            leader = max(sims, key=simulated_mean)
            problems.append(f"the simulation ranks {leader.move} first ({leader.sim:+.2f} a "
                            f"play-out against {sims[0].sim:+.2f})")
        stated_sim = puzzle.breakdown.get("sim")
        if stated_sim is None:
            problems.append("the margin is small and the simulation's result is not stated")
        elif abs(stated_sim - simulated_mean(sims[0])) > 0.01:
            problems.append(f"the simulated mean is {sims[0].sim:.2f}, not {stated_sim}")
    return problems


# ----- explaining an answer ----------------------------------------------------------
def _line(o: dict[str, Any]) -> str:
    reply = "no reply looked at" if o.get("reply") is None else f"their reply {o['reply']:.1f}"
    return (f"{o['move']}: {o['score']} points now, leave {o['leave']:+.1f}, {reply}"
            f" = equity {o['equity']:.1f}")


def judge(puzzle: Puzzle, text: str) -> tuple[bool, list[str]]:
    """Whether ``text`` is the best play, and why; ValueError when it is not a legal option."""
    position = Position.from_json(puzzle.position)
    action = read_answer(position, text)
    best = read_answer(position, puzzle.answer)
    best_o = puzzle.breakdown
    lines = [f"Best: {_line(best_o)} ({puzzle.theme})."]
    if best_o.get("sim") is not None and puzzle.second.get("sim") is not None:
        lines.append(f"Simulation agrees ({best_o['sim_iterations']} play-outs of each close"
                     f" option over the unseen tiles): {best_o['sim']:+.1f} a play-out,"
                     f" {puzzle.second['move']} {puzzle.second['sim']:+.1f}.")
    if same_option(action, best, position):
        lines.append(f"It is {puzzle.margin:.1f} ahead of the next best, "
                     f"{puzzle.second['move']} ({puzzle.second['equity']:.1f}).")
        return True, lines
    mine = weigh_answer(position, puzzle.seed, action)
    if mine is None:
        lines.append("Your option was not among those the engine weighs.")
        return False, lines
    data = mine.to_json()
    lost = best_o["equity"] - data["equity"]
    lines.append(f"Yours: {_line(data)}.")
    parts = [f"{data['score'] - best_o['score']:+d} points now",
             f"{data['leave'] - best_o['leave']:+.1f} in the tiles kept"]
    if data.get("reply") is not None and best_o.get("reply") is not None:
        parts.append(f"{best_o['reply'] - data['reply']:+.1f} x 0.5 in what it leaves them")
    lines.append(f"It gave up {lost:.1f} equity: " + ", ".join(parts) + ".")
    return False, lines


# ----- self-play ----------------------------------------------------------------------
def positions(seed: int) -> Iterator[SelfPlayPosition]:
    """Each position a player faces in one self-play game (two seats), with the seed its
    analysis uses and the id its puzzle would have."""
    from kingscrib.kings.game import Game
    from kingscrib.players.kings import make_player
    from kingscrib.players.kings.driver import take_turn

    game = Game.new([SELFPLAY_PLAYER, SELFPLAY_PLAYER], None, seed)
    players = [make_player(SELFPLAY_PLAYER, seed * 10 + i) for i in range(2)]
    turn = 0
    while not game.is_over:
        p = game.view(game.turn).position
        yield (Position(dict(p.board), list(p.rack), p.bag, p.rules), seed * 1000 + turn,
               f"kings-{seed}-{turn + 1}")
        take_turn(game, players)
        turn += 1


def game_puzzles(seed: int) -> list[Puzzle]:
    """The puzzles of one self-play game (two seats)."""
    found = []
    for position, analysis_seed, puzzle_id in positions(seed):
        puzzle = make_puzzle(position, analysis_seed, puzzle_id)
        if puzzle is not None:
            found.append(puzzle)
    return found
