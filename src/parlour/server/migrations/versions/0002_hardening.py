"""Server hardening: private tables, who opened a table, idle seats, activity, a server secret.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("private", sa.Boolean, nullable=False, server_default="0"))
        batch.add_column(sa.Column("creator", sa.String(64)))
        batch.add_column(sa.Column("idle_timeout", sa.Float, nullable=False, server_default="0"))
        batch.add_column(sa.Column("on_idle", sa.String(8), nullable=False, server_default="bot"))
        batch.add_column(sa.Column("last_active", sa.Float))
    op.create_index("ix_parlour_tables_creator", "parlour_tables", ["creator"])
    op.create_index("ix_parlour_tables_status", "parlour_tables", ["status"])
    op.create_table(
        "parlour_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("parlour_secrets")
    op.drop_index("ix_parlour_tables_status", "parlour_tables")
    op.drop_index("ix_parlour_tables_creator", "parlour_tables")
    with op.batch_alter_table("parlour_tables") as batch:
        for column in ("last_active", "on_idle", "idle_timeout", "creator", "private"):
            batch.drop_column(column)
