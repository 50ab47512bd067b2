"""The Redis bus between a cluster's processes, on a real redis-server."""

from __future__ import annotations

import asyncio
from typing import Any

from parlour.server.bus import RedisBus


def test_a_burst_of_publishes_waits_for_connections_instead_of_failing(redis_server: Any) -> None:
    """Hundreds of websockets closing at once each tell the others who is still there: more
    publishes at a time than the bus has connections must wait their turn, not fail."""

    async def burst() -> list[int]:
        bus = RedisBus(redis_server.url)
        got: list[int] = []

        async def heard(channel: str, message: dict[str, Any]) -> None:
            got.append(message["n"])

        try:
            await bus.subscribe("table:BURST", heard)
            await asyncio.gather(*(bus.publish("table:BURST", {"n": n}) for n in range(500)))
            for _ in range(500):  # delivered within 10 s
                if len(got) == 500:
                    break
                await asyncio.sleep(0.02)
        finally:
            await bus.close()
        return got

    assert sorted(asyncio.run(burst())) == list(range(500))
