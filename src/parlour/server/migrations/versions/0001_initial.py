"""Tables, seats, games and moves.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_tables",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("preset", sa.String(64)),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("match_format", sa.String(64), nullable=False),
        sa.Column("match_seed", sa.BigInteger, nullable=False),
        sa.Column("move_clock", sa.Float, nullable=False),
        sa.Column("bot_delay", sa.Float, nullable=False),
        sa.Column("auto_next", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "parlour_seats",
        sa.Column(
            "table_code", sa.String(16), sa.ForeignKey("parlour_tables.code"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64)),
        sa.Column("bot", sa.String(128)),
        sa.Column("token_hash", sa.String(64)),
    )
    op.create_index("ix_parlour_seats_token_hash", "parlour_seats", ["token_hash"])
    op.create_table(
        "parlour_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_code", sa.String(16), sa.ForeignKey("parlour_tables.code"), nullable=False
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float),
        sa.Column("result", sa.JSON),
        sa.UniqueConstraint("table_code", "number", name="uq_game_number"),
    )
    op.create_index("ix_parlour_games_finished_at", "parlour_games", ["finished_at"])
    op.create_table(
        "parlour_moves",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("parlour_games.id"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("text", sa.String(256), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlour_moves")
    op.drop_index("ix_parlour_games_finished_at", "parlour_games")
    op.drop_table("parlour_games")
    op.drop_index("ix_parlour_seats_token_hash", "parlour_seats")
    op.drop_table("parlour_seats")
    op.drop_table("parlour_tables")
