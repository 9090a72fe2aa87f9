"""Variants: an ultimate game fits in `games` (81 cells, up to 81 moves), and every kind other
than classic keeps its players' numbers in tables of its own, keyed by kind, so that classic's
tables and queries stay as they were: variant_players, variant_bot_tallies,
variant_memberships, variant_board_sizes.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None

RATED = sa.text("rating IS NOT NULL")
# Classic's widths, and an ultimate game's: 81 cells; up to 81 moves of two base-9 digits each.
CLASSIC_CELLS, ULTIMATE_CELLS = 9, 81
CLASSIC_MOVES, ULTIMATE_MOVES = 9, 162


def _count(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), server_default=sa.text("0"), nullable=False)


def _kind() -> sa.Column[str]:
    return sa.Column("kind", sa.String(length=16), nullable=False)


def _widen(moves: int, cells: int, was_moves: int, was_cells: int) -> None:
    # Batch mode: PostgreSQL alters the columns in place (widening a VARCHAR rewrites nothing);
    # SQLite cannot alter a column, so Alembic copies the table there.
    with op.batch_alter_table("games") as batch:
        batch.alter_column(
            "moves",
            type_=sa.String(length=moves),
            existing_type=sa.String(length=was_moves),
            existing_nullable=True,
        )
        batch.alter_column(
            "board",
            type_=sa.String(length=cells),
            existing_type=sa.String(length=was_cells),
            existing_nullable=False,
        )


def upgrade() -> None:
    _widen(ULTIMATE_MOVES, ULTIMATE_CELLS, CLASSIC_MOVES, CLASSIC_CELLS)

    op.create_table(
        "variant_players",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        _kind(),
        sa.Column("rating", sa.Double(), nullable=True),
        sa.Column("deviation", sa.Double(), nullable=True),
        sa.Column("volatility", sa.Double(), nullable=True),
        _count("rated_games"),
        _count("people_wins"),
        _count("people_draws"),
        _count("people_losses"),
        _count("streak"),
        _count("best_streak"),
        _count("bot_games"),
        sa.PrimaryKeyConstraint("user_id", "kind", name=op.f("pk_variant_players")),
    )
    op.create_index(
        "ix_variant_players_rating",
        "variant_players",
        ["kind", "rating", "user_id"],
        sqlite_where=RATED,
        postgresql_where=RATED,
    )

    op.create_table(
        "variant_bot_tallies",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        _kind(),
        sa.Column("level", sa.String(length=16), nullable=False),
        _count("wins"),
        _count("draws"),
        _count("losses"),
        sa.PrimaryKeyConstraint("user_id", "kind", "level", name=op.f("pk_variant_bot_tallies")),
    )

    op.create_table(
        "variant_memberships",
        _kind(),
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("rating", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("kind", "guild_id", "user_id", name=op.f("pk_variant_memberships")),
    )
    op.create_index(op.f("ix_variant_memberships_user_id"), "variant_memberships", ["user_id"])
    op.create_index(
        "ix_variant_memberships_rating",
        "variant_memberships",
        ["kind", "guild_id", "rating", "user_id"],
        sqlite_where=RATED,
        postgresql_where=RATED,
    )

    op.create_table(
        "variant_board_sizes",
        _kind(),
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        _count("rated"),
        sa.PrimaryKeyConstraint("kind", "guild_id", name=op.f("pk_variant_board_sizes")),
    )


def downgrade() -> None:
    # A bot from before variants knows no other kind of game: their records go with the tables
    # that counted them (and would not fit the narrower columns).
    op.drop_table("variant_board_sizes")
    op.drop_table("variant_memberships")
    op.drop_table("variant_bot_tallies")
    op.drop_table("variant_players")
    op.execute(sa.text("DELETE FROM games WHERE kind <> 'classic'"))
    _widen(CLASSIC_MOVES, CLASSIC_CELLS, ULTIMATE_MOVES, ULTIMATE_CELLS)
