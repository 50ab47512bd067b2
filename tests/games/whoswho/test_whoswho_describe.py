"""Who's Who events: typed records in plain words, players by name, and the same on the wire."""

from __future__ import annotations

import json
import random

import pytest

import parlour
from parlour.core import events_from_wire, to_wire
from parlour.games.whoswho.describe import describe_event
from parlour.games.whoswho.events import (
    KINDS,
    BookLaid,
    Called,
    DealOver,
    Dealt,
    DealtAround,
    GameOver,
    PassedOver,
    Played,
    Preferred,
    Returned,
    Thanked,
    TrickWon,
    typed_events,
)
from parlour.games.whoswho.render import render

NAMES = ["Ada", "Bob", "Cy", "Di"]


@pytest.mark.parametrize(
    ("event", "words"),
    [
        (Dealt(3, 1, 8, 5), "Deal 1 of 8: Di deals 5 cards to each player"),
        (Preferred(0, "society"), "Ada names Society (red) the Preference suit"),
        (Played(1, "7 money"), "Bob plays 7 money"),
        (TrickWon(2, "9 sport"), "Cy wins the trick with 9 sport"),
        (DealOver(2, (2, 0, 3, 0)), "Deal 2 is over: tricks won, Ada 2, Cy 3"),
        (GameOver((1, 3), (7, 9, 7, 9), "point"), "Game over: Bob and Di win with 9 points"),
        (DealtAround(2), "Cy deals all the cards around"),
        (Called(0, 1, "4 brains", True), "Ada calls on Bob for 4 brains: Bob gives it"),
        (
            Called(0, 2, "4 sport", False),
            "Ada calls on Cy for 4 sport: Cy has none, and the call goes to Cy",
        ),
        (Thanked(0, 1, "4 brains"), "Ada says “Thank you” to Bob and keeps 4 brains"),
        (
            Returned(0, 1, "4 brains"),
            "Ada called again without saying “Thank you”: 4 brains goes back to Bob, who calls "
            "next",
        ),
        (BookLaid(3, 7), "Di lays down the book of 7s"),
        (PassedOver(1), "Bob has no cards left and is passed over"),
        (GameOver((2,), (3, 4, 6, 0), "book"), "Game over: Cy wins with 6 books"),
    ],
)
def test_events_in_words(event: object, words: str) -> None:
    assert describe_event(event, NAMES) == words
    # on the wire: a JSON object with its kind, and back again the same record
    wire = json.loads(json.dumps(to_wire(event)))
    assert wire["kind"] == event.kind  # type: ignore[attr-defined]
    assert typed_events([wire]) == [event]


def test_players_without_names_are_numbered_from_one() -> None:
    assert describe_event(Played(5, "3 money"), NAMES) == "Player 6 plays 3 money"


@pytest.mark.parametrize("name", ["whoswho-tricks", "whoswho-books"])
def test_every_event_of_a_game_is_described_and_round_trips(name: str) -> None:
    game = parlour.make(name, players=4)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(3000):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    events = state.view(None)["events"]
    kinds = {e.kind for e in events}
    assert kinds <= set(KINDS)
    for event in events:
        words = describe_event(event, NAMES)
        assert words and "seat" not in words and "[" not in words
    wire = json.loads(json.dumps([to_wire(e) for e in events]))
    assert events_from_wire(wire, KINDS, str) == events


def test_the_terminal_says_who_won() -> None:
    game = parlour.make("whoswho-books", players=3)
    done = {"hands": [[], [], []], "books": [[3, 4, 5, 6], [7, 8, 9, 10], [11, 12, 13, 14, 15]]}
    over = game.from_position(done)
    text = render(over.view(0), 0, NAMES)
    assert "Game over[/]: Cy — the most books (5) wins" in text
    state = game.from_position(
        {"hands": [["15 money", "15 society", "15 brains"], ["15 sport"], []], "books": BOOKS}
    )
    state.apply("ask 2 for 15 sport")
    state.apply("thank")
    assert "Game over[/]: Ada wins with 5 books — the most books (5) wins" in render(
        state.view(None), None, NAMES
    )


BOOKS = [[3, 4, 5, 6], [7, 8, 9, 10], [11, 12, 13, 14]]
