"""Puzzles: puzzle_attempts, puzzle_players, puzzle_ratings, puzzle_memberships.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def _count(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), server_default=sa.text("0"), nullable=False)


def _rating() -> list[sa.Column[float]]:
    return [
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("deviation", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "puzzle_attempts",
        sa.Column("attempt_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("puzzle_id", sa.String(length=3), nullable=False),
        sa.Column("puzzle_rating", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("daily", sa.String(length=10), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("attempt_id", name=op.f("pk_puzzle_attempts")),
    )
    op.create_index(
        op.f("ix_puzzle_attempts_user_id_daily"), "puzzle_attempts", ["user_id", "daily"]
    )
    op.create_table(
        "puzzle_players",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        *_rating(),
        _count("attempts"),
        _count("solved"),
        _count("streak"),
        _count("best_streak"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_puzzle_players")),
    )
    op.create_index(
        op.f("ix_puzzle_players_rating_user_id"), "puzzle_players", ["rating", "user_id"]
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(length=3), nullable=False),
        *_rating(),
        _count("attempts"),
        sa.PrimaryKeyConstraint("puzzle_id", name=op.f("pk_puzzle_ratings")),
    )
    op.create_table(
        "puzzle_memberships",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_puzzle_memberships")),
    )
    op.create_index(op.f("ix_puzzle_memberships_user_id"), "puzzle_memberships", ["user_id"])
    op.create_index(
        op.f("ix_puzzle_memberships_guild_id_rating_user_id"),
        "puzzle_memberships",
        ["guild_id", "rating", "user_id"],
    )


def downgrade() -> None:
    op.drop_table("puzzle_memberships")
    op.drop_table("puzzle_ratings")
    op.drop_table("puzzle_players")
    op.drop_table("puzzle_attempts")
