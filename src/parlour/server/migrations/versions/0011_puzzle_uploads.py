"""Puzzles say whether they came from an uploaded file (a shared puzzle, or an analysis of an
uploaded record): those are pruned after `retention_days`, like the analyses of uploaded
records; puzzles of stored games stay. Puzzles stored before this are kept (marked not
uploaded: nothing tells them apart any more).

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_puzzles") as batch:
        batch.add_column(
            sa.Column("uploaded", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_index("ix_parlour_puzzles_created_at", "parlour_puzzles", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_parlour_puzzles_created_at", "parlour_puzzles")
    with op.batch_alter_table("parlour_puzzles") as batch:
        batch.drop_column("uploaded")
