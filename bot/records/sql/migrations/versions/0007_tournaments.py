"""Tournaments (issue 33): tournaments, their players, rounds, byes and pairings, as
bot/tournaments/tables.py describes them.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

HOLDS_SEAT = sa.text("holds_seat")


def _id(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.BigInteger(), autoincrement=False, nullable=False)


def _number(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), autoincrement=False, nullable=False)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", sa.Integer(), autoincrement=True, nullable=False),
        _id("guild_id"),
        _id("channel_id"),
        sa.Column("card_message_id", sa.BigInteger(), nullable=True),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        _id("organiser_id"),
        sa.Column("name", sa.String(length=100), nullable=True),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("finished_at", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_tournaments")),
    )
    op.create_index("ix_tournaments_guild_id_state", "tournaments", ["guild_id", "state"])
    op.create_index("ix_tournaments_thread_id", "tournaments", ["thread_id"])

    op.create_table(
        "tournament_players",
        _number("tournament_id"),
        _id("user_id"),
        _id("guild_id"),
        _number("seat"),
        sa.Column("joined_at", sa.Double(), nullable=False),
        sa.Column("holds_seat", sa.Boolean(), nullable=False),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
        sa.Column("final_rank", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_tournament_players")),
    )
    op.create_index("ix_tournament_players_user_id", "tournament_players", ["user_id"])
    op.create_index(
        "ix_tournament_players_one_seat",
        "tournament_players",
        ["guild_id", "user_id"],
        unique=True,
        sqlite_where=HOLDS_SEAT,
        postgresql_where=HOLDS_SEAT,
    )

    op.create_table(
        "tournament_rounds",
        _number("tournament_id"),
        _number("round_number"),
        sa.Column("paired_at", sa.Double(), nullable=False),
        sa.Column("closed_at", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "round_number", name=op.f("pk_tournament_rounds")),
    )

    op.create_table(
        "tournament_byes",
        _number("tournament_id"),
        _number("round_number"),
        _id("user_id"),
        sa.PrimaryKeyConstraint(
            "tournament_id", "round_number", "user_id", name=op.f("pk_tournament_byes")
        ),
    )

    op.create_table(
        "tournament_pairings",
        _number("tournament_id"),
        _number("round_number"),
        _number("board"),
        _id("x_id"),
        _id("o_id"),
        sa.Column("result", sa.String(length=3), nullable=True),
        sa.Column("claimed", sa.Boolean(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("ended_at", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint(
            "tournament_id", "round_number", "board", name=op.f("pk_tournament_pairings")
        ),
    )


def downgrade() -> None:
    for table in (
        "tournament_pairings",
        "tournament_byes",
        "tournament_rounds",
        "tournament_players",
        "tournaments",
    ):
        op.drop_table(table)
