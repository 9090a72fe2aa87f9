"""Benchmark the puzzles: building the set in a fresh interpreter, then one click's work.

Run from anywhere with `python benchmarks/puzzles.py`; it prints a report and always exits 0.

1. Cold set: `import tictactoe.puzzles` + `puzzles()` in a fresh interpreter, timed inside the
   child (the interpreter's own start-up left out), median of several runs.
2. A click, warm: decode a button's state, answer a move, encode the new state; the mean over
   every first move of every puzzle in every orientation.
"""

from __future__ import annotations

import importlib
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COLD_RUNS = 7
TARGET_COLD_MS = 400.0
TARGET_CLICK_US = 200.0

_CHILD = """
import time
start, cpu = time.perf_counter(), time.process_time()
import tictactoe.puzzles as puzzles
count = len(puzzles.puzzles())
print(count, (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)
"""


def cold_set() -> tuple[int, list[float], list[float]]:
    """The puzzle count, and each run's wall-clock and CPU milliseconds (the CPU time is what
    the build costs; the wall clock also counts waiting for a busy machine)."""
    walls, cpus, count = [], [], 0
    for _ in range(COLD_RUNS):
        output = subprocess.run(
            [sys.executable, "-c", _CHILD],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        count = int(output[0])
        walls.append(float(output[1]))
        cpus.append(float(output[2]))
    return count, walls, cpus


def warm_clicks() -> tuple[int, float]:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    puzzles = importlib.import_module("tictactoe.puzzles")
    everything = puzzles.puzzles()
    states = [
        puzzles.encode(puzzles.start(found, symmetry))
        for found in everything
        for symmetry in range(puzzles.SYMMETRIES)
    ]
    clicks = 0
    start = time.perf_counter()
    for state in states:
        for i, row in enumerate(puzzles.decode(state).board):
            for j, cell in enumerate(row):
                if cell is None:  # a click: its button's state decoded, answered, encoded
                    attempt = puzzles.decode(state)
                    puzzles.encode(puzzles.answer(attempt, (i, j)).attempt)
                    clicks += 1
    return clicks, (time.perf_counter() - start) / clicks * 1e6


def main() -> int:
    count, walls, cpus = cold_set()
    print(
        f"1. Cold set: {count} puzzles, import included, in {statistics.median(cpus):.0f} ms of"
        f" CPU ({statistics.median(walls):.0f} ms wall clock), medians of {COLD_RUNS} runs"
        f" (target under {TARGET_COLD_MS:.0f} ms)"
    )
    clicks, mean_us = warm_clicks()
    print(
        f"2. A click, warm: {mean_us:.0f} us per decode + answer + encode, over {clicks} moves"
        f" (target under {TARGET_CLICK_US:.0f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
