"""`Records` on SQLAlchemy's async Core: SQLite (aiosqlite) by default, PostgreSQL (asyncpg)
when several bot processes share one database or the disk does not last.

Exactly once: a game's row is keyed by its board message's id and inserted with
INSERT ... ON CONFLICT DO NOTHING RETURNING; the aggregates (players, bot_tallies, memberships)
change in the same transaction, and only for the rows that insert returned. A retried batch, a
replayed spool or a second process recording the same game inserts nothing and changes nothing.
Concurrent writers on PostgreSQL: inserting a game another transaction has just inserted waits
for that transaction and then does nothing; the players a batch changes are locked
(SELECT ... FOR UPDATE) before their rows are read, so read-modify-write of ratings and streaks
never interleaves. Every writer takes its locks in the same order (games by id, then players by
id), so writers wait for each other but cannot deadlock; a deadlock or serialization failure
reported anyway is retried. On SQLite a write transaction starts with BEGIN IMMEDIATE: writers,
in one process or several, take turns.

What counts is decided when a game is made a record (`GameRecord.from_finished`); here a game
that does not count (`counted` False: abandoned before both sides moved) is stored and changes
nothing else. Streaks and ratings follow games in the order they are recorded (within a batch,
by when they ended).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, event, select
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.core.server import ServerSettings
from bot.records.api import (
    BOT_PLAYER,
    BotRow,
    GameRecord,
    Page,
    PlayerStats,
    PuzzleAttempt,
    PuzzlePlayer,
    Rating,
    RatingRow,
    RecordsError,
)
from bot.records.sql import puzzles as puzzle_sql
from bot.records.sql import reading, writing
from bot.records.sql import server_settings as settings_sql
from bot.records.sql.schema import game_record, games
from bot.records.sql.url import UnsupportedDatabaseError, describe, parse_url, safe_url

__all__ = [
    "DatabaseAheadError",
    "RecordsError",
    "Storage",
    "UnsupportedDatabaseError",
    "open_records",
    "parse_url",
    "safe_url",
]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 10.0  # seconds: connecting, waiting for a lock, running one statement
# How the bot hands a migration to its child process (bot/records/sql/migrate.py).
MIGRATE_URL_VARIABLE = "TICTACTOE_MIGRATE_URL"
MIGRATE_TIMEOUT_VARIABLE = "TICTACTOE_MIGRATE_TIMEOUT"
MIGRATE_AHEAD_EXIT = 3
_WRITE = "tictactoe_write"  # execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)
_RETRIES = 5
_RETRYABLE_SQLSTATES = ("40001", "40P01")  # serialization failure, deadlock detected

_T = TypeVar("_T")


class MigrationFailed(Exception):
    """The child process could not migrate the database (it did not answer, say); str() is
    its one line. Retried like any database error."""


# What a database in trouble raises through SQLAlchemy: its errors, the network's, a timeout,
# and a migration that failed in its child process.
DRIVER_ERRORS = (SQLAlchemyError, OSError, TimeoutError, MigrationFailed)


class DatabaseAheadError(RecordsError):
    """The database was migrated by a newer version of the bot than this one."""


async def open_records(
    url: str | URL,
    *,
    query_timeout: float = DEFAULT_TIMEOUT,
    required: bool = True,
    migrate_in_child: bool = False,
) -> Storage:
    """Storage on `url`, migrated to the newest schema.

    Raises DatabaseAheadError when the database is newer than this code (the bot says so in
    one line and exits 2). When the database cannot be reached: with `required`, the driver's
    error; without, one warning, and a Storage that migrates on its first successful use (the
    bot starts anyway; the writer keeps the games until the database is back).
    """
    storage = Storage(url, query_timeout=query_timeout, migrate_in_child=migrate_in_child)
    try:
        await storage.migrate()
    except RecordsError:
        await storage.close()
        raise
    except Exception as error:
        if required:
            await storage.close()
            raise
        log.warning(
            "The records database %s cannot be reached (%s); games are kept until it is back",
            safe_url(storage.url),
            describe(error),
        )
    except BaseException:
        await storage.close()
        raise
    return storage


class Storage:
    """`Records` on SQLite or PostgreSQL. Creating one does no I/O; the schema is migrated on
    `migrate()` or, failing that, before the first query."""

    def __init__(
        self,
        url: str | URL,
        *,
        query_timeout: float = DEFAULT_TIMEOUT,
        migrate_in_child: bool = False,
    ) -> None:
        self.url = parse_url(url)
        self.engine = _create_engine(self.url, query_timeout)
        self._query_timeout = query_timeout
        # The bot migrates in a child process: Alembic (about 12 MB) then never loads into it.
        self._migrate_in_child = migrate_in_child
        self._migrated = False
        self._migrating = asyncio.Lock()

    def __repr__(self) -> str:
        return f"Storage({safe_url(self.url)!r})"

    @property
    def backend(self) -> str:
        return self.url.get_backend_name()

    async def migrate(self) -> None:
        """Bring the schema to the newest revision (no-op when it is); DatabaseAheadError if
        the database has a revision this code does not know."""
        async with self._migrating:
            if self._migrated:
                return
            if self._migrate_in_child:
                await migrate_in_child(self.url, self._query_timeout)
            else:
                from bot.records.sql.migrate import upgrade  # Alembic, only when needed

                async with self.engine.connect() as connection:
                    await connection.execution_options(**{_WRITE: True})
                    async with connection.begin():
                        await connection.run_sync(upgrade)
            self._migrated = True

    async def close(self) -> None:
        await self.engine.dispose()

    # Writing

    async def record(self, games_: Sequence[GameRecord]) -> int:
        if not games_:
            return 0
        return await self._write(lambda connection: writing.record(connection, games_))

    async def record_puzzles(self, attempts: Sequence[PuzzleAttempt]) -> int:
        if not attempts:
            return 0
        return await self._write(lambda connection: puzzle_sql.record(connection, attempts))

    async def forget(self, user_id: int) -> int:
        if user_id == BOT_PLAYER:
            raise ValueError("the bot's own seat is not a person's data")
        try:
            return await self._write(lambda connection: _forget(connection, user_id))
        except DRIVER_ERRORS as error:
            raise RecordsError(f"deleting a player's data failed: {describe(error)}") from error

    # Reading

    async def game(self, game_id: int) -> GameRecord | None:
        async with self._read() as connection:
            row = (
                await connection.execute(select(games).where(games.c.game_id == game_id))
            ).first()
        return None if row is None else game_record(row._mapping)

    async def stats(self, user_id: int, guild_id: int | None, recent: int = 5) -> PlayerStats:
        async with self._read() as connection:
            return await connection.run_sync(
                lambda sync: reading.stats(sync, user_id, guild_id, recent)
            )

    async def rating_board(self, guild_id: int | None, page: int, per_page: int) -> Page[RatingRow]:
        async with self._read() as connection:
            return await connection.run_sync(
                lambda sync: reading.rating_board(sync, guild_id, page, per_page)
            )

    async def bot_board(self, guild_id: int | None, page: int, per_page: int) -> Page[BotRow]:
        async with self._read() as connection:
            return await connection.run_sync(
                lambda sync: reading.bot_board(sync, guild_id, page, per_page)
            )

    async def puzzle_player(self, user_id: int, day: str) -> PuzzlePlayer:
        async with self._read() as connection:
            return await connection.run_sync(lambda sync: puzzle_sql.player(sync, user_id, day))

    async def puzzle_ratings(self) -> dict[str, Rating]:
        async with self._read() as connection:
            return await connection.run_sync(puzzle_sql.ratings)

    async def puzzle_board(self, guild_id: int | None, page: int, per_page: int) -> Page[RatingRow]:
        async with self._read() as connection:
            return await connection.run_sync(
                lambda sync: puzzle_sql.board(sync, guild_id, page, per_page)
            )

    # Server settings (bot/guilds): loaded as servers arrive, never on a click's path

    async def load_settings(self, guild_id: int) -> ServerSettings | None:
        return (await self.load_many_settings((guild_id,))).get(guild_id)

    async def load_many_settings(self, guild_ids: Collection[int]) -> dict[int, ServerSettings]:
        if not guild_ids:
            return {}
        async with self._read() as connection:
            return await connection.run_sync(lambda sync: settings_sql.load(sync, guild_ids))

    async def save_settings(self, guild_id: int, settings: ServerSettings) -> None:
        now = time.time()
        try:
            await self._write(lambda c: settings_sql.save(c, guild_id, settings, now))
        except DRIVER_ERRORS as error:
            raise RecordsError(f"saving a server's settings failed: {describe(error)}") from error

    async def delete_settings(self, guild_id: int) -> None:
        try:
            await self._write(lambda connection: settings_sql.delete_all(connection, (guild_id,)))
        except DRIVER_ERRORS as error:
            raise RecordsError(f"deleting a server's settings failed: {describe(error)}") from error

    # Transactions

    async def _write(self, work: Callable[[Connection], _T]) -> _T:
        await self.migrate()
        for attempt in range(1, _RETRIES + 1):
            async with self.engine.connect() as connection:
                try:
                    await connection.execution_options(**{_WRITE: True})
                    async with connection.begin():
                        return await connection.run_sync(work)
                except DBAPIError as error:
                    if attempt == _RETRIES or _sqlstate(error) not in _RETRYABLE_SQLSTATES:
                        # The next try gets a new connection: this one may stay broken (an
                        # SQLite file opened while its disk was read-only stays read-only).
                        await connection.invalidate()
                        raise
                    log.debug("Retrying a write after %s", _sqlstate(error))
        raise AssertionError("unreachable")

    def _read(self) -> _ReadTransaction:
        return _ReadTransaction(self)


def _forget(connection: Connection, user_id: int) -> int:
    puzzle_sql.forget(connection, user_id)
    return writing.forget(connection, user_id)


class _ReadTransaction:
    """A read-only transaction: one consistent view for the several queries of a stats card."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._connection: AsyncConnection | None = None

    async def __aenter__(self) -> AsyncConnection:
        try:
            await self._storage.migrate()
            self._connection = await self._storage.engine.connect()
            await self._connection.begin()
        except DRIVER_ERRORS as error:
            if self._connection is not None:
                await self._connection.close()
            raise RecordsError(f"reading the records failed: {describe(error)}") from error
        return self._connection

    async def __aexit__(
        self, exc_type: type[BaseException] | None, error: BaseException | None, *_: object
    ) -> None:
        assert self._connection is not None
        try:
            if exc_type is not None and issubclass(exc_type, DBAPIError):
                await self._connection.invalidate()  # as in Storage._write
            else:
                await self._connection.rollback()
        finally:
            await self._connection.close()
        if isinstance(error, DRIVER_ERRORS):
            raise RecordsError(f"reading the records failed: {describe(error)}") from error


async def migrate_in_child(url: URL, query_timeout: float) -> None:
    """Run `python -m bot.records.sql.migrate` on `url` and wait for it. The URL goes through
    the environment, never the command line (other users can read a process's arguments)."""
    env = {**os.environ, MIGRATE_URL_VARIABLE: url.render_as_string(hide_password=False)}
    env[MIGRATE_TIMEOUT_VARIABLE] = str(query_timeout)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.records.sql.migrate",
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _, error = await process.communicate()
    except BaseException:
        if process.returncode is None:
            process.kill()
        raise
    line = error.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
    if process.returncode == MIGRATE_AHEAD_EXIT:
        raise DatabaseAheadError(line[0])
    if process.returncode != 0:
        raise MigrationFailed(line[0])


def _sqlstate(error: DBAPIError) -> str | None:
    orig = error.orig
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


def _create_engine(url: URL, timeout: float) -> AsyncEngine:
    if url.get_backend_name() == "postgresql":
        milliseconds = str(round(timeout * 1000))
        return create_async_engine(
            url,
            pool_pre_ping=True,  # a server restarted since: find out before a query fails
            connect_args={
                "timeout": timeout,
                "command_timeout": timeout * 2,  # a server that stopped answering at all
                "server_settings": {
                    "application_name": "tictactoe-bot",
                    "statement_timeout": milliseconds,
                    "lock_timeout": milliseconds,
                },
            },
        )
    database = url.database or ""
    if database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, connect_args={"timeout": timeout})

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: object) -> None:
        # Transactions are begun below, not by the driver, so that writers can BEGIN IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            # Readers never wait for the writer (persistent: the first connection sets it).
            cursor.execute("PRAGMA journal_mode=WAL")
        except Exception as error:  # a read-only or full file: writes will say so
            log.debug("Could not switch SQLite to WAL: %s", error)
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A writer takes the write lock at once: two writers that both start by reading would
        # otherwise deadlock when both try to write (SQLITE_BUSY without waiting).
        writes = connection.get_execution_options().get(_WRITE)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    return engine
