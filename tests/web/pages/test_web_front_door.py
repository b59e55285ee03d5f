"""The start page's example turn (templates/pages/lobby.html, the "demo" figure) is a
legal Kings Cribbage play, and its count is the engine's: every line's tiles make what
the line says, and the running total it calls out is the hand's score."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from web_support import in_process_client

from kingscrib.counting import card_points
from kingscrib.kings.board import parse_square
from kingscrib.kings.play import check_play
from kingscrib.kings.tiles import Tile
from kingscrib.web import pages

WORDS = {"two": 2, "four": 4, "six": 6, "eight": 8, "ten": 10, "twelve": 12}


class Demo(HTMLParser):
    """The example's tiles (square -> tile, and which are the turn's) and its count lines
    (the words, and the squares each line points at)."""

    def __init__(self) -> None:
        super().__init__()
        self.tiles: dict[str, str] = {}
        self.placed: set[str] = set()
        self.lines: list[tuple[str, list[str]]] = []
        self._square: str | None = None
        self._line: list[str] | None = None
        self._in_demo = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if a.get("id") == "demo":
            self._in_demo = True
        if not self._in_demo:
            return
        if "demo-sq" in classes:
            self._square = a["data-demo-square"]
        elif "tile" in classes and self._square:
            self.tiles[self._square] = a["data-tile"] or ""
            if "placed" in classes:
                self.placed.add(self._square)
        elif tag == "li" and a.get("data-with"):
            self._line = (a["data-with"] or "").split()
            self.lines.append(("", self._line))

    def handle_data(self, data: str) -> None:
        if self._line is not None:
            text, squares = self.lines[-1]
            self.lines[-1] = (text + data, squares)

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self._line = None
        elif tag == "figure":
            self._in_demo = False


def demo() -> Demo:
    parser = Demo()
    parser.feed(pages.html("lobby"))
    return parser


def test_the_example_turn_is_legal_and_scores_what_its_count_says() -> None:
    shown = demo()
    assert shown.placed and shown.tiles.keys() > shown.placed  # laid beside tiles already there
    board = {parse_square(s): Tile.parse(t) for s, t in shown.tiles.items() if s not in shown.placed}
    placed = {parse_square(s): Tile.parse(shown.tiles[s]) for s in shown.placed}
    score = check_play(board, placed)  # raises if the turn were not legal
    (hand,) = score.hands
    assert score.first_play_bonus == score.five_tile_bonus == 0
    count = hand.value.count
    # The running total called out after each fifteen, the pairs and the runs.
    running, expected = 0, []
    for _ in range(count.fifteens):
        running += 2
        expected.append(running)
    running += 2 * count.pairs
    expected.append(running)
    running += count.run_length * count.runs
    expected.append(running)
    said = [next(WORDS[w] for w in text.split() if w in WORDS)
            for text, _ in shown.lines if not text.endswith("points")]
    assert said == expected
    total = [text for text, _ in shown.lines if text.endswith("points")]
    assert total == [f"{score.total} points"]
    assert score.total == running == 12


def test_each_count_line_outlines_the_tiles_it_counts() -> None:
    shown = demo()
    ranks = {s: Tile.parse(t).rank for s, t in shown.tiles.items()}
    for text, squares in shown.lines:
        values = sorted(ranks[s] for s in squares)
        if text.startswith("Fifteen"):
            assert sum(card_points(r) for r in values) == 15, text
        elif "pair" in text:
            assert len(values) == 2 and values[0] == values[1], text
        elif "double run of three" in text:
            assert len(set(values)) == 3 and len(values) == 4, text
            assert max(values) - min(values) == 2, text


@pytest.fixture()
def client(tmp_path):
    with in_process_client(f"sqlite:///{tmp_path / 'web.sqlite3'}") as c:
        yield c


@pytest.mark.parametrize(("path", "shown"), [
    ("/", True), ("/?account=login", True), ("/?game=abc", False),
    ("/?game=abc&invite=xyz", False), ("/?replay=file", False)])
def test_the_front_door_is_in_the_page_itself_and_a_game_is_left_to_its_script(
        client, path: str, shown: bool) -> None:
    class Lobby(HTMLParser):
        hidden: bool | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if dict(attrs).get("id") == "lobby":
                self.hidden = "hidden" in dict(attrs)

    reply = client.get(path)
    assert reply.status_code == 200
    lobby = Lobby()
    lobby.feed(reply.text)
    assert lobby.hidden is (not shown)
