"""Shared helpers for the tests of `parlour.vector` and Whot!'s batched engine.

Under CI=true a missing NumPy or Gymnasium fails the run instead of skipping (the `dev` extra
installs both), as in tests/adapters.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str) -> ModuleType:
    """Import a dependency of the `vector` extra, or skip the test when it is absent — except
    under CI, where it fails."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            raise
        pytest.skip(f"{module} is not installed (pip install parlour[vector])")
