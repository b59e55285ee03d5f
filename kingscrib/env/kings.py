"""``kings_v0``: Kings Cribbage as a PettingZoo AEC environment for 2 to 4 seats.

>>> from kingscrib.env import kings_v0
>>> env = kings_v0.env(players=2)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"]["board"].shape, int(obs["action_mask"].sum()) > 0
((15, 13, 13), True)

Seats are ``player_0`` .. ``player_{n-1}`` (seat numbers of the engine). Every array of
an observation is from the observing seat's point of view: seat-indexed arrays start
with that seat and go on in turn order. docs/rl.md lists every array.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import wrappers

from kingscrib.env.base import RAISE, ContractEnv, IllegalEnvAction
from kingscrib.env.kings_actions import ACTIONS, TurnActions, turn_actions
from kingscrib.env.kings_factored import (
    COMMIT,
    FACTORED_ACTIONS,
    FIRST_PLACE,
    Placing,
    describe,
    placement,
)
from kingscrib.kings.board import COLUMN_LETTERS, PLAYABLE, SIZE
from kingscrib.kings.fastgen import face_tile
from kingscrib.kings.game import MAX_PLAYERS, Game
from kingscrib.kings.moves import Action, Play
from kingscrib.kings.notation import format_play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import LIGHT, NINE, RACK_SIZE, SIX, full_set

ENUMERATED, FACTORED = "enumerated", "factored"
ENCODINGS = (ENUMERATED, FACTORED)
HISTORY = 8  # turns kept in the ``history`` array, newest first
PLAY, EXCHANGE, PASS_ACTION = 1, 2, 3
_ACTION_CODE = {"play": PLAY, "exchange": EXCHANGE, "pass": PASS_ACTION}
_FULL_COUNTS = np.zeros((2, 13), np.int8)
for _t in full_set():
    _FULL_COUNTS[0 if _t.colour == LIGHT else 1, _t.rank - 1] += 1


def _colour_row(colour: str) -> int:
    return 0 if colour == LIGHT else 1


def observation_space(players: int, factored: bool = False) -> spaces.Dict:
    """The ``observation`` part of every seat's observation (docs/rl.md); the factored
    encoding adds ``placing``, the tiles placed so far this turn (the seat to move's)."""
    n = MAX_PLAYERS
    extra = {"placing": spaces.Box(0, 1, (15, SIZE, SIZE), np.int8)} if factored else {}
    return spaces.Dict({**extra,
        "board": spaces.Box(0, 1, (15, SIZE, SIZE), np.int8),
        "rack": spaces.Box(0, 13, (RACK_SIZE, 2), np.int8),
        "unseen": spaces.Box(0, 8, (2, 13), np.int8),
        "scores": spaces.Box(-1000, 10000, (n,), np.int16),
        "rack_sizes": spaces.Box(0, RACK_SIZE, (n,), np.int8),
        "bag": spaces.Box(0, 104, (2,), np.int16),
        "history": spaces.Box(-1000, 1000, (HISTORY, 4), np.int16),
        "game": spaces.Box(-1, 10000, (6,), np.int16),
    })


class KingsEnv(ContractEnv[RuleSet, Game]):
    """Kings Cribbage for ``players`` seats under ``rules`` (every RuleSet option).

    Under the joker rule every play claims its full value, so no Joker is ever called.
    ``shaping`` adds per-turn point shaping to the +1/-1 outcome reward; ``notation``
    puts each legal action in notation into the acting seat's ``info["legal"]``;
    ``encoding`` is ``enumerated`` (each legal play one index, :mod:`.kings_actions`) or
    ``factored`` (tile by tile, then commit, :mod:`.kings_factored`); ``illegal`` says
    what an illegal action does (``raise``, or ``penalty``: :mod:`.base`).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "kings_v0",
                "is_parallelizable": False}
    keep_leaves = False  # past the cap, keep the first plays (see kings_actions)

    def __init__(self, players: int = 2, rules: RuleSet | Mapping[str, Any] | None = None,
                 shaping: float = 0.0, notation: bool = True, encoding: str = ENUMERATED,
                 render_mode: str | None = None, illegal: str = RAISE) -> None:
        if not isinstance(rules, RuleSet):
            rules = RuleSet.from_json(dict(rules) if rules is not None else None)
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"Kings Cribbage is for 2 to {MAX_PLAYERS} players, not {players}")
        if rules.solitaire and players != 2:
            raise ValueError("the solitaire option is for two seats (Light and Dark)")
        if encoding not in ENCODINGS:
            raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)},"
                             f" not {encoding!r}")
        self.notation = notation
        self.encoding = encoding
        self._turn_actions: TurnActions | None = None
        self._turn_key = -1
        self._placing: Placing | None = None
        self._placing_key = -1
        factored = encoding == FACTORED
        super().__init__(Game, rules, players, FACTORED_ACTIONS if factored else ACTIONS,
                         observation_space(players, factored), shaping, render_mode,
                         illegal)

    # ----- what differs from the contract's game: no undo, the plays of a turn -------
    def _start(self, seed: int) -> None:
        super()._start(seed)
        self.game.forget_undo()
        self._turn_key = self._placing_key = -1

    def turn_actions(self) -> TurnActions:
        """The legal actions of the seat to move (computed once per turn)."""
        key = len(self.game.history)
        if self._turn_key != key or self._turn_actions is None:
            self._turn_actions = turn_actions(self.game, self.keep_leaves)
            self._turn_key = key
        return self._turn_actions

    def placing(self) -> Placing:
        """The factored encoding's turn: the tiles placed so far and the legal plays."""
        key = len(self.game.history)
        if self._placing_key != key or self._placing is None:
            self._placing = Placing(self.turn_actions().play_source())
            self._placing_key = key
        return self._placing

    def _mask(self) -> np.ndarray:
        if self.encoding == FACTORED:
            return self.placing().mask(self.turn_actions())
        return self.turn_actions().mask.copy()

    def _apply(self, action: int) -> None:
        # Only masked actions reach here (base.CribEnv.step), so a play is one of the
        # turn's generated plays: the engine takes it without checking it again.
        if self.encoding == FACTORED and action >= FIRST_PLACE:
            placing = self.placing()
            if action != COMMIT:
                square, face = placement(action)
                placing.placed[square] = face
                return  # the turn goes on: nothing reaches the engine until commit
            self.game.play_legal(placing.play())  # commit is masked in for a whole play
            return
        chosen = self.turn_actions().action(action)
        if isinstance(chosen, Play):
            self.game.play_legal(chosen)  # keeps no undo step
            return
        self.game.play(chosen)
        self.game.forget_undo()  # an environment never takes a turn back

    def step_action(self, action: Action) -> None:
        """Take an engine action (a Play, Exchange or Pass) for the seat to move, as
        :meth:`step` does for an index; for computer opponents, whose play may lie beyond
        the cap. Raises IllegalAction and changes nothing if the engine refuses it."""
        if self.finished():
            raise IllegalEnvAction("the game is over")

        def apply() -> None:
            self.game.play(action)
            self.game.forget_undo()

        self._advance(apply)

    def _seat_points(self) -> list[int]:
        return self.game.final_scores

    def _info(self, seat: int) -> dict[str, Any]:
        actions = self.turn_actions()
        info: dict[str, Any] = {"plays_before_cap": actions.all_plays}
        if self.notation and self.encoding == FACTORED:
            placing = self.placing()
            legal = actions.notation(self.game)
            info["legal"] = {
                int(i): (legal[int(i)] if i < FIRST_PLACE else describe(int(i))
                         if i != COMMIT else "commit " + format_play(placing.play(),
                                                                      self.game.board))
                for i in np.flatnonzero(self._mask())}
        elif self.notation:
            info["legal"] = actions.notation(self.game)
        return info

    # ----- what a seat sees ----------------------------------------------------
    def _observation(self, seat: int) -> dict[str, np.ndarray]:
        game = self.game
        n = game.players
        order = [(seat + k) % n for k in range(n)]
        board = np.zeros((15, SIZE, SIZE), np.int8)
        unseen = _FULL_COUNTS.copy()
        if game.board:  # all the tiles at once: this runs at every step
            squares = np.fromiter(game.board.keys(), np.intp, len(game.board))
            ranks = np.fromiter((t.rank for t in game.board.values()), np.intp,
                                len(game.board))
            dark = np.fromiter((t.colour != LIGHT for t in game.board.values()), np.intp,
                               len(game.board))
            rows, columns = np.divmod(squares, SIZE)
            board[ranks - 1, rows, columns] = 1
            board[13 + dark, rows, columns] = 1
            held = np.where(ranks == NINE, SIX, ranks)
            np.subtract.at(unseen, (dark, held - 1), 1)
        rack = np.zeros((RACK_SIZE, 2), np.int8)
        for i, tile in enumerate(sorted(game.racks[seat])):
            rack[i] = (tile.rank, 1 + _colour_row(tile.colour))
            unseen[_colour_row(tile.colour), tile.rank - 1] -= 1
        scores = np.zeros(MAX_PLAYERS, np.int16)
        sizes = np.zeros(MAX_PLAYERS, np.int8)
        for k, other in enumerate(order):
            scores[k] = game.final_scores[other]
            sizes[k] = len(game.racks[other])
        history = np.zeros((HISTORY, 4), np.int16)
        for k, turn in enumerate(reversed(game.history[-HISTORY:])):
            count = len(turn.tiles) if turn.action == "play" else len(turn.returned)
            history[k] = ((turn.player - seat) % n + 1, _ACTION_CODE[turn.action], count,
                          turn.gained)
        servant = 0 if game.servant is None else (game.servant - seat) % n + 1
        status = np.array([n, len(game.history), game.passes_in_a_row,
                           game.scoreless_in_a_row, servant, (game.turn - seat) % n],
                          np.int16)
        bag = np.array([len(game.bag_of(seat)), game.tiles_in_bags], np.int16)
        observation: dict[str, np.ndarray] = {"board": board, "rack": rack, "unseen": unseen, "scores": scores,
                       "rack_sizes": sizes, "bag": bag, "history": history, "game": status}
        if self.encoding == FACTORED:
            placing = np.zeros((15, SIZE, SIZE), np.int8)
            if seat == game.turn and not game.is_over:
                for square, face in self.placing().placed.items():
                    tile = face_tile(face)
                    row, column = divmod(square, SIZE)
                    placing[tile.rank - 1, row, column] = 1
                    placing[13 + _colour_row(tile.colour), row, column] = 1
            observation["placing"] = placing
        return observation

    # ----- text -----------------------------------------------------------------
    def _text(self) -> str:
        game = self.game
        lines = ["    " + "".join(f"{c:>3}" for c in COLUMN_LETTERS)]
        for row in range(SIZE):
            cells = []
            for column in range(SIZE):
                square = row * SIZE + column
                tile = game.board.get(square)
                cells.append(f"{str(tile):>3}" if tile else
                             ("  ." if square in PLAYABLE else "   "))
            lines.append(f"{row + 1:>4}" + "".join(cells))
        for seat, name in enumerate(game.names):
            mark = ">" if seat == game.turn and not game.is_over else " "
            lines.append(f"{mark} {name}: {game.final_scores[seat]:>4}"
                         f"  rack {len(game.racks[seat])} tiles")
        bag = f"bag {game.tiles_in_bags}"
        if game.end is not None:
            lines.append(f"game over ({game.end.reason}); {bag}")
        else:
            rack = " ".join(str(t) for t in sorted(game.racks[game.turn]))
            lines.append(f"{game.names[game.turn]} to move, rack {rack}; {bag}")
        return "\n".join(lines)


def raw_env(**kwargs: Any) -> KingsEnv:
    return KingsEnv(**kwargs)


def env(**kwargs: Any) -> wrappers.OrderEnforcingWrapper:
    """The environment with PettingZoo's order checks (the usual entry point)."""
    return wrappers.OrderEnforcingWrapper(KingsEnv(**kwargs))


__all__ = ["ENCODINGS", "ENUMERATED", "FACTORED", "HISTORY", "KingsEnv", "env", "observation_space", "raw_env"]
