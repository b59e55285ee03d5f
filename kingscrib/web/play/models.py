"""Pydantic models of the HTTP edge: what a request may hold, what a reply holds."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model, model_validator

from kingscrib.web.play.games import DEFAULT_GAME


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(_Strict):
    kind: Literal["human", "computer"] = "human"
    level: str | None = Field(default=None, max_length=20)
    name: str | None = Field(default=None, max_length=40)


class CreateGame(_Strict):
    game: str = Field(default=DEFAULT_GAME, max_length=16,
                      description=("which game: kings or cribbage (classic is read as cribbage;"
                                   " GET /api/levels lists them)"))
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
        """The game's name as the server hosts it (``classic`` is read as ``cribbage``);
        its rules are checked against its own model (``rules_model``)."""
        from kingscrib.web.play.games import game_kind, game_names, hosted_name

        name = hosted_name(self.game)
        if name is None:
            raise ValueError(f"unknown game {self.game!r};"
                             f" choose from {', '.join(game_names())}")
        self.game = name
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


# ----- replies -----------------------------------------------------------------------------
class _Reply(BaseModel):
    """A reply of exactly these fields: a key the route does not declare is an error."""

    model_config = ConfigDict(extra="forbid")


class _GameShaped(BaseModel):
    """A reply whose fields past the declared ones are the hosted game's own (each game's
    adapter in ``play/games`` words them): they pass through as the game sent them."""

    model_config = ConfigDict(extra="allow")


class GameState(_GameShaped):
    """The game as a seat (or a spectator) sees it: the game's own fields, with the clocks
    and an early ending every game shares (``kingscrib.web.play.finish.state_fields``)."""

    clock: dict[str, Any] | None = Field(description="the clocks, counted down to now")
    result: dict[str, Any] | None = Field(
        description="an early ending (resigned, time): not null once the game is over so")


class Preview(_GameShaped):
    """What a play would score (``score``, ``describe``, each hand) or why it is
    illegal (``error``), as the game words it."""

    legal: bool
    tiles: dict[str, str] = Field(description="the play: square to tile")


class KingsHint(_GameShaped):
    """Kings Cribbage: the best option's fields (``tiles``, ``score``, ``describe``,
    ``equity``; an exchange's ``exchange_tiles``) and the options, best first."""

    play: bool = Field(description="the best option lays tiles (else: exchange or pass)")
    options: list[dict[str, Any]] = Field(description="up to three options, best first")


class CribbageHint(_Reply):
    """Cribbage: what to discard or play, said by the coach, the rules or the expert."""

    advice: str
    by: str = Field(description="coach, rules or expert")
    cards: list[str]
    lines: list[str] = Field(description="why, line by line")


HINTS: TypeAdapter[KingsHint | CribbageHint] = TypeAdapter(KingsHint | CribbageHint)


class ReplaySeat(_Reply):
    seat: int
    name: str = Field(description="a computer by its level's title")


class Replay(_GameShaped):
    """A game step by step as the page shows it: the seats and the end every game has,
    the steps as the game words them (Kings: ``history``; Cribbage: ``steps``)."""

    game: str
    seats: list[ReplaySeat]
    end: dict[str, Any] | None = Field(description="how the game ended (null: not yet)")


class RematchLink(_Reply):
    game_id: str


class RematchOf(_Reply):
    rematch: RematchLink | None = Field(description="the rematch once someone started it")


class Rematched(_Reply):
    game_id: str
    seat: int | None
    token: str | None
    invite: str


class Analysis(_Reply):
    """An analysis: ``none``, ``running`` (``done`` of ``total``), ``done`` (its
    ``turns``) or ``failed`` (``error``); only the fields of its status are sent."""

    status: Literal["none", "running", "done", "failed"]
    done: int | None = None
    total: int | None = None
    turns: list[dict[str, Any]] | None = None
    error: str | None = None


class Cancelled(_Reply):
    cancelled: str
