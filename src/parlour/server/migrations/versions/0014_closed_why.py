"""A closed or expired table keeps the words said about it (`closed_why`): a gateway that reads
the table again after the bus lost the owner's word tells its watchers the same reason.

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("closed_why", sa.String(200)))


def downgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("closed_why")
