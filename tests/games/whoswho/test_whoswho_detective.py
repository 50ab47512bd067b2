"""Who's Who, Game No. 2: the `detective` bot — the sleuth, also reading what a refused call shows
the caller lacks. Each test quotes the rule it reads (seed 004, or RULES-NOTES.md for a
reconstructed point)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_whoswho_sleuth import HANDS, make

from parlour.bots import make_bot
from parlour.core import RulesError
from parlour.core.rng import GameRng
from parlour.games.whoswho.books import BooksGame, BooksState
from parlour.games.whoswho.deck import parse_card
from parlour.games.whoswho.detective import BooksDetectiveBot, detective_chances, lacks
from parlour.games.whoswho.notation import THANK
from parlour.games.whoswho.sleuth import call_chances, must_hold
from parlour.testing.positions import played_positions

# The sleuth's position (seat 4 holds no seven): the detective reads the same calls more.
# Seat 1 takes the seven of brains from seat 2 (now the table knows where it is), then is refused
# the three of brains by seat 4; seat 4, with the call, asks seat 1 for the three of society — a
# call nobody could be sure of — and is refused.
MOVES = ["ask 2 for 7 brains", "thank", "ask 4 for 3 brains", "ask 1 for 3 society"]


def position(moves: list[str]) -> BooksState:
    state = make().from_position({"dealer": 3, "hands": HANDS}, seed=1)
    for m in moves:
        state.apply(m)
    return state


def test_says_thank_you_for_every_card_given() -> None:
    # seed 004: 'he gives it to the caller, who must at once say, "Thank you."'
    state = position(["ask 4 for 15 society"])
    bot = BooksDetectiveBot(state.game, random.Random(0))
    assert bot.choose(state.view(0), state.legal_moves()) == THANK


def test_a_refused_unsure_call_shows_the_caller_had_no_sure_call() -> None:
    # Seat 4 could have called for the seven of brains, which the table saw go to seat 1, had it
    # held a seven (RULES-NOTES: "a caller must hold a card of the number called"); it made an
    # unsure call instead and was refused, so it holds no seven.
    state = position(MOVES)
    assert lacks(state.view(0)["log"], 4) == [set(), set(), set(), {7}]
    # Seat 1's own refused call reads nothing of seat 1: the only card the table could place was
    # its own.
    assert lacks(state.view(0)["log"][:3], 4) == [set(), set(), set(), set()]


def test_the_sevens_left_are_not_looked_for_in_a_hand_that_lacks_them() -> None:
    # The sevens of money and sport are with seat 2 or seat 3 for the detective; the sleuth, which
    # reads only what a call shows the caller holds, gives seat 4 a third of each.
    state = position(MOVES)
    view = state.view(0)
    assert view["hand_counts"] is not None  # every Who\'s Who view counts hands
    chance = detective_chances(view)
    for card in ("7 money", "7 sport"):
        assert set(chance[parse_card(card)]) == {1, 2}
    hand = [parse_card(t) for t in view["hand"]]
    holders = {parse_card(t): who for t, who in view["holders"].items()}
    sleuth = call_chances(0, hand, view["hand_counts"], [], holders, must_hold(view["log"], 4))
    assert sleuth[parse_card("7 money")][3] == pytest.approx(1 / 3, abs=0.05)


def test_a_card_sent_back_or_a_call_for_the_number_undoes_the_reading() -> None:
    # seed 004: a caller who does not say "Thank you" "must return the card to the player from
    # whom he got it": the giver holds a card of that number again.
    log = [
        {"kind": "call", "player": 0, "target": 1, "card": "7 brains", "given": True},
        {"kind": "thank", "player": 0},
        {"kind": "call", "player": 0, "target": 3, "card": "3 brains", "given": False},
        {"kind": "call", "player": 3, "target": 0, "card": "3 society", "given": False},
    ]
    assert lacks(log, 4)[3] == {7}
    sent_back = [
        *log,
        {"kind": "call", "player": 3, "target": 2, "card": "7 money", "given": True},
        {"kind": "return", "player": 3, "to": 2, "card": "7 money"},
    ]
    # Seat 4 called for a seven after all: it does not play the sure call first, and nothing is
    # read of it; seat 3, given back its seven of money, holds a seven.
    assert lacks(sent_back, 4)[3] == set()
    assert lacks(sent_back, 4)[2] == set()
    # ... and a book laid down clears its number for everyone
    booked = [*log, {"kind": "book", "player": 1, "number": 7}]
    assert lacks(booked, 4)[3] == set()


def test_never_strikes_the_last_possible_holder() -> None:
    # Every card not in the caller's hand nor in a book keeps at least one holder, each hand its
    # number of cards, whatever the reading says: over whole games of four detectives.
    game = make()
    checked = 0
    for state in positions(game, range(2), "detective"):
        if state.pending is not None:
            continue
        me = state.turn
        view = state.view(me)
        assert view["hand_counts"] is not None  # every Who\'s Who view counts hands
        chance = detective_chances(view)
        assert len(chance) == sum(view["hand_counts"]) - len(view["hand"])
        for row in chance.values():
            assert sum(row.values()) == pytest.approx(1.0)
            assert me not in row
        for q in range(4):
            if q != me:
                total = sum(row.get(q, 0.0) for row in chance.values())
                assert total == pytest.approx(view["hand_counts"][q], abs=0.05)
        checked += 1
    assert checked >= 50


def positions(game: BooksGame, seeds: range, bot: str = "hint") -> Iterator[BooksState]:
    """Every position of whole games of four `bot`s (played on after the caller looks)."""
    for state in played_positions(game, bot, seeds):
        assert isinstance(state, BooksState)
        yield state


def test_reads_nothing_hidden() -> None:
    # Hidden information is a wall: redealing every card the caller cannot see (keeping what the
    # table knows) never changes the detective's call.
    game = make()
    checked = moved = 0
    for i, state in enumerate(positions(game, range(2))):
        me = state.to_play
        assert me is not None
        redealt = state.permute_hidden(me, GameRng(i))
        moved += redealt.hands != state.hands
        a = BooksDetectiveBot(game, random.Random(i)).choose(state.view(me), state.legal_moves())
        b = BooksDetectiveBot(game, random.Random(i)).choose(
            redealt.view(me), redealt.legal_moves()
        )
        assert a == b
        checked += 1
    assert checked >= 50 and moved >= checked // 2


def test_the_grain_is_a_whole_number_of_hundredths() -> None:
    game = make()
    bot = make_bot("detective:grain=4", game, 0)
    assert isinstance(bot, BooksDetectiveBot) and bot.grain == 4
    with pytest.raises(RulesError, match="grain"):
        make_bot("detective:grain=0", game, 0)
