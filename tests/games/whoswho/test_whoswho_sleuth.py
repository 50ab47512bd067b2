"""Who's Who, Game No. 2: the `sleuth` bot — the hint rules with every call remembered. Each test
quotes the rule it reads (seed 004, or RULES-NOTES.md for a reconstructed point)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import parlour
from parlour.core.rng import GameRng
from parlour.games.whoswho.books import BooksGame, BooksState
from parlour.games.whoswho.deck import parse_card
from parlour.games.whoswho.notation import THANK
from parlour.games.whoswho.sleuth import BooksSleuthBot, call_chances, must_hold
from parlour.testing.positions import played_positions


def make(players: int = 4) -> BooksGame:
    game = parlour.make("whoswho-books", players=players)
    assert isinstance(game, BooksGame)
    return game


def suit(s: str, numbers: list[int]) -> list[str]:
    return [f"{n} {s}" for n in numbers]


NOT_7 = [3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15]
# Four players, dealer 3, so player 0 (seat 1) calls first. Nobody holds a book. The sevens:
# money with seat 3, society with seat 1, brains and sport with seat 2.
HANDS = [
    [*suit("money", NOT_7), "7 society"],
    [*suit("society", NOT_7[:-1]), "7 brains", "7 sport"],
    [*suit("brains", NOT_7), "7 money"],
    [*suit("sport", NOT_7), "15 society"],
]


def position(moves: list[str]) -> BooksState:
    state = make().from_position({"dealer": 3, "hands": HANDS}, seed=1)
    for m in moves:
        state.apply(m)
    return state


def sleuth_move(state: BooksState, seed: int = 0) -> tuple[str, str]:
    me = state.to_play
    assert me is not None
    bot = BooksSleuthBot(state.game, random.Random(seed))
    move, reason = bot.explain(state.view(me), state.legal_moves())
    return str(move), reason


def test_says_thank_you_for_every_card_given() -> None:
    # seed 004: 'he gives it to the caller, who must at once say, "Thank you."'
    state = position(["ask 4 for 15 society"])
    assert state.pending is not None
    assert sleuth_move(state)[0] == str(THANK)


def test_a_caller_holds_a_card_of_the_number_called() -> None:
    # RULES-NOTES: "a caller must hold a card of the number called". Seat 1 calls on seat 2 for
    # "Seven, money" and is refused: it holds a seven, and not the seven of money; seat 2 holds
    # the sevens of brains and sport itself, so seat 1's seven is the seven of society.
    state = position(["ask 2 for 7 money"])
    assert state.to_play == 1
    move, reason = sleuth_move(state)
    assert move == "ask 1 for 7 society"
    assert "100%" in reason


def test_the_likeliest_call_after_the_sure_ones() -> None:
    # With the seven of society taken, the seven of money is with seat 3 or seat 4 (the refused
    # call showed it is with neither seat 1 nor seat 2): one chance in two, against one in three
    # for a card nothing is known of. Seat 2 calls for it, from one of the two.
    state = position(["ask 2 for 7 money", "ask 1 for 7 society", "thank"])
    moves = {sleuth_move(state, seed)[0] for seed in range(8)}
    assert moves <= {"ask 3 for 7 money", "ask 4 for 7 money"}


def test_a_caller_who_gives_a_card_of_the_number_away_may_have_given_its_last() -> None:
    # The log shows seat 1 holds a seven (it called for one) until seat 1 gives a seven away.
    state = position(["ask 2 for 7 money"])
    assert must_hold(state.view(1)["log"], 4)[0] == {7}
    state.apply("ask 1 for 7 society")
    assert must_hold(state.view(1)["log"], 4)[0] == set()
    # ... and a book laid down clears its number for everyone: no card of it is in a hand
    log = [
        {"kind": "call", "player": 2, "target": 0, "card": "9 sport", "given": False},
        {"kind": "book", "player": 3, "number": 9},
    ]
    assert must_hold(log, 4)[2] == set()


def positions(game: BooksGame, seeds: range) -> Iterator[BooksState]:
    """Every position of whole games of four hint bots (played on after the caller looks)."""
    for state in played_positions(game, "hint", seeds):
        assert isinstance(state, BooksState)
        yield state


def test_the_chances_give_each_player_its_cards_and_each_card_one_holder() -> None:
    # Every card not in the caller's hand nor in a book is in one other hand; each hand holds as
    # many cards as the table sees; a card the table knows the place of is there for certain.
    game = make()
    checked = 0
    for state in positions(game, range(2)):
        if state.pending is not None:
            continue
        me = state.turn
        view = state.view(me)
        assert view["hand_counts"] is not None  # every Who\'s Who view counts hands
        hand = [parse_card(t) for t in view["hand"]]
        holders = {parse_card(t): who for t, who in view["holders"].items()}
        booked = [x for bs in view["books"] for x in bs]
        need = must_hold(view["log"], 4)
        chance = call_chances(me, hand, view["hand_counts"], booked, holders, need)
        assert len(chance) == sum(view["hand_counts"]) - len(hand)
        for c, row in chance.items():
            assert sum(row.values()) == pytest.approx(1.0)
            assert me not in row
            if len(holders.get(c, [])) == 1:
                assert row == {holders[c][0]: 1.0}
        for q in range(4):
            if q != me:
                total = sum(row.get(q, 0.0) for row in chance.values())
                assert total == pytest.approx(view["hand_counts"][q], abs=0.05)
        checked += 1
    assert checked >= 50


def test_reads_nothing_hidden() -> None:
    # Hidden information is a wall: redealing every card the caller cannot see (keeping what the
    # table knows) never changes the sleuth's call.
    game = make()
    checked = moved = 0
    for i, state in enumerate(positions(game, range(2))):
        me = state.to_play
        assert me is not None
        redealt = state.permute_hidden(me, GameRng(i))
        moved += redealt.hands != state.hands
        a = BooksSleuthBot(game, random.Random(i)).choose(state.view(me), state.legal_moves())
        b = BooksSleuthBot(game, random.Random(i)).choose(redealt.view(me), redealt.legal_moves())
        assert a == b
        checked += 1
    assert checked >= 50 and moved >= checked // 2
