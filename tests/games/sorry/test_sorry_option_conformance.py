"""The shared conformance suite over Sorry! rule options that no preset sets: the readings of the
point-score game (point_two_again, point_eleven_decline) and colours the players chose, so every
option plays, copies, saves, replays, hides and sets up positions as the protocol promises."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

import parlour
from parlour.games.sorry.rules import PRESETS
from parlour.testing.conformance import CHECKS

OPTION_SETS: list[tuple[int, str, dict[str, Any]]] = [
    (2, "regular", {"colours": "blue,green"}),
    (2, "regular", {"colours": "green,red", "two_draws_again_always": False}),
    (3, "regular", {"colours": "green,yellow,red"}),
    (4, "regular", {"colours": "green,yellow,blue,red"}),
    (4, "points", {"point_two_again": False}),
    (4, "points", {"point_eleven_decline": "forfeit"}),
    (3, "points", {"colours": "yellow,green,blue", "point_two_again": False}),
    (2, "points", {"colours": "green,red", "point_eleven_decline": "forfeit"}),
    (4, "points", {"point_eleven_decline": "forfeit", "eleven_change_optional": False}),
]


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize(
    ("players", "preset", "options"),
    OPTION_SETS,
    ids=[f"{n}-{p}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for n, p, o in OPTION_SETS],
)
def test_conformance_of_options_in_no_preset(
    players: int, preset: str, options: dict[str, Any], check: str
) -> None:
    game = parlour.make("sorry", players=players, rules=preset, **options)
    assert game.rules not in PRESETS.values()
    for seed in range(2):
        CHECKS[check](game, seed)


def test_parlour_rules_lists_the_new_options_with_their_source() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "parlour.cli", "rules", "sorry", "--rules", "points",
         "--set", "colours=green,red,blue,yellow"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "400"},
        check=False,
    )  # fmt: skip
    text = out.stdout
    assert out.returncode == 0, out.stdout + out.stderr
    for name, value, source in [
        ("colours", "green, red, blue, yellow", 'seed 003 rule 2: "Each player chooses a colour'),
        ("point_two_again", "True", 'rule 2: "Next he draws a card from the pack into his hand.'),
        ("point_eleven_decline", "free", "A player forfeits his chance to play if unable to use"),
    ]:
        line = next(x for x in text.splitlines() if f" {name} " in x)
        assert value in line, line
        assert source in text, source
    assert "choices: free, forfeit" in text and "choices: red, blue, yellow, green" in text


def test_parlour_rules_checks_colours_for_the_number_of_players() -> None:
    def rules(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "parlour.cli", "rules", "sorry", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "COLUMNS": "400"},
            check=False,
        )

    two = rules("--players", "2", "--set", "colours=green,red")
    assert two.returncode == 0 and "green, red" in two.stdout
    four = rules("--set", "colours=green,red")  # the default table has 4 players
    assert four.returncode == 2 and "4 colours are needed, not 2" in four.stdout
