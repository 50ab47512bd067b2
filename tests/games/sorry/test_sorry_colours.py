"""The players choose their colours (seed 003 rule 2; rule option `colours`)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from sorry_helpers import make, moves, pawns

import parlour
from parlour.core import RulesError
from parlour.core.options import load_house_rules
from parlour.games.sorry.board import (
    COLOURS,
    HOME_BASE,
    SAFETY_BASE,
    START_BASE,
    TRACK,
    parse_square,
    rel_of_abs,
    square_name,
)
from parlour.games.sorry.bots import pawn_worth
from parlour.games.sorry.engine import SorryGame, SorryState
from parlour.games.sorry.hint import SorryHintBot, evaluate, move_scores, position_score
from parlour.games.sorry.notation import ENTER, PASS, SORRY_MOVE, SPLIT, SWAP, SorryMove


def test_each_player_chooses_a_colour() -> None:
    # seed 003 rule 2: "Each player chooses a colour and places the 4 pieces of that colour on
    # the matching START circle."
    game = parlour.make("sorry", players=2, colours=("green", "blue"))
    state = game.new_game(seed=3)
    view = state.view(0)
    assert view["colours"] == ["green", "blue"] and view["seats"] == [0, 1]
    assert view["pawns"] == {"green": ["start"] * 4, "blue": ["start"] * 4}
    # seat 1 (index 0) plays green and plays first; seat 2 plays blue
    assert view["turn"] == "green" and state.to_play == 0
    assert state.view(1)["colours"] == ["green", "blue"]


def test_the_chosen_colour_enters_on_its_own_start_exit_and_safety_zone() -> None:
    # seed 003 rule 5: "... onto the small circle on the square directly outside that player's
    # START"; rule 12: "Pieces may enter only the SAFETY ZONES OF THEIR OWN COLOUR."
    state = make("1", {"blue": ["b1"], "green": []}, players=2, colours="blue,green")
    assert moves(state) == ["1 b1", "1 enter b"]
    state.apply("1 b1")  # b1 is blue's own short slide: no slide; next is b2, blue's diamond
    assert pawns(state, "blue") == ["b2", "start", "start", "start"]
    state = make("3", {"blue": ["b1"], "green": []}, players=2, colours="blue,green")
    state.apply("3 b1")  # past its own diamond b2 into its safety zone
    assert pawns(state, "blue") == ["bs2", "start", "start", "start"]
    # rule 8: a slide of another colour slides the pawn; red's is not in play, but it slides
    state = make("5", {"blue": ["g11"], "green": []}, players=2, colours="blue,green")
    state.apply("5 g11")  # g11 + 5 = r1, red's short slide: to r4
    assert pawns(state, "blue") == ["r4", "start", "start", "start"]


def test_the_default_seating_is_unchanged() -> None:
    for players, colours in ((2, ["red", "yellow"]), (3, ["red", "blue", "yellow"])):
        assert parlour.make("sorry", players=players).new_game(seed=1).view(0)["colours"] == (
            colours
        )
        assert parlour.make("sorry", players=players, colours=()).rules.colours == ()
    state = parlour.make("sorry", players=4).new_game(seed=1)
    assert state.view(0)["colours"] == list(COLOURS)


def test_seats_are_the_order_of_play_whatever_the_colours() -> None:
    # seed 003 rule 4: "Play continues from right to left": round the table, seat after seat
    game = parlour.make("sorry", players=3, colours="yellow,green,red")
    state = game.new_game(seed=5)
    order: list[str] = []
    while len(order) < 6:
        order.append(state.turn_colour)
        state.apply(state.legal_moves()[0])
        if state.view(0)["again"]:
            order.pop()  # a 2's second card: the same colour again
    assert order[:3] == ["yellow", "green", "red"] == order[3:6]
    assert game.new_game(seed=5, first=2).turn_colour == "red"


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (3, {"colours": "red,blue"}, "3 colours are needed, not 2"),
        (2, {"colours": "red,blue,green"}, "2 colours are needed, not 3"),
        (2, {"colours": "red,red"}, "red is chosen twice"),
        (2, {"colours": "red,purple"}, "cannot be 'purple'; choose from: red, blue, yellow, green"),
        (
            4,
            {"colours": "green,blue,yellow,red", "partnership": True},
            "RED is always YELLOW's partner; GREEN is always BLUE's",
        ),
    ],
)
def test_colours_that_cannot_be_chosen_are_refused(
    players: int, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parlour.make("sorry", players=players, **options)


def test_partnership_colours_stay_as_the_sheet_fixes_them() -> None:
    # partnership rule 1: "RED is always YELLOW's partner; GREEN is always BLUE's."
    with pytest.raises(RulesError, match="partnership rule 1 fixes them"):
        parlour.make("sorry", players=2, rules="partnership", colours="red,yellow")
    state = parlour.make("sorry", players=4, rules="partnership").new_game(seed=1)
    assert state.view(0)["colours"] == ["red", "blue", "yellow", "green"]


def test_colours_from_the_command_line_and_house_rules(tmp_path: Path) -> None:
    # `--set colours=blue,green` arrives as text; a house-rules TOML file as a list
    game = parlour.make("sorry", players=2, colours=" blue, green ")
    assert game.rules.colours == ("blue", "green")
    toml = tmp_path / "house.toml"
    toml.write_text('preset = "points"\ncolours = ["yellow", "green", "blue"]\n', encoding="utf-8")
    preset, overrides = load_house_rules(toml)
    game = parlour.make("sorry", players=3, rules=preset, **overrides)
    state = game.new_game(seed=2)
    assert state.view(0)["colours"] == ["yellow", "green", "blue"]
    assert state.view(0)["pawns"]["green"] == ["g4", "start", "start", "start"]


# --- the board is the same from every side -------------------------------------------------------
# A game of blue and green is a game of red and yellow turned a quarter round: every legal move,
# every hint score, every learned value and every observation of the RL encoding must be the same.


def _turn_code(code: int, k: int) -> int:
    if code < TRACK:
        return (code + 15 * k) % TRACK
    if code < START_BASE:
        colour, n = divmod(code - SAFETY_BASE, 5)
        return SAFETY_BASE + 5 * ((colour + k) % 4) + n
    if code < HOME_BASE:
        return START_BASE + (code - START_BASE + k) % 4
    return HOME_BASE + (code - HOME_BASE + k) % 4


def _turn_move(move: Any, k: int) -> str:
    """A move's text with the board turned `k` quarters clockwise."""
    m: SorryMove = move
    if m.kind == PASS:
        return str(m)
    a = (m.a + k) % 4 if m.kind in (ENTER, SORRY_MOVE) else _turn_code(m.a, k)
    b = _turn_code(m.b, k) if m.kind in (SPLIT, SWAP, SORRY_MOVE) else m.b
    return str(SorryMove(m.card, m.kind, a, m.n, b, m.m))


def _turn_square(name: str, k: int) -> str:
    if name in ("start", "home"):
        return name
    code = parse_square(name)
    assert code is not None
    return square_name(_turn_code(code, k))


def _turned(spec: dict[str, Any], k: int) -> dict[str, Any]:
    out = dict(spec)
    out["pawns"] = {
        COLOURS[(COLOURS.index(c) + k) % 4]: [_turn_square(q, k) for q in squares]
        for c, squares in spec["pawns"].items()
    }
    out["turn"] = COLOURS[(COLOURS.index(spec["turn"]) + k) % 4]
    if "hands" in spec:
        out["hands"] = {COLOURS[(COLOURS.index(c) + k) % 4]: h for c, h in spec["hands"].items()}
    return out


# Track squares off the green side, so turning the board a quarter keeps the squares' order
# (which decides the spelling of a split 7); and a safety square of each colour.
SPOTS = ["r4", "r9", "r12", "b1", "b3", "b9", "b13", "y1", "y5", "y9", "y14"]


def _random_spec(rng: random.Random, card: str | None) -> dict[str, Any]:
    spots = rng.sample(SPOTS, 6)
    red = spots[: rng.randint(0, 3)] + (["rs2"] if rng.random() < 0.3 else [])
    yellow = spots[3 : 3 + rng.randint(0, 3)] + (["ys3"] if rng.random() < 0.3 else [])
    spec: dict[str, Any] = {"pawns": {"red": red, "yellow": yellow}, "turn": "red"}
    if card is not None:
        spec["card"] = card
    else:
        spec["hands"] = {"red": ["1", "4", "7", "11", "S"]}
    return spec


@pytest.mark.parametrize("card", ["1", "2", "4", "7", "10", "11", "S", None])
def test_a_game_of_chosen_colours_is_the_same_game_turned(card: str | None) -> None:
    from parlour.adapters.encoding import encoding_for

    rules = "regular" if card is not None else "points"
    plain = parlour.make("sorry", players=2, rules=rules)
    turned = parlour.make("sorry", players=2, rules=rules, colours="blue,green")
    assert isinstance(plain, SorryGame) and isinstance(turned, SorryGame)
    enc_plain, enc_turned = encoding_for(plain), encoding_for(turned)
    rng = random.Random(card)
    for _ in range(30):
        spec = _random_spec(rng, card)
        a = plain.from_position(spec, seed=1)
        b = turned.from_position(_turned(spec, 1), seed=1)
        assert isinstance(a, SorryState) and isinstance(b, SorryState)
        legal_a = a.legal_moves()
        assert sorted(_turn_move(m, 1) for m in legal_a) == moves(b)
        scores_b = {str(m): s for s, m in move_scores(b, b.legal_moves())}
        for s, m in move_scores(a, legal_a):
            assert scores_b[_turn_move(m, 1)] == pytest.approx(s)
        assert evaluate(a) == pytest.approx(evaluate(b))
        for seat in (0, 1):
            assert (enc_plain.observe(a.view(seat)) == enc_turned.observe(b.view(seat))).all()
        # and they play on alike: the same move, turned, leads to the same game, turned
        move = rng.choice(legal_a)
        a.apply(move)
        b.apply(_turn_move(move, 1))
        assert {
            COLOURS[(COLOURS.index(c) + 1) % 4]: sorted(_turn_square(q, 1) for q in squares)
            for c, squares in a.view(None)["pawns"].items()
        } == {c: sorted(squares) for c, squares in b.view(None)["pawns"].items()}


def test_the_hint_bot_plays_whatever_colours_are_chosen() -> None:
    # the hint bot's sides are worked out per set of colours, not per number of players
    plain = parlour.make("sorry", players=2)
    turned = parlour.make("sorry", players=2, colours="blue,green")
    spec = {"pawns": {"red": ["y1"], "yellow": ["y5"]}, "turn": "red", "card": "4"}
    a, b = plain.from_position(spec, seed=1), turned.from_position(_turned(spec, 1), seed=1)
    assert isinstance(a, SorryState) and isinstance(b, SorryState)
    bot_a, bot_b = SorryHintBot(plain, random.Random(1)), SorryHintBot(turned, random.Random(1))
    choice_a = bot_a.choose(a.view(0), a.legal_moves())
    choice_b = bot_b.choose(b.view(0), b.legal_moves())
    assert _turn_move(choice_a, 1) == str(choice_b)


def test_the_hint_bot_sees_the_danger_from_the_colours_chosen() -> None:
    # red and blue sit side by side: a blue pawn 3 squares behind a red one threatens it, which
    # the hint bot counts as a quarter of the red pawn's worth lost (it must not take the blue
    # pawn for the yellow one of the fixed 2-player seating)
    default = parlour.make("sorry", players=2).from_position({"card": "5"}, seed=1)
    assert isinstance(default, SorryState)
    position_score(default, 0)  # the fixed seating's sides are worked out first
    game = parlour.make("sorry", players=2, colours="red,blue")
    for blue, threatened in (("r7", True), ("r13", False)):
        state = game.from_position({"pawns": {"red": ["r10"], "blue": [blue]}, "card": "5"})
        assert isinstance(state, SorryState)
        red_r, blue_r = rel_of_abs(0, 9), rel_of_abs(1, parse_square(blue) or 0)
        danger = 0.25 * pawn_worth(red_r) if threatened else 0.0
        assert position_score(state, 0) == pawn_worth(red_r) - pawn_worth(blue_r) - danger
