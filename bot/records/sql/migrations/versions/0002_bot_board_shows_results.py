"""The bot board lists only players with something to show (a game unbeaten against
Impossible, or a win against Hard): board_sizes.vs_bot counts those, recounted here.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

EVERYONE = 0  # board_sizes' guild_id for the boards of everyone
SHOWS = "bot_games > 0 AND (best_unbeaten_impossible > 0 OR wins_hard > 0)"
PLAYED = "bot_games > 0"


def _recount(condition: str) -> None:
    op.execute(
        sa.text(
            f"UPDATE board_sizes SET vs_bot = (SELECT count(*) FROM players WHERE {condition}) "
            "WHERE guild_id = :everyone"
        ).bindparams(everyone=EVERYONE)
    )
    op.execute(
        sa.text(
            "UPDATE board_sizes SET vs_bot = (SELECT count(*) FROM memberships "
            f"WHERE memberships.guild_id = board_sizes.guild_id AND {condition}) "
            "WHERE guild_id <> :everyone"
        ).bindparams(everyone=EVERYONE)
    )


def upgrade() -> None:
    _recount(SHOWS)


def downgrade() -> None:
    _recount(PLAYED)
