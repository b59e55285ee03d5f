"""Game records (RULES.md Part 3): write them, replay them, check them turn by turn.

:func:`check_record` replays any record, from this engine or another, by
forcing the recorded draws through the engine; it raises :class:`RecordError`
naming the first turn that breaks a rule. :func:`game_from_record` replays a
record of this engine from its seed, so a saved game continues exactly.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from typing import Any

from kingscrib.common import jsontext
from kingscrib.common.shuffle import is_seed
from kingscrib.kings.board import parse_square
from kingscrib.kings.game import Game, IllegalAction, Turn
from kingscrib.kings.moves import Exchange, Play
from kingscrib.kings.record_format import (
    FORMAT,
    RecordError,
    check_joker_points,
    is_seat,
    read_action,
    read_claim,
    read_header,
    read_joker_caller,
    read_tiles,
    same_tiles,
)
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import RACK_SIZE, Tile, held_counts


def turn_to_json(turn: Turn) -> dict[str, Any]:
    """A turn as the record's ``turns`` entry (:meth:`Turn.to_json`)."""
    return turn.to_json()


def game_to_record(game: Game, players: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The record of ``game`` so far; ``players`` adds fields to each seat (e.g. a level)."""
    return game.to_record(players)


def dumps(game: Game | dict[str, Any], indent: int | None = None) -> str:
    """A game's record, or a record, as JSON text (one line unless ``indent``)."""
    record = game.to_record() if isinstance(game, Game) else game
    if indent is not None:
        return json.dumps(record, indent=indent)
    return json.dumps(record, separators=(",", ":"))


def loads(text: str) -> dict[str, Any]:
    """Parse a record and check its envelope (format, game, rules, players, turns);
    :func:`replay` checks the turns."""
    try:
        data = jsontext.loads(text)
    except jsontext.JSONTextError as e:
        raise RecordError(str(e)) from None
    if not isinstance(data, dict):
        raise RecordError("a game record is a JSON object")
    read_header(data)
    return data


# ----- checking ---------------------------------------------------------------

def _spare_rack(bag: list[Tile], first_racks: dict[int, list[Tile]],
                turns: list[Any]) -> list[Tile]:
    """A rack for a seat the record never shows, from the bag's tiles that no seen rack
    and no recorded draw needs (with four players, five arbitrary tiles for each of three
    unseen seats could use up every copy of a tile drawn later)."""
    needed = held_counts(t for rack in first_racks.values() for t in rack)
    for i, turn in enumerate(turns):
        if isinstance(turn, dict):
            with contextlib.suppress(RecordError):
                needed.update(t.held() for t in read_tiles(turn.get("drew", []), "drew", i))
    rack: list[Tile] = []
    for tile in reversed(bag):
        if len(rack) == RACK_SIZE:
            break
        if needed[tile] > 0:
            needed[tile] -= 1  # this copy is kept for whoever the record shows with it
        else:
            rack.append(tile)
    return rack if len(rack) == RACK_SIZE else bag[-RACK_SIZE:]


def iter_check(record: Any) -> Iterator[tuple[int, Turn, Game]]:
    """Replay a record turn by turn, checking each; yields (index, turn, game after it).

    The draws are forced from the record, so any engine's records can be checked.
    """
    rules, names, turns = read_header(record)
    try:
        game = Game.new(names, rules, seed=0)
    except ValueError as e:
        raise RecordError(str(e)) from None
    # Put the tiles back and deal each seat the rack of its first turn.
    for seat in range(game.players):
        game.bag_of(seat).extend(game.racks[seat])
        game.racks[seat] = []
    first_racks: dict[int, list[Tile]] = {}
    for i, t in enumerate(turns):
        p = t.get("player")
        if isinstance(p, int) and 0 <= p < game.players and p not in first_racks:
            first_racks[p] = [x.held() for x in read_tiles(t.get("rack"), "rack", i)]
    for seat in range(game.players):
        rack = first_racks.get(seat)
        if rack is None:  # never seen: any tiles will do, but not those the record needs
            rack = _spare_rack(game.bag_of(seat), first_racks, turns)
        if len(rack) != RACK_SIZE:
            raise RecordError(f"seat {seat} must start with {RACK_SIZE} tiles, not {len(rack)}")
        _take_from_bag(game, seat, rack, f"the starting rack of seat {seat}", None)
        game.racks[seat] = list(rack)
    if turns:
        first = turns[0].get("player")
        if not is_seat(first, game.players):
            raise RecordError(f"player must be a seat from 0 to {game.players - 1}", 0)
        if "first_draws" in record:
            _check_first_draws(record["first_draws"], rules, game.players, first)
        game.turn = game.first_player = first
    game.forget_undo()
    for i, t in enumerate(turns):
        if game.end is not None:
            raise RecordError(f"the game was already over ({game.end.reason})", i)
        if t.get("player") != game.turn or isinstance(t.get("player"), bool):
            raise RecordError(f"it is seat {game.turn}'s turn, not {t.get('player')!r}'s", i)
        rack = read_tiles(t.get("rack"), "rack", i)
        if not same_tiles(rack, game.racks[game.turn]):
            raise RecordError(
                f"the rack {' '.join(map(str, rack))} is not the tiles seat {game.turn} holds"
                f" ({' '.join(map(str, game.racks[game.turn]))})", i)
        action = read_action(t, i)
        drew = read_tiles(t.get("drew", []), "drew", i)
        seat = game.turn
        if isinstance(action, (Play, Exchange)):
            _take_from_bag(game, seat, drew, "a drawn tile", i)
            # The next draws, in order, as held (a drawn 6/9 may be written as a nine).
            game.bag_of(seat).extend(reversed([t.held() for t in drew]))
        elif drew:
            raise RecordError("a pass draws nothing", i)
        try:
            turn = game.play(action, read_claim(t, rules, i))
        except IllegalAction as e:
            raise RecordError(str(e), i) from None
        if not same_tiles(turn.drew, drew) or len(turn.drew) != len(drew):
            raise RecordError(f"the draw should be {len(turn.drew)} tiles, not {len(drew)}", i)
        if turn.action == "play" and t.get("score") != turn.score:
            raise RecordError(f"the play scores {turn.score}, not {t.get('score')!r}"
                              f" ({turn.detail.describe() if turn.detail else 'no detail'})", i)
        if t.get("overclaim") != turn.overclaim:  # recorded exactly when there is one
            raise RecordError(
                f"overclaim is recorded but the claim of {turn.claimed} is not above the"
                f" play's {turn.score}" if turn.overclaim is None else
                f"the claim of {turn.claimed} is above the play's {turn.score}: the over-claim"
                f" is {turn.overclaim}, not {t.get('overclaim')!r}", i)
        if "joker" in t:
            _check_joker(game, t["joker"], i)
        if rules.servant and "servant" in t and (
                t["servant"] != game.history[-1].servant or isinstance(t["servant"], bool)):
            raise RecordError(f"the Servant is seat {game.history[-1].servant},"
                              f" not {t['servant']!r}", i)
        yield i, game.history[-1], game
    _check_end(game, record.get("end"), len(turns))


def _check_first_draws(draws: Any, rules: RuleSet, players: int, first: int) -> None:
    """The draws for the first turn, when recorded: the lowest draw plays first
    (a 6/9 counts 6), players who tie for lowest draw again."""
    if not isinstance(draws, list) or not all(isinstance(d, dict) for d in draws):
        raise RecordError("first_draws must be a list of objects of seats to tiles")
    contenders = list(range(players))
    for draw in draws:
        if len(contenders) < 2:
            raise RecordError("first_draws: a draw again without a tie")
        if sorted(draw) != sorted(str(s) for s in contenders):
            raise RecordError(f"first_draws: seats {contenders} draw, not {sorted(draw)}")
        try:
            tiles = {int(s): Tile.parse(t).held() for s, t in draw.items()}
        except (ValueError, TypeError) as e:
            raise RecordError(f"first_draws: {e}") from None
        if rules.solitaire and any(t.colour != "LD"[s] for s, t in tiles.items()):
            raise RecordError("first_draws: under the solitaire rule each seat draws its colour")
        low = min(t.rank for t in tiles.values())
        contenders = [s for s in contenders if tiles[s].rank == low]
    if len(contenders) != 1:
        raise RecordError("first_draws: the draw for the first turn ends in a tie")
    if contenders[0] != first:
        raise RecordError(f"first_draws: seat {contenders[0]} drew lowest and plays first,"
                          f" not seat {first}")


def _take_from_bag(game: Game, seat: int, tiles: Sequence[Tile], what: str,
                   index: int | None) -> None:
    bag = game.bag_of(seat)
    for tile in tiles:
        try:
            bag.remove(tile.held())
        except ValueError:
            raise RecordError(f"{what} {tile} is not in the bag: every tile of the set is"
                              " already accounted for", index) from None


def _check_joker(game: Game, joker: Any, index: int) -> None:
    caller = read_joker_caller(joker, game.players, index)
    try:
        points = game.call_joker(caller)
    except IllegalAction as e:
        raise RecordError(str(e), index) from None
    check_joker_points(joker, points, index)


def _check_end(game: Game, end: Any, count: int) -> None:
    if end is None:
        if game.end is not None:
            raise RecordError(f"the game ended ({game.end.reason}) but the record has no end",
                              count - 1)
        return
    if not isinstance(end, dict):
        raise RecordError("end must be an object")
    if game.end is None:
        raise RecordError("the record ends the game, but by the rules it goes on")
    if end.get("reason") != game.end.reason:
        raise RecordError(f"the game ends by {game.end.reason!r}, not {end.get('reason')!r}")
    if end.get("penalties") != list(game.end.penalties):
        raise RecordError(f"the penalties are {list(game.end.penalties)},"
                          f" not {end.get('penalties')!r}")
    if end.get("scores") != game.final_scores:
        raise RecordError(f"the final scores are {game.final_scores}, not {end.get('scores')!r}")


def check_record(record: Any) -> Game:
    """Check a whole record; returns the game at its end or raises RecordError."""
    game = None
    for _, _, last in iter_check(record):
        game = last
    if game is None:
        rules, names, _ = read_header(record)
        game = Game.new(names, rules, seed=record.get("seed") if is_seed(record.get("seed"))
                        else 0)
    return game


def game_from_record(record: Any) -> Game:
    """Rebuild a game of this engine from its seed and actions (to resume it exactly)."""
    return Game.from_record(record)


def replay(record: Any) -> Game:
    """The game a record of this engine describes, replayed from its seed
    (:func:`game_from_record`, under the name both engines' record modules share)."""
    return game_from_record(record)


__all__ = ["FORMAT", "RecordError", "check_record", "dumps", "game_from_record",
           "game_to_record", "iter_check", "loads", "parse_square", "replay"]
