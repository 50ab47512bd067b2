"""The shared conformance suite under the options no preset sets (tests/test_conformance.py runs
it over the presets): each option of the rule-fidelity fixes, and several together."""

from __future__ import annotations

from typing import Any

import pytest

import parlour
from parlour.testing.conformance import CHECKS

DECLARATIONS = ("last card", "semi-last card", "check up")

# name: (preset, players, options)
TABLES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "pick_reverses": ("nigerian", 4, {"pick_reverses": True}),
    "pick_reverses at two": ("nigerian", 2, {"pick_reverses": True}),
    "declarations": ("nigerian", 3, {"declarations": DECLARATIONS}),
    "declarations, english": ("english", 3, {"declarations": DECLARATIONS}),
    "turn_powers each, double decking": (
        "nigerian",
        3,
        {"turn_powers": "each", "double_decking": "symbol"},
    ),
    "turn_powers each, straights": (
        "variant-suspension-3",
        4,
        {"turn_powers": "each", "straights": "same-symbol"},
    ),
    "straight_gaps": ("english", 3, {"straight_gaps": True}),
    "straight_gaps, any symbol": (
        "knockout",
        2,
        {"straight_gaps": True, "straights": "any-symbol"},
    ),
    "nothing_to_draw pass": ("nigerian", 3, {"nothing_to_draw": "pass"}),
    "nothing_to_draw pass, storey": ("storey-1935", 4, {"nothing_to_draw": "pass"}),
    "star_doubling": ("english", 3, {"star_doubling": True}),
    "star_doubling, nigerian": ("nigerian", 2, {"star_doubling": True}),
    "empty_pack end": ("nigerian", 3, {"empty_pack": "end"}),
    "empty_pack end, two packs": ("nigerian", 6, {"empty_pack": "end", "deal": 12}),
    "packs 1 at eight": ("nigerian", 8, {"packs": 1}),
    "packs 2 at two": ("storey-1935", 2, {"packs": 2}),
    "two_packs_from": ("nigerian", 5, {"two_packs_from": 6}),
    "seventeen players": ("nigerian", 17, {"deal": 3}),
    "together": (
        "nigerian",
        4,
        {
            "pick_reverses": True,
            "declarations": DECLARATIONS,
            "turn_powers": "each",
            "double_decking": "number",
            "star_doubling": True,
            "straight_gaps": True,
        },
    ),
}


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("table", sorted(TABLES))
def test_conformance_under_the_options(table: str, check: str) -> None:
    preset, players, options = TABLES[table]
    game = parlour.make("whot", players=players, rules=preset, **options)
    for seed in range(2):
        CHECKS[check](game, seed)
