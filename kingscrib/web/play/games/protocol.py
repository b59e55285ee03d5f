"""The protocol between the rooms and a hosted game.

A :class:`GameKind` builds sessions: from rules and a seed (a new game) or from
the stored turns (after a restart). A :class:`Session` is one live game: it
applies a seat's action and returns the turn to store, says which seats may act,
what each seat and a spectator may see, and gives the game record.

The rooms (:mod:`kingscrib.web.play.rooms`) know only this protocol. What a game may
offer beyond it (score previews, hints, analysis, step replays) it lists in
``offers``, and a kind that replays records has a ``replay`` method;
:class:`SessionBase` gives every optional part a default (the whole state on each
change, nothing offered), so a simple game writes only the rules.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from kingscrib.common.shuffle import Seed
from kingscrib.players import level_names
from kingscrib.web.accounts.names import shown_seat_name
from kingscrib.web.errors import WebError

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Change:
    """A change to store: turn ``index`` of the game is ``turn``. ``new`` False rewrites a
    turn already stored (a Joker call changes the play it is called on)."""

    index: int
    turn: dict[str, Any]
    new: bool = True
    unsaved: str = "the move could not be saved; nothing changed, try again"


class TableSeat(Protocol):
    seat: int
    name: str
    kind: str  # "human" or "computer"
    level: str | None

    @property
    def taken(self) -> bool: ...


class Table(Protocol):
    """What a game may read of the room around it when it builds a view."""

    id: str
    version: int  # changes counted: turns, seats taken, closing
    sent_version: int  # the version the listeners were last sent
    hints_allowed: bool
    rated: bool  # chosen at creation (kingscrib.web.ratings.store), shown before anyone sits
    closed: bool

    @property
    def seats(self) -> Sequence[TableSeat]: ...

    @property
    def hints_on(self) -> bool: ...

    def online(self) -> list[bool]:
        """Each seat: someone is watching through it now."""


class Session(Protocol):
    kind: str
    offers: frozenset[str]  # of "preview", "hint", "analysis", "replay"

    @property
    def first_seat(self) -> int:
        """The seat the game's seed made first (rematches; SessionBase gives 0)."""

    @property
    def seed(self) -> Seed:
        """The game's seed (computer seats derive their own from it)."""

    @property
    def over(self) -> bool:
        """The game has ended."""

    @property
    def turn_count(self) -> int:
        """Turns applied (= stored) so far."""

    @property
    def changes(self) -> int:
        """Changes applied so far: the turns, and anything else that changed a stored turn."""

    def waiting(self) -> list[int]:
        """Seats that may act now (several at once while discarding)."""

    def apply(self, seat: int, message: dict[str, Any]) -> dict[str, Any] | Change:
        """Check and apply a seat's action; return the turn to store (the next one), or a
        :class:`Change`. Raises WebError (and changes nothing) when it is refused."""

    def take_back(self) -> None:
        """Undo the last change (its storing failed)."""

    def settled(self) -> None:
        """The last change is stored or taken back: drop what taking it back needed."""

    def reactions(self, computers: dict[int, Any]) -> list[tuple[int, dict[str, Any]]]:
        """Actions computer seats (seat -> player) take at once after a change, such as
        calling Joker on a play that missed points."""

    def catch_up(self, turns: list[dict[str, Any]]) -> bool:
        """Apply the stored turns after those applied; False when the store holds anything
        else (the session may then be half changed: it is rebuilt)."""

    def apply_noted(self, n: int, turn: dict[str, Any]) -> bool | None:
        """Apply turn ``n`` as another server process stored it (it told us in a note):
        True when applied, None when this session has it already, False (nothing
        changed) when it cannot simply follow: the game is then read from the store."""

    def computer_input(self, seat: int) -> Any:
        """What a computer seat may know (taken on the event loop)."""

    @staticmethod
    def computer_action(seat: int, player: Any, known: Any) -> dict[str, Any]:
        """The action a computer seat takes (run in a worker thread or process). Static:
        it goes to a worker process by name, not with the whole session."""

    def rename(self, seat: int, name: str) -> None:
        """A person took a seat under this name."""

    def people_played(self, people: set[int]) -> bool:
        """A turn was taken by one of these seats."""

    def record(self, seats: list[dict[str, Any]]) -> dict[str, Any]:
        """The game record (for download once the game is over)."""

    def public(self) -> dict[str, Any]:
        """What anyone, a spectator included, may see (SessionBase's views start here)."""

    def private(self, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see."""

    def state(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The whole game as ``seat`` may see it (None: a spectator)."""

    def state_message(self, table: Table, seat: int | None) -> str:
        """``{"type": "state", "state": ...}`` as JSON text for ``seat``."""

    def updates(self, table: Table, seats: list[int | None]) -> list[str]:
        """The message telling each of ``seats`` what changed since ``table.sent_version``."""

    def forget_views(self) -> None:
        """Drop cached views (the room changed outside the game: closed, refreshed)."""

    def refusal(self, what: str) -> WebError:
        """Why something not in ``offers`` is refused."""

    def preview(self, seat: int, move: Any, hints_on: bool) -> dict[str, Any]:
        """What a move would score (offered: "preview")."""

    def hint_inputs(self, seat: int) -> Any:
        """What a hint for ``seat`` is worked out from, taken on the event loop; WebError when
        the seat may not have one now (offered: "hint")."""

    def hint_from(self, inputs: Any) -> dict[str, Any]:
        """The hint (run in a worker thread)."""

    def analysis_input(self, seats: list[dict[str, Any]], ended: bool = False
                       ) -> tuple[int, Any]:
        """Steps and input of the finished game's analysis (offered: "analysis");
        ``ended``: the game ended early (a resignation or a clock), so the turns played
        so far are analysed."""

    def analyse(self, inputs: Any, progress: Progress) -> Any:
        """The analysis (run in a worker thread); ``progress(done, total)`` may also
        correct the total given by ``analysis_input``."""

    def replay_input(self) -> Any:
        """What the game's step replay is worked out from, copied on the event loop
        (offered: "replay")."""

    def replay_steps(self, inputs: Any) -> dict[str, Any]:
        """The game up to now step by step, as everyone saw it (run in a worker thread)."""


class GameKind(Protocol):
    name: str
    title: str
    rules_model: type[BaseModel]  # a pydantic model of the rule options a new game may set
    action_model: type[BaseModel]  # a pydantic model of an action as an HTTP request holds it
    # Optional (default False): a player whose clock runs out goes into overtime, paying
    # points for it (kingscrib.web.play.clocks), instead of losing at once.
    overtime: bool

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
        """A new game; WebError(400) when it cannot be made (rules that need other seats)."""

    def rebuild(self, rules: dict[str, Any], seed: Seed, names: list[str],
                turns: list[dict[str, Any]]) -> Session:
        """The game the stored turns lead to; raises ValueError when they do not replay."""

    def early_result(self, session: Session, reason: str, loser: int | None,
                     penalties: list[int]) -> dict[str, Any]:
        """How the game ends beyond its rules (:mod:`kingscrib.web.play.finish`): ``reason``
        ``resigned`` or ``time`` (seat ``loser`` resigned or ran out of time) or
        ``overtime`` (ended by the rules; ``penalties`` are each seat's overtime points).
        Returns the ``result`` object: at least ``reason``, ``seat``, ``winners``,
        ``losers``, ``scores`` and ``time_penalties`` (docs/web.md). Optional: without it
        whoever resigned or ran out of time loses and everyone else wins."""

    def standing(self, session: Session, result: dict[str, Any] | None, closing: bool = False
                 ) -> list[dict[str, Any]] | None:
        """How a finished game placed each seat: ``{"seats": [...], "place": n, "score":
        points}`` per side, place 0 the best; None while the scores may still change
        (unless ``closing``). ``result``: an ending beyond the rules, if any."""

    def replay(self, record: dict[str, Any]) -> dict[str, Any]:
        """A record of this game checked and given back as its page steps through it;
        WebError(400) with the reason when it does not replay. Optional: without it the
        game's records are not replayed (POST /api/games/replay)."""


def compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class SessionBase:
    """Defaults for a :class:`Session`: turns kept as stored, the whole state sent on each
    change (its public part encoded once a version), nothing optional offered.
    A subclass keeps its stored turns in ``self.turns`` and implements the rules:
    ``seed``, ``over``, ``waiting``, ``apply``, ``take_back``, the computer seats,
    ``public``, ``private``, ``record`` and ``rename``."""

    kind = "?"
    title = "this game"
    offers: frozenset[str] = frozenset()

    @property
    def first_seat(self) -> int:
        """The seat the game's seed made first (a rematch then turns every seat one place)."""
        return 0

    @property
    def seed(self) -> Seed:
        raise NotImplementedError

    def apply(self, seat: int, message: dict[str, Any]) -> dict[str, Any] | Change:
        raise NotImplementedError

    def __init__(self) -> None:
        self.turns: list[dict[str, Any]] = []
        self._encoded: tuple[tuple[Any, ...], str] | None = None

    @property
    def turn_count(self) -> int:
        return len(self.turns)

    @property
    def changes(self) -> int:
        return len(self.turns)

    def settled(self) -> None:
        pass

    def reactions(self, computers: dict[int, Any]) -> list[tuple[int, dict[str, Any]]]:
        return []

    def catch_up(self, turns: list[dict[str, Any]]) -> bool:
        have = self.turn_count
        if len(turns) < have or turns[:have] != self.turns:
            return False
        for t in turns[have:]:
            self.apply(int(t["seat"]), t)
        return True

    def apply_noted(self, n: int, turn: dict[str, Any]) -> bool | None:
        have = self.turn_count
        if n < have:
            return None
        if n > have:
            return False
        self.apply(int(turn["seat"]), turn)  # WebError, nothing changed, when refused
        return True

    def people_played(self, people: set[int]) -> bool:
        return any(t.get("seat") in people for t in self.turns)

    # ----- views: the whole state on each change ------------------------------------
    def public(self) -> dict[str, Any]:
        raise NotImplementedError

    def private(self, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def public_at(self, table: Table) -> dict[str, Any]:
        """:meth:`public` at this table (a game whose texts name the seats names them as
        :func:`shown_name` does)."""
        return self.public()

    def state(self, table: Table, seat: int | None) -> dict[str, Any]:
        data = self._public_of(table)
        data["seats"] = [dict(s, online=o) for s, o in zip(data["seats"], table.online())]
        data["you"] = seat
        if seat is not None:
            data.update(self.private(seat))
        return data

    def _public_of(self, table: Table) -> dict[str, Any]:
        """The public part of a state message (without who is online): what :meth:`state`
        holds, so a page learns the same over its socket (hints, for one) as by a GET."""
        data = dict(self.public_at(table))
        data.update(id=table.id, version=table.version, seats=seat_list(table, self.kind),
                    hints_allowed=table.hints_allowed, rated=table.rated, hints=table.hints_on,
                    closed=table.closed)
        if data.get("end") is not None:  # the seed is disclosed once the game is over
            data["end"] = dict(data["end"], seed=self.seed)
        return data

    def state_message(self, table: Table, seat: int | None) -> str:
        """The public part is encoded once a version, each seat's private part spliced in."""
        online = tuple(table.online())
        key = (table.version, online)
        if self._encoded is None or self._encoded[0] != key:
            data = self._public_of(table)
            data["seats"] = [dict(s, online=o) for s, o in zip(data["seats"], online)]
            self._encoded = (key, compact(data)[:-1])
        if seat is None:
            extra = ',"you":null'
        else:
            extra = f',"you":{seat},' + compact(self.private(seat))[1:-1]
        return '{"type":"state","state":' + self._encoded[1] + extra + "}}"

    def updates(self, table: Table, seats: list[int | None]) -> list[str]:
        return [self.state_message(table, seat) for seat in seats]

    def forget_views(self) -> None:
        self._encoded = None

    # ----- what a game may offer ------------------------------------------------------
    def refusal(self, what: str) -> WebError:
        names = {"preview": "score previews", "hint": "hints", "analysis": "analyses",
                 "replay": "step replays"}
        return WebError(400, f"{names.get(what, what)} are not offered in {self.title}")

    def preview(self, seat: int, move: Any, hints_on: bool) -> dict[str, Any]:
        raise self.refusal("preview")

    def hint_inputs(self, seat: int) -> Any:
        raise self.refusal("hint")

    def hint_from(self, inputs: Any) -> dict[str, Any]:
        raise self.refusal("hint")

    def analysis_input(self, seats: list[dict[str, Any]], ended: bool = False
                       ) -> tuple[int, Any]:
        raise self.refusal("analysis")

    def analyse(self, inputs: Any, progress: Progress) -> Any:
        raise self.refusal("analysis")

    def replay_input(self) -> Any:
        raise self.refusal("replay")

    def replay_steps(self, inputs: Any) -> dict[str, Any]:
        raise self.refusal("replay")


def seat_list(table: Table, game: str) -> list[dict[str, Any]]:
    """The seats of a ``game`` as everyone sees them (no token; names by
    :func:`shown_name`); ``level`` stays the technical name the API takes, ``level_title``
    is what people read (None for a person)."""
    return [{"seat": s.seat, "name": shown_name(s, game), "kind": s.kind, "level": s.level,
             "level_title": level_title(s, game), "joined": s.taken} for s in table.seats]


def shown_name(seat: TableSeat, game: str) -> str:
    """A computer seat reads as its level's title (kingscrib.web.accounts.names.shown_seat_name)."""
    return shown_seat_name(game, seat.name, seat.kind, seat.level)


def level_title(seat: TableSeat, game: str) -> str | None:
    return level_names.title(game, seat.level) if seat.level else None


def level_of(game: str, name: str) -> str:
    """The technical level for a name as the pages show it (``Beginner``, any case) or as
    the API, records and command line write it (``easy``); else ``name`` itself."""
    return level_names.resolve(game, name)


def levels_shown(game: str, levels: list[str]) -> list[str]:
    """``levels`` as a list for people: weakest first, an alias (Kings' ``greedy``, the
    player ``medium`` is) left out (kingscrib.players.level_names.offered)."""
    return [name.level for name in level_names.offered(game, levels)]


def levels_text(game: str, levels: list[str]) -> str:
    """``Random, Beginner (easy), ...``: the levels to choose from, for a refusal."""
    return level_names.choices_text(game, levels_shown(game, levels))
