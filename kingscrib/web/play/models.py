"""Pydantic models of the HTTP edge: what a request may hold, what a reply holds."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

from kingscrib.web.play.games import DEFAULT_GAME


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(_Strict):
    kind: Literal["human", "computer"] = "human"
    level: str | None = Field(default=None, max_length=20)
    name: str | None = Field(default=None, max_length=40)


class CreateGame(_Strict):
    game: str = Field(default=DEFAULT_GAME, max_length=16,
                      description="which game: kings or classic (GET /api/levels lists them)")
    seats: list[SeatSpec] = Field(min_length=2, max_length=4)
    rules: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(default=None, ge=0, lt=2**31)
    hints: bool = Field(default=False, description=(
        "allow hints even in a game between people (under the Joker rule they name plays"
        " but never their points); every person sees this before taking a seat"))
    rated: bool = Field(default=False, description=(
        "rated: the ratings of its players move when it ends; every person's seat must be"
        " an account's, so the creator must be logged in and only logged-in players may"
        " join (computer seats play at their level's fixed rating)"))
    clock_seconds: int | None = Field(default=None, description=(
        "a clock: each player's time in seconds (5 to 10800; the page offers 5, 10, 20"
        " and 30 minutes); none when left out"))
    clock_overtime: int | None = Field(default=None, description=(
        "Kings Cribbage: overtime in seconds after a player's time runs out (0 to 600,"
        " 600 when left out), 10 points off per started minute; then the game is lost"))
    clock_days_per_move: int | None = Field(default=None, description=(
        "a correspondence clock instead: days for each move (1, 2, 3, 5 or 7); whoever"
        " lets a move's time run out loses"))

    @model_validator(mode="after")
    def _rules_of_the_game(self) -> CreateGame:
        """Each game's rules are checked against its own model (``rules_model``)."""
        from kingscrib.web.play.games import game_kind, game_names

        if self.game not in game_names():
            raise ValueError(f"unknown game {self.game!r};"
                             f" choose from {', '.join(game_names())}")
        spec = game_kind(self.game).rules_model
        self.rules = spec.model_validate(self.rules).model_dump(exclude_none=True)
        return self


class Created(BaseModel):
    game_id: str
    seat: int | None = Field(description="the creator's seat (None: every seat is a computer)")
    token: str | None = Field(description="the creator's secret seat token")
    invite: str = Field(description="the code friends need to join a seat")
    state: dict[str, Any]


class AskAnalysis(_Strict):
    invite: str | None = Field(default=None, max_length=64, description=(
        "a game of computers only has no seat: its creator proves it with the invite code"))


class JoinGame(_Strict):
    invite: str = Field(max_length=64)
    seat: int | None = Field(default=None, ge=0, le=3)
    name: str | None = Field(default=None, max_length=40)


class Joined(BaseModel):
    seat: int
    token: str


class Tiles(_Strict):
    tiles: dict[str, str] = Field(max_length=5)


_action_specs: dict[tuple[str, ...], type[BaseModel]] = {}


def action_spec() -> type[BaseModel]:
    """One model of every hosted game's actions, merged from each game's ``action_model``
    (Kings: play, exchange, pass, joker; Cribbage: discard, play, go, claim): what an HTTP
    action may hold at all. The room then checks it against its own game's actions."""
    from kingscrib.web.play.games import game_kind, game_names

    names = tuple(game_names())
    if names not in _action_specs:
        actions: list[str] = []
        # The action's names are known only now: the Literal is built at run time.
        fields: dict[str, Any] = {"action": None}
        for name in names:
            model = game_kind(name).action_model
            actions += [a for a in get_args(model.model_fields["action"].annotation)
                        if a not in actions]
            for field, info in model.model_fields.items():
                if field != "action":
                    fields.setdefault(field, (info.annotation, info))
        fields["action"] = (Literal[tuple(actions)], ...)
        _action_specs[names] = create_model("ActionSpec", __base__=_Strict, **fields)
    return _action_specs[names]


class Levels(BaseModel):
    levels: list[str]
    rules: dict[str, Any]
    players: dict[str, int]
    games: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="per game: title, levels, default level, seats")
    names: dict[str, dict[str, dict[str, str]]] = Field(
        default_factory=dict, description="per game and level: the title and one line shown")
    gentle: dict[str, str] = Field(
        default_factory=dict, description="per game: the level a newcomer meets first")


class ErrorReply(BaseModel):
    error: str
