"""OpenSpiel's ISMCTS as a player of the engine, for the arena (``ismcts``).

:class:`CribbageIsmcts` is given a seat's view, as every player is, and searches from a
``kingscrib_cribbage`` state the seat cannot tell from it (:func:`state_from_view`):
the current deal replayed with the cards it has not seen dealt at random (every go it saw
respected), the earlier deals summed up in the scores. OpenSpiel's
:class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot` then resamples the unseen cards
at every simulation (``resample_from_infostate``) and values a leaf by a rollout to the
end of the deal (:class:`~kingscrib.spiel.evaluators.DealRolloutEvaluator`), as
``examples/openspiel_ismcts.py`` does. Two seats.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from kingscrib.classic.cards import Card, deck
from kingscrib.classic.game import Action, Discard, PlayerView
from kingscrib.core import IllegalAction
from kingscrib.env.cribbage import GO
from kingscrib.players.classic.base import perfect_claim
from kingscrib.spiel.cribbage import CribbageGame, CribbageState, engine_index

SIMULATIONS = 50  # the arena's budget a move
UCT_C = 0.1  # values are 2 P(win) - 1 (see examples/openspiel_ismcts.py)
ROLLOUT = "easy"
MAX_DRAWS = 2_000


def _replay(game: CribbageGame, view: PlayerView, theirs: list[Card],
            scores: tuple[int, ...]) -> CribbageState:
    """The deal of ``view`` with the other seat dealt ``theirs`` (its six cards, in the
    order: laid in the play, held, laid away), from ``scores``; ValueError (or
    IllegalAction) where the seat's view cannot come of it."""
    seat, other = view.seat, 1 - view.seat
    mine = list(view.kept or view.hand) + list(view.discards)
    hands = {seat: mine, other: theirs}
    state = game.new_initial_state()
    state.initial_scores = scores
    state.apply_action(view.dealer)
    counts = {0: 0, 1: 0}
    for k in range(state.cards_to_deal()):
        to = state.dealt_to(k)
        assert to is not None
        state.apply_action(hands[to][counts[to]].number)
        counts[to] += 1
    # The lay-aways: ours as we made it, theirs the last two of their six.
    lay_aways = {seat: list(view.discards), other: theirs[4:]}
    while state.phase() == "discard" and not state.is_chance_node():
        mover = state.current_player()
        if mover == seat and not view.discards:
            return state  # we are to lay away
        state.apply_action(engine_index(Discard(tuple(lay_aways[mover]))))
    if state.is_chance_node():
        if view.starter is None:
            raise ValueError("the starter is not cut in the view")
        state.apply_action(view.starter.number)
    for who, card in view.played:
        while state.legal_actions() == [GO]:  # the gos the engine said for the seats
            state.apply_action(GO)
        if state.current_player() != who:
            raise ValueError("a seat that said go could lay a card")
        state.apply_action(card.number)
    # the gos the engine said for the seats since (ours too, before we lead again)
    while not state.is_terminal() and state.legal_actions() == [GO]:
        state.apply_action(GO)
    if state.current_player() != seat:
        raise ValueError("the other seat could lay a card")
    return state


def state_from_view(game: CribbageGame, view: PlayerView,
                    rng: random.Random) -> CribbageState:
    """A two-seat state at ``view``'s decision that the seat cannot tell from the game it
    is in: its own cards, the starter, every card laid and every go as it saw them, the
    scores as they stand, the other seat's unseen cards drawn at random."""
    if view.rules.players != 2:
        raise ValueError("ISMCTS plays the two-seat game")
    other = 1 - view.seat
    laid = [c for s, c in view.played if s == other]
    seen = set(view.hand) | set(view.kept) | set(view.discards) | {c for _, c in view.played}
    if view.starter is not None:
        seen.add(view.starter)
    unseen = [c for c in deck() if c not in seen]
    for _ in range(MAX_DRAWS):
        rest = rng.sample(unseen, 6 - len(laid))
        theirs = laid + rest
        try:
            trial = _replay(game, view, theirs, (0, 0))
            # the deal's points so far (pegging, his heels) came on top of the scores
            pegged = trial.engine.scores if trial.engine is not None else [0, 0]
            start = tuple(s - p for s, p in zip(view.scores, pegged))
            state = _replay(game, view, theirs, start)
        except (ValueError, IllegalAction):
            continue
        if state.current_player() == view.seat:
            return state
    raise RuntimeError("no deal agrees with the seat's view")


class CribbageIsmcts:
    """OpenSpiel's ISMCTS (``simulations`` a move, rollouts by ``rollout``'s moves)."""

    def __init__(self, seed: int | None = None, simulations: int = SIMULATIONS,
                 rollout: str = ROLLOUT, uct_c: float = UCT_C) -> None:
        from kingscrib.spiel.evaluators import DealRolloutEvaluator

        self.name = f"ismcts-{simulations}"
        self.rng = random.Random(seed)
        self.game = pyspiel.load_game("kingscrib_cribbage")
        assert isinstance(self.game, CribbageGame)
        self.bot = ismcts.ISMCTSBot(
            self.game, DealRolloutEvaluator(rng=self.rng, policy=rollout), uct_c=uct_c,
            max_simulations=simulations,
            random_state=np.random.RandomState(self.rng.randrange(2**31)),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            use_observation_string=True)
        self.bot.set_resampler(
            lambda state, player: state.resample_from_infostate(player, None, self.rng))

    def choose(self, view: PlayerView) -> Action:
        if view.phase == "show":
            return perfect_claim(view)
        if len(view.legal) == 1:
            return view.legal[0]
        state = state_from_view(self.game, view, self.rng)
        index = self.bot.step(state)
        return next(a for a in view.legal if engine_index(a) == index)


__all__ = ["CribbageIsmcts", "state_from_view"]
