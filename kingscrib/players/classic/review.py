"""A finished (or unfinished) classic game reviewed decision by decision with the coach.

Each discard and each card laid where the cards in hand gave a real choice is judged by
the coach (:mod:`kingscrib.players.classic.coach`, the expert's evaluation) from what
that player could see then: the option taken beside the coach's best, with each one's
chance to win and expected points, and what was given up. Two-player games only (the
coach's evaluation is for two players).

>>> from kingscrib.classic.game import ClassicGame
>>> game = ClassicGame(seed=2)
>>> _ = game.apply(game.legal_actions()[0])
>>> rows = review_record(game.record())
>>> rows[0].decision, rows[0].turn
('discard', 1)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from kingscrib.classic.game import ClassicGame, Discard, Play, seated_actions_from_record
from kingscrib.classic.record import RecordError
from kingscrib.classic.record import replay as check_record
from kingscrib.players.classic.coach import Advice, coach_discard, coach_play

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Decision:
    """One decision of a game beside the coach's best option."""

    turn: int  # the action's place among the game's actions (1 = the first discard)
    deal: int
    seat: int
    player: str
    decision: str  # "discard" or "play"
    made: str  # "lay away 6D 9C" / "lay 4S"
    best: str
    ranked_by: str  # "win" (near the end) or "points"
    win_made: float
    win_best: float
    points_made: float  # discard: hand + crib + pegging expected; play: pegging from here
    points_best: float
    options: list[dict[str, Any]]  # the coach's options, best first

    @property
    def win_lost(self) -> float:
        return round(self.win_best - self.win_made, 4)

    @property
    def points_lost(self) -> float:
        return round(self.points_best - self.points_made, 3)

    @property
    def slip(self) -> bool:
        """The option taken is worse than the best by the coach's own measure (by more than
        half a percent to win, or a twentieth of a point)."""
        if self.ranked_by == "win":
            return self.win_lost > 0.005
        return self.points_lost > 0.05

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data.update(win_lost=self.win_lost, points_lost=self.points_lost, slip=self.slip)
        return data


def _ranked_by(advice: Advice) -> str:
    return "win" if "Ranked by chance to win" in advice.lines[-1] else "points"


Option = dict[str, Any]  # one option of the coach's advice, as JSON


def _judge_discard(game: ClassicGame, seat: int, action: Discard
                   ) -> tuple[Advice, Option, Option]:
    side, other = game.rules.side_of(seat), 1 - game.rules.side_of(seat)
    advice = coach_discard(game.hand(seat), seat == game.dealer, game.scores[side],
                           game.scores[other])
    laid = sorted(str(c) for c in action.cards)
    made = next(o for o in advice.options if sorted(o["discard"]) == laid)
    return advice, made, advice.options[0]


def _judge_play(game: ClassicGame, seat: int, action: Play) -> tuple[Advice, Option, Option]:
    view = dataclasses.replace(game.view(seat), legal=tuple(game.legal_for(seat)))
    advice = coach_play(view)
    made = next(o for o in advice.options if o["card"] == str(action.card))
    best = advice.options[0]
    if best["card"][0] == made["card"][0]:  # the same rank plays the same: no mistake
        best = made
    return advice, made, best


def _choice(game: ClassicGame, seat: int, action: Any) -> bool:
    """Whether the action was a real choice: every discard; a card when the hand held
    cards of more than one rank that could be laid (one rank plays the same)."""
    if isinstance(action, Discard):
        return True
    if isinstance(action, Play):
        return len({a.card.rank for a in game.legal_for(seat) if isinstance(a, Play)}) > 1
    return False


def review_record(record: dict[str, Any], progress: Progress | None = None) -> list[Decision]:
    """Every decision of a two-player classic record, judged by the coach; ``progress(done,
    total)`` after each. Raises :class:`RecordError` for a record that does not replay or
    is not a two-player game."""
    return list(iter_review(record, progress))


def iter_review(record: dict[str, Any], progress: Progress | None = None
                ) -> Iterator[Decision]:
    checked = check_record(record)  # RecordError naming the first fault
    if checked.rules.players != 2:
        raise RecordError("the coach judges two-player games only, not "
                          f"{checked.rules.players} players")
    actions = seated_actions_from_record(record, explicit_go=True)
    names = checked.names
    game = ClassicGame(checked.rules, record["seed"], list(names), explicit_go=True)
    probe = ClassicGame(checked.rules, record["seed"], list(names), explicit_go=True)
    total = 0
    for seat, action in actions:  # count the decisions first, for the progress
        total += _choice(probe, seat, action)
        probe.apply(action, seat)
    done = 0
    for turn, (seat, action) in enumerate(actions, start=1):
        if _choice(game, seat, action):
            if isinstance(action, Discard):
                advice, made, best = _judge_discard(game, seat, action)
            else:
                assert isinstance(action, Play)  # _choice is true of discards and plays only
                advice, made, best = _judge_play(game, seat, action)
            is_discard = isinstance(action, Discard)
            key = "points" if is_discard else "pegging"

            def said(option: dict[str, Any], discard: bool = is_discard) -> str:
                return ("lay away " + " ".join(option["discard"]) if discard
                        else f"lay {option['card']}")

            yield Decision(
                turn=turn, deal=len(game.deals), seat=seat, player=names[seat],
                decision="discard" if is_discard else "play",
                made=said(made), best=said(best), ranked_by=_ranked_by(advice),
                win_made=made["win"], win_best=best["win"],
                points_made=made[key], points_best=best[key], options=advice.options[:3])
            done += 1
            if progress is not None:
                progress(done, total)
        game.apply(action, seat)
