"""Rules are data: presets, `--set` overrides and house-rules files (DESIGN.md principle 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import parlour
from parlour.core import RulesError, option_table
from parlour.core.options import parse_assignments
from parlour.games.whot.rules import PRESETS, WhotRules


def test_every_option_names_its_source_and_meaning() -> None:
    for row in option_table(WhotRules):
        assert row.doc, row.name
        assert row.source, row.name


def test_keyword_options_override_the_preset() -> None:
    game = parlour.make("whot", players=4, rules="nigerian", deal=3)
    assert game.rules.deal == 3
    assert game.rules.powers == PRESETS["nigerian"].powers


def test_text_overrides_are_parsed_by_type() -> None:
    values = parse_assignments(
        [
            "deal=4",
            "pick_reverses=yes",
            "declarations=last card,check up",
            "powers=1:hold_on,7:pick_two",
        ]
    )
    game = parlour.make("whot", rules="storey-1935", **dict[str, Any](values))
    assert game.rules.deal == 4
    assert game.rules.pick_reverses is True
    assert game.rules.declarations == ("last card", "check up")
    assert game.rules.power_of == {1: "hold_on", 7: "pick_two"}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"dael": 5}, "unknown rule option 'dael'"),
        ({"deal": "many"}, "deal takes a whole number"),
        ({"straights": "diagonal"}, "choose from: off, same-symbol, any-symbol"),
        ({"powers": "6:hold_on"}, "no Whot! card has"),
        ({"deal": 99}, "between 1 and 20"),
        ({"pick_reverses": "perhaps"}, "true or false"),
    ],
)
def test_bad_options_say_what_is_wrong(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parlour.make("whot", **overrides)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError, match="storey-1935"):
        parlour.make("whot", rules="martian")


def test_too_many_cards_for_the_pack_is_refused() -> None:
    with pytest.raises(RulesError, match="packs=2"):
        parlour.make("whot", players=8, rules="storey-1935", deal=7, packs=1)
    assert parlour.make("whot", players=8, rules="storey-1935", deal=7, packs=2)


def test_house_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text('preset = "nigerian"\ndeal = 4\ndeclarations = ["last card"]\n')
    game = parlour.make("whot", rules=str(path))
    assert game.rules.deal == 4
    assert game.rules.declarations == ("last card",)
    assert game.rules.powers == PRESETS["nigerian"].powers
    # a keyword still wins over the file
    assert parlour.make("whot", rules=str(path), deal=6).rules.deal == 6


def test_house_rules_file_errors(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="does not exist"):
        parlour.make("whot", rules=str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("deal = = 4\n")
    with pytest.raises(RulesError, match="not valid TOML"):
        parlour.make("whot", rules=str(bad))


def test_player_count_is_checked() -> None:
    with pytest.raises(RulesError, match="2 to 17 players"):
        parlour.make("whot", players=1)


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(RulesError, match="whot"):
        parlour.make("chess")
