"""When the pack runs out: Storey's turn-over, the Nigerian/English shuffle, and the app rule."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

import pytest

import parlour
from parlour.games.whot.cards import PACK, card_text


def start(
    hands: list[list[str]],
    pile: Sequence[str] = (),
    pack: Sequence[str] = (),
    call: str | None = None,
    to_play: int = 0,
    rules: str = "storey-1935",
    seed: int = 0,
    **opts: Any,
) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, **opts)
    pos: dict[str, Any] = {"hands": hands, "pile": list(pile), "pack": list(pack)}
    pos["to_play"] = to_play
    if call is not None:
        pos["call"] = call
    return game.new_game(seed, position=pos)


def rest_of_pack(*used: list[str]) -> list[str]:
    """Every card of one pack not in `used`, in a fixed order."""
    left = Counter(card_text(c) for c in PACK)
    for group in used:
        left.subtract(group)
    return sorted(left.elements())


# A table where the pack is empty and the pile holds everything not in the hands.
HAND0 = ["5 square", "3 cross"]
HAND1 = ["1 star", "2 star", "3 star"]
PILE = [
    "10 circle",
    "4 triangle",
    "whot",
    *rest_of_pack(HAND0, HAND1, ["10 circle", "4 triangle", "whot", "7 circle"]),
    "7 circle",
]


def empty_pack_table(rules: str, **opts: Any) -> Any:
    state = start([HAND0[:], HAND1[:]], pile=PILE, rules=rules, **opts)
    assert state.view(None)["pack_count"] == 0
    return state


def test_storey_turns_the_pile_over_without_shuffling() -> None:
    # seed 000: "If the pack should be exhausted before a game ends, the last Call card is left
    # FACE UPWARDS on the table, and the remainder of the pack turned FACE DOWNWARDS (without
    # shuffling), the game proceeding as before."
    state = empty_pack_table("storey-1935")
    state.apply("draw")
    view = state.view(None)
    assert view["pile"] == ["7 circle"]  # the call card stays
    assert view["call_card"] == "7 circle" and view["call"] == "circle"
    # Turned over, the first card played is on top: it is the card drawn.
    assert state.view(0)["hand"] == [*HAND0, "10 circle"]
    # The rest keeps its order, top first, and everyone may see it.
    assert view["pack"] == PILE[1:-1]
    assert view["pack_count"] == len(PILE) - 2
    assert not state.is_over and state.to_play == 1


def test_storey_turn_over_order_is_public_and_drawn_cards_become_known() -> None:
    state = empty_pack_table("storey-1935")
    state.apply("draw")  # P1 takes 10 circle
    for viewer in (None, 0, 1):
        view = state.view(viewer)
        assert view["pack"][:2] == ["4 triangle", "whot"]
        assert view["known"][0] == ["10 circle"]
    state.apply("draw")  # P2 takes 4 triangle from the public pack
    for viewer in (None, 0, 1):
        assert state.view(viewer)["known"][1] == ["4 triangle"]
    assert state.view(0)["pack"][0] == "whot"
    # playing a known card takes it out of the known cards
    state.apply("play 10 circle")
    assert state.view(1)["known"][0] == []


def test_storey_game_proceeds_as_before_after_turn_over() -> None:
    state = empty_pack_table("storey-1935")
    state.apply("draw")
    assert {str(m) for m in state.legal_moves()} == {"draw"}  # P2 has only stars on 7 circle


@pytest.mark.parametrize("rules", ["nigerian", "english"])
def test_shuffle_rule_sets_shuffle_cards_under_the_call_card(rules: str) -> None:
    # seed 002: "all cards underneath the call-card are removed leaving only the call-card. The
    # removed cards are shuffled (mixed). Now the shuffled pile is placed face down onto the table
    # to be used as the new market."
    orders = set()
    for seed in range(6):
        state = start([HAND0[:], HAND1[:]], pile=PILE, rules=rules, seed=seed)
        state.apply("draw")
        view = state.view(None)
        assert view["pile"] == ["7 circle"]
        assert view["pack"] is None  # hidden again
        assert view["known"] == [[], []]
        full = state.to_dict()
        assert Counter(full["pack"] + full["hands"][0][2:]) == Counter(PILE[:-1])
        orders.add(tuple(full["pack"]))
    assert len(orders) > 1  # shuffled, by the seed


def market_table(market: list[str], **opts: Any) -> Any:
    """Nigerian rules with empty_pack=end, the market holding just `market` (the pile the rest)."""
    hands = [["5 square", "3 cross"], ["1 star", "2 star", "3 star"], ["4 star", "8 star"]]
    used = [c for h in hands for c in h]
    pile = [*rest_of_pack(used, market, ["7 square"]), "7 square"]
    return start(hands, pile=pile, pack=tuple(market), rules="nigerian", empty_pack="end", **opts)


def test_empty_pack_end_ends_the_game_as_soon_as_the_market_runs_out() -> None:
    # RULES-NOTES: the common app rule "market runs out -> game ends, lowest count wins". The game
    # ends when the last card is taken, not when someone next tries to draw.
    state = market_table(["10 circle"])
    state.apply("draw")
    assert state.is_over
    assert state.view(0)["hand"] == ["5 square", "3 cross", "10 circle"]  # the last card counts
    result = state.result()
    assert result.points == (5 + 3 + 10, 2 + 4 + 6, 8 + 16)
    assert result.winners == (1,)
    assert result.reason == "the market ran out; the lowest hand wins"
    assert [e.kind for e in state.view(None)["events"]][-2:] == ["draw", "game_over"]


def test_empty_pack_end_a_market_with_cards_left_goes_on() -> None:
    state = market_table(["10 circle", "11 circle"])
    state.apply("draw")
    assert not state.is_over and state.view(None)["pack_count"] == 1


def test_empty_pack_end_a_pick_the_market_cannot_fill_ends_the_game() -> None:
    state = market_table(["10 circle"])
    state.apply("play 5 square")  # seed 002: Pick 3
    state.apply("draw")
    assert state.is_over and state.view(1)["hand"] == ["1 star", "2 star", "3 star", "10 circle"]


def test_empty_pack_end_general_market_that_empties_the_market_ends_the_game() -> None:
    # seed 002: "All other players must pick one card each from the market"; the second player
    # gets nothing: the game is already over.
    state = market_table(["10 circle"], powers=((5, "general_market"),))
    state.apply("play 5 square")
    assert state.is_over
    assert state.view(None)["hand_counts"] == [1, 4, 2]


def test_empty_pack_end_needs_a_market() -> None:
    with pytest.raises(parlour.core.SetupError, match="market is empty"):
        market_table([])
    with pytest.raises(parlour.RulesError, match="over before it began"):
        parlour.make("whot", players=3, rules="storey-1935", empty_pack="end", deal=18)


@pytest.mark.parametrize("rules", ["nigerian", "storey-1935"])
def test_empty_pack_end_no_game_goes_on_with_an_empty_market(rules: str) -> None:
    game = parlour.make("whot", players=3, rules=rules, empty_pack="end")
    for seed in range(10):
        state = game.new_game(seed)
        rnd = Random(seed)
        while not state.is_over:
            assert state.view(None)["pack_count"] > 0
            state.apply(rnd.choice(state.legal_moves()))
        assert state.result().reason == "the market ran out; the lowest hand wins" or (
            state.view(None)["events"][-1].how == "last card"
        )


def test_nothing_left_to_turn_over_ends_the_game_by_count() -> None:
    # seed 000 turns the played cards over; when only the call card is on the table there is
    # nothing to turn over, so the game ends and the hands are counted (it never hangs).
    hand0 = [c for c in PILE[:-1]] + HAND0
    state = start([hand0, HAND1[:]], pile=["7 circle"], to_play=1)
    assert state.view(None)["pack_count"] == 0
    assert {str(m) for m in state.legal_moves()} == {"draw"}
    state.apply("draw")
    assert state.is_over
    assert state.result().winners == (1,)
    assert "lowest hand wins" in state.result().reason


def test_ties_at_the_count_share_the_win() -> None:
    rest = rest_of_pack(["7 circle", "2 square", "1 triangle", "3 cross", "whot"])
    state = start([["2 square", "1 triangle"], ["3 cross"], [*rest, "whot"]], pile=["7 circle"])
    state.apply("draw")
    assert state.result().winners == (0, 1)
    assert state.result().ranks[:2] == (1, 1)


@pytest.mark.parametrize("rules", ["storey-1935", "nigerian", "english", "knockout"])
def test_random_games_never_hang(rules: str) -> None:
    # Whatever the empty-pack rule, a game where nobody ever plays still ends.
    game = parlour.make("whot", players=4, rules=rules)
    state = game.new_game(5)
    for _ in range(500):
        if state.is_over:
            break
        moves = state.legal_moves()
        state.apply(next((m for m in moves if str(m) in ("draw", "pass", "end")), moves[0]))
    assert state.is_over
