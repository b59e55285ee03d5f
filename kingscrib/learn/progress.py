"""Which lessons a learner has finished: ``{"kings": [ids], "cribbage": [ids]}``.

The same shape is kept in a file by the terminal, in the browser's localStorage, and
for an account on the server; :func:`read` checks any of them, :func:`merged` joins
two (a lesson finished anywhere stays finished).
"""

from __future__ import annotations

from typing import Any

from kingscrib.learn import GAMES, lessons

FORMAT = "kingscrib-learn/1"
MAX_ID = 40  # the longest lesson id accepted (ours are far shorter)

Progress = dict[str, list[str]]


def empty() -> Progress:
    return {game: [] for game in GAMES}


def read(data: Any) -> Progress:
    """Progress from JSON data; ValueError saying what is wrong. Ids of lessons this
    version does not have are kept (a newer version may have written them)."""
    if not isinstance(data, dict):
        raise ValueError("progress is a JSON object of games to finished lessons")
    out = empty()
    for game, done in data.items():
        if game == "format":
            continue
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r} in the progress (the games are"
                             f" {', '.join(GAMES)})")
        if not isinstance(done, list) or not all(
                isinstance(i, str) and 0 < len(i) <= MAX_ID for i in done):
            raise ValueError(f"the {game} progress is a list of lesson ids")
        out[game] = sorted(set(done))
    return out


def merged(a: Progress, b: Progress) -> Progress:
    return {game: sorted(set(a.get(game, [])) | set(b.get(game, []))) for game in GAMES}


def finish(progress: Progress, game: str, lesson_id: str) -> Progress:
    """``progress`` with ``lesson_id`` of ``game`` finished (it must be a lesson)."""
    known = {each.id for each in lessons(game)}
    if lesson_id not in known:
        raise ValueError(f"no lesson {lesson_id!r} in {game}")
    return merged(progress, {game: [lesson_id]})


def to_json(progress: Progress) -> dict[str, Any]:
    return {"format": FORMAT, **merged(progress, empty())}
