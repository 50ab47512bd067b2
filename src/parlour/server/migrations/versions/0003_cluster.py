"""The multi-process server: each table's owner (a worker) and epoch, its change number, the move
clock's deadline, and the workers themselves.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(64)))
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("seq", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("clock_deadline", sa.Float))
    op.create_index("ix_parlour_tables_owner", "parlour_tables", ["owner"])
    op.create_table(
        "parlour_workers",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("heartbeat_at", sa.Float, nullable=False),
        sa.Column("tables", sa.Integer, nullable=False, server_default="0"),
        sa.Column("draining", sa.Boolean, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("parlour_workers")
    op.drop_index("ix_parlour_tables_owner", "parlour_tables")
    with op.batch_alter_table("parlour_tables") as batch:
        for column in ("clock_deadline", "seq", "epoch", "owner"):
            batch.drop_column(column)
