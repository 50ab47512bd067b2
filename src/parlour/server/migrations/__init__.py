"""Alembic migrations for the server's database; run at startup by `parlour.server.store`."""
