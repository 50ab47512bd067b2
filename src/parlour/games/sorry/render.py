"""A coloured text picture of the Sorry! board for the terminal (Rich console markup).

The 60 track squares are the rim of a 16 × 16 grid, red's side along the top running left to
right, then blue down the right, yellow along the bottom right to left, green up the left: the
direction pawns move. Each safety zone runs inward from its diamond square (number 2 of its side),
HOME at its end; START sits inside next to the start exit (number 4). Coordinates are printed
round the edge, so every square name (`r4`, `b12`, …) can be read off the picture.
"""

from __future__ import annotations

from typing import Any

from .board import COLOURS, DIAMOND_NUMBER, EXIT_NUMBER, LETTERS, SLIDES, parse_square
from .cards import CARD_TEXT, parse_card

__all__ = ["guide", "render"]

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
    lines.append(f"Pack {view['pack']} card{'' if view['pack'] == 1 else 's'}{top}.")
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
    return "\n".join(lines)


def guide(rules: Any) -> str:
    """What `help` adds at a Sorry! table: how to read the board."""
    return "\n".join(
        [
            "[bold]The board[/] (each colour's side in its colour):",
            "  ·         a track square; squares are named by side and number: r1–r15 along the"
            " top, b1–b15 down the right, y1–y15 along the bottom, g1–g15 up the left",
            "  ▶ ─ ─ ●   a slide: a pawn that stops on the ▶ of another colour's slide slides to"
            " its ●, sending every pawn on the way back to START",
            "  ◆         where a colour's safety zone ░ branches off towards HOME",
            "  S4  H0    a colour's START (4 pawns in it) and HOME (0 home)",
            "  R B Y G   a pawn of red, blue, yellow, green",
            "The card drawn says what your pawns may do; type a move as listed, or its number.",
        ]
    )
