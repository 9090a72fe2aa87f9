"""Benchmark: what a server's settings cost a click. Two of our bots live in one process, clicks
taking turns: one where no server set anything, one where every server has /settings in force
(10 games per channel, a level, a turn timeout, emoji marks, a challenge cooldown).

    python benchmarks/settings_cost.py                   # 2,000 games, 5 paired runs
    python benchmarks/settings_cost.py --games 500 --repeat 3
    python benchmarks/settings_cost.py --marks           # X and O shown as emoji too

The same harness as bot_load.py (fake_discord/, discord.py's own gateway parser and HTTP stack,
no socket); the same figure: thread CPU from feeding a click's gateway frame to the answer
reaching the transport. Target: the bot with settings within 2% of the one without (median of
the paired runs' mean CPU per click). With --marks the settings also show X and O as emoji:
every board message is then larger (an emoji object per marked cell, longer custom_ids), which
discord.py parses on every click as it would for any bot's emoji buttons; reported against the
same target. A benchmark, not a test: it prints figures and PASS/FAIL
against the target, and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.lib.measure import machine, median, verdict
from benchmarks.lib.ours import Mark, ServerSettings, TicTacToeBot
from benchmarks.lib.world import Clicks, World, close_world, make_world, play_once, start_games

TARGET_RATIO = 1.02  # with settings in force, at most this many times the CPU per click
IN_FORCE = ServerSettings(
    games_per_channel=10,
    difficulty="impossible",  # the same level as the other bot plays, so the games match
    turn_timeout=600,
    challenge_cooldown=60,
)
WITH_MARKS = dataclasses.replace(IN_FORCE, x_emoji=Mark("❌"), o_emoji=Mark("⭕"))


def put_settings(world: World, settings: ServerSettings = IN_FORCE) -> None:
    bot = world.harness.bot
    assert isinstance(bot, TicTacToeBot)
    for guild_id in {channel.guild_id for channel in world.channels}:
        assert guild_id is not None
        bot.server_settings.put(guild_id, settings)


async def run_paired(
    n: int, channels_per_guild: int, settings: ServerSettings
) -> tuple[Clicks, Clicks, int]:
    """One run: both bots' N games started, then played to the end, a click of each in turn."""
    plain = await make_world(n, channels_per_guild, None)
    configured: World | None = None
    try:
        await start_games(plain)
        configured = await make_world(n, channels_per_guild, None)
        put_settings(configured, settings)
        await start_games(configured)
        gc.collect()
        plain_clicks, configured_clicks = Clicks(), Clicks()
        while live := sorted(set(plain.live()) | set(configured.live())):
            for i in live:
                if not plain.over[i]:
                    await play_once(plain, i, plain_clicks)
                if not configured.over[i]:
                    await play_once(configured, i, configured_clicks)
        errors = sum(plain.errors.values()) + sum(configured.errors.values())
        return plain_clicks, configured_clicks, errors
    finally:
        if configured is not None:
            await close_world(configured)  # the later harness first: task factories stack
        await close_world(plain)


async def main_async(args: argparse.Namespace) -> int:
    print(machine())
    settings = WITH_MARKS if args.marks else IN_FORCE
    print(
        f"{args.games} games per bot, servers of {args.channels_per_guild} channels, "
        f"{args.repeat} paired runs; in force: {settings}"
    )
    ratios, plain_us, configured_us = [], [], []
    for run in range(1, args.repeat + 1):
        plain, configured, errors = await run_paired(args.games, args.channels_per_guild, settings)
        plain_mean = statistics.fmean(plain.to_transport) * 1e6
        configured_mean = statistics.fmean(configured.to_transport) * 1e6
        ratios.append(configured_mean / plain_mean)
        plain_us.append(plain_mean)
        configured_us.append(configured_mean)
        print(
            f"run {run}: {len(plain.to_transport)} + {len(configured.to_transport)} clicks, "
            f"{errors} errors; µs per click: defaults {plain_mean:.1f}, "
            f"settings in force {configured_mean:.1f} ({ratios[-1]:.3f}x)"
        )
        if errors:
            print("FAIL: some clicks were not answered as expected")
            return 0
    ratio = median(ratios)
    print(
        f"median: defaults {median(plain_us):.1f} µs, settings in force "
        f"{median(configured_us):.1f} µs per click: {ratio:.3f}x "
        f"(target ≤ {TARGET_RATIO:.2f}x) {verdict(ratio <= TARGET_RATIO)}"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--channels-per-guild", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--marks", action="store_true", help="X and O shown as emoji too")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
