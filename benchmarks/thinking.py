"""Benchmark the thinking pool (bot/kinds/ultimate/thinking.py): does the event loop stay
responsive while the AI thinks, and what do the worker processes cost?

Run from anywhere with `python benchmarks/thinking.py` (`--help` lists the options). It prints
one table and always exits 0.

- The lateness of a 1 ms asyncio ticker (how much later than asked each tick wakes: p50, p99,
  max) with nothing running, then while K calls of a CPU-bound function (`--spin` seconds of
  CPU each) run in a pool of W workers, and, for contrast, while one such call runs on the loop.
- The first call's latency (a worker's start-up included) and a warm call's, for a trivial
  function: the pool's own overhead per move.
- Resident memory: the benchmark's process (discord imported, like the bot's) and each worker,
  idle and after a real move of the engine (tictactoe.ultimate at "impossible").
"""

from __future__ import annotations

# Only the standard library at the top: a spawned worker imports this script again (as
# __mp_main__), and should then load what the bot's workers load, no more.
import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TICK = 0.001
MIB = 1024 * 1024


async def ticker_lateness(work: asyncio.Future[Any] | None, seconds: float) -> list[float]:
    """How late each 1 ms tick wakes, until `work` is done (or for `seconds` with no work)."""
    loop = asyncio.get_running_loop()
    lateness: list[float] = []
    end = loop.time() + seconds
    while (work is not None and not work.done()) or (work is None and loop.time() < end):
        asked = loop.time() + TICK
        await asyncio.sleep(TICK)
        lateness.append(loop.time() - asked)
    return lateness


async def run(spin: float, warm_calls: int) -> None:
    from benchmarks.lib.measure import machine, median, own_rss_bytes, percentile, rss_bytes
    from bot.kinds.ultimate.thinking import Thinkers, default_workers
    from tests.support import busy
    from tictactoe import ultimate

    budget = spin * 10 + 5

    def lateness_row(name: str, lateness: list[float]) -> None:
        figures = [percentile(lateness, 50), percentile(lateness, 99), max(lateness)]
        cells = "  ".join(f"{value * 1000:8.2f}" for value in figures)
        print(f"  {name:<34} {cells}   ({len(lateness)} ticks)")

    print(f"{machine()}; default workers here: {default_workers()}")
    print(f"\nLateness of a 1 ms asyncio ticker (ms), calls of {spin:.1f} s of CPU each:")
    print(f"  {'':<34} {'p50':>8}  {'p99':>8}  {'max':>8}")
    lateness_row("nothing running", await ticker_lateness(None, 2.0))
    for workers, calls in ((1, 1), (1, 4), (2, 2)):
        thinkers = Thinkers(workers)
        await asyncio.gather(
            *(thinkers.think(busy.square, n, budget=budget) for n in range(workers))
        )
        work = asyncio.gather(
            *(thinkers.think(busy.spin, spin, budget=budget) for _ in range(calls))
        )
        started = time.perf_counter()
        lateness = await ticker_lateness(work, 0)
        elapsed = time.perf_counter() - started
        await work
        await thinkers.close()
        lateness_row(f"{calls} calls, {workers} worker(s), {elapsed:.1f} s", lateness)

    async def on_the_loop() -> None:
        await asyncio.sleep(0.01)
        busy.spin(spin)

    blocking = asyncio.ensure_future(on_the_loop())
    lateness_row("1 call on the event loop itself", await ticker_lateness(blocking, 0))

    firsts, warms = [], []
    for _ in range(3):
        thinkers = Thinkers(1)
        started = time.perf_counter()
        await thinkers.think(busy.square, 2, budget=budget)
        firsts.append(time.perf_counter() - started)
        for n in range(warm_calls):
            started = time.perf_counter()
            await thinkers.think(busy.square, n, budget=budget)
            warms.append(time.perf_counter() - started)
        await thinkers.close()
    print("\nA trivial call (ms):")
    print(
        f"  first call, a worker started: median {median(firsts) * 1000:.1f}, "
        f"max {max(firsts) * 1000:.1f}"
    )
    print(
        f"  warm call: median {median(warms) * 1000:.3f}, p99 {percentile(warms, 99) * 1000:.3f} "
        f"({len(warms)} calls)"
    )

    main_before = own_rss_bytes()
    thinkers = Thinkers(2)
    await asyncio.gather(*(thinkers.think(busy.square, n, budget=budget) for n in range(2)))
    idle = [rss_bytes(pid) for pid in sorted(thinkers.pids)]
    started = time.perf_counter()
    move = await thinkers.think(ultimate.choose, ultimate.initial_state(), "impossible", budget=5)
    engine_seconds = time.perf_counter() - started
    after_move = [rss_bytes(pid) for pid in sorted(thinkers.pids)]
    main_with_pool = own_rss_bytes()
    await thinkers.close()
    print("\nResident memory (MiB):")
    print(
        f"  benchmark's process: {main_before / MIB:.1f} before the pool, "
        f"{main_with_pool / MIB:.1f} with 2 workers"
    )
    print(f"  each worker, idle: {', '.join(f'{rss / MIB:.1f}' for rss in idle)}")
    print(
        f"  each worker after one move at 'impossible' ({move}, {engine_seconds:.2f} s): "
        f"{', '.join(f'{rss / MIB:.1f}' for rss in after_move)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spin", type=float, default=1.0, help="CPU seconds per busy call")
    parser.add_argument("--warm-calls", type=int, default=200, help="warm trivial calls per pool")
    options = parser.parse_args()
    asyncio.run(run(options.spin, options.warm_calls))


if __name__ == "__main__":
    main()
