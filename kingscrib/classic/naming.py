"""How a person names cards of a hand: one grammar for the Cribbage game, the lessons,
the puzzles and the command line.

Each word of the answer (words are split on spaces and commas) is one of:

* a card, rank then suit: ``5H``, ``5h``, ``5♥``, ``10S``, ``TS``; always that card;
* ``#`` and a place: ``#3`` is the third card of the hand as it is shown;
* a rank alone: ``7``, ``J``, ``A``, ``10``/``T``, when the hand holds one card of that
  rank (``5 5`` names both fives);
* a bare number that is no rank of the hand (``1``, or ``4`` without a four) is a place.

A bare number that is both (the hand holds a card of that rank, and the card at that
place is another) is never guessed: :class:`WhichCards`, a ``ValueError``, asks which
was meant and says what to type for each.

>>> from kingscrib.classic.cards import parse_cards
>>> hand = parse_cards("2S 3S 5S 6S 7H 9S")
>>> [c.pretty() for c in read_cards("#2 #3", hand)], [c.pretty() for c in read_cards("9 7h", hand)]
(['3♠', '5♠'], ['9♠', '7♥'])
>>> read_cards("2 3", hand)
Traceback (most recent call last):
...
kingscrib.classic.naming.WhichCards: 2 3: the ranks 2♠ 3♠, or the places #2 #3 (3♠ 5♠)? Type 2♠ 3♠ or #2 #3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kingscrib.classic.cards import SUIT_OF_SYMBOL, SUITS, Card
from kingscrib.counting import parse_rank, rank_char

GRAMMAR = ("a card is 5♥ or 5h (10♠, ts), a rank alone (7, J) when you hold one of that"
           " rank, or #3 for the third card shown; a bare number that is no rank in your"
           " hand is a place; when it could be either you are asked which")


class WhichCards(ValueError):
    """The answer could name two sets of cards: the message asks which was meant."""

    def __init__(self, question: str, by_rank: str, by_place: str) -> None:
        super().__init__(question)
        self.by_rank = by_rank  # what to type for the ranks
        self.by_place = by_place  # what to type for the places


@dataclass(frozen=True)
class _Word:
    text: str
    card: Card | None = None  # the one card it names, when it names one
    ranks: tuple[Card, ...] = ()  # read as a rank: the cards of that rank (ambiguous)
    place: Card | None = None  # read as a place (ambiguous)


def _is_card(word: str) -> bool:
    last = word.upper().replace("\ufe0f", "")[-1:]
    return len(word) >= 2 and (last in SUITS or last in SUIT_OF_SYMBOL)


def _read_word(word: str, hand: Sequence[Card], named: Sequence[Card]) -> _Word:
    places = f"#1-#{len(hand)}" if len(hand) > 1 else "#1"
    if word.startswith("#"):
        number = word[1:]
        if not number.isdigit() or not 1 <= int(number) <= len(hand):
            raise ValueError(f"{word} is no place in your hand ({places})")
        return _Word(word, card=hand[int(number) - 1])
    if _is_card(word):
        card = Card.parse(word)
        if card not in hand:
            raise ValueError(f"{card.pretty()} is not in your hand")
        return _Word(word, card=card)
    place = (hand[int(word) - 1] if word.isdigit() and 1 <= int(word) <= len(hand)
             else None)
    try:
        rank = parse_rank(word)
    except ValueError:
        if place is not None:
            return _Word(word, card=place)
        if word.lower() == "go":
            raise ValueError("no need to say go: it is said for you when no card can be"
                             " laid; lay a card") from None
        if word.isdigit():
            raise ValueError(f"{word} is no rank and no place in your hand ({places})"
                             ) from None
        raise ValueError(f"{word!r} is not a card: {GRAMMAR}") from None
    options = tuple(c for c in hand if c.rank == rank and c not in named)
    if place is not None and (len(options) > 1 or (options and options[0] != place)):
        return _Word(word, ranks=options, place=place)
    if len(options) == 1:
        return _Word(word, card=options[0])
    if place is not None:  # no card of that rank: the number is a place
        return _Word(word, card=place)
    if not options:
        also = f", and {word} is no place in it ({places})" if word.isdigit() else ""
        raise ValueError(f"your hand holds no {rank_char(rank)}{also}")
    raise ValueError(f"your hand holds {len(options)} {rank_char(rank)}s: write which,"
                     f" e.g. {options[0].pretty()} or {options[0]}")


def _question(words: Sequence[_Word]) -> WhichCards:
    said = " ".join(w.text for w in words)
    by_rank = " ".join(w.card.pretty() if w.card is not None
                       else " or ".join(c.pretty() for c in w.ranks) for w in words)
    by_place = " ".join(w.card.pretty() if w.card is not None else f"#{w.text}"
                        for w in words)
    places = " ".join(w.card.pretty() if w.card is not None
                      else w.place.pretty() if w.place is not None else "" for w in words)
    ranks = "the rank" + ("s" if len(words) > 1 else "")
    where = "the place" + ("s" if sum(w.card is None for w in words) > 1 else "")
    return WhichCards(f"{said}: {ranks} {by_rank}, or {where} {by_place} ({places})?"
                      f" Type {by_rank} or {by_place}.", by_rank, by_place)


def read_cards(text: str, hand: Sequence[Card]) -> list[Card]:
    """The cards of ``hand`` (in the order it is shown) that ``text`` names, in the order
    named; ValueError saying what is wrong, :class:`WhichCards` asking which was meant."""
    words: list[_Word] = []
    for word in text.replace(",", " ").split():
        named = [w.card for w in words if w.card is not None]
        words.append(_read_word(word, hand, named))
    if not words:
        raise ValueError("name at least one card")
    if any(w.card is None for w in words):
        raise _question(words)
    cards = [w.card for w in words if w.card is not None]
    twice = next((c for c in cards if cards.count(c) > 1), None)
    if twice is not None:
        raise ValueError(f"{twice.pretty()} is named twice")
    return cards


__all__ = ["GRAMMAR", "WhichCards", "read_cards"]
