"""Sorry! move notation.

A move is one whole turn's use of one card, written card first:

    1 enter r        start a red pawn (a 1 or a 2)
    5 b9             move the pawn on b9 by the card (forward 5; a 4 moves it back 4)
    10 rs2-1         the 10 used backward one square
    7 r4+3 y12+4     a split 7: the pawn on r4 forward 3, then the pawn on y12 forward 4
    11 r7<>b9        change places (the pawn on r7 with the opponent's pawn on b9)
    S g>b9           SORRY!: a green pawn from START to b9, whose pawn goes back to its START
    pass             no move is possible (the turn is forfeited)
    pass 5           point-score game: nothing in hand can be used; discard the 5

Squares are named as in `board` (`r1`..`g15` track, `rs1`..`gs5` safety zones). The card tokens
are 1 2 3 4 5 7 8 10 11 12 and S (SORRY!; `sorry` is accepted too). Text is case-insensitive.

Moves are interned: every `SorryMove` with the same fields is the same object, so equality and
hashing are by identity and a legal-move check costs a pointer comparison.
"""

from __future__ import annotations

from typing import Any, ClassVar

from parlour.core import IllegalMove, Move

from .board import COLOURS, LETTERS, START_BASE, TRACK, parse_square, square_name
from .cards import SORRY, card_token, parse_card

__all__ = ["ENTER", "MOVE", "PASS", "SORRY_MOVE", "SPLIT", "SWAP", "SorryMove", "parse_move"]

PASS, ENTER, MOVE, SPLIT, SWAP, SORRY_MOVE = range(6)


def default_step(card: int) -> int:
    """The signed distance a card moves a pawn when nothing else is said."""
    return -4 if card == 4 else card


class SorryMove(Move):
    """One turn's move. Fields: card, kind, a, n, b, m (squares `a`, `b`; signed steps `n`, `m`).

    PASS: card 0 (regular game) or the card discarded. ENTER: a = colour. MOVE: a = square,
    n = signed step. SPLIT: a+n then b+m. SWAP: a (own pawn) with b. SORRY: a = colour, b = square.
    """

    __slots__ = ("_text", "a", "b", "card", "key", "kind", "m", "n")
    _cache: ClassVar[dict[tuple[int, int, int, int, int, int], SorryMove]] = {}

    card: int
    kind: int
    a: int
    n: int
    b: int
    m: int
    key: tuple[int, int, int, int, int, int]
    _text: str

    def __new__(
        cls, card: int, kind: int, a: int = 0, n: int = 0, b: int = 0, m: int = 0
    ) -> SorryMove:
        key = (card, kind, a, n, b, m)
        got = cls._cache.get(key)
        if got is not None:
            return got
        self = object.__new__(cls)
        set_ = object.__setattr__
        set_(self, "card", card)
        set_(self, "kind", kind)
        set_(self, "a", a)
        set_(self, "n", n)
        set_(self, "b", b)
        set_(self, "m", m)
        set_(self, "key", key)
        set_(self, "_text", _text(card, kind, a, n, b, m))
        cls._cache[key] = self
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (SorryMove, (self.card, self.kind, self.a, self.n, self.b, self.m))

    def __str__(self) -> str:
        return self._text

    def fields(self) -> dict[str, Any]:
        """`{"kind": "move", "card": "10", "pawn": "r4", "steps": -1}`; a split names both pawns
        (`pawn`/`steps`, `pawn2`/`steps2`), an 11's change `pawn` and `with`, a SORRY! the
        `colour` entering and the `target` square."""
        card = card_token(self.card) if self.card else None
        kind, a, n, b, m = self.kind, self.a, self.n, self.b, self.m
        if kind == PASS:
            return {"kind": "pass", "card": card}
        if kind == ENTER:
            return {"kind": "enter", "card": card, "colour": COLOURS[a]}
        if kind == MOVE:
            return {"kind": "move", "card": card, "pawn": square_name(a), "steps": n}
        if kind == SPLIT:
            return {
                "kind": "split",
                "card": card,
                "pawn": square_name(a),
                "steps": n,
                "pawn2": square_name(b),
                "steps2": m,
            }
        if kind == SWAP:
            return {"kind": "swap", "card": card, "pawn": square_name(a), "with": square_name(b)}
        return {"kind": "sorry", "card": card, "colour": COLOURS[a], "target": square_name(b)}


def _step_text(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _text(card: int, kind: int, a: int, n: int, b: int, m: int) -> str:
    if kind == PASS:
        return "pass" if card == 0 else f"pass {card_token(card)}"
    c = card_token(card)
    if kind == ENTER:
        return f"{c} enter {LETTERS[a]}"
    if kind == MOVE:
        step = "" if n == default_step(card) else _step_text(n)
        return f"{c} {square_name(a)}{step}"
    if kind == SPLIT:
        return f"{c} {square_name(a)}{_step_text(n)} {square_name(b)}{_step_text(m)}"
    if kind == SWAP:
        return f"{c} {square_name(a)}<>{square_name(b)}"
    return f"{c} {LETTERS[a]}>{square_name(b)}"


HELP = (
    "moves look like: 1 enter r · 5 b9 · 4 r3 · 10 rs2-1 · 7 r4+3 y12+4 · 11 r7<>b9 · "
    "S g>b9 · pass (pass 5 in the point-score game)"
)


def _bad(text: str, why: str) -> IllegalMove:
    return IllegalMove(f"{text!r} is not a Sorry! move: {why}; {HELP}")


def _square(tok: str) -> int | None:
    """The code of a square a pawn can move from (track or safety zone), or None."""
    code = parse_square(tok) if tok and not tok[0].isspace() else None
    return code if code is not None and code < START_BASE else None


def _part(tok: str) -> tuple[int, int | None] | None:
    """`r4`, `ys2-1`, `r4+3`: the square and the signed step written (None if none), or None."""
    cut = next((i for i, ch in enumerate(tok) if ch in "+-"), len(tok))
    sq = _square(tok[:cut])
    if sq is None:
        return None
    if cut == len(tok):
        return sq, None
    digits = tok[cut + 1 :]
    if not digits.isdecimal():
        return None
    n = int(digits)
    return sq, n if tok[cut] == "+" else -n


def _pair(rest: str, sep: str) -> tuple[str, str] | None:
    """`a<sep>b` (spaces allowed round `sep`) as its two sides, or None."""
    left, found, right = rest.partition(sep)
    return (left.strip(), right.strip()) if found else None


def parse_move(text: str) -> SorryMove:
    """The move a text names, or IllegalMove saying what is wrong with the text."""
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text, not {type(text).__name__}")
    t = " ".join(text.strip().lower().split())
    if not t:
        raise _bad(text, "it is empty")
    head, _, rest = t.partition(" ")
    if head in ("pass", "forfeit"):
        if not rest:
            return SorryMove(0, PASS)
        card = parse_card(rest)
        if card is None:
            raise _bad(text, f"{rest!r} is not a card")
        return SorryMove(card, PASS)
    card = parse_card(head)
    if card is None:
        raise _bad(text, f"it must start with a card (1 2 3 4 5 7 8 10 11 12 S), not {head!r}")
    if not rest:
        raise _bad(text, "say which pawn the card moves")
    if card == SORRY:
        pair = _pair(rest, ">")
        target = None if pair is None else _square(pair[1])
        if pair is None or len(pair[0]) != 1 or pair[0] not in LETTERS or target is None:
            raise _bad(text, "a SORRY! names a START colour and a square, like 'S r>b9'")
        return SorryMove(card, SORRY_MOVE, LETTERS.index(pair[0]), 0, target)
    words = rest.split(" ")
    if len(words) == 2 and words[0] == "enter" and len(words[1]) == 1 and words[1] in LETTERS:
        if card not in (1, 2):
            raise _bad(text, "only a 1 or a 2 starts a pawn")
        return SorryMove(card, ENTER, LETTERS.index(words[1]))
    pair = _pair(rest, "<>")
    if pair is not None and _square(pair[0]) is not None and _square(pair[1]) is not None:
        if card != 11:
            raise _bad(text, "only an 11 changes places")
        a, b = _square(pair[0]), _square(pair[1])
        assert a is not None and b is not None
        if a >= TRACK or b >= TRACK:
            raise _bad(text, "places are changed only between pawns on the track")
        return SorryMove(card, SWAP, a, 0, b, 0)
    parts = words
    if len(parts) > 2:
        raise _bad(text, "a move names at most two pawns")
    steps: list[tuple[int, int]] = []
    for part in parts:
        got = _part(part)
        if got is None:
            raise _bad(text, f"{part!r} is not a square like r4 or ys2 (with +N or -N)")
        sq, step = got
        steps.append((sq, default_step(card) if step is None else step))
    if len(steps) == 2:
        if card != 7:
            raise _bad(text, "only a 7 is split between two pawns")
        (a, n), (b, m) = steps
        if n <= 0 or m <= 0 or n + m != 7:
            raise _bad(text, "a split 7 moves two pawns forward, the two steps adding to 7")
        if "+" not in parts[0] or "+" not in parts[1]:
            raise _bad(text, "write both steps of a split 7, like 'r4+3 y12+4'")
        return SorryMove(card, SPLIT, a, n, b, m)
    sq, n = steps[0]
    allowed = {default_step(card)} | ({-1} if card == 10 else set())
    if n not in allowed:
        what = ", ".join(_step_text(x) for x in sorted(allowed))
        raise _bad(text, f"a {card_token(card)} moves a pawn {what}")
    return SorryMove(card, MOVE, sq, n)
