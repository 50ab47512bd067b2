"""Positions: `SorryState.position()` and `SorryGame.from_position` (docs/sorry.md, "Positions"),
`new_game(position=...)`, the setup keys of old records, and the errors of a bad position."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from sorry_helpers import GAMES, moves, pawns

import parlour
from parlour.core import SetupError
from parlour.games.sorry.engine import SorryState


def without_events(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "events"}


@pytest.mark.parametrize(("players", "rules"), GAMES)
def test_a_position_sets_the_same_game_up_again(players: int, rules: str) -> None:
    game = parlour.make("sorry", players=players, rules=rules)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(60):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    spec = json.loads(json.dumps(state.position()))  # a position is JSON
    back = game.from_position(spec, seed=99)
    assert back.legal_moves() == state.legal_moves()
    for p in [None, *range(players)]:
        assert without_events(back.view(p)) == without_events(state.view(p))
    assert back.position() == spec
    # the whole pack is in the position: the game goes on with the same cards until it runs
    # out (the reshuffle is the seed's)
    for _ in range(min(30, state.view(0)["pack"] - 1)):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        state.apply(move)
        back.apply(move)
        assert without_events(back.view(0)) == without_events(state.view(0))


@pytest.mark.parametrize("rules", ["regular", "points"])
def test_a_two_played_as_the_pack_runs_out_sets_up_again(rules: str) -> None:
    # The pack runs out as the 2 is played: its second card comes from a new pack made of the
    # discards, the 2 among them, so the discard pile is empty while `again` holds.
    game = parlour.make("sorry", players=2, rules=rules)
    cards: dict[str, Any]
    if rules == "regular":
        cards = {"card": "2"}
        held = ["2"]
    else:
        cards = {"hands": {"red": ["2", "3", "3", "3", "3"], "yellow": ["5", "5", "5", "5", "7"]}}
        held = [c for hand in cards["hands"].values() for c in hand]
    pack = Counter(["1"] * 5 + ["2", "3", "4", "5", "7", "8", "10", "11", "12", "S"] * 4)
    discard = sorted((pack - Counter(held)).elements())  # every card not held
    state = game.from_position({"pawns": {"red": ["b7"]}, **cards, "discard": discard}, seed=2)
    assert isinstance(state, SorryState) and not state.pack
    state.apply("2 b7")
    assert state.to_play == 0 and state.again and state.discard == []
    spec = json.loads(json.dumps(state.position()))
    back = game.from_position(spec, seed=5)
    assert back.legal_moves() == state.legal_moves() and back.position() == spec


def test_the_documented_example() -> None:
    game = parlour.make("sorry", players=4)
    state = game.from_position(
        {
            "pawns": {"red": ["r4", "rs2", "start", "home"], "blue": "b9"},
            "turn": "red",
            "card": "5",
            "pack": ["S", "7"],
            "discard": ["4", "2"],
            "again": True,
        },
        seed=1,
    )
    view = state.view(0)
    assert view["pawns"]["red"] == ["home", "rs2", "r4", "start"]
    assert view["pawns"]["blue"] == ["b9", "start", "start", "start"]
    assert view["card"] == "5" and view["again"] and view["discard"] == ["4", "2"]
    assert view["pack"] == 45 - 1 - 2 and view["hand_counts"] is None
    assert moves(state) == ["5 r4"]  # rs2 is 3 from HOME
    state.apply("5 r4")  # the second card of the 2: red plays on
    assert state.position()["card"] == "S" and state.to_play == 1
    state.apply("S b>r9")
    assert state.position()["card"] == "7"


def test_left_out_the_pawns_start_as_in_a_new_game_and_the_top_card_is_turned_up() -> None:
    # point score rule 1: "The 4th piece is placed on the starting space next to his START circle"
    points = parlour.make("sorry", players=4, rules="points")
    state = points.from_position({"pawns": {"red": ["r9"]}, "pack": ["12"]}, seed=2)
    assert pawns(state, "red") == ["r9", "start", "start", "start"]
    assert pawns(state, "blue") == ["b4", "start", "start", "start"]
    assert state.view(0)["hand_counts"] == [5, 5, 5, 5]
    assert state.position()["pack"][0] == "12"  # on top after the deal
    regular = parlour.make("sorry", players=2)
    assert regular.from_position({"pack": ["11", "3"]}, seed=2).view(0)["card"] == "11"


def test_a_colour_s_pawns_may_be_written_in_one_string() -> None:
    game = parlour.make("sorry", players=2)
    state = game.from_position({"pawns": {"r": "r4, rs2 home", "yellow": "ystart y7"}})
    assert state.position()["pawns"] == {
        "red": ["home", "rs2", "r4", "start"],
        "yellow": ["y7", "start", "start", "start"],
    }


def test_new_game_with_a_position_is_from_position_and_replays() -> None:
    game = parlour.make("sorry", players=3, rules="points")
    spec = {"pawns": {"blue": ["y2", "bs4"]}, "turn": "blue", "pack": ["7", "S"]}
    state = game.new_game(seed=5, position=spec)
    assert state.position() == game.from_position(spec, seed=5).position()
    assert state.to_play == 1 and state.setup == {"position": spec}
    rng = random.Random(5)
    for _ in range(40):
        state.apply(rng.choice(state.legal_moves()))
    assert parlour.replay(state.record()).to_dict() == state.to_dict()


def test_first_says_who_plays_first_and_fills_a_positions_turn() -> None:
    # seed 003 rule 2: "Select a player to play first." The server's records hold `first`.
    game = parlour.make("sorry", players=4)
    assert game.new_game(seed=3, first=2).to_play == 2
    assert game.new_game(seed=3, first=2, position={"card": "1"}).turn_colour == "yellow"
    assert game.new_game(seed=3, first=2, position={"turn": "g"}).turn_colour == "green"
    two = parlour.make("sorry", players=2, rules="partnership")
    assert two.new_game(seed=3, first=1).turn_colour == "blue"


def test_records_made_with_the_old_setup_keys_replay_as_before() -> None:
    """Before positions, a setup could give the pawns alone (`position`: {colour: squares}),
    `pack` and `hands`; such records still start from the same cards (pinned from then)."""
    game = parlour.make("sorry", players=4, rules="points")
    state = game.new_game(
        seed=9,
        first=2,
        position={"red": ["r5"], "blue": ["bs1", "home"]},
        pack=["S", "7"],
        hands={"green": ["1", "2", "3", "4", "5"]},
    )
    assert isinstance(state, SorryState)
    assert state.pos == [2, -1, -1, -1, 60, 65, -1, -1, 1, -1, -1, -1, 1, -1, -1, -1]
    assert state.hands == [[10, 4, 7, 8, 13], [7, 1, 5, 1, 11], [11, 3, 8, 11, 4], [1, 2, 3, 4, 5]]
    assert state.pack[-6:] == [2, 4, 1, 8, 7, 13] and state.cur == 2
    old = parlour.make("sorry", players=3).new_game(seed=4, first=1)
    assert isinstance(old, SorryState)
    assert (old.card, old.pack[-5:], old.cur) == (4, [3, 10, 8, 2, 5], 1)
    again = parlour.replay(state.record())
    assert again.to_dict() == state.to_dict()


@pytest.mark.parametrize(
    ("rules", "spec", "why"),
    [
        # seed 003 rule 6: "Pieces of the same colour may not occupy the same space."
        ("regular", {"pawns": {"red": ["r5", "r5"]}}, "two red pawns on r5"),
        ("regular", {"pawns": {"red": ["rs2", "rs2"]}}, "two red pawns on rs2"),
        (
            "regular",
            {"pawns": {"red": ["b9"], "blue": ["b9"]}},
            r"two pawns on b9 \(red and blue\)",
        ),
        # seed 003 rule 12: "Pieces may enter only the SAFETY ZONES OF THEIR OWN COLOUR."
        ("regular", {"pawns": {"red": ["bs2"]}}, "not a square a red pawn can stand on"),
        ("regular", {"pawns": {"red": ["gstart"]}}, "not a square a red pawn can stand on"),
        ("regular", {"pawns": {"red": ["r16"]}}, "'r16' is not a square of the board"),
        ("regular", {"pawns": {"red": ["r1", "r2", "r3", "r4", "r5"]}}, "4 pawns, not 5"),
        ("regular", {"pawns": {"purple": ["r4"]}}, "not a colour in play"),
        ("regular", {"pawns": {"red": ["home"] * 4}}, "the game would be over"),
        ("partnership", {"pawns": {"red": ["home"] * 4, "yellow": ["home"] * 4}}, "would be over"),
        # seed 003 rule 1: "there are no 6's or 9's in the pack"
        ("regular", {"card": "6"}, "'6' in card is not a Sorry! card"),
        ("regular", {"pack": ["S"] * 4, "card": "S"}, "5 × S, but the pack has only 4"),
        ("regular", {"discard": ["1"] * 6}, "6 × 1, but the pack has only 5"),
        ("regular", {"hands": {"red": ["1", "2", "3", "4", "5"]}}, "only in the point-score game"),
        ("points", {"card": "5"}, "no card face up"),
        # point score rule 1: "5 cards are dealt to each player"
        ("points", {"hands": {"red": ["1", "2"]}}, "must hold 5 cards, not 2"),
        ("regular", {"turn": "blue", "again": True}, "needs the 2 on the discard pile"),
        ("regular", {"turn": 7}, "turn: 7 is not a colour in play"),
        ("regular", {"colour": "red"}, "unknown keys colour"),
    ],
)
def test_position_errors_are_clear(rules: str, spec: dict[str, Any], why: str) -> None:
    game = parlour.make("sorry", players=4, rules=rules)
    with pytest.raises(SetupError, match=why):
        game.from_position(spec)


def test_setup_errors_are_clear() -> None:
    game = parlour.make("sorry", players=2)
    with pytest.raises(SetupError, match="not a colour in play"):
        game.new_game(seed=1, position={"blue": ["b4"]})
    with pytest.raises(SetupError, match="unknown Sorry! setup"):
        game.new_game(seed=1, dealer=0)
    with pytest.raises(SetupError, match="first must be a seat"):
        game.new_game(seed=1, first=2)
    with pytest.raises(SetupError, match="pack is given twice"):
        game.new_game(seed=1, position={"pack": ["S"]}, pack=["S"])
    with pytest.raises(SetupError, match="a Sorry! position is a JSON object"):
        game.from_position(["r4"])  # type: ignore[arg-type]
