"""`Records` on SQLAlchemy's Core: SQLite (the standard library's sqlite3, in a worker thread)
by default, PostgreSQL (asyncpg) when several bot processes share one database or the disk does
not last. Each transaction is one synchronous function run by `bot.records.sql.database`.

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
from typing import TypeVar

from sqlalchemy import Connection, select
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from bot.core.game import AI
from bot.core.server import ServerSettings
from bot.records.api import (
    CLASSIC,
    VARIANTS,
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
from bot.records.sql import reading, variants, writing
from bot.records.sql import server_settings as settings_sql
from bot.records.sql.database import Database, open_database
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
        self.database: Database = open_database(self.url, query_timeout)
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

                await self.database.run(upgrade, write=True)
            self._migrated = True

    async def close(self) -> None:
        await self.database.close()

    # Writing

    async def record(self, games_: Sequence[GameRecord]) -> int:
        if not games_:
            return 0
        return await self.write(lambda connection: writing.record(connection, games_))

    async def record_puzzles(self, attempts: Sequence[PuzzleAttempt]) -> int:
        if not attempts:
            return 0
        return await self.write(lambda connection: puzzle_sql.record(connection, attempts))

    async def forget(self, user_id: int) -> int:
        if user_id == AI:
            raise ValueError("the bot's own seat is not a person's data")
        try:
            return await self.write(lambda connection: _forget(connection, user_id))
        except DRIVER_ERRORS as error:
            raise RecordsError(f"deleting a player's data failed: {describe(error)}") from error

    # Reading

    async def game(self, game_id: int) -> GameRecord | None:
        return await self.read(lambda connection: _game(connection, game_id))

    async def stats(self, user_id: int, guild_id: int | None, recent: int = 5) -> PlayerStats:
        return await self.read(lambda sync: reading.stats(sync, user_id, guild_id, recent))

    async def rating_board(
        self, guild_id: int | None, page: int, per_page: int, kind: str = CLASSIC
    ) -> Page[RatingRow]:
        if kind == CLASSIC:
            return await self.read(
                lambda sync: reading.rating_board(sync, guild_id, page, per_page)
            )
        if kind not in VARIANTS:
            raise ValueError(f"no rating board for {kind!r}")
        return await self.read(
            lambda sync: variants.rating_board(sync, kind, guild_id, page, per_page)
        )

    async def bot_board(self, guild_id: int | None, page: int, per_page: int) -> Page[BotRow]:
        return await self.read(lambda sync: reading.bot_board(sync, guild_id, page, per_page))

    async def puzzle_player(self, user_id: int, day: str) -> PuzzlePlayer:
        return await self.read(lambda sync: puzzle_sql.player(sync, user_id, day))

    async def puzzle_ratings(self) -> dict[str, Rating]:
        return await self.read(puzzle_sql.ratings)

    async def puzzle_board(self, guild_id: int | None, page: int, per_page: int) -> Page[RatingRow]:
        return await self.read(lambda sync: puzzle_sql.board(sync, guild_id, page, per_page))

    # Server settings (bot/guilds): loaded as servers arrive, never on a click's path

    async def load_settings(self, guild_id: int) -> ServerSettings | None:
        return (await self.load_many_settings((guild_id,))).get(guild_id)

    async def load_many_settings(self, guild_ids: Collection[int]) -> dict[int, ServerSettings]:
        if not guild_ids:
            return {}
        return await self.read(lambda sync: settings_sql.load(sync, guild_ids))

    async def save_settings(self, guild_id: int, settings: ServerSettings) -> None:
        now = time.time()
        try:
            await self.write(lambda c: settings_sql.save(c, guild_id, settings, now))
        except DRIVER_ERRORS as error:
            raise RecordsError(f"saving a server's settings failed: {describe(error)}") from error

    async def delete_settings(self, guild_id: int) -> None:
        try:
            await self.write(lambda connection: settings_sql.delete_all(connection, (guild_id,)))
        except DRIVER_ERRORS as error:
            raise RecordsError(f"deleting a server's settings failed: {describe(error)}") from error

    # Transactions: any storage on this database (another capability's tables too) runs its
    # SQL as one synchronous function of a connection through these.

    async def write(self, work: Callable[[Connection], _T]) -> _T:
        """`work` in a write transaction on the migrated schema, retried on a deadlock or a
        serialization failure; the driver's errors (DRIVER_ERRORS) as they are."""
        await self.migrate()
        for attempt in range(1, _RETRIES + 1):
            try:
                return await self.database.run(work, write=True, keep=_retryable)
            except DBAPIError as error:
                if attempt == _RETRIES or not _retryable(error):
                    raise
                log.debug("Retrying a write after %s", _sqlstate(error))
        raise AssertionError("unreachable")

    async def read(self, work: Callable[[Connection], _T]) -> _T:
        """`work` in a read-only transaction on the migrated schema (one consistent view for
        the several queries of a stats card); a database in trouble raises RecordsError."""
        try:
            await self.migrate()
            return await self.database.run(work)
        except DRIVER_ERRORS as error:
            raise RecordsError(f"reading the records failed: {describe(error)}") from error


def _game(connection: Connection, game_id: int) -> GameRecord | None:
    row = connection.execute(select(games).where(games.c.game_id == game_id)).first()
    return None if row is None else game_record(row._mapping)


def _forget(connection: Connection, user_id: int) -> int:
    puzzle_sql.forget(connection, user_id)
    return writing.forget(connection, user_id)


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


def _retryable(error: DBAPIError) -> bool:
    return _sqlstate(error) in _RETRYABLE_SQLSTATES
