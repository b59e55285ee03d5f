"""The replies of the players' routes (leaderboard, profile, archive, a game's rating
changes)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LevelRating(_Reply):
    """A computer level's published rating."""

    level: str
    title: str
    line: str
    rating: int | float
    deviation: int | float


class Ranked(_Reply):
    rank: int
    name: str
    rating: int
    deviation: int
    provisional: bool = Field(description="the deviation is still above 110")
    games: int


class Leaderboard(_Reply):
    game: str
    title: str
    players: list[Ranked]
    levels: list[LevelRating]


class Seated(_Reply):
    """A seat of a finished game as the lists show it (a computer by its level's title)."""

    name: str
    computer: bool
    level: str | None = Field(default=None, description="a computer's level only")
    account: bool = Field(default=False, description="an account's seat: it has a profile")
    side: int = Field(default=0, description="partners share a side (Cribbage for four)")


class PlayedGame(_Reply):
    game_id: str
    game: str
    title: str
    at: float = Field(description="when it ended (seconds since 1970, UTC)")
    seat: int
    place: int = Field(description="0: first; partners share their side's")
    sides: int = Field(description="how many sides played (partners make one)")
    ended_by: str | None = Field(description="resigned or time: how it ended early")
    result: str = Field(description="won, lost or drawn")
    score: int | None
    rated: bool
    players: list[Seated]
    rating: int | None = Field(description="the rating after a rated game")
    change: int | None


class RatingPoint(_Reply):
    at: float
    rating: int
    game_id: str


class GameRecord(_Reply):
    """A player's rating and tally in one game."""

    title: str
    rating: int | None
    deviation: int | None
    provisional: bool
    rated_games: int
    played: int
    won: int
    drawn: int
    lost: int
    history: list[RatingPoint]


class Profile(_Reply):
    name: str
    games: dict[str, GameRecord]
    recent: list[PlayedGame]


class Archive(_Reply):
    name: str
    page: int
    page_size: int
    total: int
    games: list[PlayedGame]


class SeatRating(_Reply):
    seat: int
    name: str
    computer: bool
    previous: int = Field(description="the rating before the game (a computer's: fixed)")
    rating: int = Field(description="the rating after it")
    change: int = Field(description="rating - previous")


class GameRatings(_Reply):
    game_id: str
    status: str = Field(description=(
        "casual: not a rated game; pending: rated, not settled yet (still on, or being"
        " settled: ask again); unrated: ended unrated (before every side moved, or set"
        " aside for the moderators); rated: the ratings moved, seat by seat below"))
    seats: list[SeatRating]
