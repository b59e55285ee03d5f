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
from typing import Any, TypeGuard

from kingscrib.common import jsontext
from kingscrib.common.shuffle import is_seed
from kingscrib.core import KINGS, RECORD_NAMES
from kingscrib.kings.board import parse_square, square_name
from kingscrib.kings.game import Game, IllegalAction, Turn
from kingscrib.kings.moves import Action, Exchange, Pass, Play
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import RACK_SIZE, Tile, held_counts

FORMAT = "kingscrib-game/1"


class RecordError(ValueError):
    """A record that is corrupt or breaks a rule; ``turn`` is its index (None: the header)."""

    def __init__(self, message: str, turn: int | None = None) -> None:
        self.turn = turn
        super().__init__(message if turn is None else f"turn {turn + 1}: {message}")


def _tiles(tiles: Sequence[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def turn_to_json(turn: Turn) -> dict[str, Any]:
    data: dict[str, Any] = {"player": turn.player, "rack": _tiles(turn.rack),
                            "action": turn.action}
    if turn.action == "play":
        data["tiles"] = {square_name(s): str(t) for s, t in sorted(turn.tiles.items())}
        data["score"] = turn.score
        if turn.claimed is not None:
            data["claimed"] = turn.claimed
        if turn.overclaim is not None:
            data["overclaim"] = dict(turn.overclaim)
        data["drew"] = _tiles(turn.drew)
    elif turn.action == "exchange":
        data["returned"] = _tiles(turn.returned)
        data["drew"] = _tiles(turn.drew)
    if turn.joker is not None:
        data["joker"] = dict(turn.joker)
    if turn.servant is not None:
        data["servant"] = turn.servant
    return data


def game_to_record(game: Game, players: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The record of ``game`` so far; ``players`` adds fields to each seat (e.g. a level)."""
    seats = [{"name": n} for n in game.names]
    for seat, extra in zip(seats, players or []):
        seat.update({k: v for k, v in extra.items() if k != "name"})
    record: dict[str, Any] = {
        "format": FORMAT, "game": RECORD_NAMES[KINGS], "rules": game.rules.to_json(), "seed": game.seed,
        "players": seats,
        "first_draws": [{str(s): str(t) for s, t in d.items()} for d in game.first_draws],
        "turns": [turn_to_json(t) for t in game.history],
    }
    if game.reshuffles:  # undo was used: the bag was shuffled again at these points
        record["undo"] = [{"before_turn": n, "reshuffle": key} for n, key in game.reshuffles]
    if game.end is not None:
        record["end"] = {"reason": game.end.reason, "penalties": list(game.end.penalties),
                         "scores": game.final_scores}
    return record


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
    _header(data)
    return data


# ----- reading ----------------------------------------------------------------

def _header(record: Any) -> tuple[RuleSet, list[str], list[dict[str, Any]]]:
    if not isinstance(record, dict):
        raise RecordError("a game record is a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown format {record.get('format')!r}; expected {FORMAT!r}")
    if record.get("game", KINGS) != RECORD_NAMES[KINGS]:
        raise RecordError(f"this is a record of {record.get('game')!r}, not Kings Cribbage")
    try:
        rules = RuleSet.from_json(record.get("rules"))
    except (ValueError, TypeError) as e:
        raise RecordError(f"rules: {e}") from None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise RecordError("players must be a list of objects")
    names = [str(p.get("name", f"Player {i + 1}")) for i, p in enumerate(players)]
    turns = record.get("turns")
    if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
        raise RecordError("turns must be a list of objects")
    return rules, names, turns


def _tile_list(data: Any, what: str, index: int) -> list[Tile]:
    if not isinstance(data, list):
        raise RecordError(f"{what} must be a list of tiles", index)
    try:
        return [Tile.parse(t) for t in data]
    except ValueError as e:
        raise RecordError(f"{what}: {e}", index) from None


def _action(turn: dict[str, Any], index: int) -> Action:
    kind = turn.get("action")
    if kind == "play":
        try:
            return Play.from_json(turn.get("tiles"))
        except ValueError as e:
            raise RecordError(f"tiles: {e}", index) from None
    if kind == "exchange":
        returned = _tile_list(turn.get("returned"), "returned", index)
        if not returned:
            raise RecordError("an exchange returns at least one tile", index)
        return Exchange.of(returned)
    if kind == "pass":
        return Pass()
    raise RecordError(f"action must be play, exchange or pass, not {kind!r}", index)


def _same_tiles(a: Sequence[Tile], b: Sequence[Tile]) -> bool:
    return held_counts(a) == held_counts(b)


def _claim(turn: dict[str, Any], rules: RuleSet, index: int) -> int | None:
    if "claimed" not in turn:
        return None
    claimed = turn["claimed"]
    if not rules.joker:
        raise RecordError("a claim is recorded but the joker rule is off", index)
    if not isinstance(claimed, int) or isinstance(claimed, bool):
        raise RecordError("claimed must be a whole number", index)
    return claimed


def _spare_rack(bag: list[Tile], first_racks: dict[int, list[Tile]],
                turns: list[Any]) -> list[Tile]:
    """A rack for a seat the record never shows, from the bag's tiles that no seen rack
    and no recorded draw needs (with four players, five arbitrary tiles for each of three
    unseen seats could use up every copy of a tile drawn later)."""
    needed = held_counts(t for rack in first_racks.values() for t in rack)
    for i, turn in enumerate(turns):
        if isinstance(turn, dict):
            with contextlib.suppress(RecordError):
                needed.update(t.held() for t in _tile_list(turn.get("drew", []), "drew", i))
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
    rules, names, turns = _header(record)
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
            first_racks[p] = [x.held() for x in _tile_list(t.get("rack"), "rack", i)]
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
        if not _is_seat(first, game.players):
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
        rack = _tile_list(t.get("rack"), "rack", i)
        if not _same_tiles(rack, game.racks[game.turn]):
            raise RecordError(
                f"the rack {' '.join(map(str, rack))} is not the tiles seat {game.turn} holds"
                f" ({' '.join(map(str, game.racks[game.turn]))})", i)
        action = _action(t, i)
        drew = _tile_list(t.get("drew", []), "drew", i)
        seat = game.turn
        if isinstance(action, (Play, Exchange)):
            _take_from_bag(game, seat, drew, "a drawn tile", i)
            game.bag_of(seat).extend(reversed(drew))  # the next draws, in order
        elif drew:
            raise RecordError("a pass draws nothing", i)
        try:
            turn = game.play(action, _claim(t, rules, i))
        except IllegalAction as e:
            raise RecordError(str(e), i) from None
        if not _same_tiles(turn.drew, drew) or len(turn.drew) != len(drew):
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


def _is_seat(value: object, players: int) -> TypeGuard[int]:
    """A seat number (JSON true/false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


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
    if not isinstance(joker, dict) or not _is_seat(joker.get("caller"), game.players):
        raise RecordError('joker must be {"caller": seat, "points": n}', index)
    try:
        points = game.call_joker(joker["caller"])
    except IllegalAction as e:
        raise RecordError(str(e), index) from None
    if joker.get("points") != points:
        raise RecordError(f"the Joker call is worth {points}, not {joker.get('points')!r}", index)


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
        rules, names, _ = _header(record)
        game = Game.new(names, rules, seed=record.get("seed") if is_seed(record.get("seed"))
                        else 0)
    return game


def game_from_record(record: Any) -> Game:
    """Rebuild a game of this engine from its seed and actions (to resume it exactly)."""
    rules, names, turns = _header(record)
    seed = record.get("seed")
    if not is_seed(seed):
        raise RecordError("the record has no seed (a whole number or a secret of hex digits),"
                          " so the bag cannot be rebuilt")
    try:
        game = Game.new(names, rules, seed=seed)
    except ValueError as e:
        raise RecordError(str(e)) from None
    reshuffles = _reshuffles(record.get("undo", []), len(turns))
    for i, t in enumerate(turns):
        for key in reshuffles.get(i, []):
            game.reshuffle(key)
        rack = _tile_list(t.get("rack"), "rack", i)
        if t.get("player") != game.turn or not _same_tiles(rack, game.racks[game.turn]):
            raise RecordError("the record does not follow from its seed", i)
        try:
            turn = game.play(_action(t, i), _claim(t, rules, i))
        except IllegalAction as e:
            raise RecordError(str(e), i) from None
        if [str(x) for x in turn.drew] != [str(x) for x in _tile_list(t.get("drew", []),
                                                                       "drew", i)]:
            raise RecordError("the draws do not follow from the seed", i)
        if "joker" in t:
            _check_joker(game, t["joker"], i)
    for key in reshuffles.get(len(turns), []):
        game.reshuffle(key)
    return game


def replay(record: Any) -> Game:
    """The game a record of this engine describes, replayed from its seed
    (:func:`game_from_record`, under the name both engines' record modules share)."""
    return game_from_record(record)


def _reshuffles(undo: Any, turns: int) -> dict[int, list[int]]:
    """The record's ``undo`` list: the keys of the bag's reshuffles by the turn they precede."""
    if not isinstance(undo, list):
        raise RecordError('undo must be a list of {"before_turn": n, "reshuffle": key}')
    out: dict[int, list[int]] = {}
    for entry in undo:
        at = entry.get("before_turn") if isinstance(entry, dict) else None
        key = entry.get("reshuffle") if isinstance(entry, dict) else None
        if not (_is_seat(at, turns + 1) and isinstance(key, int)
                and not isinstance(key, bool)):
            raise RecordError(f"undo: {entry!r} is not"
                              f' {{"before_turn": 0-{turns}, "reshuffle": key}}')
        out.setdefault(at, []).append(key)
    return out



__all__ = ["FORMAT", "RecordError", "check_record", "dumps", "game_from_record",
           "game_to_record", "iter_check", "loads", "parse_square", "replay"]
