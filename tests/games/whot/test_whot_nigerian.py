"""Nigerian special cards (seed 002), their options and the two variant tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import parlour


def start(
    hands: list[list[str]],
    pile: Sequence[str] = ("7 triangle",),
    pack: Sequence[str] = (),
    call: str | None = None,
    to_play: int = 0,
    rules: str = "nigerian",
    **opts: Any,
) -> Any:
    game = parlour.make("whot", players=len(hands), rules=rules, **opts)
    pos: dict[str, Any] = {"hands": hands, "pile": list(pile), "pack": list(pack)}
    pos["to_play"] = to_play
    if call is not None:
        pos["call"] = call
    return game.from_position(pos, seed=0)


def legal(state: Any) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def counts(state: Any) -> list[int]:
    return list(state.view(None)["hand_counts"])


# --- Hold on -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hold_on_the_same_player_plays_again(players: int) -> None:
    # seed 002: '"1-card" (Hold on – skips all other players): All other players are skipped and
    # the player that played the "1-card" can play again with the same shape or number of the
    # "1-card"'
    others = [["2 star"], ["3 star"], ["4 star"]][: players - 1]
    hands = [["1 triangle", "3 triangle", "1 star", "5 circle"], *others]
    state = start(hands)
    state.apply("play 1 triangle")
    assert state.to_play == 0
    assert counts(state)[1:] == [1] * (players - 1)  # nobody else picked
    assert legal(state) >= {"play 3 triangle", "play 1 star"}
    assert "play 5 circle" not in legal(state)


def test_hold_on_player_who_cannot_follow_again_must_draw() -> None:
    state = start([["1 triangle", "5 circle"], ["2 star"]], pack=["10 circle"])
    state.apply("play 1 triangle")
    assert legal(state) == {"draw"}
    state.apply("draw")
    assert state.to_play == 1


# --- Pick two / Pick three ---------------------------------------------------------------------


def test_pick_two_next_player_picks_two_and_loses_the_turn() -> None:
    # seed 002: '"2-card" (Pick 2) ... The next player must pick two cards from the top of the
    # market (draw-pile) unless the player plays a "2-card" as well.'
    state = start(
        [["2 triangle", "3 circle"], ["4 triangle", "whot"], ["5 star"]],
        pack=["10 circle", "11 circle", "12 circle"],
    )
    state.apply("play 2 triangle")
    assert state.to_play == 1
    assert legal(state) == {"draw"}  # a triangle or a WHOT does not answer it
    assert state.view(1)["pending_pick"] == 2
    state.apply("draw")
    assert state.view(1)["hand"] == ["4 triangle", "whot", "10 circle", "11 circle"]
    assert state.to_play == 2  # the picker loses the turn
    assert state.view(None)["pending_pick"] == 0


def test_pick_two_answered_with_a_two_stacks_to_four() -> None:
    # seed 002: 'If the "2-card" is defended, the third player has to pick four cards from the
    # market unless the third player plays a "2-card" as well.'
    state = start(
        [["2 triangle", "3 circle"], ["2 cross", "whot"], ["5 star", "1 star"]],
        pack=["10 circle", "11 circle", "12 circle", "13 circle", "14 circle"],
    )
    state.apply("play 2 triangle")
    assert legal(state) == {"play 2 cross", "draw"}
    state.apply("play 2 cross")
    assert state.to_play == 2 and state.view(2)["pending_pick"] == 4
    state.apply("draw")
    assert counts(state) == [1, 1, 6]
    assert state.to_play == 0


def test_four_twos_in_a_row_cost_eight() -> None:
    # seed 002: "if four 2-cards were played in a row then the player that can't or doesn't want to
    # play a 2-card has to pick eight more cards"
    pack = tuple(f"{n} circle" for n in (3, 4, 5, 7, 8, 10, 11, 12, 13, 14))
    state = start(
        [
            ["2 triangle", "5 star"],
            ["2 cross", "7 star"],
            ["2 circle", "8 star"],
            ["2 square", "1 star"],
            ["4 star", "3 star"],
        ],
        pile=["7 triangle"],
        pack=pack,
    )
    for text in ("play 2 triangle", "play 2 cross", "play 2 circle", "play 2 square"):
        state.apply(text)
    assert state.view(4)["pending_pick"] == 8
    state.apply("draw")
    assert counts(state)[4] == 10


def test_a_five_does_not_answer_a_two() -> None:
    # seed 002: "Pick 2 – Defended with a 2-card"; "Pick 3 – Defended with a 5-card"
    state = start(
        [["2 triangle", "3 circle"], ["5 triangle", "2 star"]], pack=["10 circle", "11 circle"]
    )
    state.apply("play 2 triangle")
    assert legal(state) == {"play 2 star", "draw"}


def test_pick_three() -> None:
    # seed 002: '"5-card" (Pick 3) – Defended with a "5-card" ... The next player must pick three
    # cards from the top of the market unless the player plays a "5-card" as well.'
    state = start(
        [["5 triangle", "3 circle"], ["2 triangle", "5 star"], ["1 star", "4 star"]],
        pack=[
            "10 circle",
            "11 circle",
            "12 circle",
            "13 circle",
            "14 circle",
            "4 circle",
            "2 circle",
        ],
    )
    state.apply("play 5 triangle")
    assert legal(state) == {"play 5 star", "draw"}  # a 2 does not answer a 5
    state.apply("play 5 star")
    assert state.view(2)["pending_pick"] == 6  # "three cards ... for every 5-card ... in a row"
    state.apply("draw")
    assert counts(state) == [1, 1, 8]


def test_pick_stacking_off() -> None:
    state = start(
        [["2 triangle", "3 circle"], ["2 cross", "whot"]],
        pack=["10 circle", "11 circle"],
        pick_stacking=False,
    )
    state.apply("play 2 triangle")
    assert legal(state) == {"draw"}


def test_whot_answers_pick_option() -> None:
    # RULES-NOTES open point: "whether a WHOT may answer a pending pick" (an option, off by
    # default).
    state = start(
        [["2 triangle", "3 circle"], ["whot", "4 star"]],
        pack=["10 circle", "11 circle"],
        whot_answers_pick=True,
    )
    state.apply("play 2 triangle")
    assert "play whot call star" in legal(state)
    state.apply("play whot call star")
    view = state.view(None)
    assert view["pending_pick"] == 0 and view["call"] == "star"
    assert state.to_play == 0 and counts(state) == [1, 1]
    assert legal(state) == {"draw"}  # P1 holds no star and no WHOT


def test_pick_reverses_option() -> None:
    # seed 002: "Before the game starts the players can agree to allow the option of changing the
    # playing direction e.g. from clockwise to anticlockwise when a 2- or 5-card is played. This
    # opens the possibility to attack the player on your other side if that player is close to
    # winning. In this case it is said out loud: "Pick two and change direction" or "Pick three and
    # change direction"."
    hands = [["2 triangle", "5 triangle", "3 circle"], ["4 star"], ["5 star"], ["1 star"]]
    state = start(hands, pack=["10 circle", "11 circle", "12 circle"], pick_reverses=True)
    assert legal(state) >= {
        "play 2 triangle",
        "play 2 triangle reverse",
        "play 5 triangle",
        "play 5 triangle reverse",
    }
    assert "play 3 circle reverse" not in legal(state)  # only a pick card changes direction
    state.apply("play 2 triangle reverse")
    assert state.to_play == 3  # the player on the other side picks
    assert state.view(None)["direction"] == -1
    assert [e.kind for e in state.view(None)["events"]][-2:] == ["play", "reverse"]
    state.apply("draw")
    assert state.to_play == 2


def test_pick_said_without_change_of_direction_does_not_reverse() -> None:
    # seed 002: "2-card: say: "Pick two", (Optional: "Pick two and change direction")" — the
    # player chooses what to say each time; a plain pick keeps the direction.
    hands = [["2 triangle", "3 circle"], ["4 star"], ["5 star"], ["1 star"]]
    state = start(hands, pack=["10 circle", "11 circle"], pick_reverses=True)
    state.apply("play 2 triangle")
    assert state.to_play == 1 and state.view(None)["direction"] == 1
    assert not any(e.kind == "reverse" for e in state.view(None)["events"])
    plain = start(hands, pack=["10 circle", "11 circle"])
    assert legal(plain) == {"play 2 triangle", "draw"}


def test_an_answering_pick_may_change_direction_too() -> None:
    hands = [["2 triangle", "3 circle"], ["2 star", "4 star"], ["5 star"]]
    state = start(
        hands, pack=["10 circle", "11 circle", "12 circle", "13 circle"], pick_reverses=True
    )
    state.apply("play 2 triangle")
    assert legal(state) == {"play 2 star", "play 2 star reverse", "draw"}
    state.apply("play 2 star reverse")
    assert state.to_play == 0 and state.view(0)["pending_pick"] == 4  # back to the first player


def test_change_of_direction_is_refused_where_not_agreed() -> None:
    state = start([["2 triangle", "3 triangle"], ["4 star"]])
    with pytest.raises(parlour.IllegalMove) as refused:
        state.apply("play 2 triangle reverse")
    assert "did not agree to a change of direction" in str(refused.value)
    state = start([["2 triangle", "3 triangle"], ["4 star"]], pick_reverses=True)
    with pytest.raises(parlour.IllegalMove) as refused:
        state.apply("play 3 triangle reverse")
    assert "only a pick card changes the direction" in str(refused.value)


def test_change_of_direction_in_words_and_fields() -> None:
    hands = [["2 triangle", "3 circle"], ["4 star"], ["5 star"]]
    state = start(hands, pack=["10 circle", "11 circle"], pick_reverses=True)
    move = next(m for m in state.legal_moves() if str(m) == "play 2 triangle reverse")
    assert move.fields() == {
        "kind": "play",
        "card": "2 triangle",
        "call": None,
        "power": "reverse",
        "say": None,
    }
    assert state.game.parse_move("play 2 triangle and change direction") is move
    state.apply(move)
    info = parlour.core.registry.games()["whot"]
    words = [info.describe_event(e, ["Ada", "Bob", "Cy"]) for e in state.view(None)["events"][-2:]]
    assert words == [
        "Ada plays 2 triangle and changes the direction",
        "Play now passes the other way",
    ]


# --- Suspension --------------------------------------------------------------------------------


def test_suspension_skips_the_next_player() -> None:
    # seed 002: '"8-card" (Skips the next player)'; '8-card: say: "Skip", "Suspend" or "Suspension"'
    state = start([["8 triangle", "3 circle"], ["4 star"], ["5 star"]])
    state.apply("play 8 triangle")
    assert state.to_play == 2
    assert counts(state) == [1, 1, 1]


def test_suspension_with_two_players_plays_again() -> None:
    # seed 002: 'The "8-card" is similar to the "1-card" if there are only two players (left).'
    state = start([["8 triangle", "3 circle", "8 star"], ["4 star"]])
    state.apply("play 8 triangle")
    assert state.to_play == 0
    assert "play 8 star" in legal(state)


# --- General market ----------------------------------------------------------------------------


def test_general_market_every_other_player_picks_one_and_player_plays_again() -> None:
    # seed 002: '"14-card" (General market): All other players must pick one card each from the
    # market (draw-pile) and the player that played the "14-card" can play again.'
    state = start(
        [["14 triangle", "3 triangle"], ["4 star"], ["5 star"], ["1 star"]],
        pack=["10 circle", "11 circle", "12 circle", "13 circle"],
    )
    state.apply("play 14 triangle")
    assert counts(state) == [1, 2, 2, 2]
    assert state.view(1)["hand"] == ["4 star", "10 circle"]  # picked in turn from the left
    assert state.view(3)["hand"] == ["1 star", "12 circle"]
    assert state.to_play == 0


def test_general_market_player_who_cannot_follow_up_draws_too() -> None:
    # seed 002, example two: 'the "14-cross"-player can not follow up by either playing another
    # 14-card or a cross-card and therefore has to pick a card from the market as well.'
    state = start(
        [["14 cross", "3 circle"], ["4 star"], ["5 star"]],
        pile=("3 cross",),
        pack=["10 circle", "11 circle", "12 circle"],
    )
    state.apply("play 14 cross")
    assert legal(state) == {"draw"}
    state.apply("draw")
    assert counts(state) == [2, 2, 2] and state.to_play == 1


# --- Finishing ---------------------------------------------------------------------------------


def test_may_finish_on_a_special_card_by_default() -> None:
    state = start([["2 triangle"], ["4 star"]])
    state.apply("play 2 triangle")
    assert state.is_over and state.result().winners == (0,)


def test_may_finish_on_special_off() -> None:
    # RULES-NOTES open point: "whether a player may finish on a special card"
    state = start([["2 triangle"], ["4 star"]], may_finish_on_special=False)
    assert legal(state) == {"draw"}
    state = start([["whot"], ["4 star"]], may_finish_on_special=False)
    assert "play whot call star" in legal(state)  # a WHOT is not a power card
    state = start([["1 triangle", "3 triangle"], ["4 star"]], may_finish_on_special=False)
    state.apply("play 1 triangle")
    assert legal(state) == {"play 3 triangle", "draw"}


# --- the opening card --------------------------------------------------------------------------


def _find_turn_up(game: Any, numbers: tuple[int, ...]) -> Any:
    for seed in range(400):
        state = game.new_game(seed)
        up = next(e.card for e in state.view(None)["events"] if e.kind == "turn_up")
        if up != "whot" and int(up.split()[0]) in numbers:
            return state, up
    raise AssertionError("no such turn-up")


def test_opening_special_inert() -> None:
    # RULES-NOTES open point: "what a special card turned up as the first call card does"
    game = parlour.make("whot", players=3, rules="nigerian")
    state, _ = _find_turn_up(game, (2,))
    assert state.to_play == 0 and state.view(None)["pending_pick"] == 0
    assert state.view(None)["hand_counts"] == [5, 5, 5]


def test_opening_special_applies_as_if_the_dealer_played_it() -> None:
    game = parlour.make("whot", players=3, rules="nigerian", opening_special="applies")
    state, _ = _find_turn_up(game, (2,))
    assert state.to_play == 0 and state.view(None)["pending_pick"] == 2
    state, _ = _find_turn_up(game, (8,))
    assert state.to_play == 1  # the leader is suspended
    state, _ = _find_turn_up(game, (14,))
    assert state.view(None)["hand_counts"] == [6, 6, 5] and state.to_play == 2  # the dealer again


def test_opening_special_applies_never_charges_the_dealer_a_declaration() -> None:
    # The dealer turned the card up but said nothing: no "last card" penalty can follow from it.
    game = parlour.make(
        "whot",
        players=2,
        rules="nigerian",
        deal=1,
        opening_special="applies",
        declarations=("last card", "semi-last card"),
    )
    state, _ = _find_turn_up(game, (1, 8, 14))
    assert not any(e.kind == "penalty" for e in state.view(None)["events"])


def test_opening_special_bury() -> None:
    game = parlour.make("whot", players=3, rules="nigerian", opening_special="bury")
    for seed in range(60):
        state = game.new_game(seed)
        top = state.view(None)["call_card"]
        assert top != "whot" and int(top.split()[0]) not in (1, 2, 5, 8, 14)
        assert state.view(None)["pack_count"] == 54 - 15 - 1


def test_turned_up_whot_lets_the_leader_play_any_card() -> None:
    game = parlour.make("whot", players=2, rules="nigerian")
    for seed in range(400):
        state = game.new_game(seed)
        if state.view(None)["call_card"] == "whot":
            break
    else:
        raise AssertionError("no WHOT turned up")
    hand = set(state.view(0)["hand"])
    plays = {str(m)[5:] for m in state.legal_moves() if str(m).startswith("play ")}
    assert {p if not p.startswith("whot") else "whot" for p in plays} == hand


# --- the variant tables ------------------------------------------------------------------------


def test_variant_suspension_3() -> None:
    # seed 002: "In one variant these special features include: 1 Hold On ... 2 Pick Two ... 3
    # Suspension ... 14 General Market"
    rules = parlour.make("whot", players=2, rules="variant-suspension-3").rules
    assert dict(rules.powers) == {
        1: "hold_on",
        2: "pick_two",
        3: "suspension",
        14: "general_market",
    }
    state = start(
        [["3 triangle", "4 circle"], ["4 star"], ["5 star"]], rules="variant-suspension-3"
    )
    state.apply("play 3 triangle")
    assert state.to_play == 2
    state = start(
        [["8 triangle", "4 circle"], ["4 star"], ["5 star"]], rules="variant-suspension-3"
    )
    state.apply("play 8 triangle")
    assert state.to_play == 1  # an 8 is plain here
    state = start(
        [["5 triangle", "4 circle"], ["4 star"], ["5 star"]], rules="variant-suspension-3"
    )
    state.apply("play 5 triangle")
    assert state.view(None)["pending_pick"] == 0  # and so is a 5


def test_variant_pick_7() -> None:
    # seed 002: "In another variant these special features include: 1 Hold On ... 4 General Market
    # ... 7 Pick Two ... 8 Suspension"
    rules = parlour.make("whot", players=2, rules="variant-pick-7").rules
    assert dict(rules.powers) == {1: "hold_on", 4: "general_market", 7: "pick_two", 8: "suspension"}
    state = start(
        [["7 circle", "4 circle"], ["7 star", "4 star"], ["5 star"]],
        pile=("7 triangle",),
        pack=["10 circle", "11 circle", "12 circle", "13 circle"],
        rules="variant-pick-7",
    )
    state.apply("play 7 circle")
    assert state.view(1)["pending_pick"] == 2
    state = start(
        [["4 triangle", "4 circle"], ["4 star"], ["5 star"]],
        pack=["10 circle", "11 circle"],
        rules="variant-pick-7",
    )
    state.apply("play 4 triangle")
    assert counts(state) == [1, 2, 2] and state.to_play == 0
    state = start([["2 triangle", "4 circle"], ["4 star"]], rules="variant-pick-7")
    state.apply("play 2 triangle")
    assert state.view(None)["pending_pick"] == 0  # a 2 is plain here


@pytest.mark.parametrize(("rules", "pick"), [("variant-suspension-3", 2), ("variant-pick-7", 7)])
def test_variant_tables_pick_two_is_not_answered(rules: str, pick: int) -> None:
    # seed 002, both variant tables: "Pick Two | The next player draws two cards from the deck and
    # loses their turn" — no answering with another pick card, as the Nigerian rules allow.
    state = start(
        [[f"{pick} circle", "4 circle"], [f"{pick} star", f"{pick} cross", "whot"], ["5 star"]],
        pile=(f"{pick} triangle",),
        pack=["10 circle", "11 circle", "12 circle"],
        rules=rules,
    )
    state.apply(f"play {pick} circle")
    assert state.to_play == 1 and state.view(1)["pending_pick"] == 2
    assert legal(state) == {"draw"}
    with pytest.raises(parlour.IllegalMove) as refused:
        state.apply(f"play {pick} star")
    assert "pick 2 is pending: go to market" in str(refused.value)
    state.apply("draw")
    assert counts(state) == [1, 5, 1]
    assert state.to_play == 2  # "and loses their turn"


def test_pick_three_variant_card() -> None:
    # seed 002: "Some variants of the game include: 5 Pick Three"
    state = start(
        [["5 triangle", "4 circle"], ["4 star"]],
        pack=["10 circle", "11 circle", "12 circle"],
        powers=((5, "pick_three"),),
        rules="variant-pick-7",
    )
    state.apply("play 5 triangle")
    state.apply("draw")
    assert counts(state) == [1, 4]


def test_whot_does_not_answer_a_pick_by_default() -> None:
    # seed 002: 'A "Whot-card" can be played onto any other card that doesn't force you to pick
    # cards from the market'
    state = start([["2 triangle", "3 circle"], ["whot", "4 star"]])
    state.apply("play 2 triangle")
    assert legal(state) == {"draw"}


def test_move_clock_forces_a_pick() -> None:
    # seed 002: "If a player does not play a card within that time, the player is demanded by the
    # other players to pick a card from the market for waiting too long. Then it is the next
    # player's turn."
    state = start([["3 triangle", "4 triangle"], ["1 star"]], pack=("10 circle",), move_clock=10)
    assert str(state.forced_move()) == "draw"
    state.apply(state.forced_move())
    assert len(state.view(0)["hand"]) == 3 and state.to_play == 1
