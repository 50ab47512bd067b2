"""A coloured text picture of the Sorry! board for the terminal (Rich console markup).

The 60 track squares are the rim of a 16 × 16 grid, red's side along the top running left to
right, then blue down the right, yellow along the bottom right to left, green up the left: the
direction pawns move. Each safety zone runs inward from its diamond square (number 2 of its side),
HOME at its end; START sits inside next to the start exit (number 4). Coordinates are printed
round the edge, so every square name (`r4`, `b12`, …) can be read off the picture.
"""

from __future__ import annotations

import re
from typing import Any

from rich.markup import escape

from .board import COLOURS, DIAMOND_NUMBER, EXIT_NUMBER, LETTERS, SLIDES, parse_square
from .cards import CARD_TEXT, parse_card

__all__ = ["describe_event", "render"]

N = 16
STYLE = {"red": "red", "blue": "blue", "yellow": "yellow", "green": "green"}
_SLIDE_BODY: dict[int, int] = {}
for _tri, (_side, _end, _squares) in SLIDES.items():
    for _sq in _squares:
        _SLIDE_BODY[_sq] = _side


def _cell(side: int, along: int, depth: int) -> tuple[int, int]:
    """Grid (row, column) of a place given on red's side and turned to `side`."""
    r, c = depth, along
    if side == 1:
        return c, N - 1 - r
    if side == 2:
        return N - 1 - r, N - 1 - c
    if side == 3:
        return N - 1 - c, r
    return r, c


def _escape(text: str) -> str:
    """Names are the players' own words: keep Rich from reading them as markup."""
    return text.replace("[", "\\[")


def _track_cell(sq: int) -> tuple[int, int]:
    return _cell(sq // 15, sq % 15, 0)


def _paint(text: str, colour: str, bold: bool = False, dim: bool = False) -> str:
    style = ("bold " if bold else "") + ("dim " if dim else "") + STYLE.get(colour, colour)
    return f"[{style}]{text}[/]"


def render(view: dict[str, Any], viewer: int | None = None, names: list[str] | None = None) -> str:
    colours: list[str] = view["colours"]
    seats: list[int] = view["seats"]
    players = view.get("players", len(set(seats)))
    names = list(names) if names else [f"Player {i + 1}" for i in range(players)]
    grid = [["   "] * N for _ in range(N)]
    # the track: slides, diamonds, start exits
    for sq in range(60):
        r, c = _track_cell(sq)
        side, number = divmod(sq, 15)
        colour = COLOURS[side]
        number += 1
        if sq in SLIDES:
            grid[r][c] = _paint(" ▶ ", colour, dim=True)
        elif number == DIAMOND_NUMBER:  # on the short slide, where the safety zone branches off
            grid[r][c] = _paint(" ◆ ", colour, dim=True)
        elif sq in _SLIDE_BODY:
            end = number in (4, 13)
            grid[r][c] = _paint(" ● " if end else " ─ ", colour, dim=True)
        else:
            grid[r][c] = "[dim] · [/]"
    # safety zones, START and HOME of the colours in play
    for colour in colours:
        side = COLOURS.index(colour)
        for d in range(1, 6):
            r, c = _cell(side, DIAMOND_NUMBER - 1, d)
            grid[r][c] = _paint(" ░ ", colour, dim=True)
    for colour in colours:
        side = COLOURS.index(colour)
        letter = LETTERS[side].upper()
        squares = view["pawns"][colour]
        in_start = squares.count("start")
        at_home = squares.count("home")
        r, c = _cell(side, EXIT_NUMBER - 1, 1)
        grid[r][c] = _paint(f"S{in_start} ", colour, bold=in_start > 0)
        r, c = _cell(side, DIAMOND_NUMBER - 1, 6)
        grid[r][c] = _paint(f"H{at_home} ", colour, bold=at_home > 0)
        for name in squares:
            code = parse_square(name)
            if code is None:
                continue
            if code < 60:
                r, c = _track_cell(code)
            else:
                r, c = _cell(side, DIAMOND_NUMBER - 1, (code - 60) % 5 + 1)
            grid[r][c] = _paint(f" {letter} ", colour, bold=True)
    # coordinates round the edge
    lines = []
    head = "  r " + "".join(f"{c + 1:>3}" for c in range(15)) + "  b"
    lines.append(f"[dim]{head}[/]")
    for r in range(N):
        left = "" if r == 0 else f"g{N - r}"
        right = f"b{r + 1}" if r < 15 else "y1"
        lines.append(f"[dim]{left:>3}[/] " + "".join(grid[r]) + f" [dim]{right}[/]")
    foot = "  y    " + "".join(f"{N - c:>3}" for c in range(1, N))
    lines.append(f"[dim]{foot}[/]")
    lines.append("")

    def who(colour: str) -> str:
        seat = seats[colours.index(colour)]
        person = _escape(names[seat]) if seat < len(names) else f"seat {seat}"
        return _paint(colour, colour, bold=True) + f" ({person})"

    for colour in colours:
        squares = view["pawns"][colour]
        on_board = [s for s in squares if s not in ("start", "home")]
        lines.append(
            f"{who(colour)}: START {squares.count('start')} · HOME {squares.count('home')}"
            + (f" · {' '.join(on_board)}" if on_board else "")
        )
    if view.get("partnership"):
        lines.append("Partnerships: red with yellow, blue with green.")
    discard = view.get("discard") or []
    top = f", last discard {discard[-1]}" if discard else ""
    lines.append(f"Pack {view['pack']} cards{top}.")
    if view.get("point_score"):
        sizes = view.get("hand_sizes", {})
        for colour, cards in (view.get("hands") or {}).items():
            lines.append(
                f"{who(colour)} holds: {' '.join(cards)} ({sizes.get(colour, len(cards))})"
            )
    if view.get("is_over"):
        won = [_escape(names[s]) if s < len(names) else f"seat {s}" for s in view["winners"]]
        lines.append(f"[bold]Game over — {' and '.join(won)} won.[/]")
    else:
        turn = view["turn"]
        line = f"To play: {who(turn)}"
        card = view.get("card")
        if card is not None:
            value = parse_card(card)
            text = CARD_TEXT.get(value, "") if value is not None else ""
            again = " (second card of a 2)" if view.get("again") else ""
            line += f" — card [bold]{card}[/]{again}: {text}"
        lines.append(line)
    events = view.get("events") or []
    if events:
        lines.append("[dim]" + " · ".join(events[-6:]) + "[/]")
    return "\n".join(lines)


# --- the log in words ------------------------------------------------------------------------

_COLOUR_WORD = "(red|blue|yellow|green)"
_MOVE_EVENT = re.compile(_COLOUR_WORD + r": (.+)$")
_BUMP_EVENT = re.compile(_COLOUR_WORD + r" pawn on (\S+) sent back to START$")
_SLIDE_EVENT = re.compile(_COLOUR_WORD + r" slid (\S+)→(\S+)$")
_FORFEIT_EVENT = re.compile(_COLOUR_WORD + r" cannot use the (\S+): turn forfeited$")
_DRAW_EVENT = re.compile(_COLOUR_WORD + r" drew a card$")
_WIN_EVENT = re.compile(
    r"((?:red|blue|yellow|green)(?: and (?:red|blue|yellow|green))*) brought "
    r"every pawn HOME and won$"
)
_STEP = re.compile(r"([rbyg](?:s[1-5]|\d+))([+-]\d+)?$")


def _player_of(colour: str, names: list[str]) -> int:
    """The player who moves `colour`'s pawns, from the number of players alone.

    3 and 4 players: the colours in seat order (red, blue, yellow, green). 2 players: red is the
    first player and blue/green (only in play in the partnership game) the second; yellow is the
    second player's in the regular game. (In a 2-player partnership game yellow is the first
    player's: an event alone cannot tell the two games apart, so that one case names the second.)
    """
    k = COLOURS.index(colour)
    if len(names) >= 3:
        return k
    return 0 if k == 0 else 1


def _who(colour: str, names: list[str]) -> str:
    p = _player_of(colour, names)
    person = escape(names[p]) if 0 <= p < len(names) else f"Player {p + 1}"
    return f"{person} ({_paint(colour, colour, bold=True)})"


def _whose(colour: str, names: list[str]) -> str:
    """`Ada's red` (a pawn's owner, for things that happen to a pawn)."""
    p = _player_of(colour, names)
    person = escape(names[p]) if 0 <= p < len(names) else f"Player {p + 1}"
    return f"{person}'s {_paint(colour, colour, bold=True)}"


def _card_words(token: str) -> str:
    if token.upper() == "S":
        return "SORRY!"
    return f"an {token}" if token in ("8", "11") else f"a {token}"


def _steps(token: str, card: str) -> str:
    """'b9' → 'the pawn on b9 forward 5'; 'rs2-1' → 'the pawn on rs2 back 1'."""
    mm = _STEP.match(token)
    if not mm:
        return escape(token)
    square, step = mm.group(1), mm.group(2)
    n = int(step) if step else (-4 if card == "4" else int(card) if card.isdigit() else 0)
    way = f"forward {n}" if n >= 0 else f"back {-n}"
    return f"the pawn on {square} {way}"


def _move_words(text: str) -> str:
    """The words of a move text (the notation of docs/sorry.md)."""
    card, _, rest = text.partition(" ")
    play = f"plays {_card_words(card)}"
    enter = re.fullmatch(r"enter ([rbyg])", rest)
    if enter:
        colour = COLOURS[LETTERS.index(enter.group(1))]
        square = f"{enter.group(1)}{EXIT_NUMBER}"
        return f"{play}: a {colour} pawn leaves START for {square}"
    swap = re.fullmatch(r"(\S+)<>(\S+)", rest)
    if swap:
        a, b = swap.group(1), swap.group(2)
        return f"{play}: the pawn on {a} changes places with the pawn on {b}"
    sorry = re.fullmatch(r"([rbyg])>(\S+)", rest)
    if sorry:
        colour = COLOURS[LETTERS.index(sorry.group(1))]
        return (
            f"plays [bold]SORRY![/]: a {colour} pawn leaves START for {sorry.group(2)}, "
            "sending the pawn there back to its START"
        )
    parts = rest.split()
    if len(parts) == 2:
        return f"{play}, split: {_steps(parts[0], card)}, then {_steps(parts[1], card)}"
    if len(parts) == 1:
        return f"{play}: {_steps(parts[0], card)}"
    return escape(text)


def describe_event(event: Any, names: list[str]) -> str:
    """One entry of the view's `events` in words, with the players' names (Rich markup).

    `red: 2 enter r` → `Ada (red) plays a 2: a red pawn leaves START for r4`.
    """
    text = str(event)
    mm = _MOVE_EVENT.match(text)
    if mm:
        return f"{_who(mm.group(1), names)} {_move_words(mm.group(2))}"
    mm = _BUMP_EVENT.match(text)
    if mm:
        return f"{_whose(mm.group(1), names)} pawn on {mm.group(2)} goes back to START"
    mm = _SLIDE_EVENT.match(text)
    if mm:
        return f"{_whose(mm.group(1), names)} pawn slides from {mm.group(2)} to {mm.group(3)}"
    mm = _FORFEIT_EVENT.match(text)
    if mm:
        card = _card_words(mm.group(2))
        return f"{_who(mm.group(1), names)} cannot use {card}: the turn is forfeited"
    mm = _DRAW_EVENT.match(text)
    if mm:
        return f"{_who(mm.group(1), names)} draws a card"
    mm = _WIN_EVENT.match(text)
    if mm:
        who = " and ".join(_who(c, names) for c in mm.group(1).split(" and "))
        return f"[bold]{who} brought every pawn HOME and won[/]"
    if text == "the discards were shuffled into a new pack":
        return "The discards are shuffled into a new pack"
    return escape(text)
