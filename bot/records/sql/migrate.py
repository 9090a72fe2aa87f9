"""Migrating the records database with Alembic: in the process that asks (tests, tools), or as
`python -m bot.records.sql.migrate`, the child process the bot starts so that Alembic never loads
into the bot itself (Storage(migrate_in_child=True)). The child reads the URL and the timeout from
its environment, exits 0 once the schema is the newest, MIGRATE_AHEAD_EXIT when the database is
newer than this code, and 1 otherwise; its last line on stderr says why."""

from __future__ import annotations

import asyncio
import os
import sys

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

from bot.records.sql.storage import (
    DEFAULT_TIMEOUT,
    MIGRATE_AHEAD_EXIT,
    MIGRATE_TIMEOUT_VARIABLE,
    MIGRATE_URL_VARIABLE,
    DatabaseAheadError,
    Storage,
)
from bot.records.sql.url import describe, safe_url

MIGRATIONS = "bot.records.sql:migrations"
_MIGRATION_LOCK = 7_160_316  # PostgreSQL advisory lock: one process migrates at a time


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the packaged migrations (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection) -> None:
    """Bring the schema to the newest revision, inside the connection's transaction."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
    config = alembic_config(connection)
    script = ScriptDirectory.from_config(config)
    known = {revision.revision for revision in script.walk_revisions()}
    current = MigrationContext.configure(connection).get_current_heads()
    unknown = sorted(set(current) - known)
    if unknown:
        raise DatabaseAheadError(
            f"the records database {safe_url(connection.engine.url)} is at schema revision "
            f"{', '.join(unknown)}, newer than this bot knows (newest "
            f"{script.get_current_head()}): run the newer bot, or point DATABASE_URL elsewhere"
        )
    command.upgrade(config, "head")


async def _migrate(url: str, query_timeout: float) -> None:
    storage = Storage(url, query_timeout=query_timeout)
    try:
        await storage.migrate()
    finally:
        await storage.close()


def main() -> int:
    url = os.environ.get(MIGRATE_URL_VARIABLE)
    if not url:
        print(f"{MIGRATE_URL_VARIABLE} is not set", file=sys.stderr)  # noqa: T201
        return 1
    timeout = float(os.environ.get(MIGRATE_TIMEOUT_VARIABLE) or DEFAULT_TIMEOUT)
    try:
        asyncio.run(_migrate(url, timeout))
    except DatabaseAheadError as error:
        print(error, file=sys.stderr)  # noqa: T201
        return MIGRATE_AHEAD_EXIT
    except Exception as error:
        print(describe(error), file=sys.stderr)  # noqa: T201
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
