"""A database to run transactions on: each transaction is one synchronous function of a
SQLAlchemy `Connection`, begun, run and ended in one call.

SQLite goes through the standard library's sqlite3 on a sync `Engine`, each transaction run
whole in one worker thread: one hop off the event loop per transaction, where an `AsyncEngine`
over aiosqlite makes about 33 per game written (cursor, execute, fetch, close, commit), and
no `sqlalchemy.ext.asyncio`, greenlet or aiosqlite in memory (docs/performance.md). One thread
for every transaction of a process: its writers take turns, as SQLite wants, and its readers
wait for nothing long (WAL: readers never wait for the writer; a transaction is milliseconds).

PostgreSQL goes through asyncpg's `AsyncEngine`, imported only for a PostgreSQL URL: the
network round trips are awaited on the event loop, several transactions at once.

Errors are the driver's, through SQLAlchemy (`Storage` says what they mean). A connection that
failed is thrown away, not reused: an SQLite file opened while its disk was read-only stays
read-only, a PostgreSQL connection to a server restarted since is dead.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy import Connection, create_engine, event
from sqlalchemy.engine import URL, Engine
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)


_T = TypeVar("_T")


class Database(Protocol):
    """Where `Storage` (and any other capability's storage) runs its transactions."""

    url: URL

    async def run(
        self,
        work: Callable[[Connection], _T],
        *,
        write: bool = False,
        keep: Callable[[DBAPIError], bool] = lambda error: False,
        autocommit: bool = False,
    ) -> _T:
        """`work(connection)` in one transaction, committed if it writes and returns (a read
        is rolled back). A DBAPIError throws the connection away unless `keep(error)`.
        `autocommit`: no transaction at all (PostgreSQL's VACUUM)."""
        ...

    async def release(self) -> None:
        """Close the idle connections (the next transaction opens new ones)."""
        ...

    async def close(self) -> None: ...

    @property
    def sync_engine(self) -> Engine:
        """The engine whose events (e.g. before_cursor_execute) see every statement but the
        records writer's multi-row INSERTs on SQLite (bot/records/sql/statements.py)."""
        ...


def open_database(url: URL, timeout: float) -> Database:
    """The database at `url` (as `parse_url` returns it); no I/O until the first transaction.
    `timeout`: seconds for connecting, waiting for a lock, running one statement."""
    if url.get_backend_name() == "postgresql":
        return _PostgreSQL(url, timeout)
    return _SQLite(url, timeout)


class _SQLite:
    @property
    def sync_engine(self) -> Engine:
        return self.engine

    def __init__(self, url: URL, timeout: float) -> None:
        self.url = url
        database = url.database or ""
        if database != ":memory:" and not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        # The URL names aiosqlite (the bot's DATABASE_URL always has); the file is the same
        # through the standard library's driver.
        self.engine = create_engine(
            url.set(drivername="sqlite+pysqlite"),
            connect_args={"timeout": timeout, "check_same_thread": False},
        )
        event.listen(self.engine, "connect", _on_sqlite_connect)
        event.listen(self.engine, "begin", self._on_begin)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="records-sqlite")
        self._connection: Connection | None = None  # the thread's, between transactions
        self._writes = False  # whether the transaction being begun writes
        self._closed = False

    async def run(
        self,
        work: Callable[[Connection], _T],
        *,
        write: bool = False,
        keep: Callable[[DBAPIError], bool] = lambda error: False,
        autocommit: bool = False,
    ) -> _T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._thread, self._transaction, work, write, keep, autocommit
        )

    def _transaction(
        self,
        work: Callable[[Connection], _T],
        write: bool,
        keep: Callable[[DBAPIError], bool],
        autocommit: bool,
    ) -> _T:
        if autocommit:  # rare: a connection of its own, its isolation level changed
            with self.engine.connect() as connection:
                try:
                    return work(connection.execution_options(isolation_level="AUTOCOMMIT"))
                except DBAPIError as error:
                    if not keep(error):
                        connection.invalidate()
                    raise
        # The one connection this thread runs its transactions on, kept from one to the next:
        # checking it out of the pool and back in cost more than most of a batch's statements.
        if self._connection is None:
            self._connection = self.engine.connect()
        connection = self._connection
        try:
            self._writes = write
            if write:
                with connection.begin():
                    return work(connection)
            transaction = connection.begin()
            try:
                return work(connection)
            finally:
                transaction.rollback()
        except DBAPIError as error:
            if not keep(error):
                connection.invalidate()
                self._forget_connection()
            raise

    def _on_begin(self, connection: Connection) -> None:
        # A writer takes the write lock at once: two writers (processes) that both start by
        # reading would otherwise deadlock when both try to write (SQLITE_BUSY without waiting).
        run_on_sqlite(connection, "BEGIN IMMEDIATE" if self._writes else "BEGIN")

    def _forget_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _dispose(self) -> None:
        self._forget_connection()
        self.engine.dispose()

    async def release(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._dispose)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self.release()
        self._thread.shutdown(wait=False)


def _on_sqlite_connect(dbapi_connection: Any, _record: object) -> None:
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


def run_on_sqlite(connection: Connection, sql: str, values: Sequence[Any] = ()) -> list[Any]:
    """One statement on the connection's own sqlite3 connection; its rows. SQLAlchemy's
    exec_driver_sql adds about 12 µs a statement (events, a cursor, a result) when warm, and
    several times that in a thread woken once a batch, where the records writer runs a
    batch's dozen and more, with no parameters or rows for it to process. Its events do not
    see these statements. Errors are SQLAlchemy's, as from any other statement."""
    try:
        driver: sqlite3.Connection = connection.connection.driver_connection  # type: ignore[assignment]
        return driver.execute(sql, values).fetchall()
    except sqlite3.Error as error:
        raise DBAPIError.instance(
            sql, values, error, sqlite3.Error, hide_parameters=True
        ) from error


class _PostgreSQL:
    @property
    def sync_engine(self) -> Engine:
        return self.engine.sync_engine

    def __init__(self, url: URL, timeout: float) -> None:
        from sqlalchemy.ext.asyncio import create_async_engine  # greenlet: PostgreSQL only

        self.url = url
        milliseconds = str(round(timeout * 1000))
        self.engine: AsyncEngine = create_async_engine(
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

    async def run(
        self,
        work: Callable[[Connection], _T],
        *,
        write: bool = False,
        keep: Callable[[DBAPIError], bool] = lambda error: False,
        autocommit: bool = False,
    ) -> _T:
        async with self.engine.connect() as connection:
            try:
                if autocommit:
                    await connection.execution_options(isolation_level="AUTOCOMMIT")
                    return await connection.run_sync(work)
                if write:
                    async with connection.begin():
                        return await connection.run_sync(work)
                await connection.begin()
                try:
                    return await connection.run_sync(work)
                finally:
                    await connection.rollback()
            except DBAPIError as error:
                if not keep(error):
                    await connection.invalidate()
                raise

    async def release(self) -> None:
        await self.engine.dispose()

    async def close(self) -> None:
        await self.engine.dispose()
