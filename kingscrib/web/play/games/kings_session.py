"""Kings Cribbage on the server: a :class:`KingsSession` around the engine's ``Game``.

Turns are stored as the record's turns (RULES.md Part 3); a Joker call rewrites the
play it is called on. Listeners get incremental updates: each update carries only
the turns since the last one sent (the last of those may change, by a Joker call or
when its value is shown) and the squares they filled; each seat's rack is spliced
into the public part, encoded once. Also offered: score previews, hints and the
analysis of a finished game.
"""

from __future__ import annotations

from typing import Any

from kingscrib.common.shuffle import Seed
from kingscrib.kings.fastgen import best_score
from kingscrib.kings.game import Game, IllegalAction
from kingscrib.kings.moves import Exchange, Play, ScoredPlay
from kingscrib.kings.play import IllegalPlay, check_play
from kingscrib.kings.record import RecordError, turn_to_json
from kingscrib.kings.record_format import read_action as record_action
from kingscrib.web.errors import WebError
from kingscrib.web.play.games import kings_analysis as analysis
from kingscrib.web.play.games.kings_view import (
    end_json,
    last_play,
    parse_action,
    parse_play,
    public_state,
    seats_json,
    turn_json,
)
from kingscrib.web.play.games.protocol import Change, Progress, SessionBase, Table, compact


class KingsSession(SessionBase):
    kind = "kings"
    title = "Kings Cribbage"
    offers = frozenset({"preview", "hint", "analysis"})

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        # Turns as anyone may see them, by (index, hidden, Joker called): see turn_json.
        self._turns: dict[tuple[int, bool, bool], dict[str, Any]] = {}
        self._public: tuple[int, dict[str, Any]] | None = None
        self.sent_turns = len(game.history)  # turns the listeners were last sent

    # ----- the game ------------------------------------------------------------------
    @property
    def first_seat(self) -> int:
        """The seat the draw for first made first to move."""
        return self.game.first_player

    def refusal(self, what: str) -> WebError:
        if what == "replay":  # the state's history holds every turn, tiles and scores
            return WebError(400, "Kings Cribbage replays read GET /api/games/{id}: its"
                                 " history holds every turn")
        return super().refusal(what)

    @property
    def seed(self) -> Seed:
        seed = self.game.seed
        if seed is None:
            raise ValueError("a game on the server always has a seed")
        return seed

    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def turn_count(self) -> int:
        return len(self.game.history)

    @property
    def changes(self) -> int:
        return len(self.game.history) + sum(t.joker is not None for t in self.game.history)

    def waiting(self) -> list[int]:
        return [] if self.game.is_over else [self.game.turn]

    def apply(self, seat: int, message: dict[str, Any]) -> Change:
        """``{"action": "play", "tiles": {...}, "claim": n}``, ``{"action": "exchange",
        "tiles": [...]}``, ``{"action": "pass"}`` or ``{"action": "joker"}``."""
        game = self.game
        if message.get("action") == "joker":
            try:
                game.call_joker(seat)
            except IllegalAction as e:
                raise WebError(409, str(e)) from None
            n = len(game.history) - 1
            return Change(n, turn_to_json(game.history[n]), new=False,
                          unsaved="the Joker call could not be saved; nothing changed")
        if game.is_over:
            raise WebError(409, "the game is over")
        if game.turn != seat:
            raise WebError(409, f"it is {game.names[game.turn]}'s turn, not yours")
        action = parse_action(message)
        claim = message.get("claim")
        if claim is not None and (not isinstance(claim, int) or isinstance(claim, bool)):
            raise WebError(400, "claim must be a whole number")
        if claim is not None and not isinstance(action, Play):
            raise WebError(400, "only a play has points to claim")
        try:
            turn = game.play(action, claim)
        except IllegalAction as e:
            raise WebError(400, str(e)) from None
        return Change(len(game.history) - 1, turn_to_json(turn))

    def take_back(self) -> None:
        self.game.undo()
        self._turns.clear()

    def settled(self) -> None:
        # The undo snapshot (board, racks, bags and a 25 kB random state) is no longer
        # needed; a long game would otherwise keep one per turn.
        self.game.forget_undo()

    def reactions(self, computers: dict[int, Any]) -> list[tuple[int, dict[str, Any]]]:
        """Computer seats call Joker at once when a play missed points."""
        game = self.game
        if not game.joker_open():
            return []
        missed = game.missed_points()
        mover = game.history[-1].player
        for k in range(1, game.players):
            seat = (mover + k) % game.players
            player = computers.get(seat)
            if player is not None and player.calls_joker(game.view(seat), missed):
                return [(seat, {"action": "joker"})]
        return []

    def catch_up(self, turns: list[dict[str, Any]]) -> bool:
        """New turns only: a Joker call on a turn already applied means a rebuild."""
        game = self.game
        have = len(game.history)
        if len(turns) < have or any("joker" in t for t in turns[have - 1:]):
            return False
        try:
            for t in turns[have:]:
                claim = t.get("claimed") if game.rules.joker else None
                turn = game.play(record_action(t, 0), claim)
                game.forget_undo()
                if [str(x) for x in turn.drew] != list(t.get("drew", [])):
                    return False
        except (IllegalAction, RecordError, KeyError, TypeError, ValueError):
            return False
        return True

    def apply_noted(self, n: int, turn: dict[str, Any]) -> bool | None:
        """A new turn only: a Joker call (a rewritten turn) is read from the store."""
        game = self.game
        have = len(game.history)
        if n < have:
            return None
        if n > have or "joker" in turn:
            return False
        try:
            claim = turn.get("claimed") if game.rules.joker else None
            played = game.play(record_action(turn, 0), claim)
        except (IllegalAction, RecordError, KeyError, TypeError, ValueError):
            return False
        if [str(x) for x in played.drew] != list(turn.get("drew", [])):
            game.undo()  # cannot happen with one seed; the store decides then
            game.forget_undo()
            return False
        game.forget_undo()
        return True

    def computer_input(self, seat: int) -> Any:
        return self.game.view(seat)

    @staticmethod
    def computer_action(seat: int, player: Any, known: Any) -> dict[str, Any]:
        action = player.choose(known)
        if isinstance(action, Play):
            message: dict[str, Any] = {"action": "play", "tiles": action.tiles_json()}
            position = known.position
            if position.rules.joker:  # counted on the view's own copy of board and rack
                score = check_play(position.board, action.placed, position.rules,
                                   position.rack)
                message["claim"] = player.claim(known, ScoredPlay(action, score))
            return message
        if isinstance(action, Exchange):
            return {"action": "exchange", "tiles": [str(t) for t in action.tiles]}
        return {"action": "pass"}

    def rename(self, seat: int, name: str) -> None:
        self.game.names[seat] = name

    def people_played(self, people: set[int]) -> bool:
        return any(t.player in people for t in self.game.history)

    def record(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        return self.game.to_record(seats)

    # ----- views ---------------------------------------------------------------------
    def _public_of(self, table: Table) -> dict[str, Any]:
        if self._public is None or self._public[0] != table.version:
            self._public = (table.version, public_state(self, table))
        return dict(self._public[1])

    def private(self, seat: int) -> dict[str, Any]:
        """The seat's rack, how many tiles it may exchange and, on its turn, whether the
        rack has any legal play (``can_play``: false, it must exchange or pass)."""
        game = self.game
        return {"rack": [str(t) for t in game.racks[seat]],
                "can_exchange": 0 if game.is_over else
                min(len(game.bag_of(seat)), len(game.racks[seat])),
                "can_play": self._can_play(seat)}

    def _can_play(self, seat: int) -> bool:
        """Whether ``seat`` is to move and has a legal play (the C core's best score: a
        fraction of a millisecond)."""
        game = self.game
        return (game.to_move() == seat
                and best_score(game.board, game.racks[seat], game.rules) is not None)

    def _sees_hidden(self, seat: int | None) -> bool:
        """``seat`` made the play whose value is hidden while a Joker may be called."""
        game = self.game
        return seat is not None and game.joker_open() and game.history[-1].player == seat

    def state(self, table: Table, seat: int | None) -> dict[str, Any]:
        data = self._public_of(table)
        data["seats"] = [dict(s, online=o) for s, o in zip(data["seats"], table.online())]
        data["you"] = seat
        if seat is not None:
            data.update(self.private(seat))
            if self._sees_hidden(seat) and data["history"]:
                data["history"] = list(data["history"])
                data["history"][-1] = turn_json(self, len(self.game.history) - 1, hide=False)
        return data

    def state_message(self, table: Table, seat: int | None) -> str:
        if self._sees_hidden(seat):
            return compact({"type": "state", "state": self.state(table, seat)})
        return super().state_message(table, seat)

    def updates(self, table: Table, seats: list[int | None]) -> list[str]:
        """``{"type": "update", "update": ...}`` for each seat: the public part of
        :meth:`delta` encoded once, each seat's rack added."""
        game = self.game
        messages = []
        if seats:
            public = self.delta(table, table.sent_version, max(0, self.sent_turns - 1))
            text = compact(public)[:-1]
            for seat in seats:
                if seat is None:
                    messages.append('{"type":"update","update":' + text + ',"you":null}}')
                elif self._sees_hidden(seat):  # the mover sees the true value of their play
                    data = dict(public, history=list(public["history"]))
                    data["history"][-1] = turn_json(self, len(game.history) - 1, hide=False)
                    data.update(you=seat, **self.private(seat))
                    messages.append(compact({"type": "update", "update": data}))
                else:
                    extra = compact(self.private(seat))
                    messages.append('{"type":"update","update":' + text + f',"you":{seat},'
                                    + extra[1:-1] + "}}")
        self.sent_turns = len(game.history)
        return messages

    def delta(self, table: Table, base: int, start: int) -> dict[str, Any]:
        """The public fields of the game, with only turns ``start`` onwards (earlier ones are
        unchanged since version ``base``: only the last turn sent can change, by a Joker
        call or when its value is shown) and the squares those turns filled."""
        game = self.game
        n = len(game.history)
        hide_last = game.joker_open()
        history = [turn_json(self, i, hide=hide_last and i == n - 1) for i in range(start, n)]
        board: dict[str, str] = {}
        for t in history:
            if t["action"] == "play":
                board.update(t["tiles"])
        return {
            "version": table.version,
            "base": base,
            "turn": None if game.is_over else game.turn,
            "over": game.is_over,
            "bag": game.tiles_in_bags,
            "seats": [dict(s, online=o) for s, o in zip(seats_json(self, table),
                                                          table.online())],
            "board": board,
            "last_play": last_play(game),
            "history_from": start,
            "history": history,
            "joker_open": hide_last,
            "servant": game.servant if game.rules.servant else None,
            "end": end_json(game),
        }

    def forget_views(self) -> None:
        super().forget_views()
        self._public = None
        self._turns = {}

    # ----- previews, hints, analysis -------------------------------------------------
    def preview(self, seat: int, move: Any, hints_on: bool) -> dict[str, Any]:
        """What a play would score now (from the seat's rack), or why it is illegal."""
        play = parse_play(move)
        game = self.game
        try:
            score = check_play(game.board, play.placed, game.rules, game.racks[seat])
        except IllegalPlay as e:
            return {"legal": False, "error": str(e), "tiles": play.tiles_json()}
        if game.rules.joker:
            # Under the Joker rule players count their own plays and the claim is final:
            # the preview says only whether the play is legal, hints on or not.
            return {"legal": True, "tiles": play.tiles_json(),
                    "describe": "a legal play: count it yourself (Joker rule)"}
        return {"legal": True, "tiles": play.tiles_json(), "score": score.total,
                "describe": score.describe(), **score.to_json()}

    def hint_inputs(self, seat: int) -> Any:
        game = self.game
        if game.is_over:
            raise WebError(409, "the game is over")
        if game.turn != seat:
            raise WebError(409, "a hint is for the seat to move, and it is not your turn")
        # Ranked by equity (kingscrib.web.play.games.kings_analysis), each play once; the inputs are copied
        # here, in the event loop, so a move made meanwhile cannot change them.
        return analysis.hint_inputs(game, seat)

    def hint_from(self, inputs: Any) -> dict[str, Any]:
        hint = analysis.hint_from(inputs)
        if inputs["rules"].joker:
            # The claim is the player's own count: the hint names the plays, best first,
            # but not what they score (nor the equity, which would tell it).
            hint = {**_uncounted(hint), "options": [_uncounted(o) for o in hint["options"]],
                    "uncounted": "count it yourself (Joker rule)"}
        return hint

    def analysis_input(self, seats: list[dict[str, Any]], ended: bool = False
                       ) -> tuple[int, Any]:
        if not (self.game.is_over or ended):
            raise WebError(409, "a game is analysed once it is over")
        record = self.game.to_record(seats)
        return len(record["turns"]), record

    def analyse(self, inputs: Any, progress: Progress) -> Any:
        return analysis.review(inputs, progress)


def _uncounted(option: dict[str, Any]) -> dict[str, Any]:
    """A hinted option without its points: score, breakdown and equity left out."""
    return {k: v for k, v in option.items() if k in ("play", "tiles", "exchange",
                                                      "exchange_tiles", "advice")}
