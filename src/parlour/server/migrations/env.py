"""Alembic environment: runs on the connection `parlour.server.store.migrate` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from parlour.server.schema import metadata

config = context.config
connection = config.attributes.get("connection")


def _run(conn: Connection) -> None:
    context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if connection is not None:
    _run(connection)
else:  # `alembic -x url=...` from the command line, for people who run migrations by hand
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option(
        "sqlalchemy.url"
    )
    engine = create_engine(str(url))
    with engine.begin() as conn:
        _run(conn)
