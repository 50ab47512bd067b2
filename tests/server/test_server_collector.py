"""The serving process's garbage collection (server/collector.py): the old heap is frozen out of
routine passes, and a full pass still reclaims cycles among frozen objects."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from parlour.server.collector import FreezingCollector
from parlour.server.settings import Settings


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_tick_moves_the_live_heap_out_of_routine_passes() -> None:
    policy = FreezingCollector()
    policy.full_pass()
    kept = [Node() for _ in range(1000)]
    policy.tick(check=False)
    assert gc.get_freeze_count() >= len(kept)
    assert all(not any(o is k for o in gc.get_objects(2)) for k in kept[:5])


def test_a_cycle_frozen_while_alive_survives_routine_passes_but_not_a_full_one() -> None:
    policy = FreezingCollector()
    policy.full_pass()
    ref = cycle()
    policy.tick(check=False)  # frozen while it was still referenced by nothing but itself
    gc.collect()
    assert ref() is not None, "a routine pass must not walk the frozen heap"
    policy.full_pass()
    assert ref() is None, "the full pass reclaims cycles among frozen objects"


def test_a_full_pass_comes_once_memory_has_grown_by_the_set_share_or_after_the_longest_wait() -> (
    None
):
    memory = [100]
    policy = FreezingCollector(grow=3.0, full_every=1e9, memory=lambda: memory[0])
    policy.full_pass()
    memory[0] = 350
    assert policy.tick() == "freeze"
    memory[0] = 401  # more than four times what it was after the last full pass
    assert policy.tick() == "full"
    assert policy.tick() == "freeze"  # measured again from there
    hourly = FreezingCollector(full_every=0.0, memory=lambda: 100)
    hourly.full_pass()
    assert hourly.tick() == "full"
    assert hourly.tick(check=False) == "freeze"  # between checks it only freezes


def test_reference_counting_still_frees_frozen_objects() -> None:
    policy = FreezingCollector()
    policy.full_pass()
    node = Node()
    ref = weakref.ref(node)
    policy.tick(check=False)
    del node
    assert ref() is None


def test_the_policy_runs_as_a_task_and_thaws_the_heap_when_stopped() -> None:
    async def run() -> int:
        task = asyncio.create_task(FreezingCollector(freeze_every=0.01).run())
        await asyncio.sleep(0.05)
        frozen = gc.get_freeze_count()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return frozen

    assert asyncio.run(run()) > 0
    assert gc.get_freeze_count() == 0


def test_only_the_serve_command_turns_it_on() -> None:
    from parlour.cli import _add_plugins, build_parser
    from parlour.server.cli import settings_from

    parser = build_parser()
    _add_plugins(parser)
    assert Settings().freeze_gc is False  # an app made by create_app leaves the process alone
    assert settings_from(parser.parse_args(["serve"])).freeze_gc is True
    off = parser.parse_args(["serve", "--setting", "freeze_gc=false"])
    assert settings_from(off).freeze_gc is False
