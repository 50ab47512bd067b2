"""The Whot! engine: one state machine for every rule set, driven by `WhotRules`.

Seats are numbered 0..n-1; "the left" is the next number (seed 000: play passes to the LEFT).
The pack is a list whose end is its top. The pile holds the played cards, the call card last.

A turn is one or more moves by the player to move. It ends with a draw, or with a play after which
the rules give no way to go on; where they do (straights, double decking) the turn stays open and
`end` closes it — offered after every play that could be continued under the rules, whatever the
hand holds, so that an open turn never tells the table what the player holds. Only the last card
of a turn of several cards has its power (a documented choice; the sheets do not say), except that
pick cards of one number played together each count toward the pick (seed 002: "two cards for
every 2-cards that was played").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from parlour.core import (
    Game,
    IllegalMove,
    LoadError,
    Move,
    Result,
    SetupError,
    State,
    events_from_wire,
    refuse,
    rules_to_dict,
    to_wire,
)
from parlour.core.formats import MatchFormat
from parlour.core.options import override
from parlour.core.rng import GameRng, fresh_seed

from .cards import (
    PACK,
    STAR,
    SYMBOLS,
    WHOT,
    card_text,
    hand_points,
    pack_counter,
    parse_card,
    parse_symbol,
)
from .events import (
    KINDS,
    Dealt,
    Drew,
    GameOver,
    GeneralMarket,
    NothingToDraw,
    Penalty,
    Played,
    Refilled,
    Reversed,
    Skipped,
    Suspended,
    TurnedUp,
)
from .moves import DRAW, END, PASS, PLAIN, WhotMove, parse_move, play
from .rules import DECLARATIONS, PICK_AMOUNT, WhotRules

__all__ = ["DeclaringWhotState", "WhotGame", "WhotState", "lacks_from_events", "view_events"]


def lacks_from_events(events: Iterable[Any], n: int) -> tuple[int, int]:
    """The symbols each seat was seen not to follow — it drew one card (not a pick) while the
    symbol was called — and has not played since, as one bit mask (bit `5 * seat + symbol`); and
    the symbol the events last called (-1: none, as after a WHOT turned up, or in a chosen position
    before its first play). Public knowledge, built from the events only (seed 000: "note which
    numbers and symbols your opponents cannot follow"). `WhotState.lacks` keeps the same up to
    date move by move. The events are typed (`view_events` reads a view's)."""
    lacks = 0
    call = -1
    for ev in events:
        kind = ev.kind
        if kind == "play":
            move = ev.move
            if move.card == WHOT:
                call = move.call
            else:
                call = move.card & 7
                if 0 <= ev.player < n:
                    lacks &= ~(1 << (5 * ev.player + call))
        elif kind == "turn_up":
            c = parse_card(ev.card)
            call = -1 if c == WHOT else c & 7
        elif kind == "draw" and ev.cards == 1 and 0 <= ev.player < n and call >= 0:
            lacks |= 1 << (5 * ev.player + call)
    return lacks, call


def view_events(view: Mapping[str, Any]) -> list[Any]:
    """A view's events as typed events, whether it came from `view()` or as JSON."""
    return events_from_wire(view.get("events", ()), KINDS, parse_move)


#: `Result.reason` for each way a game ends (no player named: the edges add names).
REASONS = {
    "last card": "played the last card",
    "market ran out": "the market ran out; the lowest hand wins",
    "nothing to draw": "no card was left to draw; the lowest hand wins",
    "blocked": "every player went to market and found nothing; the lowest hand wins",
}

# The events of the hot path, built once (a NamedTuple's construction is a Python call):
# `_PLAYED[move][player]`, `_DREW[player]` (one card), `_DREW_PICK[cards][player]` (a pick, up to
# 16 cards), `_SUSPENDED[player]`, `_GENERAL_MARKET[player]`, `_REFILLED[shuffled]`.
_PLAYED: dict[WhotMove, list[Played]] = {}
_DREW = [Drew(p, 1) for p in range(64)]
_DREW_PICK = [[Drew(p, k) for p in range(64)] for k in range(17)]
_SUSPENDED = [Suspended(p) for p in range(64)]
_GENERAL_MARKET = [GeneralMarket(p) for p in range(64)]
_REFILLED = (Refilled(shuffled=False), Refilled(shuffled=True))

# The hot path's legal-move tables, indexed by the card (an int up to WHOT): a card's plain move
# where it may be played, else None. A list indexed by an int is the cheapest test CPython has: a
# `c in frozenset` per card of the hand cost 30% more instructions, and C-level `filter`/`map`
# over the hand more still (the calls, for hands of 5 to 20 cards).
_CARD_SLOTS = WHOT + 1
# `_PICK_MOVES[number]`: the cards of that number, which answer a pick of it (pick_stacking).
_PICK_MOVES: list[list[WhotMove | None]] = [
    [PLAIN.get(c) if c >> 3 == num else None for c in range(_CARD_SLOTS)] for num in range(21)
]
# `_FOLLOW_MOVES[ko][call_sym * 32 + call_num + 1]`: the cards that may follow that call (WHOT
# aside), as `WhotGame.follows` has them; built when a rule set first needs them. A WHOT's entry
# is `_WHOT_HELD`, a marker (never a legal move), so the scan of the hand that lists the moves
# also sees whether it holds a WHOT: `WHOT in hand` compared every card again, as many
# instructions as the scan itself.
_FOLLOW_MOVES: dict[bool, list[list[WhotMove | None]]] = {}
_WHOT_HELD = WhotMove("play", WHOT, -1, "", "")


def _follow_moves(follows: list[frozenset[int]], ko: bool) -> list[list[WhotMove | None]]:
    tables = _FOLLOW_MOVES.get(ko)
    if tables is None:
        tables = _FOLLOW_MOVES[ko] = [
            [PLAIN.get(c) if c in f else None for c in range(_CARD_SLOTS)] for f in follows
        ]
        for table in tables:
            table[WHOT] = _WHOT_HELD
    return tables


def _played(p: int, move: WhotMove) -> Played:
    evs = _PLAYED.get(move)
    if evs is None:
        evs = _PLAYED[move] = [Played(q, move) for q in range(64)]
    return evs[p]


_POSITION_KEYS = {
    "hands", "pile", "pack", "call", "to_play", "dealer", "direction", "pending_pick",
    "pick_number", "pending_skip", "turn_cards", "turn_said", "straight_dir", "owed",
    "empty_draws", "known", "pack_public",
}  # fmt: skip


def _whole(value: Any) -> bool:
    """A whole number given as one (not True or False, which Python counts as 1 and 0)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _owed_pairs(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(
        isinstance(x, list | tuple) and len(x) == 2 and x[1] in ("last card", "semi-last card")
        for x in value
    )


#: A position's plain values, each checked alone: key -> (its default for n players, whether a
#: value is allowed with n players, the sentence when not; {last} is the last seat's number).
_VALUES: dict[str, tuple[Callable[[int], Any], Callable[[Any, int], bool], str]] = {
    "direction": (
        lambda n: 1,
        lambda v, n: v in (1, -1),
        "direction is 1 (to the left) or -1",
    ),
    "pending_pick": (
        lambda n: 0,
        lambda v, n: _whole(v) and v >= 0,
        "pending_pick is a number of cards",
    ),
    "turn_said": (
        lambda n: [],
        lambda v, n: isinstance(v, list | tuple) and all(x in DECLARATIONS for x in v),
        "turn_said lists declarations: " + ", ".join(DECLARATIONS),
    ),
    "straight_dir": (
        lambda n: 0,
        lambda v, n: v in (-1, 0, 1),
        "straight_dir is -1, 0 or 1",
    ),
    "owed": (
        lambda n: [],
        lambda v, n: _owed_pairs(v),
        "owed lists [player, declaration] pairs, the declaration 'last card' or 'semi-last card'",
    ),
    "empty_draws": (
        lambda n: 0,
        lambda v, n: _whole(v) and 0 <= v < n,
        "empty_draws counts players, from 0 to {last}",
    ),
    "known": (
        lambda n: [[] for _ in range(n)],
        lambda v, n: isinstance(v, list | tuple) and len(v) == n,
        "known lists, per player, the cards all have seen",
    ),
}


def _cards(value: Any, what: str) -> list[int]:
    if not isinstance(value, list | tuple):
        raise SetupError(f"position: {what} must be a list of cards")
    try:
        return [parse_card(str(t)) for t in value]
    except IllegalMove as exc:
        raise SetupError(f"position: {what}: {exc.reason}") from None


def _seat(value: Any, what: str, n: int) -> int:
    if not _whole(value) or not 0 <= value < n:
        raise SetupError(f"position: {what} must be a seat from 0 to {n - 1}")
    return int(value)


class WhotGame(Game[WhotRules, "WhotState"]):
    name = "whot"

    def __init__(self, players: int, rules: WhotRules, preset: str | None = None) -> None:
        # The packs follow the table's size where the rules leave them to it (packs=0), and the
        # deal must fit them: `game.rules.packs` is always 1 or 2.
        rules = rules.for_table(players)
        super().__init__(players, rules, preset)
        # The app rule (empty_pack=end): the game ends as soon as the market runs out.
        self.market_ends = rules.empty_pack == "end"
        self.power_of = rules.power_of
        # The moves each card offers when played, prebuilt once per rule set.
        self.whot_moves: tuple[WhotMove, ...] = tuple(
            play(WHOT, s, p) for s in range(5) for p in ("", *rules.whot_powers)
        )
        self.multi = rules.straights != "off" or rules.double_decking != "off"
        self.each = rules.turn_powers == "each"  # every card of a turn has its power
        self.declares = frozenset(rules.declarations)
        # Where declarations are said, a forgotten one is charged after the next player's move:
        # states of those rules check for it after every move, the others need not.
        self.state_class: type[WhotState] = DeclaringWhotState if self.declares else WhotState
        # Pick cards whose player may say "and change direction" (pick_reverses), by card: each
        # is offered plain and reversed.
        self.reversible: dict[int, WhotMove] = {}
        if rules.pick_reverses:
            picks = {n for n, power in rules.powers if power in PICK_AMOUNT}
            self.reversible = {c: play(c, power="reverse") for c in PACK if c >> 3 in picks}
        # The hot path: most turns need no declarations, no open turn, no finishing check and no
        # choice of direction.
        self.fast = not self.declares and rules.may_finish_on_special and not self.reversible
        # Every card a turn of one card (no straights, no double decking), nothing to declare and
        # no change of direction by a pick card: a plain card's play just passes the turn on.
        self.lean = not self.multi and not self.declares and not self.reversible
        self.single_pack = rules.packs == 1
        self.draw_always = rules.may_draw_instead
        self.whot_on_whot = rules.whot_on_whot
        # follows[call_sym * 32 + call_num + 1]: the cards (WHOT aside) that may follow that call.
        # Knock-out Whot and the star-doubling variation let a star follow either of its numbers.
        ko = rules.knockout or rules.star_doubling
        kinds = sorted(set(PACK) - {WHOT})
        self.follows: list[frozenset[int]] = [frozenset()] * (5 * 32)
        for sym in range(5):
            for num in range(-1, 15):
                self.follows[sym * 32 + num + 1] = frozenset(
                    c
                    for c in kinds
                    if c & 7 == sym
                    or c >> 3 == num
                    # seed 002, Knock-out Whot: "You can play your star card if the call-card
                    # shows a star or any of the numbers on your star card"; Variations: "able to
                    # play star cards using either the number in the top left or the doubled
                    # number written in the star".
                    or (ko and c & 7 == STAR and num in (c >> 3, 2 * (c >> 3)))
                )
        # Whether any card of the pack could extend a straight ending on `card` going `step`;
        # a turn stays open only then, so `end` is never asked for when nothing could follow.
        same = rules.straights == "same-symbol"
        # A number's place in a straight: the number itself, or with straight_gaps its place
        # among the numbers the pack has (no 6s or 9s), so that 5 then 7 is a step.
        self.rank = list(range(21))
        if rules.straight_gaps:
            for i, num in enumerate(sorted({c >> 3 for c in kinds})):
                self.rank[num] = i
        rank = self.rank
        self.straight_open = {
            (c, step): any(
                rank[c2 >> 3] - rank[c >> 3] in ((1, -1) if step == 0 else (step,))
                and (not same or c2 & 7 == c & 7)
                for c2 in kinds
            )
            for c in kinds
            for step in (-1, 0, 1)
        }
        self.kinds = kinds
        self.follow_moves = _follow_moves(self.follows, ko)
        # Each card's symbol, number and power (None: none), by the card (`c & 7` and `c >> 3` are
        # not specialised by CPython 3.11: a generic call each), and the events of every move the
        # hot path plays.
        self.card_info: list[tuple[int, int, str | None]] = [
            (c & 7, c >> 3, self.power_of.get(c >> 3)) for c in range(_CARD_SLOTS)
        ]
        for m in (*PLAIN.values(), *self.whot_moves):
            _played(0, m)
        self.pick_stacking = rules.pick_stacking
        self.whot_answers_pick = rules.whot_answers_pick

    def new_game(
        self,
        seed: int | None = None,
        dealer: int | None = None,
        position: Mapping[str, Any] | None = None,
        **setup: Any,
    ) -> WhotState:
        """A new game. `dealer` defaults to the last seat, so seat 0 leads. `position` starts
        from a chosen position instead of a deal: see `from_position`."""
        if setup:
            raise SetupError(f"unknown setup for whot: {', '.join(setup)}")
        if position is not None:
            if dealer is not None and "dealer" not in position:
                position = {**position, "dealer": dealer}
            return self.from_position(position, seed)
        seed = fresh_seed() if seed is None else seed
        n = self.players
        if dealer is None:
            dealer = n - 1
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise SetupError(f"dealer must be a seat from 0 to {n - 1}")
        st = self.state_class.__new__(self.state_class)
        st._init_empty(self, seed, {"dealer": dealer} if dealer != n - 1 else {})
        st._deal(dealer)
        return st

    def from_position(self, spec: Mapping[str, Any], seed: int | None = None) -> WhotState:
        """A game from a chosen position (docs/whot.md, "Positions"): every key but `hands` may
        be left out.

            {"hands": [["5 circle", "whot"], ["3 star"]],    each player's cards
             "pile": ["4 circle", "5 circle"],               played cards, the call card last
             "pack": ["7 square", ...],                      the market from the top down; the
                                                             cards placed nowhere go, shuffled by
                                                             `seed`, under it
             "call": "circle",                               the symbol to follow (needed on a
                                                             WHOT; on any other card its symbol)
             "to_play": 0, "dealer": 1, "direction": 1,
             "pending_pick": 0, "pick_number": null, "pending_skip": false,
             "turn_cards": [], "turn_said": [], "straight_dir": 0,   an open turn of several cards
             "owed": [[0, "last card"]],                     declarations forgotten, not yet
                                                             charged
             "empty_draws": 0,                               players in a row who found nothing
                                                             to draw (nothing_to_draw=pass)
             "known": [[], []], "pack_public": false}        cards everyone has seen, a known pack

        `State.position()` gives every key, and `from_position(s.position())` shows the same views
        (but the events) and legal moves as `s`. A bad position raises `SetupError`.
        """
        if not isinstance(spec, Mapping):
            raise SetupError("a Whot! position is a JSON object (see docs/whot.md)")
        seed = fresh_seed() if seed is None else seed
        st = self.state_class.__new__(self.state_class)
        st._init_empty(self, seed, {"position": dict(spec)})
        st._set_position(spec)
        return st

    def parse_move(self, text: str) -> WhotMove:
        return parse_move(text)

    def match_format(self, name: str | None = None) -> MatchFormat:
        return MatchFormat.parse(
            name or self.rules.match, lower_wins=True, dealer_by_cut=self.rules.dealer_by_cut
        )

    def cut_for_dealer(self, rng: GameRng) -> tuple[int, str]:
        """seed 000: each player cuts; the WHOT counts high; the LOWEST deals; ties cut again."""
        pack = list(PACK) * self.rules.packs
        contenders = list(range(self.players))
        words = []
        while True:
            rng.shuffle(pack)
            cuts = {p: pack[i * 3] for i, p in enumerate(contenders)}
            words.append(", ".join(f"{{P{p + 1}}} cut {card_text(c)}" for p, c in cuts.items()))
            low = min(c >> 3 for c in cuts.values())
            contenders = [p for p, c in cuts.items() if c >> 3 == low]
            if len(contenders) == 1:
                d = contenders[0]
                return d, "; ".join(words) + f": {{P{d + 1}}} cut lowest and deals"

    def state_from_dict(self, data: dict[str, Any]) -> WhotState:
        return WhotState._from_dict(self, data)

    def sample_state(self, view: dict[str, Any], rng: GameRng) -> WhotState:
        return WhotState._from_view(self, view, rng)


class WhotState(State):
    game: WhotGame

    # --- construction ------------------------------------------------------------------------
    def _init_empty(self, game: WhotGame, seed: int, setup: dict[str, Any]) -> None:
        n = game.players
        self.game = game
        self.n = n
        self.seed = seed
        self.setup = setup
        self.history = []
        self._legal = None
        self.rng = GameRng(seed)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]  # cards all players know are there
        self.pack: list[int] = []
        self.pack_public = False  # after a Storey turn-over everyone knows the order
        self.pile: list[int] = []
        self.call_sym = -1  # symbol to follow; -1 with `free` means any card may be played
        self.call_num = -1
        self.free = True
        self.current: int | None = 0
        self.dealer = n - 1
        self.direction = 1
        self.pending_pick = 0
        self.pick_num = -1
        self.pending_skip = False
        self.turn_cards: list[int] = []
        self.turn_said: list[str] = []
        self.straight_dir = 0
        # Declarations a player failed to say, (player, "last card"), charged once another player
        # has moved (seed 002: "before the next player has played").
        self.owed: tuple[tuple[int, str], ...] = ()
        # nothing_to_draw=pass: the players who went to market in a row and found nothing.
        self.dry = 0
        self.is_over = False  # (on the state: a class attribute is a slower read in CPython 3.11)
        self.events: list[Any] = []  # typed events (.events)
        # The symbols each seat was seen not to follow, bit `5 * seat + symbol`: what
        # `lacks_from_events` reads from the events, kept up event by event (for the hint bot's
        # rules on full states). Public and derived from the events: not saved, no part of
        # equality. The events' call is `call_sym`, except in a chosen position before its first
        # play (its call card was never called by an event): then bit `5 * n` is set too. (One
        # field, an int: a 30th attribute makes CPython 3.11 give up the shared-key instance
        # dict, which slows every attribute access of the engine. So `winners`, set once the
        # game is over, lives on the class until then.)
        self.lacks = 0

    def _deal(self, dealer: int) -> None:
        rules, n = self.game.rules, self.n
        self.dealer = dealer
        pack = list(PACK) * rules.packs
        self.rng.shuffle(pack)
        self.pack = pack
        # seed 000: "deals out one card to the player on his LEFT, then a card to the next player
        # on the left, and so on until every player has SIX cards."
        for _ in range(rules.deal):
            for i in range(1, n + 1):
                self.hands[(dealer + i) % n].append(pack.pop())
        leader = (dealer + 1) % n
        self.current = leader
        self.events.append(Dealt(dealer, rules.deal))
        if rules.opening == "leader-plays-any":
            return  # seed 000: the leader plays ANY card
        top = pack.pop()
        if rules.opening_special == "bury":
            while top == WHOT or (top >> 3) in self.game.power_of:
                pack.insert(self.rng.randrange(len(pack) + 1), top)
                top = pack.pop()
        self.pile.append(top)
        self.events.append(TurnedUp(card_text(top)))
        if top == WHOT:
            return  # no symbol has been called: the leader plays any card
        self.free = False
        self.call_sym, self.call_num = top & 7, top >> 3
        if rules.opening_special == "applies" and (top >> 3) in self.game.power_of:
            self.current = dealer
            self._end_turn(dealer, top, check=False)  # the dealer said nothing, owes nothing

    def _set_position(self, pos: Mapping[str, Any]) -> None:
        """Read `pos`: the cards first (hands, pile, pack, each once in the pack), the seats, the
        call; then the plain values by `_VALUES`, and the rules that tie them to the cards."""
        n = self.n
        game = self.game
        unknown = sorted(set(pos) - _POSITION_KEYS)
        raw_hands: Any = pos.get("hands")
        given = len(raw_hands) if isinstance(raw_hands, list | tuple) else "no"
        refuse(
            (
                unknown,
                f"position: unknown keys {', '.join(unknown)}; "
                f"known: {', '.join(sorted(_POSITION_KEYS))}",
            ),
            ("hands" not in pos, "position: 'hands' is needed, one list of cards per player"),
            (given != n, f"position gives {given} hands for {n} players"),
        )
        hands = [_cards(h, f"hand {p}") for p, h in enumerate(raw_hands)]
        pile = _cards(pos.get("pile", []), "pile")
        top_first = _cards(pos.get("pack", []), "pack")
        left = pack_counter(game.rules.packs)
        left.subtract(Counter(c for h in hands for c in h))
        left.subtract(Counter(pile + top_first))
        over = [card_text(c) for c, k in left.items() if k < 0]
        refuse(
            (over, f"position uses more cards than the pack has: {', '.join(over)}"),
            *(
                (not h, f"position: player {p} has no cards, so the game would be over")
                for p, h in enumerate(hands)
            ),
        )
        self.dealer = _seat(pos.get("dealer", n - 1), "dealer", n)
        self.current = _seat(pos.get("to_play", (self.dealer + 1) % n), "to_play", n)
        self.pack_public = bool(pos.get("pack_public", False))
        refuse(
            (
                self.pack_public and sum(left.values()),
                "position: a known pack ('pack_public') must list every card",
            )
        )
        if self.pack_public:
            self.pack = top_first[::-1]
        else:
            rest = sorted(left.elements())
            self.rng.shuffle(rest)
            self.pack = rest + top_first[::-1]
        call = pos.get("call")
        refuse(
            (
                not self.pack and game.market_ends,
                "position: the market is empty, and with empty_pack=end that game is over",
            ),
            (not pile and call is not None, "position: a call needs a call card on the pile"),
        )
        self.hands = hands
        self.pile = pile
        if pile:
            self.lacks = 1 << 5 * n
            top = pile[-1]
            self.free = False
            if top == WHOT:
                # A WHOT with no call is one turned up at the start: any card may follow it.
                self.free = call is None
                self.call_sym = -1 if call is None else self._symbol(call)
                self.call_num = -1
            else:
                self.call_sym, self.call_num = top & 7, top >> 3
                refuse(
                    (
                        call is not None and self._symbol(call) != top & 7,
                        f"position: the call card {card_text(top)} calls no {call}",
                    )
                )
        # the plain values, each checked alone by its row of _VALUES
        values = {}
        for key, (default, allowed, sentence) in _VALUES.items():
            value = pos.get(key, default(n))
            refuse((not allowed(value, n), "position: " + sentence.format(last=n - 1)))
            values[key] = value
        self.direction = values["direction"]
        self.pending_pick = pick = values["pending_pick"]
        self.pending_skip = bool(pos.get("pending_skip", False))
        self.turn_said = list(values["turn_said"])
        self.straight_dir = values["straight_dir"]
        self.dry = values["empty_draws"]
        number: Any = pos.get("pick_number")
        self.turn_cards = turn = _cards(pos.get("turn_cards", []), "turn_cards")
        self.owed = tuple((_seat(q, "an owing player", n), str(d)) for q, d in values["owed"])
        self.known = [_cards(k, f"known {p}") for p, k in enumerate(values["known"])]
        # and the rules that tie them to the cards and the rules
        refuse(
            (
                pick and (not isinstance(number, int) or number not in game.power_of),
                "position: a pending pick needs the 'pick_number' of its card",
            ),
            (
                turn and pile[-len(turn) :] != turn,
                "position: the turn's cards must be the last cards of the pile",
            ),
            *(
                (
                    need not in game.declares,
                    f"position: owed names '{need}', which these rules do not ask for",
                )
                for _, need in self.owed
            ),
            *(
                (
                    Counter(k) - Counter(hands[p]),
                    f"position: known cards of player {p} are not all in the hand",
                )
                for p, k in enumerate(self.known)
            ),
        )
        if pick:
            self.pick_num = number

    @staticmethod
    def _symbol(word: Any) -> int:
        try:
            return parse_symbol(str(word))
        except IllegalMove as exc:
            raise SetupError(f"position: {exc.reason}") from None

    # --- the protocol --------------------------------------------------------------------------
    @property
    def rules(self) -> WhotRules:
        return self.game.rules

    @property
    def reason(self) -> str:
        """How the game ended, in words ("" while it goes on): its `GameOver` event's."""
        if self.current is None:
            for ev in reversed(self.events):
                if ev.kind == "game_over":
                    return REASONS[ev.how]
        return ""

    @property
    def to_play(self) -> int | None:
        return self.current

    #: Whether the game is over (`current` is None): a plain attribute, not a property, since
    #: every playout loop reads it once a move and a property is a call. Set on every state
    #: (`_init_empty`, `_finish`, `_build`), and so read at the speed of one.
    is_over = False
    #: Who won: set by `_finish`; on the class until then (see `lacks` in `_init_empty`).
    winners: tuple[int, ...] = ()

    def result(self) -> Result:
        if self.current is not None:
            raise ValueError("the game is not over")
        r = self.game.rules
        points = tuple(hand_points(h, r.knockout, r.star_doubling) for h in self.hands)
        return Result.ranked(self.winners, points, True, self.reason)

    def why_illegal(self, move: Any) -> str | None:
        """The rule that refuses `move` now, in words: "13 circle cannot follow the call: triangle
        or 8", "pick 4 is pending: answer with a 2 or go to market", ..."""
        if not isinstance(move, WhotMove) or self.current is None:
            return None
        r = self.game.rules
        p = self.current
        say = move.say
        if say and say not in self.game.declares:
            return f"these rules have no '{say}' to say"
        if move.kind == "end":
            return "there is no turn of several cards to end"
        if move.kind == "pass":
            return "'pass' only lets a WHOT's skip stand"
        if self.pending_skip:
            return "a WHOT skipped you: answer with a WHOT or pass"
        if self.turn_cards and move.kind == "draw":
            return "your turn is open: play on or end it"
        if move.kind == "draw":
            return "these rules let you draw only when you cannot follow the call"
        c = move.card
        name = "a WHOT" if c == WHOT else card_text(c)
        if c not in self.hands[p]:
            return f"you hold no {'WHOT' if c == WHOT else card_text(c)}"
        if c == WHOT and move.power and move.power not in r.whot_powers:
            return f"a WHOT may not {move.power} under these rules"
        if c != WHOT and move.power and c not in self.game.reversible:
            if not r.pick_reverses:
                return "these rules did not agree to a change of direction (pick_reverses)"
            return f"only a pick card changes the direction, not {card_text(c)}"
        if self.pending_pick:
            answers = [f"a {self.pick_num}"] if r.pick_stacking else []
            if r.whot_answers_pick:
                answers.append("a WHOT")
            answer = f"answer with {' or '.join(answers)} or " if answers else ""
            return f"pick {self.pending_pick} is pending: {answer}go to market"
        if self.turn_cards:
            return f"{name} does not continue this turn: play on with what follows it, or end"
        left = len(self.hands[p]) - 1
        if left == 0 and not r.may_finish_on_special and (c >> 3) in self.game.power_of:
            return "under these rules the last card may not be a special card"
        if c == WHOT:
            if self.pile and self.pile[-1] == WHOT and not r.whot_on_whot:
                return "under these rules a WHOT may not follow a WHOT"
        elif not self.free:
            call = SYMBOLS[self.call_sym]
            follow = f"{call} or {self.call_num}" if self.call_num >= 0 else call
            return f"{card_text(c)} cannot follow the call: {follow}"
        if say:
            return f"'{say}' is not what to say with this card"
        return None

    def forced_move(self) -> WhotMove:
        """seed 002: a player too slow "is demanded ... to pick a card from the market"."""
        legal = self.legal_moves()
        for m in (DRAW, PASS, END):
            if m in legal:
                return m
        return cast(WhotMove, legal[0])  # pragma: no cover - draw, pass or end is always legal

    # --- the hot path ----------------------------------------------------------------------------
    # A random or search playout calls `legal_moves` and `apply` once a move, and in CPython 3.11
    # each Python call costs about as much as the work of a plain move. So these two override the
    # protocol's versions with the most common cases written out in them — following the call
    # with one card, drawing one card — and hand every other case to `_legal_moves` and `_apply`,
    # which hold the whole rules. `tests/games/whot/test_whot_hot_path.py` holds the written-out
    # paths equal to the general ones.

    def legal_moves(self) -> list[Move]:
        legal = self._legal
        if legal is None:
            p = self.current
            g = self.game
            if p is None or self.turn_cards or self.pending_skip or not g.fast:
                moves = self._legal_moves()
            elif self.pending_pick:  # `_legal_in_general`'s pick, written out
                hand = self.hands[p]
                moves = []
                if g.pick_stacking:
                    table = _PICK_MOVES[self.pick_num]
                    for c in hand if g.single_pack else dict.fromkeys(hand):
                        m = table[c]
                        if m is not None:
                            moves.append(m)
                if g.whot_answers_pick and WHOT in hand:
                    moves += g.whot_moves
                moves.append(DRAW)
            elif self.free:
                moves = self._legal_moves()
            else:  # `_legal_moves`' fast path
                table = g.follow_moves[self.call_sym * 32 + self.call_num + 1]
                moves = []
                whot = False
                for c in self.hands[p] if g.single_pack else dict.fromkeys(self.hands[p]):
                    m = table[c]
                    if m is not None:
                        if m is _WHOT_HELD:
                            whot = True
                        else:
                            moves.append(m)
                if whot and (g.whot_on_whot or self.pile[-1] != WHOT):
                    moves += g.whot_moves
                if not moves or g.draw_always:
                    moves.append(DRAW)
            # A list of WhotMoves is the list of Moves the protocol keeps (it is never written to).
            self._legal = moves  # type: ignore[assignment]
            return moves[:]  # type: ignore[return-value]
        return legal[:]

    def apply(self, move: Move | str) -> Move:
        legal = self._legal
        if legal is None:
            self.legal_moves()
            legal = self._legal
        if move.__class__ is str or move not in legal:  # type: ignore[operator]
            move = self.check(move)
        m: WhotMove = move  # type: ignore[assignment]  # (no cast(): it is a call)
        self._legal = None
        self.history.append(m)
        p = self.current
        assert p is not None
        g = self.game
        if not g.declares:  # (declarations are charged after every move: `DeclaringWhotState`)
            kind = m.kind
            if kind == "play" and g.lean and not self.turn_cards and not self.turn_said:
                c = m.card
                hand = self.hands[p]
                if len(hand) > 1:
                    # One card that is not the last (the rules allow no more in a turn): `_play`
                    # without its branches for open turns, declarations and the last card, and
                    # `_end_turn` only for a card with a power.
                    hand.remove(c)
                    known = self.known[p]
                    if known and c in known:
                        known.remove(c)
                    self.pile.append(c)
                    self.free = False
                    self.events.append(_PLAYED[m][p])  # (built for every move of the hot path)
                    if c == WHOT:
                        self.call_sym, self.call_num = m.call, -1
                        if self.pending_pick:  # a WHOT answering a pick (option) cancels it
                            self.pending_pick, self.pick_num = 0, -1
                        self.pending_skip = False
                        if m.power:
                            self._end_turn(p, c, m.power)
                        else:
                            self.current = (p + self.direction) % self.n
                        return m
                    sym, num, power = g.card_info[c]
                    self.call_sym = sym
                    self.call_num = num
                    if self.lacks >> (5 * p + sym) & 1:  # it holds the symbol after all
                        self.lacks ^= 1 << (5 * p + sym)
                    if power is None:
                        self.current = (p + self.direction) % self.n
                    elif power in PICK_AMOUNT:  # seed 002: the next player picks, or answers
                        self.pending_pick += PICK_AMOUNT[power]
                        self.pick_num = num
                        self.current = (p + self.direction) % self.n
                    elif power == "hold_on":  # seed 002: "can play again"
                        self.current = p
                    elif power == "suspension":  # `_end_turn`'s, the next player is skipped
                        d = self.direction
                        self.events.append(_SUSPENDED[(p + d) % self.n])
                        self.current = (p + 2 * d) % self.n
                    else:  # general market
                        self._end_turn(p, c)
                    return m
            elif kind == "draw" and not g.market_ends:
                k = self.pending_pick
                pack = self.pack
                if not k:
                    if pack:
                        # One card from a market it does not empty for good: `_apply`'s draw and
                        # `_draw` without the refill, the end of the market and the blocked game.
                        self.events.append(_DREW[p])
                        call = self.call_sym
                        if call >= 0:
                            lacks = self.lacks
                            bit = 1 << (5 * p + call)
                            if not lacks & bit:
                                if lacks >> 5 * self.n:  # (a position's mark: `_note_lack`)
                                    self._note_lack(bit)
                                else:
                                    self.lacks = lacks | bit
                        self.pick_num = -1
                        c = pack.pop()
                        self.hands[p].append(c)
                        if self.pack_public:
                            self.known[p].append(c)
                        self.current = (p + self.direction) % self.n
                        return m
                elif k > 1 and len(pack) >= k:
                    # A pick the market holds (a pick of 1, set up in a position, notes a lack
                    # too: `_apply`): `_apply`'s draw, the same way.
                    self.pending_pick = 0
                    self.pick_num = -1
                    self.events.append(_DREW_PICK[k][p] if k <= 16 else Drew(p, k))
                    hand = self.hands[p]
                    for _ in range(k):
                        hand.append(pack.pop())
                    if self.pack_public:
                        self.known[p] += hand[-k:]
                    self.current = (p + self.direction) % self.n
                    return m
        self._apply(m)
        return m

    def _legal_moves(self) -> list[WhotMove]:  # type: ignore[override]
        p = self.current
        if p is None:
            return []
        g = self.game
        hand = self.hands[p]
        if self.turn_cards or self.pending_pick or self.pending_skip or self.free or not g.fast:
            return self._legal_in_general(p, hand)
        # The common case, kept lean: follow the call by symbol or number, or play a WHOT.
        table = g.follow_moves[self.call_sym * 32 + self.call_num + 1]
        # (`legal_moves` writes this path out: keep the two the same)
        moves = []
        for c in hand if g.single_pack else dict.fromkeys(hand):
            m = table[c]
            if m is not None and m is not _WHOT_HELD:
                moves.append(m)
        if WHOT in hand and (g.whot_on_whot or self.pile[-1] != WHOT):
            moves += g.whot_moves
        if not moves or g.draw_always:
            moves.append(DRAW)
        return moves

    def _legal_in_general(self, p: int, hand: list[int]) -> list[WhotMove]:
        g = self.game
        r = g.rules
        moves: list[WhotMove] = []
        if self.turn_cards:  # an open turn of several cards
            for c in dict.fromkeys(hand):
                if c != WHOT and self._continues(c):
                    self._add_plays(moves, c, hand)
            moves.append(END)
            return moves
        if self.pending_skip:
            if WHOT in hand and r.whot_on_whot:
                self._add_plays(moves, WHOT, hand)
            moves.append(PASS)
            return moves
        if self.pending_pick:
            if r.pick_stacking:
                for c in dict.fromkeys(hand):
                    if c >> 3 == self.pick_num and c != WHOT:
                        self._add_plays(moves, c, hand)
            if r.whot_answers_pick and WHOT in hand:
                self._add_plays(moves, WHOT, hand)
            moves.append(DRAW)
            return moves
        simple = not g.declares and r.may_finish_on_special
        if self.free:
            for c in dict.fromkeys(hand):
                self._add_plays(moves, c, hand)
        else:
            sym, num = self.call_sym, self.call_num
            ko = r.knockout or r.star_doubling
            for c in dict.fromkeys(hand):
                if c == WHOT:
                    if self.pile and self.pile[-1] == WHOT and not r.whot_on_whot:
                        continue
                elif not (
                    c & 7 == sym
                    or c >> 3 == num
                    or (ko and c & 7 == STAR and (num == c >> 3 or num == 2 * (c >> 3)))
                ):
                    continue
                if simple:
                    if c == WHOT:
                        moves.extend(g.whot_moves)
                    else:
                        moves.append(PLAIN[c])
                        if c in g.reversible:
                            moves.append(g.reversible[c])
                else:
                    self._add_plays(moves, c, hand)
        if not moves or r.may_draw_instead:
            moves.append(DRAW)
        return moves

    def _add_plays(self, moves: list[WhotMove], c: int, hand: list[int]) -> None:
        left = len(hand) - 1
        if (
            left == 0
            and not self.game.rules.may_finish_on_special
            and (c >> 3) in self.game.power_of
        ):
            return
        g = self.game
        if c == WHOT:
            base: tuple[WhotMove, ...] = g.whot_moves
        elif c in g.reversible:
            base = (PLAIN[c], g.reversible[c])
        else:
            base = (PLAIN[c],)
        say = ""
        if self.game.declares:
            if left == 1:
                say = "last card"
            elif left == 0:
                say = "check up"
            elif left == 2:
                say = "semi-last card"
            if say not in self.game.declares:
                say = ""
        moves.extend(base)
        if say:
            moves.extend(play(m.card, m.call, m.power, say) for m in base)

    def _continues(self, c: int) -> bool:
        """Whether `c` may follow the cards already played this turn (straights, double decking)."""
        r = self.game.rules
        first, last = self.turn_cards[0], self.turn_cards[-1]
        if self.pending_pick and c >> 3 != self.pick_num:
            # A turn that answers a pick goes on only with that number, so that the pick passed
            # on is the one its cards make (the sheets do not say; RULES-NOTES open points).
            return False
        if r.double_decking == "number":
            return c >> 3 == first >> 3
        if r.double_decking == "symbol":
            return c & 7 == first & 7
        if r.straights == "same-symbol" and c & 7 != last & 7:
            return False
        rank = self.game.rank
        step = rank[c >> 3] - rank[last >> 3]
        return step in (1, -1) and (self.straight_dir == 0 or step == self.straight_dir)

    def _apply(self, move: WhotMove) -> None:  # type: ignore[override]
        p = self.current
        assert p is not None
        kind = move.kind
        if kind == "play":
            self._play(p, move)
        elif kind == "draw":
            k = self.pending_pick or 1
            self.pending_pick = 0
            self.pick_num = -1
            self.events.append(_DREW[p] if k == 1 else _DREW_PICK[k][p] if k <= 16 else Drew(p, k))
            call = self.call_sym
            if k == 1 and call >= 0 and not self.lacks >> (5 * p + call) & 1:
                self._note_lack(1 << (5 * p + call))
            if not self._draw(p, k) and self.current is not None:
                # nothing_to_draw=pass: found nothing; once every player in a row has, the game
                # is blocked and ends.
                self.dry += 1
                if self.dry >= self.n:
                    self._finish_by_count("blocked")
            if self.current is not None:
                self._advance(p, 1)
        elif kind == "end":
            self._end_turn(p)
        else:  # pass: the WHOT's skip is accepted
            self.pending_skip = False
            self.events.append(Skipped(p))
            self._advance(p, 1)

    def _charge(self, mover: int) -> None:
        """`mover` has played: the declarations the others failed to say are charged now (seed
        002: 'If you fail to say "Last card" before the next player has played, you have to pick
        two more cards'). The mover's own stay owed until someone else has played."""
        due = [x for x in self.owed if x[0] != mover]
        self.owed = tuple(x for x in self.owed if x[0] == mover)
        for q, need in due:
            if self.current is None:
                return
            self._penalty(q, need)

    # --- the mechanics -------------------------------------------------------------------------
    def _play(self, p: int, move: WhotMove) -> None:
        c = move.card
        hand = self.hands[p]
        hand.remove(c)
        known = self.known[p]
        if known and c in known:
            known.remove(c)
        self.pile.append(c)
        self.free = False
        if c == WHOT:
            self.call_sym, self.call_num = move.call, -1
            if self.pending_pick:  # a WHOT answering a pick (option) cancels it
                self.pending_pick, self.pick_num = 0, -1
            self.pending_skip = False
        else:
            sym = self.call_sym = c & 7
            self.call_num = c >> 3
            if self.lacks >> (5 * p + sym) & 1:  # it holds the symbol after all
                self.lacks ^= 1 << (5 * p + sym)
        multi = self.game.multi and c != WHOT
        if multi:  # only turns of several cards keep their cards; a single card is `last`
            turn = self.turn_cards
            if turn and self.game.rules.straights != "off":
                rank = self.game.rank
                self.straight_dir = rank[c >> 3] - rank[turn[-1] >> 3]
            turn.append(c)
        if move.say:
            self.turn_said.append(move.say)
        self.events.append(_played(p, move))
        if move.power and c != WHOT:
            # seed 002: "In this case it is said out loud: Pick two and change direction" — the
            # direction changes as the card is played, so the pick goes the new way. Where only
            # the last card of a turn has its power, saying it closes the turn.
            self.direction = -self.direction
            self.events.append(Reversed(p))
            if not self.game.each:
                multi = False
        if not hand:
            if "check up" in self.game.declares and "check up" not in self.turn_said:
                # seed 002: "If you fail to say Check up ... you have to pick two more cards from
                # the market and the game continues."
                self._penalty(p, "check up")
                if self.current is None:
                    return
                # The turn ends here, whatever the card: the penalty cards may not be played in the
                # same turn (seed 000: "He cannot DRAW a card and PLAY a card in the SAME TURN";
                # seed 002: "and the next player continues playing"), and the forgotten check up
                # is the only declaration charged for this play.
                self._end_turn(p, c, move.power, check=False, penalised=True)
                return
            else:
                self._finish((p,), "last card")
                return
        if multi and self._turn_can_go_on(c):
            return  # the turn stays open: more cards, or `end`
        self._end_turn(p, c, move.power)

    def _note_lack(self, bit: int) -> None:
        """A player drew one card while a symbol was called: it was seen not to follow it."""
        lacks = self.lacks
        uncalled = 1 << 5 * self.n
        if lacks & uncalled:  # has a play called a symbol since the position was set?
            if not any(cast(WhotMove, m).kind == "play" for m in self.history):
                return
            lacks ^= uncalled
        self.lacks = lacks | bit

    def _turn_can_go_on(self, c: int) -> bool:
        """Whether any card of the pack could follow `c` in this turn — public facts only, so an
        open turn tells the table nothing about the hand."""
        g = self.game
        if self.pending_pick:
            return any(self._continues(x) for x in g.kinds)
        if g.rules.straights != "off":
            return g.straight_open[(c, self.straight_dir)]
        return True  # double decking: every number and symbol has other cards

    def _end_turn(
        self,
        p: int,
        last: int = -1,
        whot_power: str = "",
        check: bool = True,
        penalised: bool = False,
    ) -> None:
        """Close the turn whose last card is `last` (by default the open turn's last card).
        `check`: see whether a declaration was forgotten. `penalised`: the player has just picked
        up a forgotten check up's penalty, so the turn passes: the card's power still acts on the
        others, but none of it gives the player another turn."""
        turn = self.turn_cards
        if last < 0:
            last = turn[-1]
        if turn:
            self.turn_cards = []
            self.straight_dir = 0
        said = self.turn_said
        if said:
            self.turn_said = []
        declares = self.game.declares
        if declares and check:
            n_cards = len(self.hands[p])
            if n_cards in (1, 2):
                # seed 002: "If you fail to say Last card before the next player has played, you
                # have to pick two more cards from the market": owed now, charged once another
                # player has moved (`_charge`), so a player who goes out first in a turn that
                # goes on (Hold on, General market) owes nothing.
                need = "last card" if n_cards == 1 else "semi-last card"
                if need in declares and need not in said:
                    self.owed += ((p, need),)
        if last == WHOT:
            if whot_power == "reverse":
                self.direction = -self.direction
                self.events.append(Reversed(p))
            elif whot_power == "skip" and not (penalised and self.n == 2):  # (back to the player)
                if self.game.rules.whot_answers_skip:
                    self.pending_skip = True
                    self._advance(p, 1)
                    return
                self.events.append(Skipped(self._next(p, 1)))
                self._advance(p, 2)
                return
            self._advance(p, 1)
            return
        if turn and len(turn) > 1 and self.game.each:
            self._end_turn_each(p, turn, penalised)
            return
        power = self.game.power_of.get(last >> 3)
        if power is None or (
            penalised and (power == "hold_on" or (power == "suspension" and self.n == 2))
        ):
            self._advance(p, 1)  # (a penalised player's Hold on, or Suspension at two: no effect)
        elif power == "hold_on":
            # seed 002: "All other players are skipped and the player that played the 1-card can
            # play again"
            self.current = p
        elif power == "general_market":
            # seed 002: "All other players must pick one card each from the market ... and the
            # player that played the 14-card can play again."
            for i in range(1, self.n):
                q = self._next(p, i)
                self._draw(q, 1)
                if self.current is None:
                    return
            self.events.append(_GENERAL_MARKET[p])
            if penalised:
                self._advance(p, 1)
            else:
                self.current = p
        elif power == "suspension":
            self.events.append(_SUSPENDED[self._next(p, 1)])
            self._advance(p, 2)
        else:  # pick_two / pick_three
            # seed 002: "that player must pick two cards for every 2-cards that was played" —
            # so pick cards double-decked together in this turn each count.
            run = 1
            while run < len(turn) and turn[-1 - run] >> 3 == last >> 3:
                run += 1  # `turn` ends with `last` when it holds several cards
            self.pending_pick += PICK_AMOUNT[power] * run
            self.pick_num = last >> 3
            self._advance(p, 1)

    def _end_turn_each(self, p: int, turn: list[int], penalised: bool) -> None:
        """turn_powers=each: every card of a turn of several cards has its power. The picks add up
        (answered by the last pick card's number), each suspension skips one more player, each
        general market gives every other player a card, and the last card says whether the
        player plays again (Hold on, General market) — as they do when the suspensions skip every
        other player. A player who plays again leaves the next player no turn to answer a pick
        in: that player picks it at once. (A change of direction acted as its card was played.)"""
        power_of = self.game.power_of
        n = self.n
        pick = skips = markets = 0
        pick_num = -1
        for c in turn:
            power = power_of.get(c >> 3)
            if power == "suspension":
                skips += 1
            elif power == "general_market":
                markets += 1
            elif power in PICK_AMOUNT:
                pick += PICK_AMOUNT[power]
                pick_num = c >> 3
        for _ in range(markets):
            for i in range(1, n):
                self._draw(self._next(p, i), 1)
                if self.current is None:
                    return
            self.events.append(GeneralMarket(p))
        last = power_of.get(turn[-1] >> 3)
        if penalised:  # a forgotten check up: the turn passes, whatever the cards
            again = False
            skips = min(skips, n - 2)
        else:
            again = last in ("hold_on", "general_market") or skips >= n - 1
        if again:
            if skips >= n - 1 and last not in ("hold_on", "general_market"):
                for i in range(1, n):
                    self.events.append(Suspended(self._next(p, i)))
            if pick:
                q = self._next(p, 1)
                self.events.append(Drew(q, pick))
                self._draw(q, pick)
                if self.current is None:
                    return
            self.current = p
            return
        for i in range(1, skips + 1):
            self.events.append(Suspended(self._next(p, i)))
        if pick:
            self.pending_pick += pick
            self.pick_num = pick_num
        self._advance(p, skips + 1)

    def _next(self, p: int, k: int) -> int:
        return (p + self.direction * k) % self.n

    def _advance(self, p: int, k: int) -> None:
        self.current = (p + self.direction * k) % self.n

    def _penalty(self, p: int, forgot: str) -> None:
        k = self.game.rules.declaration_penalty
        self.events.append(Penalty(p, forgot, k))
        self._draw(p, k)

    def _draw(self, p: int, k: int) -> int:
        """Give `p` up to k cards from the pack, refilling it as the rules say; how many it got.
        A card that cannot be drawn ends the game (nothing_to_draw=end, or empty_pack=end) or is
        not drawn (nothing_to_draw=pass)."""
        hand = self.hands[p]
        for i in range(k):
            # (empty_pack=end: a market that ran out with cards still to take ends the game here)
            if not self.pack and not self._refill():
                if self.current is not None:  # nothing_to_draw=pass
                    self.events.append(NothingToDraw(p, k - i))
                return i
            c = self.pack.pop()
            hand.append(c)
            if self.pack_public:
                self.known[p].append(c)
        if not self.pack and self.game.market_ends:
            # The app rule: "market runs out -> game ends, lowest count wins" — at once, with the
            # cards just taken in the hand (RULES-NOTES).
            self._finish_by_count("market ran out")
        return k

    def _refill(self) -> bool:
        mode = self.game.rules.empty_pack
        if mode != "end" and len(self.pile) > 1:
            top = self.pile[-1]
            under = self.pile[:-1]
            self.pile = [top]
            if mode == "turn-over":
                # seed 000: "the last Call card is left FACE UPWARDS on the table, and the
                # remainder of the pack turned FACE DOWNWARDS (without shuffling)". Turned over,
                # the first card played is on top — and everyone saw the order.
                self.pack = under[::-1]
                self.pack_public = True
                self.events.append(_REFILLED[False])
            else:
                self.rng.shuffle(under)
                self.pack = under
                self.pack_public = False
                self.events.append(_REFILLED[True])
            self.dry = 0
            return True
        if mode == "end":
            self._finish_by_count("market ran out")
        elif self.game.rules.nothing_to_draw == "end":
            # RULES-NOTES: the market is empty and nothing can be turned over or shuffled (every
            # card is in a hand): the game ends and hands are counted.
            self._finish_by_count("nothing to draw")
        return False

    def _finish(self, winners: tuple[int, ...], how: str) -> None:
        """End the game; `how` is a `GameOver.how` ("last card", "market ran out", …)."""
        self.winners = winners
        self.current = None
        self.is_over = True
        self.pending_pick = 0
        self.pending_skip = False
        self.turn_cards = []
        self.turn_said = []
        self.owed = ()
        self.events.append(GameOver(winners, how))

    def _finish_by_count(self, how: str) -> None:
        r = self.game.rules
        pts = [hand_points(h, r.knockout, r.star_doubling) for h in self.hands]
        low = min(pts)
        winners = tuple(i for i, x in enumerate(pts) if x == low)
        self._finish(winners, how)

    # --- copies, saves, views ------------------------------------------------------------------
    def copy(self) -> WhotState:
        cls = type(self)
        s = cls.__new__(cls)
        d = self.__dict__.copy()
        s.__dict__ = d
        d["hands"] = [h[:] for h in self.hands]
        d["known"] = [k[:] for k in self.known]
        d["pack"] = self.pack[:]
        d["pile"] = self.pile[:]
        d["turn_cards"] = self.turn_cards[:]
        d["turn_said"] = self.turn_said[:]
        d["events"] = self.events[:]
        d["history"] = self.history[:]
        d["rng"] = self.rng.copy()
        d["_legal"] = None
        return s

    def _public(self) -> dict[str, Any]:
        """Everything every player may know but the events. Used by both views and saves."""
        return {
            "dealer": self.dealer,
            "known": [[card_text(c) for c in k] for k in self.known],
            "pile": [card_text(c) for c in self.pile],
            "call": SYMBOLS[self.call_sym] if self.call_sym >= 0 else None,
            "free": self.free,
            "pack_count": len(self.pack),
            "pack": [card_text(c) for c in reversed(self.pack)] if self.pack_public else None,
            "direction": self.direction,
            "pending_pick": self.pending_pick,
            "pick_number": self.pick_num if self.pending_pick else None,
            "pending_skip": self.pending_skip,
            "turn_cards": [card_text(c) for c in self.turn_cards],
            "turn_said": list(self.turn_said),
            "straight_dir": self.straight_dir,
            "owed": [[q, need] for q, need in self.owed],
            "empty_draws": self.dry,
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def position(self) -> dict[str, Any]:
        """Everything `from_position` needs to set this situation up again (hidden cards too)."""
        return {
            "hands": [[card_text(c) for c in h] for h in self.hands],
            "pile": [card_text(c) for c in self.pile],
            "pack": [card_text(c) for c in reversed(self.pack)],
            "call": SYMBOLS[self.call_sym] if self.call_sym >= 0 else None,
            "to_play": self.current,
            "dealer": self.dealer,
            "direction": self.direction,
            "pending_pick": self.pending_pick,
            "pick_number": self.pick_num if self.pending_pick else None,
            "pending_skip": self.pending_skip,
            "turn_cards": [card_text(c) for c in self.turn_cards],
            "turn_said": list(self.turn_said),
            "straight_dir": self.straight_dir,
            "owed": [[q, need] for q, need in self.owed],
            "empty_draws": self.dry,
            "known": [[card_text(c) for c in k] for k in self.known],
            "pack_public": self.pack_public,
        }

    def view(self, player: int | None) -> dict[str, Any]:
        v = self._envelope(player, [len(h) for h in self.hands])
        v["events"] = self.events[:]
        v.update(self._public())
        v["call_card"] = v["pile"][-1] if self.pile else None
        if player is not None:
            v["hand"] = [card_text(c) for c in self.hands[player]]
        if self.current is None:
            v["scores"] = list(self.result().points)
            v["hands"] = [[card_text(c) for c in h] for h in self.hands]  # shown at the count
        return v

    def to_dict(self) -> dict[str, Any]:
        d = self._public()
        d.update(
            game="whot",
            players=self.n,
            to_play=self.current,
            events=[to_wire(e) for e in self.events],
            rules=rules_to_dict(self.game.rules),
            seed=self.seed,
            setup=self.setup,
            hands=[[card_text(c) for c in h] for h in self.hands],
            pack=[card_text(c) for c in reversed(self.pack)],
            rng=self.rng.to_jsonable(),
            history=[str(m) for m in self.history],
            pack_public_flag=self.pack_public,
        )
        return d

    @classmethod
    def _build(cls, game: WhotGame, d: dict[str, Any], rng: GameRng) -> WhotState:
        """A state from the public fields of a save or a view, with hands and pack given."""
        s = game.state_class.__new__(game.state_class)
        s._init_empty(game, int(d.get("seed", 0)), dict(d.get("setup", {})))
        s.rng = rng
        s.dealer = d["dealer"]
        s.current = d["to_play"]
        if s.current is None:
            s.is_over = True
        s.known = [[parse_card(t) for t in k] for k in d["known"]]
        s.pile = [parse_card(t) for t in d["pile"]]
        s.call_sym = parse_symbol(d["call"]) if d["call"] else -1
        s.call_num = s.pile[-1] >> 3 if s.pile and s.pile[-1] != WHOT else -1
        s.free = d["free"]
        s.direction = d["direction"]
        s.pending_pick = d["pending_pick"]
        s.pick_num = d["pick_number"] if d["pick_number"] is not None else -1
        s.pending_skip = d["pending_skip"]
        s.turn_cards = [parse_card(t) for t in d["turn_cards"]]
        s.turn_said = list(d["turn_said"])
        s.straight_dir = d["straight_dir"]
        s.owed = tuple((q, need) for q, need in d.get("owed", ()))
        s.dry = d.get("empty_draws", 0)
        s.winners = tuple(d["winners"])
        s.events = events_from_wire(d["events"], KINDS, parse_move)
        lacks, call = lacks_from_events(s.events, s.n)
        s.lacks = lacks | 1 << 5 * s.n if call < 0 and s.call_sym >= 0 else lacks
        return s

    @classmethod
    def _from_dict(cls, game: WhotGame, d: dict[str, Any]) -> WhotState:
        if d.get("players") != game.players:
            raise LoadError("saved game is for another number of players")
        saved_rules = override(game.rules, d["rules"]) if "rules" in d else game.rules
        if saved_rules != game.rules:
            game = WhotGame(game.players, saved_rules)
        s = cls._build(game, d, GameRng.from_jsonable(d["rng"]))
        s.hands = [[parse_card(t) for t in h] for h in d["hands"]]
        s.pack = [parse_card(t) for t in reversed(d["pack"])]
        s.pack_public = d["pack_public_flag"]
        s.history = [parse_move(t) for t in d["history"]]
        return s

    @classmethod
    def _from_view(cls, game: WhotGame, v: dict[str, Any], rng: GameRng) -> WhotState:
        me = v["viewer"]
        if me is None or "hand" not in v:
            raise IllegalMove("a state can only be sampled from a player's view")
        s = cls._build(game, v, GameRng(rng.getrandbits(64)))
        s.seed = 0
        s.pack_public = v["pack"] is not None
        hands: list[list[int]] = [[] for _ in range(s.n)]
        hands[me] = [parse_card(t) for t in v["hand"]]
        unknown = pack_counter(game.rules.packs)
        unknown.subtract(hands[me])
        unknown.subtract(s.pile)
        shown = v.get("hands")  # a finished game shows every hand at the count
        for q in range(s.n):
            if q != me:
                hands[q] = [parse_card(t) for t in shown[q]] if shown else list(s.known[q])
                unknown.subtract(hands[q])
        public_pack = [parse_card(t) for t in v["pack"]] if s.pack_public else []
        unknown.subtract(public_pack)
        pool = sorted(unknown.elements())
        rng.shuffle(pool)
        for q in range(s.n):
            if q != me:
                need = v["hand_counts"][q] - len(hands[q])
                hands[q].extend(pool[:need])
                del pool[:need]
        s.hands = hands
        s.pack = public_pack[::-1] if s.pack_public else pool
        return s

    def permute_hidden(self, player: int, rng: GameRng) -> WhotState:
        """Redraw what `player` cannot see: the others' unknown cards, a hidden pack, the RNG."""
        s = self.copy()
        pool: list[int] = []
        slots: list[tuple[int, int]] = []
        for q in range(self.n):
            if q == player:
                continue
            unknown = Counter(self.hands[q])
            unknown.subtract(self.known[q])
            cards = list(unknown.elements())
            pool.extend(cards)
            slots.append((q, len(cards)))
            s.hands[q] = list(self.known[q])
        if not self.pack_public:
            pool.extend(self.pack)
        rng.shuffle(pool)
        for q, k in slots:
            s.hands[q].extend(pool[:k])
            del pool[:k]
        if not self.pack_public:
            s.pack = pool
        s.rng = GameRng(rng.getrandbits(64))
        return s


class DeclaringWhotState(WhotState):
    """A game whose rules have declarations ("last card", …): after every move, the declarations
    the others failed to say are charged (`_charge`), now that the next player has played."""

    def _apply(self, move: WhotMove) -> None:  # type: ignore[override]
        p = self.current
        WhotState._apply(self, move)
        if self.owed and self.owed[0][0] != p:
            assert p is not None
            self._charge(p)
