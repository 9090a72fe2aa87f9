"""The fake Discord's threads and its per-channel message rate limit, through discord.py's own
HTTP client and gateway parsers: a thread started from a message reaches discord.py's cache
(THREAD_CREATE) and a restarted bot's (GUILD_CREATE), messages and clicks work in it, Discord's
refusals (a second thread, missing permissions, a bad body) come as Discord words them, and
posting in a channel is held to 5 messages per window, 429s counted."""

import asyncio
import random
import re

import discord
import pytest
from bot_helpers import Clock

from fake_discord import Harness, reading
from fake_discord.openapi import spec
from fake_discord.payloads import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
from fake_discord.ratelimits import Bucket

ROW, BUTTON = discord.ComponentType.action_row.value, discord.ComponentType.button.value
HAS_THREAD = discord.MessageFlags(has_thread=True).value
FAST_WINDOW = 0.05  # seconds: Discord's 5 s window, shrunk so discord.py's waits stay short


class ThreadBot(discord.Client):
    """Keeps the interactions it receives; answers a click with a message in the clicked
    message's channel."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.interactions: list[discord.Interaction] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        self.interactions.append(interaction)
        await interaction.response.send_message("your move")


@pytest.fixture
async def world():
    bot = ThreadBot()
    harness = await Harness.start(bot=bot)
    try:
        guild = harness.create_guild("club")
        yield harness, bot, guild.channels[0], guild
    finally:
        await harness.close()


def text_channel(bot: discord.Client, channel_id: int) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def start_thread(bot: discord.Client, channel_id: int, name: str = "Cup") -> discord.Thread:
    card = await text_channel(bot, channel_id).send("Sign-up: Cup")
    return await card.create_thread(name=name, auto_archive_duration=1440)


async def test_a_thread_from_a_message_is_discords_thread_and_reaches_the_cache(world):
    harness, bot, channel, _ = world
    card = await text_channel(bot, channel.id).send("Sign-up: Cup")
    announced = asyncio.ensure_future(bot.wait_for("thread_create"))
    thread = await card.create_thread(name="Cup", auto_archive_duration=1440)
    assert (await asyncio.wait_for(announced, 5)).id == thread.id  # THREAD_CREATE, newly_created
    assert (thread.id, thread.parent_id, thread.owner_id) == (card.id, channel.id, bot.user.id)
    assert thread.type is discord.ChannelType.public_thread
    assert (thread.name, thread.auto_archive_duration, thread.archived) == ("Cup", 1440, False)
    cached = bot.get_guild(channel.guild_id).get_thread(thread.id)
    assert isinstance(cached, discord.Thread)
    starter = harness.discord.message(card.id)
    assert starter["flags"] & HAS_THREAD
    assert starter["thread"]["id"] == str(thread.id)
    assert harness.thread_of(starter).name == "Cup"
    assert harness.discord.spec_problems == []


async def test_a_second_thread_from_one_message_is_refused(world):
    harness, bot, channel, _ = world
    thread = await start_thread(bot, channel.id)
    starter = await text_channel(bot, channel.id).fetch_message(thread.id)
    with pytest.raises(discord.HTTPException) as refused:
        await starter.create_thread(name="Again")
    assert (refused.value.status, refused.value.code) == (400, 160004)
    assert thread_ids(harness) == [thread.id]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "Cup", "auto_archive_duration": 61}, "auto_archive_duration"),
        ({"name": "Cup", "rate_limit_per_user": 21601}, "rate_limit_per_user"),
    ],
)
async def test_thread_bodies_discords_spec_refuses_are_refused(world, body, field):
    harness, bot, channel, _ = world
    card = await text_channel(bot, channel.id).send("Sign-up: Cup")
    route = discord.http.Route(
        "POST",
        "/channels/{channel_id}/messages/{message_id}/threads",
        channel_id=channel.id,
        message_id=card.id,
    )
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json=body)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert f"In {field}:" in refused.value.text
    assert thread_ids(harness) == []
    assert (await card.create_thread(name="x" * 100)).name == "x" * 100  # the limit itself


def thread_ids(harness: Harness) -> list[int]:
    return [i for i, place in harness.discord.channels.items() if place.parent_id is not None]


async def test_without_create_public_threads_nothing_is_started(world):
    harness, bot, channel, _ = world
    harness.deny(channel, CREATE_PUBLIC_THREADS)
    seen = text_channel(bot, channel.id)
    me = seen.guild.me
    assert not seen.permissions_for(me).create_public_threads  # CHANNEL_UPDATE reached it
    assert seen.permissions_for(me).send_messages
    card = await seen.send("Sign-up: Cup")
    with pytest.raises(discord.Forbidden) as refused:
        await card.create_thread(name="Cup")
    assert refused.value.code == 50013
    assert thread_ids(harness) == []
    harness.deny(channel, 0)
    assert seen.permissions_for(me).create_public_threads
    assert (await card.create_thread(name="Cup")).id == card.id


async def test_without_send_messages_in_threads_a_thread_stays_silent(world):
    harness, bot, channel, _ = world
    thread = await start_thread(bot, channel.id)
    harness.deny(channel, SEND_MESSAGES_IN_THREADS)
    assert not thread.permissions_for(thread.guild.me).send_messages_in_threads
    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("Round 1")
    assert refused.value.code == 50013
    await text_channel(bot, channel.id).send("still allowed here")
    assert harness.messages_in(harness.thread_of({"id": thread.id})) == []


async def test_messages_in_a_thread_are_listed_and_counted(world):
    harness, bot, channel, _ = world
    thread = await start_thread(bot, channel.id)
    posted = [await thread.send(f"Round {i}") for i in (1, 2, 3)]
    assert all(message.channel == thread for message in posted)
    place = harness.thread_of({"id": thread.id})
    assert [m["content"] for m in harness.messages_in(place)] == ["Round 1", "Round 2", "Round 3"]
    assert all(m["channel_id"] == str(thread.id) for m in harness.messages_in(place))
    assert (place.message_count, place.last_message_id) == (3, posted[-1].id)
    history = [message.content async for message in thread.history(limit=2)]
    assert history == ["Round 3", "Round 2"]  # newest first, as Discord pages them
    assert (await thread.fetch_message(posted[0].id)).content == "Round 1"
    edited = await posted[0].edit(content="Round 1 (over)")
    assert harness.messages_in(place)[0]["content"] == edited.content == "Round 1 (over)"
    # The parent channel holds the card only: a thread's messages are the thread's.
    assert [m["content"] for m in harness.messages_in(channel)] == ["Sign-up: Cup"]
    assert harness.discord.spec_problems == []


async def test_a_components_v2_board_posted_in_a_thread_is_stored_as_sent(world):
    harness, bot, channel, _ = world
    thread = await start_thread(bot, channel.id)
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        discord.ui.TextDisplay("## Round 1: <@1> vs <@2>"), accent_colour=0x5865F2
    )
    container.add_item(discord.ui.Separator())
    for i in range(3):
        cells: list[discord.ui.Button[discord.ui.LayoutView]] = [
            discord.ui.Button(label="\u200b", custom_id=f"t1:{3 * i + j}") for j in range(3)
        ]
        container.add_item(discord.ui.ActionRow(*cells))
    view.add_item(container)
    posted = await thread.send(view=view, allowed_mentions=discord.AllowedMentions(users=True))
    assert posted.flags.components_v2
    (stored,) = harness.messages_in(harness.thread_of({"id": thread.id}))
    assert stored["id"] == str(posted.id)
    assert [b["custom_id"] for b in reading.buttons(stored)] == [f"t1:{i}" for i in range(9)]
    assert harness.discord.spec_problems == []


async def test_a_click_in_a_thread_comes_from_the_thread(world):
    harness, bot, channel, _ = world
    thread = await start_thread(bot, channel.id)
    place = harness.thread_of({"id": thread.id})
    board = harness.post_message(
        place,
        {
            "content": "X to move",
            "components": [
                {
                    "type": ROW,
                    "components": [{"type": BUTTON, "style": 2, "custom_id": "c0", "label": "·"}],
                }
            ],
        },
    )
    alice = harness.create_user("alice")
    sent = await harness.click(alice, board, custom_id="c0")
    (interaction,) = bot.interactions
    assert isinstance(interaction.channel, discord.Thread)
    assert interaction.channel.id == interaction.channel_id == thread.id
    assert interaction.channel.parent_id == channel.id
    assert sent.response.succeeded
    assert sent.response.message["channel_id"] == str(thread.id)
    assert [m["content"] for m in harness.messages_in(place)] == ["X to move", "your move"]
    assert harness.last_message(place)["channel_id"] == str(thread.id)


async def test_a_restarted_bot_sees_the_active_threads_in_guild_create(world):
    harness, bot, channel, guild = world
    active = await start_thread(bot, channel.id, "Cup")
    archived = await start_thread(bot, channel.id, "Old cup")
    archived = await archived.edit(archived=True)
    assert archived.archived
    # THREAD_UPDATE reached discord.py, which keeps no archived thread in its cache.
    assert bot.get_guild(channel.guild_id).get_thread(archived.id) is None
    await active.edit(name="Cup, round 2")
    fresh = ThreadBot()
    restarted = await Harness.start(bot=fresh, discord_=harness.discord)
    try:
        restarted.announce(guild)
        seen = fresh.get_guild(guild.id)
        assert seen is not None
        threads = seen.threads
        assert [(t.id, t.name, t.parent_id) for t in threads] == [
            (active.id, "Cup, round 2", channel.id)
        ]
    finally:
        await restarted.close()
    assert harness.discord.spec_problems == []


async def test_a_deleted_thread_leaves_the_cache(world):
    harness, bot, channel, _ = world
    thread = await start_thread(bot, channel.id)
    await thread.delete()
    assert bot.get_guild(channel.guild_id).get_thread(thread.id) is None
    assert thread_ids(harness) == []


# ---------------------------------------------------------------------------------- rate limit


def test_a_channel_takes_5_messages_a_window_then_429_until_the_window_ends():
    clock = Clock()
    bucket = Bucket("POST /channels/{channel_id}/messages", clock=clock, wall=lambda: 1000.0)
    remaining = []
    start = clock.now
    for at in (0.0, 0.5, 1.0, 1.5, 2.0):
        clock.now = start + at
        retry_after, headers = bucket.take(1)
        assert retry_after is None
        remaining.append(headers["X-RateLimit-Remaining"])
    assert remaining == ["4", "3", "2", "1", "0"]
    assert bucket.take(2)[0] is None  # another channel, another window
    clock.now = start + 3.75
    retry_after, headers = bucket.take(1)
    assert retry_after == pytest.approx(1.25)
    assert headers["X-RateLimit-Reset-After"] == "1.250"
    assert headers["X-RateLimit-Reset"] == "1001.250"
    assert (headers["X-RateLimit-Limit"], headers["Retry-After"]) == ("5", "1")
    assert headers["X-RateLimit-Bucket"] == bucket.hash
    clock.now = start + 5.0
    assert bucket.take(1)[0] is None
    assert bucket.rate_limited == 1
    assert bucket.refused == {1: 1}


def fixed_windows(times: list[float], limit: int, per: float) -> list[bool]:
    """Independently: which of requests at `times` Discord admits, a window opening with the
    first request after the previous window ended."""
    admitted, opened, used = [], None, 0
    for at in times:
        if opened is None or at >= opened + per:
            opened, used = at, 0
        admitted.append(used < limit)
        used += used < limit
    return admitted


@pytest.mark.parametrize("seed", range(20))
def test_the_bucket_admits_what_fixed_windows_admit(seed):
    rng = random.Random(seed)
    times = sorted(rng.uniform(0, 30) for _ in range(rng.randrange(5, 60)))
    clock = Clock()
    bucket = Bucket("b", clock=clock)
    got = []
    for at in times:
        clock.now = at
        got.append(bucket.take(7)[0] is None)
    assert got == fixed_windows(times, 5, 5.0)
    assert bucket.rate_limited == got.count(False)


async def test_discord_py_posts_20_messages_in_a_thread_within_the_limit(world):
    harness, bot, channel, _ = world
    bucket = harness.discord.message_bucket
    bucket.per = FAST_WINDOW
    thread = await start_thread(bot, channel.id)
    # Another process of the bot has just spent this thread's window: discord.py meets a 429.
    for _ in range(5):
        assert bucket.take(thread.id)[0] is None
    await asyncio.gather(*(thread.send(f"Board {i}") for i in range(20)))
    place = harness.thread_of({"id": thread.id})
    assert sorted(m["content"] for m in harness.messages_in(place)) == sorted(
        f"Board {i}" for i in range(20)
    )
    times = [at for major, at in bucket.admitted if major == thread.id]
    assert len(times) == 25
    assert all(fixed_windows(times, 5, FAST_WINDOW))  # none admitted beyond the limit
    answered_429 = [r for r in harness.discord.requests if r.status == 429]
    assert bucket.rate_limited == len(answered_429) >= 1
    assert {r.path for r in answered_429} == {f"/channels/{thread.id}/messages"}
    assert harness.discord.spec_problems == []


# ---------------------------------------------------------------------------------- the spec


def test_the_fakes_thread_and_message_are_discords_shapes_and_a_wrong_one_is_caught():
    from fake_discord.payloads import FakeThread

    thread = FakeThread(2, 1, 3, 4, "Cup")
    assert spec().schema_problems("ThreadResponse", thread.payload()) == []
    broken = {**thread.payload(), "owner_id": 4}
    (problem,) = spec().schema_problems("ThreadResponse", broken)
    assert problem.startswith("owner_id:")
    assert spec().response_problems("POST", "/channels/1/messages/2/threads", 201, broken)
    assert spec().response_problems("POST", "/channels/1/messages", 418, None)


def test_the_kept_extract_of_the_spec_holds_every_route_the_fake_checks():
    from fake_discord.openapi import OPERATIONS

    for method, template in OPERATIONS:
        path = re.sub(r"\{[^}]+\}", "1", template)  # any id will do
        found = spec().operation(method.upper(), path)
        assert found is not None, (method, template)
        assert found[0] == template
