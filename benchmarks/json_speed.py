"""Benchmark: does `discord.py[speed]` (orjson for discord.py's JSON) pay for this bot?

    python benchmarks/json_speed.py                     # 1,000 games, 3 runs
    python benchmarks/json_speed.py --games 10000 --repeat 1

Needs orjson importable (pinned in requirements-bot.txt); a benchmark, not a test: it prints
figures and exits 0.

discord.py decodes every gateway frame and REST answer with `discord.utils._from_json`, and
encodes every request body with `discord.utils._to_json`: orjson's when it is installed, the
standard library's otherwise. Here one bot (benchmarks/lib/world.py's world: N games, one per
channel, played to the end a round at a time) plays every other game with each: before each
click both functions are set to one library's, so the two halves of the games interleave and
the machine's slow spells fall on both alike. CPU per click as in bot_load.py: thread CPU time
from feeding the click's frame to the answer reaching the transport, and the whole click with
the answer read back, minus the fake Discord's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord.utils
import orjson

from benchmarks.lib.measure import median
from benchmarks.lib.world import Clicks, close_world, make_world, play_once, start_games

Codec = tuple[Callable[[Any], str], Callable[[Any], Any]]


def codecs() -> dict[str, Codec]:
    def orjson_dumps(obj: Any) -> str:
        return orjson.dumps(obj).decode("utf-8")  # as discord.utils does with orjson

    def stdlib_dumps(obj: Any) -> str:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=True)

    return {"stdlib json": (stdlib_dumps, json.loads), "orjson": (orjson_dumps, orjson.loads)}


def use(codec: Codec) -> None:
    discord.utils._to_json, discord.utils._from_json = codec  # type: ignore[assignment]


async def run(n: int, channels_per_guild: int, table: dict[str, Codec]) -> dict[str, Clicks]:
    names = list(table)
    clicks = {name: Clicks() for name in names}
    use(table[names[0]])
    world = await make_world(n, channels_per_guild, None)
    try:
        await start_games(world)
        while live := world.live():
            for i in live:
                name = names[i % len(names)]
                use(table[name])
                await play_once(world, i, clicks[name])
        return clicks
    finally:
        await close_world(world)


async def main_async(args: argparse.Namespace) -> int:
    table = codecs()
    runs = [await run(args.games, args.channels_per_guild, table) for _ in range(args.repeat)]
    print(f"=== {args.games:,} games, {len(runs)} run(s), every other game with each library ===")
    print(f"  {'CPU per click (µs), median of run means':44} {'transport':>10} {'whole':>8}")
    means = {}
    for name in table:
        transport = median([statistics.fmean(run[name].to_transport) * 1e6 for run in runs])
        whole = median([statistics.fmean(run[name].whole) * 1e6 for run in runs])
        means[name] = (transport, whole)
        print(f"  {name:44} {transport:10,.0f} {whole:8,.0f}")
    (base_t, base_w), (fast_t, fast_w) = means.values()
    print(
        f"  orjson saves {base_t - fast_t:,.0f} µs to transport ({1 - fast_t / base_t:.1%}), "
        f"{base_w - fast_w:,.0f} µs per whole click ({1 - fast_w / base_w:.1%})"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--channels-per-guild", type=int, default=100)
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
