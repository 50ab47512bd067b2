"""The positions shown in docs/whoswho.md ("Positions") are real: each starts a game whose
`position()` gives it back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import parlour

DOC = Path(__file__).resolve().parents[3] / "docs" / "whoswho.md"


def examples() -> list[dict[str, object]]:
    text = DOC.read_text(encoding="utf-8")
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]


def test_the_documented_positions_round_trip() -> None:
    tricks, books = examples()
    state = parlour.make("whoswho-tricks", players=4).from_position(tricks, seed=1)
    back = state.position()
    assert len(back.pop("stock")) == 32  # left out of the example: the rest of the pack
    assert back == tricks
    assert [str(m) for m in state.legal_moves()] == ["play 3 brains"]
    state = parlour.make("whoswho-books", players=3).from_position(books, seed=1)
    assert state.position() == books
    assert state.legal_moves()[0] == parlour.make("whoswho-books", players=3).parse_move("thank")
