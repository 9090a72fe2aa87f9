"""Functions the thinking pool's tests run in its worker processes (bot/kinds/ultimate/thinking.py).

They live in a module of their own so that a worker imports this and nothing else of the tests;
the files they are given let a test see what happened inside a worker without sleeping.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path


def spin(cpu_seconds: float) -> float:
    """Burn `cpu_seconds` of this process's CPU time (however loaded the machine); its result."""
    end = time.process_time() + cpu_seconds
    total = 0.0
    while time.process_time() < end:
        total += sum(range(1000))
    return total


def square(number: int) -> int:
    return number * number


def pid_and_square(number: int) -> tuple[int, int]:
    return os.getpid(), number * number


def timed_spin(cpu_seconds: float) -> tuple[int, float, float]:
    """This worker's pid, and the system-wide monotonic times its spin started and ended."""
    start = time.monotonic()
    spin(cpu_seconds)
    return os.getpid(), start, time.monotonic()


def top_modules() -> frozenset[str]:
    """The top-level packages this worker has imported."""
    return frozenset(name.partition(".")[0] for name in sys.modules)


def die_times(counter: Path, deaths: int, number: int) -> int:
    """Kill its own process `deaths` times in all (counted in `counter`), then square `number`."""
    died = int(counter.read_text()) if counter.exists() else 0
    if died < deaths:
        counter.write_text(str(died + 1))
        os.kill(os.getpid(), signal.SIGKILL)
    return number * number


def exit_abruptly(counter: Path, number: int) -> int:
    """os._exit the first time (no clean-up, as a crash), then square `number`."""
    if not counter.exists():
        counter.write_text("1")
        os._exit(3)
    return number * number


def stuck(pid_file: Path) -> None:
    """Write this worker's pid, then loop forever (an engine that forgot its budget)."""
    pid_file.write_text(str(os.getpid()))
    while True:
        spin(0.01)


def raise_timeout() -> None:
    raise TimeoutError("the function's own")


def raise_value_error(message: str) -> None:
    raise ValueError(message)


def hold_until(started: Path, release: Path) -> int:
    """Say it started, then run until `release` exists; this worker's pid."""
    started.write_text("started")
    while not release.exists():
        spin(0.005)
    return os.getpid()


def die_once_after(started: Path, counter: Path, release: Path) -> int:
    """Once `started` exists: kill its own process the first time; then create `release`."""
    while not started.exists():
        spin(0.005)
    if not counter.exists():
        counter.write_text("1")
        os.kill(os.getpid(), signal.SIGKILL)
    release.write_text("released")
    return os.getpid()
