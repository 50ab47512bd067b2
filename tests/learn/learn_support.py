"""Shared helpers for the tests of the learned players (`parlour.learn`, games/whot/learned).

Under CI=true a missing NumPy or JAX fails the run instead of skipping (`make test` installs the
`train` extra), as in tests/vector.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str) -> ModuleType:
    """Import a dependency of the `train` extra, or skip the test when it is absent — except
    under CI, where it fails."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            raise
        pytest.skip(f"{module} is not installed (pip install 'parlour[train]')")
