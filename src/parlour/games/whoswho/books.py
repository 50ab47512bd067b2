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

Starting from a chosen position::

    game.new_game(seed, dealer=0, hands=[["3 money", ...], [...]], books=[[7], []], caller=1)

`hands` (card texts) and `books` (numbers already laid down by each player) must together hold the
whole pack once; `caller` is who calls first (default: the dealer's left). Complete books in the
given hands are laid down at once, as at a deal.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from parlour.core import Game, IllegalMove, Move, Result, RulesError, State
from parlour.core.match import MatchFormat
from parlour.core.options import rules_to_dict
from parlour.core.rng import GameRng, fresh_seed

from .deck import DECK, NUMBERS, SUITS, Card, constrained_deal, parse_card, sort_cards
from .notation import THANK, Ask, Thank, parse_books_move
from .rules import BooksRules

__all__ = ["BooksGame", "BooksState"]

_BY_NUMBER: dict[int, tuple[Card, ...]] = {n: tuple(Card(n, s) for s in SUITS) for n in NUMBERS}
_DECK_INDEX = {c: i for i, c in enumerate(DECK)}


class BooksGame(Game["BooksState"]):
    name = "whoswho-books"
    rules: BooksRules

    def __init__(self, players: int, rules: BooksRules, preset: str | None = None) -> None:
        super().__init__(players, rules, preset)
        if not 2 <= players <= 7:
            raise RulesError(f"Who's Who is for two to seven players, not {players}")
        self.everyone = frozenset(range(players))
        self._asks = {(q, c): Ask(q, c) for q in range(players) for c in DECK}

    def new_game(self, seed: int | None = None, **setup: Any) -> BooksState:
        seed = fresh_seed() if seed is None else seed
        unknown = set(setup) - {"dealer", "hands", "books", "caller"}
        if unknown:
            raise RulesError(
                f"unknown setup {', '.join(sorted(unknown))}; "
                "Game No. 2 takes dealer, hands, books, caller"
            )
        n = self.players
        dealer = setup.get("dealer", n - 1)
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise RulesError(f"dealer must be a player from 0 to {n - 1}, not {dealer!r}")
        st = BooksState(self, seed, dict(setup))
        st.dealer = dealer
        if setup.get("hands") is None:
            if setup.get("books"):
                raise RulesError("books can only be set up together with hands")
            pack = list(DECK)
            st.rng.shuffle(pack)
            # Seed 004: "The cards are all dealt around, as evenly as possible."
            for i, c in enumerate(pack):
                st.hands[(dealer + 1 + i) % n].append(c)
        else:
            st.hands, st.books = self._check_position(setup["hands"], setup.get("books"))
        st.hands = [sort_cards(h) for h in st.hands]
        st.events.append(f"seat {dealer + 1} deals")
        caller = setup.get("caller", (dealer + 1) % n)
        if not isinstance(caller, int) or not 0 <= caller < n:
            raise RulesError(f"caller must be a player from 0 to {n - 1}, not {caller!r}")
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

    def _check_position(self, hands: Any, books: Any) -> tuple[list[list[Card]], list[list[int]]]:
        n = self.players
        if not isinstance(hands, list) or len(hands) != n:
            raise RulesError(f"hands must be a list of {n} lists of cards")
        try:
            parsed = [[parse_card(t) for t in h] for h in hands]
        except (IllegalMove, AttributeError, TypeError) as exc:
            raise RulesError(f"hands: {exc}") from None
        made: list[list[int]] = [[] for _ in range(n)]
        if books is not None:
            if not isinstance(books, list) or len(books) != n:
                raise RulesError(f"books must be a list of {n} lists of numbers")
            try:
                made = [[int(b) for b in bs] for bs in books]
            except (TypeError, ValueError):
                raise RulesError("books must be lists of numbers from 3 to 15") from None
            if any(b not in _BY_NUMBER for bs in made for b in bs):
                raise RulesError("books must be lists of numbers from 3 to 15")
        flat = [c for h in parsed for c in h] + [
            c for bs in made for b in bs for c in _BY_NUMBER[b]
        ]
        if sorted(flat) != sorted(DECK):
            raise RulesError("hands and books must hold every card of the pack exactly once")
        return parsed, made

    def parse_move(self, text: str) -> Move:
        return parse_books_move(text, self.players)

    def match_format(self, name: str | None = None) -> MatchFormat:
        return MatchFormat.parse(name or "single", lower_wins=False)

    def state_from_dict(self, data: dict[str, Any]) -> BooksState:
        st = BooksState(self, int(data["seed"]), dict(data.get("setup") or {}))
        st.rng = GameRng.from_jsonable(data["rng"])
        st.history = [self.parse_move(t) for t in data["history"]]
        st._load_public(data)
        st.hands = [[parse_card(t) for t in h] for h in data["hands"]]
        return st

    def sample_state(self, view: dict[str, Any], rng: GameRng) -> BooksState:
        if view.get("game") != self.name or view.get("players") != self.players:
            raise ValueError("the view is not of this game")
        seed = rng.getrandbits(63)
        st = BooksState(self, seed, {})
        st._load_public(view)
        viewer = view.get("viewer")
        own = [parse_card(t) for t in view["hand"]] if viewer is not None else []
        booked = {b for bs in st.books for b in bs}
        unseen = [c for c in DECK if c.number not in booked and c not in own]
        others = [p for p in range(self.players) if p != viewer]
        sizes = [view["hand_counts"][p] for p in others]
        piles = st._redraw(unseen, others, sizes, rng)
        st.hands = [[] for _ in range(self.players)]
        if viewer is not None:
            st.hands[viewer] = sort_cards(own)
        for i, p in enumerate(others):
            st.hands[p] = piles[i]
        return st


_REDEALS = 20  # fresh deals tried before a redraw gives up


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
        self.over = False
        self.pending: tuple[int, Card] | None = None  # (giver, card) awaiting "Thank you"
        # Public knowledge: for each card the table has learnt about, who may still hold it.
        self.holders: dict[Card, frozenset[int]] = {}
        self.log: list[dict[str, Any]] = []
        self.events: list[str] = []

    # --- the protocol -------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return None if self.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    def _legal_moves(self) -> list[Move]:
        if self.over:
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
        p = self.turn
        hand = self.hands[p]
        mine = set(hand)
        if self.game.rules.caller_must_hold:
            numbers = sorted({c.number for c in hand})
        else:
            booked = {b for bs in self.books for b in bs}
            numbers = [x for x in NUMBERS if x not in booked]
        wanted = [c for x in numbers for c in _BY_NUMBER[x] if c not in mine]
        asks = self.game._asks
        return [
            asks[(q, c)]
            for q in range(self.game.players)
            if q != p and self.hands[q]
            for c in wanted
        ]

    def _apply(self, move: Move) -> None:
        p = self.turn
        if isinstance(move, Thank):
            assert self.pending is not None
            self.pending = None
            self.log.append({"kind": "thank", "player": p})
            self.events.append(f"seat {p + 1}: thank you")
            self._kept(p)
            return
        assert isinstance(move, Ask)
        if self.pending is not None:
            giver, card = self.pending
            self.pending = None
            self.hands[p].remove(card)
            self.hands[giver] = sort_cards([*self.hands[giver], card])
            self.holders[card] = frozenset((giver,))
            self.log.append({"kind": "return", "player": p, "to": giver, "card": str(card)})
            self.events.append(
                f"seat {p + 1} called again without saying thank you: {card} goes back to "
                f"seat {giver + 1}, who calls next"
            )
            self.turn = giver
            return
        q, card = move.target, move.card
        self.events.append(f"seat {p + 1} calls on seat {q + 1} for {card}")
        if card in self.hands[q]:
            self.hands[q].remove(card)
            self.hands[p] = sort_cards([*self.hands[p], card])
            self.holders[card] = frozenset((p,))
            self.log.append(
                {"kind": "call", "player": p, "target": q, "card": str(card), "given": True}
            )
            self.events.append(f"seat {q + 1} gives {card} to seat {p + 1}")
            if self.game.rules.thank_you:
                self.pending = (q, card)
            else:
                self._kept(p)
            return
        self.holders[card] = self.holders.get(card, self.game.everyone) - {p, q}
        self.log.append(
            {"kind": "call", "player": p, "target": q, "card": str(card), "given": False}
        )
        # Seed 004: "When a player fails to get the card called for, the turn to call goes to the
        # player he last called on."
        self.events.append(f"seat {q + 1} has no {card}: the call goes to seat {q + 1}")
        self.turn = q

    def _kept(self, p: int) -> None:
        """The caller keeps a card: lay down a book it completes; the turn stays or moves on."""
        self._lay_books(p)
        if self._over():
            self._finish()
        elif not self.game.rules.success_keeps_turn or not self.hands[p]:
            self._pass_on(p)

    def _lay_books(self, p: int) -> None:
        counts = Counter(c.number for c in self.hands[p])
        for number, k in sorted(counts.items()):
            if k == 4:
                self.hands[p] = [c for c in self.hands[p] if c.number != number]
                self.books[p].append(number)
                for c in _BY_NUMBER[number]:
                    self.holders.pop(c, None)
                self.log.append({"kind": "book", "player": p, "number": number})
                self.events.append(f"seat {p + 1} lays down the book of {number}s")

    def _pass_on(self, p: int) -> None:
        """The call goes to the next player to the left who still has cards."""
        n = self.game.players
        if not self.hands[p]:
            self.events.append(f"seat {p + 1} has no cards left and is passed over")
        for step in range(1, n + 1):
            q = (p + step) % n
            if self.hands[q]:
                self.turn = q
                return
        raise AssertionError("no player holds a card but the books are not all made")

    def _over(self) -> bool:
        return sum(len(b) for b in self.books) == len(NUMBERS)

    def _finish(self) -> None:
        self.over = True
        res = self.result()
        who = " and ".join(f"seat {w + 1}" for w in res.winners)
        self.events.append(
            f"game over: {who} {'win' if len(res.winners) > 1 else 'wins'} "
            f"with {res.points[res.winners[0]]} books"
        )

    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over")
        points = tuple(len(b) for b in self.books)
        best = max(points)
        winners = tuple(p for p, x in enumerate(points) if x == best)
        reason = f"the most books ({best}) wins"
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

    def view(self, player: int | None) -> dict[str, Any]:
        g = self.game
        v: dict[str, Any] = {
            "game": g.name,
            "players": g.players,
            "viewer": player,
            "to_play": self.to_play,
            "is_over": self.over,
            "dealer": self.dealer,
            "hand_counts": [len(h) for h in self.hands],
            "books": [list(b) for b in self.books],
            "book_counts": [len(b) for b in self.books],
            "pending": None
            if self.pending is None
            else {"caller": self.turn, "giver": self.pending[0], "card": str(self.pending[1])},
            "holders": self._holders_json(),
            "known": [[str(c) for c in k] for k in self.known()],
            "log": [dict(e) for e in self.log],
            "events": list(self.events),
        }
        if player is not None:
            v["hand"] = [str(c) for c in self.hands[player]]
        if self.over:
            v["result"] = self.result().to_dict()
        return v

    def _load_public(self, d: dict[str, Any]) -> None:
        self.dealer = d["dealer"]
        self.over = d["is_over"]
        self.turn = d["to_play"] if d["to_play"] is not None else 0
        self.books = [list(b) for b in d["books"]]
        pend = d["pending"]
        self.pending = None if pend is None else (pend["giver"], parse_card(pend["card"]))
        self.holders = {parse_card(t): frozenset(who) for t, who in d["holders"].items()}
        self.log = [dict(e) for e in d["log"]]
        self.events = list(d["events"])

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
            "is_over": self.over,
            "to_play": self.to_play,
            "dealer": self.dealer,
            "books": [list(b) for b in self.books],
            "pending": None
            if self.pending is None
            else {"caller": self.turn, "giver": self.pending[0], "card": str(self.pending[1])},
            "holders": self._holders_json(),
            "log": [dict(e) for e in self.log],
            "events": list(self.events),
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
        """Deal `unseen` to `others` in hands of `sizes`, consistently with the public record.

        Two things are known: where the table has seen cards go (`holders`), and that nobody sits
        on a complete book (it would have been laid down) — except a caller holding a just-given
        card before saying "Thank you". The first is a matching; the second is restored after it
        by swapping cards between hands.
        """
        everyone = self.game.everyone
        allowed = [
            [i for i, p in enumerate(others) if p in self.holders.get(c, everyone)] for c in unseen
        ]
        may = {c: set(a) for c, a in zip(unseen, allowed, strict=True)}
        exempt = (-1, 0) if self.pending is None else (self.turn, self.pending[1].number)
        # The swaps are a local search and can corner themselves (about one deal in 1,500 with
        # five to seven players): then deal afresh and search again.
        for attempt in range(_REDEALS):
            piles = constrained_deal(unseen, sizes, allowed, rng)
            try:
                self._break_books(piles, others, may, exempt, rng)
                break
            except ValueError:
                if attempt == _REDEALS - 1:
                    raise
        return [sort_cards(pile) for pile in piles]

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
