"""The in-process world of the load benchmarks: a bot (ours, or another discord.py client)
logged in to the fake Discord (fake_discord.Harness: gateway frames decoded and parsed by
discord.py, answers through its HTTP stack, no socket), N games one per text channel, and the
play step: one click fed, handled to the end, its CPU measured and its answer checked.
"""

from __future__ import annotations

import asyncio
import gc
import math
import random
import time
from collections import Counter, deque
from dataclasses import dataclass, field

import discord

from fake_discord import FakeChannel, FakeUser, Harness, Json, Sent, first_empty, is_over, is_v2
from fake_discord.rest import TOKEN

from .measure import deep_sizeof
from .ours import Settings, TicTacToeBot

# Longer than any run (a run at 50,000 games under tracemalloc takes over 10 minutes): no game
# expires halfway, and no expiry edit is measured.
TURN_TIMEOUT_SECONDS = 24 * 3600

Response = discord.InteractionResponseType


def our_bot(*, shard_count: int | None = None, **kwargs: object) -> TicTacToeBot:
    """Ours as the benchmarks run it: a seeded AI, no game expiring during a run; `kwargs`
    go to TicTacToeBot (records=..., writer=...)."""
    settings = Settings(
        token=TOKEN, turn_timeout_seconds=TURN_TIMEOUT_SECONDS, shard_count=shard_count
    )
    return TicTacToeBot(settings, rng=random.Random(0), **kwargs)  # type: ignore[arg-type]


@dataclass
class World:
    """N games, one per channel. Per-game state in flat lists: little for the GC to scan."""

    harness: Harness
    users: list[FakeUser]
    channels: list[FakeChannel]
    message_ids: list[int]  # the board message of each game (0: none yet)
    over: bytearray
    errors: Counter[str] = field(default_factory=Counter)

    def live(self) -> list[int]:
        return [i for i, m in enumerate(self.message_ids) if m and not self.over[i]]

    def board(self, i: int) -> Json:
        """Game i's board message, as Discord shows it."""
        return self.harness.discord.message(self.message_ids[i])

    def shape(self) -> str:
        """The layout of the boards: "v2" (Components V2) or "classic"."""
        first = self.board(0) if self.message_ids[0] else {}
        return "v2" if first and is_v2(first) else "classic"

    def harness_bytes(self) -> int:
        """What the harness (fake Discord, records, these lists) holds."""
        fake, harness = self.harness.discord, self.harness
        return deep_sizeof(
            (
                fake.requests,
                fake.messages,
                fake.last_message_ids,
                fake.users,
                fake.interactions,
                harness._sent,
                harness._channels,
                self.users,
                self.channels,
                self.message_ids,
                self.over,
            )
        )


async def make_world(
    n: int,
    channels_per_guild: int,
    bot: discord.Client | None,
    *,
    spread_over_shards: bool = False,
) -> World:
    """`bot` (None: ours) logged in, with N users and N channels in servers of
    `channels_per_guild`; spread_over_shards: the servers' ids spread them evenly over the bot's
    shards (made in one go, they would all fall in one millisecond, so on one shard), and READY
    sent for every shard first."""
    gc.unfreeze()  # the previous world's bot froze its objects; let them go
    gc.collect()
    harness = await Harness.start(
        seed=0, record=False, bot=bot or our_bot(), turn_timeout_seconds=TURN_TIMEOUT_SECONDS
    )
    guilds = [
        harness.create_guild(
            f"server {g}",
            channels=channels_per_guild,
            announce=False,
            shard=g if spread_over_shards else None,
        )
        for g in range(math.ceil(n / channels_per_guild))
    ]
    channels = [channel for guild in guilds for channel in guild.channels][:n]
    users = [harness.create_user(f"player{i}") for i in range(n)]
    # The harness's records of users and channels are exempt from collection, so that the
    # collections measured scan the bot's objects only; then the servers are announced, and
    # discord.py's caches of them are built (unfrozen, as in production).
    gc.freeze()
    if spread_over_shards:
        await harness.connect()
    for guild in guilds:
        harness.announce(guild)
    return World(harness, users, channels, [0] * n, bytearray(n))


async def close_world(world: World) -> None:
    await world.harness.close()
    world.harness.discord.messages.clear()


def expect_one_answer(world: World, sent: Sent, kind: discord.InteractionResponseType) -> Json:
    """The message of the interaction's one successful public answer of type `kind`; {} (and
    an error counted) otherwise."""
    if len(sent.requests) != 1:
        world.errors[f"{len(sent.requests)} requests for one interaction"] += 1
        return {}
    (request,) = sent.requests
    if not request.succeeded or request.type is not kind or request.ephemeral:
        world.errors[f"{request.type} status {request.status}: {request.content!r}"] += 1
        return {}
    assert request.message is not None
    return request.message


async def start_games(world: World) -> None:
    """Every user starts a game, one INTERACTION_CREATE per event-loop iteration like the
    gateway, so that handlers interleave; each answer is checked and forgotten at once."""
    harness = world.harness
    in_flight: deque[tuple[int, Sent]] = deque()

    async def settle(i: int, sent: Sent) -> None:
        await sent.wait()
        message = expect_one_answer(world, sent, Response.channel_message)
        if message:
            world.message_ids[i] = int(message["id"])
        harness.forget(sent)

    for i in range(len(world.users)):
        in_flight.append((i, harness.dispatch_slash(world.users[i], world.channels[i])))
        await asyncio.sleep(0)  # the gateway reads the next event on a later iteration
        while in_flight and all(task.done() for task in in_flight[0][1].tasks):
            await settle(*in_flight.popleft())
    while in_flight:
        await settle(*in_flight.popleft())


@dataclass
class Clicks:
    """Per click, in seconds: CPU to the transport (the targets' figure), CPU of the whole
    click, and wall time from feeding it to its handler's end."""

    to_transport: list[float] = field(default_factory=list)
    whole: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def take_last(self, other: Clicks) -> None:
        """Add `other`'s last click to these (e.g. a click that finished a game)."""
        self.to_transport.append(other.to_transport[-1])
        self.whole.append(other.whole[-1])
        self.wall.append(other.wall[-1])


async def click_once(world: World, i: int, cell: tuple[int, int], clicks: Clicks) -> Json:
    """Feed one click on game i's board and let it be handled to the end; record its CPU
    (thread time: feeding the frame to the answer reaching the transport, minus the harness's
    own code in between; and the whole click minus the fake's work); its answer's message."""
    harness = world.harness
    message = world.board(i)
    fake_cpu = harness.discord.cpu_seconds
    started = time.perf_counter()
    sent = harness.dispatch_click(world.users[i], message, cell=cell)
    before_wait = time.thread_time()
    for task in sent.tasks:
        await task
    done = time.thread_time()
    wall = time.perf_counter() - started
    answer = expect_one_answer(world, sent, Response.message_update)
    if answer:
        parse = sent.parsed_cpu - sent.dispatched_cpu
        clicks.to_transport.append(parse + sent.requests[0].cpu_at - before_wait)
        fake = harness.discord.cpu_seconds - fake_cpu
        clicks.whole.append(parse + done - before_wait - fake)
        clicks.wall.append(wall)
    harness.forget(sent)
    return answer


async def play_once(world: World, i: int, clicks: Clicks) -> bool:
    """Our player i plays the first empty cell of the board as Discord shows it: the play
    step. Whether game i is over (or its click failed)."""
    cell = first_empty(world.board(i))
    assert cell is not None
    answer = await click_once(world, i, cell, clicks)
    world.over[i] = not answer or is_over(answer)
    return bool(world.over[i])


def bot_live_games(bot: discord.Client) -> int | None:
    """The bot's own count of live games, if a cog exposes its registry as `store`/`games`."""
    for cog in getattr(bot, "cogs", {}).values():
        registry = getattr(cog, "store", getattr(cog, "games", None))
        try:
            return len(registry)  # type: ignore[arg-type]
        except TypeError:
            continue
    return None
