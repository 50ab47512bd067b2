"""Moderation: an account may be suspended (`suspended_at`, with the moderator's reason), and the
chat lines people report are kept for a moderator to read — the line as it was said (chat itself
is not stored), who reported it and when, and whether a moderator removed it.

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.add_column(sa.Column("suspended_at", sa.Float))
        batch.add_column(sa.Column("suspended_reason", sa.String(200)))
    op.create_table(
        "parlour_chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("line_id", sa.String(32), nullable=False),
        sa.Column("line_seat", sa.Integer, nullable=False),
        sa.Column("line_name", sa.String(64), nullable=False),
        sa.Column("line_account_id", sa.Integer),
        sa.Column("line_text", sa.String(400), nullable=False),
        sa.Column("line_at", sa.Float, nullable=False),
        sa.Column("reporter_seat", sa.Integer, nullable=False),
        sa.Column("reporter_name", sa.String(64), nullable=False),
        sa.Column("reporter_account_id", sa.Integer),
        sa.Column("reporter_client", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(200)),
        sa.Column("removed_at", sa.Float),
        sa.UniqueConstraint(
            "table_code", "line_id", "reporter_seat", name="uq_parlour_chat_report"
        ),
    )
    op.create_index("ix_parlour_chat_reports_created_at", "parlour_chat_reports", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_parlour_chat_reports_created_at", "parlour_chat_reports")
    op.drop_table("parlour_chat_reports")
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.drop_column("suspended_reason")
        batch.drop_column("suspended_at")
