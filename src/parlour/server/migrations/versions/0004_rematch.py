"""A table's rematch: the code of the table its host opened with the same seats, so that every
gateway (whose replicas are read from the database) and anyone who comes back to the old link
finds it.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("rematch", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("rematch")
