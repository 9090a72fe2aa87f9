"""Server settings: server_settings, one row per server that saved its /settings.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def _mark(mark: str) -> list[sa.Column[object]]:
    return [
        sa.Column(f"{mark}_emoji_id", sa.BigInteger(), nullable=True),
        sa.Column(f"{mark}_emoji_text", sa.String(length=100), nullable=True),
        sa.Column(f"{mark}_emoji_animated", sa.Boolean(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "server_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("games_per_channel", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.String(length=16), nullable=False),
        sa.Column("turn_timeout", sa.Integer(), nullable=True),
        *_mark("x"),
        *_mark("o"),
        sa.Column("challenge_cooldown", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_server_settings")),
    )


def downgrade() -> None:
    op.drop_table("server_settings")
