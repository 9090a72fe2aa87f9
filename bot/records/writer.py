"""The background writer: finished games go in without waiting, and reach the database in
batches, whatever state the database is in.

`submit()` appends the game to the spool (a JSON-lines file; see below for when it is fsynced):
one write() into the kernel's cache, a few microseconds, no await, nothing a click could wait on.
One task records everything not yet written in one call to `Records.record`, once the first game
of a batch has lingered (`linger`) or a batch is full: `submit()` wakes it only then. While that
fails (down, slow past its timeout, read-only, full) it retries with exponential backoff, keeps
spooling whatever arrives, and says so once: one warning when writing starts failing, one info
line when it works again. Memory holds at most `max_in_memory` of the games waiting (about
0.5 KB each); the rest are only in the spool, and are read back from it, that many at a time,
once the database takes the ones in memory. While writing fails, memory is full or the spool
cannot be written (or a worker thread is using it), `submit()` only queues the game and the task
spools it (fsynced, in a worker thread, when it is to wait). `pending` and `failing` are there
for health checks. `close()` (a clean stop: SIGTERM, Ctrl-C) writes everything pending if the
database answers within its bounded wait, and otherwise leaves it in the spool, which the next
start replays.

What a SIGKILL can lose: no game that was appended to the spool (a write into the kernel's
cache, which a killed process does not lose). While the spool works, that is every game
`submit()` returned from, except for the ones it only queued (see above) that the task has not
appended yet (it does as soon as it runs; `at_risk` counts them). Everything appended is either
in the database or replayed at the next start, database outage or not. A power cut can also
lose the games appended but not yet fsynced: those of the last three seconds or so (lingering, or
being written); games that wait for the database (it failed, or memory is full) are fsynced. (An
fsync per game cost more than all the rest of recording it: docs/performance.md.) Recording is
idempotent, so replaying a game that did reach the database before the kill changes nothing.
Without a spool (spool_path None), a SIGKILL loses every game not yet in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bot.records.api import GameRecord, Item, Key, PuzzleAttempt, Records, key_of, without_player
from bot.records.outage import Outage
from bot.records.spool import Spool

log = logging.getLogger(__name__)

DEFAULT_BATCH = 500
# Games waiting for the database that memory holds; the spool holds the rest (without a spool,
# or while it cannot be written, memory holds them all: there is nowhere else).
DEFAULT_MAX_IN_MEMORY = 5_000
FIRST_RETRY_SECONDS = 0.5
LAST_RETRY_SECONDS = 30.0
DEFAULT_STOP_SECONDS = 10.0
# How long a finished game may wait (safe in the spool) for others to share its transaction: a
# batch costs about 1 ms of CPU and each game in it about 0.05 ms more (docs/performance.md).
# Reads do not wait for it: the records cog flushes what is pending before it reads.
DEFAULT_LINGER_SECONDS = 3.0

_T = TypeVar("_T")


class RecordWriter:
    """Owns the queue, the spool and the task that writes them.

    Usage (the records cog): `writer = RecordWriter(records, data_dir / "records-spool.jsonl")`,
    `await writer.start()` in setup, `writer.submit(GameRecord.from_finished(finished))` on every
    finished game, `await writer.close()` on shutdown (before closing `records`).
    """

    def __init__(
        self,
        records: Records,
        spool_path: Path | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        batch_size: int = DEFAULT_BATCH,
        max_in_memory: int = DEFAULT_MAX_IN_MEMORY,
        first_retry: float = FIRST_RETRY_SECONDS,
        last_retry: float = LAST_RETRY_SECONDS,
        linger: float = DEFAULT_LINGER_SECONDS,
    ) -> None:
        self._records = records
        self._spool = None if spool_path is None else Spool(spool_path)
        self._spool_failing = False
        self._batch_size = batch_size
        self._linger = linger
        self._oldest: float | None = None  # when the oldest game waiting in memory arrived
        self._hurry = False  # flush(): write now, without lingering
        self._spool_busy = False  # a worker thread uses the spool: submit() must not append
        self._queue: deque[Item] = deque()  # submitted, not yet spooled
        self._unwritten: dict[Key, Item] = {}  # spooled (or not: see above), not written
        self._max_in_memory = max(max_in_memory, batch_size)
        # The games only the spool holds: from byte `_backlog_from` to its end, about
        # `_backlog` of them (a game appended twice counts twice: recording it is idempotent).
        self._backlog_from: int | None = None
        self._backlog = 0
        self._spooled = False  # the spool file holds something
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._failed = asyncio.Event()  # set when a write fails (see flush)
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._outage = Outage(clock, first_retry, last_retry)
        self.written = 0  # games this writer recorded (new to the database)
        # Told how long each successful batch took, in seconds (the bot's metrics).
        self.on_write: Callable[[float], None] = _ignore

    @property
    def pending(self) -> int:
        """Games submitted or replayed and not yet in the database."""
        return len(self._queue) + len(self._unwritten) + self._backlog

    @property
    def in_memory(self) -> int:
        """Games waiting in memory (at most `max_in_memory` while the spool works)."""
        return len(self._queue) + len(self._unwritten)

    @property
    def at_risk(self) -> int:
        """Games held only in memory, not yet in the spool or the database: what a SIGKILL now
        would lose."""
        if self._spool is None or self._spool_failing:
            return self.pending
        return len(self._queue)

    @property
    def failing(self) -> str | None:
        """Why writing fails at the moment (one line), or None while it works."""
        return self._outage.reason

    async def start(self) -> int:
        """Lock and replay the spool, then start writing; returns how many games the spool held
        (written in the background like any other). SpoolInUseError if another process holds
        the spool."""
        if self._task is not None:
            raise RuntimeError("the writer is already started")
        replayed = 0
        if self._spool is not None:
            replayed = await asyncio.to_thread(self._spool.open)
            self._spooled = bool(replayed)
            if replayed:
                # Read back as any backlog is: a bounded number at a time.
                self._backlog_from, self._backlog = 0, replayed
                log.info("Recording %d game(s) left by the last run", replayed)
                self._drained.clear()
        self._task = asyncio.create_task(self._run(), name="records-writer")
        self._wake.set()
        return replayed

    def submit(self, game: Item) -> None:
        """Take a finished game or puzzle attempt. Never blocks, never awaits: it appends the
        game to the spool (a write into the kernel's cache) or queues it for the task."""
        self._drained.clear()
        if self._takes_at_once():
            try:
                if self._spool is not None:
                    self._spool.add(game)
                    self._spooled = True
            except OSError:
                pass  # queued below: the task tries again, and says so if it fails too
            else:
                self._unwritten[key_of(game)] = game
                if self._oldest is None:  # the first of a batch: the task times its linger
                    self._oldest = asyncio.get_running_loop().time()
                    self._wake.set()
                elif len(self._unwritten) >= self._batch_size:
                    self._wake.set()
                return
        self._queue.append(game)
        self._wake.set()

    def _takes_at_once(self) -> bool:
        """Whether submit() may spool a game itself (on the loop, without fsync) and leave it
        to linger; otherwise the task takes it from the queue, as it must while games are to
        wait fsynced (writing fails, memory is full) or the spool fails or is in use."""
        return (
            self._task is not None
            and not self._stopping
            and not self._queue
            and not self._spool_failing
            and not self._spool_busy
            and self._outage.reason is None
            and self._backlog_from is None
            and len(self._unwritten) < self._max_in_memory
        )

    async def _in_thread(self, work: Callable[..., _T], *args: object) -> _T:
        """A blocking spool operation in a worker thread; submit() queues meanwhile."""
        self._spool_busy = True
        try:
            return await asyncio.to_thread(work, *args)
        finally:
            self._spool_busy = False

    async def flush(self, wait: float = DEFAULT_STOP_SECONDS, *, retry: bool = True) -> bool:
        """Try to write everything pending now; True once nothing is pending, False if `wait`
        seconds pass first. A failing database is retried at once, and again as it keeps
        failing; without `retry`, the wait ends as soon as a write fails (a read that would
        like the latest games in, but not at any price)."""
        if self.pending == 0:
            return True
        if retry:
            self._outage.retry_now()
        self._failed.clear()
        self._hurry = True
        self._wake.set()
        ends = [asyncio.ensure_future(self._drained.wait())]
        if not retry:
            ends.append(asyncio.ensure_future(self._failed.wait()))
        try:
            await asyncio.wait(ends, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for end in ends:
                end.cancel()
        return self.pending == 0

    async def forget(self, user_id: int, wait: float = DEFAULT_STOP_SECONDS) -> int:
        """Delete a player's data (`Records.forget`) after writing what is pending, and take
        them out of the games still waiting, so that nothing recreates them. Raises what the
        database raises (the cog then asks the player to try again later)."""
        await self.flush(wait)
        forgotten = await self._records.forget(user_id)
        self._queue = deque(without_player(game, user_id) for game in self._queue)
        self._unwritten = {
            key: without_player(game, user_id) for key, game in self._unwritten.items()
        }
        if self._spool is not None and self._spooled and self._task is not None:
            # The spool must not bring them back after a kill either.
            await self._in_thread(self._rewrite_spool, user_id)
        return forgotten

    def _rewrite_spool(self, user_id: int) -> None:
        assert self._spool is not None
        self._backlog_from = self._spool.rewrite(
            list(self._unwritten.values()),
            self._backlog_from,
            lambda game: without_player(game, user_id),
        )

    async def close(self, wait: float = DEFAULT_STOP_SECONDS) -> int:
        """Stop: write what is pending (waiting at most `wait` seconds for the database),
        spool what could not be written, release the spool. Returns how many games were left
        for the next start (in the spool; lost if there is none)."""
        written = await self.flush(wait)
        self._stopping = True
        self._wake.set()
        if self._task is not None:
            try:
                async with asyncio.timeout(1.0 if written else 0.0):
                    await asyncio.shield(self._task)
            except TimeoutError:
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task
            self._task = None
        left = self.pending
        if self._spool is not None:
            # What the spool does not hold yet: the queue, and everything if appending failed.
            unsaved = [*self._unwritten.values()] if self._spool_failing else []
            unsaved += self._queue
            if unsaved:
                with contextlib.suppress(OSError):
                    await asyncio.to_thread(self._spool.append, unsaved)
            await asyncio.to_thread(self._spool.close)
        if left:
            log.warning("Stopped with %d game(s) not recorded; the next start records them", left)
        return left

    # The task

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._stopping:
            self._wake.clear()
            try:
                await self._spool_queue()
                waiting = self._unwritten or self._backlog_from is not None
                due = self._due()
                if waiting and loop.time() >= due:
                    await self._write()
            except Exception:  # a bug, not the database: keep the games and keep going
                log.exception("The records writer failed unexpectedly; retrying")
                self._outage.failed_unexpectedly(loop.time())
                self._failed.set()
            if self.pending == 0:
                self._drained.set()
                self._hurry = False
                wait = None
            elif self._queue:
                continue  # more arrived while writing: spool them now
            else:
                wait = max(self._due() - loop.time(), 0.0)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._wake.wait()

    def _due(self) -> float:
        """When the next write may start: after a failure's retry delay, and, unless a batch is
        full, a backlog waits or a flush hurries it, once the oldest game has lingered."""
        due = self._outage.next_attempt
        lingering = (
            self._oldest is not None
            and not self._hurry
            and self._backlog_from is None
            and len(self._unwritten) < self._batch_size
        )
        if lingering:
            assert self._oldest is not None
            due = max(due, self._oldest + self._linger)
        return due

    async def _spool_queue(self) -> None:
        if not self._queue:
            return
        if self._oldest is None:
            self._oldest = asyncio.get_running_loop().time()
        batch = list(self._queue)
        spooled_at = 0
        memory_full = (
            self._backlog_from is not None
            or len(self._unwritten) + len(batch) > self._max_in_memory
        )
        if self._spool is not None:
            try:
                if memory_full or self._outage.reason is not None:
                    # These wait on disk: fsynced, in a worker thread.
                    spooled_at = await self._in_thread(self._spool.append, batch)
                else:
                    # Into the kernel's cache, on the loop (microseconds): a kill loses none
                    # of them, and they are in the database within seconds or fsynced then.
                    spooled_at = self._spool.append(batch, sync=False)
                self._spooled = True
                if self._spool_failing:
                    self._spool_failing = False
                    log.info("Writing %s works again", self._spool.path)
            except OSError as error:
                self._cannot_spool(error)
        to_disk_only = self._spool is not None and not self._spool_failing and memory_full
        for _ in batch:
            game = self._queue.popleft()
            if not to_disk_only:
                self._unwritten[key_of(game)] = game
        if to_disk_only:
            # Read back in order once memory is free: after the backlog already there.
            if self._backlog_from is None:
                self._backlog_from = spooled_at
            self._backlog += len(batch)

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        while (self._unwritten or self._backlog_from is not None) and loop.time() >= self._due():
            await self._spool_queue()  # what ended meanwhile is safe before the next batch
            if not self._unwritten:
                await self._read_backlog()
                continue
            batch = list(itertools.islice(self._unwritten.values(), self._batch_size))
            if len(batch) == len(self._unwritten):
                # The games that end while this batch is written linger from the first of them.
                self._oldest = None
            started = time.perf_counter()
            games = [item for item in batch if isinstance(item, GameRecord)]
            attempts = [item for item in batch if isinstance(item, PuzzleAttempt)]
            try:
                if games:
                    self.written += await self._records.record(games)
                if attempts:
                    self.written += await self._records.record_puzzles(attempts)
            except Exception as error:
                self._outage.failed(error, loop.time(), self.pending, self._spool is not None)
                self._failed.set()
                await self._sync_spool()  # they wait: make them survive a power cut too
                return
            self.on_write(time.perf_counter() - started)
            for game in batch:
                del self._unwritten[key_of(game)]
            self._outage.recovered()
        if not self._unwritten:
            self._oldest = None
        if (
            self._spooled
            and self._spool is not None
            and not self._spool_failing
            and not self._queue
            and self._backlog_from is None
        ):
            # Down to what is not written yet: the games that ended during the write.
            unwritten = list(self._unwritten.values())
            try:
                await self._in_thread(self._spool.clear, unwritten)
                self._spooled = bool(unwritten)
            except OSError as error:  # replaying games that are already written is harmless
                log.debug("Could not empty %s: %s", self._spool.path, error)

    def _cannot_spool(self, error: OSError) -> None:
        # The games stay in memory and still go to the database; only a SIGKILL before then
        # would lose them.
        if not self._spool_failing:
            self._spool_failing = True
            assert self._spool is not None
            log.warning("Cannot write %s (%s): games wait in memory", self._spool.path, error)

    async def _sync_spool(self) -> None:
        if self._spool is None or not self._spooled or self._spool_failing:
            return
        try:
            await self._in_thread(self._spool.sync)
        except OSError as error:
            self._cannot_spool(error)

    async def _read_backlog(self) -> None:
        """Bring the next games only the spool holds into memory (at most max_in_memory)."""
        assert self._spool is not None
        assert self._backlog_from is not None
        games, after = await self._in_thread(
            self._spool.read, self._backlog_from, self._max_in_memory
        )
        for game in games:
            self._unwritten[key_of(game)] = game
        if games and after < await self._in_thread(self._spool.end):
            self._backlog_from = after
            self._backlog = max(self._backlog - len(games), 0)
        else:
            self._backlog_from, self._backlog = None, 0


def _ignore(seconds: float) -> None:
    pass
