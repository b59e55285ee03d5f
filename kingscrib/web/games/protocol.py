"""The protocol between the rooms and a hosted game.

A :class:`GameKind` builds sessions: from rules and a seed (a new game) or from
the stored turns (after a restart). A :class:`Session` is one live game: it
applies a seat's action and returns the turn to store, says which seats may act,
what each seat and a spectator may see, and gives the game record.
"""

from __future__ import annotations

from typing import Any, Protocol

from kingscrib.shuffle import Seed


class Session(Protocol):
    kind: str

    @property
    def over(self) -> bool:
        """The game has ended."""

    @property
    def turn_count(self) -> int:
        """Turns applied (= stored) so far."""

    def waiting(self) -> list[int]:
        """Seats that may act now (several at once while discarding)."""

    def apply(self, seat: int, message: dict[str, Any]) -> dict[str, Any]:
        """Check and apply a seat's action; return the turn to store.
        Raises WebError (and changes nothing) when it is refused."""

    def take_back(self) -> None:
        """Undo the last turn (its storing failed)."""

    def computer_input(self, seat: int) -> Any:
        """What a computer seat may know (taken on the event loop)."""

    def computer_action(self, seat: int, player: Any, known: Any) -> dict[str, Any]:
        """The action a computer seat takes (run in a worker thread)."""

    def public(self) -> dict[str, Any]:
        """What anyone, a spectator included, may see."""

    def private(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see."""

    def record(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        """The game record (for download once the game is over)."""

    def rename(self, seat: int, name: str) -> None:
        """A person took a seat under this name."""


class GameKind(Protocol):
    name: str
    title: str
    rules_model: type  # a pydantic model of the rule options a new game may set

    def levels(self) -> list[str]:
        """Computer levels, strongest last."""

    def default_level(self) -> str:
        ...

    def seats_allowed(self) -> tuple[int, int]:
        ...

    def action_fields(self) -> dict[str, frozenset[str]]:
        """Each action's name and the fields it takes (any other field is refused)."""

    def make_player(self, level: str, seed: int) -> Any:
        ...

    def check_rules(self, rules: dict[str, Any], seats: int) -> dict[str, Any]:
        """The rules as stored; WebError(400) when they are wrong."""

    def create(self, rules: dict[str, Any], seed: Seed | None, names: list[str]) -> Session:
        ...

    def rebuild(self, rules: dict[str, Any], seed: Seed, names: list[str],
                turns: list[dict[str, Any]]) -> Session:
        """The game the stored turns lead to; raises ValueError when they do not replay."""
