"""What a Kings Cribbage game looks like on the web: the public state, turns as anyone
may see them (exchanges show only how many tiles; under the joker rule a play's value
stays hidden while a Joker may be called), and reading actions from requests.

``session`` is a :class:`~kingscrib.web.play.games.kings_session.KingsSession` (its ``game``
is the engine's ``Game``; ``_turns`` caches its newest turns as JSON) and
``table`` the room around it (:class:`~kingscrib.web.play.games.protocol.Table`).
"""

from __future__ import annotations

from typing import Any

from kingscrib.kings.board import square_name
from kingscrib.kings.game import Game
from kingscrib.kings.moves import Action, Exchange, Pass, Play
from kingscrib.kings.tiles import RACK_SIZE, Tile
from kingscrib.web.errors import WebError
from kingscrib.web.play.games.protocol import level_title, shown_name


def public_state(session: Any, table: Any) -> dict[str, Any]:
    """The part of a game everyone may see: never a rack nor the bag's order."""
    game = session.game
    hide_last = game.joker_open()
    return {
        "id": table.id,
        "version": table.version,
        "rules": game.rules.to_json(),
        "turn": None if game.is_over else game.turn,
        "over": game.is_over,
        "bag": game.tiles_in_bags,
        "seats": seats_json(session, table),
        "board": {square_name(s): str(t) for s, t in sorted(game.board.items())},
        "last_play": last_play(game),
        "history": [turn_json(session, i, hide=hide_last and i == len(game.history) - 1)
                    for i in range(len(game.history))],
        "joker_open": game.joker_open(),
        "servant": game.servant if game.rules.servant else None,
        "end": end_json(game),
        "hints_allowed": table.hints_allowed,
        "rated": table.rated,
        "hints": table.hints_on,
        "closed": table.closed,
    }


def seats_json(session: Any, table: Any) -> list[dict[str, Any]]:
    game = session.game
    return [{"seat": s.seat, "name": shown_name(s, session.kind), "kind": s.kind,
             "level": s.level, "level_title": level_title(s, session.kind),
             "joined": s.taken, "score": game.scores[s.seat],
             "rack_size": len(game.racks[s.seat])} for s in table.seats]


def last_play(game: Game) -> list[str]:
    for t in reversed(game.history):
        if t.action == "play":
            return [square_name(s) for s in t.tiles]
    return []


def end_json(game: Game) -> dict[str, Any] | None:
    if game.end is None:
        return None
    # The seed is disclosed only now: with it anyone can check every rack and draw.
    return {"reason": game.end.reason, "penalties": list(game.end.penalties),
            "scores": game.final_scores, "winners": game.winners(), "seed": game.seed}


def turn_json(session: Any, index: int, hide: bool) -> dict[str, Any]:
    """A turn as anyone may see it: an exchange shows only how many tiles; under the joker
    rule a play's true value stays hidden while a Joker may still be called on it."""
    t = session.game.history[index]
    key = (index, hide, t.joker is not None)
    cached: dict[str, Any] | None = session._turns.get(key)
    if cached is not None:
        return cached
    data: dict[str, Any] = {"n": index + 1, "seat": t.player, "action": t.action}
    if t.action == "play":
        data["tiles"] = {square_name(s): str(x) for s, x in sorted(t.tiles.items())}
        if t.claimed is not None:
            data["claimed"] = t.claimed
        if t.overclaim is not None:  # the correction, public once the claim is made
            data["overclaim"] = dict(t.overclaim)
        if not hide:
            data["score"] = t.score
            if t.detail is not None:
                data["describe"] = t.detail.describe()
                data.update(t.detail.to_json())
    elif t.action == "exchange":
        data["count"] = len(t.returned)
    if t.joker is not None:
        data["joker"] = dict(t.joker)
    if t.servant is not None:
        data["servant"] = t.servant
    _keep(session, key, data)
    return data


KEEP_TURNS = 3  # the newest turns kept as JSON (an update re-sends the last turn sent)


def _keep(session: Any, key: tuple[int, bool, bool], data: dict[str, Any]) -> None:
    """Cache a turn's JSON, forgetting older turns': updates need only the newest, and a
    whole state (a browser arriving) is built once a version, then kept as text. Every
    turn of every game in memory cached as JSON was some 1.7 kB a turn."""
    turns = session._turns
    turns[key] = data
    if len(turns) > 2 * KEEP_TURNS:
        oldest = len(session.game.history) - KEEP_TURNS
        for old in [k for k in turns if k[0] < oldest]:
            del turns[old]


def parse_play(tiles: Any) -> Play:
    if not isinstance(tiles, dict) or not 1 <= len(tiles) <= RACK_SIZE:
        raise WebError(400, f'a play is an object of 1 to {RACK_SIZE} squares to tiles,'
                            ' e.g. {"G7": "7L"}')
    try:
        return Play.from_json({str(k): str(v) for k, v in tiles.items()})
    except ValueError as e:
        raise WebError(400, str(e)) from None


def parse_action(message: dict[str, Any]) -> Action:
    kind = message.get("action")
    if kind == "play":
        return parse_play(message.get("tiles"))
    if kind == "exchange":
        tiles = message.get("tiles")
        if not isinstance(tiles, list) or not 1 <= len(tiles) <= RACK_SIZE:
            raise WebError(400, f"an exchange names 1 to {RACK_SIZE} tiles of your rack")
        try:
            return Exchange.of([Tile.parse(str(t)) for t in tiles])
        except ValueError as e:
            raise WebError(400, str(e)) from None
    if kind == "pass":
        return Pass()
    raise WebError(400, f"action must be play, exchange, pass or joker, not {kind!r}")
