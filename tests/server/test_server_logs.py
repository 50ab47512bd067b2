"""The server's logs (server/logs.py): a JSON object a line for a log collector, or text for a
person, carrying what each line is about — table, seat, request id, role, worker — and a
failing loop's traceback said once, not once a round."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from server_testkit import Seat, client, move_texts, new_table

from parlour.core import Move
from parlour.server.logs import (
    Failures,
    bound_contextvars,
    configure_logging,
    set_process,
)


@pytest.fixture
def stderr_logs() -> Iterator[io.StringIO]:
    """A buffer for logging configured as `parlour serve` does (`configure(...)`); the test
    run's own handlers (and the process's fields) put back after."""
    buffer = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield buffer
    finally:
        for h in list(root.handlers):
            root.removeHandler(h)
        for h in handlers:
            root.addHandler(h)
        root.setLevel(level)
        set_process(role=None, worker=None, gateway=None)


def lines(buffer: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(x) for x in buffer.getvalue().splitlines() if x.strip()]


def test_a_json_line_carries_its_context_and_a_traceback_stays_in_its_line(
    stderr_logs: io.StringIO,
) -> None:
    assert configure_logging("info", "json", "worker", stderr_logs) == "json"  # not a terminal
    set_process(worker="host-12-abc")
    log = logging.getLogger("parlour.server")
    with bound_contextvars(table="ABCD", seat=1, request_id="gw-1-ff"):
        log.warning("table %s: storing failed", "ABCD")
    try:
        raise RuntimeError("the disk is full")
    except RuntimeError:
        log.exception("a round failed")
    log.debug("not shown at info")
    first, second = lines(stderr_logs)
    assert first["event"] == "table ABCD: storing failed" and first["level"] == "warning"
    assert (first["table"], first["seat"], first["request_id"]) == ("ABCD", 1, "gw-1-ff")
    assert (first["role"], first["worker"], first["logger"]) == ("worker", "host-12-abc",
                                                                 "parlour.server")  # fmt: skip
    assert first["timestamp"].endswith("Z")
    assert "table" not in second  # bound for the `with` only
    assert second["event"] == "a round failed"
    assert "Traceback" in second["exception"] and "the disk is full" in second["exception"]


def test_text_is_for_a_person(stderr_logs: io.StringIO) -> None:
    assert configure_logging("info", "text", "gateway", stderr_logs) == "text"
    with bound_contextvars(table="WXYZ"):
        logging.getLogger("parlour.server").warning("bus: Redis unreachable")
    text = stderr_logs.getvalue()
    assert "bus: Redis unreachable" in text and "table=WXYZ" in text and "{" not in text


def test_a_bad_format_or_level_is_refused(stderr_logs: io.StringIO) -> None:
    with pytest.raises(ValueError, match="log_format is auto, json or text"):
        configure_logging("info", "xml", stream=stderr_logs)
    with pytest.raises(ValueError, match="log_level is"):
        configure_logging("loud", "json", stream=stderr_logs)


def test_a_failing_loop_is_said_once_then_counted_then_said_to_work() -> None:
    said: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record)

    log = logging.getLogger("test.failures")
    log.addHandler(Keep())
    log.propagate = False
    failures = Failures(log, "worker w: _beat")
    for _ in range(50):
        failures.failed(ConnectionError("connection refused"))
    assert len(said) == 1 and said[0].exc_info is not None  # the traceback, once
    failures.since = time.monotonic() - 120  # a spell of two minutes: a line with the count
    failures._said -= 120
    failures.failed(ConnectionError("connection refused"))
    assert len(said) == 2 and said[1].exc_info is None and "51 times" in said[1].getMessage()
    failures.ok()
    assert "works again after 51 failures" in said[2].getMessage()
    failures.failed(ConnectionError("again"))  # a new spell: its first failure in full
    assert said[3].exc_info is not None


@pytest.mark.in_process("reads the log lines of the server in the test process")
def test_a_bots_failure_names_its_table_and_an_http_answer_names_its_request(
    sqlite_url: str, stderr_logs: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.bots import base

    class Broken(base.Bot):
        name = "broken"

        def choose(self, view: Mapping[str, Any], legal: list[Move]) -> Move:
            raise RuntimeError("a bug in a bot")

    monkeypatch.setitem(base._GENERIC, "broken", Broken)
    configure_logging("info", "json", "all", stderr_logs)
    with client(sqlite_url) as c:
        r = c.get("/api/games", headers={"X-Request-ID": "lb-7f3a"})
        assert r.headers["x-request-id"] == "lb-7f3a"  # the proxy's id, back
        mine = c.get("/api/games").headers["x-request-id"]
        assert len(mine) == 16 and mine != "lb-7f3a"  # a new one
        assert c.get("/api/games", headers={"X-Request-ID": "a b\x01"}).headers[
            "x-request-id"
        ] not in ("a b\x01", "")  # an id that is no id is replaced
        t = new_table(c, game="whot", players=2, name="Ada", bots={"1": "broken"})
        ada = Seat(c, t["code"], t["token"], 0)
        v = ada.until("view")
        while v["to_play"] != 1:
            ada.send({"type": "move", "move": move_texts(v)[-1], "ply": v["ply"]})
            v = ada.until("view", ply=v["ply"] + 1)
        ada.until("view", ply=v["ply"] + 1)  # the bot's forced move, played for it
        ada.close()
    failed = [x for x in lines(stderr_logs) if "failed" in x["event"] and "broken" in x["event"]]
    assert failed, "the bot's failure was not said"  # once each time it was asked
    assert failed[0]["table"] == t["code"] and failed[0]["role"] == "all"
    assert failed[0]["worker"] and failed[0]["gateway"]
    assert "a bug in a bot" in failed[0]["exception"]
    assert "request_id" not in failed[0] and "seat" not in failed[0]  # no request's
