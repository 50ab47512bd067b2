"""The log in words: describe_event turns each typed Sorry! event into a plain sentence with the
players' names; the terminal picture escapes it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rich.markup import escape
from sorry_helpers import events, make

import parlour
from parlour.core.registry import info
from parlour.games.sorry.describe import describe_event
from parlour.games.sorry.events import (
    Bumped,
    Drew,
    Forfeited,
    Played,
    Reshuffled,
    Slid,
    Won,
)
from parlour.games.sorry.notation import parse_move

NAMES = ["Ada", "Bob", "Cy", "Di"]


def played(player: int, colour: str, text: str, *pawns: tuple[str, str, str]) -> Played:
    return Played(player, colour, parse_move(text), tuple(pawns))


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (
            played(0, "red", "2 enter r", ("red", "start", "r4")),
            "Ada (red) plays a 2: a red pawn leaves START for r4",
        ),
        (
            played(0, "red", "11 r4", ("red", "r4", "r15")),
            "Ada (red) plays an 11: the pawn on r4 forward 11 to r15",
        ),
        (
            played(1, "blue", "4 b3", ("blue", "b3", "r14")),
            "Bob (blue) plays a 4: the pawn on b3 back 4 to r14",
        ),
        (
            played(2, "yellow", "10 ys2-1", ("yellow", "ys2", "y2")),
            "Cy (yellow) plays a 10: the pawn on ys2 back 1 to y2",
        ),
        (
            played(0, "red", "3 rs3", ("red", "rs3", "home")),
            "Ada (red) plays a 3: the pawn on rs3 forward 3 to HOME",
        ),
        (
            played(3, "green", "7 g4+3 r12+4", ("green", "g4", "g7"), ("green", "r12", "b1")),
            "Di (green) plays a 7, split: the pawn on g4 forward 3, then the pawn on r12 forward 4 "
            "(to g7 and b1)",
        ),
        (
            played(0, "red", "5 y9", ("yellow", "y9", "y14")),
            "Ada (red) plays a 5: the yellow pawn on y9 forward 5 to y14",
        ),
        (
            played(0, "red", "11 r7<>b9", ("red", "r7", "b9"), ("blue", "b9", "r7")),
            "Ada (red) plays an 11: the pawn on r7 changes places with the pawn on b9",
        ),
        (
            played(3, "green", "S g>b9", ("green", "start", "b9")),
            "Di (green) plays SORRY!: a green pawn leaves START for b9, "
            "sending the pawn there back to its START",
        ),
        (Bumped(1, "blue", "r4"), "Bob's blue pawn on r4 goes back to START"),
        (Slid(0, "red", "b9", "b13"), "Ada's red pawn slides from b9 to b13"),
        (Forfeited(0, "red", "5", False), "Ada (red) cannot use a 5: the turn is forfeited"),
        (
            Forfeited(0, "red", "11", False),
            "Ada (red) makes no move with the 11: the turn is forfeited",
        ),
        (
            Forfeited(1, "blue", "8", True),
            "Bob (blue) can use no card in hand: discards an 8 and the turn is forfeited",
        ),
        (
            Forfeited(0, "red", "11", False, declined=True),
            "Ada (red) declines the 11's change of places: the turn is forfeited",
        ),
        (
            Forfeited(1, "blue", "11", True, declined=True),
            "Bob (blue) declines the 11's change of places: discards an 11 and the turn is "
            "forfeited",
        ),
        (Drew(2, "yellow"), "Cy (yellow) draws a card"),
        (Won((0,), ("red",)), "Ada (red) brings every pawn HOME and wins"),
        (
            Won((0, 2), ("red", "yellow")),
            "Ada (red) and Cy (yellow) bring every pawn HOME and win",
        ),
        (Won((1, 1), ("blue", "green")), "Bob (blue and green) brings every pawn HOME and wins"),
        (Reshuffled(), "The discards are shuffled into a new pack"),
    ],
)
def test_each_kind_of_event_reads_in_words(event: Any, words: str) -> None:
    assert describe_event(event, NAMES) == words


def test_players_are_named_by_the_seat_the_event_gives() -> None:
    two = ["Ada", "Bob"]
    assert describe_event(Drew(1, "yellow"), two) == "Bob (yellow) draws a card"
    assert describe_event(Drew(3, "green"), two) == "P4 (green) draws a card"


def test_words_are_plain_text_and_the_game_registers_them() -> None:
    names = ["[bold]Ada", "Bob", "Cy", "Di"]
    assert describe_event(Drew(0, "red"), names) == "[bold]Ada (red) draws a card"
    assert info("sorry").describe_event is describe_event
    # the terminal picture names the players escaped for Rich; the events it leaves to the
    # terminal and the replay, which print each one once (issue 31, item 15: they came twice)
    state = make("5", {"red": ["r4"]})
    state.apply("5 r4")
    gi = info("sorry")
    assert gi.render is not None
    picture = gi.render(state.view(0), 0, names)
    assert escape("[bold]Ada") in picture
    assert "plays a 5" not in picture


@pytest.mark.parametrize("rules", ["regular", "partnership", "points"])
def test_every_event_of_real_games_is_put_in_words(rules: str) -> None:
    rng = random.Random(5)
    game = parlour.make("sorry", players=4, rules=rules)
    kinds = set()
    for seed in range(3):
        state = game.new_game(seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_moves()))
        for event in events(state):
            kinds.add(event.kind)
            words = describe_event(event, NAMES)
            assert words and words[0].isupper(), event
            assert any(name in words for name in NAMES) or event.kind == "reshuffle", event
    assert {"play", "bump", "slide", "forfeit"} <= kinds
