"""Who's Who, Game No. 2: books of four (seed 004).

All the cards are dealt, one at a time from the dealer's left, "as evenly as possible". Complete
books (the four cards of one number) are laid down at once, at the deal and whenever made. The
player on the dealer's left calls on any other player for a card — "Four, money" or "Four, yellow".
A player who has it gives it up, and the caller must say "Thank you" (`thank`) before calling again:
a call made without it sends the card back, and the next call belongs to the giver. A failed call
passes the call to the player called on. Play ends when all thirteen books are down; most books
wins.

Where the sheet is silent (RULES-NOTES.md, from Authors and the other period book games): a caller
must hold a card of the number called (option `caller_must_hold`); a successful call keeps the turn
(option `success_keeps_turn`); a book is laid down once the card that completes it is kept — when
the caller says "Thank you" (or at once with `thank_you` off), so a card sent back never breaks up a
book. Choices of ours: one cannot call for a card one holds, nor on a player with no cards; a player
left with no cards is passed over (the call goes to the next player to the left who has cards) and
simply waits for the end.

Every call and every transfer is public. The view carries the log of them and, for every card the
table has learnt something about, the players who may still hold it (`holders`): a card given is
known to be in the caller's hand until it is given away again; a failed call shows that neither the
caller nor the called player holds that card. Determinizations (`sample_state`, `permute_hidden`)
respect all of that. They do not use the weaker hint that a caller holds some card of the number
called.

Starting from a chosen position is `from_position` (docs/whoswho.md, "Positions"): the hands, the
books, whose call it is, a "Thank you" owed, what the table knows and the log of calls. The setup
of earlier versions (`dealer`, `hands`, `books`, `caller`) is still read, so old records replay.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from operator import itemgetter
from typing import Any

from parlour.core import Game, Move, Result, RulesError, SetupError, State, to_wire
from parlour.core.formats import MatchFormat
from parlour.core.options import rules_to_dict
from parlour.core.rng import GameRng, fresh_seed

from . import positions as read
from .deck import (
    CARD_TEXT,
    DECK,
    NUMBERS,
    SUIT_BIT,
    SUITS,
    Card,
    constrained_dealer,
    insert_card,
    parse_card,
    sort_cards,
)
from .events import (
    BookLaid,
    Called,
    DealtAround,
    GameOver,
    PassedOver,
    Returned,
    Thanked,
    typed_events,
)
from .notation import THANK, Ask, Thank, parse_books_move
from .rules import BooksRules

__all__ = ["BooksGame", "BooksState"]

_BY_NUMBER: dict[int, tuple[Card, ...]] = {n: tuple(Card(n, s) for s in SUITS) for n in NUMBERS}
_DECK_INDEX = {c: i for i, c in enumerate(DECK)}
_NUMBER = itemgetter(0)  # a card's number (`Card` is a tuple), read in C

# The events of the hot path, built once (`_CALLED` as they first happen).
_SEATS = range(7)
_THANKED: dict[tuple[int, int, Card], Thanked] = {}
_CALLED: dict[tuple[int, int, Card, bool], Called] = {}
_BOOK_LAID = {x: tuple(BookLaid(p, x) for p in _SEATS) for x in NUMBERS}
_PASSED_OVER = tuple(PassedOver(p) for p in _SEATS)

#: The keys of a Game No. 2 position (docs/whoswho.md, "Positions").
POSITION_KEYS = ("dealer", "to_play", "hands", "books", "pending", "holders", "known", "log")
#: What earlier versions took as `new_game` setup (still read, so their records replay).
_OLD_SETUP = ("dealer", "hands", "books", "caller")
#: The entries of the log of calls: their kind and fields (seats, a card, a number, a flag).
_LOG_FIELDS: dict[str, tuple[str, ...]] = {
    "call": ("player", "target", "card", "given"),
    "return": ("player", "to", "card"),
    "thank": ("player",),
    "book": ("player", "number"),
}


def _called(p: int, q: int, card: Card, given: bool) -> Called:
    key = (p, q, card, given)
    ev = _CALLED.get(key)
    if ev is None:
        ev = _CALLED[key] = Called(p, q, str(card), given)
    return ev


def _thanked(p: int, giver: int, card: Card) -> Thanked:
    key = (p, giver, card)
    ev = _THANKED.get(key)
    if ev is None:
        ev = _THANKED[key] = Thanked(p, giver, str(card))
    return ev


class BooksGame(Game[BooksRules, "BooksState"]):
    name = "whoswho-books"
    rules: BooksRules

    def __init__(self, players: int, rules: BooksRules, preset: str | None = None) -> None:
        super().__init__(players, rules, preset)
        if not 2 <= players <= 7:
            raise RulesError(f"Who's Who is for two to seven players, not {players}")
        self.everyone = frozenset(range(players))
        #: given_back_ends where it applies (success_keeps_turn off), else 0: never.
        self.given_back_limit = 0 if rules.success_keeps_turn else rules.given_back_ends
        # The table's knowledge after a call, built once: a card given is with the caller alone
        # (`only[p]`); a card refused is with neither the caller nor the player called on.
        self.only = tuple(frozenset((p,)) for p in range(players))
        self.pair = tuple(tuple(frozenset((p, q)) for q in range(players)) for p in range(players))
        self._asks = {(q, c): Ask(q, c) for q in range(players) for c in DECK}
        # Per card, the call for it on each seat: `_calls` lists them without hashing pairs.
        self._asks_for = {c: tuple(Ask(q, c) for q in range(players)) for c in DECK}
        # The cards a hand may call for, by the hand (`BooksState.call_parts`): a search lists
        # them hundreds of thousands of times a decision, for far fewer distinct hands.
        self._wanted: dict[tuple[Card, ...], tuple[tuple[Ask, ...], ...]] = {}
        #: `wanted_of[number][suits held, as bits (SUIT_BIT)]`: per card of that number not held,
        #: in the pack's order, its calls on every seat.
        self.wanted_of = {
            x: [
                tuple(self._asks_for[c] for c in _BY_NUMBER[x] if not mask & SUIT_BIT[c.suit])
                for mask in range(16)
            ]
            for x in NUMBERS
        }
        #: Per caller, every other seat: who may be called on while every hand holds cards.
        self.others = tuple(tuple(q for q in range(players) if q != p) for p in range(players))

    def new_game(
        self, seed: int | None = None, position: Mapping[str, Any] | None = None, **setup: Any
    ) -> BooksState:
        """A new game: the pack dealt around from the seed by `dealer` (default the last player,
        so player 0 calls first). `position` starts from a chosen position: `from_position`.

        Earlier versions set positions up with `hands` and `books` (together the whole pack once;
        complete books in the hands are laid down at once, as at a deal) and `caller` (who calls
        first); that setup is still read, so their records replay."""
        unknown = set(setup) - set(_OLD_SETUP)
        if unknown:
            raise SetupError(
                f"unknown setup {', '.join(sorted(unknown))}; "
                "Game No. 2 takes position (or dealer, hands, books, caller)"
            )
        if position is not None:
            if set(setup) - {"dealer"}:
                raise SetupError("give hands, books and the caller inside the position")
            if "dealer" in setup and "dealer" not in position:
                position = {**position, "dealer": setup["dealer"]}
            return self.from_position(position, seed)
        seed = fresh_seed() if seed is None else seed
        n = self.players
        dealer = setup.get("dealer", n - 1)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise SetupError(f"dealer must be a player from 0 to {n - 1}, not {dealer!r}")
        st = BooksState(self, seed, dict(setup))
        st.dealer = dealer
        if setup.get("hands") is None:
            if setup.get("books"):
                raise SetupError("books can only be set up together with hands")
            pack = list(DECK)
            st.rng.shuffle(pack)
            # Seed 004: "The cards are all dealt around, as evenly as possible."
            for i, c in enumerate(pack):
                st.hands[(dealer + 1 + i) % n].append(c)
        else:
            st.hands, st.books = self._check_pack(setup["hands"], setup.get("books"))
        st.hands = [sort_cards(h) for h in st.hands]
        st.events.append(DealtAround(dealer))
        caller = setup.get("caller", (dealer + 1) % n)
        if not isinstance(caller, int) or isinstance(caller, bool) or not 0 <= caller < n:
            raise SetupError(f"caller must be a player from 0 to {n - 1}, not {caller!r}")
        # Seed 004: "The players then examine their hands for complete books of four cards of the
        # same number, and lay them before them on the table."
        for p in range(n):
            st._lay_books(p)
        st.turn = caller
        if not st._over():
            if not st.hands[caller]:
                st._pass_on(caller)
        else:
            st._finish()
        return st

    def _check_pack(self, hands: Any, books: Any) -> tuple[list[list[Card]], list[list[int]]]:
        """Hands and books that hold the whole pack once."""
        n = self.players
        if not isinstance(hands, list | tuple) or len(hands) != n:
            raise SetupError(f"hands must be a list of {n} lists of cards")
        parsed = [read.card_list(h, f"hand {p}") for p, h in enumerate(hands)]
        made: list[list[int]] = [[] for _ in range(n)]
        if books is not None:
            if not isinstance(books, list | tuple) or len(books) != n:
                raise SetupError(f"books must be a list of {n} lists of numbers")
            made = [read.number_list(bs, f"books of player {p}") for p, bs in enumerate(books)]
        flat = [c for h in parsed for c in h] + [
            c for bs in made for b in bs for c in _BY_NUMBER[b]
        ]
        if sorted(flat) != sorted(DECK):
            missing = [str(c) for c in DECK if c not in flat]
            twice = sorted({str(c) for c in flat if flat.count(c) > 1}, key=_deck_order)
            raise SetupError(
                "hands and books must hold every card of the pack exactly once"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; twice {', '.join(twice)}" if twice else "")
            )
        return parsed, made

    def from_position(self, spec: Mapping[str, Any], seed: int | None = None) -> BooksState:
        """A game from a chosen position (docs/whoswho.md, "Positions"); only `hands` is needed:

            {"dealer": 2,
             "to_play": 0,                          whose call it is (default: the first player
                                                    from the dealer's left who holds cards)
             "hands": [["3 money", ...], ...],      every player's cards
             "books": [[7], [], []],                the numbers each player has laid down
             "pending": {"caller": 0, "giver": 1, "card": "4 brains"},
                                                    a card given, "Thank you" not yet said
             "holders": {"4 brains": [0], "9 sport": [1, 2]},
                                                    who may still hold a card the table has
                                                    learnt about (from calls and gifts)
             "known": [["4 brains"], [], []],       cards the table knows to be in each hand
                                                    (the one-player entries of holders)
             "log": [{"kind": "call", "player": 0, "target": 1, "card": "4 brains",
                      "given": true}, ...]}         the calls, returns, thanks and books so far

        Hands and books together hold the pack exactly once; nobody holds a complete book (it is
        laid down at once) but a caller who owes "Thank you" for its fourth card. `position()`
        gives every key, and `from_position(s.position())` shows the same views (but the events)
        and legal moves as `s`. A bad position raises `SetupError`.
        """
        pos = read.spec_mapping(spec, "Who's Who Game No. 2")
        seed = fresh_seed() if seed is None else seed
        st = BooksState(self, seed, {"position": deepcopy(dict(pos))})
        st._set_position(pos)
        return st

    def parse_move(self, text: str) -> Move:
        return parse_books_move(text, self.players)

    def match_format(self, name: str | None = None) -> MatchFormat:
        return MatchFormat.parse(name or "single", lower_wins=False)

    def state_from_dict(self, data: dict[str, Any]) -> BooksState:
        st = BooksState(self, int(data["seed"]), dict(data.get("setup") or {}))
        st.rng = GameRng.from_jsonable(data["rng"])
        st.history = [self.parse_move(t) for t in data["history"]]
        if any(isinstance(e, str) for e in data["events"]):
            # saved before events were typed: the record in the save replays the same game
            again = self.new_game(st.seed, **st.setup)
            for move in st.history:
                again.apply(move)
            return again
        st._load_public(data)
        st.hands = [[parse_card(t) for t in h] for h in data["hands"]]
        return st

    def sample_state(self, view: dict[str, Any], rng: GameRng) -> BooksState:
        return self._sampler(view)(rng)

    def sampler(self, view: dict[str, Any]) -> Callable[[GameRng], BooksState]:
        return self._sampler(view)

    def _sampler(self, view: dict[str, Any]) -> Callable[[GameRng], BooksState]:
        """Determinizations of `view` (`sample_state`): the other hands redealt from the cards
        the viewer has not seen, consistently with what the table knows. The view is read and the
        constraints worked out once; each draw copies the public part and deals (reading the view
        was a third of a draw early in a game, and the record grows with it)."""
        if view.get("game") != self.name or view.get("players") != self.players:
            raise ValueError("the view is not of this game")
        public = BooksState(self, 0, {})
        public._load_public(view)
        viewer = view.get("viewer")
        own = [parse_card(t) for t in view["hand"]] if viewer is not None else []
        booked = {b for bs in public.books for b in bs}
        unseen = [c for c in DECK if c.number not in booked and c not in own]
        others = [p for p in range(self.players) if p != viewer]
        sizes = [view["hand_counts"][p] for p in others]
        redeal = public._redealer(unseen, others, sizes)
        mine = sort_cards(own)
        n = self.players

        def sample(rng: GameRng) -> BooksState:
            seed = rng.getrandbits(63)
            st = public.copy()
            st.seed = seed
            st.rng = GameRng(seed)
            piles = redeal(rng)
            hands: list[list[Card]] = [[] for _ in range(n)]
            if viewer is not None:
                hands[viewer] = list(mine)
            for i, p in enumerate(others):
                hands[p] = piles[i]
            st.hands = hands
            return st

        return sample


def _deck_order(text: str) -> int:
    return _DECK_INDEX[parse_card(text)]


_REDEALS = 20  # fresh deals tried before a redraw gives up
# Hands whose calls a game keeps (`BooksGame._wanted`, ~20 MB): a decision meets 15-25 thousand.
_WANTED_MEMO = 40_000


class BooksState(State):
    game: BooksGame

    def __init__(self, game: BooksGame, seed: int, setup: dict[str, Any]) -> None:
        n = game.players
        self.game = game
        self.seed = seed
        self.setup = setup
        self.history: list[Move] = []
        self._legal: list[Move] | None = None
        self.rng = GameRng(seed)
        self.dealer = n - 1
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.books: list[list[int]] = [[] for _ in range(n)]
        self.turn = 0
        self.is_over = False
        self.pending: tuple[int, Card] | None = None  # (giver, card) awaiting "Thank you"
        # Public knowledge: for each card the table has learnt about, who may still hold it.
        self.holders: dict[Card, frozenset[int]] = {}
        self.log: list[dict[str, Any]] = []
        self.events: list[Any] = []  # typed events (.events)

    # --- the protocol -------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return None if self.is_over else self.turn

    #: Whether every book is made: a plain attribute, not a property (every playout loop reads it
    #: once a move, and a property is a call); set on every state.
    is_over = False

    def _legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        rules = self.game.rules
        if self.pending is not None:
            # After a card is given the caller may say "Thank you" — or, forgetting to, call again
            # (seed 004: "If he neglects to do this, before calling for another card, he must
            # return the card"). Without a kept turn there is no next call to forget it before.
            if not rules.success_keeps_turn:
                return [THANK]
            return [THANK, *self._calls()]
        return list(self._calls())

    def _calls(self) -> list[Move]:
        """Every call: on each other seat with cards in turn, for each card wanted (`_wanted`)."""
        targets, wanted = self.call_parts()
        calls: list[Move] = []
        for q in targets:
            calls += map(itemgetter(q), wanted)
        return calls

    def call_parts(self) -> tuple[Sequence[int], Sequence[tuple[Ask, ...]]]:
        """The seats that may be called on (every other seat with cards, in order) and the cards
        that may be called for — of a number held (or of every number not booked, without
        `caller_must_hold`), not held — each as its calls on every seat (`_asks_for`).

        Both are shared and must not be changed. With `caller_must_hold` the cards wanted depend on
        the hand alone, so the game keeps them by hand (`_wanted`); a test holds them equal to
        `_wanted_for` on every state of many games."""
        p = self.turn
        hands = self.hands
        g = self.game
        targets: Sequence[int]
        if all(hands):  # `call_targets`, written out: a playout asks at every call
            targets = g.others[p]
        else:
            targets = [q for q in range(g.players) if q != p and hands[q]]
        if not g.rules.caller_must_hold:
            return targets, self._wanted_for(hands[p])
        key = tuple(hands[p])
        memo = g._wanted
        wanted = memo.get(key)
        if wanted is None:
            if len(memo) >= _WANTED_MEMO:
                memo.clear()  # a bound on memory: start afresh
            wanted = memo[key] = self._wanted_for(key)
        return targets, wanted

    def call_targets(self) -> Sequence[int]:
        """The seats the caller may call on: every other seat with cards, in order (shared: not to
        be changed)."""
        p = self.turn
        hands = self.hands
        if all(hands):
            return self.game.others[p]
        return [q for q in range(self.game.players) if q != p and hands[q]]

    def _wanted_for(self, hand: Sequence[Card]) -> tuple[tuple[Ask, ...], ...]:
        """The cards `hand` may call for (see `call_parts`), each as its calls on every seat."""
        g = self.game
        if not g.rules.caller_must_hold:
            mine = set(hand)
            booked = {b for bs in self.books for b in bs}
            asks_for = g._asks_for
            return tuple(
                asks_for[c]
                for x in NUMBERS
                if x not in booked
                for c in _BY_NUMBER[x]
                if c not in mine
            )
        # The suits held of each number held, as bits; the game's table gives the calls wanted of
        # a number by those bits, in the pack's order.
        held = [0] * (NUMBERS[-1] + 1)
        for number, suit in hand:
            held[number] |= SUIT_BIT[suit]
        table = g.wanted_of
        out: list[tuple[Ask, ...]] = []
        for number in NUMBERS:
            if held[number]:
                out += table[number][held[number]]
        return tuple(out)

    def random_call(self, rng: random.Random) -> Move:
        """`rng.choice(self.legal_moves())` — the same move from the same draw — without listing
        every call while no "Thank you" is owed: the calls are the targets by the wanted cards,
        in that order, so the draw's index names its target and card (a playout's move)."""
        if self._legal is not None or self.is_over or self.pending is not None:
            return rng.choice(self.legal_moves())
        targets, wanted = self.call_parts()
        i = rng.choice(range(len(targets) * len(wanted)))
        return wanted[i % len(wanted)][targets[i // len(wanted)]]

    def playout(self, rng: random.Random, limit: int) -> int:
        """Play up to `limit` moves (fewer if the game ends) as `books_playout` chooses them: "Thank
        you" when owed, else `random_call` — the same moves from the same draws as
        `apply(books_playout(self, rng))` again and again, without a call per move to the policy,
        to `random_call` and to the gate (every call drawn is legal). Returns the moves played."""
        history, apply_, getrandbits = self.history, self._apply, rng.getrandbits
        g = self.game
        hands, others, memo = self.hands, g.others, g._wanted
        fast = g.rules.caller_must_hold
        self._legal = None
        steps = 0
        while steps < limit and not self.is_over:
            if self.pending is not None:
                move: Move = THANK
            else:
                # `call_parts`, written out where it is quickest (every hand holding cards, the
                # cards wanted known for this hand); elsewhere asked.
                known = memo.get(tuple(hands[self.turn])) if fast else None
                targets: Sequence[int]
                wanted: Sequence[tuple[Ask, ...]]
                if known is not None and all(hands):
                    targets, wanted = others[self.turn], known
                else:
                    targets, wanted = self.call_parts()
                k = len(wanted)
                # `rng.choice(range(len(targets) * k))` written out: `random.Random`'s draw of an
                # index below n (`_randbelow_with_getrandbits`), the same bits to the same index.
                n = len(targets) * k
                bits = n.bit_length()
                i = getrandbits(bits)
                while i >= n:
                    i = getrandbits(bits)
                move = wanted[i % k][targets[i // k]]
            history.append(move)
            apply_(move)
            steps += 1
        return steps

    def scored_playout(self, rng: random.Random, limit: int) -> int:
        """`playout` for a search's leaf, which is only scored: the same moves from the same draws,
        to the same hands, books, caller, "Thank you" owed and end of the game, but nothing else
        is kept — no history, log, events or table knowledge (`holders`), which the playout's
        random calls never read and the evaluation does not either. The state is left for
        `books_evaluate` or `result()` alone (a test holds the two playouts to the same game).
        The public record was most of a playout's time, and the playouts most of a search's."""
        g = self.game
        rules = g.rules
        n = g.players
        hands, books = self.hands, self.books
        others, memo = g.others, g._wanted
        fast = rules.caller_must_hold
        thank_you, keeps_turn = rules.thank_you, rules.success_keeps_turn
        getrandbits = rng.getrandbits
        turn, pending, over = self.turn, self.pending, self.is_over
        # given_back_ends: each card's gifts since the last book, kept here as `_apply` reads
        # them from the record this playout does not keep
        gift_limit = g.given_back_limit
        given: dict[Card, int] = {}
        if gift_limit:
            given = {parse_card(c): k for c, k in self._gifts_since_book().items()}
        self._legal = None
        steps = 0
        while steps < limit and not over:
            steps += 1
            if pending is None:
                # a random call (`playout`): the same draw, the same move
                known = memo.get(tuple(hands[turn])) if fast else None
                targets: Sequence[int]
                wanted: Sequence[tuple[Ask, ...]]
                if known is not None and all(hands):
                    targets, wanted = others[turn], known
                else:
                    self.turn = turn
                    targets, wanted = self.call_parts()
                k = len(wanted)
                top = len(targets) * k
                bits = top.bit_length()
                i = getrandbits(bits)
                while i >= top:
                    i = getrandbits(bits)
                move = wanted[i % k][targets[i // k]]
                q, card = move.target, move.card
                if card not in hands[q]:
                    turn = q  # refused: the call goes to the player called on
                    continue
                hands[q].remove(card)
                insert_card(hands[turn], card)
                if gift_limit:
                    given[card] = given.get(card, 0) + 1
                    if given[card] >= gift_limit:
                        over, pending = True, None
                        continue
                if thank_you:
                    pending = (q, card)
                    continue
            else:
                card = pending[1]  # "Thank you": the caller keeps it
                pending = None
            # `_kept`: a book made is laid down; the game ends, or the call stays or moves on
            number = card.number
            hand = hands[turn]
            if list(map(_NUMBER, hand)).count(number) == 4:
                hand = hands[turn] = [c for c in hand if c.number != number]
                books[turn].append(number)
                given.clear()
                if sum(map(len, books)) == len(NUMBERS):
                    over = True
                    continue
            if not keeps_turn or not hand:
                turn = next(q for s in range(1, n + 1) if hands[q := (turn + s) % n])
        self.turn, self.pending, self.is_over = turn, pending, over
        return steps

    def _may_call(self, move: Ask) -> bool:
        """Whether `move` is one of `_legal_moves()`' calls, read off the rules (see `_calls`)."""
        if self.is_over or (self.pending is not None and not self.game.rules.success_keeps_turn):
            return False
        q, c = move.target, move.card
        p = self.turn
        hands = self.hands
        if q == p or not 0 <= q < self.game.players or not hands[q] or c not in _DECK_INDEX:
            return False
        hand = hands[p]
        if c in hand:
            return False
        if self.game.rules.caller_must_hold:
            return c.number in map(_NUMBER, hand)
        return not any(c.number in bs for bs in self.books)

    def apply(self, move: Move | str) -> Move:
        # A call whose legality the rules settle at once is played without listing every call
        # (~90 a turn): the search's playouts call on every move. So is "Thank you" while one is
        # owed (always legal then; the search's model of the others says it after every card).
        # Anything else, and any move refused, goes through the protocol's gate as ever.
        if self._legal is None and (
            (move is THANK and self.pending is not None and not self.is_over)
            or (type(move) is Ask and self._may_call(move))
        ):
            self.history.append(move)
            self._apply(move)
            return move
        return State.apply(self, move)

    def why_illegal(self, move: Move) -> str | None:
        """The rule that refuses `move` now, in words: "you must say thank you first", "you may
        call only for a number you hold: you hold no 7s", "you cannot call on yourself", ..."""
        if self.is_over:
            return None
        p = self.turn
        if isinstance(move, Thank):
            return "no card has just been given to you: there is nobody to thank"
        if not isinstance(move, Ask):
            return None
        if self.pending is not None and not self.game.rules.success_keeps_turn:
            # with the call passing on after each card there is no next call to forget it before
            return f"you must say thank you first for {self.pending[1]}"
        card, q = move.card, move.target
        if q == p:
            # Seed 004: "calls upon any other player for a card that he needs".
            return "you cannot call on yourself"
        if card in self.hands[p]:
            return f"you hold {card} yourself"
        if any(card.number in bs for bs in self.books):
            return f"the book of {card.number}s is already laid down"
        if self.game.rules.caller_must_hold and not any(
            c.number == card.number for c in self.hands[p]
        ):
            # RULES-NOTES: "a caller must hold a card of the number called".
            return f"you may call only for a number you hold: you hold no {card.number}s"
        if not self.hands[q]:
            return f"the player in seat {q + 1} has no cards left"
        return None

    def _apply(self, move: Move) -> None:
        p = self.turn
        # The move's class compared, not isinstance: Move is an ABC, whose isinstance is a call.
        if type(move) is Thank:
            assert self.pending is not None
            giver, card = self.pending
            self.pending = None
            self.log.append({"kind": "thank", "player": p})
            self.events.append(_thanked(p, giver, card))
            self._kept(p, card.number)
            return
        assert type(move) is Ask
        if self.pending is not None:
            giver, card = self.pending
            self.pending = None
            self.hands[p].remove(card)
            insert_card(self.hands[giver], card)
            self.holders[card] = self.game.only[giver]
            self.log.append({"kind": "return", "player": p, "to": giver, "card": CARD_TEXT[card]})
            self.events.append(Returned(p, giver, CARD_TEXT[card]))
            self.turn = giver
            return
        q, card = move.target, move.card
        g = self.game
        if card in self.hands[q]:
            self.hands[q].remove(card)
            insert_card(self.hands[p], card)  # every state has its own hand lists (`copy`)
            self.holders[card] = g.only[p]
            self.log.append(
                {"kind": "call", "player": p, "target": q, "card": CARD_TEXT[card], "given": True}
            )
            ev = _CALLED.get((p, q, card, True))
            self.events.append(_called(p, q, card, True) if ev is None else ev)
            limit = g.given_back_limit
            if limit and self._times_given(CARD_TEXT[card]) >= limit:
                # a card handed back and forth with no book made: the game ends there
                self._finish()
                return
            if g.rules.thank_you:
                self.pending = (q, card)
            else:
                self._kept(p, card.number)
            return
        self.holders[card] = self.holders.get(card, g.everyone) - g.pair[p][q]
        self.log.append(
            {"kind": "call", "player": p, "target": q, "card": CARD_TEXT[card], "given": False}
        )
        # Seed 004: "When a player fails to get the card called for, the turn to call goes to the
        # player he last called on."
        ev = _CALLED.get((p, q, card, False))
        self.events.append(_called(p, q, card, False) if ev is None else ev)
        self.turn = q

    def _kept(self, p: int, number: int) -> None:
        """The caller keeps a card of `number`: lay down the book it completes; the turn stays or
        moves on. Only that number can be complete: every other was laid down when made."""
        if list(map(_NUMBER, self.hands[p])).count(number) == 4:
            self._lay_book(p, number)
        if self._over():
            self._finish()
        elif not self.game.rules.success_keeps_turn or not self.hands[p]:
            self._pass_on(p)

    def _lay_books(self, p: int) -> None:
        # Four of a number, its numbers sorted: the same number four places on (a number has only
        # four cards, so each book is found once, in order of number).
        numbers = sorted(map(_NUMBER, self.hands[p]))
        for i in range(len(numbers) - 3):
            if numbers[i] == numbers[i + 3]:
                self._lay_book(p, numbers[i])

    def _lay_book(self, p: int, number: int) -> None:
        self.hands[p] = [c for c in self.hands[p] if c.number != number]
        self.books[p].append(number)
        for c in _BY_NUMBER[number]:
            self.holders.pop(c, None)
        self.log.append({"kind": "book", "player": p, "number": number})
        self.events.append(_BOOK_LAID[number][p])

    def _pass_on(self, p: int) -> None:
        """The call goes to the next player to the left who still has cards."""
        n = self.game.players
        if not self.hands[p]:
            self.events.append(_PASSED_OVER[p])
        for step in range(1, n + 1):
            q = (p + step) % n
            if self.hands[q]:
                self.turn = q
                return
        raise AssertionError("no player holds a card but the books are not all made")

    def _over(self) -> bool:
        return sum(map(len, self.books)) == len(NUMBERS)

    def _times_given(self, card: str) -> int:
        """How many times `card` was given since the last book (the public record's calls)."""
        return self._gifts_since_book().get(card, 0)

    def _gifts_since_book(self) -> Counter[str]:
        """Each card's times given since the last book, read off the public record."""
        gifts: Counter[str] = Counter()
        for entry in reversed(self.log):
            if entry["kind"] == "book":
                break
            if entry["kind"] == "call" and entry["given"]:
                gifts[entry["card"]] += 1
        return gifts

    def _finish(self) -> None:
        self.is_over = True
        self.pending = None
        res = self.result()
        self.events.append(GameOver(res.winners, res.points, "book"))

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("the game is not over")
        points = tuple(len(b) for b in self.books)
        best = max(points)
        winners = tuple(p for p, x in enumerate(points) if x == best)
        reason = f"the most books ({best}) wins"
        if not self._over():
            # given_back_ends: one card went back and forth with no book made
            reason = "a card went back and forth with no book made: the books stand; " + reason
        if len(winners) > 1:
            reason += "; the tie is shared"
        # Seed 004: "The player who collects the most books, wins the game."
        return Result.ranked(winners, points, lower_is_better=False, reason=reason)

    # --- what each player sees ------------------------------------------------------------------
    def known(self) -> list[list[Card]]:
        """Cards the whole table knows to be in each hand."""
        out: list[list[Card]] = [[] for _ in range(self.game.players)]
        for c, who in self.holders.items():
            if len(who) == 1:
                out[next(iter(who))].append(c)
        return [sort_cards(k) for k in out]

    def _holders_json(self) -> dict[str, list[int]]:
        return {
            str(c): sorted(self.holders[c])
            for c in sorted(self.holders, key=_DECK_INDEX.__getitem__)
        }

    def _pending_json(self) -> dict[str, Any] | None:
        if self.pending is None:
            return None
        return {"caller": self.turn, "giver": self.pending[0], "card": str(self.pending[1])}

    def view(self, player: int | None) -> dict[str, Any]:
        v = self._envelope(player, [len(h) for h in self.hands])
        v["events"] = self.events[:]
        v["dealer"] = self.dealer
        v["books"] = [list(b) for b in self.books]
        v["book_counts"] = [len(b) for b in self.books]
        v["pending"] = self._pending_json()
        v["holders"] = self._holders_json()
        v["known"] = [[str(c) for c in k] for k in self.known()]
        v["log"] = [dict(e) for e in self.log]
        if player is not None:
            v["hand"] = [str(c) for c in self.hands[player]]
        if self.is_over:
            v["result"] = self.result().to_dict()
        return v

    def position(self) -> dict[str, Any]:
        """Everything `from_position` needs to set this situation up again (hidden cards too)."""
        return {
            "dealer": self.dealer,
            "to_play": self.to_play,
            "hands": [[str(c) for c in h] for h in self.hands],
            "books": [list(b) for b in self.books],
            "pending": self._pending_json(),
            "holders": self._holders_json(),
            "known": [[str(c) for c in k] for k in self.known()],
            "log": [dict(e) for e in self.log],
        }

    def _set_position(self, pos: Mapping[str, Any]) -> None:
        g = self.game
        n = g.players
        read.check_keys(pos, POSITION_KEYS)
        if "hands" not in pos:
            raise SetupError("position: 'hands' is needed, one list of cards per player")
        hands, books = g._check_pack(pos["hands"], pos.get("books"))
        hands = [sort_cards(h) for h in hands]
        dealer = read.seat(pos.get("dealer", n - 1), "dealer", n)
        over = sum(len(b) for b in books) == len(NUMBERS)
        if over:
            turn = 0
            if pos.get("to_play") is not None:
                raise SetupError("position: every book is made, so nobody is to play (null)")
        elif pos.get("to_play") is None:
            turn = next(q for s in range(1, n + 1) if hands[q := (dealer + s) % n])
        else:
            turn = read.seat(pos["to_play"], "to_play", n)
            if not hands[turn]:
                raise SetupError(f"position: player {turn} has no cards, so cannot call")
        pending = self._read_pending(pos.get("pending"), turn, hands)
        for p, hand in enumerate(hands):
            for number, k in Counter(c.number for c in hand).items():
                if k == 4 and (pending is None or (p, number) != (turn, pending[1].number)):
                    raise SetupError(
                        f"position: player {p} holds all four {number}s: a complete book is "
                        f"laid down at once (put {number} in their books)"
                    )
        holders = self._read_holders(pos.get("holders", {}), hands, books)
        raw_known = pos.get("known")
        if raw_known is not None:
            if not isinstance(raw_known, list | tuple) or len(raw_known) != n:
                raise SetupError(f"position: known is {n} lists of cards, one per player")
            known = [read.card_list(k, f"known of player {p}") for p, k in enumerate(raw_known)]
            for p, cards in enumerate(known):
                for c in cards:
                    if c not in hands[p]:
                        raise SetupError(f"position: player {p} is known to hold {c}, but does not")
                    if holders.setdefault(c, frozenset((p,))) != frozenset((p,)):
                        raise SetupError(f"position: holders and known disagree about {c}")
            for c, who in holders.items():
                if len(who) == 1 and c not in known[next(iter(who))]:
                    raise SetupError(f"position: holders says {c} is known; known leaves it out")
        if pending is not None and holders.setdefault(pending[1], frozenset((turn,))) != {turn}:
            raise SetupError(
                f"position: {pending[1]} was given to player {turn} in front of everyone: "
                f"holders says [{turn}]"
            )
        self.dealer, self.turn, self.is_over = dealer, turn, over
        self.hands, self.books = hands, books
        self.pending, self.holders = pending, holders
        self.log = self._read_log(pos.get("log", []))

    def _read_pending(
        self, value: Any, caller: int, hands: list[list[Card]]
    ) -> tuple[int, Card] | None:
        if value is None:
            return None
        n = self.game.players
        if not self.game.rules.thank_you:
            raise SetupError("position: with thank_you off no 'Thank you' is ever owed (pending)")
        if not isinstance(value, Mapping) or not {"giver", "card"} <= set(value) <= {
            "caller",
            "giver",
            "card",
        }:
            raise SetupError("position: pending is {'caller', 'giver', 'card'} or null")
        if value.get("caller", caller) != caller:
            raise SetupError(
                f"position: the caller who owes 'Thank you' is the player to play, {caller}"
            )
        giver = read.seat(value["giver"], "pending giver", n)
        card = read.card(value["card"], "pending card")
        if giver == caller:
            raise SetupError("position: nobody gives a card to themselves (pending giver)")
        if card not in hands[caller]:
            raise SetupError(f"position: player {caller} was given {card}, so holds it")
        return giver, card

    def _read_holders(
        self, value: Any, hands: list[list[Card]], books: list[list[int]]
    ) -> dict[Card, frozenset[int]]:
        n = self.game.players
        if not isinstance(value, Mapping):
            raise SetupError("position: holders maps cards to the players who may hold them")
        booked = {b for bs in books for b in bs}
        out: dict[Card, frozenset[int]] = {}
        for text, who in value.items():
            c = read.card(text, "holders")
            if (
                not isinstance(who, list | tuple)
                or not who
                or len(set(who)) != len(who)
                or any(not isinstance(q, int) or isinstance(q, bool) or not 0 <= q < n for q in who)
            ):
                raise SetupError(f"position: holders of {c} is a list of players, 0 to {n - 1}")
            if c.number in booked:
                raise SetupError(f"position: {c} is in a book on the table, not in a hand")
            holder = next(p for p in range(n) if c in hands[p])
            if holder not in who:
                raise SetupError(
                    f"position: holders says {c} is with {sorted(who)}, but player {holder} "
                    "holds it"
                )
            out[c] = frozenset(who)
        return out

    def _read_log(self, value: Any) -> list[dict[str, Any]]:
        n = self.game.players
        if not isinstance(value, list | tuple):
            raise SetupError("position: log is a list of the calls, returns, thanks and books")
        out = []
        for i, e in enumerate(value):
            fields = _LOG_FIELDS.get(str(e.get("kind"))) if isinstance(e, Mapping) else None
            if fields is None or set(e) != {"kind", *fields}:
                shapes = "; ".join(f"{k}: {', '.join(f)}" for k, f in _LOG_FIELDS.items())
                raise SetupError(f"position: log entry {i} is one of {shapes}")
            what = f"log entry {i}"
            entry: dict[str, Any] = {"kind": e["kind"]}
            for f in fields:
                x = e[f]
                if f == "card":
                    x = str(read.card(x, what))
                elif f == "number":
                    x = read.number_list([x], what)[0]
                elif f == "given":
                    if not isinstance(x, bool):
                        raise SetupError(f"position: {what}: given is true or false")
                else:
                    x = read.seat(x, f"{what}'s {f}", n)
                entry[f] = x
            out.append(entry)
        return out

    def _load_public(self, d: dict[str, Any]) -> None:
        self.dealer = d["dealer"]
        self.is_over = d["is_over"]
        self.turn = d["to_play"] if d["to_play"] is not None else 0
        self.books = [list(b) for b in d["books"]]
        pend = d["pending"]
        self.pending = None if pend is None else (pend["giver"], parse_card(pend["card"]))
        self.holders = {parse_card(t): frozenset(who) for t, who in d["holders"].items()}
        self.log = [dict(e) for e in d["log"]]
        self.events = typed_events(d["events"])

    def to_dict(self) -> dict[str, Any]:
        g = self.game
        return {
            "game": g.name,
            "players": g.players,
            "rules": rules_to_dict(g.rules),
            "seed": self.seed,
            "setup": dict(self.setup),
            "history": [str(m) for m in self.history],
            "rng": self.rng.to_jsonable(),
            "is_over": self.is_over,
            "to_play": self.to_play,
            "dealer": self.dealer,
            "books": [list(b) for b in self.books],
            "pending": self._pending_json(),
            "holders": self._holders_json(),
            "log": [dict(e) for e in self.log],
            "events": [to_wire(e) for e in self.events],
            "hands": [[str(c) for c in h] for h in self.hands],
        }

    def copy(self) -> BooksState:
        new = BooksState.__new__(BooksState)
        new.__dict__.update(self.__dict__)
        new.setup = dict(self.setup)
        new.history = list(self.history)
        new._legal = None if self._legal is None else list(self._legal)
        new.rng = self.rng.copy()
        new.hands = [list(h) for h in self.hands]
        new.books = [list(b) for b in self.books]
        new.holders = dict(self.holders)
        new.log = list(self.log)  # entries are never changed in place
        new.events = list(self.events)
        return new

    def _redraw(
        self, unseen: list[Card], others: list[int], sizes: list[int], rng: GameRng
    ) -> list[list[Card]]:
        """Deal `unseen` to `others` in hands of `sizes`, consistently with the public record
        (`_redealer`)."""
        return self._redealer(unseen, others, sizes)(rng)

    def _redealer(
        self, unseen: list[Card], others: list[int], sizes: list[int]
    ) -> Callable[[GameRng], list[list[Card]]]:
        """`_redraw` for many deals under the same knowledge: `_redealer(...)(rng)` is
        `_redraw(..., rng)`, the same piles from the same draws, the constraints worked out once.

        Two things are known: where the table has seen cards go (`holders`), and that nobody sits
        on a complete book (it would have been laid down) — except a caller holding a just-given
        card before saying "Thank you". The first is a matching; the second is restored after it
        by swapping cards between hands.
        """
        everyone = self.game.everyone
        holders = self.holders
        allowed = [
            [i for i, p in enumerate(others) if p in holders.get(c, everyone)] for c in unseen
        ]
        may = {c: set(a) for c, a in zip(unseen, allowed, strict=True)}
        exempt = (-1, 0) if self.pending is None else (self.turn, self.pending[1].number)
        deal = constrained_dealer(unseen, sizes, allowed)
        break_books = self._break_books

        def redeal(rng: GameRng) -> list[list[Card]]:
            # The swaps are a local search and can corner themselves (about one deal in 1,500
            # with five to seven players): then deal afresh and search again.
            for attempt in range(_REDEALS):
                piles = deal(rng)
                try:
                    break_books(piles, others, may, exempt, rng)
                    break
                except ValueError:
                    if attempt == _REDEALS - 1:
                        raise
            return [sort_cards(pile) for pile in piles]

        return redeal

    @staticmethod
    def _break_books(
        piles: list[list[Card]],
        others: list[int],
        may: dict[Card, set[int]],
        exempt: tuple[int, int],
        rng: GameRng,
    ) -> None:
        def full_book(i: int) -> int | None:
            counts = Counter(c.number for c in piles[i])
            for number, k in counts.items():
                if k == 4 and (others[i], number) != exempt:
                    return number
            return None

        for _ in range(10_000):
            bad = [(i, x) for i in range(len(piles)) if (x := full_book(i)) is not None]
            if not bad:
                return
            i, number = rng.choice(bad)
            swaps = []
            for c in piles[i]:
                if c.number != number:
                    continue
                for j in may[c]:
                    if j == i or sum(1 for d in piles[j] if d.number == number) >= 3:
                        continue
                    for d in piles[j]:
                        if d.number == number or i not in may[d]:
                            continue
                        if sum(1 for e in piles[i] if e.number == d.number) >= 3:
                            continue
                        swaps.append((c, j, d))
            if not swaps:
                break
            c, j, d = rng.choice(swaps)
            piles[i][piles[i].index(c)] = d
            piles[j][piles[j].index(d)] = c
        raise ValueError("no deal is consistent with what is known")

    def permute_hidden(self, player: int, rng: GameRng) -> BooksState:
        """Redeal the other hands, keeping every card the table knows the place of."""
        new = self.copy()
        others = [p for p in range(self.game.players) if p != player]
        unseen = [c for p in others for c in self.hands[p]]
        piles = self._redraw(unseen, others, [len(self.hands[p]) for p in others], rng)
        for i, p in enumerate(others):
            new.hands[p] = piles[i]
        new.rng = GameRng(rng.getrandbits(63))
        new._legal = None
        return new

    def forced_move(self) -> Move:
        """Out of time: say "Thank you" if owed; else call for a card the table knows the place
        of, else the first call."""
        legal = self.legal_moves()
        if THANK in legal:
            return THANK
        for m in legal:
            if isinstance(m, Ask) and self.holders.get(m.card) == frozenset((m.target,)):
                return m
        return legal[0]
