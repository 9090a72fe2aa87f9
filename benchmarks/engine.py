"""Benchmark the engine: a naive CS50-style minimax against ours, the cold first move, warm calls.

Run from anywhere with `python benchmarks/engine.py`; it prints a report and always exits 0.

1. Naive vs ours: a textbook CS50 minimax written here (list-of-lists boards, copy.deepcopy in
   result, recursive max-value/min-value, no cache, no pruning) against `tictactoe.minimax`,
   warm, on the 9 positions after one move, and once on the empty board.
2. Cold first move: `import tictactoe` + `minimax(initial_state())` in a fresh interpreter, minus
   a bare `python -c pass`, median of many runs; also timed inside the child.
3. Warm calls: the mean time of one `minimax` call over every non-terminal reachable position.
"""

from __future__ import annotations

import copy
import importlib
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

TARGET_RATIO = 300_000
TARGET_COLD_MS = 25.0
TARGET_WARM_US = 2.0

COLD_RUNS = 21
WARM_CALLS_PER_POSITION = 100_000
WARM_SWEEPS = 200

NaiveBoard = list[list[str | None]]


def load_engine() -> ModuleType:
    """Import `tictactoe` from the repository, wherever the script is started from."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    # By name: the benchmark uses the engine's public functions only, so type checking it
    # does not pull in (and report on) the engine's own modules.
    return importlib.import_module("tictactoe")


# --- 1. the naive reference, as a CS50 student would write it ----------------------------------

NAIVE_X, NAIVE_O, NAIVE_EMPTY = "X", "O", None


def naive_player(board: NaiveBoard) -> str:
    x_count = sum(row.count(NAIVE_X) for row in board)
    o_count = sum(row.count(NAIVE_O) for row in board)
    return NAIVE_X if x_count <= o_count else NAIVE_O


def naive_actions(board: NaiveBoard) -> set[tuple[int, int]]:
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is NAIVE_EMPTY}


def naive_result(board: NaiveBoard, action: tuple[int, int]) -> NaiveBoard:
    if action not in naive_actions(board):
        raise ValueError(f"invalid action {action}")
    new_board = copy.deepcopy(board)
    i, j = action
    new_board[i][j] = naive_player(board)
    return new_board


def naive_winner(board: NaiveBoard) -> str | None:
    lines = [list(row) for row in board]
    lines += [[board[i][j] for i in range(3)] for j in range(3)]
    lines.append([board[i][i] for i in range(3)])
    lines.append([board[i][2 - i] for i in range(3)])
    for line in lines:
        if line[0] is not NAIVE_EMPTY and line.count(line[0]) == 3:
            return line[0]
    return None


def naive_terminal(board: NaiveBoard) -> bool:
    if naive_winner(board) is not None:
        return True
    return all(cell is not NAIVE_EMPTY for row in board for cell in row)


def naive_utility(board: NaiveBoard) -> int:
    won = naive_winner(board)
    return 1 if won == NAIVE_X else -1 if won == NAIVE_O else 0


def naive_max_value(board: NaiveBoard) -> float:
    if naive_terminal(board):
        return naive_utility(board)
    value = -math.inf
    for action in naive_actions(board):
        value = max(value, naive_min_value(naive_result(board, action)))
    return value


def naive_min_value(board: NaiveBoard) -> float:
    if naive_terminal(board):
        return naive_utility(board)
    value = math.inf
    for action in naive_actions(board):
        value = min(value, naive_max_value(naive_result(board, action)))
    return value


def naive_minimax(board: NaiveBoard) -> tuple[int, int] | None:
    if naive_terminal(board):
        return None
    if naive_player(board) == NAIVE_X:
        return max(naive_actions(board), key=lambda a: naive_min_value(naive_result(board, a)))
    return min(naive_actions(board), key=lambda a: naive_max_value(naive_result(board, a)))


# --- timing helpers -----------------------------------------------------------------------------


def time_once(function: Callable[[NaiveBoard], object], board: NaiveBoard) -> float:
    """Seconds taken by one call."""
    start = time.perf_counter()
    function(board)
    return time.perf_counter() - start


def time_warm(engine: ModuleType, board: NaiveBoard, calls: int) -> float:
    """Mean seconds per call of `engine.minimax(board)` after a warm-up call."""
    minimax = engine.minimax
    minimax(board)
    start = time.perf_counter()
    for _ in range(calls):
        minimax(board)
    return (time.perf_counter() - start) / calls


def after_one_move(engine: ModuleType) -> list[NaiveBoard]:
    return [engine.result(engine.initial_state(), (i, j)) for i in range(3) for j in range(3)]


def fmt_seconds(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e9:.0f} ns"


# --- 1. naive vs ours ---------------------------------------------------------------------------


def bench_naive_vs_ours(engine: ModuleType) -> dict[str, float]:
    print("1. Naive CS50 minimax (deepcopy, no cache, no pruning) vs tictactoe.minimax (warm)")
    print(f"   {'X at':<8}{'naive':>10}{'ours warm':>12}{'ratio':>14}   moves (naive / ours)")
    ratios, naive_times, our_times = [], [], []
    for board in after_one_move(engine):
        cell = next((i, j) for i in range(3) for j in range(3) if board[i][j] is not None)
        naive_seconds = time_once(naive_minimax, copy.deepcopy(board))
        ours_seconds = time_warm(engine, board, WARM_CALLS_PER_POSITION)
        ratio = naive_seconds / ours_seconds
        naive_times.append(naive_seconds)
        our_times.append(ours_seconds)
        ratios.append(ratio)
        moves = f"{naive_minimax(copy.deepcopy(board))} / {engine.minimax(board)}"
        print(
            f"   {cell!s:<8}{fmt_seconds(naive_seconds):>10}{fmt_seconds(ours_seconds):>12}"
            f"{ratio:>13,.0f}x   {moves}"
        )
    mean_naive, mean_ours = statistics.fmean(naive_times), statistics.fmean(our_times)
    print(
        f"   {'mean':<8}{fmt_seconds(mean_naive):>10}{fmt_seconds(mean_ours):>12}"
        f"{mean_naive / mean_ours:>13,.0f}x   (ratio of the means)"
    )
    print(f"   lowest per-position ratio: {min(ratios):,.0f}x")

    empty = engine.initial_state()
    print("   empty board, naive, single run ...", end=" ", flush=True)
    naive_empty = time_once(naive_minimax, copy.deepcopy(empty))
    ours_empty = time_warm(engine, empty, WARM_CALLS_PER_POSITION)
    print(
        f"{fmt_seconds(naive_empty)}; ours warm {fmt_seconds(ours_empty)}; "
        f"ratio {naive_empty / ours_empty:,.0f}x"
    )
    print()
    return {
        "min_ratio": min(ratios),
        "mean_ratio": mean_naive / mean_ours,
        "mean_naive": mean_naive,
        "mean_ours": mean_ours,
        "naive_empty": naive_empty,
        "ours_empty": ours_empty,
    }


# --- 2. cold first move -------------------------------------------------------------------------

CHILD_CODE = """\
import time
start = time.perf_counter()
import tictactoe
move = tictactoe.minimax(tictactoe.initial_state())
elapsed = time.perf_counter() - start
import importlib.util, os
pyc = importlib.util.cache_from_source(tictactoe.solver.__file__)
print(elapsed, move, os.path.exists(pyc), sep="|")
"""


def run_child(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall-clock seconds of one fresh interpreter, and what it printed."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return time.perf_counter() - start, done.stdout


def bench_cold_start() -> dict[str, float]:
    print(f"2. Cold first move: fresh `{Path(sys.executable).name}`, median of {COLD_RUNS} runs")
    compile_command = [sys.executable, "-m", "compileall", "-q", str(ROOT / "tictactoe")]
    compiled = subprocess.run(compile_command, check=False)
    print("   bytecode compiled first (python -m compileall -q tictactoe), as when deployed;")
    if compiled.returncode != 0:
        print("   WARNING: compileall reported an error; some modules may run from source")
    print("   PYTHONDONTWRITEBYTECODE only stops writing .pyc files, the children still read them")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)

    # One unmeasured run of each, then interleave so that drift hits both alike.
    run_child(["-c", "pass"], env)
    run_child(["-c", CHILD_CODE], env)
    bare, full, inside, pyc_found, moves = [], [], [], set(), set()
    for _ in range(COLD_RUNS):
        bare.append(run_child(["-c", "pass"], env)[0])
        seconds, output = run_child(["-c", CHILD_CODE], env)
        full.append(seconds)
        elapsed, move, found = output.strip().split("|")
        inside.append(float(elapsed))
        pyc_found.add(found == "True")
        moves.add(move)
    bare_median, full_median = statistics.median(bare), statistics.median(full)
    cold = full_median - bare_median
    inside_median = statistics.median(inside)
    print(f"   python -c pass                          median {bare_median * 1e3:6.1f} ms")
    print(f"   import tictactoe + minimax(initial)     median {full_median * 1e3:6.1f} ms")
    print(f"   difference (cold first move)                   {cold * 1e3:6.1f} ms")
    print(f"   measured inside the child (perf_counter) median {inside_median * 1e3:5.1f} ms")
    print(f"   .pyc of tictactoe.solver present in the child: {sorted(pyc_found)}")
    print(f"   first move played: {sorted(moves)}")
    print()
    return {"cold_ms": cold * 1e3, "inside_ms": inside_median * 1e3, "bare_ms": bare_median * 1e3}


# --- 3. warm calls over every position ----------------------------------------------------------


def reachable_non_terminal(engine: ModuleType) -> list[NaiveBoard]:
    seen: dict[tuple[str | None, ...], NaiveBoard] = {}
    stack = [engine.initial_state()]
    while stack:
        board = stack.pop()
        key = tuple(cell for row in board for cell in row)
        if key in seen:
            continue
        seen[key] = board
        if not engine.terminal(board):
            stack.extend(engine.result(board, action) for action in engine.actions(board))
    return [board for board in seen.values() if not engine.terminal(board)]


def bench_warm(engine: ModuleType) -> dict[str, float]:
    boards = reachable_non_terminal(engine)
    minimax = engine.minimax
    for board in boards:  # warm-up pass
        minimax(board)
    start = time.perf_counter()
    for _ in range(WARM_SWEEPS):
        for board in boards:
            minimax(board)
    elapsed = time.perf_counter() - start
    calls = WARM_SWEEPS * len(boards)
    start = time.perf_counter()
    for _ in range(WARM_SWEEPS):
        for _board in boards:
            pass
    loop = time.perf_counter() - start
    mean = elapsed / calls
    print(f"3. Warm minimax over all {len(boards):,} non-terminal reachable positions")
    print(f"   {WARM_SWEEPS} sweeps, {calls:,} calls after a warm-up sweep: {elapsed:.2f} s")
    print(f"   mean per call {mean * 1e6:.3f} µs (loop overhead alone {loop / calls * 1e9:.0f} ns)")
    print()
    return {"warm_us": mean * 1e6, "positions": len(boards)}


def main() -> int:
    engine = load_engine()
    print(f"tictactoe engine benchmark: Python {sys.version.split()[0]} on {sys.platform}")
    print()
    versus = bench_naive_vs_ours(engine)
    cold = bench_cold_start()
    warm = bench_warm(engine)

    def verdict(ok: bool) -> str:
        return "MET" if ok else "NOT MET"

    print("=" * 78)
    print("SUMMARY")
    print(
        f"  naive / ours (warm), after one move: lowest {versus['min_ratio']:,.0f}x, "
        f"of the means {versus['mean_ratio']:,.0f}x   target ≥ {TARGET_RATIO:,}x  "
        f"{verdict(versus['min_ratio'] >= TARGET_RATIO)}"
    )
    print(
        f"    (naive mean {fmt_seconds(versus['mean_naive'])}, ours mean "
        f"{fmt_seconds(versus['mean_ours'])}; empty board: naive "
        f"{fmt_seconds(versus['naive_empty'])}, ours {fmt_seconds(versus['ours_empty'])})"
    )
    print(
        f"  cold first move (import + minimax(initial_state()) - python -c pass): "
        f"{cold['cold_ms']:.1f} ms   target ≤ {TARGET_COLD_MS:.0f} ms  "
        f"{verdict(cold['cold_ms'] <= TARGET_COLD_MS)}"
    )
    print(
        f"    (inside the child: {cold['inside_ms']:.1f} ms; bare interpreter start: "
        f"{cold['bare_ms']:.1f} ms; .pyc compiled beforehand)"
    )
    print(
        f"  warm minimax, mean per call over {warm['positions']:,} positions: "
        f"{warm['warm_us']:.3f} µs   target ≤ {TARGET_WARM_US:.0f} µs  "
        f"{verdict(warm['warm_us'] <= TARGET_WARM_US)}"
    )
    print("=" * 78)
    return 0


if __name__ == "__main__":
    sys.exit(main())
