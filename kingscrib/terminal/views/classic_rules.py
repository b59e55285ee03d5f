"""The rules of Cribbage in short, with the options of the game in force: what the
classic terminal game's ``rules`` command shows (a table that fits 80 columns)."""

from __future__ import annotations

from rich.table import Table

from kingscrib.classic.rules import DOUBLE_SKUNK_LINE, SKUNK_LINE, WINNING_SCORE, RuleSet


def rule_lines(rules: RuleSet) -> list[tuple[str, str]]:
    """(topic, rule) rows for a game under ``rules``."""
    deal = (f"{rules.hand_size} cards each; each lays {rules.discards} away to the crib"
            + (", and one card goes to it from the deck" if rules.crib_from_deck else "")
            + "; the crib is the dealer's")
    seats = {2: "two players", 3: "three players, each for themselves",
             4: "four: two partnerships, partners opposite, one score each side"}
    rows = [
        ("goal", f"first to {WINNING_SCORE} points wins, at once, whenever the points come"),
        ("this game", seats[rules.players]),
        ("deal", deal),
        ("starter", "cut after the discards and shared by every hand; a jack pays the dealer 2"
                    " (his heels)"),
        ("the play", "in turn from the dealer's left, each lays a card; the count must not"
                     " pass 31. Peg 2 for 15 and for 31, 2 for a pair (6 three, 12 four), a"
                     " run of 3+ in any order its length; 'go' when you cannot lay: the last"
                     " to lay pegs 1 (2 at 31), then the count starts again"),
        ("the show", "after the play, from the dealer's left, each hand with the starter, then"
                     " the crib: 15s 2 each, pairs 2 each, runs their length, a flush of four"
                     " in hand 4 (five with the starter 5; the crib only with all five), the"
                     " jack of the starter's suit 1 (nobs)"),
        ("counting", "muggins: you claim your hand's points once; points missed, or claimed"
                     " too many, go to the next player" if rules.muggins
         else "the program counts every hand for you (muggins is off)"),
    ]
    if rules.skunk:
        rows.append(("skunk", f"winning against a side under {SKUNK_LINE} counts two games,"
                              f" under {DOUBLE_SKUNK_LINE} three"))
    rows.append(("more", "help lists the commands; `kingscrib rules cribbage` prints every"
                         " rule and its resolutions"))
    return rows


def rules_table(rules: RuleSet) -> Table:
    table = Table(box=None, padding=(0, 2), show_header=False)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for topic, rule in rule_lines(rules):
        table.add_row(topic, rule)
    return table
