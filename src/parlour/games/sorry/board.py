"""The Sorry! board: 60 track squares, four sides, slides, diamonds, safety zones, START and HOME.

Coordinate scheme (see docs/sorry.md for the picture). The sides are taken clockwise, the direction
pawns move: red, blue, yellow, green. Each side has 15 track squares counted from its corner,
1..15, so a track square is named by its side's letter and number: `r1` … `r15`, `b1` … `g15`.
On every side (RULES-NOTES, a reconstruction: no rulebook prints the numbers):

* a short slide runs from its triangle on 1 to its round end on 4, a long slide from 9 to 13;
  a slide has the colour of its side;
* the diamond square — the safety-zone entrance of that side's colour — is 2;
* the start exit (seed 003's "small circle") is 4.

The safety-zone squares of a colour are `rs1` … `rs5` (red's; `bs1`, `ys1`, `gs1` …), then HOME.

Internally a track square is an int 0..59 (`15 * side + number - 1`), and a pawn's place is held
*relative to its colour*: 0..59 on the track counted from the square just past its own diamond
(so its start exit is 1 and its diamond 59), 60..64 its safety zone, 65 HOME and -1 START. In that
scale "forward n" is `r + n` (exact count into HOME), a backward move on the track wraps modulo 60
and so can never enter the safety zone, and a backward move out of the safety zone lands on the
diamond and before it: seed 003 rules 9, 10 and 12 fall out of the arithmetic.

Global square codes, used by moves: 0..59 track, 60 + 5·colour + (n - 1) safety, 80 + colour START,
84 + colour HOME.
"""

from __future__ import annotations

__all__ = [
    "COLOURS",
    "DIAMOND",
    "EXIT",
    "HOME",
    "LETTERS",
    "SIDE",
    "SLIDES",
    "START",
    "TRACK",
    "abs_of_rel",
    "home_code",
    "parse_square",
    "rel_of_abs",
    "square_code",
    "square_name",
    "start_code",
]

COLOURS = ("red", "blue", "yellow", "green")
LETTERS = "rbyg"
SIDE = 15
TRACK = 60
SAFETY = 5
START = -1
HOME = 65
EXIT = 1  # relative place of the start exit (side number 4)
DIAMOND = 59  # relative place of the colour's own diamond square (side number 2)
EXIT_NUMBER = 4
DIAMOND_NUMBER = 2
# (triangle, round end) as side numbers
SLIDE_SPANS = ((1, 4), (9, 13))

SAFETY_BASE = 60
START_BASE = 80
HOME_BASE = 84
N_SQUARES = 88


def track(side: int, number: int) -> int:
    return SIDE * side + number - 1


def abs_of_rel(colour: int, rel: int) -> int:
    """Track square of a colour's relative place 0..59."""
    return (rel + SIDE * colour + 2) % TRACK


def rel_of_abs(colour: int, square: int) -> int:
    return (square - SIDE * colour - 2) % TRACK


def start_code(colour: int) -> int:
    return START_BASE + colour


def home_code(colour: int) -> int:
    return HOME_BASE + colour


def square_code(colour: int, rel: int) -> int:
    """Global square code of a pawn of `colour` at relative place `rel`."""
    if rel == START:
        return START_BASE + colour
    if rel == HOME:
        return HOME_BASE + colour
    if rel >= TRACK:
        return SAFETY_BASE + SAFETY * colour + rel - TRACK
    return abs_of_rel(colour, rel)


def square_name(code: int) -> str:
    if code < TRACK:
        return f"{LETTERS[code // SIDE]}{code % SIDE + 1}"
    if code < START_BASE:
        c, n = divmod(code - SAFETY_BASE, SAFETY)
        return f"{LETTERS[c]}s{n + 1}"
    if code < HOME_BASE:
        return f"{LETTERS[code - START_BASE]}start"
    return f"{LETTERS[code - HOME_BASE]}home"


_NAMES = {square_name(c): c for c in range(N_SQUARES)}


def parse_square(text: str) -> int | None:
    """The code of a square name (`r4`, `ys2`, `gstart`, `bhome`), or None."""
    return _NAMES.get(text.strip().lower())


def colour_of_code(code: int) -> int | None:
    """The colour a non-track square belongs to (None for track squares)."""
    if code < TRACK:
        return None
    if code < START_BASE:
        return (code - SAFETY_BASE) // SAFETY
    if code < HOME_BASE:
        return code - START_BASE
    return code - HOME_BASE


def rel_of_code(colour: int, code: int) -> int | None:
    """A pawn of `colour` standing on `code` is at this relative place (None if it cannot be)."""
    if code < TRACK:
        return rel_of_abs(colour, code)
    if colour_of_code(code) != colour:
        return None
    if code < START_BASE:
        return TRACK + (code - SAFETY_BASE) % SAFETY
    if code < HOME_BASE:
        return START
    return HOME


# Slides, indexed by track square: triangle -> (side colour, round end, squares covered).
SLIDES: dict[int, tuple[int, int, tuple[int, ...]]] = {}
for _side in range(4):
    for _a, _b in SLIDE_SPANS:
        _squares = tuple(track(_side, k) for k in range(_a, _b + 1))
        SLIDES[track(_side, _a)] = (_side, track(_side, _b), _squares)

# Flat tables for the engine's inner loops.
SLIDE_SIDE = [-1] * TRACK
SLIDE_LEN = [0] * TRACK
SLIDE_SQUARES: list[tuple[int, ...]] = [()] * TRACK
for _sq, (_side, _end, _squares) in SLIDES.items():
    SLIDE_SIDE[_sq] = _side
    SLIDE_LEN[_sq] = _end - _sq
    SLIDE_SQUARES[_sq] = _squares
ABS = [[abs_of_rel(c, r) for r in range(TRACK)] for c in range(4)]
REL = [[rel_of_abs(c, a) for a in range(TRACK)] for c in range(4)]
# CODE[c][rel + 1] for rel in -1..65
CODE = [[square_code(c, r) for r in range(-1, HOME + 1)] for c in range(4)]
DIAMONDS = {track(s, DIAMOND_NUMBER): s for s in range(4)}
EXITS = {track(s, EXIT_NUMBER): s for s in range(4)}
