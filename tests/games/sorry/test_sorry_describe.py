"""The log in words: describe_event turns each Sorry! event into a sentence with players' names."""

from __future__ import annotations

import random

import pytest
from rich.markup import escape
from rich.text import Text
from sorry_helpers import make

from parlour.core.registry import info
from parlour.games.sorry.render import describe_event

NAMES = ["Ada", "Bob", "Cy", "Di"]


def plain(event: str, names: list[str] = NAMES) -> str:
    return Text.from_markup(describe_event(event, names)).plain


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ("red: 2 enter r", "Ada (red) plays a 2: a red pawn leaves START for r4"),
        ("red: 11 r4", "Ada (red) plays an 11: the pawn on r4 forward 11"),
        ("blue: 4 b3", "Bob (blue) plays a 4: the pawn on b3 back 4"),
        ("yellow: 10 ys2-1", "Cy (yellow) plays a 10: the pawn on ys2 back 1"),
        (
            "green: 7 g4+3 r12+4",
            "Di (green) plays a 7, split: the pawn on g4 forward 3, then the pawn on r12 forward 4",
        ),
        (
            "red: 11 r7<>b9",
            "Ada (red) plays an 11: the pawn on r7 changes places with the pawn on b9",
        ),
        (
            "green: S g>b9",
            "Di (green) plays SORRY!: a green pawn leaves START for b9, "
            "sending the pawn there back to its START",
        ),
        ("blue pawn on r4 sent back to START", "Bob's blue pawn on r4 goes back to START"),
        ("red slid b9→b13", "Ada's red pawn slides from b9 to b13"),
        ("red cannot use the 5: turn forfeited", "Ada (red) cannot use a 5: the turn is forfeited"),
        ("yellow drew a card", "Cy (yellow) draws a card"),
        (
            "red and yellow brought every pawn HOME and won",
            "Ada (red) and Cy (yellow) brought every pawn HOME and won",
        ),
        ("the discards were shuffled into a new pack", "The discards are shuffled into a new pack"),
    ],
)
def test_each_kind_of_event_reads_in_words(event: str, words: str) -> None:
    assert plain(event) == words


def test_two_players_red_and_yellow() -> None:
    assert plain("yellow: 1 enter y", ["Ada", "Bob"]).startswith("Bob (yellow) plays a 1")
    assert plain("red: 3 r5", ["Ada", "Bob"]).startswith("Ada (red) plays a 3")


def test_names_are_escaped_and_the_game_registers_it() -> None:
    names = ["[bold]Ada", "Bob", "Cy", "Di"]
    markup = describe_event("red: 5 r4", names)
    assert escape("[bold]Ada") in markup
    assert Text.from_markup(markup).plain.startswith("[bold]Ada (red)")
    assert info("sorry").describe_event is describe_event


@pytest.mark.parametrize("rules", ["regular", "partnership", "points"])
def test_every_event_of_real_games_is_put_in_words(rules: str) -> None:
    rng = random.Random(5)
    for seed in range(3):
        state = make(rules=rules)
        state = state.game.new_game(seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_moves()))
        for event in state.view(0)["events"]:
            words = plain(event)
            assert words != event, event  # no event falls through untranslated
            assert any(name in words for name in NAMES) or "pack" in words, event
