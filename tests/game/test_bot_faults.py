"""When Discord errors: what players saw is never lost, and the board never stops playing.

The harness (fake_discord/) answers the bot's requests in-process and injects faults: an edit
that Discord applied but answered 500 (discord.py retries and gets 40060, "already
acknowledged"), a 500 that was not applied, a 429. discord.py's back-off before a retry is made
instant (see `no_backoff`); the bot's own clock is a value the tests move.
"""

import asyncio
import random

import discord
import pytest
from bot_helpers import APOLOGY, STALE, Clock

import tictactoe as ttt
from bot.app import TicTacToeBot
from bot.settings import Settings
from fake_discord import Fault, Harness, board, text

UPDATE = discord.InteractionResponseType.message_update
PRIVATE = discord.InteractionResponseType.channel_message
TIMEOUT = 600


class NoBackoff:
    """discord.py's asyncio, except that its retry back-off (1 s, 3 s, ...) does not wait."""

    def __getattr__(self, name):
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay, result=None):
        await asyncio.sleep(0)
        return result


@pytest.fixture
def no_backoff(monkeypatch):
    # Interaction answers go through the webhook adapter, other calls through discord.http.
    monkeypatch.setattr(discord.http, "asyncio", NoBackoff())
    monkeypatch.setattr(discord.webhook.async_, "asyncio", NoBackoff())


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def harness(clock, no_backoff):
    settings = Settings(token="not-a-real-token", turn_timeout_seconds=TIMEOUT)
    bot = TicTacToeBot(settings, rng=random.Random(0), clock=clock)
    harness = await Harness.start(bot=bot)
    try:
        yield harness
    finally:
        await harness.close()


@pytest.fixture
def world(harness):
    guild = harness.create_guild("club", channels=1)
    return harness, guild.channels[0], harness.create_user("alice")


def updates(sent):
    return [r for r in sent.callbacks if r.type == UPDATE]


def edit_fault(**kwargs) -> Fault:
    """A fault on the bot's board updates only (not on private answers)."""
    # Matched on the body: a fault is chosen before the request is handled.
    return Fault("callback", match=lambda request: request.body["type"] == UPDATE.value, **kwargs)


def marks_on(message) -> int:
    return sum(cell is not None for row in board(message) for cell in row)


async def start(harness, channel, user):
    started = await harness.slash(user, channel, "tictactoe")
    assert started.response.type == PRIVATE
    assert not started.ephemeral
    return harness.last_message(channel)


async def expire(harness, clock) -> int:
    clock.now += TIMEOUT + 1
    cog = harness.bot.get_cog("TicTacToe")
    return await cog.table.expire_lapsed()


async def test_an_edit_applied_then_answered_500_counts_as_landed(world, clock):
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    harness.discord.inject(edit_fault(status=500, applied=True))
    sent = await harness.click(alice, shown, cell=(0, 0))
    # discord.py retried and Discord answered "already acknowledged": the first try landed.
    assert [r.status for r in sent.callbacks] == [500, 400]
    assert not [r for r in sent.requests if r.route == "followup"]  # no apology needed
    after = harness.last_message(channel)
    assert marks_on(after) == 2
    # The board the players see plays on ...
    following = min(ttt.actions(board(after)))
    assert updates(await harness.click(alice, after, cell=following))
    # ... and expiring redraws that latest board, never the one before the failure.
    latest = harness.last_message(channel)
    assert await expire(harness, clock) == 1
    expired = harness.last_message(channel)
    assert board(expired) == board(latest)
    assert "ran out of time" in text(expired)


async def test_a_500_that_a_retry_gets_through_is_a_normal_move(world):
    # A click's answer asks for nothing back (no with_response): Discord says 204.
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    harness.discord.inject(edit_fault(status=500, applied=False))
    sent = await harness.click(alice, shown, cell=(0, 0))
    assert [r.status for r in sent.callbacks] == [500, 204]
    assert marks_on(harness.last_message(channel)) == 2


async def test_a_429_is_waited_out_and_the_move_lands(world):
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    harness.discord.inject(edit_fault(status=429, retry_after=0.0))
    sent = await harness.click(alice, shown, cell=(0, 0))
    assert [r.status for r in sent.callbacks] == [429, 204]
    assert marks_on(harness.last_message(channel)) == 2


async def test_a_failure_of_unknown_outcome_never_leaves_the_board_refusing(world, clock):
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    # Every try fails with a server error: did Discord apply it? The bot cannot know.
    harness.discord.inject(edit_fault(status=500, applied=False, times=10))
    failed = await harness.click(alice, shown, cell=(0, 0))
    assert all(r.status == 500 for r in updates(failed))
    apology = [r for r in failed.requests if r.type == PRIVATE]
    assert [text(r.message) for r in apology] == [APOLOGY]
    harness.discord.faults.clear()
    # The message still shows the empty board; a click on it is a click on what players see.
    still = harness.last_message(channel)
    assert marks_on(still) == 0
    again = await harness.click(alice, still, cell=(0, 0))
    assert updates(again), [text(r.message) for r in again.callbacks]
    assert marks_on(harness.last_message(channel)) == 2


async def test_after_an_unknown_outcome_the_expiry_redraws_what_the_message_shows(world, clock):
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    harness.discord.inject(edit_fault(status=500, applied=False, times=10))
    await harness.click(alice, shown, cell=(0, 0))
    harness.discord.faults.clear()
    assert await expire(harness, clock) == 1
    expired = harness.last_message(channel)
    assert marks_on(expired) == 0  # the board as players last saw it, not the unsent move
    assert "ran out of time" in text(expired)


async def test_a_click_racing_an_edit_that_lands_despite_a_500(world):
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    harness.discord.inject(edit_fault(status=500, applied=True))
    harness.discord.pause()
    first = harness.dispatch_click(alice, shown, cell=(0, 0))
    await harness.until_sent(first)
    second = harness.dispatch_click(alice, shown, cell=(2, 2))  # on the board as it was
    await harness.until_sent(second)
    harness.discord.resume()
    await harness.gather(first, second)
    assert [text(r.message) for r in second.callbacks] == [STALE]
    assert marks_on(harness.last_message(channel)) == 2
    after = harness.last_message(channel)
    assert updates(await harness.click(alice, after, cell=min(ttt.actions(board(after)))))


async def test_a_click_racing_an_edit_of_unknown_outcome(world):
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    harness.discord.inject(edit_fault(status=500, applied=False, times=10))
    harness.discord.pause()
    first = harness.dispatch_click(alice, shown, cell=(0, 0))
    await harness.until_sent(first)
    second = harness.dispatch_click(alice, shown, cell=(2, 2))
    await harness.until_sent(second)
    harness.discord.resume()
    await harness.gather(first, second)
    assert [text(r.message) for r in second.callbacks] == [STALE]
    # Once the first click's fate is unknown, the board as shown plays again.
    harness.discord.faults.clear()
    still = harness.last_message(channel)
    assert marks_on(still) == 0
    assert updates(await harness.click(alice, still, cell=(2, 2)))


async def test_an_unknown_outcome_that_did_land_plays_on_from_the_new_board(world, clock):
    harness, channel, alice = world
    shown = await start(harness, channel, alice)
    # The edit is applied, then every answer (the retries' too) is a server error.
    harness.discord.inject(edit_fault(status=500, applied=True))
    harness.discord.inject(edit_fault(status=500, applied=False, times=10))
    await harness.click(alice, shown, cell=(0, 0))
    harness.discord.faults.clear()
    landed = harness.last_message(channel)
    assert marks_on(landed) == 2  # players see the move
    after = await harness.click(alice, landed, cell=min(ttt.actions(board(landed))))
    assert updates(after), [text(r.message) for r in after.callbacks]
    assert marks_on(harness.last_message(channel)) == 4
    latest = harness.last_message(channel)
    assert await expire(harness, clock) == 1
    assert board(harness.last_message(channel)) == board(latest)
