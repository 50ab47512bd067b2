"""Correspondence tables: a move clock of hours to days, kept however long the game takes, and
what happens when a move's time runs out (the forced move, or a bot takes the seat).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        # a plain "0" (false in both databases), as in 0006: an SQL expression as the default
        # makes SQLite's batch copy the table, and dropping the old copy fails on the foreign
        # keys of its seats once there are tables
        batch.add_column(
            sa.Column("correspondence", sa.Boolean, nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("on_timeout", sa.String(8), nullable=False, server_default="move")
        )


def downgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("on_timeout")
        batch.drop_column("correspondence")
