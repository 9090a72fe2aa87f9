"""Bot processes sharing one fake Discord, each running some of the shards: what
tests/ops/test_bot_shards.py and tests/guilds/ start to see a server move between processes."""

from __future__ import annotations

import random
from pathlib import Path
from types import TracebackType
from typing import Self

from bot_helpers import Clock

from bot.app import TicTacToeBot
from bot.ops.shards import shard_of
from bot.records.startup import start_records
from bot.settings import Settings
from fake_discord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, Harness
from fake_discord.rest import TOKEN

SHARDS = 4
TIMEOUT = 600


class Cluster:
    """Bot processes sharing one fake Discord. Like the gateway, it sends each server's events
    to the process running the server's shard, and DMs to the one running shard 0."""

    def __init__(self) -> None:
        self.discord: FakeDiscord | None = None
        self.processes: list[Harness] = []
        self.guilds: list[FakeGuild] = []
        self.channels: list[FakeChannel] = []
        self.clock = Clock()

    async def start(
        self,
        shard_ids: tuple[int, ...] | None,
        shard_count: int = SHARDS,
        *,
        database_url: str | None = None,
        data_dir: Path | None = None,
    ) -> Harness:
        """A new process; given a database, it records games there (spooling in `data_dir`,
        each process its own, as in production)."""
        settings = Settings(
            token=TOKEN,
            turn_timeout_seconds=TIMEOUT,
            shard_count=shard_count,
            shard_ids=shard_ids,
        )
        records = writer = None
        if database_url is not None:
            assert data_dir is not None
            records, writer = await start_records(database_url, data_dir / "spool.jsonl")
        bot = TicTacToeBot(
            settings,
            rng=random.Random(len(self.processes)),
            clock=self.clock,
            records=records,
            writer=writer,
        )
        harness = await Harness.start(bot=bot, discord_=self.discord)
        self.discord = harness.discord
        await harness.connect()
        harness.adopt(*self.channels)
        for guild in self.guilds:  # the servers of its shards, as Discord sends them on READY
            if runs(harness, guild.id):
                harness.announce(guild)
        self.processes.append(harness)
        return harness

    def create_guild(self, shard: int, name: str) -> FakeChannel:
        """A server with one channel, whose id puts it on `shard` (of SHARDS)."""
        harness = self.processes[0]
        while True:
            guild = harness.create_guild(name, announce=False)
            if shard_of(guild.id, SHARDS) == shard:
                break
        self.guilds.append(guild)
        self.add_channels(*guild.channels)
        self.serving(guild.channels[0]).announce(guild)
        return guild.channels[0]

    def create_dm(self, user: FakeUser) -> FakeChannel:
        channel = self.processes[0].create_dm(user)
        self.add_channels(channel)
        return channel

    def add_channels(self, *channels: FakeChannel) -> None:
        self.channels.extend(channels)
        for harness in self.processes:
            harness.adopt(*channels)

    def serving(self, channel: FakeChannel) -> Harness:
        """The running process whose shards include this channel's."""
        for harness in self.processes:
            if not harness.closed and runs(harness, channel.guild_id):
                return harness
        raise LookupError(f"no process runs the shard of channel {channel.id}")

    async def close(self) -> None:
        for harness in reversed(self.processes):
            await harness.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def runs(harness: Harness, guild_id: int | None) -> bool:
    bot = harness.bot
    assert isinstance(bot, TicTacToeBot)
    return shard_of(guild_id, bot.shard_count) in (bot.running_shards() or [])
