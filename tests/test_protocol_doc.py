"""docs/protocol.md stays true: each game's table of view keys is exactly the keys its views
have (beyond the envelope), and the envelope table is the envelope."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import parlour
from parlour.core import ENVELOPE

DOC = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")


def table_keys(section: str) -> set[str]:
    """The keys named in the first column of the first table under a heading."""
    start = DOC.index(section)
    body = DOC[start:].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    keys: set[str] = set()
    for row in body.splitlines()[2:]:
        keys.update(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    return keys


def views_keys(name: str, rules: str | None = None, players: int | None = None) -> set[str]:
    """Every key any view (a player's, a spectator's, mid-game and at the end) has."""
    game = parlour.make(name, rules=rules, players=players)
    keys: set[str] = set()
    state = game.new_game(seed=1)
    rng = random.Random(1)
    while True:
        for p in (None, 0):
            keys |= set(state.view(p))
        if state.is_over:
            return keys - set(ENVELOPE)
        state.apply(rng.choice(state.legal_moves()))


def test_the_envelope_table_is_the_envelope() -> None:
    assert table_keys("## The view envelope") == set(ENVELOPE)


@pytest.mark.parametrize(
    ("heading", "games"),
    [
        ("### Whot!", [("whot", "nigerian", None)]),
        ("### Sorry!", [("sorry", "regular", None), ("sorry", "points", None)]),
        ("### Who's Who — Game No. 1", [("whoswho-tricks", None, 4)]),
        ("### Who's Who — Game No. 2", [("whoswho-books", None, 3)]),
    ],
)
def test_each_games_key_table_is_what_its_views_hold(
    heading: str, games: list[tuple[str, str | None, int | None]]
) -> None:
    seen: set[str] = set()
    for name, rules, players in games:
        seen |= views_keys(name, rules, players)
    assert table_keys(heading) == seen
