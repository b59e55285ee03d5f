"""Pydantic models of the tournaments' and teams' replies."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Summary(_Reply):
    """A tournament as the lists show it; ``players`` (entrants still in) in a list only."""

    id: int
    name: str
    game: str
    format: str = Field(description="round_robin, swiss, arena or match")
    rated: bool
    clock_seconds: int | None
    clock_overtime: int | None
    starts: float = Field(description="seconds since 1970, UTC")
    max_players: int
    min_rating: int | None
    max_rating: int | None
    mirrored: bool
    rounds: int | None
    minutes: int | None
    no_show: int
    team_best: int
    state: str = Field(description="upcoming, running or finished")
    finished: float | None
    note: str | None
    players: int | None = None
    partners: bool


class Listing(_Reply):
    upcoming: list[Summary]
    running: list[Summary]
    finished: list[Summary]


class Tournament(Summary):
    creator: bool = Field(description="the caller created it")


class Entrant(_Reply):
    name: str
    computer: bool
    members: list[str] = Field(description="a partnership's two players")
    level: str | None
    team: str | None
    rating: int | None = Field(description="at joining: the starting order")
    withdrawn: bool


class Pairing(_Reply):
    a: str
    b: str
    leg: int
    game_id: str | None
    points_a: float | None = Field(description="a's points once the game ended")
    margin: int | None
    forfeit: str | None = Field(description="who forfeited by not showing")


class Round(_Reply):
    number: int
    bye: str | None
    games: list[Pairing]


class Place(_Reply):
    place: int
    name: str
    points: int | float
    buchholz: int | float
    sonneborn_berger: int | float
    spread: int
    wins: int
    draws: int
    losses: int
    byes: int


class TeamPlace(_Reply):
    team: str
    points: int | float
    counted: list[str] = Field(description="the members whose points count, best first")
    place: int = Field(default=1, description="1 first; teams with equal points share one")
    tied: bool = Field(default=False, description="another team has the same points")


class YourGame(_Reply):
    game_id: str
    seat: int


class You(_Reply):
    name: str
    entered: bool
    playing: list[YourGame] = Field(description="your seats of the games being played")


class TournamentPage(_Reply):
    tournament: Tournament
    players: list[Entrant]
    rounds: list[Round]
    standings: list[Place]
    teams: list[TeamPlace]
    you: You | None = Field(description="a logged-in caller (null: a guest)")


class NewId(_Reply):
    """A tournament or a team just made: its id."""

    id: int


class Entered(_Reply):
    entrant: int
    name: str | None = Field(default=None, description="a computer entered: its name")


class Withdrawn(_Reply):
    withdrawn: bool


class Team(_Reply):
    id: int
    name: str
    members: list[str]


class Teams(_Reply):
    teams: list[Team]


class JoinedTeam(_Reply):
    joined: int


class LeftTeam(_Reply):
    left: int
