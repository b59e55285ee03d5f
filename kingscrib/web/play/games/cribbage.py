"""Cribbage on the server: a :class:`CribbageSession` around the engine.

Turns are stored as ``{"seat": 1, "action": "discard", "cards": ["5H", "JD"]}``,
``{"seat": 0, "action": "play", "card": "7C"}``, ``{"seat": 0, "action": "go"}`` and
``{"seat": 1, "action": "claim", "points": 8}`` (muggins); the game is rebuilt by
applying them in order. What a seat sees is built in :mod:`.cribbage_view`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kingscrib.classic.cards import Card
from kingscrib.classic.game import Action, Claim, ClassicGame, Discard, Go, IllegalAction, Play
from kingscrib.classic.rules import RuleSet
from kingscrib.common.shuffle import Seed, new_secret
from kingscrib.players.classic import PLAYER_NAMES, make_player
from kingscrib.web.errors import WebError
from kingscrib.web.play.games import (
    cribbage_analysis,
    cribbage_hint,
    cribbage_replay,
    cribbage_view,
)
from kingscrib.web.play.games.protocol import Progress, SessionBase, shown_name

ACTIONS = ("discard", "play", "go", "claim")


def parse_action(message: dict[str, Any]) -> Action:
    """A Cribbage action from a request; WebError(400) with the reason when malformed."""
    kind = message.get("action")
    if kind == "discard":
        cards = message.get("cards")
        if not isinstance(cards, list) or not 1 <= len(cards) <= 2:
            raise WebError(400, 'a discard names the card(s) to lay away: {"cards": ["5H"]}')
        return Discard(tuple(_card(c) for c in cards))
    if kind == "play":
        return Play(_card(message.get("card")))
    if kind == "go":
        return Go()
    if kind == "claim":
        points = message.get("points")
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 29:
            raise WebError(400, "a claim is a whole number of points from 0 to 29")
        return Claim(points)
    raise WebError(400, f"action must be one of {', '.join(ACTIONS)}, not {kind!r}")


def _card(text: Any) -> Card:
    if not isinstance(text, str) or len(text) > 3:
        raise WebError(400, f"{text!r} is not a card (write rank then suit, e.g. 5H, TD)")
    try:
        return Card.parse(text)
    except ValueError as e:
        raise WebError(400, str(e)) from None


def turn_json(seat: int, action: Action) -> dict[str, Any]:
    if isinstance(action, Discard):
        return {"seat": seat, "action": "discard", "cards": [str(c) for c in action.cards]}
    if isinstance(action, Play):
        return {"seat": seat, "action": "play", "card": str(action.card)}
    if isinstance(action, Claim):
        return {"seat": seat, "action": "claim", "points": action.points}
    return {"seat": seat, "action": "go"}


# Kept as they were when only Kings Cribbage offered these.
REFUSALS = {"preview": "a preview is for Kings Cribbage plays"}


class CribbageSession(SessionBase):
    """One live Cribbage game: the engine, the turns applied, the views. Its listeners get
    the whole state on each change (:class:`SessionBase`)."""

    kind = "cribbage"
    title = "Cribbage"
    offers = frozenset({"analysis", "replay", "hint"})

    def __init__(self, game: ClassicGame) -> None:
        super().__init__()
        self.game = game
        self._views = cribbage_view.ViewCache()

    @property
    def seed(self) -> Seed:
        return self.game.seed

    @property
    def over(self) -> bool:
        return self.game.phase == "over"

    @property
    def first_seat(self) -> int:
        """The seat the cut for deal made first dealer."""
        return self.game.first_dealer

    def refusal(self, what: str) -> WebError:
        return WebError(400, REFUSALS[what]) if what in REFUSALS else super().refusal(what)

    def waiting(self) -> list[int]:
        return self.game.waiting_for()

    def apply(self, seat: int, message: dict[str, Any]) -> dict[str, Any]:
        action = parse_action(message)
        return self._apply(seat, action)

    def _apply(self, seat: int, action: Action) -> dict[str, Any]:
        if self.over:
            raise WebError(409, "the game is over")
        out_of_turn = seat not in self.game.waiting_for()  # 409; a wrong action is 400
        try:
            self.game.apply(action, seat)
        except IllegalAction as e:
            raise WebError(409 if out_of_turn else 400, str(e)) from None
        turn = turn_json(seat, action)
        self.turns.append(turn)
        return turn

    def take_back(self) -> None:
        self.turns.pop()
        self.game = replay(self.game.rules, self.game.seed, self.game.names, self.turns)

    def computer_input(self, seat: int) -> Any:
        view = self.game.view(seat)
        return dataclasses.replace(view, legal=tuple(self.game.legal_for(seat)))

    @staticmethod
    def computer_action(seat: int, player: Any, known: Any) -> dict[str, Any]:
        if known.phase == "play" and known.legal == (Go(),):
            return {"action": "go"}  # nothing to choose
        return turn_json(seat, player.choose(known))

    def public(self) -> dict[str, Any]:
        return self._views.public(self.game)

    def public_at(self, table: Any) -> dict[str, Any]:
        # the scores' and the show's texts name computers by their level's title
        return self._views.public(self.game, [shown_name(s, self.kind) for s in table.seats])

    def private(self, seat: int) -> dict[str, Any]:
        return cribbage_view.private(self.game, seat)

    def hint_inputs(self, seat: int) -> Any:
        return cribbage_hint.hint_inputs(self.game, seat)

    def hint_from(self, inputs: Any) -> dict[str, Any]:
        return cribbage_hint.hint_from(inputs)

    def record(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        data = self.game.record()
        for entry, extra in zip(data["players"], seats):
            entry.update(extra)
        return data

    def rename(self, seat: int, name: str) -> None:
        self.game.names[seat] = name

    # ----- replay and analysis ----------------------------------------------------
    def replay_input(self) -> Any:
        """What the step replay needs, copied in the event loop (the game goes on)."""
        return cribbage_replay.session_inputs(self)

    def replay_steps(self, inputs: Any) -> dict[str, Any]:
        """The game up to now, step by step (:mod:`.cribbage_replay`; a worker thread)."""
        return cribbage_replay.replay_of_session(inputs)

    def analysis_input(self, seats: list[dict[str, Any]], ended: bool = False
                       ) -> tuple[int, Any]:
        """The finished game's record (or, ended early, the deals played so far); its
        steps (the decisions with a choice) are counted once the analysis runs."""
        if not (self.over or ended):
            raise WebError(409, "a game is analysed once it is over")
        if self.game.rules.players != 2:
            raise WebError(400, "the coach judges two-player Cribbage games only")
        return 0, self.record(seats)

    def analyse(self, inputs: Any, progress: Progress) -> Any:
        return cribbage_analysis.review(inputs, progress)


def replay(rules: RuleSet, seed: Seed, names: list[str], turns: list[dict[str, Any]]
           ) -> ClassicGame:
    game = ClassicGame(rules, seed, list(names), explicit_go=True)
    for i, t in enumerate(turns):
        try:
            game.apply(parse_action(t), int(t["seat"]))
        except (WebError, IllegalAction, KeyError, TypeError, ValueError) as e:
            reason = e.message if isinstance(e, WebError) else str(e)
            raise ValueError(f"stored turn {i + 1} ({t!r}) does not replay: {reason}") from None
    return game


class CribbageRules(BaseModel):
    """The Cribbage rule options a new game may set (``players`` follows from the seats)."""

    model_config = ConfigDict(extra="forbid")
    players: int | None = Field(default=None, ge=2, le=4)
    skunk: bool = False
    muggins: bool = False


class CribbageAction(BaseModel):
    """A Cribbage action as an HTTP request holds it."""

    model_config = ConfigDict(extra="forbid")
    action: Literal["discard", "play", "go", "claim"]
    cards: list[str] | None = Field(default=None, max_length=2)
    card: str | None = Field(default=None, max_length=3)
    points: int | None = Field(default=None, ge=0, le=29)


class CribbageKind:
    """Cribbage for 2, 3 or 4 seats (4: partners opposite)."""

    name = "cribbage"
    title = "Cribbage"
    rules_model = CribbageRules
    action_model = CribbageAction

    def levels(self) -> list[str]:
        return list(PLAYER_NAMES)

    def default_level(self) -> str:
        return "medium"

    def seats_allowed(self) -> tuple[int, int]:
        return 2, 4

    def action_fields(self) -> dict[str, frozenset[str]]:
        return {"discard": frozenset({"cards"}), "play": frozenset({"card"}),
                "go": frozenset(), "claim": frozenset({"points"})}

    def make_player(self, level: str, seed: int) -> Any:
        return make_player(level, seed)

    def early_result(self, session: Any, reason: str, loser: int | None,
                     penalties: list[int]) -> dict[str, Any]:
        """A resignation, a time-out or overtime penalties: see :func:`early_result`."""
        return early_result(session.game, reason, loser, penalties)

    def standing(self, session: Any, result: dict[str, Any] | None, closing: bool = False
                 ) -> list[dict[str, Any]]:
        """How a finished game placed each side: see :func:`standing`."""
        return standing(session.game, result)

    def check_rules(self, rules: dict[str, Any], seats: int) -> dict[str, Any]:
        data = dict(rules)
        if data.get("players", seats) != seats:
            raise WebError(400, f"rules say {data['players']} players but there are {seats} seats")
        data["players"] = seats
        for key, value in data.items():
            if key != "players" and not isinstance(value, bool):
                raise WebError(400, f"rules: {key} is true or false")
        try:
            return RuleSet.from_dict(data).to_dict()
        except (ValueError, TypeError) as e:
            raise WebError(400, f"rules: {e}") from None

    def create(self, rules: dict[str, Any], seed: Seed | None, names: list[str]
               ) -> CribbageSession:
        seed = new_secret() if seed is None else seed
        return CribbageSession(ClassicGame(RuleSet.from_dict(rules), seed, names,
                                          explicit_go=True))

    def rebuild(self, rules: dict[str, Any], seed: Seed, names: list[str],
                turns: list[dict[str, Any]]) -> CribbageSession:
        session = CribbageSession(replay(RuleSet.from_dict(rules), seed, names, turns))
        session.turns = list(turns)
        return session

    def replay(self, record: dict[str, Any]) -> dict[str, Any]:
        """A Cribbage record step by step as the page shows it (:mod:`.cribbage_replay`)."""
        return cribbage_replay.replay_of_record(record)


CRIBBAGE = CribbageKind()


def early_result(game: ClassicGame, reason: str, loser: int | None,
                 penalties: list[int]) -> dict[str, Any]:
    """How a Cribbage game ends when a player resigns or runs out of time
    (docs/classic.md): that player's side loses at once (with four players, the
    partnership). Two sides: the other side wins; three players: the higher of the
    other two scores wins (both on a tie). ``scores`` are the sides' scores as pegged."""
    rules = game.rules
    lost = rules.side_of(loser) if loser is not None else None
    sides = [s for s in range(rules.sides) if s != lost]
    best = max(game.scores[s] for s in sides)
    won = [s for s in sides if game.scores[s] == best]
    seats = range(rules.players)
    return {"reason": reason, "seat": loser, "time_penalties": [0] * rules.players,
            "scores": list(game.scores), "winner_sides": won,
            "winners": [s for s in seats if rules.side_of(s) in won],
            "losers": [s for s in seats if rules.side_of(s) == lost]}


def standing(game: ClassicGame, result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Each side (partners together): ``{"seats": [...], "place": n, "score": points}``.
    The winning side is first; a side that resigned or ran out of time is last; the
    others (three players) follow by their scores, equal scores sharing a place."""
    rules = game.rules
    scores = list(game.scores)
    if result:
        first = set(result.get("winner_sides", []))
        lost = {rules.side_of(s) for s in result.get("losers", [])}
    else:
        first, lost = {game.winner}, set()
    middle = [s for s in range(rules.sides) if s not in first and s not in lost]
    sides = []
    for side in range(rules.sides):
        if side in first:
            place = 0
        elif side in lost:
            place = 1 + len(middle)
        else:
            place = 1 + sum(scores[o] > scores[side] for o in middle)
        sides.append({"seats": [s for s in range(rules.players) if rules.side_of(s) == side],
                      "place": place, "score": scores[side]})
    return sides
