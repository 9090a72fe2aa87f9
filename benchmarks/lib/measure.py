"""Measuring: medians and percentiles, a process's own CPU clock and RSS, garbage collections,
and the warnings a run logs."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import math
import os
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import discord

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[rank]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else math.nan


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def machine() -> str:
    """One line: Python, CPUs, OS, discord.py."""
    return (
        f"machine: Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{os.cpu_count()} CPUs, {platform.machine()}, {platform.system()} "
        f"{platform.release()}; discord.py {discord.__version__}"
    )


@dataclass(frozen=True, slots=True)
class Figures:
    """Median over runs of p50 / p99 / mean, in µs."""

    p50: float
    p99: float
    mean: float

    @classmethod
    def of(cls, runs: list[list[float]]) -> Figures:
        return cls(
            median([percentile(r, 50) * 1e6 for r in runs]),
            median([percentile(r, 99) * 1e6 for r in runs]),
            median([statistics.fmean(r) * 1e6 if r else math.nan for r in runs]),
        )

    def row(self, label: str) -> str:
        return f"  {label:44} {self.p50:8,.0f} {self.p99:8,.0f} {self.mean:8,.0f}"


# ---------------------------------------------------------------------------------- processes


class ProcessClock:
    """Another process's own CPU clock (all its threads, user and system time), in seconds,
    read with the nanosecond clock Linux keeps for it (clock_getcpuclockid); where that is not
    available, from /proc/<pid>/stat (in clock ticks, 10 ms)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._clock: int | None = None
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            clock = ctypes.c_int()
            if libc.clock_getcpuclockid(pid, ctypes.byref(clock)) == 0:
                self._clock = clock.value

    def seconds(self) -> float:
        if self._clock is not None:
            return time.clock_gettime_ns(self._clock) / 1e9
        return stat_cpu_seconds(f"/proc/{self.pid}/stat")


def stat_cpu_seconds(stat_path: str) -> float:
    """utime + stime of a /proc/.../stat file, in seconds."""
    with open(stat_path) as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def thread_cpu_seconds(pid: int) -> dict[str, float]:
    """CPU seconds of each thread of `pid`, by "name (tid)"; the main thread is "main". From
    the scheduler's own count (schedstat, in nanoseconds) where the kernel keeps one, not the
    stat file's clock ticks: a thread that runs 10 ms in all would read 0 or 10 ms there."""
    threads: dict[str, float] = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            seconds = _thread_seconds(f"/proc/{pid}/task/{tid}")
            with open(f"/proc/{pid}/task/{tid}/comm") as file:
                name = file.read().strip()
            threads["main" if int(tid) == pid else f"{name} ({tid})"] = seconds
    return threads


def other_threads_seconds(before: dict[str, float], after: dict[str, float]) -> float:
    """CPU seconds the threads other than the main one spent between two readings of
    `thread_cpu_seconds` (a thread started in between counts from zero)."""
    return sum(seconds - before.get(name, 0.0) for name, seconds in after.items() if name != "main")


def _thread_seconds(task: str) -> float:
    try:
        with open(f"{task}/schedstat") as file:
            return int(file.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return stat_cpu_seconds(f"{task}/stat")


def rss_bytes(pid: int) -> int:
    """The resident set size of `pid` (VmRSS), in bytes."""
    with open(f"/proc/{pid}/statm") as file:
        return int(file.read().split()[1]) * PAGE_SIZE


def own_rss_bytes() -> int:
    return rss_bytes(os.getpid())


# ---------------------------------------------------------------------------------- in process


class GcLog:
    """Every garbage collection while installed, via gc.callbacks: (generation, seconds of wall
    time, seconds of thread CPU time; the CPU time shows how much of a long pause was the
    machine's scheduler)."""

    def __init__(self) -> None:
        self.collections: list[tuple[int, float, float]] = []
        self._started = (0.0, 0.0)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = (time.perf_counter(), time.thread_time())
        else:
            wall, cpu = self._started
            self.collections.append(
                (info["generation"], time.perf_counter() - wall, time.thread_time() - cpu)
            )

    @contextlib.contextmanager
    def recording(self) -> Iterator[GcLog]:
        gc.callbacks.append(self._on_gc)
        try:
            yield self
        finally:
            gc.callbacks.remove(self._on_gc)

    def count(self, generation: int) -> int:
        return sum(1 for g, _, _ in self.collections if g == generation)

    def longest(self, generation: int) -> tuple[float, float]:
        """The longest collection of `generation`: (wall seconds, CPU seconds)."""
        pauses = [(wall, cpu) for g, wall, cpu in self.collections if g == generation]
        return max(pauses, default=(0.0, 0.0))


def timed_full_collection(tries: int = 3) -> float:
    """The shortest of `tries` back-to-back gc.collect(2) calls, in seconds: what a full
    collection costs at the least with the heap as it is (the shortest, to leave out the
    machine's scheduler)."""
    best = math.inf
    for _ in range(tries):
        started = time.perf_counter()
        gc.collect(2)
        best = min(best, time.perf_counter() - started)
    return best


class LogCounter(logging.Handler):
    """Counts the warnings and errors logged during the runs instead of printing each one."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()
        self.first: dict[str, str] = {}

    def emit(self, record: logging.LogRecord) -> None:
        key = f"{record.levelname} {record.name}"
        self.counts[key] += 1
        self.first.setdefault(key, record.getMessage()[:160])

    @classmethod
    def installed(cls) -> LogCounter:
        counter = cls()
        logging.getLogger().addHandler(counter)
        return counter

    def report(self) -> None:
        print(f"\nwarnings and errors logged: {sum(self.counts.values())}")
        for key, count in self.counts.most_common():
            print(f"  {count:,} x {key}, the first: {self.first[key]}")


def deep_sizeof(root: object) -> int:
    """sys.getsizeof over a tree of builtins and slotted records (each object counted once)."""
    import asyncio
    from collections import deque

    seen: set[int] = set()
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is None or isinstance(obj, bool | type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset | deque):
            stack.extend(obj)
        elif hasattr(obj, "__slots__") and not isinstance(obj, asyncio.Task):
            for klass in type(obj).__mro__:
                for name in getattr(klass, "__slots__", ()):
                    with contextlib.suppress(AttributeError):
                        stack.append(getattr(obj, name))
    return total
