"""kingscrib.common.wrap: rows no wider than asked, broken only between words, numbers
and cards whole, operators kept with their numbers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from kingscrib.common.wrap import NO_BREAK, OPERATORS, wrap_words


def test_a_worked_example_at_40_columns():
    text = ("Best: lay away 7S 8H, keep AC 3H 4D 5C: hand 7.11 expected, your crib"
            " +6.95 = 14.06 (the four count 3 before the starter).")
    assert wrap_words(text, 40) == [
        "Best: lay away 7S 8H, keep AC 3H 4D 5C:",
        "hand 7.11 expected, your crib",
        "+6.95 = 14.06 (the four count 3 before",
        "the starter).",
    ]


def test_a_no_break_space_joins_and_comes_back_as_a_space():
    assert wrap_words(f"aaaa play{NO_BREAK}G7{NO_BREAK}across", 12) == ["aaaa", "play G7 across"]


def test_a_word_wider_than_the_row_stands_alone_and_lines_stay_lines():
    assert wrap_words("a 0123456789 b\n  c d", 5) == ["a", "0123456789", "b", "  c d"]


words = st.one_of(st.text(alphabet="0123456789.+-=x♠♥AKQJT", min_size=1, max_size=8),
                  st.sampled_from(sorted(OPERATORS)))


@given(st.lists(words, min_size=1, max_size=40), st.integers(min_value=10, max_value=120))
def test_rows_fit_and_keep_every_word_whole(text_words, width):
    rows = wrap_words(" ".join(text_words), width)
    assert " ".join(rows).split(" ") == text_words
    for row in rows:
        if cell_len(row) > width:  # only a group no space of which may break
            parts = row.split(" ")
            assert all(a in OPERATORS or b in OPERATORS for a, b in zip(parts, parts[1:]))
    for row, after in zip(rows, rows[1:]):  # a break never leaves an operator alone
        assert row.split(" ")[-1] not in OPERATORS and after.split(" ")[0] not in OPERATORS
