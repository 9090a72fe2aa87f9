"""Alembic's environment: runs on the connection `bot.records.sql.storage` passes in, inside that
connection's transaction (the start-up migration), or on a URL for the developer command in
`bot.records.sql.migrations.__main__`."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection

from bot.records.sql.database import open_database
from bot.records.sql.schema import with_postgresql_options
from bot.records.sql.url import parse_url
from bot.tournaments import tables as _tournament_tables  # noqa: F401  (on the same metadata)


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=with_postgresql_options(),
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_on_url(url: str) -> None:
    database = open_database(parse_url(url), timeout=10.0)
    try:
        await database.run(run_migrations, write=True)
    finally:
        await database.close()


connection = context.config.attributes.get("connection")
if connection is not None:
    run_migrations(connection)
else:
    asyncio.run(run_on_url(context.config.get_main_option("sqlalchemy.url") or ""))
