"""The kind of each game: games.kind names its board ("classic" Tic-Tac-Toe, the only kind so
far); every game recorded before is classic.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # The server default fills the rows already there (and stays, as the schema says).
    op.add_column(
        "games",
        sa.Column(
            "kind", sa.String(length=16), server_default=sa.text("'classic'"), nullable=False
        ),
    )


def downgrade() -> None:
    # Batch mode: SQLite before 3.35 cannot drop a column, so Alembic copies the table there.
    with op.batch_alter_table("games") as batch:
        batch.drop_column("kind")
