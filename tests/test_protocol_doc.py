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
    ("heading", "typed"),
    [
        ("### Whot!", "parlour.games.whot.view:WhotView"),
        ("### Sorry!", "parlour.games.sorry.view:SorryView"),
        ("### Who's Who — Game No. 1", "parlour.games.whoswho.views:TricksView"),
        ("### Who's Who — Game No. 2", "parlour.games.whoswho.views:BooksView"),
    ],
)
def test_each_games_key_table_is_its_view_type(heading: str, typed: str) -> None:
    import importlib
    from typing import get_type_hints

    module, name = typed.split(":")
    view_type = getattr(importlib.import_module(module), name)
    assert view_type.__total__ is False and set(ENVELOPE) <= view_type.__required_keys__
    assert table_keys(heading) == set(get_type_hints(view_type)) - set(ENVELOPE)


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


# --- the messages: each table of messages here is what server/messages.py declares ---------------
def table_rows(section: str) -> list[list[str]]:
    """The cells of the first table under a heading (or a paragraph's bold lead-in)."""
    start = DOC.index(section)
    body = DOC[start:].split("\n\n|", 1)[1].split("\n\n", 1)[0]
    return [[c.strip() for c in row.strip("|").split("|")] for row in body.splitlines()[2:]]


def names(cell: str) -> list[str]:
    return re.findall(r"`([a-z_]+)`", cell)


def test_the_client_messages_table_is_what_the_server_reads() -> None:
    from parlour.server.messages import CLIENT_IN

    documented = {re.search(r'"type": "([a-z_]+)"', row[0]).group(1)  # type: ignore[union-attr]
                  for row in table_rows("## Client → server")}  # fmt: skip
    assert documented == {c.type for c in CLIENT_IN}


def test_every_server_message_is_documented_and_nothing_else() -> None:
    from typing import get_args, get_type_hints

    from parlour.server.messages import ClientOut

    out = DOC[DOC.index("## Server → client") : DOC.index("## Chat")]
    documented = set(re.findall(r"\*\*`([a-z_]+)`\*\*", out)) | {"pong"}  # pong: the ping row
    declared = {get_args(get_type_hints(t)["type"])[0] for t in get_args(ClientOut)}
    assert documented == declared


def test_the_view_messages_fields_are_what_the_server_sends() -> None:
    from typing import get_type_hints

    from parlour.server.messages import ViewOut

    # `patch` and `removed` are told in the `view` row: a patch's own keys
    documented = table_keys("**`view`**") | {"type", "patch", "removed"}
    assert documented == set(get_type_hints(ViewOut))


def test_the_versions_section_is_the_version_the_welcome_says() -> None:
    from parlour.server.messages import PROTOCOL

    versions = DOC[DOC.index("## Versions") : DOC.index("## The server's own messages")]
    assert re.findall(r'"protocol": (\d+)', versions) == [str(PROTOCOL)]
    rows = table_rows("## Versions")
    assert [int(r[0]) for r in rows] == list(range(PROTOCOL, 0, -1)), "newest first, each one"


def test_the_requests_table_is_what_the_workers_answer() -> None:
    from dataclasses import fields

    from parlour.server.messages import _ASKS

    rows = table_rows("**Requests**")
    assert {names(r[0])[0] for r in rows} == set(_ASKS)
    for request, fields_cell, answer_cell in rows:
        ask = _ASKS[names(request)[0]]
        assert names(fields_cell) == [f.name for f in fields(ask)], request
        answer, *answer_fields = names(answer_cell)
        assert answer == ask.answer.kind, request
        assert answer_fields == [f.name for f in fields(ask.answer)], request


def test_the_updates_table_is_what_a_tables_channel_carries() -> None:
    from dataclasses import fields

    from parlour.server.messages import UPDATES

    rows = table_rows("**Updates**")
    declared = {u.kind: [f.name for f in fields(u) if f.name != "table"] for u in UPDATES}
    assert {names(r[0])[0]: names(r[1]) for r in rows} == declared
