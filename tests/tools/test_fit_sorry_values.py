"""tools/fit_sorry_values.py: the fit that writes Sorry!'s learned place values (values.py).

The fit is a conditional logit; on positions whose winners are drawn from known values it must
find those values again, and the module it writes must hold exactly what it fitted.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fit_sorry_values.py"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_sorry_values", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def synthetic(tool: ModuleType, truth: np.ndarray, n: int, seed: int) -> Any:
    """n positions with pawns on random places and winners drawn from the true model."""
    rng = np.random.default_rng(seed)
    place = rng.integers(0, tool.PLACES, size=(n, 4, 4))
    mover = rng.integers(0, 4, size=n)
    pos = tool.Positions(place, mover, np.zeros(n, dtype=np.int64))
    u, _ = tool.utilities(truth, pos)
    p = np.exp(u - u.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    pos.winner = (rng.random(n)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    return pos


def test_the_fit_finds_the_values_the_winners_were_drawn_from(tool: ModuleType) -> None:
    places = np.arange(tool.PLACES)
    truth = np.concatenate([(places / 66.0) ** 2 * 2.0, [-0.1, -0.2, -0.3]])
    truth[0] = 0.0  # START is the reference
    theta = tool.fit(synthetic(tool, truth, 60_000, seed=1), smooth=0.0)
    assert np.abs(theta[: tool.PLACES] - truth[: tool.PLACES]).max() < 0.15
    assert np.abs(theta[tool.PLACES :] - truth[tool.PLACES :]).max() < 0.05
    held_out = synthetic(tool, truth, 20_000, seed=2)
    assert tool.log_loss(theta, held_out) < tool.log_loss(truth, held_out) + 0.005
    assert tool.log_loss(theta, held_out) < np.log(4) - 0.1


def test_the_gradient_is_the_slope_of_the_objective(tool: ModuleType) -> None:
    rng = np.random.default_rng(3)
    pos = synthetic(tool, rng.normal(0, 0.5, tool.PLACES + tool.TURNS), 2_000, seed=4)
    theta = rng.normal(0, 0.3, tool.PLACES + tool.TURNS)
    _, grad = tool.objective(theta, pos, 0.5)
    for i in (0, 1, 30, 61, 66, 67, 69):
        step = np.zeros_like(theta)
        step[i] = 1e-6
        slope = (
            tool.objective(theta + step, pos, 0.5)[0] - tool.objective(theta - step, pos, 0.5)[0]
        ) / 2e-6
        assert slope == pytest.approx(grad[i], abs=1e-6)


def test_a_small_run_writes_a_module_holding_what_it_fitted(
    tool: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "values.py"
    assert tool.main(["--games", "30", "--test-games", "10", "--jobs", "1", "--out", str(out)]) == 0
    namespace: dict[str, object] = {}
    exec(out.read_text(), namespace)
    values, turns = namespace["PLACE_VALUE"], namespace["TURN_ORDER"]
    assert isinstance(values, tuple) and len(values) == tool.PLACES
    assert isinstance(turns, tuple) and len(turns) == 4 and turns[0] == 0.0
    assert values[0] == 0.0  # START, the reference
    assert "30 hint-vs-hint 4-player games" in " ".join(out.read_text().split())
    assert "held-out" in capsys.readouterr().out
