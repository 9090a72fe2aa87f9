"""Benchmark: what sharding costs one process. Clicks per second at N live games (default
10,000) with the bot running 4 shards, against the same bot running 1; and memory per shard.

    python benchmarks/shards_load.py                    # 10,000 games, 3 paired runs
    python benchmarks/shards_load.py --games 1000 --repeat 5

A benchmark, not a test: it prints figures and PASS/FAIL against targets, and exits 0.

Both bots are TicTacToeBot (an AutoShardedBot) in benchmarks/lib/world.py's world (the
fake Discord (fake_discord/): gateway frames decoded and parsed by discord.py, answers through
its HTTP stack, no socket), each told by READY frames that its shards are connected. Their N
games, in servers of 100 channels whose ids spread them over the shards, are played to the end
a round at a time, in paired runs: each click of the 4-shard bot is followed by one of the
1-shard bot's, so the machine's slow spells fall on both alike.

Measured
  * Clicks per second: 1 / the mean thread CPU time of a whole click (feeding its gateway
    frame to discord.py having read Discord's answer, minus the fake's own work); the CPU time
    to the answer reaching the transport is shown too. Medians over the paired runs.
  * Memory per shard: tracemalloc growth from logging a bot in and connecting its shards
    (READY, and the servers' GUILD_CREATE spread over them), for 16 shards and for 1, with no
    game; the difference divided by 15. What a real shard adds on top, and the harness has
    not: its websocket (an aiohttp connection and a zlib inflater).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import statistics
import sys
import tracemalloc
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


from benchmarks.lib.measure import LogCounter, machine, median, percentile
from benchmarks.lib.ours import TicTacToeBot, shard_of
from benchmarks.lib.world import (
    Clicks,
    World,
    close_world,
    make_world,
    our_bot,
    play_once,
    start_games,
)
from fake_discord import Harness

TARGET_RATIO = 1.05  # 4 shards' CPU per click, at most this many times 1 shard's
SHARDS = 4
MEMORY_SHARDS = 16


def sharded_bot(shard_count: int) -> TicTacToeBot:
    return our_bot(shard_count=shard_count)


@dataclass
class Paired:
    sharded: Clicks
    single: Clicks
    per_shard_games: list[int]


async def make_spread_world(n: int, channels_per_guild: int, shard_count: int) -> World:
    return await make_world(
        n, channels_per_guild, sharded_bot(shard_count), spread_over_shards=True
    )


async def run_paired(n: int, channels_per_guild: int) -> Paired:
    sharded = await make_spread_world(n, channels_per_guild, SHARDS)
    single = None
    try:
        await start_games(sharded)
        single = await make_spread_world(n, channels_per_guild, 1)
        await start_games(single)
        per_shard = [0] * SHARDS
        for channel in sharded.channels:
            per_shard[shard_of(channel.guild_id, SHARDS)] += 1
        gc.collect()
        clicks_sharded, clicks_single = Clicks(), Clicks()
        while live := sharded.live():
            for i in live:
                await play_once(sharded, i, clicks_sharded)
                if not single.over[i]:
                    await play_once(single, i, clicks_single)
        errors = sharded.errors + single.errors
        if errors:
            print(f"errors: {dict(errors)}")
        return Paired(clicks_sharded, clicks_single, per_shard)
    finally:
        if single is not None:
            await close_world(single)  # the later harness first: task factories are stacked
        await close_world(sharded)


async def connected_bytes(shard_count: int, guilds: int) -> int:
    """Traced growth from logging a bot in and connecting `shard_count` shards with `guilds`
    servers (one channel each), no game."""
    gc.collect()
    tracemalloc.start(1)
    try:
        base = tracemalloc.get_traced_memory()[0]
        harness = await Harness.start(bot=sharded_bot(shard_count), record=False)
        try:
            await harness.connect()
            for g in range(guilds):
                harness.create_guild(f"server {g}", channels=1)
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - base
        finally:
            await harness.close()
        return grown
    finally:
        tracemalloc.stop()


def cpu_figures(clicks: list[Clicks]) -> tuple[float, float, float]:
    """Medians over runs: mean µs to transport, mean µs whole click, p50 µs whole click."""
    return (
        median([statistics.fmean(c.to_transport) * 1e6 for c in clicks]),
        median([statistics.fmean(c.whole) * 1e6 for c in clicks]),
        median([percentile(c.whole, 50) * 1e6 for c in clicks]),
    )


async def main_async(args: argparse.Namespace) -> int:
    print("Tic-tac-toe bot: one process with 4 shards against 1, clicks per second and memory")
    print(machine() + "; one process, one thread")
    log = LogCounter.installed()
    n = args.games
    runs = [await run_paired(n, args.channels_per_guild) for _ in range(args.repeat)]
    sharded = cpu_figures([run.sharded for run in runs])
    single = cpu_figures([run.single for run in runs])
    ratios = [
        statistics.fmean(run.sharded.whole) / statistics.fmean(run.single.whole) for run in runs
    ]
    clicks = len(runs[0].sharded.whole)
    print()
    print(
        f"=== {n:,} live games, {clicks:,} clicks per bot per run, {len(runs)} paired run(s); "
        f"games per shard {runs[0].per_shard_games} ==="
    )
    print(f"  {'CPU per click (µs, medians of runs)':40} {'transport':>10} {'whole':>8} {'p50':>8}")
    print(f"  {'4 shards':40} {sharded[0]:10,.0f} {sharded[1]:8,.0f} {sharded[2]:8,.0f}")
    print(f"  {'1 shard':40} {single[0]:10,.0f} {single[1]:8,.0f} {single[2]:8,.0f}")
    print(
        f"  clicks per second, one core: 4 shards {1e6 / sharded[1]:,.0f}, "
        f"1 shard {1e6 / single[1]:,.0f}"
    )
    ratio = median(ratios)
    print(f"  4 shards / 1 shard, whole click, each run: {', '.join(f'{r:.3f}x' for r in ratios)}")
    guilds = args.memory_guilds
    many = await connected_bytes(MEMORY_SHARDS, guilds)
    one = await connected_bytes(1, guilds)
    per_shard = (many - one) / (MEMORY_SHARDS - 1)
    print(
        f"memory per shard          {per_shard / 1024:,.1f} KB ({MEMORY_SHARDS} shards "
        f"{many / 1024:,.0f} KB, 1 shard {one / 1024:,.0f} KB, {guilds} servers, no game; "
        "a real shard's websocket not included)"
    )
    ok = not math.isnan(ratio) and ratio <= TARGET_RATIO
    print(f"  {'PASS' if ok else 'FAIL'}  CPU per click, 4 shards <= {TARGET_RATIO}x 1 shard"
          f"          {ratio:.3f}x")  # fmt: skip
    log.report()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="paired runs (medians quoted)")
    parser.add_argument("--channels-per-guild", type=int, default=100)
    parser.add_argument("--memory-guilds", type=int, default=100)
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
