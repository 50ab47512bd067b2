"""Typed events: a turn is told completely enough to animate it — which pawn went where, the
slide, every pawn sent back and from where — and events travel as JSON and come back typed."""

from __future__ import annotations

import json
import random

from sorry_helpers import events, make

import parlour
from parlour.core.events import view_to_wire
from parlour.games.sorry.events import (
    KINDS,
    Bumped,
    Drew,
    Forfeited,
    Played,
    Slid,
    Won,
    view_events,
)
from parlour.games.sorry.notation import parse_move


def test_a_move_onto_a_slide_tells_the_landing_the_slide_and_every_pawn_sent_back() -> None:
    # seed 003 rule 8: "A piece which lands on the triangle of a SLIDE of a colour other than its
    # own SLIDES DIRECTLY TO THE ROUND END OF THAT SLIDE. All pieces of its own or any other
    # colour that occupy spaces on that SLIDE are sent back to their respective STARTS."
    state = make("1", {"red": ["y8", "y11"], "blue": ["y9", "y10"], "yellow": ["y13"]})
    state.apply("1 y8")
    assert events(state) == [
        Played(0, "red", parse_move("1 y8"), (("red", "y8", "y9"),)),
        Bumped(1, "blue", "y9"),  # on the triangle landed on
        Slid(0, "red", "y9", "y13"),
        Bumped(1, "blue", "y10"),  # along the slide, in its order
        Bumped(0, "red", "y11"),
        Bumped(2, "yellow", "y13"),
    ]


def test_each_kind_of_move_names_its_pawns_paths() -> None:
    enter = make("1", {"blue": ["r4"]})
    enter.apply("1 enter r")
    assert events(enter) == [
        Played(0, "red", parse_move("1 enter r"), (("red", "start", "r4"),)),
        Bumped(1, "blue", "r4"),
    ]
    home = make("3", {"red": ["rs3"]})
    home.apply("3 rs3")
    assert events(home)[0].pawns == (("red", "rs3", "home"),)
    back = make("4", {"red": ["r4"]})
    back.apply("4 r4")
    assert events(back)[0].pawns == (("red", "r4", "g15"),)
    split = make("7", {"red": ["b1", "y1"]})
    split.apply("7 b1+3 y1+4")
    assert events(split)[0].pawns == (("red", "b1", "b4"), ("red", "y1", "y5"))
    # an 11's change of places moves two pawns; the mover's may then slide (rule 8)
    swap = make("11", {"red": ["y3"], "green": ["g9"]})
    swap.apply("11 y3<>g9")
    assert events(swap) == [
        Played(0, "red", parse_move("11 y3<>g9"), (("red", "y3", "g9"), ("green", "g9", "y3"))),
        Slid(0, "red", "g9", "g13"),
    ]
    # SORRY!: from START onto the pawn, which goes back to its START
    sorry = make("S", {"blue": ["r3"]})
    sorry.apply("S r>r3")
    assert events(sorry) == [
        Played(0, "red", parse_move("S r>r3"), (("red", "start", "r3"),)),
        Bumped(1, "blue", "r3"),
    ]


def test_a_partners_pawn_is_named_by_its_colour() -> None:
    # partnership rule 2: "A player may enter or move either one of his own or one of his
    # partner's pieces on his turn."
    state = make("5", {"yellow": ["y9"]}, rules="partnership")
    state.apply("5 y9")
    assert events(state) == [Played(0, "red", parse_move("5 y9"), (("yellow", "y9", "y14"),))]


def test_forfeits_draws_and_the_win() -> None:
    state = make("12", {"red": ["rs1", "home", "home", "home"]})
    state.apply("pass")
    assert events(state) == [Forfeited(0, "red", "12", False)]
    points = make(rules="points", pawns={"red": ["rs5", "home", "home", "home"]},
                  hands={"red": ["1", "3", "5", "8", "12"]})  # fmt: skip
    points.apply("1 rs5")
    assert events(points)[1:] == [Drew(0, "red"), Won((0,), ("red",))]
    reason = points.result().reason
    assert reason == "brought every pawn HOME; each player scores by the point-score table"
    stuck = make(rules="points", pawns={"red": ["rs5", "home", "home", "home"]},
                 hands={"red": ["3", "5", "8", "12", "12"]})  # fmt: skip
    stuck.apply("pass 8")
    assert events(stuck) == [Forfeited(0, "red", "8", True), Drew(0, "red")]


def test_the_result_names_no_colour_and_no_seat() -> None:
    # partnership rule 5: "The first partnership to reach HOME with all 8 pieces wins the game."
    state = make("1", {"red": ["home"] * 3 + ["rs5"], "yellow": ["home"] * 4}, rules="partnership")
    state.apply("1 rs5")
    assert events(state)[-1] == Won((0, 2), ("red", "yellow"))
    reason = state.result().reason
    # in words a player reads (issue 31, item 18: it read "(points: pawns HOME)")
    assert reason == "brought every pawn HOME; each player counts the pawns they have HOME"
    assert not any(word in reason for word in ("red", "yellow", "P1", "seat"))


def test_recurring_events_are_built_once() -> None:
    """The engine is the search's hot path: the same event of a game is the same object."""
    game = parlour.make("sorry", players=4)
    spec = {"pawns": {"red": ["r4"], "blue": ["r9"]}, "card": "5"}
    a, b = game.from_position(spec), game.from_position(spec)
    a.apply("5 r4")
    b.apply("5 r4")
    assert all(x is y for x, y in zip(events(a), events(b), strict=True))


def test_events_go_as_json_and_come_back_typed() -> None:
    game = parlour.make("sorry", players=4, rules="partnership")
    state = game.new_game(seed=4)
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    view = state.view(1)
    wire = json.loads(json.dumps(view_to_wire(view)))
    first = wire["events"][0]
    assert first["kind"] in KINDS and isinstance(first["player"], int)
    played = next(e for e in wire["events"] if e["kind"] == "play")
    assert set(played) == {"kind", "player", "colour", "move", "pawns"}
    assert set(played["move"]) >= {"text", "kind", "card"}
    assert all(len(path) == 3 for path in played["pawns"])
    assert view_events(wire) == view["events"]
    assert wire["events"][-1]["kind"] == "win"
