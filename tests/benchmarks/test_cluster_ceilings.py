"""benchmarks/server_cluster_load.py's ceilings: the most moves/s the CPU a move allows, which is
what the cluster benchmark's ratio of 2 workers to 1 is read against (issue 20: "explain what would
bound it on bigger machines")."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "server_cluster_load.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # it imports its sibling server_load
    spec = importlib.util.spec_from_file_location("server_cluster_load", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def cost(workers: float, others: float) -> dict[str, float]:
    """A move's CPU (ms): `others` shared by gateways, PostgreSQL, Redis and the generator."""
    return {
        "workers": workers,
        "gateways": others / 4,
        "postgres": others / 4,
        "redis": others / 4,
        "generator": others / 4,
    }


def test_when_only_the_workers_cost_two_workers_on_two_cores_take_twice_the_moves(
    bench: ModuleType,
) -> None:
    one = bench.ceilings(cost(2.0, 0.0), workers=1, gateways=1, cores=2)
    two = bench.ceilings(cost(2.0, 0.0), workers=2, gateways=2, cores=2)
    assert one["shared"] == pytest.approx(500)  # one worker is one thread: 1000 / 2 ms
    assert two["shared"] == pytest.approx(1000)  # two cores, 2 ms a move


def test_when_the_rest_costs_as_much_as_a_worker_two_cores_are_full_with_one_worker(
    bench: ModuleType,
) -> None:
    one = bench.ceilings(cost(2.0, 2.0), workers=1, gateways=1, cores=2)
    two = bench.ceilings(cost(2.0, 2.0), workers=2, gateways=2, cores=2)
    assert one["shared"] == pytest.approx(500)  # 4 ms a move on 2 cores = the worker's own bound
    assert two["shared"] == pytest.approx(500)  # a second worker has no core left to use
    assert two["a core each"] == pytest.approx(1000)  # it would with cores of its own


def test_the_busiest_single_threaded_process_bounds_a_core_each(bench: ModuleType) -> None:
    c = {"workers": 1.0, "gateways": 1.0, "postgres": 0.1, "redis": 0.1, "generator": 4.0}
    assert bench.ceilings(c, workers=4, gateways=4, cores=64)["a core each"] == pytest.approx(250)
