"""Thinking off the event loop: the AI's moves run in worker processes (`Thinkers`).

Each worker is a one-process `concurrent.futures.ProcessPoolExecutor`, driven from asyncio by
`loop.run_in_executor`: the standard library carries the call and its result or exception, and
the event loop only waits on a future. One executor per worker rather than one executor of N
workers, because a `ProcessPoolExecutor` cannot kill one of its calls: a stuck call (past its
time) could only be stopped by killing the whole pool, and a worker's death breaks every call
in flight on it. With one process per executor, a stuck or dead worker is that call's alone:
it is killed and replaced, and the other calls never notice.

The workers are started with "spawn": each is a fresh interpreter that imports only the module
of the function it runs (the engine: no discord, no bot). "fork" would copy a process that runs
threads (the executor's own, aiohttp's resolver, the records' writer): a lock another thread
held at the fork stays locked forever in the child. "forkserver" would leave a server process
behind that `close()` does not own.

The rules a call follows:
- At most `workers` calls run at once, one per worker; the others wait on the event loop (an
  asyncio semaphore), never in a process queue, so a call's clock starts when its worker does.
- Workers start on first use, and an idle worker is reused.
- A worker that dies during a call (SIGKILL, segfault, os._exit) is replaced and the call is
  run once more on a fresh worker; a second death raises `WorkerDied`.
- A call that outlives its `budget` + `margin` is stuck (the engine keeps its own budget) or
  starved: its worker is killed and replaced, and the call raises `ThinkingTimedOut` at once.
  It is not retried: that would double a player's wait for a likely repeat, and the caller can
  answer sooner (with an apology, or a quick move of its own).
- The function's own exceptions reach the caller unchanged; its worker stays in service.
- `close()` kills the workers and reaps them; calls in flight raise `ThinkersClosed`.
Every failure of the pool is a `ThinkingFailed`: the caller answers it with an apology.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

log = logging.getLogger(__name__)


def _pools() -> ModuleType:
    """concurrent.futures.process, imported on the first thought rather than with the bot: a
    bot that never plays an ultimate game does not carry it (nor multiprocessing's start-up
    machinery) in memory."""
    import concurrent.futures.process

    return concurrent.futures.process


T = TypeVar("T")

# The most workers by default, however many cores: each holds an interpreter and the engine in
# memory, and more searches than cores only share the cores, each searching less in its budget.
MOST_DEFAULT_WORKERS = 4
# How long past its budget a call may run: the engine stops early within its budget, this covers
# the call's transport and a busy machine's scheduling.
DEFAULT_MARGIN = 2.0
# How long a new worker may take to start (an interpreter's start-up on a loaded machine).
DEFAULT_START_TIMEOUT = 30.0


class ThinkingFailed(Exception):
    """The pool could not think the move out; the caller answers with an apology."""


class WorkerDied(ThinkingFailed):
    """The call's worker died, and so did the one it was retried on."""


class ThinkingTimedOut(ThinkingFailed):
    """The call ran past its budget and margin: its worker was killed."""


class ThinkersClosed(ThinkingFailed):
    """The pool is closed (the bot is closing)."""


class _PastLimit(Exception):
    """A call ran past its limit (distinct from any TimeoutError of the function's own)."""


def default_workers() -> int:
    """One core for the event loop, the others for thinking, at least one and a few at most."""
    try:
        cores = len(os.sched_getaffinity(0))  # the cores this process may run on (a container's)
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores - 1, MOST_DEFAULT_WORKERS))


class _Worker:
    """One worker process: its executor, and a handle to kill exactly that process."""

    def __init__(self, executor: ProcessPoolExecutor, pid: int) -> None:
        self.executor = executor
        self.pid = pid
        # A pid file descriptor names this process and no other, even once its pid is reused
        # (the executor reaps a worker that dies on its own).
        self._pidfd: int | None = None
        self._gone = False
        if hasattr(os, "pidfd_open"):
            try:
                self._pidfd = os.pidfd_open(pid)
            except ProcessLookupError:  # died already: its pid may be another's soon
                self._gone = True
            except OSError:  # a kernel without pidfds
                pass

    def kill(self) -> None:
        if self._gone:
            return
        try:
            if self._pidfd is not None:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def release(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


class Thinkers:
    """A bounded pool of worker processes that runs picklable functions off the event loop."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        margin: float = DEFAULT_MARGIN,
        start_timeout: float = DEFAULT_START_TIMEOUT,
    ) -> None:
        self.workers = default_workers() if workers is None else workers
        if self.workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.margin = margin
        self.start_timeout = start_timeout
        self._context: Any = None  # multiprocessing's "spawn" context, on the first worker
        self._slots = asyncio.Semaphore(self.workers)
        self._idle: list[_Worker] = []
        self._live: set[_Worker] = set()
        self._retiring: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def pids(self) -> frozenset[int]:
        """The live workers' process ids."""
        return frozenset(worker.pid for worker in self._live)

    async def think(self, fn: Callable[..., T], *args: Any, budget: float) -> T:
        """`fn(*args)` run in a worker process, waiting at most `budget` + margin seconds.

        `fn` and its arguments and result must be picklable (`fn` a module-level function).
        Raises what `fn` raises, or a `ThinkingFailed`.
        """
        loop = asyncio.get_running_loop()
        async with self._slots:
            died = False
            while True:
                self._check_open()
                worker = await self._worker()
                try:
                    future = loop.run_in_executor(worker.executor, fn, *args)
                except _pools().BrokenProcessPool:  # it died while idle: not this call's death
                    self._retire(worker)
                    continue
                try:
                    result = await self._outcome(future, budget + self.margin)
                except _pools().BrokenProcessPool as error:
                    self._retire(worker)
                    self._check_open()
                    if died:
                        raise WorkerDied(f"{_name(fn)}: two workers died in a row") from error
                    died = True
                    log.warning("A worker died running %s: replaced, the call retried", _name(fn))
                except _PastLimit:
                    self._retire(worker)
                    self._check_open()
                    log.error("%s ran past %.1f s: its worker killed", _name(fn), budget)
                    raise ThinkingTimedOut(f"{_name(fn)} ran past its budget") from None
                except asyncio.CancelledError:
                    self._retire(worker)  # it still runs a call no one waits for
                    raise
                except BaseException:
                    self._release(worker)  # fn's own exception: the worker is sound
                    raise
                else:
                    self._release(worker)
                    return result

    async def close(self) -> None:
        """Kill the workers and reap them; calls in flight raise `ThinkersClosed`. Idempotent."""
        self._closed = True
        for worker in list(self._live):
            self._retire(worker)
        while self._retiring:
            await asyncio.gather(*self._retiring)

    def _check_open(self) -> None:
        if self._closed:
            raise ThinkersClosed("the thinking pool is closed")

    async def _worker(self) -> _Worker:
        if self._idle:
            return self._idle.pop()
        return await self._start()

    async def _start(self) -> _Worker:
        if self._context is None:
            import multiprocessing

            self._context = multiprocessing.get_context("spawn")
        executor = _pools().ProcessPoolExecutor(max_workers=1, mp_context=self._context)
        try:
            # The first call starts the process, and tells its pid (which the executor keeps
            # to itself).
            future = asyncio.get_running_loop().run_in_executor(executor, os.getpid)
            pid = await asyncio.wait_for(future, self.start_timeout)
        except TimeoutError as error:
            # Not reaped: a process that never starts cannot be told to stop.
            executor.shutdown(wait=False, cancel_futures=True)
            raise ThinkingFailed("a worker did not start in time") from error
        except _pools().BrokenProcessPool as error:
            self._retiring_task(executor)
            raise ThinkingFailed("a worker died as it started") from error
        except BaseException:
            self._retiring_task(executor)  # it stops once started (the shutdown's sentinel)
            raise
        worker = _Worker(executor, pid)
        self._live.add(worker)
        log.debug("Thinking worker %s started", pid)
        if self._closed:  # closed while it started
            self._retire(worker)
            self._check_open()
        return worker

    @staticmethod
    async def _outcome(future: asyncio.Future[T], limit: float) -> T:
        # Not wait_for: a TimeoutError that fn raises is fn's own, not the limit's.
        done, _ = await asyncio.wait({future}, timeout=limit)
        if not done:
            future.cancel()
            raise _PastLimit
        if future.cancelled():  # by the executor's shutdown, as its worker was retired
            raise _pools().BrokenProcessPool("the call's worker was retired")
        return future.result()

    def _release(self, worker: _Worker) -> None:
        if self._closed:
            self._retire(worker)
        else:
            self._idle.append(worker)

    def _retire(self, worker: _Worker) -> None:
        """Kill the worker; its executor reaps it in the background."""
        if worker not in self._live:
            return
        self._live.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        worker.kill()
        self._retiring_task(worker.executor, worker)

    def _retiring_task(self, executor: ProcessPoolExecutor, worker: _Worker | None = None) -> None:
        async def retire() -> None:
            # shutdown(wait=True) joins the executor's thread, which reaps the killed process.
            await asyncio.to_thread(executor.shutdown, wait=True)
            if worker is not None:
                worker.release()

        task = asyncio.get_running_loop().create_task(retire())
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)


def _name(fn: Callable[..., object]) -> str:
    return getattr(fn, "__qualname__", repr(fn))
