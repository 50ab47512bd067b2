"""When the pack runs out: Storey's turn-over, the Nigerian/English shuffle, and the app rule."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import parlour
from parlour.games.whot.cards import PACK, card_text


def start(
    hands: list[list[str]],
    pile: tuple[str, ...] = (),
    pack: tuple[str, ...] = (),
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


def test_empty_pack_end_counts_hands() -> None:
    # RULES-NOTES: the common app rule "market runs out -> game ends, lowest count wins"
    state = empty_pack_table("nigerian", empty_pack="end")
    state.apply("draw")
    assert state.is_over
    result = state.result()
    assert result.points == (5 + 3, 2 + 4 + 6)
    assert result.winners == (0,)
    assert "ran out" in result.reason


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
    state = start(
        [["2 square", "1 triangle"], ["3 cross"], [*rest, "whot"]],
        pile=["7 circle"],
        empty_pack="end",
    )
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
