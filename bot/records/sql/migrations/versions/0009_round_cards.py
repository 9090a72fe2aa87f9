"""A tournament round's card kept like its boards: `card_claimed` once a process takes it to post
it, `card_message_id` once Discord has answered, so that a restart neither posts it twice nor
loses the message to edit with the round's results.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Rounds paired before: their cards were posted by a process that kept the ids in memory.
    # Claimed, without an id: the next start-up looks for them in the thread, as for boards.
    op.add_column(
        "tournament_rounds",
        sa.Column("card_claimed", sa.Boolean(), server_default=sa.true(), nullable=False),
    )
    op.add_column("tournament_rounds", sa.Column("card_message_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_rounds") as batch:
        batch.drop_column("card_message_id")
        batch.drop_column("card_claimed")
