"""Benchmark: servers' settings at start-up. A process getting 10,000 servers (GUILD_CREATE,
as Discord sends them once its shards are ready), 1,000 of them with saved /settings: how long
until every setting is in memory, and how many queries that took, on SQLite and PostgreSQL;
against loading them one server at a time (one query each).

    python benchmarks/server_settings.py                       # both backends, 10,000 servers
    python benchmarks/server_settings.py --servers 2000 --backend sqlite

A benchmark, not a test: it prints figures and exits 0. The bot is TicTacToeBot logged in to the
fake Discord (fake_discord/): every GUILD_CREATE is a gateway frame parsed by discord.py, and the
settings come from a real database through the records' Storage. PostgreSQL is a throwaway server
started as the tests start theirs (testdb/postgres.py).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event

from benchmarks.lib.ours import (
    Mark,
    ServerSettings,
    ServerSettingsEvents,
    Settings,
    Storage,
    TicTacToeBot,
    open_records,
)
from fake_discord import Harness
from fake_discord.rest import TOKEN
from testdb.postgres import start_server

SAVED = ServerSettings(games_per_channel=4, difficulty="hard", x_emoji=Mark("x", 1_000_000_001))


async def run(url: str, servers: int, configured: int) -> None:
    storage = await open_records(url)
    bot = TicTacToeBot(Settings(token=TOKEN, shard_count=1), records=storage)
    harness = await Harness.start(bot=bot)
    try:
        await harness.connect()
        guilds = [harness.create_guild(f"s{n}", announce=False) for n in range(servers)]
        for guild in random.Random(0).sample(guilds, configured):
            await storage.save_settings(guild.id, SAVED)
        queries = 0

        def count(*_: object) -> None:
            nonlocal queries
            queries += 1

        events = bot.get_cog("ServerSettingsEvents")
        assert isinstance(events, ServerSettingsEvents)
        event.listen(storage.database.sync_engine, "before_cursor_execute", count)
        started = time.perf_counter()
        for guild in guilds:
            harness.announce(guild)
        announced = time.perf_counter()
        await events.settled()
        loaded = time.perf_counter()
        event.remove(storage.database.sync_engine, "before_cursor_execute", count)
        assert len(bot.server_settings) == configured
        one_by_one = await load_one_by_one(storage, [guild.id for guild in guilds])
        print(
            f"  {servers:,} GUILD_CREATEs parsed in {announced - started:.2f} s; then every "
            f"setting in memory {loaded - announced:.2f} s later ({events.window:.2f} s of it "
            f"the gathering window), {queries} statements (BEGIN included)"
        )
        print(f"  the same servers loaded one query each: {one_by_one:.2f} s, {servers:,} queries")
    finally:
        await harness.close()
        await storage.close()


async def load_one_by_one(storage: Storage, guild_ids: list[int]) -> float:
    started = time.perf_counter()
    for guild_id in guild_ids:
        await storage.load_settings(guild_id)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=10_000)
    parser.add_argument("--configured", type=int, default=None, help="default: a tenth")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    configured = args.servers // 10 if args.configured is None else args.configured
    print(f"Server settings at start-up: {args.servers:,} servers, {configured:,} configured")
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as directory:
            print("SQLite")
            asyncio.run(
                run(f"sqlite+aiosqlite:///{directory}/records.db", args.servers, configured)
            )
    if args.backend in ("postgresql", "both"):
        server = start_server()
        if server is None:
            print("PostgreSQL: not installed, skipped")
            return
        try:
            with server.database("settings_bench") as url:
                print("PostgreSQL")
                asyncio.run(run(url, args.servers, configured))
        finally:
            server.destroy()


if __name__ == "__main__":
    main()
