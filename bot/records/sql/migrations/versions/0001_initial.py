"""The initial schema: games, players, bot_tallies, memberships, board_sizes.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

RATED = sa.text("rating IS NOT NULL")
PLAYED_BOT = sa.text("bot_games > 0")


def _count(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), server_default=sa.text("0"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("game_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("x_player", sa.BigInteger(), nullable=True),
        sa.Column("o_player", sa.BigInteger(), nullable=True),
        sa.Column("level", sa.String(length=16), nullable=True),
        sa.Column("moves", sa.String(length=9), nullable=True),
        sa.Column("board", sa.String(length=9), nullable=False),
        sa.Column("winner", sa.String(length=1), nullable=True),
        sa.Column("finish", sa.String(length=16), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.Double(), nullable=False),
        sa.Column("ended_at", sa.Double(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("place", sa.String(length=16), nullable=False),
        sa.Column("user_installed", sa.Boolean(), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_x_player_ended_at"), "games", ["x_player", "ended_at"])
    op.create_index(op.f("ix_games_o_player_ended_at"), "games", ["o_player", "ended_at"])

    op.create_table(
        "players",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("rating", sa.Double(), nullable=True),
        sa.Column("deviation", sa.Double(), nullable=True),
        sa.Column("volatility", sa.Double(), nullable=True),
        _count("rated_games"),
        _count("people_wins"),
        _count("people_draws"),
        _count("people_losses"),
        _count("streak"),
        _count("best_streak"),
        _count("unbeaten_impossible"),
        _count("best_unbeaten_impossible"),
        _count("wins_hard"),
        _count("bot_games"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_players")),
    )
    op.create_index(
        "ix_players_rating",
        "players",
        ["rating", "user_id"],
        sqlite_where=RATED,
        postgresql_where=RATED,
    )
    op.create_index(
        "ix_players_bot_board",
        "players",
        ["best_unbeaten_impossible", "wins_hard", "user_id", "bot_games"],
        sqlite_where=PLAYED_BOT,
        postgresql_where=PLAYED_BOT,
    )

    op.create_table(
        "bot_tallies",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("level", sa.String(length=16), nullable=False),
        _count("wins"),
        _count("draws"),
        _count("losses"),
        sa.PrimaryKeyConstraint("user_id", "level", name=op.f("pk_bot_tallies")),
    )

    op.create_table(
        "memberships",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("rating", sa.Double(), nullable=True),
        _count("best_unbeaten_impossible"),
        _count("wins_hard"),
        _count("bot_games"),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_memberships")),
    )
    op.create_index(op.f("ix_memberships_user_id"), "memberships", ["user_id"])
    op.create_index(
        "ix_memberships_rating",
        "memberships",
        ["guild_id", "rating", "user_id"],
        sqlite_where=RATED,
        postgresql_where=RATED,
    )
    op.create_index(
        "ix_memberships_bot_board",
        "memberships",
        ["guild_id", "best_unbeaten_impossible", "wins_hard", "user_id", "bot_games"],
        sqlite_where=PLAYED_BOT,
        postgresql_where=PLAYED_BOT,
    )

    op.create_table(
        "board_sizes",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        _count("rated"),
        _count("vs_bot"),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_board_sizes")),
    )


def downgrade() -> None:
    # Dropping a table drops its indexes.
    op.drop_table("board_sizes")
    op.drop_table("memberships")
    op.drop_table("bot_tallies")
    op.drop_table("players")
    op.drop_table("games")
