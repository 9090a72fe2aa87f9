"""Alembic's environment: runs on the connection `bot.records.sql.storage` passes in, inside that
connection's transaction (the start-up migration), or on a URL for the developer command in
`bot.records.sql.migrations.__main__`."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from bot.records.sql.schema import metadata


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_on_url(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(run_migrations)
    finally:
        await engine.dispose()


connection = context.config.attributes.get("connection")
if connection is not None:
    run_migrations(connection)
else:
    asyncio.run(run_on_url(context.config.get_main_option("sqlalchemy.url") or ""))
