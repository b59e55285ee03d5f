"""The Kings Cribbage lessons and their checker.

Every answer is read and scored by the engine (:class:`kingscrib.kings.position.Position`):
an illegal play is refused with the engine's reason, a legal one is described by its
breakdown, and the step's goal is a question asked of that breakdown (does a hand of the
play hold these ranks, does it form two hands, does it earn the five-tile bonus...).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kingscrib.common.people import hand_text, tiles_text
from kingscrib.kings.hands import parse_hand
from kingscrib.kings.moves import Exchange, Pass, Play
from kingscrib.kings.play import IllegalPlay, PlayScore
from kingscrib.kings.position import Position
from kingscrib.kings.rules import RuleSet
from kingscrib.kings.tiles import RACK_SIZE
from kingscrib.learn.lesson import MOVE, NUMBER, Lesson, Step, Verdict


def _step(task: str, board: dict[str, str], rack: list[str], goal: tuple[str, Any],
          intended: str, hint: str = "", bag: int = 40, answer: str = MOVE,
          **extra: Any) -> Step:
    setup = {"board": board, "rack": rack, "bag": bag, **extra}
    return Step("kings", answer, task, setup, goal, intended, hint)


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "valid-hands", "kings", "A valid hand",
        "A hand is an unbroken row or column of 2 to 5 tiles. It scores as in Cribbage:"
        " 2 for each set of tiles adding up to 15 (A counts 1, 10 J Q K count 10), 2 for"
        " each pair, and 1 a tile for a run of 3 or more.\n"
        "A hand is valid only when every tile in it takes part in a fifteen, a pair or the"
        " run. K 6 9 K scores 4 (6+9, the two kings), J J 5 scores 6 (two fifteens, a"
        " pair), 9 8 7 9 9 scores 17. 6 6 6 10 is invalid: the 10 scores nothing. 6 7 6 8"
        " 7 8 is never allowed: a line holds at most 5 tiles.",
        (
            _step("Lay a 6, a 9 and a K in the row of the king on G7 to make the hand"
                  " K 6 9 K.", {"G6": "5L", "G7": "KL"}, ["6L", "6D", "KD"],
                  ("hand", "K69K"), "H7 across 6 9 K",
                  "Your two 6/9 tiles can be a 6 and a 9: 6 + 9 = 15."),
            _step("Add a jack to make the hand J J 5.", {"G7": "JL", "H7": "5D"},
                  ["JD", "8D"], ("hand", "JJ5"), "F7 J",
                  "Put the jack at either end of the row J 5."),
        ),
    ),
    Lesson(
        "touching", "kings", "Laying a hand on the board",
        "After the first play, every play touches a tile already on the board, lies in one"
        " row or column and leaves no gap. You score the whole of every hand your play"
        " forms or extends, the tiles already there included: 7 8 on the board extended"
        " to 7 8 3 3 scores 4. A tile laid beside two lines forms two hands, and scores"
        " both.",
        (
            _step("Extend the hand 7 8 with your two 3s to make 7 8 3 3.",
                  {"G7": "7L", "H7": "8D"}, ["3L", "3D", "KD"], ("hand", "7833"),
                  "I7 across 3 3", "Lay both 3s in row 7, touching the 7 8."),
            _step("Lay one tile that forms two hands at once, across and down.",
                  {"G7": "7L", "H7": "8D", "H8": "7D"}, ["8L", "KD"], ("hands", 2),
                  "G8 8", "The empty corner square beside the 7 on H8 and under the 7 on G7."),
        ),
    ),
    Lesson(
        "bonuses", "kings", "Bonuses",
        "Three bonuses of 10 each: the first play of the game; playing all five tiles in"
        " one turn; and a hand of exactly five tiles all of one colour (light or dark),"
        " which you earn whenever your play forms or extends such a hand. The first play"
        " is 2 to 5 tiles forming one hand, anywhere on the empty board.",
        (
            _step("Make the first play with all five light tiles in one line, to earn all"
                  " three bonuses.", {}, ["7L", "7L", "8L", "8L", "6L"],
                  ("bonuses", ["first", "five", "flush"]), "G7 across 8 7 8 7 9",
                  "9 8 7 8 7 is a valid hand; so is 6 7 7 8 8."),
        ),
    ),
    Lesson(
        "six-nine", "kings", "The 6/9 tiles",
        "A 6 turned upside down is a 9. On your rack a 6/9 tile is both; you choose its"
        " face when you lay it, and it keeps that face. Type 6 or 9 when you play it (on"
        " the board, the / key turns it).",
        (
            _step("Use your 6/9 tile to make a fifteen with the two 3s.",
                  {"G7": "3L", "H7": "3D"}, ["6D", "TD"], ("nine", None), "I7 9",
                  "3 + 3 + 9 = 15; as a 6 it would score nothing."),
        ),
    ),
    Lesson(
        "exchange-pass", "kings", "Exchanging and passing",
        "Instead of playing you may exchange 1 to 5 tiles with the bag (only when the bag"
        " holds at least as many) or pass. Both score nothing. When your rack has no play,"
        " exchanging the tiles that do not fit is usually better than passing.",
        (
            _step("No tile of yours can be played here. Exchange one or more tiles.",
                  {"G7": "KL", "H7": "5D"}, ["AL", "3L", "8L"], ("exchange", None),
                  "exchange A 3 8", "Type exchange and the tiles, e.g. exchange 8."),
            _step("The bag is empty and you have no play: pass.",
                  {"G7": "KL", "H7": "5D"}, ["2D", "4D", "7D"], ("pass", None), "pass",
                  "With an empty bag there is nothing to exchange with.", bag=0),
        ),
    ),
    Lesson(
        "the-end", "kings", "The end of the game",
        "Once the bag is empty, the game ends as soon as a player has no tiles left, or"
        " when every player passes in turn. Then each player loses the points of the"
        " tiles left on the rack (A 1, 10 J Q K 10, a 6/9 counts 6). Going out saves"
        " those points.",
        (
            _step("The bag is empty. Play all your tiles to go out.",
                  {"G7": "7L", "H7": "8D"}, ["3L", "3D", "5L"], ("out", None),
                  "I7 across 3 3 5", "7 8 3 3 5 is a valid hand of five.", bag=0),
        ),
    ),
    Lesson(
        "variants", "kings", "Variants in brief",
        "Joker (the muggins of Cribbage): you claim the points of your own play; if you"
        " claim too few, the next player may call \"Joker!\" and take the missed points (a"
        " call when nothing was missed costs 5); claim too many and the next player takes"
        " the excess.\n"
        "Servant: after every round the player with the lowest score is named the Servant.\n"
        "Solitaire (two players): the light and dark tiles are in two bags; the Light"
        " seat draws only light tiles and the Dark seat only dark ones.",
        (
            _step("Joker rule: you play I7 across 3 3, making 7 8 3 3. Claim its points:"
                  " type the number.", {"G7": "7L", "H7": "8D"}, ["3L", "3D"],
                  ("claim", "I7 across 3 3"), "4", "7 + 8 = 15, and a pair of 3s.",
                  answer=NUMBER),
        ),
    ),
)


def position_of(step: Step) -> Position:
    """The step's prepared position (the rules, Joker or not, do not change a score)."""
    setup = step.setup
    return Position.from_json({"board": setup["board"], "rack": setup["rack"],
                               "bag": setup.get("bag"), "rules": RuleSet().to_json()})


def read_action(position: Position, answer: object) -> Play | Exchange | Pass:
    """A typed move (``H7 across 6 9 K``, ``exchange 8``, ``pass``) or a play as
    ``{"tiles": {"H7": "6L"}}`` laid on the page's board; ValueError saying why not."""
    if isinstance(answer, dict):
        return Play.from_json(answer)
    if not isinstance(answer, str) or not answer.strip():
        raise ValueError("type a move, e.g. H7 across 6 9 K, exchange 8 or pass")
    return position.parse(answer)


def played_tiles(step: Step, answer: object) -> dict[str, str] | None:
    """The squares and tiles of a right answer that is a play (for the page to lay it),
    or None for an exchange or a pass."""
    action = read_action(position_of(step), answer)
    return action.tiles_json() if isinstance(action, Play) else None


def exchange_problem(position: Position, exchange: Exchange) -> str | None:
    """Why ``exchange`` cannot be made from this position (RULES.md "A turn" 2), or None."""
    count = len(exchange.tiles)
    if not 1 <= count <= RACK_SIZE:
        return f"exchange 1 to {RACK_SIZE} tiles, not {count}"
    missing = Counter(exchange.tiles) - Counter(t.held() for t in position.rack)
    if missing:
        return f"{tiles_text(sorted(missing))} is not on your rack"
    bag = position.bag or 0
    if bag < count:
        return f"the bag holds {bag} tile{'s' if bag != 1 else ''}, fewer than {count}"
    return None


def _hand_ranks(score: PlayScore) -> list[list[int]]:
    return [sorted(t.rank for t in hand.tiles) for hand in score.hands]


def goal_missed(step: Step, position: Position, play: Play, score: PlayScore) -> str | None:
    """What a legal play fails to do of the step's goal, or None when it does it."""
    kind, wanted = step.goal
    if kind == "hand":
        target = sorted(parse_hand(wanted))
        if target in _hand_ranks(score):
            return None
        return f"the task asks for the hand {hand_text(target)}"
    if kind == "hands":
        if len(score.hands) >= wanted:
            return None
        return f"it forms {len(score.hands)} hand; the task asks for {wanted} at once"
    if kind == "nine":
        if any(tile.rank == 9 for tile in play.placed.values()):
            return None
        return "it lays no 9: turn your 6/9 tile over"
    if kind == "bonuses":
        earned = {"first": score.first_play_bonus > 0, "five": score.five_tile_bonus > 0,
                  "flush": any(hand.flush for hand in score.hands)}
        names = {"first": "first-play", "five": "five-tile", "flush": "one-colour five"}
        missed = [names[b] for b in wanted if not earned[b]]
        return f"it misses the {' and '.join(missed)} bonus" if missed else None
    if kind == "out":
        left = Counter(t.held() for t in position.rack) - Counter(
            t.held() for t in play.placed.values())
        if not left:
            return None
        tiles = sorted(left.elements())
        penalty = sum(t.penalty for t in tiles)
        return f"it leaves {tiles_text(tiles)} on your rack: {penalty} off at the end"
    return f"the task asks you to {kind}, not to play"


def _check_move(step: Step, answer: object) -> Verdict:
    position = position_of(step)
    kind = step.goal[0]
    try:
        action = read_action(position, answer)
    except ValueError as e:
        return Verdict(False, f"Not a move: {e}")
    if isinstance(action, Pass):
        if kind == "pass":
            return Verdict(True, "Right: with no play and nothing to exchange, you pass.")
        return Verdict(False, "Passing scores nothing, and the task asks for more.")
    if isinstance(action, Exchange):
        problem = exchange_problem(position, action)
        if problem:
            return Verdict(False, f"You cannot exchange: {problem}.")
        if kind == "exchange":
            return Verdict(True, f"Right: you swap {tiles_text(action.tiles)} for new tiles"
                                 " from the bag.")
        return Verdict(False, "Exchanging scores nothing, and the task asks for more.")
    try:
        score = position.check(action)
    except IllegalPlay as e:
        return Verdict(False, f"Not allowed: {e}.")
    breakdown = tuple(hand.describe() for hand in score.hands) + tuple(
        f"{name} {points}" for name, points in (("five tiles", score.five_tile_bonus),
                                                ("first play", score.first_play_bonus))
        if points)
    if kind in ("exchange", "pass"):
        return Verdict(False, f"That play is legal and scores {score.total}, but the"
                              f" task asks you to {kind}.", breakdown)
    missed = goal_missed(step, position, action, score)
    if missed:
        return Verdict(False, f"Legal, for {score.total}; but {missed}.", breakdown)
    return Verdict(True, f"Well done: {score.total} points.", breakdown)


def _check_claim(step: Step, answer: object) -> Verdict:
    position = position_of(step)
    play = position.parse(step.goal[1])
    assert isinstance(play, Play)
    score = position.check(play)
    breakdown = tuple(hand.describe() for hand in score.hands)
    text = str(answer).strip()
    if not text.isdecimal():
        return Verdict(False, "Type the number of points you claim, e.g. 6.")
    claimed = int(text)
    if claimed == score.total:
        return Verdict(True, f"Right: {score.total} points, and nobody can call Joker.",
                       breakdown)
    if claimed < score.total:
        return Verdict(False, f"You claim {claimed}: the next player could call Joker and"
                              f" take the {score.total - claimed} you missed.", breakdown)
    return Verdict(False, f"The play is worth less than {claimed}: it scores you its"
                          f" {score.total}, and the next player takes the"
                          f" {claimed - score.total} you claimed above it.", breakdown)


def check_step(step: Step, answer: object) -> Verdict:
    if step.answer == NUMBER:
        return _check_claim(step, answer)
    return _check_move(step, answer)


__all__ = ["LESSONS", "check_step", "exchange_problem", "goal_missed",
           "position_of", "read_action"]
