"""Who's Who, Game No. 1: the `lookahead` bot — the hint rules, with each card tried out in likely
deals of the unseen cards. Each test quotes the rule it reads (seed 004)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import parlour
from parlour.bots import make_bot
from parlour.core import RulesError
from parlour.core.rng import GameRng
from parlour.games.whoswho.hint import TricksHintBot
from parlour.games.whoswho.lookahead import TricksLookaheadBot
from parlour.games.whoswho.tricks import TricksGame, TricksState
from parlour.testing.positions import played_positions


def make(players: int = 4, **options: object) -> TricksGame:
    game = parlour.make("whoswho-tricks", players=players, **options)
    assert isinstance(game, TricksGame)
    return game


def two_card_deal(hands: list[list[str]], moves: list[str], preference: str | None) -> TricksState:
    """Four players with two cards each (dealer 4: seat 1 names and leads), played on."""
    spec = {"dealer": 3, "preference": preference, "hands": hands}
    state = make(4, hand_size=2).from_position(spec, seed=1)
    for m in moves:
        state.apply(m)
    return state


def lookahead(state: TricksState, deals: int = 100) -> tuple[str, str]:
    me = state.to_play
    assert me is not None
    bot = TricksLookaheadBot(state.game, random.Random(0), deals=str(deals))
    move, reason = bot.explain(state.view(me), state.legal_moves())
    return str(move), reason


def test_names_the_suit_held_longest_and_strongest() -> None:
    # seed 004: "The player naturally chooses the suit that is most strongly represented in his
    # hand." Seat 1 holds two sport cards and one of each other suit.
    hands = [
        ["3 money", "12 brains", "5 sport", "9 sport", "4 society"],
        ["10 money", "15 money", "6 society", "13 brains", "6 sport"],
        ["4 money", "3 society", "14 brains", "7 sport", "8 sport"],
        ["5 money", "6 money", "7 brains", "11 sport", "15 sport"],
    ]
    state = make(4).from_position({"dealer": 3, "hands": hands, "phase": "prefer"}, seed=1)
    assert lookahead(state)[0] == "prefer sport"


def test_plays_its_only_card() -> None:
    # seed 004: "All players after the first must play cards of the same suit as the card first
    # played, if they have any": holding one money card, seat 2 plays it to a money lead.
    hands = [["4 money", "9 brains"], ["5 money", "14 brains"], ["3 society", "8 brains"]]
    hands.append(["6 society", "10 brains"])
    state = two_card_deal(hands, ["4 money"], "sport")
    assert lookahead(state) == ("play 5 money", "the only move")


def test_takes_the_trick_it_is_sure_of() -> None:
    # Last to play, seat 4 can win the trick with the top money card or lose it with the three;
    # keeping the fifteen for the last trick wins that one only if money is led again.
    hands = [["10 money", "9 brains"], ["4 money", "14 brains"], ["5 money", "8 brains"]]
    hands.append(["15 money", "3 money"])
    state = two_card_deal(hands, ["10 money", "4 money", "5 money"], "sport")
    assert lookahead(state)[0] == "play 15 money"


def test_plays_high_where_a_cheap_winner_would_likely_be_beaten() -> None:
    # Second to a money lead, the hint takes the lead cheaply with the five. Two players are still
    # to play: either may hold a higher money card or, out of money, a sport (the Preference
    # suit) — seed 004: "even the lowest card of that suit will win against the highest of any
    # other". The fourteen holds up far more often, and the lookahead plays it.
    hands = [["4 money", "9 brains"], ["5 money", "14 money"], ["3 society", "8 brains"]]
    hands.append(["6 society", "10 brains"])
    state = two_card_deal(hands, ["4 money"], "sport")
    hint = TricksHintBot(state.game, random.Random(0))
    assert str(hint.choose(state.view(1), state.legal_moves())) == "play 5 money"
    assert lookahead(state, deals=200)[0] == "play 14 money"


def test_deals_must_be_a_count() -> None:
    with pytest.raises(RulesError):
        make_bot("lookahead:deals=many", make(4), seed=0)


def positions(game: TricksGame, seeds: range) -> Iterator[TricksState]:
    """Every position of whole games of four hint bots (played on after the caller looks)."""
    for state in played_positions(game, "hint", seeds):
        assert isinstance(state, TricksState)
        yield state


def test_plays_the_card_that_won_most_and_the_hints_on_a_tie() -> None:
    # The rule itself: over the same likely deals, the card played won the most tricks; where the
    # hint's card won as many, it is the hint's card.
    game = make(4)
    differed = checked = 0
    for i, state in enumerate(positions(game, range(1))):
        me = state.to_play
        assert me is not None
        legal = state.legal_moves()
        if len(legal) < 2 or state.phase != "play":
            continue
        view = state.view(me)
        move = TricksLookaheadBot(game, random.Random(i), deals="8").choose(view, legal)
        won = TricksLookaheadBot(game, random.Random(i), deals="8").tricks_won(view, legal)
        hinted = TricksHintBot(game, random.Random(i)).choose(view, legal)
        assert won[move] == max(won.values())
        assert move == hinted or won[move] > won[hinted]
        differed += move != hinted
        checked += 1
    assert checked >= 30 and differed >= 1


def test_reads_nothing_hidden() -> None:
    # Hidden information is a wall: redealing every card the player cannot see (the other hands
    # and the cards laid aside, keeping every void shown) never changes its card.
    game = make(4)
    checked = 0
    for i, state in enumerate(positions(game, range(1))):
        me = state.to_play
        assert me is not None
        redealt = state.permute_hidden(me, GameRng(i))
        assert redealt.hands != state.hands or not any(state.hands[q] for q in range(4) if q != me)
        a = TricksLookaheadBot(game, random.Random(i), deals="4")
        b = TricksLookaheadBot(game, random.Random(i), deals="4")
        assert a.choose(state.view(me), state.legal_moves()) == b.choose(
            redealt.view(me), redealt.legal_moves()
        )
        checked += 1
    assert checked >= 100
