"""What a server process measures, in Prometheus's text at `/metrics` (`prometheus_client`).

Each process — `all`, a gateway, a table worker — has its own registry and answers for itself on
its own port: no multi-process directory, and every gauge may read live objects. Prometheus
scrapes each process (docs/deploy.md, "Metrics"); sums over a cluster are PromQL's.

- `parlour_moves_total{game}`: moves stored and played, bots' and people's (a table's owner)
- `parlour_move_seconds{game}`: a person's move from its request to the owner's answer —
  stored, played and told (a gateway)
- `parlour_tables{state}`: a worker's tables (`owned`), a gateway's replicas (`watched`)
- `parlour_websockets`: a gateway's open websockets
- `parlour_bot_think_seconds{game,bot}`: a bot's decision, from asked to chosen (a search's
  wait for a place in the pool too)
- `parlour_db_commit_seconds`, `parlour_db_commit_moves`: each group commit of moves, its time
  and its moves
- `parlour_bus_round_trip_seconds`: a probe to this process's own channel and back through the
  bus, every 5 s
- `parlour_rate_limited_total{route}`: refusals for going too fast (429) by route (`/ws/{code}`
  for a websocket's messages)
- `parlour_http_request_seconds{route,method}`: HTTP requests by their route's template
- `parlour_event_loop_lag_seconds`: how late the event loop wakes a sleeper
- `parlour_worker_heartbeat_age_seconds`: since a worker last stored its heartbeat
- `parlour_process_info{role,id}`: which process this is

Plus the process's own CPU, memory and garbage collections (prometheus_client's collectors).
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

__all__ = [
    "BOT_THINK",
    "BUS_ROUND_TRIP",
    "CONTENT_TYPE_LATEST",
    "DB_COMMIT",
    "DB_COMMIT_MOVES",
    "HTTP_SECONDS",
    "LOOP_LAG",
    "MOVES",
    "MOVE_SECONDS",
    "RATE_LIMITED",
    "REGISTRY",
    "WEBSOCKETS",
    "exposition",
    "watch",
]

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

# a move's time: most are milliseconds; a loaded server, a failing-over table, seconds
LATENCY = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter("parlour_moves", "Moves stored and played, by game", ["game"], registry=REGISTRY)
MOVE_SECONDS = Histogram(
    "parlour_move_seconds",
    "A person's move from its request to the owner's answer (stored, played, told), by game",
    ["game"],
    buckets=LATENCY,
    registry=REGISTRY,
)
WEBSOCKETS = Gauge("parlour_websockets", "Open websockets", registry=REGISTRY)
BOT_THINK = Histogram(
    "parlour_bot_think_seconds",
    "A bot's decision, from asked to chosen, by game and bot kind",
    ["game", "bot"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
DB_COMMIT = Histogram(
    "parlour_db_commit_seconds",
    "One group commit of moves (one transaction, every move waiting for it)",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
    registry=REGISTRY,
)
DB_COMMIT_MOVES = Histogram(
    "parlour_db_commit_moves",
    "Moves in one group commit",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
    registry=REGISTRY,
)
BUS_ROUND_TRIP = Histogram(
    "parlour_bus_round_trip_seconds",
    "A probe message to this process's own channel and back through the bus",
    buckets=(0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0, 2.0),
    registry=REGISTRY,
)
RATE_LIMITED = Counter(
    "parlour_rate_limited",
    "Requests refused for coming too fast (429), by route",
    ["route"],
    registry=REGISTRY,
)
HTTP_SECONDS = Histogram(
    "parlour_http_request_seconds",
    "HTTP requests by route template and method (websockets not included)",
    ["route", "method"],
    buckets=LATENCY,
    registry=REGISTRY,
)
LOOP_LAG = Gauge(
    "parlour_event_loop_lag_seconds",
    "How late the event loop last woke a sleeper (measured every half second)",
    registry=REGISTRY,
)


class _Live(Collector):
    """Gauges read from the live parts of this process when scraped: nothing to keep in step."""

    def __init__(self) -> None:
        self.workers: weakref.WeakSet[Any] = weakref.WeakSet()
        self.gateways: weakref.WeakSet[Any] = weakref.WeakSet()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = GaugeMetricFamily(
            "parlour_tables",
            "Tables this process holds: owned (a worker's) or watched (a gateway's replicas)",
            labels=["state"],
        )
        tables.add_metric(["owned"], sum(len(w.tables) for w in list(self.workers)))
        tables.add_metric(["watched"], sum(len(g.replicas) for g in list(self.gateways)))
        yield tables
        age = GaugeMetricFamily(
            "parlour_worker_heartbeat_age_seconds",
            "Seconds since this process's table worker last stored its heartbeat",
        )
        now = time.monotonic()
        for w in list(self.workers):
            beat = getattr(w, "last_beat", None)
            if beat is not None:
                age.add_metric([], now - beat)
        yield age
        info = GaugeMetricFamily(
            "parlour_process_info", "This process: its role and id", labels=["role", "id"]
        )
        for w in list(self.workers):
            info.add_metric(["worker", str(w.id)], 1)
        for g in list(self.gateways):
            info.add_metric(["gateway", str(g.id)], 1)
        yield info


_LIVE = _Live()
REGISTRY.register(_LIVE)


def watch(worker: Any = None, gateway: Any = None) -> None:
    """Count a worker's tables and a gateway's replicas from now on (for as long as they live)."""
    if worker is not None:
        _LIVE.workers.add(worker)
    if gateway is not None:
        _LIVE.gateways.add(gateway)


def forget(worker: Any = None, gateway: Any = None) -> None:
    if worker is not None:
        _LIVE.workers.discard(worker)
    if gateway is not None:
        _LIVE.gateways.discard(gateway)


def exposition() -> bytes:
    """The registry in Prometheus's text format."""
    return generate_latest(REGISTRY)
