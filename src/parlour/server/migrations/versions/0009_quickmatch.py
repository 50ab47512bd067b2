"""Quick match's queue: one row per entry (server/matchmaking.py).

Revision ID: 0009
Revises: 0008 (0008_correspondence: re-chained after the tournaments branch's 0007 and 0008)
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_quick",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("ticket_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("client", sa.String(64)),
        sa.Column("account_id", sa.Integer),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("bot_after", sa.Float),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_code", sa.String(16)),
        sa.Column("seat", sa.Integer),
        sa.Column("matched_at", sa.Float),
    )
    op.create_index("ix_parlour_quick_client", "parlour_quick", ["client"])
    op.create_index("ix_parlour_quick_account_id", "parlour_quick", ["account_id"])
    op.create_index("ix_parlour_quick_status", "parlour_quick", ["status"])


def downgrade() -> None:
    op.drop_table("parlour_quick")
