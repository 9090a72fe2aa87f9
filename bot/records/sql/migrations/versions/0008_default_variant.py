"""A server's default kind of board: server_settings.variant, "classic" for every server that
saved settings before.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # The server default fills the rows already there (and stays, as the schema says).
    op.add_column(
        "server_settings",
        sa.Column(
            "variant", sa.String(length=16), server_default=sa.text("'classic'"), nullable=False
        ),
    )


def downgrade() -> None:
    # Batch mode: SQLite before 3.35 cannot drop a column, so Alembic copies the table there.
    with op.batch_alter_table("server_settings") as batch:
        batch.drop_column("variant")
