"""``kings_cribbage``: Kings Cribbage as an OpenSpiel game, over the engine.

>>> import pyspiel, kingscrib.spiel
>>> game = pyspiel.load_game("kings_cribbage")
>>> state = game.new_initial_state()
>>> state.apply_action(0)                   # chance: seat 0 plays first
>>> dict(state.chance_outcomes())[10]       # chance: the first tile drawn is a 6/9 light...
0.07692307692307693

Chance nodes: who plays first (each seat 1/n), then every tile drawn, one chance node a
tile: the five of each rack at the start, the replacements after a play, the tiles an
exchange brings. A draw's outcome is a tile kind, ``(rank - 1) * 2 + colour`` (colour 0
dark, 1 light; a 6/9 tile is a 6), with the probability of its count in the bag. The bag
is kept as a sorted multiset, so a state (and its clone) holds no order the next draws
could be read from. The engine (:class:`kingscrib.kings.game.Game`) decides every rule
and score; a turn that draws is handed to it once its draws are known.

Actions are ``kings_v1``'s factored encoding (:mod:`kingscrib.env.kings_factored`,
``FACTORED_ACTIONS`` = 4427): pass, the exchanges, then a play placed tile by tile and
committed. It has no cap: every legal play can be made. Parameters: ``players`` (2-4)
and the rules of :class:`kingscrib.kings.rules.RuleSet` (``exchange``, ``joker``,
``servant``, ``solitaire``, ``reduced_first_bonus``). Under the joker rule every play
claims its full value. Returns at the end, zero-sum: ``n/(n-1) x (1/k - 1/n)`` for each of
``k`` tied winners and ``-1/(n-1)`` for a loser (+1/-1 with two seats).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from kingscrib.env.kings_actions import FIRST_PLAY, TurnActions, turn_actions
from kingscrib.env.kings_factored import COMMIT, FACTORED_ACTIONS, Placing, placement
from kingscrib.kings.board import SIZE, square_name
from kingscrib.kings.fastgen import face_index, face_tile
from kingscrib.kings.game import MAX_PLAYERS, SCORELESS_ROUNDS, Game
from kingscrib.kings.moves import Exchange, Play
from kingscrib.kings.notation import format_action
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import COLOURS, DARK, LIGHT, RACK_SIZE, Tile, full_set
from kingscrib.spiel.common import game_type, observer_kind, piece_tensor
from kingscrib.spiel.contract_state import ContractState

NAME = "kings_cribbage"
KINDS = 26  # tile kinds: (rank - 1) * 2 + colour, as placement faces
HISTORY = 8  # turns in the information-state tensor's history, newest first
_DEFAULTS = {"players": 2, "exchange": "anytime", "joker": False, "servant": False,
             "solitaire": False, "reduced_first_bonus": False}

_GAME_TYPE = game_type(NAME, "Kings Cribbage (kingscrib engine)", MAX_PLAYERS, _DEFAULTS)


def kind(tile: Tile) -> int:
    """A tile's chance outcome (and placement face): ``(rank - 1) * 2 + colour``."""
    return face_index(tile) - 2


def kind_tile(index: int) -> Tile:
    return face_tile(index + 2)


def _max_game_length(players: int) -> int:
    """A bound on the moves: every play lays a tile of the 104, and at most 3 rounds of
    turns without a play come between two plays (then the game ends); a turn is at most
    five placements and commit, then five draws."""
    turns = (len(full_set()) + 1) * (SCORELESS_ROUNDS * players + 1)
    return 1 + RACK_SIZE * players + turns * (2 * RACK_SIZE + 1)


class _TurnCache:
    """The legal plays of the turn being played (tens of thousands at an opening),
    shared by a state's clones: they never change, so a copy need not copy them, and a
    serialized state leaves them out (they are found again)."""

    def __init__(self) -> None:
        self.key = -1
        self.actions: TurnActions | None = None

    def get(self, engine: Game) -> TurnActions:
        if self.key != len(engine.history) or self.actions is None:
            self.actions = turn_actions(engine)
            self.key = len(engine.history)
        return self.actions

    def __deepcopy__(self, memo: dict[int, Any]) -> _TurnCache:
        new = _TurnCache()
        new.key, new.actions = self.key, self.actions
        return new

    def __reduce__(self) -> tuple:
        return (_TurnCache, ())


class KingsCribbageGame(pyspiel.Game):
    """Kings Cribbage for 2 to 4 seats under any rules of RULES.md."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.players = int(params["players"])
        self.rules = RuleSet.from_json({k: params[k] for k in _DEFAULTS if k != "players"})
        if not 2 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"Kings Cribbage is for 2 to {MAX_PLAYERS} players")
        if self.rules.solitaire and self.players != 2:
            raise ValueError("the solitaire option is for two seats (Light and Dark)")
        n = self.players
        info = pyspiel.GameInfo(
            num_distinct_actions=FACTORED_ACTIONS,
            max_chance_outcomes=KINDS,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(n))
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> KingsCribbageState:
        return KingsCribbageState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KingsObserver:
        return KingsObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class KingsCribbageState(ContractState[Game]):
    """A state: chance nodes for the first player and every tile drawn."""

    def __init__(self, game: KingsCribbageGame) -> None:
        super().__init__(game)
        self.players = game.players
        self.rules = game.rules
        self.engine: Game | None = None  # made once the first player is known
        self.dealt = 0  # tiles dealt at the start so far
        self.placed: dict[int, int] = {}  # the tiles placed so far this turn: square -> face
        # A turn that draws, held back until its draws are known: (seat, engine action,
        # tiles to draw), and the tiles drawn for it so far.
        self.pending: tuple[int, Play | Exchange, int] | None = None
        self.drawn: list[Tile] = []
        self.cache = _TurnCache()

    # ----- where the game is --------------------------------------------------
    def chance_next(self) -> bool:
        """Who plays first is drawn, a rack is dealt, or a turn waits for its draws."""
        return self.engine is None or self.dealing() or self.pending is not None

    def dealing(self) -> bool:
        return self.engine is not None and self.dealt < RACK_SIZE * self.players

    def drawing_seat(self) -> int:
        """The seat the next tile drawn goes to."""
        assert self.engine is not None
        if self.dealing():
            return (self.engine.first_player + self.dealt // RACK_SIZE) % self.players
        assert self.pending is not None
        return self.pending[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.is_chance_node()
        if self.engine is None:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        bag = Counter(self.engine.bag_of(self.drawing_seat()))
        bag.subtract(self.drawn)
        total = sum(bag.values())
        return sorted((kind(tile), count / total) for tile, count in bag.items() if count)

    # ----- actions ----------------------------------------------------------
    def turn(self) -> TurnActions:
        assert self.engine is not None
        return self.cache.get(self.engine)

    def mask(self) -> np.ndarray:
        placing = Placing(self.turn().play_source())
        placing.placed = dict(self.placed)
        return placing.mask(self.turn())

    def seat_actions(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.mask())]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._apply_chance(action)
            return
        assert self.engine is not None
        seat = self.engine.turn
        if not 0 <= action < FACTORED_ACTIONS or not self.mask()[action]:
            raise ValueError(f"action {action} is not legal for seat {seat} now")
        if FIRST_PLAY <= action < COMMIT:
            square, face = placement(action)
            self.placed[square] = face
            return
        move = self.engine_action(action)
        self.placed = {}
        rack, bag = self.engine.racks[seat], self.engine.bag_of(seat)
        if isinstance(move, Play):
            draws = min(RACK_SIZE - len(rack) + len(move.placed), len(bag))
        elif isinstance(move, Exchange):
            draws = len(move.tiles)
        else:
            draws = 0
        if draws:
            self.pending = (seat, move, draws)
        else:
            self._play(move)

    def engine_action(self, action: int) -> Any:
        """The engine action of a pass, exchange or commit index."""
        if action == COMMIT:
            placing = Placing([])
            placing.placed = dict(self.placed)
            return placing.play()
        return self.turn().action(action)

    def _apply_chance(self, action: int) -> None:
        if self.engine is None:
            self.engine = _new_engine(self.players, self.rules, action)
            return
        tile = kind_tile(action)
        seat = self.drawing_seat()
        if self.dealing():
            bag = self.engine.bag_of(seat)
            bag.remove(tile)
            self.engine.racks[seat].append(tile)
            self.dealt += 1
            return
        self.drawn.append(tile)
        assert self.pending is not None
        seat, move, draws = self.pending
        if len(self.drawn) == draws:
            # The engine draws from the end of the bag: put the drawn tiles there, in order.
            bag = self.engine.bag_of(seat)
            for t in self.drawn:
                bag.remove(t)
            bag.extend(reversed(self.drawn))
            self.pending, self.drawn = None, []
            self._play(move)

    def _play(self, move: Any) -> None:
        assert self.engine is not None
        self.engine.play(move)
        self.engine.forget_undo()
        for bag in self.engine.bags:
            bag.sort()  # a multiset: no order the next draws could be read from

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None,
                                rng: random.Random | None = None) -> KingsCribbageState:
        """A state ``player_id`` cannot tell from this one: the tiles it has not seen (the
        other racks and the bag they draw from) dealt again uniformly, each rack keeping
        its size. Every play is public and another seat's draws and exchanges are seen
        only as counts, so any such deal agrees with all the seat saw. Another seat's
        tiles placed so far this turn (unseen) are taken back. While tiles are drawn (a
        chance node) the state is returned as it is. OpenSpiel's ISMCTS calls it
        (``probability_sampler`` is not used)."""
        new = self.clone()
        if new.engine is None or new.is_chance_node() or new.is_terminal():
            return new
        rng = rng or random.Random()
        engine = new.engine
        engine.racks = [list(rack) for rack in engine.racks]
        engine.bags = [list(bag) for bag in engine.bags]
        for bag in engine.bags:
            others = [seat for seat in range(self.players)
                      if seat != player_id and engine.bag_of(seat) is bag]
            pool = bag + [t for seat in others for t in engine.racks[seat]]
            rng.shuffle(pool)
            k = 0
            for seat in others:
                size = len(engine.racks[seat])
                engine.racks[seat] = pool[k:k + size]
                k += size
            bag[:] = sorted(pool[k:])
        if engine.turn != player_id:  # the seat to move holds other tiles now
            new.placed = {}
            new.cache = _TurnCache()
        return new

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.engine is None:
                return f"seat {action} plays first"
            return f"draw {kind_tile(action)}"
        if FIRST_PLAY <= action < COMMIT:
            square, face = placement(action)
            return f"place {face_tile(face)} on {square_name(square)}"
        if self.engine is None or action > COMMIT:
            return f"action {action}"
        try:
            move = self.engine_action(action)
        except (IndexError, KeyError, ValueError):
            return f"action {action}"
        text = format_action(move, self.engine.board)
        return f"commit {text}" if action == COMMIT else text

    def __str__(self) -> str:
        if self.engine is None:
            return "drawing for first player"
        e = self.engine
        lines = [f"turn of seat {e.turn}, scores {' '.join(map(str, e.final_scores))},"
                 f" bag {e.tiles_in_bags}" + (f", over ({e.end.reason})" if e.end else "")]
        for seat, rack in enumerate(e.racks):
            lines.append(f"seat {seat}: {' '.join(map(str, sorted(rack)))}")
        lines.append("board: " + " ".join(f"{square_name(s)}={t}"
                                          for s, t in sorted(e.board.items())))
        if self.placed:
            lines.append("placing: " + " ".join(f"{square_name(s)}={face_tile(f)}"
                                                for s, f in sorted(self.placed.items())))
        if self.pending:
            lines.append(f"drawing for seat {self.pending[0]}: "
                         + " ".join(map(str, self.drawn)))
        return "\n".join(lines)


def _new_engine(players: int, rules: RuleSet, first: int) -> Game:
    """The engine's game with ``first`` to play, empty racks and full bags (the chance
    nodes deal the racks)."""
    game = Game.new(players, rules, seed=0)
    game.first_player = game.turn = first
    game.first_draws = []
    game.racks = [[] for _ in range(players)]
    game.bags = ([full_set([LIGHT]), full_set([DARK])] if rules.solitaire
                 else [full_set(COLOURS)])
    for bag in game.bags:
        bag.sort()
    return game


# ----- observations -----------------------------------------------------------------
def _pieces(perfect_recall: bool, private: bool) -> list[tuple[str, tuple]]:
    pieces: list[tuple[str, tuple]] = [
        ("player", (MAX_PLAYERS,)), ("to_act", (MAX_PLAYERS,)),
        ("board", (15, SIZE, SIZE)), ("unseen", (KINDS,)), ("scores", (MAX_PLAYERS,)),
        ("rack_sizes", (MAX_PLAYERS,)), ("bag", (2,)), ("servant", (MAX_PLAYERS,)),
        ("counters", (3,)),
    ]
    if private:
        pieces += [("rack", (KINDS,)), ("placing", (15, SIZE, SIZE))]
    if perfect_recall:
        pieces += [("history", (HISTORY, MAX_PLAYERS + 3 + 2))]
    return pieces


def _set_tile(planes: np.ndarray, square: int, tile: Tile) -> None:
    row, column = divmod(square, SIZE)
    planes[tile.rank - 1, row, column] = 1
    planes[13 if tile.colour == LIGHT else 14, row, column] = 1


class KingsObserver:
    """OpenSpiel's Python observer for ``kings_cribbage``.

    Tensor pieces: the board (planes 0-12 a rank shown, 13 light, 14 dark, as
    ``kings_v1``), the tiles the seat has not seen by kind, scores (final, penalties
    taken, once over), rack sizes, the bag sizes (the seat's bag, all bags), the Servant,
    passes and scoreless turns in a row and turns so far, and privately the seat's rack
    by kind and the tiles it has placed this turn. The information-state tensor adds the
    last 8 turns (seat, pass/exchange/play, tiles, points); the information-state string
    is the perfect-recall record: every turn as the seat saw it (its own draws and
    exchanges in full, the others' as counts). Seats are counted from the observer.
    While tiles are drawn (a chance node) the position is the one before the turn."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        self.perfect_recall, self.private = observer_kind(iig_obs_type, params, "tiles")
        self.tensor, self.dict = piece_tensor(_pieces(self.perfect_recall, self.private))

    def set_from(self, state: KingsCribbageState, player: int) -> None:
        self.tensor.fill(0)
        t = self.dict
        n = state.players
        t["player"][player] = 1
        e = state.engine
        if e is None:
            return
        rel = lambda seat: (seat - player) % n  # noqa: E731
        if state.current_player() >= 0:
            t["to_act"][rel(state.current_player())] = 1
        unseen = np.zeros(KINDS)
        for tile in full_set(COLOURS):
            unseen[kind(tile)] += 1
        for square, tile in e.board.items():
            _set_tile(t["board"], square, tile)
            unseen[kind(tile.held())] -= 1
        for tile in _rack(state, player):
            unseen[kind(tile)] -= 1
            if self.private:
                t["rack"][kind(tile)] += 1
        t["unseen"][:] = unseen
        for seat in range(n):
            t["scores"][rel(seat)] = e.final_scores[seat]
            t["rack_sizes"][rel(seat)] = len(_rack(state, seat))
        t["bag"][:] = (len(e.bag_of(player)) - _drawn_from(state, player),
                       e.tiles_in_bags - len(state.drawn))
        if e.servant is not None:
            t["servant"][rel(e.servant)] = 1
        t["counters"][:] = (e.passes_in_a_row, e.scoreless_in_a_row, len(e.history))
        if self.private and state.current_player() == player:
            for square, face in state.placed.items():
                _set_tile(t["placing"], square, face_tile(face))
        if self.perfect_recall:
            for k, turn in enumerate(reversed(e.history[-HISTORY:])):
                row = t["history"][k]
                row[rel(turn.player)] = 1
                row[MAX_PLAYERS + ("pass", "exchange", "play").index(turn.action)] = 1
                row[MAX_PLAYERS + 3] = len(turn.tiles) or len(turn.returned)
                row[MAX_PLAYERS + 4] = turn.gained

    def string_from(self, state: KingsCribbageState, player: int) -> str:
        e = state.engine
        view: dict[str, Any] = {"seat": player}
        if e is None:
            return json.dumps(view)
        view.update(first=e.first_player, scores=e.final_scores,
                    rack=[str(t) for t in sorted(_rack(state, player))] if self.private else [],
                    bag=e.tiles_in_bags - len(state.drawn),
                    to_act=state.current_player())
        if self.private and state.current_player() == player and state.placed:
            view["placing"] = {square_name(s): str(face_tile(f))
                               for s, f in sorted(state.placed.items())}
        if self.perfect_recall:
            view["dealt"] = state.dealt
            view["turns"] = [_turn_seen(turn, player, self.private) for turn in e.history]
            if state.pending is not None:
                seat = state.pending[0]
                mine = self.private and seat == player
                view["drawing"] = {"seat": seat, "tiles": [str(x) for x in state.drawn]
                                   if mine else len(state.drawn)}
        else:
            view["board"] = {square_name(s): str(x) for s, x in sorted(e.board.items())}
            view["rack_sizes"] = [len(_rack(state, s)) for s in range(state.players)]
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _rack(state: KingsCribbageState, seat: int) -> list[Tile]:
    assert state.engine is not None
    return state.engine.racks[seat]


def _drawn_from(state: KingsCribbageState, seat: int) -> int:
    """Tiles drawn from ``seat``'s bag for the pending turn (not yet off the bag)."""
    if state.pending is None or state.engine is None:
        return 0
    same = state.engine.bag_of(state.pending[0]) is state.engine.bag_of(seat)
    return len(state.drawn) if same else 0


def _turn_seen(turn: Any, player: int, private: bool) -> dict[str, Any]:
    """A turn as ``player`` saw it: a play in full; an exchange's tiles and the tiles
    drawn only by the seat that took the turn."""
    mine = private and turn.player == player
    seen: dict[str, Any] = {"seat": turn.player, "action": turn.action,
                            "gained": turn.gained, "score": turn.score}
    if turn.action == "play":
        seen["tiles"] = {square_name(s): str(x) for s, x in sorted(turn.tiles.items())}
    if turn.action == "exchange":
        seen["returned"] = sorted(map(str, turn.returned)) if mine else len(turn.returned)
    seen["drew"] = sorted(map(str, turn.drew)) if mine else len(turn.drew)
    if turn.servant is not None:
        seen["servant"] = turn.servant
    return seen


pyspiel.register_game(_GAME_TYPE, KingsCribbageGame)

__all__ = ["NAME", "KingsCribbageGame", "KingsCribbageState", "KingsObserver", "kind",
           "kind_tile"]
