"""The Redis bus between a cluster's processes, on a real redis-server."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import pytest

from parlour.server.bus import (
    RECONNECT_BASE,
    RECONNECT_CAP,
    SOCKET_TIMEOUT,
    BusDown,
    RedisBus,
)
from parlour.server.messages import BusMessage, ResultStored


def numbered(n: int) -> ResultStored:
    """A bus message that carries a number (a table's change `n`)."""
    return ResultStored("T", n)


def n_of(message: BusMessage) -> int:
    assert isinstance(message, ResultStored), message
    return message.seq


def test_a_burst_of_publishes_waits_for_connections_instead_of_failing(redis_server: Any) -> None:
    """Hundreds of websockets closing at once each tell the others who is still there: more
    publishes at a time than the bus has connections must wait their turn, not fail."""

    async def burst() -> list[int]:
        bus = RedisBus(redis_server.url)
        got: list[int] = []

        async def heard(channel: str, message: BusMessage) -> None:
            got.append(n_of(message))

        try:
            await bus.subscribe("table:BURST", heard)
            await asyncio.gather(*(bus.publish("table:BURST", numbered(n)) for n in range(500)))
            for _ in range(500):  # delivered within 10 s
                if len(got) == 500:
                    break
                await asyncio.sleep(0.02)
        finally:
            await bus.close()
        return got

    assert sorted(asyncio.run(burst())) == list(range(500))


async def _heard_within(got: list[Any], n: int, seconds: float) -> bool:
    for _ in range(int(seconds / 0.02)):
        if n in got:
            return True
        await asyncio.sleep(0.02)
    return n in got


def test_a_killed_redis_is_a_bus_down_and_every_channel_is_heard_again_once_it_is_back(
    own_redis: Any,
) -> None:
    """Redis killed and started again on its port: a publish meanwhile raises `BusDown` (not a
    client library's error), and once it is back the listener has subscribed again by itself —
    the channels it had, and one subscribed while Redis was down."""

    async def outage() -> tuple[list[int], list[int], bool]:
        bus = RedisBus(own_redis.url)
        old: list[int] = []
        new: list[int] = []

        async def heard_old(channel: str, message: BusMessage) -> None:
            old.append(n_of(message))

        async def heard_new(channel: str, message: BusMessage) -> None:
            new.append(n_of(message))

        try:
            await bus.subscribe("table:OLD", heard_old)
            await bus.publish("table:OLD", numbered(0))
            assert await _heard_within(old, 0, 5)
            own_redis.kill()
            raised = False
            try:
                await bus.publish("table:OLD", numbered(1))
            except BusDown:
                raised = True
            await bus.subscribe("table:NEW", heard_new)  # no error: subscribed when it is back
            await asyncio.sleep(1.0)
            own_redis.start()
            # what is published once Redis is back reaches both channels' handlers
            for n in range(2, 400):
                with contextlib.suppress(BusDown):  # it may take the bus a moment to notice
                    await bus.publish("table:OLD", numbered(n))
                    await bus.publish("table:NEW", numbered(n))
                if await _heard_within(old, n, 0.05) and await _heard_within(new, n, 0.05):
                    break
        finally:
            await bus.close()
        return old, new, raised

    old, new, raised = asyncio.run(outage())
    assert raised, "a publish with Redis down did not raise BusDown"
    assert old[0] == 0 and 1 not in old
    assert len(old) > 1 and len(new) > 0, (old, new)
    assert old[-1] == new[-1], "a channel was not subscribed again"


def test_a_publish_to_a_stalled_redis_fails_in_seconds_instead_of_hanging(own_redis: Any) -> None:
    """Redis stopped (SIGSTOP: its connections open, nothing answering): a publish gives up with
    `BusDown` after the socket's timeout, so that no table's lock and no person's move waits on
    it for ever; once Redis goes on, so does the bus."""

    async def stalled() -> tuple[float, list[int]]:
        bus = RedisBus(own_redis.url)
        got: list[int] = []

        async def heard(channel: str, message: BusMessage) -> None:
            got.append(n_of(message))

        try:
            await bus.subscribe("table:STALL", heard)
            await bus.publish("table:STALL", numbered(0))
            assert await _heard_within(got, 0, 5)
            own_redis.pause()
            began = time.monotonic()
            try:
                with pytest.raises(BusDown):
                    await asyncio.wait_for(bus.publish("table:STALL", numbered(1)), 60)
                took = time.monotonic() - began
            finally:
                own_redis.resume()
            for n in range(2, 200):
                with contextlib.suppress(BusDown):
                    await bus.publish("table:STALL", numbered(n))
                if await _heard_within(got, n, 0.05):
                    break
        finally:
            await bus.close()
        return took, got

    took, got = asyncio.run(stalled())
    print(f"a publish to a stalled Redis gave up after {took:.2f} s")
    assert took < SOCKET_TIMEOUT + 5, f"a publish to a stalled Redis took {took:.1f} s"
    assert got[-1] > 1, got


def test_the_listener_tries_again_after_jittered_exponential_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With Redis unreachable the listener tries again after redis-py's exponential backoff,
    jittered and capped — never a fixed step that keeps every process of a cluster knocking at
    the same moments when Redis comes back, even after many tries."""
    import socket

    import redis.asyncio.retry

    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:  # what the backoff asks for, without the wait
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(redis.asyncio.retry, "sleep", sleep)
    with socket.socket() as s:  # a port nothing listens on: every try is refused at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    async def main() -> None:
        bus = RedisBus(f"redis://127.0.0.1:{port}/0")

        async def heard(channel: str, message: BusMessage) -> None:
            pass

        try:
            await bus.subscribe("table:X", heard)
            while len(waits) < 40:
                await real_sleep(0.01)
        finally:
            await bus.close()

    asyncio.run(main())
    assert all(0 <= w <= RECONNECT_CAP for w in waits), waits
    for n, w in enumerate(waits[:4], start=1):  # the n-th wait: half to all of BASE * 2**n
        assert RECONNECT_BASE * 2**n / 2 <= w <= RECONNECT_BASE * 2**n, (n, w)
    assert all(w >= RECONNECT_CAP / 2 for w in waits[-20:]), waits  # grown to the cap's half
    assert len({round(w, 9) for w in waits[-20:]}) == 20, waits  # and jittered still
