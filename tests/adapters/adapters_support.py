"""Shared helpers for the adapter tests: the games and tables they run over.

Under CI=true a missing toolkit fails the run instead of skipping (the `dev` extra installs them).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str) -> ModuleType:
    """Import a toolkit, or skip the test when it is absent — except under CI, where it fails."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            raise
        pytest.skip(f"{module} is not installed (pip install 'parlour[rl]')")


# (game, keyword arguments) covering every game, and every rule set that changes the action space.
TABLES: list[tuple[str, dict[str, object]]] = [
    ("whot", {"rules": "nigerian", "players": 4}),
    ("whot", {"rules": "english", "players": 3}),
    ("whot", {"rules": "storey-1935", "players": 2}),
    ("whot", {"rules": "knockout", "players": 5}),
    ("sorry", {"rules": "regular", "players": 4}),
    ("sorry", {"rules": "partnership", "players": 2}),
    ("sorry", {"rules": "points", "players": 3}),
    ("whoswho-tricks", {"players": 4}),
    ("whoswho-tricks", {"rules": "partnership", "players": 4}),
    ("whoswho-books", {"players": 3}),
]


def table_id(t: tuple[str, dict[str, object]]) -> str:
    name, kw = t
    return name + "-" + "-".join(str(v) for v in kw.values())
