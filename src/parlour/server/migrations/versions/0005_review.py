"""Game review: cached analyses (by record hash, seat and budget) and shareable puzzles.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_analyses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("record_hash", sa.String(80), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("budget", sa.String(64), nullable=False),
        sa.Column("game_id", sa.Integer),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("analysis", sa.Text, nullable=False),
        sa.UniqueConstraint("record_hash", "seat", "budget", name="uq_analysis"),
    )
    op.create_index("ix_parlour_analyses_game_id", "parlour_analyses", ["game_id"])
    op.create_table(
        "parlour_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("puzzle", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlour_puzzles")
    op.drop_index("ix_parlour_analyses_game_id", "parlour_analyses")
    op.drop_table("parlour_analyses")
