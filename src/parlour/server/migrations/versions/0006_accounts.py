"""Accounts, their sessions, seats played by accounts, rated tables, ratings and their history.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parlour_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("deleted_at", sa.Float),
    )
    op.create_table(
        "parlour_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("parlour_accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_index("ix_parlour_sessions_account_id", "parlour_sessions", ["account_id"])
    with op.batch_alter_table("parlour_seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer))
    op.create_index("ix_parlour_seats_account_id", "parlour_seats", ["account_id"])
    with op.batch_alter_table("parlour_tables") as batch:
        # a plain "0" (false in both databases) lets SQLite add the column in place: an SQL
        # expression as the default would make the batch copy the table, and dropping the old
        # copy fails on its seats' foreign keys
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default="0"))
    with op.batch_alter_table("parlour_games") as batch:
        batch.add_column(sa.Column("rated_at", sa.Float))
    op.create_table(
        "parlour_ratings",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("preset", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "parlour_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("parlour_games.id"), nullable=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "player", name="uq_rating_game_player"),
    )
    op.create_index("ix_parlour_rating_history_game_id", "parlour_rating_history", ["game_id"])
    op.create_index("ix_parlour_rating_history_player", "parlour_rating_history", ["player"])


def downgrade() -> None:
    op.drop_index("ix_parlour_rating_history_player", "parlour_rating_history")
    op.drop_index("ix_parlour_rating_history_game_id", "parlour_rating_history")
    op.drop_table("parlour_rating_history")
    op.drop_table("parlour_ratings")
    with op.batch_alter_table("parlour_games") as batch:
        batch.drop_column("rated_at")
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("rated")
    op.drop_index("ix_parlour_seats_account_id", "parlour_seats")
    with op.batch_alter_table("parlour_seats") as batch:
        batch.drop_column("account_id")
    op.drop_index("ix_parlour_sessions_account_id", "parlour_sessions")
    op.drop_table("parlour_sessions")
    op.drop_table("parlour_accounts")
