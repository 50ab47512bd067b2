"""The Sorry! engine: regular, partnership and point-score games (seed 003).

A turn is one move. In the regular game the card for the turn is drawn when the turn begins (a
chance event inside the previous `apply`) and shown face up in every view; the legal moves are the
whole moves that card allows. In the point-score game a move names the card played from the hand.

Colours and seats: the colours in play are the ones the players chose (rule option `colours`,
in seat order), or by default taken clockwise from red (2 players: red and yellow; 3: red, blue,
yellow; 4: all). Colour index `ci` is a colour's place in that tuple and in the turn order;
`t.colour[ci]` is the board's colour (its side). Seat i plays colour index i; in the 2-player
partnership game seat 0 plays red and yellow and seat 1 blue and green, turns still alternating
between the partnerships.

Pawn places are small ints on the colour's own scale (see `board`): -1 START, 0..59 track, 60..64
safety zone, 65 HOME. `occ[square]` is the pawn on each track square (-1 if none); pawn ids are
`4 * ci + j`.

What happens is told in typed events (`events`), built once per game and looked up after (this
engine is the search bots' hot path). A position — the whole situation as JSON — comes from
`SorryState.position()` and goes back in through `SorryGame.from_position` (docs/sorry.md).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from parlour.core import (
    Game,
    IllegalMove,
    Move,
    Result,
    RulesError,
    SetupError,
    State,
    events_from_wire,
    refuse,
    to_wire,
)
from parlour.core.formats import MatchFormat
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
from .describe import card_words
from .events import KINDS, Bumped, Drew, Forfeited, Played, Reshuffled, Slid, Won, view_events
from .notation import ENTER, MOVE, PASS, SORRY_MOVE, SPLIT, SWAP, SorryMove, parse_move
from .rules import SorryRules

__all__ = ["REASONS", "SorryGame", "SorryState"]

_PASS = SorryMove(0, PASS)
# Every move of one pawn, looked up instead of built: table[square code].
_FWD = {c: [SorryMove(c, MOVE, sq, c) for sq in range(80)] for c in (1, 2, 3, 5, 7, 8, 10, 11, 12)}
_BACK = {n: [SorryMove(4 if n == 4 else 10, MOVE, sq, -n) for sq in range(80)] for n in (1, 4)}
_STEPS: dict[int, tuple[tuple[int, list[SorryMove]], ...]] = {c: ((c, _FWD[c]),) for c in _FWD}
_STEPS[4] = ((-4, _BACK[4]),)
_STEPS[10] = ((10, _FWD[10]), (-1, _BACK[1]))
_STEPS[SORRY] = ()


def _destinations(
    steps: tuple[tuple[int, list[SorryMove]], ...],
) -> list[tuple[tuple[int, list[SorryMove]], ...]]:
    """For each relative place a pawn may move from (0..64), where each of a card's steps takes it
    and the moves' table: forward by exact count (never past HOME), backward on the track
    wrapping round, backward out of the safety zone onto the track. Looked up in the hot path
    instead of worked out for every pawn."""
    dests = []
    for r in range(HOME):
        row = []
        for step, table in steps:
            if step > 0:
                nr = r + step
                if nr > HOME:
                    continue
            elif r < TRACK:
                nr = (r + step) % TRACK  # backward on the track wraps, never into safety
            else:
                nr = r + step  # backward out of the safety zone onto the track
            row.append((nr, table))
        dests.append(tuple(row))
    return dests


#: _DESTS[card][r]: (place reached, moves' table) for each step of the card from relative place r
_DESTS = {card: _destinations(steps) for card, steps in _STEPS.items()}
_ENTERS = {c: [SorryMove(c, ENTER, colour) for colour in range(4)] for c in (1, 2)}
_SWAPS = [[SorryMove(11, SWAP, a, 0, b, 0) for b in range(TRACK)] for a in range(TRACK)]
_SORRIES = [[SorryMove(SORRY, SORRY_MOVE, c, 0, b) for b in range(TRACK)] for c in range(4)]
_order = attrgetter("key")
#: `new_game` setup: `position` (a position, or the pawns alone as in records of old) and
#: `first`; `pack` and `hands` are read only so that records made with them replay.
_SETUP_KEYS = ("first", "position", "pack", "hands")
_POSITION_KEYS = ("pawns", "turn", "card", "hands", "pack", "discard", "again")
# A square code as events name it: the track and safety squares by name, START and HOME as words
# (the event's colour says whose).
_SQUARE = [square_name(c) for c in range(80)] + ["start"] * 4 + ["home"] * 4
_RESHUFFLED = Reshuffled()

#: `Result.reason`: how a game was won, no player named (the edges say who, `Won` in words).
REASONS = {
    "regular": "brought every pawn HOME; each player counts the pawns they have HOME",
    "points": "brought every pawn HOME; each player scores by the point-score table",
}


class _Tables:
    """Who plays what, precomputed once per game; and the game's recurring events, interned."""

    def __init__(self, players: int, rules: SorryRules) -> None:
        if rules.partnership:
            if players not in (2, 4):
                raise RulesError(
                    f"the partnership game is for 4 players (or 2, each playing a partnership), "
                    f"not {players}"
                )
            colours: tuple[int, ...] = (0, 1, 2, 3)
        elif rules.colours:
            # seed 003 rule 2: "Each player chooses a colour"
            if len(rules.colours) != players:
                raise RulesError(
                    f"colours: each of the {players} players chooses one colour, so {players} "
                    f"colours are needed, not {len(rules.colours)} ({', '.join(rules.colours)})"
                )
            colours = tuple(COLOURS.index(c) for c in rules.colours)
        else:
            colours = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[players]
        n = len(colours)
        self.n = n
        self.players = players
        self.colour = colours
        self.ci_of_colour = {c: i for i, c in enumerate(colours)}
        # a safety, START or HOME square's code -> the first pawn id of its colour index and the
        # relative place a pawn stands on there: `_pawn_at` without working it out each time
        self.off_track = {
            code: (self.ci_of_colour[colour] << 2, rel_of_code(colour, code))
            for code in range(TRACK, 88)
            if (colour := colour_of_code(code)) in self.ci_of_colour
        }
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
        # who sits where, as one string (its hash is kept): what the bots' tables depend on
        self.seating = f"{players}:{int(rules.partnership)}:{''.join(map(str, colours))}"
        self.eleven_optional = rules.eleven_change_optional
        self.eleven_free = rules.point_eleven_decline == "free"
        self.slide_after_change = rules.slide_after_change
        # Whether a 2 gives a second card: played, always in the regular game and as
        # point_two_again says in the point-score game; discarded unused (a forfeit), as
        # two_draws_again_always says in the regular game and never in the point-score game
        # (point score rule 2: "... he discards one card and draws another from the pack. His
        # turn then ends.").
        self.two_on_play = rules.point_two_again or not rules.point_score
        self.two_on_pass = rules.two_draws_again_always and not rules.point_score
        # The events of the hot path, built once: bumped[ci][track square], slid[ci][triangle],
        # forfeit[ci][card], drew[ci]; and played[ci][k][move], filled as moves are made (k: the
        # colour index of the pawn moved, or 4 + 4 * first + second for two pawns).
        self.bumped = [
            [Bumped(self.seat[ci], self.name[ci], _SQUARE[sq]) for sq in range(TRACK)]
            for ci in range(n)
        ]
        self.slid: list[list[Slid | None]] = [
            [
                Slid(self.seat[ci], self.name[ci], _SQUARE[sq], _SQUARE[sq + SLIDE_LEN[sq]])
                if SLIDE_SIDE[sq] >= 0
                else None
                for sq in range(TRACK)
            ]
            for ci in range(n)
        ]
        # forfeits[declined][ci][card]; forfeit[ci][card] is the same event, or None where a
        # pass may be the decline of an 11's optional change of places (it is when a move was
        # legal beside the pass).
        self.forfeits = tuple(
            [
                {
                    c: Forfeited(self.seat[ci], self.name[ci], card_token(c), self.points, d)
                    for c in (*_STEPS, 1, 2)
                }
                for ci in range(n)
            ]
            for d in (False, True)
        )
        may_decline = {
            c: rules.eleven_change_optional and (self.points or c == 11) for c in (*_STEPS, 1, 2)
        }
        self.forfeit: list[dict[int, Forfeited | None]] = [
            {c: None if may_decline[c] else ev for c, ev in row.items()}
            for row in self.forfeits[False]
        ]
        self.drew = [Drew(self.seat[ci], self.name[ci]) for ci in range(n)]
        self.played: list[list[dict[SorryMove, Played]]] = [
            [{} for _ in range(20)] for _ in range(n)
        ]

    def square(self, cj: int, r: int) -> str:
        """The name of relative place `r` of colour index `cj`, as events give it."""
        return _SQUARE[self.code[cj][r + 1]]

    def played_event(
        self, ci: int, k: int, move: SorryMove, paths: tuple[tuple[int, int, int], ...]
    ) -> Played:
        """The `Played` event of colour index `ci`'s `move`, moving pawns along `paths` (colour
        index, from, to): built once, then looked up (`played[ci][k]`)."""
        ev = self.played[ci][k].get(move)
        if ev is None:
            pawns = tuple(
                (self.name[cj], self.square(cj, a), self.square(cj, b)) for cj, a, b in paths
            )
            ev = self.played[ci][k][move] = Played(self.seat[ci], self.name[ci], move, pawns)
        return ev


class SorryGame(Game[SorryRules, "SorryState"]):
    """Sorry! for 2 to 4 players under one rule set."""

    name = "sorry"

    def __init__(self, players: int, rules: SorryRules, preset: str | None = None) -> None:
        super().__init__(players, rules, preset)
        self.t = _Tables(players, rules)

    # --- starting ------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None, **setup: Any) -> SorryState:
        """A new game. Setup (all optional, JSON-able, kept in the record):

        `position`: a position to start from (see `from_position`). `first`: the seat that plays
        first (default 0); with a position that names no `turn`, the seat's first colour is to
        play. Records made before positions existed may hold `position` as the pawns alone
        ({colour: [squares]}), `pack` (the top cards) and `hands` (point-score game): these are
        read as the parts of a position of those names, so such games still replay.
        """
        if seed is None:
            seed = fresh_seed()
        bad = [k for k in setup if k not in _SETUP_KEYS]
        if bad:
            raise SetupError(
                f"unknown Sorry! setup {', '.join(bad)}; known: {', '.join(_SETUP_KEYS)}"
            )
        t = self.t
        given = setup.get("position")
        if given is None:
            spec: dict[str, Any] = {}
        elif not isinstance(given, Mapping):
            raise SetupError("a Sorry! position is a JSON object (see docs/sorry.md)")
        elif given and not any(k in _POSITION_KEYS for k in given):
            spec = {"pawns": dict(given)}  # the pawns alone, as records of old hold them
        else:
            spec = dict(given)
        for key in ("pack", "hands"):
            if key in setup:
                if key in spec:
                    raise SetupError(f"{key} is given twice: in the position and beside it")
                spec[key] = setup[key]
        if "first" in setup:
            first = setup["first"]
            if (
                not isinstance(first, int)
                or isinstance(first, bool)
                or not 0 <= first < self.players
            ):
                raise SetupError(f"first must be a seat 0..{self.players - 1}, not {first!r}")
            spec.setdefault("turn", t.name[t.seat.index(first)])
        return self._set_up(seed, spec, _json_copy(setup) if setup else {})

    def from_position(self, spec: Mapping[str, Any], seed: int | None = None) -> SorryState:
        """A game from a chosen position (docs/sorry.md, "Positions"); every key may be left out.

            {"pawns": {"red": ["r4", "rs2", "start", "home"], "blue": "b9"},
                                            each colour's pawns (up to 4 squares; the others
                                            in START; a colour left out starts as a new game's)
             "turn": "red",                 the colour to play
             "card": "5",                   regular and partnership games: the card face up for
                                            the turn (left out: the top of the pack is turned up)
             "hands": {"red": ["1", "3", "5", "7", "S"]},   point-score game: hands (the others
                                            are dealt from the shuffled rest of the pack)
             "pack": ["S", "7"],            the pack from the top down; the cards placed nowhere
                                            go, shuffled by `seed`, under it
             "discard": ["4", "2"],         the discard pile, its top last
             "again": true}                 the turn is a 2's second card (the 2 on the discard;
                                            or the pile empty, reshuffled into the pack given)

        `State.position()` gives every key, and `from_position(s.position())` shows the same
        views (but the events) and legal moves as `s`. A bad position raises `SetupError`.
        """
        if not isinstance(spec, Mapping):
            raise SetupError("a Sorry! position is a JSON object (see docs/sorry.md)")
        seed = fresh_seed() if seed is None else seed
        return self._set_up(seed, dict(spec), {"position": _json_copy(spec)})

    def _set_up(self, seed: int, spec: dict[str, Any], setup: dict[str, Any]) -> SorryState:
        """A state from a position `spec` (validated here), its chance from `seed`. Cards are
        taken as a new game always took them: the pack shuffled once, hands dealt from it in turn
        from the player to move, the given top of the pack put back on it, then the regular
        game's card turned up — so a game without a position is the game of old of its seed."""
        unknown = sorted(set(spec) - set(_POSITION_KEYS))
        refuse(
            (
                unknown,
                f"position: unknown keys {', '.join(unknown)}; known: {', '.join(_POSITION_KEYS)}",
            )
        )
        t = self.t
        rules: SorryRules = self.rules
        s = SorryState.__new__(SorryState)
        s.game = self
        s.t = t
        s.seed = seed
        s.setup = setup
        s.history = []
        s._legal = None
        s.rng = GameRng(seed)
        s.events = []
        s.over = False
        s.winners = ()
        pos = [START] * (4 * t.n)
        if rules.pawns_out:
            for ci in range(t.n):
                pos[4 * ci] = EXIT
        if spec.get("pawns") is not None:
            pos = _position(t, spec["pawns"], pos)
        refuse(
            *(
                (
                    ci == side[0] and all(pos[cj * 4 : cj * 4 + 4].count(HOME) == 4 for cj in side),
                    f"position: every {' and '.join(t.name[cj] for cj in side)} pawn is HOME, "
                    "so the game would be over",
                )
                for ci, side in enumerate(t.ctrl)
            )
        )
        s.pos = pos
        s.occ = _occupancy(t, pos)
        turn = spec.get("turn")
        s.cur = 0 if turn is None else _colour_index(t, turn, "turn")
        s.discard = _cards(spec.get("discard", []), "discard")
        s.again = again = spec.get("again", False)
        card = spec.get("card")
        # A 2's second card: the 2 is on top of the discard pile; or the pack ran out as the 2
        # was played, the discards (the 2 among them) were shuffled into a new pack, and the
        # pile is empty -- a position then lists the pack, as position() does.
        just_shuffled = not s.discard and bool(spec.get("pack"))
        refuse(
            (not isinstance(again, bool), "position: again is true or false"),
            (
                again and not just_shuffled and (not s.discard or s.discard[-1] != 2),
                "position: again (a 2's second card) needs the 2 on the discard pile (or, the "
                "pack having run out as the 2 was played, an empty pile and the new pack)",
            ),
            (
                again and not t.two_on_play,
                "position: again cannot be: with point_two_again off, a 2 played from the hand "
                "gives no second card",
            ),
            (
                card is not None and t.points,
                "position: the point-score game has no card face up (cards are in hands)",
            ),
        )
        s.card = 0 if card is None else _cards([card], "card")[0]
        refuse(
            (
                spec.get("hands") is not None and not t.points,
                "position: hands are held only in the point-score game",
            )
        )
        given_hands: dict[int, list[int]] = {}
        if spec.get("hands") is not None:
            given_hands = _hands(t, spec["hands"], rules.hand_size)
        top = _cards(spec.get("pack", []), "pack")
        # every card is in one place: the pack has only so many of each (seed 003 rule 1)
        pool = Counter(deck(rules.deck))
        listed = Counter(s.discard + top + [c for h in given_hands.values() for c in h])
        if s.card:
            listed[s.card] += 1
        refuse(
            *(
                (k > pool[c], f"position: {k} × {card_token(c)}, but the pack has only {pool[c]}")
                for c, k in sorted(listed.items())
            )
        )
        pool -= listed
        rest = sorted(pool.elements())
        s.rng.shuffle(rest)
        s.pack = rest
        s.hands = [[] for _ in range(t.n)] if t.points else []
        if t.points:
            for ci, cards in given_hands.items():
                s.hands[ci] = list(cards)
            order = [(s.cur + k) % t.n for k in range(t.n)]
            for _ in range(rules.hand_size):
                for ci in order:
                    if ci not in given_hands:
                        s.hands[ci].append(s._draw())
        s.pack += top[::-1]
        if not t.points and not s.card:
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
        s.events = events_from_wire(data["events"], KINDS, parse_move)
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
        s.events = view_events(view)
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


def _json_copy(data: Mapping[str, Any]) -> dict[str, Any]:
    """A setup as the record keeps it: JSON data, a copy (the caller's dict may change)."""
    try:
        out: dict[str, Any] = json.loads(json.dumps(data))
    except (TypeError, ValueError) as exc:
        raise SetupError(f"a Sorry! setup is JSON data: {exc}") from None
    return out


def _cards(items: Any, what: str) -> list[int]:
    if not isinstance(items, list | tuple):
        raise SetupError(f"position: {what} must be a list of cards")
    out = []
    for x in items:
        c = parse_card(str(x))
        if c is None:
            raise SetupError(f"position: {x!r} in {what} is not a Sorry! card")
        out.append(c)
    return out


def _take(pool: Counter[int], cards: Sequence[int], what: str) -> None:
    for c in cards:
        if pool[c] <= 0:
            raise SetupError(
                f"position: too many {card_token(c)} cards (the {what} takes one more than the "
                "pack has left)"
            )
        pool[c] -= 1


def _colour_index(t: _Tables, key: Any, what: str) -> int:
    k = str(key).strip().lower()
    for ci, name in enumerate(t.name):
        if k in (name, name[0]):
            return ci
    raise SetupError(f"position: {what}: {key!r} is not a colour in play ({', '.join(t.name)})")


def _position(t: _Tables, spec: Any, pos: list[int]) -> list[int]:
    """The pawn places `spec` ({colour: squares}) gives, over the defaults `pos`."""
    if not isinstance(spec, Mapping):
        raise SetupError("position: pawns must map colours to lists of squares")
    pos = list(pos)
    for key, squares in spec.items():
        ci = _colour_index(t, key, "pawns")
        name = t.name[ci]
        colour = t.colour[ci]
        if isinstance(squares, str):  # the compact form: "r4 rs2 home" (or with commas)
            squares = squares.replace(",", " ").split()
        if not isinstance(squares, list | tuple):
            raise SetupError(f"position: {name}'s pawns must be a list of squares")
        if len(squares) > 4:
            raise SetupError(f"position: {name} has 4 pawns, not {len(squares)}")
        rels = []
        for word in squares:
            w = str(word).strip().lower()
            if w in ("start", "home"):
                rels.append(START if w == "start" else HOME)
                continue
            code = parse_square(w)  # a board name: r4, rs2, and rstart / rhome too
            if code is None:
                raise SetupError(f"position: {word!r} is not a square of the board")
            rel = rel_of_code(colour, code)
            if rel is None:
                why = " (pawns enter only the safety zones of their own colour)"
                raise SetupError(
                    f"position: {word!r} is not a square a {name} pawn can stand on"
                    + (why if TRACK <= code < 80 else "")
                )
            rels.append(rel)
        rels += [START] * (4 - len(rels))
        placed = [r for r in rels if 0 <= r < HOME]
        for r in placed:
            if placed.count(r) > 1:
                where = square_name(t.code[ci][r + 1])
                raise SetupError(
                    f"position: two {name} pawns on {where} (pieces of the same colour may not "
                    "occupy the same space)"
                )
        pos[4 * ci : 4 * ci + 4] = rels
    seen: dict[int, int] = {}
    for pid, r in enumerate(pos):
        if 0 <= r < TRACK:
            sq = t.abs[pid >> 2][r]
            if sq in seen:
                both = f"{t.name[seen[sq] >> 2]} and {t.name[pid >> 2]}"
                raise SetupError(f"position: two pawns on {square_name(sq)} ({both})")
            seen[sq] = pid
    return pos


def _hands(t: _Tables, spec: Any, size: int) -> dict[int, list[int]]:
    if not isinstance(spec, Mapping):
        raise SetupError("position: hands must map colours to lists of cards")
    out = {}
    for key, cards in spec.items():
        ci = _colour_index(t, key, "hands")
        got = _cards(cards, f"{t.name[ci]}'s hand")
        if len(got) != size:
            raise SetupError(
                f"position: {t.name[ci]}'s hand must hold {size} cards, not {len(got)}"
            )
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
    events: list[Any]

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
        decline = False  # an 11 that can only change places, which is optional
        for card in cards:
            got = self._gen(card, ci)
            out += got
            if card == 11 and got and t.eleven_optional and not any(m.kind == MOVE for m in got):
                decline = True
        if not out:
            return [SorryMove(c, PASS) for c in cards]
        if decline:
            if t.eleven_free:  # the 11 is played without a move
                out.append(SorryMove(11, PASS))
            elif all(m.card == 11 for m in out):
                # declining is a forfeit, open only when no other card can be used: "he
                # discards one card and draws another from the pack" (point score rule 2)
                out += [SorryMove(c, PASS) for c in cards]
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
        dests = _DESTS[card]
        for cj in t.ctrl[ci]:
            base = cj << 2
            top = base + 4  # pawn ids base..top-1 are this colour's
            code = t.code[cj]
            absc = t.abs[cj]
            in_start = False
            for pid in range(base, top):
                r = pos[pid]
                if r < 0:
                    in_start = True
                    continue
                if r == HOME:
                    continue
                sq = code[r + 1]
                for nr, table in dests[r]:
                    if nr < TRACK:
                        if base <= occ[absc[nr]] < top:  # a pawn of the same colour (-1: none)
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

    def _bump(self, pid: int, sq: int, events: list[Any] | None) -> None:
        self.pos[pid] = START
        if events is not None:
            events.append(self.t.bumped[pid >> 2][sq])

    def _put(self, pid: int, r: int, events: list[Any] | None, slide: bool = True) -> None:
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
            if events is not None:
                events.append(self.t.slid[cj][sq])
            for s in SLIDE_SQUARES[sq]:
                o = occ[s]
                if o >= 0:
                    self._bump(o, s, events)
                    occ[s] = -1
            n = SLIDE_LEN[sq]
            sq += n
            r += n
        pos[pid] = r
        occ[sq] = pid

    def _pawn_at(self, code: int) -> int:
        """The pawn standing on a global square code (the first one in START for START), for a
        legal move (the hot path: `_pawn_on` is the forgiving one)."""
        if code < TRACK:
            return self.occ[code]
        base, rel = self.t.off_track[code]
        pos = self.pos
        for pid in range(base, base + 4):
            if pos[pid] == rel:
                return pid
        raise IllegalMove(f"no pawn on {square_name(code)}")  # pragma: no cover - legal moves only

    def _pawn_on(self, code: int) -> int | None:
        """The pawn on a global square code (the first in START for START), or None."""
        if code < TRACK:
            o = self.occ[code]
            return None if o < 0 else o
        colour = colour_of_code(code)
        ci = self.t.ci_of_colour.get(colour if colour is not None else -1)
        if ci is None:
            return None
        rel = rel_of_code(colour, code)  # type: ignore[arg-type]
        for pid in range(ci << 2, (ci << 2) + 4):
            if self.pos[pid] == rel:
                return pid
        return None

    def _draw(self) -> int:
        if not self.pack:
            self.pack = self.discard
            self.discard = []
            self.rng.shuffle(self.pack)
            self.events.append(_RESHUFFLED)
        return self.pack.pop()

    def _move_pawns(self, move: SorryMove, ev: list[Any] | None, ci: int = 0) -> bool:
        """Carry out colour index `ci`'s move (not a pass) on the pawns, bumps and slides
        included, telling it in events on `ev` unless it is None; True if it took a pawn HOME."""
        t = self.t
        pos = self.pos
        kind = move.kind
        if kind == MOVE:
            a = move.a
            pid = self.occ[a] if a < TRACK else self._pawn_at(a)
            r = pos[pid]
            n = move.n
            # backward on the track wraps round; backward out of the safety zone does not
            nr = (r + n) % TRACK if n < 0 and r < TRACK else r + n
            if ev is not None:
                cj = pid >> 2
                played = t.played[ci][cj].get(move)
                ev.append(played or t.played_event(ci, cj, move, ((cj, r, nr),)))
            self._put(pid, nr, ev)
            return pos[pid] == HOME
        if kind == ENTER:
            pid = self._pawn_at(80 + move.a)
            if ev is not None:
                cj = pid >> 2
                played = t.played[ci][cj].get(move)
                ev.append(played or t.played_event(ci, cj, move, ((cj, START, EXIT),)))
            self._put(pid, EXIT, ev)
        elif kind == SPLIT:
            p = self._pawn_at(move.a)
            q = self._pawn_at(move.b)
            if ev is not None:
                cp, cq, rp, rq = p >> 2, q >> 2, pos[p], pos[q]
                k = 4 + 4 * cp + cq
                played = t.played[ci][k].get(move)
                paths = ((cp, rp, rp + move.n), (cq, rq, rq + move.m))
                ev.append(played or t.played_event(ci, k, move, paths))
            self._put(p, pos[p] + move.n, ev)
            self._put(q, pos[q] + move.m, ev)
            return pos[p] == HOME or pos[q] == HOME
        elif kind == SWAP:
            p = self._pawn_at(move.a)
            o = self._pawn_at(move.b)
            x, y = move.a, move.b
            cp, co = p >> 2, o >> 2
            if ev is not None:
                k = 4 + 4 * cp + co
                played = t.played[ci][k].get(move)
                paths = ((cp, t.rel[cp][x], t.rel[cp][y]), (co, t.rel[co][y], t.rel[co][x]))
                ev.append(played or t.played_event(ci, k, move, paths))
            self.occ[x] = o
            pos[o] = t.rel[co][x]
            self.occ[y] = -1
            pos[p] = START
            self._put(p, t.rel[cp][y], ev, t.slide_after_change)
        else:  # SORRY!: the pawn there is bumped by the landing
            pid = self._pawn_at(80 + move.a)
            cj = pid >> 2
            r = t.rel[cj][move.b]
            if ev is not None:
                played = t.played[ci][cj].get(move)
                ev.append(played or t.played_event(ci, cj, move, ((cj, START, r),)))
            self._put(pid, r, ev, t.slide_after_change)
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

    def _apply(self, move: Move, legal: list[Move] | None = None) -> None:
        """Carry out the legal `move`; `legal`, the legal moves it was chosen from, if known."""
        if TYPE_CHECKING:  # only legal moves reach here, all SorryMoves (no call at run time)
            move = cast(SorryMove, move)
        t = self.t
        ci = self.cur
        ev = self.events
        kind = move.kind
        card = move.card if t.points else self.card
        pos = self.pos
        if kind == PASS:
            forfeit = t.forfeit[ci][card]
            if forfeit is None:  # an 11's optional change of places declined, or no move at all
                if legal is None:
                    legal = self._legal_moves()
                if t.points:
                    moved = 11 in self.hands[ci] and any(
                        m.kind != PASS for m in cast(list[SorryMove], legal)
                    )
                else:  # a pass is listed alone, or beside an 11's changes of places
                    moved = len(legal) > 1
                forfeit = t.forfeits[moved][ci][card]
            ev.append(forfeit)
            finished = False
        else:
            finished = self._move_pawns(move, ev, ci)
        self.discard.append(card)
        if t.points:
            hand = self.hands[ci]
            hand.remove(card)
            hand.append(self._draw())
            ev.append(t.drew[ci])
        if finished:
            # the winner: every pawn of the colour (partnership: of both partners) HOME
            team = t.ctrl[ci]
            if all(pos[cj << 2 : (cj << 2) + 4].count(HOME) == 4 for cj in team):
                self.over = True
                self.card = 0
                self.again = False
                self.winners = tuple(sorted({t.seat[cj] for cj in team}))
                ev.append(Won(tuple(t.seat[cj] for cj in team), tuple(t.name[cj] for cj in team)))
                return
        again = card == 2 and (t.two_on_play if kind != PASS else t.two_on_pass)
        if not again:
            self.cur = ci = (ci + 1) % t.n
        self.again = again
        if not t.points:
            # the next card is face up at once; the view shows it, so no event is logged
            pack = self.pack
            self.card = pack.pop() if pack else self._draw()

    # --- views, results, copies --------------------------------------------------------------
    def pawn_squares(self, ci: int) -> list[str]:
        """A colour's pawns as square names, furthest on first (`home`, `rs3`, `b9`, `start`)."""
        code = self.t.code[ci]
        rels = sorted(self.pos[ci << 2 : (ci << 2) + 4], reverse=True)
        return [_SQUARE[code[r + 1]] for r in rels]

    def _hand_counts(self) -> list[int] | None:
        """Cards in each player's hands (the point-score game), or None: no hands."""
        t = self.t
        if not t.points:
            return None
        counts = [0] * t.players
        for ci in range(t.n):
            counts[t.seat[ci]] += len(self.hands[ci])
        return counts

    def view(self, player: int | None) -> dict[str, Any]:
        t = self.t
        v = self._envelope(player, self._hand_counts())
        v["events"] = self.events[:]
        v.update(
            colours=list(t.name),
            seats=list(t.seat),
            partnership=t.partnership,
            point_score=t.points,
            turn=self.turn_colour,
            card=card_token(self.card) if self.card else None,
            again=self.again,
            pawns={t.name[ci]: self.pawn_squares(ci) for ci in range(t.n)},
            discard=[card_token(c) for c in self.discard],
            pack=len(self.pack),
            winners=list(self.winners),
        )
        if t.points:
            v["hand_sizes"] = {t.name[ci]: len(self.hands[ci]) for ci in range(t.n)}
            v["hands"] = {
                t.name[ci]: [card_token(c) for c in sorted(self.hands[ci])]
                for ci in range(t.n)
                if t.seat[ci] == player
            }
        return v

    def position(self) -> dict[str, Any]:
        """Everything `from_position` needs to set this situation up again, hands and the order
        of the pack included (docs/sorry.md, "Positions")."""
        t = self.t
        spec: dict[str, Any] = {
            "pawns": {t.name[ci]: self.pawn_squares(ci) for ci in range(t.n)},
            "turn": self.turn_colour,
        }
        if t.points:
            spec["hands"] = {
                t.name[ci]: [card_token(c) for c in self.hands[ci]] for ci in range(t.n)
            }
        else:
            spec["card"] = card_token(self.card) if self.card else None
        spec["pack"] = [card_token(c) for c in reversed(self.pack)]
        spec["discard"] = [card_token(c) for c in self.discard]
        spec["again"] = self.again
        return spec

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
        return Result.ranked(
            self.winners,
            tuple(points),
            lower_is_better=False,
            reason=REASONS["points" if t.points else "regular"],
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
            "events": [to_wire(e) for e in self.events],
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

    # --- why a move is refused -----------------------------------------------------------------
    def why_illegal(self, move: Move) -> str | None:
        """The rule that refuses `move` now, in words (seed 003's where it has them): "the card
        drawn is a 5, not a 7", "the pawn on rs3 is 2 from HOME: ... the exact number", ..."""
        if not isinstance(move, SorryMove) or self.over:
            return None
        t = self.t
        ci = self.cur
        kind = move.kind
        token = card_token(move.card) if move.card else ""
        if t.points:
            if kind == PASS and not move.card:
                return "in the point-score game a pass discards a card from the hand, like 'pass 5'"
            if move.card not in self.hands[ci]:
                return f"{t.name[ci]}'s hand holds no {token}"
            if kind == PASS:
                return (
                    "a card in the hand can be used: a player forfeits only if unable to use any "
                    "card in hand to enter or move a piece"
                )
        else:
            drawn = card_words(card_token(self.card))
            if kind == PASS:
                if move.card:
                    return f"'pass {token}' is the point-score game's: here the pass is 'pass'"
                return (
                    f"{drawn} can be used: a player MUST make any move directed by the cards "
                    "drawn if possible"
                )
            if move.card != self.card:
                return f"the card drawn is {drawn}, not {card_words(token)}"
        return self._why_not(move, ci)

    def _why_not(self, move: SorryMove, ci: int) -> str | None:
        """Why a move with the right card is refused: its pawns, squares and landing."""
        t = self.t
        pos = self.pos
        mine = t.ctrl[ci]
        kind = move.kind
        whose = "your own and your partner's" if t.partnership else "your own"
        if kind in (ENTER, SORRY_MOVE):
            colour = COLOURS[move.a]
            cj = t.ci_of_colour.get(move.a)
            if cj is None:
                return f"{colour} is not in play"
            if cj not in mine:
                return f"the {colour} pawns are not yours: you move only {whose} pawns"
            if START not in pos[cj << 2 : (cj << 2) + 4]:
                return f"no {colour} pawn is in START"
            if kind == ENTER:
                exit_ = t.abs[cj][EXIT]
                o = self.occ[exit_]
                if o >= 0 and o >> 2 == cj:
                    return (
                        f"a {colour} pawn stands on {square_name(exit_)}: two pieces of the same "
                        "player may NOT occupy the entry square at one time"
                    )
                return None
            where = square_name(move.b)
            if move.b >= TRACK:
                return (
                    f"{where} is in a safety zone: a {colour} pawn may enter only the safety "
                    "zone of its own colour"
                )
            victim = self.occ[move.b]
            if victim < 0:
                return f"no pawn stands on {where} for the SORRY! to send back to START"
            if victim >> 2 == cj:
                return f"the pawn on {where} is {colour} too: a SORRY! sends back another's pawn"
            if victim >> 2 in mine:
                return (
                    f"the pawn on {where} is your partner's: a SORRY! sends a partner's piece to "
                    "START only if no opponent's piece is available"
                )
            return None
        if kind == SPLIT and move.a == move.b:
            return "a split 7 moves two different pawns"
        parts = [(move.a, move.n)]
        if kind == SPLIT:
            parts.append((move.b, move.m))
        pids = []
        for code, n in parts:
            where = square_name(code)
            pid = self._pawn_on(code)
            if pid is None:
                return f"no pawn stands on {where}"
            cj = pid >> 2
            if cj not in mine:
                return f"the pawn on {where} is {t.name[cj]}: you move only {whose} pawns"
            pids.append(pid)
            r = pos[pid]
            if kind == SWAP:
                continue
            nr = (r + n) % TRACK if n < 0 and r < TRACK else r + n
            if nr > HOME:
                return (
                    f"the pawn on {where} is {HOME - r} from HOME, not {n}: a piece may enter "
                    "HOME only on a card allowing a move of the exact number of spaces"
                )
            if kind == MOVE and not self._can_land(cj, nr):
                return (
                    f"the pawn on {where} would end on {t.square(cj, nr)}, where a "
                    f"{t.name[cj]} pawn stands: pieces of the same colour may not occupy the "
                    "same space"
                )
        if kind == SWAP:
            where = square_name(move.b)
            other = self._pawn_on(move.b)
            if other is None:
                return f"no pawn stands on {where} to change places with"
            if other >> 2 in mine:
                return f"the pawn on {where} is not an opponent's: an 11 changes places with one"
            return None
        if kind == SPLIT:
            return self._why_not_split(move, pids[0], pids[1])
        return None

    def _why_not_split(self, move: SorryMove, p: int, q: int) -> str:
        """Why a split 7 of pawns `p` (first) and `q`, each step fine alone, is refused."""
        t = self.t
        pos = self.pos
        cp, cq = p >> 2, q >> 2
        rp, rq = pos[p] + move.n, pos[q] + move.m
        swapped = SorryMove(7, SPLIT, move.b, move.m, move.a, move.n)
        other = f"; the other order, {swapped}, is legal" if swapped in self.legal_moves() else ""
        ends = [self._slide_end(cp, rp), self._slide_end(cq, rq)]
        if ends[0] < HOME and t.code[cp][ends[0] + 1] == t.code[cq][ends[1] + 1]:
            return f"both pawns would end on {t.square(cp, ends[0])}{other}"
        waits = ""
        for pid, cj, r in ((p, cp, rp), (q, cq, rq)):
            if r < TRACK:
                o = self.occ[t.abs[cj][r]]
            else:
                o = next((x for x in range(cj << 2, (cj << 2) + 4) if pos[x] == r < HOME), -1)
            if o < 0 or o >> 2 != cj:
                continue
            where = square_name(t.code[cj][pos[pid] + 1])
            if o == q and pid == p:
                waits = (
                    f"the pawn on {where} would land on {t.square(cj, r)}, where the other pawn "
                    f"stands until it moves{other}"
                )
            elif o not in (p, q):
                return (
                    f"the pawn on {where} would end on {t.square(cj, r)}, where a {t.name[cj]} "
                    f"pawn stands: pieces of the same colour may not occupy the same space{other}"
                )
        return waits or (
            f"the first part sends the other pawn back to START, so it cannot move on{other}"
        )

    def _slide_end(self, cj: int, r: int) -> int:
        """Where a pawn of colour index `cj` landing on relative place `r` ends, slides included."""
        if r >= TRACK:
            return r
        side = SLIDE_SIDE[self.t.abs[cj][r]]
        return r + SLIDE_LEN[self.t.abs[cj][r]] if side >= 0 and side != self.t.colour[cj] else r

    def _same_split(self, move: SorryMove) -> bool:
        """The legal split `move` leaves both its pawns where their steps take them (slides
        included): neither is sent back by the other, so its order makes no difference to what
        a person means by the two steps."""
        p, q = self._pawn_at(move.a), self._pawn_at(move.b)
        after = self._pawns_after(move)
        return after[p] == self._slide_end(p >> 2, self.pos[p] + move.n) and after[
            q
        ] == self._slide_end(q >> 2, self.pos[q] + move.m)

    def forced_move(self) -> Move:
        """A player out of time makes the first legal move that is not a forfeit (seed 003: a
        player MUST make any move directed by the cards if possible)."""
        legal = self.legal_moves()
        for m in legal:
            if isinstance(m, SorryMove) and m.kind != PASS:
                return m
        return legal[0]

    def apply(self, move: Move | str) -> Move:
        """As `State.apply`, inlined: it is the hot path of every playout and search. Anything
        but a legal move goes through `check`, the one gate."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        if move.__class__ is not SorryMove or move not in legal:
            move = self.check(move)
        self._legal = None
        self.history.append(move)
        self._apply(move, legal)
        return move

    def legal_moves(self) -> list[Move]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return legal[:]

    def _resolve_text(self, text: str) -> Move:
        """The notation, read leniently where the position settles it: a split 7 written in the
        other order when only that order is legal and it moves both pawns as their steps say (the
        first part would land on the second pawn, or its slide send it back, before it moves),
        and `1 enter` / `2 enter` without a colour when only one fits."""
        legal = self._legal if self._legal is not None else self.legal_moves()
        t = " ".join(text.strip().lower().split())
        if t in ("1 enter", "2 enter", "enter"):
            fits = [m for m in legal if isinstance(m, SorryMove) and m.kind == ENTER]
            if t != "enter":
                fits = [m for m in fits if str(m).startswith(t)]
            if len(fits) == 1:
                return fits[0]
        m = parse_move(text)
        if m.kind == SPLIT and m not in legal:
            other = SorryMove(7, SPLIT, m.b, m.m, m.a, m.n)
            if other in legal and self._same_split(other):
                return other
        return m
