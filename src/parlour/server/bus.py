"""The bus between gateways and table workers: publish typed messages on named channels.

Two kinds, one interface: `LocalBus` connects the parts of one process (`make serve`), `RedisBus`
the processes of a cluster through Redis pub/sub (redis-py's asyncio client). Pub/sub delivers at
most once, to whoever is listening at that moment: the bus is **never trusted for correctness**.
Every table update carries the table's change number (`seq`), so a gap shows; requests time out
and are retried; and gateways compare their tables' numbers with the database now and then — the
database is the one source of truth, the bus only makes things fast.

When Redis stops, `publish` raises `BusDown` rather than a client library's error: a request's
sender asks again or answers `busy`; an update's sender (`tell`) carries on, for the database has
the change and the replicas read it there. The listener reconnects by itself and subscribes every
channel again once Redis is back.

Channels: `table:<code>` (a table's updates and presence, to every gateway watching it),
`worker:<id>` (requests to the worker that owns a table), `gateway:<id>` (replies), `quick` (quick
match). What each carries is `messages.BusMessage`: inside one process the objects themselves,
through Redis their JSON (`to_json`, read back by `messages.decode`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from .messages import BusMessage, decode

__all__ = ["Bus", "BusDown", "Handler", "LocalBus", "LossyBus", "RedisBus", "make_bus", "tell"]

log = logging.getLogger("parlour.server")

Handler = Callable[[str, BusMessage], Awaitable[None]]

PUBLISH_CONNECTIONS = 32  # connections to Redis a process publishes on at once, at most
# a stalled Redis (stopped, or a network that drops packets) fails a publish after this long
# instead of holding its caller (a table's lock, a person's move) until it wakes
SOCKET_TIMEOUT = 5.0
CONNECT_TIMEOUT = 2.0
# the listener's tries to subscribe again after a failure wait redis-py's exponential backoff
# with "equal" jitter: between half of and all of min(CAP, BASE * 2**n) seconds before the n-th
# try. Many processes whose Redis comes back do not all knock at once (a fixed wait kept them in
# step), and each is subscribed again within CAP of Redis being back (~0.2 s on average).
# redis-py's ExponentialWithJitterBackoff was tried first: its min(CAP, random * BASE * 2**n)
# is CAP itself once BASE * 2**n is well past CAP — from the 6th try on every wait was exactly
# 0.5 s, in step again (tests/server/test_server_bus.py)
RECONNECT_BASE = 0.02
RECONNECT_CAP = 0.5
# after a publish failed, the next ones fail at once for this long; then one tries again while the
# others go on failing at once (a success, or the listener's reconnecting, ends it): a hung Redis
# costs one publish its timeout now and then, not every table's move and every request its own
PROBE_EVERY = 1.0


class BusDown(Exception):
    """The bus cannot be reached (Redis stopped or unreachable): the message may not have been
    sent. Nothing is lost by it: the database holds every change."""


async def tell(bus: Bus, channel: str, message: BusMessage) -> bool:
    """Publish a message whose loss the receivers make good from the database (a table's update,
    a prompt to look): a bus that is down is no failure of the sender. Whether it went out."""
    try:
        await bus.publish(channel, message)
    except BusDown:
        return False
    return True


class Bus(Protocol):
    """Publish to a channel; handle what arrives on the channels subscribed to."""

    async def publish(self, channel: str, message: BusMessage) -> None: ...

    async def subscribe(self, channel: str, handler: Handler) -> None: ...

    async def unsubscribe(self, channel: str, handler: Handler) -> None: ...

    async def close(self) -> None: ...

    async def round_trip(self, timeout: float) -> float:
        """Seconds for a message to this process and back (BusDown: none came in `timeout`)."""
        ...


class LocalBus:
    """The bus inside one process: each message goes to every handler of its channel, through a
    queue per handler so that a slow handler holds up no publisher."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[_Inbox]] = defaultdict(list)

    async def publish(self, channel: str, message: BusMessage) -> None:
        for inbox in self._handlers.get(channel, ()):
            inbox.put(channel, message)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        self._handlers[channel].append(_Inbox(handler))

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        inboxes = self._handlers.get(channel, [])
        for inbox in [i for i in inboxes if i.handler == handler]:
            inbox.stop()
            inboxes.remove(inbox)
        if not inboxes:
            self._handlers.pop(channel, None)

    async def close(self) -> None:
        for inboxes in self._handlers.values():
            for inbox in inboxes:
                inbox.stop()
        self._handlers.clear()

    async def round_trip(self, timeout: float) -> float:
        """Inside one process a message is a queue's hop: one turn of the event loop."""
        start = time.perf_counter()
        await asyncio.sleep(0)
        return time.perf_counter() - start


class _Inbox:
    """One handler's queue, drained by its own task in order."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.queue: asyncio.Queue[tuple[str, BusMessage]] = asyncio.Queue()
        self.task = asyncio.ensure_future(self._run())

    def put(self, channel: str, message: BusMessage) -> None:
        self.queue.put_nowait((channel, message))

    async def _run(self) -> None:
        while True:
            channel, message = await self.queue.get()
            try:
                await self.handler(channel, message)
            except Exception:  # one bad message must not stop the channel
                log.exception("bus handler failed on %s", channel)

    def stop(self) -> None:
        self.task.cancel()


class RedisBus:
    """The bus through Redis pub/sub: one connection publishes, one listens to every channel this
    process subscribed to; messages are JSON text."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import EqualJitterBackoff
        from redis.exceptions import RedisError

        self.url = url
        # a burst of publishes (hundreds of websockets closing at once, each telling who is
        # left) waits for one of these connections rather than failing "Too many connections"
        pool = redis.BlockingConnectionPool.from_url(
            url,
            max_connections=PUBLISH_CONNECTIONS,
            timeout=None,
            decode_responses=True,
            socket_timeout=SOCKET_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
        )
        self._redis = redis.Redis(connection_pool=pool)
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._handlers: dict[str, list[_Inbox]] = defaultdict(list)
        self._listener: asyncio.Task[None] | None = None
        self._errors: tuple[type[BaseException], ...] = (RedisError, OSError)
        self._retry = Retry(
            EqualJitterBackoff(cap=RECONNECT_CAP, base=RECONNECT_BASE),
            retries=-1,  # until Redis is back: the bus never gives up
            supported_errors=(RedisError, OSError),  # type: ignore[arg-type]
        )
        # subscriptions may be missing (a failure since the last whole subscribe): the listener
        # subscribes every channel again; `_failures` counts failures, so that one during that
        # subscribe (a channel added meanwhile, not subscribed) keeps it missing
        self._missing = False
        self._failures = 0
        self.down_since: float | None = None  # monotonic: when Redis was first found unreachable
        self._quiet_until = 0.0  # monotonic: publishes fail at once until then
        # this process's own probe channel: a message there and back is the bus's round trip
        self._probe_channel = f"probe:{secrets.token_hex(8)}"
        self._probes: dict[str, asyncio.Future[None]] = {}

    def _down(self, exc: BaseException) -> None:
        self._failures += 1
        if self.down_since is None:
            self.down_since = time.monotonic()
            log.warning("bus: Redis unreachable (%s): updates wait for the database", exc)

    def _up(self) -> None:
        self._quiet_until = 0.0
        if self.down_since is not None:
            log.warning("bus: Redis is back after %.1f s", time.monotonic() - self.down_since)
            self.down_since = None

    async def publish(self, channel: str, message: BusMessage) -> None:
        now = time.monotonic()
        if now < self._quiet_until:
            raise BusDown("Redis was unreachable a moment ago")
        if self.down_since is not None:  # this one tries: the others fail at once meanwhile
            self._quiet_until = now + SOCKET_TIMEOUT + PROBE_EVERY
        try:
            text = json.dumps(message.to_json(), separators=(",", ":"))
            await self._redis.publish(channel, text)
        except self._errors as exc:
            self._down(exc)
            self._quiet_until = time.monotonic() + PROBE_EVERY
            raise BusDown(str(exc) or type(exc).__name__) from None
        self._quiet_until = 0.0
        if self.down_since is not None and not self._missing:
            self._up()

    async def subscribe(self, channel: str, handler: Handler) -> None:
        first = channel not in self._handlers
        self._handlers[channel].append(_Inbox(handler))
        if first:
            try:
                await self._pubsub.subscribe(channel)
            except self._errors as exc:  # subscribed by the listener when Redis is back
                self._down(exc)
                self._missing = True
        if self._listener is None:
            self._listener = asyncio.ensure_future(self._listen())

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        inboxes = self._handlers.get(channel, [])
        for inbox in [i for i in inboxes if i.handler == handler]:
            inbox.stop()
            inboxes.remove(inbox)
        if not inboxes and channel in self._handlers:
            del self._handlers[channel]
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def _resubscribe(self) -> None:
        """Subscribe every channel with a handler, and no other (one let go of while Redis was
        down is still in the client's list: it would be subscribed again on every reconnect)."""
        failures = self._failures
        extra = [c for c in list(self._pubsub.channels) if _text(c) not in self._handlers]
        if extra:
            await self._pubsub.unsubscribe(*extra)
        if self._handlers:
            await self._pubsub.subscribe(*self._handlers)
        if self._failures == failures:
            self._missing = False
            self._up()

    async def _next(self) -> Any:
        """One step of listening: subscribe again what is missing, or the next message."""
        try:
            return await self._step()
        except RuntimeError as exc:
            if "closed" not in str(exc):
                raise
            # uvloop's words when Redis drops the connection while redis-py reconnects (its
            # HELLO written to a transport just closed): a lost connection, tried again as one
            from redis.exceptions import ConnectionError as Lost

            raise Lost(f"the connection closed while reconnecting: {exc}") from None

    async def _step(self) -> Any:
        if self._missing:
            await self._resubscribe()
            return None
        if not self._handlers:
            await asyncio.sleep(0.05)
            return None
        return await self._pubsub.get_message(timeout=1.0)

    async def _failed(self, exc: Exception) -> None:
        self._down(exc)
        self._missing = True

    async def _listen(self) -> None:
        while True:
            try:
                # Redis went away: each step is tried again until it is back, the waits between
                # tries growing with jitter (the backoff starts afresh with each step)
                item = await self._retry.call_with_retry(self._next, self._failed)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # not Redis's: a bug, said, and listening goes on
                log.exception("bus: listening failed")
                await self._failed(exc)
                await asyncio.sleep(RECONNECT_CAP)
                continue
            if item is not None and self.down_since is not None:
                self._up()
            if item is None or item.get("type") != "message":
                continue
            channel = item["channel"]
            if channel == self._probe_channel:  # a probe back: no bus message
                probe = self._probes.get(item["data"])
                if probe is not None and not probe.done():
                    probe.set_result(None)
                continue
            try:
                message = decode(json.loads(item["data"]))
            except (TypeError, ValueError) as exc:  # BadMessage: another version's, say
                log.warning("bus: a message on %s is not read: %s", channel, exc)
                continue
            for inbox in self._handlers.get(channel, ()):
                inbox.put(channel, message)

    async def round_trip(self, timeout: float) -> float:
        """A probe published to this process's own channel and heard back by the listener: the
        bus as every message meets it (both connections, Redis, the listener's turn)."""
        channel = self._probe_channel
        if channel not in self._handlers:
            self._handlers[channel] = []  # kept subscribed through reconnects like any channel
            try:
                await self._pubsub.subscribe(channel)
            except self._errors as exc:
                self._down(exc)
                self._missing = True
            if self._listener is None:
                self._listener = asyncio.ensure_future(self._listen())
        token = secrets.token_hex(6)
        heard: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._probes[token] = heard
        start = time.perf_counter()
        try:
            async with asyncio.timeout(timeout):
                await self._redis.publish(channel, token)
                await heard
        except TimeoutError:
            raise BusDown(f"no probe came back through Redis in {timeout:g} s") from None
        except self._errors as exc:
            raise BusDown(str(exc) or type(exc).__name__) from None
        finally:
            self._probes.pop(token, None)
        return time.perf_counter() - start

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
        for inboxes in self._handlers.values():
            for inbox in inboxes:
                inbox.stop()
        self._handlers.clear()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        with contextlib.suppress(Exception):
            await self._redis.aclose(close_connection_pool=True)  # the pool is ours to close


class LossyBus:
    """A bus that loses a share of what is published (for tests: the bus is never trusted)."""

    def __init__(self, bus: Bus, drop: float, seed: int = 0) -> None:
        self.bus, self.drop = bus, drop
        self.rng = random.Random(seed)
        self.dropped = 0

    async def publish(self, channel: str, message: BusMessage) -> None:
        if self.rng.random() < self.drop:
            self.dropped += 1
            return
        await self.bus.publish(channel, message)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        await self.bus.subscribe(channel, handler)

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        await self.bus.unsubscribe(channel, handler)

    async def close(self) -> None:
        await self.bus.close()

    async def round_trip(self, timeout: float) -> float:
        return await self.bus.round_trip(timeout)


def _text(channel: str | bytes) -> str:
    return channel.decode() if isinstance(channel, bytes) else channel


def make_bus(url: str | None, drop: float = 0.0) -> Bus:
    """The bus a URL names: `redis://…` or none (one process)."""
    bus: Bus = LocalBus() if not url else RedisBus(url)
    return LossyBus(bus, drop) if drop > 0 else bus
