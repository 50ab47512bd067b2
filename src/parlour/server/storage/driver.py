"""Statements of the hot path (a move stored behind its table's fence) compiled once for the
database's dialect and handed to its driver as they are.

SQLAlchemy's `Connection.execute` looks a statement up in its compiled cache, then builds an
execution context that processes every parameter: for the two small statements a move is stored
with, that was two thirds of storing it on SQLite (120 µs a move; 40 µs through the driver alone,
71 µs through `exec_driver_sql`; docs/lab/server-load.md). The
statement is still SQLAlchemy's — written once in `schema`'s terms, compiled by the dialect —
only the per-call work is skipped (the conversions a column's type makes on the way in are
still made).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection, CursorResult, Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

__all__ = ["DriverStatement"]


class DriverStatement:
    """A statement run through the driver with `exec_driver_sql`, compiled once a dialect."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, str, str], _Compiled] = {}

    def execute(
        self, conn: Connection, params: Mapping[str, Any] | Sequence[Mapping[str, Any]]
    ) -> CursorResult[Any]:
        """Run it with one set of parameters (a mapping) or many (a sequence of mappings)."""
        dialect = conn.dialect
        key = (dialect.name, dialect.driver, dialect.paramstyle)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = _Compiled(self.statement, dialect)
        if isinstance(params, Mapping):
            return conn.exec_driver_sql(compiled.sql, compiled.args(params))
        return conn.exec_driver_sql(compiled.sql, [compiled.args(p) for p in params])


class _Compiled:
    """A statement's SQL in one dialect, and how a call's parameters become the driver's."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)  # a statement's, as every DML is
        self.sql = compiled.string
        # the parameters in order for a positional paramstyle (SQLite's `?`); None for a named
        # one (psycopg's `%(name)s`)
        self.names = tuple(compiled.positiontup or ()) if dialect.positional else None
        # the conversions the dialect makes on the way in (a Float's `float(value)`), as
        # `Connection.execute` would make them
        self.processors = {
            name: proc
            for name, bind in compiled.binds.items()
            if (proc := bind.type.bind_processor(dialect)) is not None
        }

    def args(self, params: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        procs = self.processors
        if self.names is not None:
            return tuple(params[n] if n not in procs else procs[n](params[n]) for n in self.names)
        return {n: v if n not in procs else procs[n](v) for n, v in params.items()}
