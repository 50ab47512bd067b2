"""Analysis jobs in the database (any gateway answers a job's progress; a stalled runner's job is
taken over where it was).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_analysis_jobs",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("record_hash", sa.String(80), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("budget", sa.Text, nullable=False),
        sa.Column("budget_key", sa.String(64), nullable=False),
        sa.Column("game_id", sa.Integer),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("queued_at", sa.Float, nullable=False),
        sa.Column("runner", sa.String(64)),
        sa.Column("beat_at", sa.Float),
        sa.Column("cancel", sa.Boolean, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("seconds", sa.Float, nullable=False, server_default="0"),
        sa.Column("puzzles", sa.Text),
        sa.Column("error", sa.Text),
        sa.Column("ended_at", sa.Float),
        sa.Column("active_key", sa.String(160), unique=True),
        sa.Column("active_client", sa.String(64), unique=True),
    )
    op.create_index("ix_parlour_analysis_jobs_status", "parlour_analysis_jobs", ["status"])
    op.create_index("ix_parlour_analysis_jobs_ended_at", "parlour_analysis_jobs", ["ended_at"])
    op.create_table(
        "parlour_analysis_decisions",
        sa.Column("job_id", sa.String(16), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("decision", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlour_analysis_decisions")
    op.drop_index("ix_parlour_analysis_jobs_ended_at", "parlour_analysis_jobs")
    op.drop_index("ix_parlour_analysis_jobs_status", "parlour_analysis_jobs")
    op.drop_table("parlour_analysis_jobs")
