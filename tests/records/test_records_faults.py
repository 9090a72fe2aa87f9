"""Database faults, for real, while games keep finishing: the server stopped and started again,
down at start-up, hung (SIGSTOP), slow (a lock another connection holds), read-only, and a full
disk, on PostgreSQL and SQLite. Each time: the games that finished before, during and after the
fault are all recorded, none twice, with one warning when writing fails and one info line when
it works again."""

import asyncio
import logging
import pwd
import signal
import sqlite3
import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.records.sql.storage import Storage, open_records
from bot.records.writer import DEFAULT_BATCH, DEFAULT_MAX_IN_MEMORY, RecordWriter
from testdb.postgres import start_or_skip
from tests.support.filesystems import fill, remount, tmpfs
from tests.support.records import ALICE, BOB, CAROL, DRAW, GUILD, O_WINS, X_WINS, record

WRITER_LOG = "bot.records.writer"
QUICK = 0.5  # seconds: the storage's timeouts, so that a hung or locked database fails fast


@pytest.fixture(scope="module")
def server():
    """A server of this module's own: these tests stop it, hang it and reconfigure it."""
    started = start_or_skip()
    yield started
    started.destroy()


@pytest.fixture
def pg_url(server):
    if not server.running():
        server.start()
    with server.database(f"faults_{uuid.uuid4().hex[:12]}") as url:
        yield url


class Run:
    """A writer fed games the way the bot feeds it, and the checks every fault ends with."""

    def __init__(self, storage: Storage, writer: RecordWriter, caplog) -> None:
        self.storage, self.writer, self.caplog = storage, writer, caplog
        self.submitted: list = []

    def finish_games(self, count: int) -> None:
        players = (ALICE, BOB, CAROL)
        for _ in range(count):
            n = len(self.submitted)
            game = record(n, players[n % 3], players[(n + 1) % 3], (X_WINS, O_WINS, DRAW)[n % 3])
            self.submitted.append(game)
            self.writer.submit(game)

    async def until_failing(self) -> str:
        async with asyncio.timeout(60):
            # As a health check would: by looking at `failing` now and then.
            while self.writer.failing is None:  # noqa: ASYNC110
                await asyncio.sleep(0.01)
        return self.writer.failing

    async def check_everything_recorded_once(self, storage: Storage | None = None) -> None:
        assert await self.writer.flush(60)
        assert self.writer.failing is None
        storage = storage or self.storage
        assert self.writer.written == len(self.submitted)
        counted = 0
        for player in (ALICE, BOB, CAROL):
            stats = await storage.stats(player, GUILD)
            assert stats.rating is not None
            assert stats.rating.games == stats.vs_people.games
            counted += stats.vs_people.games
        assert counted == 2 * len(self.submitted)  # two players a game, each game once
        for game in (self.submitted[0], self.submitted[-1]):
            assert await storage.game(game.game_id) == game
        writer_lines = [r for r in self.caplog.records if r.name == WRITER_LOG]
        warnings = [r.getMessage() for r in writer_lines if r.levelno >= logging.WARNING]
        recoveries = [r.getMessage() for r in writer_lines if "works again" in r.getMessage()]
        assert len(warnings) == 1, warnings
        assert warnings[0].startswith("Cannot record games")
        assert len(recoveries) == 1, recoveries


async def start_run(
    storage: Storage,
    tmp_path,
    caplog,
    batch_size: int = DEFAULT_BATCH,
    max_in_memory: int = DEFAULT_MAX_IN_MEMORY,
) -> Run:
    caplog.set_level(logging.INFO, logger=WRITER_LOG)
    writer = RecordWriter(
        storage,
        tmp_path / "spool.jsonl",
        first_retry=0.02,
        last_retry=0.2,
        batch_size=batch_size,
        max_in_memory=max_in_memory,
    )
    await writer.start()
    return Run(storage, writer, caplog)


async def through_fault(run: Run, begin, end, during: int = 10) -> str:
    """Games before the fault, when it starts, during it, and after it clears; why writing
    failed. (A full disk only fails a write that needs a new page: `during` games make sure.)"""
    run.finish_games(10)
    assert await run.writer.flush(60)
    await begin()
    run.finish_games(during)
    reason = await run.until_failing()
    run.finish_games(10)
    assert run.writer.pending == during + 10
    await end()
    run.finish_games(5)
    return reason


async def close(run: Run) -> None:
    assert await run.writer.close() == 0
    await run.storage.close()


# PostgreSQL


async def test_postgresql_stopped_mid_run_and_started_again(server, pg_url, tmp_path, caplog):
    run = await start_run(await open_records(pg_url, query_timeout=QUICK), tmp_path, caplog)

    async def stop():
        await asyncio.to_thread(server.stop)

    async def start():
        await asyncio.to_thread(server.start)

    await through_fault(run, stop, start)
    await run.check_everything_recorded_once()
    await close(run)


async def test_an_outage_longer_than_memory_keeps_the_rest_in_the_spool(
    server, pg_url, tmp_path, caplog
):
    """Memory holds a bounded number of the games waiting; the spool holds them all, and the
    ones memory let go are read back from it once the database is back: each recorded once."""
    storage = await open_records(pg_url, query_timeout=QUICK)
    run = await start_run(storage, tmp_path, caplog, batch_size=2, max_in_memory=6)
    run.finish_games(4)
    assert await run.writer.flush(60)
    await asyncio.to_thread(server.stop)
    for _ in range(8):  # as games end during an outage: a few at a time
        run.finish_games(5)
        await run.until_failing()
        assert not await run.writer.flush(0.05)  # the writer's turn: it spools them
        assert run.writer.in_memory <= 6
    assert run.writer.pending == 40
    spooled = (tmp_path / "spool.jsonl").read_text().splitlines()
    assert len(spooled) == 40
    await asyncio.to_thread(server.start)
    run.finish_games(3)
    await run.check_everything_recorded_once()
    await close(run)


async def test_postgresql_down_at_start_up(server, pg_url, tmp_path, caplog):
    await asyncio.to_thread(server.stop)
    with pytest.raises(ConnectionRefusedError):
        await open_records(pg_url, query_timeout=QUICK)
    caplog.set_level(logging.WARNING, logger="bot.records.sql.storage")
    # What the bot does: start anyway; the storage migrates on its first successful write.
    storage = await open_records(pg_url, query_timeout=QUICK, required=False)
    [warning] = [r.getMessage() for r in caplog.records if r.name == "bot.records.sql.storage"]
    assert warning.startswith("The records database postgresql+asyncpg://")
    assert "cannot be reached (ConnectionRefusedError" in warning
    run = await start_run(storage, tmp_path, caplog)
    run.finish_games(10)
    await run.until_failing()
    run.finish_games(10)
    await asyncio.to_thread(server.start)
    await run.check_everything_recorded_once()
    await close(run)


async def test_postgresql_hung_and_resumed(server, pg_url, tmp_path, caplog):
    # SIGSTOP on every server process: connections stay open and nothing answers, as with a
    # host that froze; the client's own timeout gives up, and SIGCONT brings it back.
    run = await start_run(await open_records(pg_url, query_timeout=QUICK), tmp_path, caplog)

    async def hang():
        server.signal_all(signal.SIGSTOP)

    async def resume():
        server.signal_all(signal.SIGCONT)

    try:
        await through_fault(run, hang, resume)
    finally:
        server.signal_all(signal.SIGCONT)
    await run.check_everything_recorded_once()
    await close(run)


async def test_postgresql_slow_behind_a_lock(pg_url, tmp_path, caplog):
    # Another client holds the games table (a long migration, a VACUUM FULL): every write
    # waits past the storage's timeout until it lets go.
    run = await start_run(await open_records(pg_url, query_timeout=QUICK), tmp_path, caplog)
    other = create_async_engine(pg_url)
    holder = await other.connect()

    async def lock():
        await holder.begin()
        await holder.execute(text("LOCK TABLE games IN ACCESS EXCLUSIVE MODE"))

    async def unlock():
        await holder.rollback()

    try:
        reason = await through_fault(run, lock, unlock)
    finally:
        await holder.close()
        await other.dispose()
    assert reason.startswith(("QueryCanceledError", "LockNotAvailableError")), reason
    await run.check_everything_recorded_once()
    await close(run)


async def test_postgresql_read_only(server, pg_url, tmp_path, caplog):
    run = await start_run(await open_records(pg_url, query_timeout=QUICK), tmp_path, caplog)

    async def read_only():
        server.sql("ALTER SYSTEM SET default_transaction_read_only = on")
        server.sql("SELECT pg_reload_conf()")

    async def read_write():
        server.sql("ALTER SYSTEM RESET default_transaction_read_only")
        server.sql("SELECT pg_reload_conf()")

    try:
        reason = await through_fault(run, read_only, read_write)
    finally:
        await read_write()
    assert reason.startswith("ReadOnlySQLTransactionError"), reason
    await run.check_everything_recorded_once()
    await close(run)


async def test_postgresql_disk_full(server, tmp_path, caplog):
    # The database lives in a tablespace on a small tmpfs; a file fills it up.
    postgres = pwd.getpwnam("postgres")
    disk = server.root / f"disk-{uuid.uuid4().hex[:8]}"
    options = f"uid={postgres.pw_uid},gid={postgres.pw_gid},mode=0700"
    with tmpfs(disk, "8m", options):
        space = f"small_{uuid.uuid4().hex[:8]}"
        server.sql(f"CREATE TABLESPACE {space} LOCATION '{disk}'")
        try:
            with server.database(f"full_{uuid.uuid4().hex[:8]}", tablespace=space) as url:
                storage = await open_records(url, query_timeout=QUICK)
                run = await start_run(storage, tmp_path, caplog)
                filler = None

                async def fill_up():
                    nonlocal filler
                    filler = await asyncio.to_thread(fill, disk)

                async def free():
                    assert filler is not None
                    filler.unlink()

                reason = await through_fault(run, fill_up, free, during=300)
                assert reason.startswith("DiskFullError"), reason
                await run.check_everything_recorded_once()
                await close(run)
        finally:
            server.sql(f"DROP TABLESPACE IF EXISTS {space}")


# SQLite


async def test_sqlite_slow_behind_another_writer(tmp_path, caplog):
    # Another process (here: another connection) holds the write lock longer than the
    # storage's busy timeout.
    path = tmp_path / "records.db"
    storage = await open_records(f"sqlite+aiosqlite:///{path}", query_timeout=QUICK)
    run = await start_run(storage, tmp_path, caplog)
    other = sqlite3.connect(path, isolation_level=None)

    async def lock():
        other.execute("BEGIN IMMEDIATE")

    async def unlock():
        other.execute("ROLLBACK")

    try:
        await through_fault(run, lock, unlock)
    finally:
        other.close()
    await run.check_everything_recorded_once()
    await close(run)


async def test_sqlite_read_only(tmp_path, caplog):
    with tmpfs(tmp_path / "disk", "16m") as disk:
        storage = await open_records(f"sqlite+aiosqlite:///{disk / 'records.db'}")
        run = await start_run(storage, tmp_path, caplog)

        async def read_only():
            # Linux remounts read-only only once no file there is open for writing (a disk
            # that errors is forced read-only at once; that cannot be done from here): the
            # storage lets go of its idle connections first, and opens new ones on the
            # read-only filesystem.
            await storage.database.release()
            remount(disk, "ro")

        async def read_write():
            remount(disk, "rw")

        try:
            await through_fault(run, read_only, read_write)
        finally:
            remount(disk, "rw")
        await run.check_everything_recorded_once()
        await close(run)


async def test_sqlite_disk_full(tmp_path, caplog):
    with tmpfs(tmp_path / "disk", "4m") as disk:
        storage = await open_records(f"sqlite+aiosqlite:///{disk / 'records.db'}")
        run = await start_run(storage, tmp_path, caplog)
        filler = None

        async def fill_up():
            nonlocal filler
            filler = await asyncio.to_thread(fill, disk)

        async def free():
            assert filler is not None
            filler.unlink()

        reason = await through_fault(run, fill_up, free, during=300)
        assert reason.startswith("OperationalError: database or disk is full"), reason
        await run.check_everything_recorded_once()
        await close(run)
