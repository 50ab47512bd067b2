"""The Who's Who `hint` bots: Game No. 1 (tricks) played from memory; Game No. 2 (books) by the
greedy rules with what the table has seen.

Game No. 1 — remember the calls and lead the Preference suit wisely:
- name the Preference suit held longest and strongest (seed 004: "The player naturally chooses
  the suit that is most strongly represented in his hand");
- remember every card played this deal (the public tricks), so the bot knows which cards are the
  highest left in each suit — its "masters" — and which players have shown out of a suit;
- lead a master if it holds one; lead Preference cards only while it holds the top Preference card
  or more of them than are left elsewhere (drawing the others' Preference cards), never its last
  ones for nothing; otherwise lead low from a side suit that nobody has shown out of;
- following: win as cheaply as it can be sure of (a master, or the cheapest winner when last to
  play); do not overtake a partner already winning; else throw the lowest card, keeping Preference
  cards and masters.

The rules are one function over plain data, `hint_choice`: the bot calls it from its view, and
`hint_policy` from a full state (a search bot's determinization), reading only what the mover may
know but without building a view — the search bots' model of the other seats and their playouts.
Both games' help for the search bots is here too (`TRICKS_SEARCH`, `BOOKS_SEARCH`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

from parlour.bots.base import Bot
from parlour.bots.ismcts import SearchHelp
from parlour.core import Move, State

from .books import BooksState
from .bots import BooksGreedyBot, books_evaluate, books_playout, books_rollout
from .deck import DECK, NUMBERS, SUIT_BIT, SUITS, Card, parse_card
from .notation import THANK, Play, Prefer
from .tricks import TricksState, winning_play

__all__ = [
    "TricksHintBot",
    "books_best_calls",
    "books_hint_policy",
    "hint_choice",
    "hint_policy",
    "never_forget_thanks",
]


def _rounds_read(
    rounds: Iterable[Sequence[tuple[int, Card]]], players: int
) -> tuple[list[Card], list[set[str]]]:
    """The cards played this deal, and per seat the suits it has shown out of (it did not follow
    the suit led, whether or not the rules oblige it to), from the deal's rounds: the finished
    tricks and the table, each (player, card) in order."""
    played: list[Card] = []
    void: list[set[str]] = [set() for _ in range(players)]
    for plays in rounds:
        led: str | None = None
        for q, c in plays:
            played.append(c)
            if led is None:
                led = c.suit
            elif c.suit != led:
                void[q].add(led)
    return played, void


def _memory(view: Mapping[str, Any]) -> tuple[list[Card], list[set[str]]]:
    """What the view shows of this deal: see `_rounds_read`."""
    rounds = [tr["cards"] for tr in view.get("tricks", [])]
    if view.get("trick"):
        rounds.append(view["trick"])
    cards = [[(int(q), parse_card(t)) for q, t in plays] for plays in rounds]
    return _rounds_read(cards, view["players"])


def suit_strength(cards: Iterable[Card], suit: str) -> tuple[int, int]:
    """How many cards of `suit`, then their total: the hint names the suit where this is most
    (seed 004: "the suit that is most strongly represented in his hand")."""
    numbers = [c.number for c in cards if c.suit == suit]
    return (len(numbers), sum(numbers))


_CARD_BY_TEXT: dict[str, Card] = {str(c): c for c in DECK}


# Cards as bits, one int per suit with bit n for the card numbered n: `_ALL` is a whole suit.
# `hint_choice` keeps the cards "out" (elsewhere: neither played nor in the mover's hand) so; a
# card is a master when no bit above its own is out, and `bit_count()` counts a suit's cards out.
_ALL = sum(1 << n for n in NUMBERS)


def hint_choice(
    hand: Sequence[Card],
    trick: Sequence[tuple[int, Card]],
    preference: str | None,
    played: Iterable[Card],
    voids: Sequence[Collection[str]],
    me: int,
    players: int,
    partners: Collection[int],
    legal: Sequence[Move],
    rng: random.Random,
    *,
    unplayed: Mapping[str, int] | None = None,
) -> tuple[Move, str]:
    """The Game No. 1 hint rules (module doc) on what seat `me` knows, and the reason.

    `hand` is the mover's hand, `trick` the cards on the table (player, card) in order, `played`
    every card played this deal (the finished tricks and the table), `voids` per seat the suits
    it has shown out of, `partners` the mover's partners (none without partnerships) and `legal`
    the legal moves, in the game's order: ties go to the first. `rng` is used only when there
    is no card to choose. A caller that keeps what is played as bits per suit gives `unplayed`
    (`_unplayed(played)`) instead, and `played` is not read.
    """
    prefers = [m for m in legal if type(m) is Prefer]
    if prefers:
        best = max(prefers, key=lambda m: suit_strength(hand, m.suit))
        return best, f"hint: name {best.suit}, the suit held longest and strongest"
    plays = [m for m in legal if type(m) is Play]
    if not plays:
        return rng.choice(legal), "hint: no card to choose"
    pref = preference
    # per suit, the numbers neither played nor in the hand
    out = _unplayed(played) if unplayed is None else dict(unplayed)
    for number, suit in hand:
        out[suit] &= ~(1 << number)

    def master(c: Card) -> bool:
        return not out[c.suit] >> (c.number + 1)

    def cheap(m: Play) -> tuple[bool, bool, int]:
        number, suit = m.card
        return (suit == pref, not out[suit] >> (number + 1), number)

    if not trick:
        return _lead(plays, out, pref, voids, me, players, partners, master)
    best_p, top = winning_play(trick, pref)
    if best_p in partners:
        m = min(plays, key=cheap)
        return m, "hint: partner is winning the trick; throw the cheapest card"
    # a card played last wins the trick when it beats the winning card as `trick_winner` says
    winning = [
        m
        for m in plays
        if (m.card.suit == top.suit and m.card.number > top.number)
        or (m.card.suit == pref and top.suit != pref)
    ]
    if winning:
        if len(trick) == players - 1:
            m = min(winning, key=lambda m: (m.card.suit == pref, m.card.number))
            return m, "hint: last to play; win as cheaply as possible"
        sure = [m for m in winning if m.card.suit == pref or master(m.card)]
        if sure:
            m = min(sure, key=lambda m: (m.card.suit == pref, m.card.number))
            return m, "hint: win with a card nobody left can beat"
        m = min(winning, key=lambda m: m.card.number)
        return m, "hint: take the lead in the trick cheaply"
    m = min(plays, key=cheap)
    return m, "hint: cannot win it; throw the cheapest card, keeping Preference cards"


def _lead(
    plays: list[Play],
    out: dict[str, int],
    pref: str | None,
    voids: Sequence[Collection[str]],
    me: int,
    players: int,
    partners: Collection[int],
    master: Callable[[Card], bool],
) -> tuple[Move, str]:
    # suits an opponent has shown out of: leading them may be trumped
    shown_out = {s for q in range(players) if q != me and q not in partners for s in voids[q]}
    trumps_out = out[pref].bit_count() if pref is not None else 0
    my_trumps = [m for m in plays if m.card.suit == pref]
    side_masters = [
        m for m in plays if m.card.suit != pref and m.card.suit not in shown_out and master(m.card)
    ]
    if side_masters:
        m = max(side_masters, key=lambda m: m.card.number)
        return m, "hint: lead a master card (the highest left in its suit)"
    if my_trumps and trumps_out:
        top = max(my_trumps, key=lambda m: m.card.number)
        if master(top.card) or len(my_trumps) > trumps_out:
            return top, "hint: lead the top Preference card to draw the others' Preference cards"
    if not trumps_out and my_trumps:
        m = max(my_trumps, key=lambda m: m.card.number)
        return m, "hint: no Preference cards are left elsewhere; this wins"
    safe = [m for m in plays if m.card.suit != pref and m.card.suit not in shown_out]
    pool = safe or [m for m in plays if m.card.suit != pref] or plays
    m = min(pool, key=lambda m: m.card.number)
    return m, "hint: lead low from a side suit nobody has shown out of"


class TricksHintBot(Bot):
    name = "hint"

    def _choose(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        me: int = view["viewer"]
        played, void = _memory(view)
        teams = view.get("teams")
        return hint_choice(
            hand=[parse_card(t) for t in view.get("hand", [])],
            trick=[(int(q), parse_card(t)) for q, t in view["trick"]],
            preference=view["preference"],
            played=played,
            voids=void,
            me=me,
            players=view["players"],
            partners={q for t in teams or [] if me in t for q in t if q != me},
            legal=legal,
            rng=self.rng,
        )

    def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        return self._choose(view, legal)[0]

    def explain(self, view: Mapping[str, Any], legal: list[Move]) -> tuple[Move, str]:
        if len(legal) == 1:
            return legal[0], "the only move"
        return self._choose(view, legal)


def hint_policy(state: State, rng: random.Random) -> Move:
    """The move `TricksHintBot` would choose for the seat to play, computed on a full state (a
    search bot's determinization) without building a view. It reads only what that seat may know:
    its own hand and the public record of this deal (the table, the finished tricks, the
    Preference suit, the seating) — never another hand or the laid-aside cards."""
    assert isinstance(state, TricksState)
    legal = state.legal_moves()
    if len(legal) == 1:
        return legal[0]
    g = state.game
    n = g.players
    me = state.turn
    trick = state.trick
    # The finished tricks hold card texts (they are public records): read once until the next
    # trick is done, on the state and its copies (`tricks_read`). The table holds cards.
    done = state.tricks_read
    if done is None:
        by_text = _CARD_BY_TEXT
        rounds = [[(q, by_text[t]) for q, t in tr["cards"]] for tr in state.tricks]
        played, shown = _rounds_read(rounds, n)
        done = state.tricks_read = (_unplayed(played), shown)
    unplayed, voids = done
    if trick:
        # the table's cards: played too, and a seat that did not follow the suit led is out of it
        unplayed = dict(unplayed)
        led = trick[0][1].suit
        for q, (number, suit) in trick:
            unplayed[suit] &= ~(1 << number)
            if suit != led and led not in voids[q]:
                voids = [set(v) for v in voids] if voids is done[1] else voids
                voids[q].add(led)
    return hint_choice(
        state.hands[me],
        trick,
        state.preference,
        (),
        voids,
        me,
        n,
        g.partners[me],
        legal,
        rng,
        unplayed=unplayed,
    )[0]


def _unplayed(played: Iterable[Card]) -> dict[str, int]:
    """Per suit, the numbers not among `played`, as bits (bit n for the card numbered n)."""
    out = dict.fromkeys(SUITS, _ALL)
    for number, suit in played:
        out[suit] &= ~(1 << number)
    return out


class BooksHintBot(BooksGreedyBot):
    """Game No. 2: the greedy bot's calls (from holders the table knows of), under `hint`."""

    name = "hint"


# --- playout help for the search bots (full sampled states only) ----------------------------------
def named_as_hint(state: State, seat: int) -> bool:
    """Could a namer who plays the hint rules have named this deal's Preference suit with the hand
    `state` deals it? The hint names the suit it holds most of (then most strongly; the first in
    the game's order on a tie), so the dealt hand — what it holds now and what it has played this
    deal — must be longest and strongest in that suit. A search bot keeps to determinizations
    where this holds (`likely`): a uniform deal gives the namer no more Preference cards than
    anyone, and a hint-playing namer holds two or three of five. Always true where `seat` itself
    named, or nobody has yet."""
    assert isinstance(state, TricksState)
    namer = state.namer
    pref = state.preference
    if pref is None or namer == seat:
        return True
    dealt = list(state.hands[namer])
    dealt += [c for q, c in state.trick if q == namer]
    for tr in state.tricks:
        dealt += [_CARD_BY_TEXT[t] for q, t in tr["cards"] if q == namer]
    return max(SUITS, key=lambda u: suit_strength(dealt, u)) == pref


def _tricks_horizon(state: State) -> int:
    """Moves left in this deal: a playout stops where the deal ends, since later deals are dealt
    afresh and no move now changes them (only the score carried into them)."""
    assert isinstance(state, TricksState)
    return sum(len(h) for h in state.hands) + (state.phase == "prefer")


def _tricks_evaluate(state: State) -> list[float]:
    """A win chance per seat from the points so far and the deals left: a softmax over the scores
    whose sharpness grows as the deals run out, 1.1 / sqrt(deals left). The constant was fitted
    (maximum likelihood) to 1,500 four-player games of the hint bots, scored at every deal's end."""
    assert isinstance(state, TricksState)
    g = state.game
    left = max(1, g.total_deals - state.deal_no)
    beta = 1.1 / math.sqrt(left)
    if g.partnerships:
        teams = state.team_scores()
        points = [teams[g.team_of(p)] for p in range(g.players)]
    else:
        points = state.scores
    top = max(points)
    w = [math.exp(beta * (s - top)) for s in points]
    total = sum(w)
    return [x / total for x in w]


def _tricks_rollout(state: State, rng: random.Random, limit: int) -> int:
    """`limit` moves of `hint_policy` (fewer if the game ends), the search's `rollout`: the same
    moves from the same draws as its own loop, but a deal that ends with the last move is not
    followed by the next deal (`TricksState.hold_deal`): the evaluation reads only the points
    and the deals done, and the playout stops there (the horizon is the end of the deal)."""
    assert isinstance(state, TricksState)
    steps = 0
    history = state.history
    # The policy's move is one of `legal_moves()`: played past the protocol's gate.
    while steps < limit and state.phase != "over":
        if steps == limit - 1:
            state.hold_deal = True
        move = hint_policy(state, rng)
        state._legal = None
        history.append(move)
        state._apply(move)
        steps += 1
    return steps


# c=0.3: a trick moves the win estimate by only a few points, so the default 0.7 spreads the
# visits evenly. Measured against three hint bots: 34% over 100 games and 28.9% over 300 (the
# strength benchmark) at 0.3; 28-31% over 60-100 games at 0.7 — no clear difference either way.
TRICKS_SEARCH = SearchHelp(
    hint_policy,
    _tricks_evaluate,
    pool=200,
    horizon=_tricks_horizon,
    c=0.3,
    model=hint_policy,
    likely=named_as_hint,
    rollout=_tricks_rollout,
)


def books_best_calls(state: BooksState) -> list[Move]:
    """The calls `BooksHintBot.best_calls` ranks first, read off a full state but only from what
    the mover may know: its hand, the hand sizes and the table's `holders` (every player saw the
    calls they come from). Its ranking — a card the table knows the player holds, else one the
    player may hold; then the number held most; then the player with the most cards — is worked
    out a rank at a time rather than by a key per call: the search's model asks it at every other
    seat's turn."""
    g = state.game
    must_hold = g.rules.caller_must_hold
    targets = state.call_targets()
    hands = state.hands
    # The caller's hand as the suits it holds of each number (bits, SUIT_BIT): with them the game's
    # table `wanted_of` lists the cards wanted of a number, in the order of `call_parts`.
    masks = [0] * (NUMBERS[-1] + 1)  # by number; 0: none held
    for number, suit in hands[state.turn]:
        masks[number] |= SUIT_BIT[suit]
    holders = state.holders
    sizes = list(map(len, hands))
    asks_for = g._asks_for
    # Certain calls: a card wanted whose one possible holder is a seat that may be called on, read
    # off the table's knowledge (holders: a few cards), ranked by (count held, size); the ties in
    # the order of `call_parts` (number, then suit). Books laid down leave holders.
    if holders:
        certain: list[tuple[int, int, int, int, int, Card]] = []
        for card, who in holders.items():
            if len(who) != 1:
                continue
            number, suit = card
            mask = masks[number]
            if not mask and must_hold:
                continue
            (q,) = who
            if mask & SUIT_BIT[suit] or q not in targets:
                continue
            certain.append((mask.bit_count(), sizes[q], number, _SUIT_INDEX[suit], q, card))
        if certain:
            top = max(certain)[:2]
            return [asks_for[c[5]][c[4]] for c in sorted(certain) if c[:2] == top]
    # Else a card the player may hold: of the number held most first, then on the seat with the
    # most cards; the numbers held alike taken together, every card and seat in their order.
    top_size = max([sizes[q] for q in targets])
    tops = [q for q in targets if sizes[q] == top_size]
    # (minus the count held, the number, the suits held): sorted, the most held first
    numbers = [(-mask.bit_count(), x, mask) for x, mask in enumerate(masks) if mask]
    if not must_hold:
        booked = {b for bs in state.books for b in bs}
        numbers += [(0, x, 0) for x in NUMBERS if not masks[x] and x not in booked]
    if not numbers:
        return []
    numbers.sort()
    table = g.wanted_of
    i, end = 0, len(numbers)
    while i < end:
        count = numbers[i][0]
        best_size = -1
        best: list[Move] = []
        while i < end and numbers[i][0] == count:
            _, x, mask = numbers[i]
            i += 1
            for asks in table[x][mask]:
                among = holders.get(asks[0].card)
                if among is None:
                    if top_size > best_size:
                        best_size, best = top_size, [asks[q] for q in tops]
                    elif top_size == best_size:
                        best += [asks[q] for q in tops]
                    continue
                for q in targets:
                    if q in among:
                        size = sizes[q]
                        if size > best_size:
                            best_size, best = size, [asks[q]]
                        elif size == best_size:
                            best.append(asks[q])
        if best:
            return best
    # Every call is ruled out by what the table knows: they all rank alike, lowest.
    count = numbers[0][0]
    return [
        asks[q]
        for held, x, mask in numbers
        if held == count
        for asks in table[x][mask]
        for q in tops
    ]


_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def books_hint_policy(state: State, rng: random.Random) -> Move:
    """Game No. 2's hint rules on a full state (the search's model of the other seats): "Thank you"
    when owed, else one of the calls `books_best_calls` ranks first."""
    assert isinstance(state, BooksState)
    if state.pending is not None:
        return THANK
    best = books_best_calls(state) if state.to_play is not None else []
    if not best:
        return rng.choice(state.legal_moves())
    return best[0] if len(best) == 1 else rng.choice(best)


def never_forget_thanks(state: State, legal: list[Move]) -> list[Move]:
    """The moves worth a search's time in Game No. 2: with a "Thank you" owed, only saying it.
    Calling again instead sends the card back and hands the next call to the giver (seed 004),
    which is never better; weighing it as one of ~40 calls let a search of a few hundred
    iterations forget its thanks three times in four."""
    return [THANK] if THANK in legal and getattr(state, "pending", None) is not None else legal


# Game No. 2: the others call as the hint rules do (the model), the searcher never forgets its
# thanks, playouts are random calls that never forget "Thank you", and books made evaluate a leaf.
BOOKS_SEARCH = SearchHelp(
    books_playout,
    books_evaluate,
    depth=40,
    rollout=books_rollout,
    model=books_hint_policy,
    worth=never_forget_thanks,
)
