"""A game of Kings Cribbage: seats, racks, the bag, turns, the end, undo.

A game is fully determined by its rules, its seed and the actions taken:
replaying them from :meth:`Game.new` gives the same game.

>>> game = Game.new(players=2, seed=7)
>>> best = game.legal_moves()[0]
>>> turn = game.play(best.play)
>>> turn.score == best.total
True
>>> game.undo(); len(game.history)
0
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, ClassVar

from kingscrib import core
from kingscrib.common.people import tile_text
from kingscrib.common.shuffle import Seed, check_seed, is_seed, rng_for
from kingscrib.core import KINGS, RECORD_NAMES, GameId
from kingscrib.kings.board import Square, square_name
from kingscrib.kings.fastgen import legal_plays
from kingscrib.kings.moves import Action, Exchange, Pass, Play, ScoredPlay
from kingscrib.kings.play import IllegalPlay, PlayScore, check_play, score_play
from kingscrib.kings.position import Position
from kingscrib.kings.record_format import (
    FORMAT,
    RecordError,
    check_joker_points,
    read_action,
    read_claim,
    read_header,
    read_joker_caller,
    read_reshuffles,
    read_tiles,
    same_tiles,
    tile_names,
)
from kingscrib.kings.rules import EXCHANGE_WHEN_STUCK, RuleSet
from kingscrib.kings.tiles import COLOURS, DARK, LIGHT, RACK_SIZE, Tile, full_set, held_counts

MIN_PLAYERS, MAX_PLAYERS = 2, 4
SCORELESS_ROUNDS = 3  # rounds in a row with no score that end a game while the bag lasts
JOKER_PENALTY = 5
OUT, BLOCKED, SCORELESS = "out", "blocked", "scoreless"


class IllegalAction(core.IllegalAction):
    """An action the rules do not allow now; the message says why. Nothing changed."""


@dataclass(slots=True)
class Turn:
    """One turn as it happened (the game record's ``turns`` entries)."""

    player: int
    rack: list[Tile]  # before the turn
    action: str  # "play", "exchange" or "pass"
    tiles: dict[Square, Tile] = field(default_factory=dict)  # play
    returned: list[Tile] = field(default_factory=list)  # exchange
    drew: list[Tile] = field(default_factory=list)
    score: int = 0  # what the play is worth, bonuses included
    claimed: int | None = None  # joker rule: what the player claimed, as made
    joker: dict[str, int] | None = None  # {"caller": seat, "points": gained or -5}
    # joker rule, a claim above the value: {"player": next seat, "points": the excess}
    overclaim: dict[str, int] | None = None
    detail: PlayScore | None = None
    servant: int | None = None  # servant rule: named at the end of a round

    @property
    def gained(self) -> int:
        """Points the player took for the turn: under the joker rule the claim, or the
        true value when the claim was above it (the excess went to the next player)."""
        return self.score if self.claimed is None else min(self.claimed, self.score)

    def to_json(self) -> dict[str, Any]:
        """The turn as the record's ``turns`` entry."""
        data: dict[str, Any] = {"player": self.player, "rack": tile_names(self.rack),
                                "action": self.action}
        if self.action == "play":
            data["tiles"] = {square_name(s): str(t) for s, t in sorted(self.tiles.items())}
            data["score"] = self.score
            if self.claimed is not None:
                data["claimed"] = self.claimed
            if self.overclaim is not None:
                data["overclaim"] = dict(self.overclaim)
            data["drew"] = tile_names(self.drew)
        elif self.action == "exchange":
            data["returned"] = tile_names(self.returned)
            data["drew"] = tile_names(self.drew)
        if self.joker is not None:
            data["joker"] = dict(self.joker)
        if self.servant is not None:
            data["servant"] = self.servant
        return data


@dataclass(frozen=True)
class End:
    reason: str  # out, blocked or scoreless
    penalties: tuple[int, ...]


@dataclass(frozen=True)
class PlayerView:
    """All a seat may know: never another rack nor the order of the bag."""

    seat: int
    position: Position
    scores: tuple[int, ...]
    rack_sizes: tuple[int, ...]
    unseen: Counter[Tile]  # tiles (as held) that are in the bag or on other racks
    turn_number: int
    passes_in_a_row: int
    players: int


# What undo restores: board, racks, bags, scores, turn, turns played, servant, end,
# passes and scoreless turns in a row, the last turn as it was and the number of the bag's
# reshuffles (those made after the snapshot belong to the timeline taken back).
_Snapshot = tuple[dict[Square, Tile], list[list[Tile]], list[list[Tile]], list[int], int, int,
                  int | None, End | None, int, int, Turn | None, int]


class Game:
    """A Kings Cribbage game for 2 to 4 seats. Use :meth:`new` to start one.

    It answers the engine contract (:mod:`kingscrib.core.contract`): :meth:`start`,
    :meth:`to_move`, :meth:`legal_actions`, :meth:`apply`, :meth:`view`,
    :meth:`winners`, :meth:`record`, :meth:`from_record`. The older names stay:
    :meth:`new`, :meth:`play` (``apply`` without the seat check), :meth:`legal_moves`
    (the scored plays only, best first) and :meth:`to_record`.
    """

    game_id: ClassVar[GameId] = KINGS

    def __init__(self) -> None:
        # Everything is set by new(); kept as plain attributes for easy copying.
        self.rules = RuleSet()
        self.seed: Seed | None = None
        self.names: list[str] = []
        self.board: dict[Square, Tile] = {}
        self.racks: list[list[Tile]] = []
        self.bags: list[list[Tile]] = []
        self.scores: list[int] = []
        self.turn = 0
        self.first_player = 0
        self.first_draws: list[dict[int, Tile]] = []
        self.history: list[Turn] = []
        self.servant: int | None = None
        self.end: End | None = None
        self.passes_in_a_row = 0
        self.scoreless_in_a_row = 0
        self.reshuffles: list[tuple[int, int]] = []  # (turns played before it, its key)
        self._undo: list[_Snapshot] = []

    # ----- starting -------------------------------------------------------
    @classmethod
    def new(cls, players: int | Sequence[str] = 2, rules: RuleSet | None = None,
            seed: Seed | None = None) -> Game:
        """Shuffle, draw for first player and deal 5 tiles to each seat."""
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) \
            else [str(n) for n in players]
        rules = rules or RuleSet()
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise ValueError(f"Kings Cribbage is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if rules.solitaire and len(names) != 2:
            raise ValueError("the solitaire option is for two seats (Light and Dark)")
        game = cls()
        game.rules = rules
        game.seed = check_seed(seed) if seed is not None else random.randrange(2**31)
        game.names = names
        rng = rng_for(game.seed)
        game.scores = [0] * len(names)
        game.racks = [[] for _ in names]
        if rules.solitaire:
            game.bags = [full_set([LIGHT]), full_set([DARK])]
        else:
            game.bags = [full_set(COLOURS)]
        game._draw_for_first(rng)
        for bag in game.bags:
            rng.shuffle(bag)
        for k in range(len(names)):
            seat = (game.first_player + k) % len(names)
            game._draw(seat, RACK_SIZE)
        game.turn = game.first_player
        return game

    @classmethod
    def start(cls, rules: RuleSet | None = None, seed: Seed | None = None,
              names: Sequence[str] | None = None) -> Game:
        """The contract's new game: :meth:`new` with one seat per name (two when None)."""
        return cls.new(2 if names is None else names, rules, seed)

    def _seed(self) -> Seed:
        if self.seed is None:  # only a Game() never started by new()
            raise ValueError("the game was not started: use Game.new")
        return self.seed

    def _draw_for_first(self, rng: random.Random) -> None:
        contenders = list(range(len(self.names)))
        while len(contenders) > 1:
            for bag in self.bags:
                rng.shuffle(bag)
            # Each contender takes a different tile off the shuffled bag; all go back after.
            draws = {seat: self.bag_of(seat).pop() for seat in contenders}
            for seat, tile in draws.items():
                self.bag_of(seat).append(tile)
            self.first_draws.append(draws)
            low = min(t.rank for t in draws.values())
            contenders = [s for s in contenders if draws[s].rank == low]
        self.first_player = contenders[0]

    # ----- what there is to see --------------------------------------------
    @property
    def players(self) -> int:
        return len(self.names)

    def bag_of(self, seat: int) -> list[Tile]:
        """The bag a seat draws from (its colour's bag under the solitaire rule)."""
        return self.bags[seat] if self.rules.solitaire else self.bags[0]

    @property
    def tiles_in_bags(self) -> int:
        return sum(len(b) for b in self.bags)

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def final_scores(self) -> list[int]:
        """Scores less the rack penalties once the game is over (the scores so far before)."""
        if self.end is None:
            return list(self.scores)
        return [s - p for s, p in zip(self.scores, self.end.penalties)]

    def winners(self) -> list[int]:
        final = self.final_scores
        return [i for i, s in enumerate(final) if s == max(final)]

    def position(self, seat: int | None = None) -> Position:
        seat = self.turn if seat is None else seat
        return Position(dict(self.board), list(self.racks[seat]), len(self.bag_of(seat)),
                        self.rules)

    def view(self, seat: int | None = None) -> PlayerView:
        seat = self.turn if seat is None else seat
        unseen: Counter[Tile] = Counter()
        for other, rack in enumerate(self.racks):
            if other != seat:
                unseen.update(rack)
        for bag in self.bags:
            unseen.update(bag)
        return PlayerView(seat, self.position(seat), tuple(self.scores),
                          tuple(len(r) for r in self.racks), unseen, len(self.history),
                          self.passes_in_a_row, self.players)

    def legal_moves(self) -> list[ScoredPlay]:
        """Every legal play for the seat to move, best first (none once the game is over)."""
        if self.is_over:
            return []
        return legal_plays(self.board, self.racks[self.turn], self.rules)

    def to_move(self) -> int | None:
        """The seat to move; None once the game is over."""
        return None if self.is_over else self.turn

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take: its plays (best first), then every
        different exchange the bag allows, then a pass when the rules allow one."""
        if self.is_over:
            return []
        plays = self.legal_moves()
        actions: list[Action] = [scored.play for scored in plays]
        rack = sorted(self.racks[self.turn])
        for count in range(1, len(rack) + 1):
            if self.can_exchange(count):
                # Tiles of one kind are alike: each different multiset once.
                actions.extend(Exchange.of(tiles)
                               for tiles in dict.fromkeys(combinations(rack, count)))
        if not (self.rules.exchange == EXCHANGE_WHEN_STUCK and plays):
            actions.append(Pass())
        return actions

    def can_exchange(self, count: int = 1) -> bool:
        """Whether the seat to move may exchange ``count`` tiles now."""
        return self._exchange_problem(count) is None

    def _exchange_problem(self, count: int) -> str | None:
        if self.is_over:
            return "the game is over"
        if not 1 <= count <= RACK_SIZE:
            return f"exchange 1 to {RACK_SIZE} tiles, not {count}"
        left = len(self.bag_of(self.turn))
        if left < count:
            return f"the bag holds {left} tile{'s' if left != 1 else ''}, fewer than {count}"
        if self.rules.exchange == EXCHANGE_WHEN_STUCK and self.legal_moves():
            return "under the when-stuck rule you may exchange only when no play is possible"
        return None

    # ----- playing ---------------------------------------------------------
    def check(self, play: Play) -> PlayScore:
        """Score a play by the seat to move, or raise IllegalPlay with the reason."""
        return check_play(self.board, play.placed, self.rules, self.racks[self.turn])

    def play(self, action: Action, claim: int | None = None) -> Turn:
        """Take ``action`` for the seat to move. Raises IllegalAction and changes nothing
        when it is not allowed. ``claim`` is the points claimed under the joker rule
        (the full value when left out). A claim is final and never refused for its size,
        so that nothing tells the true value before it is made: a claim above the value
        is corrected to it and the excess is scored by the next player in turn order."""
        if self.is_over:
            raise IllegalAction("the game is over")
        if isinstance(action, Play):
            try:
                score = self.check(action)
            except IllegalPlay as e:
                raise IllegalAction(str(e)) from None
            if claim is not None:
                if not self.rules.joker:
                    raise IllegalAction("claims are made only under the joker rule")
                if not isinstance(claim, int) or isinstance(claim, bool) or claim < 0:
                    raise IllegalAction(f"a claim is a whole number of points from 0,"
                                        f" not {claim!r}")
            self._push()
            return self._apply_play(action, score, claim)
        if isinstance(action, Exchange):
            problem = self._exchange_problem(len(action.tiles))
            if problem:
                raise IllegalAction(f"cannot exchange: {problem}")
            have = held_counts(self.racks[self.turn])
            for tile, n in held_counts(action.tiles).items():
                if have[tile] < n:
                    raise IllegalAction(f"cannot exchange {tile_text(tile)}: it is not on your rack")
            self._push()
            return self._apply_exchange(action)
        if isinstance(action, Pass):
            if self.rules.exchange == EXCHANGE_WHEN_STUCK and self.legal_moves():
                raise IllegalAction("under the when-stuck rule you may pass only when no play"
                                    " is possible")
            self._push()
            return self._apply_pass()
        raise IllegalAction(f"{action!r} is not a play, an exchange or a pass")

    def apply(self, action: Action, seat: int | None = None) -> Turn:
        """The contract's verb: :meth:`play` at the full value, for ``seat`` when given
        (refused when it is not that seat's turn)."""
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < self.players:  # bool is no seat
                raise IllegalAction(f"there is no seat {seat!r}")
            if seat != self.turn and not self.is_over:
                raise IllegalAction(f"it is {self.names[self.turn]}'s turn,"
                                    f" not {self.names[seat]}'s")
        return self.play(action)

    def play_legal(self, play: Play) -> Turn:
        """Take a play already known to be legal for the seat to move (one of this
        position's generated plays, as an environment's legal actions are), at its full
        value, keeping no undo step. The same turn as :meth:`play` without re-checking
        what the generator already checked; never for a play from outside."""
        if self.is_over:
            raise IllegalAction("the game is over")
        self._undo.clear()  # nothing before this turn can be taken back either
        return self._apply_play(play, score_play(self.board, play.placed, self.rules), None)

    def _apply_play(self, play: Play, score: PlayScore, claim: int | None) -> Turn:
        seat = self.turn
        rack = self.racks[seat]
        turn = Turn(seat, list(rack), "play", tiles=play.placed, score=score.total,
                    detail=score, claimed=(score.total if claim is None else claim)
                    if self.rules.joker else None)
        for tile in play.placed.values():
            rack.remove(tile.held())
        self.board.update(play.placed)
        turn.drew = self._draw(seat, RACK_SIZE - len(rack))
        self.scores[seat] += turn.gained
        if turn.claimed is not None and turn.claimed > turn.score:
            # Over-claimed: corrected, and the excess goes to the next player, as club
            # rules treat over-pegging, so that claiming more never pays.
            taker = (seat + 1) % self.players
            turn.overclaim = {"player": taker, "points": turn.claimed - turn.score}
            self.scores[taker] += turn.overclaim["points"]
        self.passes_in_a_row = self.scoreless_in_a_row = 0
        return self._finish_turn(turn, went_out=not rack)

    def _apply_exchange(self, exchange: Exchange) -> Turn:
        seat = self.turn
        rack = self.racks[seat]
        turn = Turn(seat, list(rack), "exchange", returned=list(exchange.tiles))
        turn.drew = self._draw(seat, len(exchange.tiles))  # replacements first
        for tile in exchange.tiles:
            rack.remove(tile)
        bag = self.bag_of(seat)
        bag.extend(exchange.tiles)
        # Each shake of the bag has its own generator, derived from the seed and the turn,
        # so the game is still fixed by its seed and undo need not keep a generator state.
        rng_for(self._seed(), f"shake/{len(self.history)}").shuffle(bag)
        self.passes_in_a_row = 0
        self.scoreless_in_a_row += 1
        return self._finish_turn(turn)

    def _apply_pass(self) -> Turn:
        turn = Turn(self.turn, list(self.racks[self.turn]), "pass")
        self.passes_in_a_row += 1
        self.scoreless_in_a_row += 1
        return self._finish_turn(turn)

    def _draw(self, seat: int, count: int) -> list[Tile]:
        bag = self.bag_of(seat)
        drawn = [bag.pop() for _ in range(min(count, len(bag)))]
        self.racks[seat].extend(drawn)
        return drawn

    def _finish_turn(self, turn: Turn, went_out: bool = False) -> Turn:
        self.history.append(turn)
        self._name_servant()
        turn.servant = self.servant if self._round_closed() and self.rules.servant else None
        if went_out:
            self._end(OUT)
        elif self.tiles_in_bags == 0 and self.passes_in_a_row >= self.players:
            self._end(BLOCKED)
        elif self.tiles_in_bags > 0 and self.scoreless_in_a_row >= SCORELESS_ROUNDS * self.players:
            self._end(SCORELESS)
        self.turn = (self.turn + 1) % self.players
        return turn

    def _round_closed(self) -> bool:
        return len(self.history) % self.players == 0

    def _name_servant(self) -> None:
        """After each round the lowest scorer is the Servant (a tie keeps the current one,
        else the first such seat in turn order from the first player)."""
        if not self.rules.servant or not self._round_closed():
            return
        low = min(self.scores)
        tied = [s for s in range(self.players) if self.scores[s] == low]
        if self.servant not in tied:
            order = [(self.first_player + k) % self.players for k in range(self.players)]
            self.servant = next(s for s in order if s in tied)

    def _end(self, reason: str) -> None:
        self.end = End(reason, tuple(sum(t.penalty for t in rack) for rack in self.racks))

    # ----- the joker rule --------------------------------------------------
    def joker_open(self) -> bool:
        """Whether a Joker may be called now: right after a play, once, under the rule;
        never on an over-claim, which was corrected when it was made."""
        if not self.rules.joker or not self.history:
            return False
        last = self.history[-1]
        return last.action == "play" and last.joker is None and last.overclaim is None

    def missed_points(self) -> int:
        """Points the last play's claim fell short by (0 when none)."""
        if not self.history or self.history[-1].action != "play":
            return 0
        last = self.history[-1]
        return last.score - last.gained

    def call_joker(self, caller: int) -> int:
        """``caller`` shouts "Joker!" on the last play: takes the missed points, or loses 5
        when nothing was missed. Returns the points the caller gains (negative: penalty)."""
        if not self.joker_open():
            raise IllegalAction("a Joker can be called only right after a play, once,"
                                " under the joker rule")
        last = self.history[-1]
        if not 0 <= caller < self.players:
            raise IllegalAction(f"there is no seat {caller}")
        if caller == last.player:
            raise IllegalAction("you cannot call Joker on your own play")
        self._push()
        missed = self.missed_points()
        points = missed if missed > 0 else -JOKER_PENALTY
        self.scores[caller] += points
        last.joker = {"caller": caller, "points": points}
        if self._round_closed():
            self._name_servant()
            last.servant = self.servant if self.rules.servant else None
        return points

    # ----- undo -----------------------------------------------------------
    def _push(self) -> None:
        last = self.history[-1] if self.history else None
        self._undo.append((
            dict(self.board), [list(r) for r in self.racks], [list(b) for b in self.bags],
            list(self.scores), self.turn, len(self.history), self.servant, self.end,
            self.passes_in_a_row, self.scoreless_in_a_row,
            replace(last) if last else None, len(self.reshuffles),
        ))

    def forget_undo(self) -> None:
        """Drop the undo history (a server that never takes back a stored action)."""
        self._undo.clear()

    def undo(self) -> None:
        """Take back the last action (a turn or a Joker call)."""
        if not self._undo:
            raise IllegalAction("there is nothing to undo")
        (self.board, self.racks, self.bags, self.scores, self.turn, n, self.servant,
         self.end, self.passes_in_a_row, self.scoreless_in_a_row, last,
         reshuffled) = self._undo.pop()
        del self.history[n:]
        # The bags are back as they were, so the reshuffles made since are forgotten too:
        # the record keeps only those that shaped the game as it now stands.
        del self.reshuffles[reshuffled:]
        if last is not None:
            self.history[-1] = last

    def reshuffle(self, key: int) -> None:
        """Shuffle the bag(s) again with a generator of its own, derived from the seed and
        ``key``. Called after an undo with a fresh secret ``key``, so that taking a turn
        back never shows what the bag would have given; the record keeps ``key`` so the
        game still replays exactly."""
        for i, bag in enumerate(self.bags):
            rng_for(self._seed(), f"reshuffle/{key}/{i}").shuffle(bag)
        self.reshuffles.append((len(self.history), key))

    # ----- records ---------------------------------------------------------
    def to_record(self, players: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The game record (RULES.md Part 3) of the game so far; ``players`` adds fields
        to each seat (e.g. a level)."""
        seats = [{"name": n} for n in self.names]
        for seat, extra in zip(seats, players or []):
            seat.update({k: v for k, v in extra.items() if k != "name"})
        record: dict[str, Any] = {
            "format": FORMAT, "game": RECORD_NAMES[KINGS], "rules": self.rules.to_json(),
            "seed": self.seed, "players": seats,
            "first_draws": [{str(s): str(t) for s, t in d.items()} for d in self.first_draws],
            "turns": [t.to_json() for t in self.history],
        }
        if self.reshuffles:  # undo was used: the bag was shuffled again at these points
            record["undo"] = [{"before_turn": n, "reshuffle": key} for n, key in self.reshuffles]
        if self.end is not None:
            record["end"] = {"reason": self.end.reason, "penalties": list(self.end.penalties),
                             "scores": self.final_scores}
        return record

    def record(self) -> dict[str, Any]:
        """The contract's name for :meth:`to_record` (seats named only)."""
        return self.to_record()

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """Replay a record from its seed and actions, to resume it exactly (the record must
        come from this engine); raises :class:`RecordError` where it does not follow."""
        rules, names, turns = read_header(record)
        seed = record.get("seed")
        if not is_seed(seed):
            raise RecordError("the record has no seed (a whole number or a secret of hex"
                              " digits), so the bag cannot be rebuilt")
        try:
            game = cls.new(names, rules, seed=seed)
        except ValueError as e:
            raise RecordError(str(e)) from None
        reshuffles = read_reshuffles(record.get("undo", []), len(turns))
        for i, t in enumerate(turns):
            for key in reshuffles.get(i, []):
                game.reshuffle(key)
            rack = read_tiles(t.get("rack"), "rack", i)
            if t.get("player") != game.turn or not same_tiles(rack, game.racks[game.turn]):
                raise RecordError("the record does not follow from its seed", i)
            try:
                turn = game.play(read_action(t, i), read_claim(t, rules, i))
            except IllegalAction as e:
                raise RecordError(str(e), i) from None
            if tile_names(turn.drew) != tile_names(read_tiles(t.get("drew", []), "drew", i)):
                raise RecordError("the draws do not follow from the seed", i)
            if "joker" in t:
                game.replay_joker(t["joker"], i)
        for key in reshuffles.get(len(turns), []):
            game.reshuffle(key)
        return game

    def replay_joker(self, joker: Any, index: int) -> None:
        """Make a record's Joker call (turn ``index``) and check the points it records."""
        caller = read_joker_caller(joker, self.players, index)
        try:
            points = self.call_joker(caller)
        except IllegalAction as e:
            raise RecordError(str(e), index) from None
        check_joker_points(joker, points, index)


# The class meets the engine contract (checked by mypy).
_ENGINE: core.Engine[RuleSet, core.GameState[Action]] = Game
