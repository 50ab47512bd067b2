"""The Ray backend on a local Ray gives the same rows as local processes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from parlour.sim import SimSpec, run

if os.environ.get("CI"):
    import ray  # under CI the dev extra installs Ray: never skip there
else:
    ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_rows_equal_local_rows(local_ray: Any) -> None:
    spec = SimSpec(game="whot", players=2, bots=("hint", "random"), rules="storey-1935", seed=9)
    on_ray = run(spec, 10, jobs=2, backend="ray")
    local = run(spec, 10, jobs=1)
    assert on_ray.complete

    def strip(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert strip(on_ray.rows) == strip(local.rows)
