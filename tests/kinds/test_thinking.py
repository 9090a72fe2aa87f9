"""The thinking pool runs the AI's moves in worker processes: never on the event loop, a bounded
number at once, a dead worker replaced and its call retried once, a stuck one killed, and no
process left behind once it is closed."""

from __future__ import annotations

import asyncio
import multiprocessing
import sys
from pathlib import Path

import discord  # the bot's process has it: the workers must not
import pytest

from bot.kinds.ultimate.thinking import (
    Thinkers,
    ThinkersClosed,
    ThinkingTimedOut,
    WorkerDied,
    default_workers,
)
from tests.support import busy

BUDGET = 30.0  # far above any call here: only the stuck-worker tests reach their limit


@pytest.fixture
async def pools():
    made: list[Thinkers] = []

    def make(*args, **kwargs) -> Thinkers:
        made.append(Thinkers(*args, **kwargs))
        return made[-1]

    yield make
    for thinkers in made:
        await thinkers.close()


def reaped(pid: int) -> bool:
    """The process is gone, not even a zombie waiting for its parent."""
    children = {child.pid for child in multiprocessing.active_children()}
    return pid not in children and not Path(f"/proc/{pid}").exists()


def test_default_workers_leave_a_core_to_the_event_loop():
    assert 1 <= default_workers() <= 4


async def test_no_process_before_the_first_call_and_results_come_back(pools):
    before = set(multiprocessing.active_children())
    thinkers = pools(2)
    assert thinkers.pids == frozenset()
    assert set(multiprocessing.active_children()) == before

    results = await asyncio.gather(
        *(thinkers.think(busy.square, n, budget=BUDGET) for n in range(6))
    )

    assert results == [n * n for n in range(6)]
    assert 1 <= len(thinkers.pids) <= 2


async def test_a_worker_imports_neither_discord_nor_the_bot(pools):
    assert discord.__name__ in sys.modules
    modules = await pools(1).think(busy.top_modules, budget=BUDGET)
    assert "tests" in modules  # it did import the function's module
    assert "discord" not in modules
    assert "bot" not in modules


async def test_the_event_loop_keeps_ticking_while_a_worker_thinks(pools):
    thinkers = pools(1)
    await thinkers.think(busy.square, 2, budget=BUDGET)  # the worker's start-up is not the point
    loop = asyncio.get_running_loop()
    ticks: list[float] = []

    async def tick() -> None:
        while True:
            ticks.append(loop.time())
            await asyncio.sleep(0.002)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)
    started = loop.time()
    await thinkers.think(busy.spin, 0.5, budget=BUDGET)
    ended = loop.time()
    ticker.cancel()

    thinking = [t for t in ticks if started <= t <= ended]
    largest_gap = max(b - a for a, b in zip([started, *thinking], [*thinking, ended], strict=True))
    # Had the call run on the loop, one gap would be the whole call (at least 0.5 s).
    assert ended - started >= 0.5
    assert largest_gap < (ended - started) / 4
    assert len(thinking) >= 10


async def test_at_most_n_calls_run_at_once_and_the_others_wait(pools):
    thinkers = pools(2)
    runs = await asyncio.gather(
        *(thinkers.think(busy.timed_spin, 0.1, budget=BUDGET) for _ in range(4))
    )

    assert len({pid for pid, _, _ in runs}) == 2
    running_at = [sum(s <= start < e for _, s, e in runs) for _, start, _ in runs]
    assert max(running_at) <= 2


async def test_a_worker_killed_mid_call_is_replaced_and_the_call_retried(pools, tmp_path):
    thinkers = pools(1)
    first_pid, _ = await thinkers.think(busy.pid_and_square, 1, budget=BUDGET)
    counter = tmp_path / "deaths"

    assert await thinkers.think(busy.die_times, counter, 1, 7, budget=BUDGET) == 49

    assert counter.read_text() == "1"
    new_pid, _ = await thinkers.think(busy.pid_and_square, 1, budget=BUDGET)
    assert new_pid != first_pid
    assert thinkers.pids == {new_pid}
    await thinkers.close()
    assert reaped(first_pid)


async def test_a_worker_that_exits_abruptly_is_replaced_too(pools, tmp_path):
    thinkers = pools(1)
    assert await thinkers.think(busy.exit_abruptly, tmp_path / "exits", 5, budget=BUDGET) == 25


async def test_a_call_that_kills_two_workers_fails_clearly_and_the_pool_goes_on(pools, tmp_path):
    thinkers = pools(1)
    counter = tmp_path / "deaths"

    with pytest.raises(WorkerDied):
        await thinkers.think(busy.die_times, counter, 2, 7, budget=BUDGET)

    assert counter.read_text() == "2"  # once, and once retried: no more
    assert await thinkers.think(busy.square, 3, budget=BUDGET) == 9


async def test_a_death_does_not_disturb_the_other_calls(pools, tmp_path):
    thinkers = pools(2)
    await asyncio.gather(*(thinkers.think(busy.square, n, budget=BUDGET) for n in range(2)))
    warm = thinkers.pids
    started, counter, release = tmp_path / "started", tmp_path / "deaths", tmp_path / "release"

    held_pid, dying_pid = await asyncio.gather(
        thinkers.think(busy.hold_until, started, release, budget=BUDGET),
        thinkers.think(busy.die_once_after, started, counter, release, budget=BUDGET),
    )

    # The held call ran through the other's death on its own worker, never retried.
    assert held_pid in warm
    assert dying_pid not in warm
    assert thinkers.pids == {held_pid, dying_pid}


async def test_a_stuck_worker_is_killed_without_blocking_the_others(pools, tmp_path):
    thinkers = pools(2, margin=1.0)
    await asyncio.gather(*(thinkers.think(busy.square, n, budget=BUDGET) for n in range(2)))
    pid_file = tmp_path / "stuck"

    stuck = asyncio.create_task(thinkers.think(busy.stuck, pid_file, budget=1.0))
    await asyncio.sleep(0)
    assert await thinkers.think(busy.square, 4, budget=BUDGET) == 16
    assert not stuck.done()
    with pytest.raises(ThinkingTimedOut):
        await stuck

    stuck_pid = int(pid_file.read_text())
    assert stuck_pid not in thinkers.pids
    assert await thinkers.think(busy.square, 5, budget=BUDGET) == 25
    await thinkers.close()
    assert reaped(stuck_pid)


async def test_the_functions_own_exceptions_reach_the_caller_and_the_worker_stays(pools):
    thinkers = pools(1)
    pid, _ = await thinkers.think(busy.pid_and_square, 1, budget=BUDGET)

    with pytest.raises(TimeoutError, match="the function's own"):
        await thinkers.think(busy.raise_timeout, budget=BUDGET)
    with pytest.raises(ValueError, match="no such move"):
        await thinkers.think(busy.raise_value_error, "no such move", budget=BUDGET)

    assert thinkers.pids == {pid}


async def test_close_stops_the_calls_in_flight_and_leaves_no_process(pools):
    thinkers = pools(2)
    await asyncio.gather(*(thinkers.think(busy.square, n, budget=BUDGET) for n in range(2)))
    pids = thinkers.pids
    assert len(pids) == 2
    in_flight = asyncio.create_task(thinkers.think(busy.spin, 60.0, budget=BUDGET))
    await asyncio.sleep(0)

    await thinkers.close()

    with pytest.raises(ThinkersClosed):
        await in_flight
    assert all(reaped(pid) for pid in pids)
    assert thinkers.pids == frozenset()
    await thinkers.close()  # again: nothing to do
    with pytest.raises(ThinkersClosed):
        await thinkers.think(busy.square, 2, budget=BUDGET)
