"""The Sorry! engine: regular, partnership and point-score games (seed 003).

A turn is one move. In the regular game the card for the turn is drawn when the turn begins (a
chance event inside the previous `apply`) and shown face up in every view; the legal moves are the
whole moves that card allows. In the point-score game a move names the card played from the hand.

Colours and seats: the colours in play are taken clockwise from red (2 players: red and yellow;
3: red, blue, yellow; 4: all). Colour index `ci` is a colour's place in that tuple and in the turn
order. With 4 players seat i plays colour i; in the 2-player partnership game seat 0 plays red and
yellow and seat 1 blue and green, turns still alternating between the partnerships.

Pawn places are small ints on the colour's own scale (see `board`): -1 START, 0..59 track, 60..64
safety zone, 65 HOME. `occ[square]` is the pawn on each track square (-1 if none); pawn ids are
`4 * ci + j`.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from operator import attrgetter
from typing import Any, cast

from parlour.core import Game, IllegalMove, Move, Result, RulesError, State
from parlour.core.match import MatchFormat
from parlour.core.options import rules_to_dict
from parlour.core.rng import GameRng, fresh_seed

from .board import (
    ABS,
    CODE,
    COLOURS,
    EXIT,
    HOME,
    REL,
    SLIDE_LEN,
    SLIDE_SIDE,
    SLIDE_SQUARES,
    START,
    TRACK,
    colour_of_code,
    parse_square,
    rel_of_code,
    square_name,
)
from .cards import SORRY, card_token, deck, parse_card
from .notation import ENTER, MOVE, PASS, SORRY_MOVE, SPLIT, SWAP, SorryMove, parse_move
from .rules import SorryRules

__all__ = ["SorryGame", "SorryState"]

_PASS = SorryMove(0, PASS)
# Every move of one pawn, looked up instead of built: table[square code].
_FWD = {c: [SorryMove(c, MOVE, sq, c) for sq in range(80)] for c in (1, 2, 3, 5, 7, 8, 10, 11, 12)}
_BACK = {n: [SorryMove(4 if n == 4 else 10, MOVE, sq, -n) for sq in range(80)] for n in (1, 4)}
_STEPS: dict[int, tuple[tuple[int, list[SorryMove]], ...]] = {c: ((c, _FWD[c]),) for c in _FWD}
_STEPS[4] = ((-4, _BACK[4]),)
_STEPS[10] = ((10, _FWD[10]), (-1, _BACK[1]))
_STEPS[SORRY] = ()
_ENTERS = {c: [SorryMove(c, ENTER, colour) for colour in range(4)] for c in (1, 2)}
_SWAPS = [[SorryMove(11, SWAP, a, 0, b, 0) for b in range(TRACK)] for a in range(TRACK)]
_SORRIES = [[SorryMove(SORRY, SORRY_MOVE, c, 0, b) for b in range(TRACK)] for c in range(4)]
_order = attrgetter("key")
_SETUP_KEYS = ("first", "position", "pack", "hands")


class _Tables:
    """Who plays what, precomputed once per game."""

    def __init__(self, players: int, rules: SorryRules) -> None:
        if rules.partnership:
            if players not in (2, 4):
                raise RulesError(
                    f"the partnership game is for 4 players (or 2, each playing a partnership), "
                    f"not {players}"
                )
            colours: tuple[int, ...] = (0, 1, 2, 3)
        else:
            colours = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[players]
        n = len(colours)
        self.n = n
        self.players = players
        self.colour = colours
        self.ci_of_colour = {c: i for i, c in enumerate(colours)}
        self.seat = tuple(i % players for i in range(n))
        if rules.partnership:
            self.team = tuple(i % 2 for i in range(n))
        else:
            self.team = tuple(range(n))
        self.ctrl = tuple(
            tuple(j for j in range(n) if self.team[j] == self.team[i]) for i in range(n)
        )
        self.opp = tuple(
            tuple(j for j in range(n) if self.team[j] != self.team[i]) for i in range(n)
        )
        self.abs = [ABS[c] for c in colours]
        self.rel = [REL[c] for c in colours]
        self.code = [CODE[c] for c in colours]
        self.name = [COLOURS[c] for c in colours]
        self.points = rules.point_score
        self.partnership = rules.partnership
        self.eleven_optional = rules.eleven_change_optional
        self.slide_after_change = rules.slide_after_change
        self.two_always = rules.two_draws_again_always


class SorryGame(Game["SorryState"]):
    """Sorry! for 2 to 4 players under one rule set."""

    name = "sorry"

    def __init__(self, players: int, rules: SorryRules, preset: str | None = None) -> None:
        super().__init__(players, rules, preset)
        self.t = _Tables(players, rules)

    # --- starting ------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None, **setup: Any) -> SorryState:
        """A new game. Setup (all optional, JSON-able, kept in the record):

        `first`: seat that plays first (default 0). `position`: {colour: [squares]} — where each
        colour's pawns stand (`r4`, `rs2`, `start`, `home`; pawns not named are in START).
        `pack`: card tokens from the top of the pack down (after the deal, in the point-score
        game); the rest of the pack is shuffled beneath them. `hands` (point-score game):
        {colour: [cards]}; the other hands are dealt.
        """
        if seed is None:
            seed = fresh_seed()
        bad = [k for k in setup if k not in _SETUP_KEYS]
        if bad:
            raise RulesError(
                f"unknown Sorry! setup {', '.join(bad)}; known: {', '.join(_SETUP_KEYS)}"
            )
        t = self.t
        rules: SorryRules = self.rules
        first = setup.get("first", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < self.players:
            raise RulesError(f"first must be a seat 0..{self.players - 1}, not {first!r}")
        s = SorryState.__new__(SorryState)
        s.game = self
        s.t = t
        s.seed = seed
        s.setup = dict(setup)
        s.history = []
        s._legal = None
        s.rng = GameRng(seed)
        s.events = []
        s.over = False
        s.winners = ()
        s.again = False
        s.card = 0
        s.cur = t.seat.index(first)
        s.discard = []
        pos = [START] * (4 * t.n)
        if rules.pawns_out:
            for ci in range(t.n):
                pos[4 * ci] = EXIT
        if "position" in setup:
            pos = _position(t, setup["position"], pos)
        s.pos = pos
        s.occ = _occupancy(t, pos)
        pool = Counter(deck(rules.deck))
        s.hands = [[] for _ in range(t.n)] if t.points else []
        given_hands: dict[int, list[int]] = {}
        if "hands" in setup:
            if not t.points:
                raise RulesError("hands are set only in the point-score game")
            given_hands = _hands(t, setup["hands"], rules.hand_size)
            for ci, cards in given_hands.items():
                _take(pool, cards, "hands")
                s.hands[ci] = list(cards)
        top: list[int] = []
        if "pack" in setup:
            top = _cards(setup["pack"], "pack")
            _take(pool, top, "pack")
        rest = sorted(pool.elements())
        s.rng.shuffle(rest)
        s.pack = rest
        if t.points:
            order = [(s.cur + k) % t.n for k in range(t.n)]
            for _ in range(rules.hand_size):
                for ci in order:
                    if ci not in given_hands:
                        s.hands[ci].append(s._draw())
        s.pack += top[::-1]
        if not t.points:
            s.card = s._draw()
        return s

    def setup_for(self, starter: int) -> dict[str, Any]:
        return {"first": starter}

    def match_format(self, name: str | None = None) -> MatchFormat:
        # seed 003: "The winner of one game goes first in the next."
        fmt = MatchFormat.parse(name or "single", lower_wins=False)
        return dataclasses.replace(fmt, rotate=False, winner_starts=True)

    # --- notation and loading -----------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def state_from_dict(self, data: dict[str, Any]) -> SorryState:
        t = self.t
        s = SorryState.__new__(SorryState)
        s.game = self
        s.t = t
        s.seed = int(data["seed"])
        s.setup = dict(data.get("setup") or {})
        s.history = [parse_move(m) for m in data["history"]]
        s._legal = None
        s.pos = [int(x) for x in data["pos"]]
        if len(s.pos) != 4 * t.n:
            raise ValueError("wrong number of pawns")
        s.occ = _occupancy(t, s.pos)
        s.pack = [int(x) for x in data["pack"]]
        s.discard = [int(x) for x in data["discard"]]
        s.card = int(data["card"])
        s.hands = [[int(x) for x in h] for h in data["hands"]]
        s.cur = int(data["cur"])
        s.again = bool(data["again"])
        s.over = bool(data["over"])
        s.winners = tuple(int(w) for w in data["winners"])
        s.events = [str(e) for e in data["events"]]
        s.rng = GameRng.from_jsonable(data["rng"])
        return s

    def sample_state(self, view: dict[str, Any], rng: GameRng) -> SorryState:
        """A state showing `view`: the pack (and in the point-score game the hands the viewer
        cannot see) redrawn from the cards not in sight."""
        t = self.t
        s = SorryState.__new__(SorryState)
        s.game = self
        s.t = t
        s.seed = rng.getrandbits(63)
        s.setup = {}
        s.history = []
        s._legal = None
        s.rng = GameRng(s.seed)
        pos = [START] * (4 * t.n)
        s.pos = _position(t, view["pawns"], pos)
        s.occ = _occupancy(t, s.pos)
        s.discard = _cards(view["discard"], "discard")
        s.card = 0 if view.get("card") is None else _cards([view["card"]], "card")[0]
        s.events = list(view["events"])
        s.again = bool(view["again"])
        s.over = bool(view["is_over"])
        s.winners = tuple(view["winners"])
        s.cur = 0 if view["turn"] is None else t.name.index(view["turn"])
        pool = Counter(deck(self.rules.deck))
        _take(pool, s.discard, "discard")
        if s.card:
            pool[s.card] -= 1
        s.hands = [[] for _ in range(t.n)] if t.points else []
        unknown: list[int] = []
        if t.points:
            shown = view.get("hands") or {}
            for ci in range(t.n):
                if t.name[ci] in shown:
                    s.hands[ci] = _cards(shown[t.name[ci]], "hand")
                    _take(pool, s.hands[ci], "hands")
                else:
                    unknown.append(ci)
        rest = sorted(pool.elements())
        rng.shuffle(rest)
        for ci in unknown:
            k = view["hand_sizes"][t.name[ci]]
            s.hands[ci] = rest[-k:] if k else []
            del rest[len(rest) - k :]
        s.pack = rest
        return s


def _cards(items: Any, what: str) -> list[int]:
    if not isinstance(items, list | tuple):
        raise RulesError(f"{what} must be a list of cards")
    out = []
    for x in items:
        c = parse_card(str(x))
        if c is None:
            raise RulesError(f"{x!r} in {what} is not a Sorry! card")
        out.append(c)
    return out


def _take(pool: Counter[int], cards: Sequence[int], what: str) -> None:
    for c in cards:
        if pool[c] <= 0:
            raise RulesError(f"{what}: the pack has no more {card_token(c)} cards")
        pool[c] -= 1


def _colour_index(t: _Tables, key: str) -> int:
    k = str(key).strip().lower()
    for ci, name in enumerate(t.name):
        if k in (name, name[0]):
            return ci
    raise RulesError(f"{key!r} is not a colour in play ({', '.join(t.name)})")


def _position(t: _Tables, spec: Any, pos: list[int]) -> list[int]:
    if not isinstance(spec, dict):
        raise RulesError("position must map colours to lists of squares")
    pos = list(pos)
    for key, squares in spec.items():
        ci = _colour_index(t, key)
        colour = t.colour[ci]
        if not isinstance(squares, list | tuple) or len(squares) > 4:
            raise RulesError(f"position of {t.name[ci]}: a list of up to 4 squares")
        rels = []
        for name in squares:
            word = str(name).strip().lower()
            if word in ("start", "home"):
                rels.append(START if word == "start" else HOME)
                continue
            code = parse_square(word)
            rel = None if code is None else rel_of_code(colour, code)
            if rel is None:
                raise RulesError(f"{name!r} is not a square a {t.name[ci]} pawn can stand on")
            rels.append(rel)
        rels += [START] * (4 - len(rels))
        placed = [r for r in rels if 0 <= r < HOME]
        if len(set(placed)) != len(placed):
            raise RulesError(f"two {t.name[ci]} pawns on one square")
        pos[4 * ci : 4 * ci + 4] = rels
    seen: dict[int, int] = {}
    for pid, r in enumerate(pos):
        if 0 <= r < TRACK:
            sq = t.abs[pid >> 2][r]
            if sq in seen:
                raise RulesError(f"two pawns on {square_name(sq)}")
            seen[sq] = pid
    return pos


def _hands(t: _Tables, spec: Any, size: int) -> dict[int, list[int]]:
    if not isinstance(spec, dict):
        raise RulesError("hands must map colours to lists of cards")
    out = {}
    for key, cards in spec.items():
        ci = _colour_index(t, key)
        got = _cards(cards, f"{t.name[ci]}'s hand")
        if len(got) != size:
            raise RulesError(f"{t.name[ci]}'s hand must hold {size} cards")
        out[ci] = got
    return out


def _occupancy(t: _Tables, pos: list[int]) -> list[int]:
    occ = [-1] * TRACK
    for pid, r in enumerate(pos):
        if 0 <= r < TRACK:
            occ[t.abs[pid >> 2][r]] = pid
    return occ


class SorryState(State):
    """One Sorry! game in progress."""

    game: SorryGame
    t: _Tables
    rng: GameRng
    pos: list[int]
    occ: list[int]
    pack: list[int]
    discard: list[int]
    hands: list[list[int]]
    card: int
    cur: int
    again: bool
    over: bool
    winners: tuple[int, ...]
    events: list[str]

    # --- the protocol ------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return None if self.over else self.t.seat[self.cur]

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def turn_colour(self) -> str | None:
        return None if self.over else self.t.name[self.cur]

    def _legal_moves(self) -> list[Move]:
        if self.over:
            return []
        t = self.t
        ci = self.cur
        # Sorted by the moves' fields, so the order never depends on which pawn is which.
        if not t.points:
            card = self.card
            out = self._gen(card, ci)
            if not out:
                return [_PASS]
            if card == 11 and t.eleven_optional and not any(m.kind == MOVE for m in out):
                out.append(_PASS)
            if len(out) > 1:
                out.sort(key=_order)
            return out  # type: ignore[return-value]
        out = []
        cards = sorted(set(self.hands[ci]))
        for card in cards:
            got = self._gen(card, ci)
            out += got
            if card == 11 and got and t.eleven_optional and not any(m.kind == MOVE for m in got):
                out.append(SorryMove(11, PASS))
        if not out:
            return [SorryMove(c, PASS) for c in cards]
        out.sort(key=_order)
        return list(out)

    def _can_land(self, cj: int, r: int) -> bool:
        """May a pawn of colour index `cj` end a move on relative place `r`?"""
        if r >= TRACK:
            if r == HOME:
                return True
            pos = self.pos
            b = cj << 2
            return pos[b] != r and pos[b + 1] != r and pos[b + 2] != r and pos[b + 3] != r
        o = self.occ[self.t.abs[cj][r]]
        return o < 0 or (o >> 2) != cj

    def _gen(self, card: int, ci: int) -> list[SorryMove]:
        """Every move `card` allows colour index `ci` (no pass)."""
        t = self.t
        pos = self.pos
        occ = self.occ
        out: list[SorryMove] = []
        app = out.append
        steps = _STEPS[card]
        for cj in t.ctrl[ci]:
            base = cj << 2
            code = t.code[cj]
            absc = t.abs[cj]
            in_start = False
            for pid in range(base, base + 4):
                r = pos[pid]
                if r < 0:
                    in_start = True
                    continue
                if r == HOME:
                    continue
                sq = code[r + 1]
                for step, table in steps:
                    if step > 0:
                        nr = r + step
                        if nr > HOME:
                            continue
                    elif r < TRACK:
                        nr = (r + step) % TRACK  # backward on the track wraps, never into safety
                    else:
                        nr = r + step  # backward out of the safety zone onto the track
                    if nr < TRACK:
                        o = occ[absc[nr]]
                        if o >= 0 and (o >> 2) == cj:
                            continue
                    elif nr != HOME and (
                        pos[base] == nr
                        or pos[base + 1] == nr
                        or pos[base + 2] == nr
                        or pos[base + 3] == nr
                    ):
                        continue
                    app(table[sq])
                if card == 11 and r < TRACK:
                    row = _SWAPS[sq]
                    for oj in t.opp[ci]:
                        oabs = t.abs[oj]
                        for o in range(oj << 2, (oj << 2) + 4):
                            ro = pos[o]
                            if 0 <= ro < TRACK:
                                app(row[oabs[ro]])
            if in_start:
                if card <= 2:
                    o = occ[absc[EXIT]]
                    if o < 0 or (o >> 2) != cj:
                        app(_ENTERS[card][t.colour[cj]])
                elif card == SORRY:
                    row = _SORRIES[t.colour[cj]]
                    for oj in t.opp[ci]:
                        oabs = t.abs[oj]
                        for o in range(oj << 2, (oj << 2) + 4):
                            ro = pos[o]
                            if 0 <= ro < TRACK:
                                app(row[oabs[ro]])
        if card == SORRY and not out and t.partnership:
            # partnership rule 3: "SORRY" cards MUST BE USED, even to send a partner's piece to
            # START, if no opponent's piece is available.
            for cj in t.ctrl[ci]:
                if START not in pos[cj << 2 : (cj << 2) + 4]:
                    continue
                row = _SORRIES[t.colour[cj]]
                for oj in t.ctrl[ci]:
                    if oj == cj:
                        continue
                    for o in range(oj << 2, (oj << 2) + 4):
                        ro = pos[o]
                        if 0 <= ro < TRACK:
                            app(row[t.abs[oj][ro]])
        if card == 7:
            self._splits(ci, out)
        return out

    def _splits(self, ci: int, out: list[SorryMove]) -> None:
        """Split 7s: two pawns forward, the steps adding to 7, in the order written.

        Both orders are listed only when they end differently (a slide or a bump of one part
        touching the other); when they end the same, the order with the first-listed pawn first.
        """
        t = self.t
        pos = self.pos
        movable = sorted(
            (
                pid
                for cj in t.ctrl[ci]
                for pid in range(cj << 2, (cj << 2) + 4)
                if 0 <= pos[pid] < HOME
            ),
            key=lambda pid: t.code[pid >> 2][pos[pid] + 1],
        )
        if len(movable) < 2:
            return
        for i, p in enumerate(movable):
            rp = pos[p]
            cp = p >> 2
            sqp = t.code[cp][rp + 1]
            for q in movable[i + 1 :]:
                rq = pos[q]
                cq = q >> 2
                sqq = t.code[cq][rq + 1]
                for a in range(1, 7):
                    b = 7 - a
                    np_, nq = rp + a, rq + b
                    if np_ > HOME or nq > HOME:
                        continue
                    if (
                        self._quiet(cp, np_)
                        and self._quiet(cq, nq)
                        and (np_ == HOME or t.code[cp][np_ + 1] != t.code[cq][nq + 1])
                    ):
                        out.append(SorryMove(7, SPLIT, sqp, a, sqq, b))
                        continue
                    first = self._sim(p, a, q, b)
                    second = self._sim(q, b, p, a)
                    if first is not None:
                        out.append(SorryMove(7, SPLIT, sqp, a, sqq, b))
                    if second is not None and second != first:
                        out.append(SorryMove(7, SPLIT, sqq, b, sqp, a))

    def _quiet(self, cj: int, r: int) -> bool:
        """Landing on `r` touches nothing: an empty square (so not the other pawn's), no slide."""
        if r >= TRACK:
            if r == HOME:
                return True
            b = cj << 2
            pos = self.pos
            return pos[b] != r and pos[b + 1] != r and pos[b + 2] != r and pos[b + 3] != r
        sq = self.t.abs[cj][r]
        if self.occ[sq] >= 0:
            return False
        side = SLIDE_SIDE[sq]
        return side < 0 or side == self.t.colour[cj]

    def _sim(self, p: int, a: int, q: int, b: int) -> tuple[int, ...] | None:
        """The pawn places after p moves a then q moves b, or None if that is not legal."""
        pos = self.pos
        saved_pos = pos[:]
        saved_occ = self.occ[:]
        result = None
        np_ = pos[p] + a
        if self._can_land(p >> 2, np_):
            self._put(p, np_, None)
            rq = pos[q]
            if 0 <= rq < HOME and rq + b <= HOME and self._can_land(q >> 2, rq + b):
                self._put(q, rq + b, None)
                result = tuple(pos)
        pos[:] = saved_pos
        self.occ[:] = saved_occ
        return result

    def _bump(self, pid: int, sq: int, events: list[str] | None) -> None:
        self.pos[pid] = START
        if events is not None:
            events.append(f"{self.t.name[pid >> 2]} pawn on {square_name(sq)} sent back to START")

    def _put(self, pid: int, r: int, events: list[str] | None, slide: bool = True) -> None:
        """Move pawn `pid` to relative place `r`: bump what it lands on, then slide."""
        pos = self.pos
        occ = self.occ
        cj = pid >> 2
        absc = self.t.abs[cj]
        old = pos[pid]
        if 0 <= old < TRACK and occ[absc[old]] == pid:
            occ[absc[old]] = -1
        if r >= TRACK or r < 0:
            pos[pid] = r
            return
        sq = absc[r]
        o = occ[sq]
        if o >= 0:
            self._bump(o, sq, events)
            occ[sq] = -1
        side = SLIDE_SIDE[sq]
        if slide and side >= 0 and side != self.t.colour[cj]:
            for s in SLIDE_SQUARES[sq]:
                o = occ[s]
                if o >= 0:
                    self._bump(o, s, events)
                    occ[s] = -1
            n = SLIDE_LEN[sq]
            if events is not None:
                events.append(f"{self.t.name[cj]} slid {square_name(sq)}→{square_name(sq + n)}")
            sq += n
            r += n
        pos[pid] = r
        occ[sq] = pid

    def _pawn_at(self, code: int) -> int:
        """The pawn standing on a global square code (the first one in START for START)."""
        if code < TRACK:
            return self.occ[code]
        colour = colour_of_code(code)
        assert colour is not None
        ci = self.t.ci_of_colour[colour]
        rel = rel_of_code(colour, code)
        for pid in range(ci << 2, (ci << 2) + 4):
            if self.pos[pid] == rel:
                return pid
        raise IllegalMove(f"no pawn on {square_name(code)}")  # pragma: no cover - legal moves only

    def _draw(self) -> int:
        if not self.pack:
            self.pack = self.discard
            self.discard = []
            self.rng.shuffle(self.pack)
            self.events.append("the discards were shuffled into a new pack")
        return self.pack.pop()

    def _move_pawns(self, move: SorryMove, ev: list[str] | None) -> bool:
        """Carry out a move (not a pass) on the pawns, bumps and slides included, logging them to
        `ev` unless it is None; True if the move took a pawn HOME."""
        t = self.t
        pos = self.pos
        kind = move.kind
        if kind == MOVE:
            a = move.a
            pid = self.occ[a] if a < TRACK else self._pawn_at(a)
            r = pos[pid]
            n = move.n
            # backward on the track wraps round; backward out of the safety zone does not
            self._put(pid, (r + n) % TRACK if n < 0 and r < TRACK else r + n, ev)
            return pos[pid] == HOME
        if kind == ENTER:
            self._put(self._pawn_at(80 + move.a), EXIT, ev)
        elif kind == SPLIT:
            p = self._pawn_at(move.a)
            q = self._pawn_at(move.b)
            self._put(p, pos[p] + move.n, ev)
            self._put(q, pos[q] + move.m, ev)
            return pos[p] == HOME or pos[q] == HOME
        elif kind == SWAP:
            p = self._pawn_at(move.a)
            o = self._pawn_at(move.b)
            x, y = move.a, move.b
            self.occ[x] = o
            pos[o] = t.rel[o >> 2][x]
            self.occ[y] = -1
            pos[p] = START
            self._put(p, t.rel[p >> 2][y], ev, t.slide_after_change)
        else:  # SORRY!
            cj = t.ci_of_colour[move.a]
            pid = self._pawn_at(80 + move.a)
            v = self.occ[move.b]
            self._bump(v, move.b, ev)
            self.occ[move.b] = -1
            self._put(pid, t.rel[cj][move.b], ev, t.slide_after_change)
        return False

    def _pawns_after(self, move: SorryMove) -> list[int]:
        """Where the pawns (`pos`) would stand after the legal `move`, bumps and slides included,
        leaving the state as it is: what a move changes, without the cost of copy() and apply()."""
        pos, occ = self.pos, self.occ
        self.pos, self.occ = pos[:], occ[:]
        try:
            if move.kind != PASS:
                self._move_pawns(move, None)
            return self.pos
        finally:
            self.pos, self.occ = pos, occ

    def _apply(self, move: Move) -> None:
        move = cast(SorryMove, move)  # only legal moves reach here, and they are all SorryMoves
        t = self.t
        ci = self.cur
        ev = self.events
        name = t.name[ci]
        kind = move.kind
        card = move.card if t.points else self.card
        pos = self.pos
        if kind == PASS:
            ev.append(f"{name} cannot use the {card_token(card)}: turn forfeited")
            finished = False
        else:
            ev.append(name + ": " + move._text)
            finished = self._move_pawns(move, ev)
        self.discard.append(card)
        if t.points:
            hand = self.hands[ci]
            hand.remove(card)
            hand.append(self._draw())
            ev.append(name + " drew a card")
        if finished:
            # the winner: every pawn of the colour (partnership: of both partners) HOME
            team = t.ctrl[ci]
            if all(pos[cj << 2 : (cj << 2) + 4].count(HOME) == 4 for cj in team):
                self.over = True
                self.card = 0
                self.again = False
                self.winners = tuple(sorted({t.seat[cj] for cj in team}))
                who = " and ".join(t.name[cj] for cj in team)
                ev.append(f"{who} brought every pawn HOME and won")
                return
        again = card == 2 and (kind != PASS or t.two_always)
        if not again:
            self.cur = ci = (ci + 1) % t.n
        self.again = again
        if not t.points:
            # the next card is face up at once; the move texts name it, so no event is logged
            pack = self.pack
            self.card = pack.pop() if pack else self._draw()

    # --- views, results, copies --------------------------------------------------------------
    def pawn_squares(self, ci: int) -> list[str]:
        """A colour's pawns as square names, furthest on first (`home`, `rs3`, `b9`, `start`)."""
        code = self.t.code[ci]
        rels = sorted(self.pos[ci << 2 : (ci << 2) + 4], reverse=True)
        out = []
        for r in rels:
            if r == HOME:
                out.append("home")
            elif r == START:
                out.append("start")
            else:
                out.append(square_name(code[r + 1]))
        return out

    def view(self, player: int | None) -> dict[str, Any]:
        t = self.t
        v: dict[str, Any] = {
            "game": "sorry",
            "viewer": player,
            "to_play": self.to_play,
            "is_over": self.over,
            "players": t.players,
            "colours": list(t.name),
            "seats": list(t.seat),
            "partnership": t.partnership,
            "point_score": t.points,
            "turn": self.turn_colour,
            "card": card_token(self.card) if self.card else None,
            "again": self.again,
            "pawns": {t.name[ci]: self.pawn_squares(ci) for ci in range(t.n)},
            "discard": [card_token(c) for c in self.discard],
            "pack": len(self.pack),
            "events": list(self.events),
            "winners": list(self.winners),
        }
        if t.points:
            v["hand_sizes"] = {t.name[ci]: len(self.hands[ci]) for ci in range(t.n)}
            v["hands"] = {
                t.name[ci]: [card_token(c) for c in sorted(self.hands[ci])]
                for ci in range(t.n)
                if t.seat[ci] == player
            }
        return v

    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over")
        t = self.t
        home = [sum(1 for r in self.pos[ci << 2 : (ci << 2) + 4] if r == HOME) for ci in range(t.n)]
        per_colour = list(home)
        if t.points:
            # point score rule 3: 5 points for each piece on HOME; the WINNER also scores ...
            per_colour = [5 * h for h in home]
            win_cols = [ci for ci in range(t.n) if t.seat[ci] in self.winners]
            opp = [ci for ci in range(t.n) if ci not in win_cols]
            most = max((home[ci] for ci in opp), default=0)
            lines = [(most == 0, 100), (most <= 1, 50), (most <= 2, 25)]
            applicable = [pts for ok, pts in lines if ok]
            if self.game.rules.bonus == "highest":
                bonus = max(applicable, default=0)
            else:
                bonus = sum(applicable)
            extra = 5 * sum(4 - home[ci] for ci in opp) + bonus
            for ci in win_cols:
                per_colour[ci] += extra
        points = [0] * t.players
        for ci in range(t.n):
            points[t.seat[ci]] += per_colour[ci]
        what = "points" if t.points else "pawns HOME"
        win = ", ".join(t.name[ci] for ci in range(t.n) if t.seat[ci] in self.winners)
        return Result.ranked(
            self.winners,
            tuple(points),
            lower_is_better=False,
            reason=f"{win} brought every pawn HOME; points are {what}",
        )

    def copy(self) -> SorryState:
        s = SorryState.__new__(SorryState)
        s.game = self.game
        s.t = self.t
        s.seed = self.seed
        s.setup = self.setup
        s.history = self.history[:]
        s._legal = self._legal
        s.rng = self.rng.copy()
        s.pos = self.pos[:]
        s.occ = self.occ[:]
        s.pack = self.pack[:]
        s.discard = self.discard[:]
        s.hands = [h[:] for h in self.hands]
        s.card = self.card
        s.cur = self.cur
        s.again = self.again
        s.over = self.over
        s.winners = self.winners
        s.events = self.events[:]
        return s

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "sorry",
            "players": self.t.players,
            "rules": rules_to_dict(self.game.rules),
            "seed": self.seed,
            "setup": self.setup,
            "history": [str(m) for m in self.history],
            "pos": list(self.pos),
            "pack": list(self.pack),
            "discard": list(self.discard),
            "card": self.card,
            "hands": [list(h) for h in self.hands],
            "cur": self.cur,
            "again": self.again,
            "over": self.over,
            "winners": list(self.winners),
            "events": list(self.events),
            "rng": self.rng.to_jsonable(),
        }

    def permute_hidden(self, player: int, rng: GameRng) -> SorryState:
        s = self.copy()
        t = self.t
        if t.points:
            others = [ci for ci in range(t.n) if t.seat[ci] != player]
            pool = s.pack + [c for ci in others for c in s.hands[ci]]
            rng.shuffle(pool)
            for ci in others:
                k = len(s.hands[ci])
                s.hands[ci] = pool[len(pool) - k :]
                del pool[len(pool) - k :]
            s.pack = pool
        else:
            rng.shuffle(s.pack)
        s.rng = GameRng(rng.getrandbits(63))
        s._legal = None
        return s

    def forced_move(self) -> Move:
        """A player out of time makes the first legal move that is not a forfeit (seed 003: a
        player MUST make any move directed by the cards if possible)."""
        legal = self.legal_moves()
        for m in legal:
            if isinstance(m, SorryMove) and m.kind != PASS:
                return m
        return legal[0]

    def apply(self, move: Move | str) -> Move:
        """As `State.apply`; a split 7 written in the other order is accepted when it ends the
        same as the listed one, and `1 enter` / `2 enter` without a colour when only one fits."""
        # The protocol's apply, inlined: it is the hot path of every playout and search.
        if self.over:
            raise IllegalMove("the game is over")
        if move.__class__ is not SorryMove:
            if isinstance(move, str):
                move = self._resolve(move)
            if isinstance(move, str):
                move = parse_move(move)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        if move not in legal:
            raise IllegalMove(f"{move} is not legal now", legal)
        self._legal = None
        self.history.append(move)
        self._apply(move)
        return move

    def legal_moves(self) -> list[Move]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return legal[:]

    def _resolve(self, text: str) -> Move | str:
        legal = self._legal if self._legal is not None else self.legal_moves()
        t = " ".join(text.strip().lower().split())
        if t in ("1 enter", "2 enter", "enter"):
            fits = [m for m in legal if isinstance(m, SorryMove) and m.kind == ENTER]
            if t != "enter":
                fits = [m for m in fits if str(m).startswith(t)]
            return fits[0] if len(fits) == 1 else text
        try:
            m = parse_move(text)
        except IllegalMove:
            return text
        if m.kind == SPLIT and m not in legal:
            other = SorryMove(7, SPLIT, m.b, m.m, m.a, m.n)
            if other in legal:
                return other
        return m
