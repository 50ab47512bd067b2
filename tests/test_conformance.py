"""Every registered game, under every preset and several table sizes, passes the shared suite."""

from __future__ import annotations

import pytest

import parlour
from parlour.testing.conformance import CHECKS


def _cases() -> list[tuple[str, str, int]]:
    cases = []
    for name, gi in sorted(parlour.core.games().items()):
        sizes = sorted({gi.min_players, gi.default_players, gi.max_players})
        for preset in gi.presets:
            for n in sizes:
                cases.append((name, preset, n))
    return cases


CASES = _cases()


def test_there_are_games() -> None:
    assert "whot" in parlour.core.games()


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize(("name", "preset", "players"), CASES)
def test_conformance(name: str, preset: str, players: int, check: str) -> None:
    game = parlour.make(name, players=players, rules=preset)
    for seed in range(2):
        CHECKS[check](game, seed)
