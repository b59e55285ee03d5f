"""Pure drawing for the Kings terminal game: board, rack, scores, plays, the session's
screen and the messages of its replies -> rich renderables.

Nothing here reads input, prints or changes a game. ``plain=True`` draws for a
terminal without colour: tiles are then written with their colour letter
(``7L``, ``7D``) and the tiles of the last play are marked with ``*``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kingscrib.counting import rank_char
from kingscrib.kings.board import (
    CENTRE,
    COLUMN_LETTERS,
    PATCH_COLUMNS,
    PATCH_ROWS,
    SIZE,
    Square,
)
from kingscrib.kings.game import Game, Turn
from kingscrib.kings.moves import Play
from kingscrib.kings.notation import format_play
from kingscrib.kings.play import PlayScore
from kingscrib.kings.rules import EXCHANGE_WHEN_STUCK, RuleSet
from kingscrib.kings.tiles import DARK, LIGHT, Tile
from kingscrib.players.kings.defence import DEFENCE_WEIGHT
from kingscrib.terminal.controllers.kings import (
    KINGS_GOAL,
    MOVE,
    FinalBoard,
    GameResult,
    Hints,
    KingsRules,
    MatchScores,
    Session,
    TurnSaid,
    overclaim_text,
    play_notation,
)
from kingscrib.terminal.controllers.reply import Message
from kingscrib.terminal.views.lines import GOOD_STYLE, line_text

CELL = 3  # characters per board square
LIGHT_STYLE = "bold grey11 on wheat1"
DARK_STYLE = "bold bright_white on #7b3f12"
MARK_STYLE = {LIGHT: "bold red3 on wheat1", DARK: "bold yellow1 on #7b3f12"}
TILE_STYLE = {LIGHT: LIGHT_STYLE, DARK: DARK_STYLE}
EMPTY_STYLE = "grey42"
DRAFT_STYLE = {LIGHT: "bold grey11 on #f5d76e", DARK: "bold bright_white on #b8651b"}
CURSOR_STYLE = "reverse"
LABEL_STYLE = "bold cyan"
PATCH_STYLE = "bold magenta"
PATCH_TEXT = ("  KINGS  ", " CRIBBAGE")


def tile_cell(tile: Tile, marked: bool = False, plain: bool = False) -> Text:
    """One board square holding ``tile`` (``marked``: part of the last play)."""
    face = rank_char(tile.rank)
    if plain:
        return Text(f"{'*' if marked else ' '}{face}{tile.colour}")
    if marked:
        text = Text("[", style=MARK_STYLE[tile.colour])
        text.append(face, style=TILE_STYLE[tile.colour])
        text.append("]", style=MARK_STYLE[tile.colour])
        return text
    return Text(f" {face} ", style=TILE_STYLE[tile.colour])


def render_board(board: Mapping[Square, Tile], marked: Iterable[Square] = (),
                 plain: bool = False, cursor: Square | None = None,
                 draft: Mapping[Square, Tile] | None = None) -> Text:
    """The 13 x 13 board with column letters A-M and row numbers 1-13 on every side;
    ``draft`` tiles are laid but not played, ``cursor`` is the square the keys act on."""
    marked = set(marked)
    draft = draft or {}
    out = Text()
    header = Text("    ")
    for letter in COLUMN_LETTERS:
        header.append(letter.center(CELL), style=LABEL_STYLE)
    out.append_text(header)
    out.append("\n")
    for row in range(SIZE):
        out.append(f"{row + 1:>3} ", style=LABEL_STYLE)
        column = 0
        while column < SIZE:
            if row < PATCH_ROWS and column == 0:
                out.append(PATCH_TEXT[row].ljust(PATCH_COLUMNS * CELL), style=PATCH_STYLE)
                column = PATCH_COLUMNS
                continue
            square = row * SIZE + column
            tile = board.get(square)
            if square in draft:
                cell = Text(f"<{rank_char(draft[square].rank)}{draft[square].colour}"[:3]
                            if plain else f"‹{rank_char(draft[square].rank)}›",
                            style=DRAFT_STYLE[draft[square].colour])
            elif tile is not None:
                cell = tile_cell(tile, square in marked, plain)
            else:
                cell = Text(" + " if square == CENTRE else " · ", style=EMPTY_STYLE)
            if square == cursor:
                cell.stylize(CURSOR_STYLE)
            out.append_text(cell)
            column += 1
        out.append(f" {row + 1:<3}", style=LABEL_STYLE)
        out.append("\n")
    out.append_text(header)
    return out


def tile_chip(tile: Tile, plain: bool = False) -> Text:
    """A rack tile: a 6/9 tile shows ``6/9``."""
    face = "6/9" if tile.is_six_nine else rank_char(tile.rank)
    if plain:
        return Text(f"{face}{tile.colour}")
    return Text(f" {face} ", style=TILE_STYLE[tile.colour])


def rack_codes(rack: Sequence[Tile]) -> str:
    """The codes of a rack's tiles in the rack's order (``7L AD 6/9D``)."""
    return " ".join(("6/9" + t.colour) if t.is_six_nine else str(t)
                    for t in sorted(rack, key=lambda t: (t.rank, t.colour)))


def render_rack(rack: Sequence[Tile], plain: bool = False, selected: int | None = None,
                codes: bool = True) -> Text:
    """The tiles of a rack side by side, then (``codes``) their codes (``7L AD 6/9D``);
    the tile at ``selected`` (in sorted order) is picked for placing."""
    out = Text()
    for i, tile in enumerate(sorted(rack, key=lambda t: (t.rank, t.colour))):
        if i:
            out.append(" ")
        chip = tile_chip(tile, plain)
        if i == selected:
            chip.stylize("reverse underline")
        out.append_text(chip)
    if not rack:
        out.append("(empty)", style="dim")
    elif codes and not plain:
        out.append(f"   {rack_codes(rack)}", style="dim")
    return out


def bag_text(game: Game) -> str:
    if game.rules.solitaire:
        return f"light bag {len(game.bags[0])}, dark bag {len(game.bags[1])}"
    n = game.tiles_in_bags
    return f"{n} tile{'s' if n != 1 else ''} in the bag"


def render_scores(game: Game, tags: Sequence[str] = (), to_move: int | None = None,
                  totals: Sequence[int] | None = None,
                  match_servant: int | None = None) -> Table:
    """One line per seat: name (with a tag such as the level), score, rack size, the
    Servant; ``totals`` adds the match totals before this game."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 1))
    table.add_column("", width=1)
    table.add_column("player", style="bold")
    table.add_column("score", justify="right")
    if totals is not None:
        table.add_column("match", justify="right")
    table.add_column("tiles", justify="right")
    table.add_column("")
    final = game.final_scores
    for seat, name in enumerate(game.names):
        label = Text(name)
        if seat < len(tags) and tags[seat]:
            label.append(f" {tags[seat]}", style="dim")
        if game.rules.solitaire:
            label.append(" (Light)" if seat == 0 else " (Dark)", style="dim")
        notes = Text()
        if game.rules.servant and game.servant == seat:
            notes.append("Servant", style="bold yellow")
        if match_servant == seat:
            notes.append(" match Servant" if notes else "match Servant", style="yellow")
        row: list[RenderableType] = [
            Text("▶", style="bold green") if seat == to_move else Text(""),
            label, Text(str(final[seat]), style="bold")]
        if totals is not None:
            row.append(Text(str(totals[seat] + final[seat])))
        row += [Text(str(len(game.racks[seat])), style="dim"), notes]
        table.add_row(*row)
    return table


def describe_score(score: PlayScore) -> list[str]:
    """The breakdown of a play, one line per hand, then the bonuses."""
    lines = [h.describe() for h in score.hands]
    if score.five_tile_bonus:
        lines.append(f"five tiles: {score.five_tile_bonus}")
    if score.first_play_bonus:
        lines.append(f"first play: {score.first_play_bonus}")
    return lines


def render_turn(game: Game, turn: Turn, name: str, hide_breakdown: bool = False,
                own: bool = False, correction: bool = True) -> Text:
    """What happened on ``turn`` (the board drawn as it is now), with the breakdown.

    Under the joker rule ``hide_breakdown`` keeps the true value hidden while the
    next player may still call Joker. ``own``: the player who took the turn is looking,
    so an exchange shows the tiles returned and drawn. ``correction``: say how an
    over-claim was corrected (left out where it is said on its own)."""
    out = Text()
    if turn.action == "pass":
        out.append(f"{name} passed.")
        return out
    if turn.action == "exchange":
        n = len(turn.returned)
        out.append(f"{name} exchanged {n} tile{'s' if n != 1 else ''}")
        if own:
            out.append(f" ({' '.join(map(str, turn.returned))}) and drew "
                       f"{' '.join(map(str, turn.drew))}")
        out.append(".")
        return out
    out.append(f"{name} played ")
    out.append(play_notation(turn, game.board), style="bold")
    if turn.claimed is not None:
        if hide_breakdown:
            out.append(f", claiming {turn.claimed}.")
            out.append("\n  Count it: type joker if points were missed.", style="dim")
        else:
            out.append(f" for {turn.score}")
            out.append(f" (claimed {turn.claimed})" if turn.claimed != turn.score
                       else " (claimed in full)", style="dim")
            out.append(".")
            if turn.overclaim is not None and correction:
                out.append("\n  " + overclaim_text(turn, name,
                                                   game.names[turn.overclaim["player"]]),
                           style="yellow")
    else:
        out.append(f" for {turn.score}.")
    if turn.detail is not None and not hide_breakdown:
        for line in describe_score(turn.detail):
            out.append(f"\n  {line}", style="dim")
    if turn.joker is not None:
        caller = game.names[turn.joker["caller"]]
        points = turn.joker["points"]
        if points > 0:
            out.append(f"\n  Joker! {caller} took {points} missed point"
                       f"{'s' if points != 1 else ''}.", style="yellow")
        else:
            out.append(f"\n  {caller} called Joker but nothing was missed: {points}.",
                       style="yellow")
    return out


def render_result(game: Game, names: Sequence[str] | None = None) -> Table:
    """The end of a game: scores, rack penalties, final scores, the winner."""
    assert game.end is not None
    names = list(names or game.names)
    out = [names[s] for s in range(len(names)) if not game.racks[s]]
    reasons = {"out": f"{' and '.join(out) or 'a player'} went out",
               "blocked": "everybody passed with the bag empty",
               "scoreless": "three rounds went by without a score"}
    table = Table(title=f"Game over: {reasons.get(game.end.reason, game.end.reason)}",
                  title_style="bold", box=None, padding=(0, 2))
    table.add_column("player", style="bold")
    table.add_column("score", justify="right")
    table.add_column("rack", justify="right")
    table.add_column("final", justify="right", style="bold")
    table.add_column("")
    winners = game.winners()
    for seat, name in enumerate(names):
        penalty = game.end.penalties[seat]
        table.add_row(name, str(game.scores[seat]), f"-{penalty}" if penalty else "0",
                      str(game.final_scores[seat]),
                      Text("wins" if len(winners) == 1 else "shares the win", style=GOOD_STYLE)
                      if seat in winners else "")
    return table


def render_match(names: Sequence[str], results: Sequence[Sequence[int]], games: int,
                 servant: int | None = None) -> Table:
    """The match so far: one column per game, then the totals."""
    title = f"Match: {len(results)} of {games} game{'s' if games != 1 else ''} played"
    table = Table(title=title, title_style="bold", box=None, padding=(0, 2))
    table.add_column("player", style="bold")
    for i in range(len(results)):
        table.add_column(f"game {i + 1}", justify="right")
    table.add_column("total", justify="right", style="bold")
    table.add_column("")
    totals = [sum(r[s] for r in results) for s in range(len(names))]
    for seat, name in enumerate(names):
        note = Text("Servant", style="yellow") if servant == seat else Text("")
        table.add_row(name, *(str(r[seat]) for r in results), str(totals[seat]), note)
    return table


def render_legend(rules: RuleSet, plain: bool = False) -> Table:
    """The tiles, the board and the rules in short, with the options in force."""
    tiles = Text()
    if plain:
        tiles.append("7L light seven, 7D dark seven; * marks the last play")
    else:
        tiles.append_text(tile_cell(Tile(7, LIGHT)))
        tiles.append(" light   ")
        tiles.append_text(tile_cell(Tile(7, DARK)))
        tiles.append(" dark   ")
        tiles.append_text(tile_cell(Tile(7, LIGHT), marked=True))
        tiles.append(" the last play")
    rows: list[tuple[str, RenderableType]] = [
        ("Tiles", tiles),
        ("Ranks", "A 2-9 T(=10) J Q K; A counts 1, T J Q K count 10. A 6/9 tile is played"
                  " as a 6 or a 9."),
        ("Board", "columns A-M, rows 1-13; the corner A1-C2 is not part of the board."),
        ("A turn", "play 1-5 tiles in one row or column, with no gap, touching a tile on the"
                   " board (the first play: 2-5 tiles anywhere); or exchange 1-5 tiles; or"
                   " pass. Then draw back up to 5."),
        ("Hands", "every unbroken line of 2-5 tiles your play forms or extends is a crib hand"
                  " and must be valid: each of its tiles in a fifteen, a pair or the run."
                  " A line of 6 is never allowed."),
        ("Scoring", "fifteens 2 each, pairs 2 each, runs 1 a tile (a double run counts"
                    " twice); Q K A is no run. You score the whole of every hand you form or"
                    " extend, +10 for a line of five of one colour, +10 for playing five"
                    " tiles, +10 for the first play."),
        ("The end", "once the bag is empty, when a player goes out or everyone passes in"
                    " turn (and at any time after three rounds without a score); the tiles"
                    " left on a rack count against you."),
    ]
    options = []
    if rules.joker:
        options.append("Joker: you claim your own points, once; the next player may call"
                       " joker on a short claim and take the missed points (a wrong call"
                       " costs 5); a claim above the value is cut to it and the next player"
                       " takes the excess.")
    if rules.servant:
        options.append("Servant: after each round the lowest scorer is the Servant.")
    if rules.solitaire:
        options.append("Solitaire: the Light seat draws only light tiles, the Dark seat only"
                       " dark ones.")
    if rules.exchange == EXCHANGE_WHEN_STUCK:
        options.append("When stuck: you may exchange or pass only when no play is possible.")
    if rules.reduced_first_bonus:
        options.append("Reduced first bonus: the first-play and five-tile bonuses do not"
                       " combine.")
    rows.append(("Options", "\n".join(options) if options else "none (the standard rules)"))
    rows.append(("Learn", "kingscrib learn: short lessons on a small board, every move"
                          " explained. The full rules: kingscrib rules."))
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for label, body in rows:
        table.add_row(label, body)
    return table


# ----- a session's screen ---------------------------------------------------------
def screen(session: Session, width: int = 100, plain: bool = False) -> RenderableType:
    """The board, the scores, the last turn and the rack of the player who may see it."""
    board = board_view(session, plain)
    side_group = side_panel(session)
    rack = rack_text(session, plain)
    footer = Text("Type a move (e.g. G7 across 7A7A), exchange, pass, hint, rules or help.",
                  style="dim") if session.state == MOVE else Text("")
    if width >= 92:
        grid = Table.grid(padding=(0, 3))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(board, side_group)
        return Group(Text(""), grid, rack, footer)
    return Group(Text(""), side_group, Text(""), board, rack, footer)

def board_view(session: Session, plain: bool = False, cursor: int | None = None,
               draft: Mapping[int, Tile] | None = None) -> Text:
    tiles, marked = session.board_tiles()
    return render_board(tiles, marked, plain, cursor, draft)

def side_panel(session: Session) -> RenderableType:
    """The heading, the turn and the bag, the scores and the last turn(s)."""
    game = session.game
    viewer = session.viewer()
    last = game.history[-1] if game.history else None
    side: list[RenderableType] = []
    head = Text("Kings Cribbage", style="bold")
    if session.match.games > 1:
        head.append(f"  game {session.match.played + 1} of {session.match.games}", style="dim")
    head.append(f"\nturn {len(game.history) + 1} · {bag_text(game)}", style="dim")
    side.append(head)
    totals = session.match.totals if session.match.games > 1 else None
    side.append(render_scores(
        game, [s.tag for s in session.seats], None if game.is_over else game.turn, totals,
        session.match.servant if session.match.games > 1 else None))
    if last is not None:
        hide = (game.rules.joker and game.joker_open() and viewer is not None
                and viewer == game.turn and last.player != viewer)
        recent = session.recent_turns(viewer)
        side.append(Text("Last turn" if len(recent) == 1 else "Since your last turn",
                         style="bold underline"))
        for turn in recent:
            side.append(render_turn(game, turn, session.seats[turn.player].name,
                                           hide and turn is last,
                                           own=turn.player == viewer))
    else:  # before the first move: what the game is about, for a newcomer
        side.append(Text(f"Goal: {KINGS_GOAL}", style="italic"))
        if game.first_draws:
            side.append(line_text(session.first_draw_line()))
    return Group(*side)

def rack_text(session: Session, plain: bool = False, rack: Sequence[Tile] | None = None,
              selected: int | None = None) -> Text:
    """The rack of the player who may see it (``rack``: what is left of it), or ''."""
    viewer = session.viewer()
    if viewer is None:
        return Text("")
    owner = "Your rack" if session.seats[viewer].name == "You" else \
        f"{session.seats[viewer].name}'s rack"
    out = Text(f"{owner}: ", style="bold")
    tiles = session.game.racks[viewer] if rack is None else rack
    out.append_text(render_rack(tiles, plain, selected))
    return out

def history_lines(session: Session) -> list[Text]:
    """One line per turn of the game so far (exchanged tiles stay secret)."""
    lines: list[Text] = []
    board: dict[int, Tile] = {}
    for i, turn in enumerate(session.game.history, 1):
        name = session.seats[turn.player].name
        line = Text(f"{i:>3}. {name}: ", style="dim")
        if turn.action == "play":
            line.append(format_play(Play.of(turn.tiles), board), style="bold")
            line.append(f" {turn.gained}")
            board.update(turn.tiles)
        elif turn.action == "exchange":
            line.append(f"exchanged {len(turn.returned)}")
        else:
            line.append("passed")
        if turn.overclaim is not None:
            taker = session.seats[turn.overclaim["player"]].name
            line.append(f"  claimed {turn.claimed}: {turn.overclaim['points']} to {taker}",
                        style="yellow")
        if turn.joker is not None:
            line.append(f"  Joker {turn.joker['points']:+d}", style="yellow")
        lines.append(line)
    return lines


def first_move_guide() -> Text:
    """What a newcomer's first game shows over the board, once."""
    out = Text("Your first move\n\n", style="bold")
    out.append("Lay 2 to 5 tiles from your rack in one line, across or down, so that they"
               " make a hand: 15s, pairs, runs (every tile must count). The first play goes"
               " anywhere and earns a bonus of 10.\n\n")
    out.append("Type: ", style="bold")
    out.append("the square of the first tile, across or down, then the tiles in order, e.g."
               " G7 across 7 8 (or 78: A, 2-9, T for ten, J, Q, K).\n")
    out.append("Or lay them: ", style="bold")
    out.append("Tab to the board, arrows to a square, a rank key lays a tile, Enter plays."
               "\n")
    out.append("Stuck? ", style="bold")
    out.append("hint shows the best plays; F1 the help and the words hints use.\n\n")
    out.append("This guide is shown once.", style="dim")
    return out


# ----- the messages of a reply --------------------------------------------------------
def hints_table(hints: Hints) -> Table:
    """The best options by equity; under the joker rule only the options, best first
    (their points or equity would tell the claim)."""
    if hints.joker:
        table = Table(title="Best options (Joker rule: count the points yourself)",
                      title_justify="left", title_style="bold", box=None, padding=(0, 2),
                      min_width=56)
        table.add_column("option", style="bold cyan", no_wrap=True)
        for o in hints.options:
            table.add_row(o.move)
        return table
    table = Table(title="Best options by equity", title_justify="left",
                  title_style="bold", box=None, padding=(0, 2),
                  caption=f"equity = points + leave - {DEFENCE_WEIGHT:g} x reply; F1 (help)"
                          " says what each means",
                  caption_justify="left")
    table.add_column("option", style="bold cyan", no_wrap=True)
    for header in ("points", "leave", "reply"):  # headers never cut ("poin…")
        table.add_column(header, justify="right", no_wrap=True, min_width=len(header))
    table.add_column("equity", justify="right", style="bold", no_wrap=True, min_width=6)
    for o in hints.options:
        table.add_row(o.move, str(o.score), f"{o.leave:+.1f}",
                      "-" if o.reply is None else f"{o.reply:.1f}", f"{o.equity:.1f}")
    return table


def render_message(message: Message, plain: bool = False) -> RenderableType | None:
    """A Kings message drawn, or None when it is not one of the Kings game's own."""
    if isinstance(message, TurnSaid):
        return render_turn(message.game, message.turn, message.name, own=message.own,
                           correction=message.correction)
    if isinstance(message, KingsRules):
        return render_legend(message.rules, plain)
    if isinstance(message, Hints):
        return hints_table(message)
    if isinstance(message, FinalBoard):
        return render_board(message.tiles, message.marked, plain)
    if isinstance(message, GameResult):
        return render_result(message.game, message.names)
    if isinstance(message, MatchScores):
        return render_match(message.names, message.results, message.games, message.servant)
    return None
