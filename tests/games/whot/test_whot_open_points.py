"""The points the sheets leave open, each an option with today's behaviour as its default
(RULES-NOTES: "A point the sheets leave open is an option, never a silent choice"): straights
across the missing 6s and 9s, the powers in a turn of several cards, and a market with nothing
left to draw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import parlour
from parlour.games.whot.cards import PACK, card_text


def start(
    hands: list[list[str]],
    pile: Sequence[str] = ("7 triangle",),
    pack: Sequence[str] = (),
    rules: str = "english",
    to_play: int = 0,
    **opts: Any,
) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, **opts)
    pos = {"hands": hands, "pile": list(pile), "pack": list(pack), "to_play": to_play}
    return game.from_position(pos, seed=0)


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


# --- straights across the missing 6s and 9s ------------------------------------------------------


def test_straights_stop_at_the_missing_numbers_by_default() -> None:
    # seed 002 (English): "If you have cards in ascending or descending order you can play them in
    # a row"; seed 000: "There are no 6's or 9's of ANY symbol." — by default 5 then 7 is no run.
    state = start(
        [["4 triangle", "5 triangle", "7 triangle", "1 star"], ["4 star"]], pile=("3 triangle",)
    )
    state.apply("play 4 triangle")
    state.apply("play 5 triangle")
    assert state.to_play == 1  # nothing of the pack follows a 5 upwards: the turn ended
    assert not parlour.make("whot", rules="english").rules.straight_gaps


def test_straight_gaps_step_over_6_and_9() -> None:
    state = start(
        [
            ["4 triangle", "5 triangle", "7 triangle", "8 triangle", "10 triangle", "1 star"],
            ["4 star"],
        ],
        pile=("3 triangle",),
        straight_gaps=True,
    )
    for text in ("play 4 triangle", "play 5 triangle", "play 7 triangle", "play 8 triangle"):
        state.apply(text)
        assert state.to_play == 0
    assert legal(state) == {"play 10 triangle", "end"}
    state.apply("play 10 triangle")
    state.apply("end")
    assert state.view(0)["hand"] == ["1 star"]


def test_straight_gaps_going_down() -> None:
    state = start(
        [["10 triangle", "8 triangle", "7 triangle", "5 triangle", "1 star"], ["4 star"]],
        pile=("10 circle",),
        straight_gaps=True,
    )
    state.apply("play 10 triangle")
    assert legal(state) == {"play 8 triangle", "end"}
    for text in ("play 8 triangle", "play 7 triangle", "play 5 triangle", "end"):
        state.apply(text)
    assert state.view(0)["hand"] == ["1 star"]


def test_straight_gaps_skip_only_numbers_no_card_has() -> None:
    # Crosses have no 4, but circles and triangles do: 3 cross then 5 cross is no step.
    state = start(
        [["3 cross", "5 cross", "1 star"], ["4 star"]],
        pile=("3 circle",),
        straight_gaps=True,
    )
    state.apply("play 3 cross")
    assert legal(state) == {"end"}


# --- the powers of a turn of several cards -------------------------------------------------------

MARKET = ("10 circle", "11 circle", "12 circle", "13 circle", "10 triangle", "11 triangle")


def decked(hands: list[list[str]], by: str = "number", **opts: Any) -> Any:
    """Nigerian rules with double decking (seed 002: "playing different cards of the same number
    after each other")."""
    return start(
        hands, pile=("3 triangle",), pack=MARKET, rules="nigerian", double_decking=by, **opts
    )


def events(state: Any, kind: str) -> list[Any]:
    return [e for e in state.view(None)["events"] if e.kind == kind]


OTHERS = [["1 star", "2 star"], ["3 star", "5 star"], ["4 star", "7 star"]]


def test_by_default_only_the_last_card_has_its_power() -> None:
    # RULES-NOTES: whether every card of a several-card turn has its power is open; by default
    # only the last card's acts — two 8s skip one player.
    state = decked([["8 triangle", "8 circle", "10 square"], *OTHERS])
    for text in ("play 8 triangle", "play 8 circle", "end"):
        state.apply(text)
    assert state.to_play == 2
    assert [e.player for e in events(state, "suspend")] == [1]


def test_each_card_has_its_power_two_suspensions_skip_two() -> None:
    state = decked([["8 triangle", "8 circle", "10 square"], *OTHERS], turn_powers="each")
    for text in ("play 8 triangle", "play 8 circle", "end"):
        state.apply(text)
    assert state.to_play == 3
    assert [e.player for e in events(state, "suspend")] == [1, 2]


def test_each_suspensions_that_skip_everyone_give_another_turn() -> None:
    # seed 002: 'The "8-card" is similar to the "1-card" if there are only two players (left).'
    state = decked([["8 triangle", "8 circle", "10 square"], *OTHERS[:2]], turn_powers="each")
    for text in ("play 8 triangle", "play 8 circle", "end"):
        state.apply(text)
    assert state.to_play == 0
    assert [e.player for e in events(state, "suspend")] == [1, 2]


def test_each_general_market_gives_a_card_for_every_14() -> None:
    # seed 002: '"14-card" (General market): All other players must pick one card each'
    state = decked([["14 triangle", "14 circle", "10 square"], *OTHERS[:2]], turn_powers="each")
    for text in ("play 14 triangle", "play 14 circle", "end"):
        state.apply(text)
    assert state.view(None)["hand_counts"] == [1, 4, 4]
    assert len(events(state, "general_market")) == 2
    assert state.to_play == 0  # "and the player that played the 14-card can play again"
    last = decked([["14 triangle", "14 circle", "10 square"], *OTHERS[:2]])
    for text in ("play 14 triangle", "play 14 circle", "end"):
        last.apply(text)
    assert last.view(None)["hand_counts"] == [1, 3, 3]


def test_each_a_suspension_then_a_pick() -> None:
    # Double decking by symbol: the 8 skips the next player, the 2 makes the one after pick two.
    state = decked(
        [["8 triangle", "2 triangle", "10 square"], *OTHERS], by="symbol", turn_powers="each"
    )
    for text in ("play 8 triangle", "play 2 triangle", "end"):
        state.apply(text)
    assert state.to_play == 2 and state.view(None)["pending_pick"] == 2
    last = decked([["8 triangle", "2 triangle", "10 square"], *OTHERS], by="symbol")
    for text in ("play 8 triangle", "play 2 triangle", "end"):
        last.apply(text)
    assert last.to_play == 1 and last.view(None)["pending_pick"] == 2  # the 2's power only


def test_each_a_pick_then_hold_on() -> None:
    # seed 002: Hold on — "All other players are skipped and the player that played the 1-card can
    # play again": the next player has no turn to answer the pick in, so picks it at once.
    state = decked(
        [["2 triangle", "1 triangle", "10 square"], *OTHERS], by="symbol", turn_powers="each"
    )
    for text in ("play 2 triangle", "play 1 triangle", "end"):
        state.apply(text)
    assert state.to_play == 0
    assert state.view(None)["hand_counts"] == [1, 4, 2, 2]
    assert [(e.player, e.cards) for e in events(state, "draw")] == [(1, 2)]
    assert state.view(None)["pending_pick"] == 0


def test_each_picks_add_up() -> None:
    # seed 002: "that player must pick two cards for every 2-cards that was played"
    state = decked([["2 triangle", "2 circle", "10 square"], *OTHERS], turn_powers="each")
    for text in ("play 2 triangle", "play 2 circle", "end"):
        state.apply(text)
    assert state.to_play == 1 and state.view(None)["pending_pick"] == 4


def test_each_with_straights() -> None:
    # A straight 1 2 3 of triangles under the first variant table (1 Hold On, 2 Pick Two, 3
    # Suspension): the 2 and the 3 act, the last card (3) passes the turn.
    state = start(
        [["1 triangle", "2 triangle", "3 triangle", "10 square"], *OTHERS],
        pile=("7 triangle",),
        pack=MARKET,
        rules="variant-suspension-3",
        straights="same-symbol",
        turn_powers="each",
    )
    for text in ("play 1 triangle", "play 2 triangle", "play 3 triangle", "end"):
        state.apply(text)
    assert state.to_play == 2 and state.view(None)["pending_pick"] == 2


@pytest.mark.parametrize(("powers", "still_open"), [("last", False), ("each", True)])
def test_change_of_direction_in_a_turn_of_several_cards(powers: str, still_open: bool) -> None:
    # seed 002: "it is said out loud: Pick two and change direction". Where only the last card has
    # its power, saying it ends the turn; where each card has its own, the turn goes on.
    state = decked(
        [["2 triangle", "2 circle", "10 square"], *OTHERS],
        turn_powers=powers,
        pick_reverses=True,
    )
    state.apply("play 2 triangle reverse")
    assert state.view(None)["direction"] == -1
    assert (state.to_play == 0) is still_open
    if still_open:
        state.apply("play 2 circle")
        state.apply("end")
        assert state.view(None)["pending_pick"] == 4
    assert state.to_play == 3  # the other way round


# --- nothing at all to draw ----------------------------------------------------------------------


def full_pack() -> list[str]:
    return sorted(Counter(card_text(c) for c in PACK).elements())


def dry_table(players: int = 3, **opts: Any) -> Any:
    """Storey's rules, the market empty and only the call card (7 circle) on the table: nothing can
    be drawn or turned over. Only player 0's 7 square follows the call."""
    hands = [["7 square", "3 cross"], ["1 star", "2 star"], ["3 star", "4 star"]][:players]
    used = [c for h in hands for c in h]
    hands[-1] += [c for c in full_pack() if c not in used and c != "7 circle"]
    game = parlour.make("whot", players=players, rules="storey-1935", **opts)
    return game.from_position({"hands": hands, "pile": ["7 circle"], "to_play": 1}, seed=0)


def test_nothing_to_draw_ends_the_game_by_default() -> None:
    # RULES-NOTES, open point: "what happens when the market is empty and nothing can be turned
    # over (every card is in a hand)" — by default the game ends and hands are counted.
    state = dry_table()
    assert state.view(None)["pack_count"] == 0
    state.apply("draw")
    assert state.is_over
    assert state.result().reason == "no card was left to draw; the lowest hand wins"
    assert state.result().winners == (1,)


def test_nothing_to_draw_pass_goes_on() -> None:
    state = dry_table(nothing_to_draw="pass")
    state.apply("draw")
    assert not state.is_over and state.to_play == 2
    assert state.view(None)["hand_counts"][1] == 2
    last = state.view(None)["events"][-1]
    assert (last.kind, last.player, last.cards) == ("nothing_to_draw", 1, 1)
    info = parlour.core.registry.games()["whot"]
    assert info.describe_event(last, ["Ada", "Bob", "Cy"]) == (
        "Nothing is left to draw: Bob goes without 1 card"
    )
    assert state.view(None)["empty_draws"] == 1


def test_nothing_to_draw_pass_a_play_makes_cards_to_draw_again() -> None:
    state = dry_table(nothing_to_draw="pass")
    state.apply("draw")  # P2: nothing
    state.apply("draw")  # P3: nothing
    state.apply("play 7 square")  # P1 plays: the 7 circle goes under the call card
    state.apply("draw")  # P2 draws it: the pile was turned over
    assert state.view(1)["hand"] == ["1 star", "2 star", "7 circle"]
    assert state.view(None)["empty_draws"] == 0


def test_nothing_to_draw_pass_a_table_where_everyone_finds_nothing_is_blocked() -> None:
    # No game hangs: once every player in a row has gone to market and found nothing, the game
    # is blocked and the hands are counted.
    state = dry_table(nothing_to_draw="pass")
    for _ in range(2):
        state.apply("draw")
    assert not state.is_over
    state.apply("draw")  # P1 too (it could have played its 7 square: a draw is its choice)
    assert state.is_over
    assert state.result().reason == (
        "every player went to market and found nothing; the lowest hand wins"
    )
    assert state.result().winners == (1,)


def test_nothing_to_draw_pass_a_pick_gives_what_is_left() -> None:
    game = parlour.make("whot", players=2, rules="nigerian", nothing_to_draw="pass")
    mine = ["2 circle", "3 circle"]
    theirs = [c for c in full_pack() if c not in (*mine, "7 circle")]
    state = game.from_position({"hands": [mine, theirs], "pile": ["7 circle"], "to_play": 0}, 0)
    state.apply("play 2 circle")
    state.apply("draw")  # a pick of 2: the 7 circle, turned over, is all there is
    kinds = [(e.kind, getattr(e, "cards", None)) for e in state.view(None)["events"][-3:]]
    assert kinds == [("draw", 2), ("refill", None), ("nothing_to_draw", 1)]
    assert not state.is_over and state.view(None)["empty_draws"] == 0
    assert state.to_play == 0
