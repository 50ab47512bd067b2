"""The browser tutorials are the engine's own messages: each file in a game's web folder is what
tools/make_tutorials.py builds now (run it after a change of rules, views or words)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> object:
    spec = importlib.util.spec_from_file_location(
        "make_tutorials", ROOT / "tools" / "make_tutorials.py"
    )
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_tutorials"] = mod
    spec.loader.exec_module(mod)
    return mod


TOOL = _tool()


@pytest.mark.parametrize("game", sorted(TOOL.TUTORIALS))  # type: ignore[attr-defined]
def test_the_tutorial_file_is_up_to_date(game: str) -> None:
    path = ROOT / "src" / "parlour" / "games" / game / "web" / "tutorial.json"
    assert path.read_text(encoding="utf-8") == TOOL.text(game), (  # type: ignore[attr-defined]
        f"{path} is stale: run python tools/make_tutorials.py"
    )


@pytest.mark.parametrize("game", sorted(TOOL.TUTORIALS))  # type: ignore[attr-defined]
def test_each_step_expects_a_legal_move_and_says_what_to_do(game: str) -> None:
    tut = json.loads(TOOL.text(game))  # type: ignore[attr-defined]
    assert 3 <= len(tut["steps"]) <= 8  # short
    for step in tut["steps"]:
        assert step["expect"] in [m["text"] for m in step["before"]["moves"]]
        assert step["say"] and step["wrong"] and step["done"]
        assert step["after"][0]["events"], "the learner's move makes something happen"
