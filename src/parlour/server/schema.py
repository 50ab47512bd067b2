"""The database schema: tables (rooms), their seats, the games they played and every move.

A game is stored as its record — game, rules, seed, setup — plus one row per move, so a move is
one small insert that is committed before anyone hears of it. Seat tokens are stored only as
SHA-256 hashes. The schema is created and upgraded by the Alembic migrations in `migrations/`.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

__all__ = ["games", "metadata", "moves", "seats", "tables"]

metadata = MetaData()

tables = Table(
    "parlour_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("preset", String(64)),
    Column("rules", JSON, nullable=False),
    Column("match_format", String(64), nullable=False),
    Column("match_seed", BigInteger, nullable=False),
    Column("move_clock", Float, nullable=False, default=0.0),
    Column("bot_delay", Float, nullable=False, default=0.0),
    Column("auto_next", Boolean, nullable=False, default=False),
    Column("status", String(16), nullable=False),
    Column("host_hash", String(64), nullable=False),
)

seats = Table(
    "parlour_seats",
    metadata,
    Column("table_code", String(16), ForeignKey("parlour_tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64)),
    Column("bot", String(128)),
    Column("token_hash", String(64), index=True),
)

games = Table(
    "parlour_games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_code", String(16), ForeignKey("parlour_tables.code"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("setup", JSON, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, index=True),
    Column("result", JSON),
    UniqueConstraint("table_code", "number", name="uq_game_number"),
)

moves = Table(
    "parlour_moves",
    metadata,
    Column("game_id", Integer, ForeignKey("parlour_games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("text", String(256), nullable=False),
    Column("at", Float, nullable=False),
)
