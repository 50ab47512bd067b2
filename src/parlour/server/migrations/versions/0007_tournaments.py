"""Tournaments: the tournament (its state machine), its entrants, and its rounds' tables.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("title", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64)),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("bot_fill", sa.String(128)),
        sa.Column("bot_delay", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("creator", sa.String(64)),
        sa.Column("started_at", sa.Float),
        sa.Column("finished_at", sa.Float),
        sa.Column("standings", sa.JSON),
    )
    op.create_index("ix_parlour_tournaments_status", "parlour_tournaments", ["status"])
    op.create_index("ix_parlour_tournaments_creator", "parlour_tournaments", ["creator"])
    op.create_table(
        "parlour_tournament_entrants",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("parlour_tournaments.id"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.String(128)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("account_id", sa.String(64)),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "name", name="uq_entrant_name"),
    )
    op.create_table(
        "parlour_tournament_tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("parlour_tournaments.id"), nullable=False
        ),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_code", sa.String(16), sa.ForeignKey("parlour_tables.code")),
        sa.Column("entrants", sa.JSON, nullable=False),
    )
    op.create_index(
        "ix_parlour_tournament_tables_table_code", "parlour_tournament_tables", ["table_code"]
    )


def downgrade() -> None:
    op.drop_index("ix_parlour_tournament_tables_table_code", "parlour_tournament_tables")
    op.drop_table("parlour_tournament_tables")
    op.drop_table("parlour_tournament_entrants")
    op.drop_index("ix_parlour_tournaments_creator", "parlour_tournaments")
    op.drop_index("ix_parlour_tournaments_status", "parlour_tournaments")
    op.drop_table("parlour_tournaments")
