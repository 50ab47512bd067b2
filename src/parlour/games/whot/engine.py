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
from collections.abc import Iterable
from typing import Any, cast

from parlour.core import Game, IllegalMove, LoadError, Result, RulesError, State, rules_to_dict
from parlour.core.match import MatchFormat
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
from .moves import DRAW, END, PASS, PLAIN, WhotMove, parse_move, play
from .rules import DECLARATIONS, PICK_AMOUNT, WhotRules

__all__ = ["WhotGame", "WhotState", "lacks_from_events"]


def lacks_from_events(events: Iterable[tuple[int, str] | list[Any]], n: int) -> tuple[int, int]:
    """The symbols each seat was seen not to follow — it drew (one card, not a pick) while the
    symbol was called — and has not played since, as one bit mask (bit `5 * seat + symbol`); and
    the symbol the events last called (-1: none, as after a WHOT turned up, or in a chosen position
    before its first play). Public knowledge, built from the events only (seed 000: "note which
    numbers and symbols your opponents cannot follow"). `WhotState.lacks` keeps the same up to
    date move by move."""
    lacks = 0
    call = -1
    code_of = _EVENT_CODES.get
    for who, text in events:
        code = code_of(text)
        if code is None:
            code = _event_code(text)
            if code is None:
                continue
        if code < 5:  # a card played: its symbol is called, and its player holds that symbol
            call = code
            if 0 <= who < n:
                lacks &= ~(1 << (5 * who + code))
        elif code < 10:  # a WHOT's call, or a card turned up
            call = code - 5
        elif code == _NO_CALL:
            call = -1
        elif 0 <= who < n and call >= 0:  # drew
            lacks |= 1 << (5 * who + call)
    return lacks, call


_NO_CALL, _DREW = 10, 11


def _event_code(text: str) -> int | None:
    """What an event says about the call: 0-4 a card of that symbol played, 5-9 that symbol
    called otherwise, `_NO_CALL`, `_DREW`, or None (nothing)."""
    if text == "drew":
        return _DREW
    if text.startswith("turned up "):
        try:
            c = parse_card(text[len("turned up ") :])
        except ValueError:
            return None
        return _NO_CALL if c == WHOT else 5 + (c & 7)
    if text.startswith("play "):
        body = text[5:].split(",")[0]
        if body.startswith("whot"):
            words = body.split()
            ok = len(words) > 2 and words[2] in SYMBOLS
            return 5 + SYMBOLS.index(words[2]) if ok else _NO_CALL
        try:
            return parse_card(body) & 7
        except ValueError:
            return None
    return None


def _event_codes() -> dict[str, int]:
    """The code of every event text the engine writes that says something about the call."""
    texts = ["drew"] + [f"turned up {card_text(c)}" for c in set(PACK)]
    plays = [(c, -1, "") for c in set(PACK) - {WHOT}]
    plays += [(WHOT, s, p) for s in range(5) for p in ("", "reverse", "skip")]
    for say in ("", *DECLARATIONS):
        texts += [WhotMove("play", c, call, power, say).text for c, call, power in plays]
    return {t: cast(int, _event_code(t)) for t in texts}


_EVENT_CODES = _event_codes()


class WhotGame(Game["WhotState"]):
    name = "whot"

    def __init__(self, players: int, rules: WhotRules, preset: str | None = None) -> None:
        super().__init__(players, rules, preset)
        size = 54 * rules.packs
        needed = players * rules.deal + (1 if rules.opening == "turn-up" else 0)
        if needed > size:
            raise RulesError(
                f"{players} players with {rules.deal} cards each need {needed} cards, but the pack "
                f"has {size}; deal fewer or set packs=2"
            )
        self.power_of = rules.power_of
        # The moves each card offers when played, prebuilt once per rule set.
        self.whot_moves: tuple[WhotMove, ...] = tuple(
            play(WHOT, s, p) for s in range(5) for p in ("", *rules.whot_powers)
        )
        self.multi = rules.straights != "off" or rules.double_decking != "off"
        self.declares = frozenset(rules.declarations)
        # The hot path: most turns need no declarations, no open turn and no finishing check.
        self.fast = not self.declares and rules.may_finish_on_special
        self.single_pack = rules.packs == 1
        self.draw_always = rules.may_draw_instead
        self.whot_on_whot = rules.whot_on_whot
        # follows[call_sym * 32 + call_num + 1]: the cards (WHOT aside) that may follow that call.
        ko = rules.knockout
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
                    # shows a star or any of the numbers on your star card".
                    or (ko and c & 7 == STAR and num in (c >> 3, 2 * (c >> 3)))
                )
        # Whether any card of the pack could extend a straight ending on `card` going `step`;
        # a turn stays open only then, so `end` is never asked for when nothing could follow.
        same = rules.straights == "same-symbol"
        self.straight_open = {
            (c, step): any(
                (c2 >> 3) - (c >> 3) in ((1, -1) if step == 0 else (step,))
                and (not same or c2 & 7 == c & 7)
                for c2 in kinds
            )
            for c in kinds
            for step in (-1, 0, 1)
        }
        self.kinds = kinds

    def new_game(
        self,
        seed: int | None = None,
        dealer: int | None = None,
        position: dict[str, Any] | None = None,
        **setup: Any,
    ) -> WhotState:
        """A new game. `dealer` defaults to the last seat, so seat 0 leads.

        `position` starts from a chosen position instead of a deal (for tests, puzzles, teaching):
        `{"hands": [["5 circle", ...], ...], "pile": ["3 star"], "pack": [...top card first...],
        "call": "star", "to_play": 0}`. Cards not placed go, shuffled by `seed`, under `pack`.
        """
        if setup:
            raise IllegalMove(f"unknown setup for whot: {', '.join(setup)}")
        seed = fresh_seed() if seed is None else seed
        n = self.players
        if dealer is None:
            dealer = n - 1
        if not 0 <= dealer < n:
            raise IllegalMove(f"dealer must be a seat from 0 to {n - 1}")
        st = WhotState.__new__(WhotState)
        st._init_empty(self, seed, {"dealer": dealer} if position is None else {})
        if position is not None:
            st.setup = {"dealer": dealer, "position": position}
            st._set_position(position, dealer)
            return st
        if dealer != n - 1:
            st.setup = {"dealer": dealer}
        st._deal(dealer)
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
            words.append(", ".join(f"P{p + 1} cut {card_text(c)}" for p, c in cuts.items()))
            low = min(c >> 3 for c in cuts.values())
            contenders = [p for p, c in cuts.items() if c >> 3 == low]
            if len(contenders) == 1:
                d = contenders[0]
                return d, "; ".join(words) + f": P{d + 1} cut lowest and deals"

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
        self.rules = game.rules
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
        self.winners: tuple[int, ...] = ()
        self.reason = ""
        self.events: list[tuple[int, str]] = []
        # The symbols each seat was seen not to follow, bit `5 * seat + symbol`: what
        # `lacks_from_events` reads from the events, kept up event by event (for the hint bot's
        # rules on full states). Public and derived from the events: not saved, no part of
        # equality. The events' call is `call_sym`, except in a chosen position before its first
        # play (its call card was never called by an event): then bit `5 * n` is set too. (One
        # field, an int: a 30th attribute makes CPython 3.11 give up the shared-key instance
        # dict, which slows every attribute access of the engine.)
        self.lacks = 0

    def _deal(self, dealer: int) -> None:
        rules, n = self.rules, self.n
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
        cards = "card" if rules.deal == 1 else "cards"
        self.events.append((dealer, f"dealt {rules.deal} {cards} each"))
        if rules.opening == "leader-plays-any":
            return  # seed 000: the leader plays ANY card
        top = pack.pop()
        if rules.opening_special == "bury":
            while top == WHOT or (top >> 3) in self.game.power_of:
                pack.insert(self.rng.randrange(len(pack) + 1), top)
                top = pack.pop()
        self.pile.append(top)
        self.events.append((-1, f"turned up {card_text(top)}"))
        if top == WHOT:
            return  # no symbol has been called: the leader plays any card
        self.free = False
        self.call_sym, self.call_num = top & 7, top >> 3
        if rules.opening_special == "applies" and (top >> 3) in self.game.power_of:
            self.current = dealer
            self._end_turn(dealer, top, check_declarations=False)  # the dealer declared nothing

    def _set_position(self, pos: dict[str, Any], dealer: int) -> None:
        n = self.n
        self.dealer = dealer
        try:
            hands = [[parse_card(t) for t in h] for h in pos.get("hands", [[]] * n)]
            pile = [parse_card(t) for t in pos.get("pile", [])]
            top_first = [parse_card(t) for t in pos.get("pack", [])]
        except IllegalMove as exc:
            raise IllegalMove(f"position: {exc}") from None
        if len(hands) != n:
            raise IllegalMove(f"position gives {len(hands)} hands for {n} players")
        left = pack_counter(self.rules.packs)
        left.subtract(Counter(c for h in hands for c in h))
        left.subtract(Counter(pile + top_first))
        over = [card_text(c) for c, k in left.items() if k < 0]
        if over:
            raise IllegalMove(f"position uses more cards than the pack has: {', '.join(over)}")
        rest = sorted(left.elements())
        self.rng.shuffle(rest)
        self.pack = rest + top_first[::-1]
        self.hands = hands
        self.pile = pile
        to_play = pos.get("to_play", (dealer + 1) % n)
        if not isinstance(to_play, int) or not 0 <= to_play < n:
            raise IllegalMove(f"position: to_play must be a seat from 0 to {n - 1}")
        self.current = to_play
        if pile:
            self.lacks = 1 << 5 * n
            top = pile[-1]
            self.free = False
            if top == WHOT:
                if "call" not in pos:
                    raise IllegalMove("position: a WHOT call card needs a 'call' symbol")
                self.call_sym, self.call_num = parse_symbol(pos["call"]), -1
            else:
                self.call_sym, self.call_num = top & 7, top >> 3
        for p, h in enumerate(hands):
            if not h:
                raise IllegalMove(f"position: player {p} has no cards, so the game would be over")

    # --- the protocol --------------------------------------------------------------------------
    @property
    def to_play(self) -> int | None:
        return self.current

    @property
    def is_over(self) -> bool:
        return self.current is None

    def result(self) -> Result:
        if self.current is not None:
            raise ValueError("the game is not over")
        ko = self.rules.knockout
        points = tuple(hand_points(h, ko) for h in self.hands)
        return Result.ranked(self.winners, points, True, self.reason)

    def forced_move(self) -> WhotMove:
        """seed 002: a player too slow "is demanded ... to pick a card from the market"."""
        legal = self.legal_moves()
        for m in (DRAW, PASS, END):
            if m in legal:
                return m
        return cast(WhotMove, legal[0])  # pragma: no cover - draw, pass or end is always legal

    def _legal_moves(self) -> list[WhotMove]:  # type: ignore[override]
        p = self.current
        if p is None:
            return []
        g = self.game
        hand = self.hands[p]
        if self.turn_cards or self.pending_pick or self.pending_skip or self.free or not g.fast:
            return self._legal_in_general(p, hand)
        # The common case, kept lean: follow the call by symbol or number, or play a WHOT.
        fset = g.follows[self.call_sym * 32 + self.call_num + 1]
        if g.single_pack:
            moves = [PLAIN[c] for c in hand if c in fset]
        else:
            moves = [PLAIN[c] for c in dict.fromkeys(hand) if c in fset]
        if WHOT in hand and (g.whot_on_whot or self.pile[-1] != WHOT):
            moves += g.whot_moves
        if not moves or g.draw_always:
            moves.append(DRAW)
        return moves

    def _legal_in_general(self, p: int, hand: list[int]) -> list[WhotMove]:
        g = self.game
        moves: list[WhotMove] = []
        if self.turn_cards:  # an open turn of several cards
            for c in dict.fromkeys(hand):
                if c != WHOT and self._continues(c):
                    self._add_plays(moves, c, hand)
            moves.append(END)
            return moves
        if self.pending_skip:
            if WHOT in hand and self.rules.whot_on_whot:
                self._add_plays(moves, WHOT, hand)
            moves.append(PASS)
            return moves
        if self.pending_pick:
            if self.rules.pick_stacking:
                for c in dict.fromkeys(hand):
                    if c >> 3 == self.pick_num and c != WHOT:
                        self._add_plays(moves, c, hand)
            if self.rules.whot_answers_pick and WHOT in hand:
                self._add_plays(moves, WHOT, hand)
            moves.append(DRAW)
            return moves
        simple = not g.declares and self.rules.may_finish_on_special
        if self.free:
            for c in dict.fromkeys(hand):
                self._add_plays(moves, c, hand)
        else:
            sym, num = self.call_sym, self.call_num
            ko = self.rules.knockout
            for c in dict.fromkeys(hand):
                if c == WHOT:
                    if self.pile and self.pile[-1] == WHOT and not self.rules.whot_on_whot:
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
                        moves.append(play(c))
                else:
                    self._add_plays(moves, c, hand)
        if not moves or self.rules.may_draw_instead:
            moves.append(DRAW)
        return moves

    def _add_plays(self, moves: list[WhotMove], c: int, hand: list[int]) -> None:
        left = len(hand) - 1
        if left == 0 and not self.rules.may_finish_on_special and (c >> 3) in self.game.power_of:
            return
        base = self.game.whot_moves if c == WHOT else (PLAIN[c],)
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
        r = self.rules
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
        step = (c >> 3) - (last >> 3)
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
            self.events.append((p, "drew" if k == 1 else f"picked {k}"))
            call = self.call_sym
            if k == 1 and call >= 0 and not self.lacks >> (5 * p + call) & 1:
                self._note_lack(1 << (5 * p + call))
            self._draw(p, k)
            if self.current is not None:
                self._advance(p, 1)
        elif kind == "end":
            self._end_turn(p)
        else:  # pass: the WHOT's skip is accepted
            self.pending_skip = False
            self.events.append((p, "was skipped"))
            self._advance(p, 1)

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
            if turn and self.rules.straights != "off":
                self.straight_dir = (c >> 3) - (turn[-1] >> 3)
            turn.append(c)
        if move.say:
            self.turn_said.append(move.say)
        self.events.append((p, move.text))
        if not hand:
            if "check up" in self.game.declares and "check up" not in self.turn_said:
                # seed 002: "If you fail to say Check up ... you have to pick two more cards from
                # the market and the game continues."
                self._penalty(p, "forgot to say check up")
                if self.current is None:
                    return
                # The turn ends here: the penalty cards may not be played in the same turn (seed
                # 000: "He cannot DRAW a card and PLAY a card in the SAME TURN"), and the forgotten
                # check up is the only declaration charged for it.
                self._end_turn(p, c, move.power, check_declarations=False)
                return
            else:
                self._finish((p,), "played the last card", p)
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
        if self.rules.straights != "off":
            return g.straight_open[(c, self.straight_dir)]
        return True  # double decking: every number and symbol has other cards

    def _end_turn(
        self, p: int, last: int = -1, whot_power: str = "", check_declarations: bool = True
    ) -> None:
        """Close the turn whose last card is `last` (by default the open turn's last card)."""
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
        n_cards = len(self.hands[p])
        if declares and check_declarations and n_cards in (1, 2):
            # seed 002: "If you fail to say Last card before the next player has played, you have
            # to pick two more cards from the market".
            need = "last card" if n_cards == 1 else "semi-last card"
            if need in declares and need not in said:
                self._penalty(p, f"forgot to say {need}")
                if self.current is None:
                    return
        if last == WHOT:
            if whot_power == "reverse":
                self.direction = -self.direction
                self.events.append((p, "reversed the direction"))
            elif whot_power == "skip":
                if self.rules.whot_answers_skip:
                    self.pending_skip = True
                    self._advance(p, 1)
                    return
                self.events.append((self._next(p, 1), "is skipped"))
                self._advance(p, 2)
                return
            self._advance(p, 1)
            return
        power = self.game.power_of.get(last >> 3)
        if power is None:
            self._advance(p, 1)
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
            self.events.append((p, "general market: everyone else picked one"))
            self.current = p
        elif power == "suspension":
            self.events.append((self._next(p, 1), "is suspended"))
            self._advance(p, 2)
        else:  # pick_two / pick_three
            if self.rules.pick_reverses:
                self.direction = -self.direction
            # seed 002: "that player must pick two cards for every 2-cards that was played" —
            # so pick cards double-decked together in this turn each count.
            run = 1
            while run < len(turn) and turn[-1 - run] >> 3 == last >> 3:
                run += 1  # `turn` ends with `last` when it holds several cards
            self.pending_pick += PICK_AMOUNT[power] * run
            self.pick_num = last >> 3
            self._advance(p, 1)

    def _next(self, p: int, k: int) -> int:
        return (p + self.direction * k) % self.n

    def _advance(self, p: int, k: int) -> None:
        self.current = (p + self.direction * k) % self.n

    def _penalty(self, p: int, why: str) -> None:
        k = self.rules.declaration_penalty
        self.events.append((p, f"{why}: picks {k}"))
        self._draw(p, k)

    def _draw(self, p: int, k: int) -> None:
        """Give `p` up to k cards from the pack, refilling it as the rules say."""
        hand = self.hands[p]
        for _ in range(k):
            if not self.pack and not self._refill():
                return
            c = self.pack.pop()
            hand.append(c)
            if self.pack_public:
                self.known[p].append(c)

    def _refill(self) -> bool:
        mode = self.rules.empty_pack
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
                self.events.append((-1, "the played cards were turned over as a new pack"))
            else:
                self.rng.shuffle(under)
                self.pack = under
                self.pack_public = False
                self.events.append((-1, "the played cards were shuffled into a new market"))
            return True
        why = "the market ran out" if mode == "end" else "no card was left to draw"
        self._finish_by_count(why)
        return False

    def _finish(self, winners: tuple[int, ...], reason: str, by: int = -1) -> None:
        self.winners = winners
        self.reason = reason if by < 0 else f"P{by + 1} {reason}"
        self.current = None
        self.pending_pick = 0
        self.pending_skip = False
        self.turn_cards = []
        self.turn_said = []
        self.events.append((by, reason))

    def _finish_by_count(self, why: str) -> None:
        ko = self.rules.knockout
        pts = [hand_points(h, ko) for h in self.hands]
        low = min(pts)
        winners = tuple(i for i, x in enumerate(pts) if x == low)
        self._finish(winners, f"{why}; the lowest hand wins")

    # --- copies, saves, views ------------------------------------------------------------------
    def copy(self) -> WhotState:
        s = WhotState.__new__(WhotState)
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
        """Everything every player may know. Used by both views and saves."""
        return {
            "players": self.n,
            "dealer": self.dealer,
            "to_play": self.current,
            "is_over": self.current is None,
            "counts": [len(h) for h in self.hands],
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
            "winners": list(self.winners),
            "reason": self.reason,
            "events": [list(e) for e in self.events],
        }

    def view(self, player: int | None) -> dict[str, Any]:
        v = self._public()
        v["game"] = "whot"
        v["viewer"] = player
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
            rules=rules_to_dict(self.rules),
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
        s = cls.__new__(cls)
        s._init_empty(game, int(d.get("seed", 0)), dict(d.get("setup", {})))
        s.rng = rng
        s.dealer = d["dealer"]
        s.current = d["to_play"]
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
        s.winners = tuple(d["winners"])
        s.reason = d["reason"]
        s.events = [(int(e[0]), str(e[1])) for e in d["events"]]
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
                need = v["counts"][q] - len(hands[q])
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
