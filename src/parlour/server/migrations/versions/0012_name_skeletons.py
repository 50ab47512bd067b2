"""Usernames that look alike are told by Unicode's confusable skeletons (UTS #39), kept in
`name_skeleton` (unique), instead of a short hand-made list folded into `name_key`, which is
now the name case folded (what a log-in looks up).

Every account's `name_key` is written again without the old list, and its skeleton computed.
Two accounts made before this whose names share a skeleton both stay: the later one's skeleton
is left empty (a NULL never collides), and no new name may join them. The skeleton comes from
disarm's tables: if a later release of it changes skeletons, a migration computes them again.

Revision ID: 0012
Revises: 0011
"""

import unicodedata

import sqlalchemy as sa
from alembic import op
from disarm import skeleton_key

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _key(name: str) -> str:  # as accounts.name_key is at this revision
    return unicodedata.normalize("NFKC", name).casefold().replace("-", "_")


def _skeleton(name: str) -> str:  # as accounts.name_skeleton is at this revision
    folded = skeleton_key(unicodedata.normalize("NFKC", name), digit_policy="tr39")
    return folded.replace("-", "_")


def upgrade() -> None:
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(96)))
    conn = op.get_bind()
    accounts = sa.table(
        "parlour_accounts",
        sa.column("id", sa.Integer),
        sa.column("username", sa.String),
        sa.column("name_key", sa.String),
        sa.column("name_skeleton", sa.String),
        sa.column("deleted_at", sa.Float),
    )
    rows = conn.execute(
        sa.select(accounts.c.id, accounts.c.username)
        .where(accounts.c.deleted_at.is_(None))
        .order_by(accounts.c.id)
    ).all()
    seen: set[str] = set()
    for row in rows:  # the older account keeps its skeleton
        skeleton = _skeleton(row.username)
        values = {"name_key": _key(row.username), "name_skeleton": None}
        if skeleton not in seen:
            seen.add(skeleton)
            values["name_skeleton"] = skeleton
        conn.execute(sa.update(accounts).where(accounts.c.id == row.id).values(**values))
    op.create_index(
        "ix_parlour_accounts_name_skeleton", "parlour_accounts", ["name_skeleton"], unique=True
    )


def downgrade() -> None:
    op.drop_index("ix_parlour_accounts_name_skeleton", "parlour_accounts")
    with op.batch_alter_table("parlour_accounts") as batch:
        batch.drop_column("name_skeleton")
