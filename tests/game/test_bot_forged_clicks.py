"""A click acts only on the message it was made on: a custom_id that is not among the clicked
message's components, or whose game belongs to another board than the one that message shows,
is answered privately as not valid and changes nothing (issue: a challenge's Accept, sent on a
running game's board, replaced that game with a new one).

Discord itself sends only ids that are on the message; these clicks are what a stale client, a
retried click or a forged request could bring, fed to the bot as Discord's gateway would.
"""

import copy
import random

import discord
import pytest

from bot.app import TicTacToeBot
from bot.settings import Settings
from fake_discord import Harness, board, text
from fake_discord.reading import buttons

PRIVATE = discord.InteractionResponseType.channel_message
NOT_VALID = "This button is not valid."


@pytest.fixture
async def harness():
    settings = Settings(token="not-a-real-token", turn_timeout_seconds=600)
    bot = TicTacToeBot(settings, rng=random.Random(0))
    harness = await Harness.start(bot=bot)
    try:
        yield harness
    finally:
        await harness.close()


async def game_and_challenge(harness):
    """Alice's game against the bot, after her first move, and in the next channel carol's
    challenge to dave (a channel has one game at a time by default)."""
    guild = harness.create_guild("club", channels=2)
    channel, other = guild.channels
    alice, carol, dave = (harness.create_user(name) for name in ("alice", "carol", "dave"))
    await harness.slash(alice, channel, "tictactoe")
    game = harness.last_message(channel)
    await harness.click(alice, game, cell=(1, 1))
    game = harness.discord.message(int(game["id"]))
    await harness.slash(carol, other, "tictactoe", opponent=dave)
    challenge = harness.last_message(other)
    return channel, alice, dave, game, challenge


def accept_id(challenge) -> str:
    (accept,) = [b for b in buttons(challenge) if b.get("label") == "Accept"]
    return accept["custom_id"]


def forged_click(harness, user, channel, message, custom_id):
    """A click that claims `custom_id` on `message` (its JSON as the gateway would carry it)."""
    data = {"custom_id": custom_id, "component_type": discord.ComponentType.button.value}
    return harness._dispatch(
        discord.InteractionType.component, user, channel, data, message=message, command=None
    )


async def assert_refused_and_unchanged(harness, sent, game):
    sent = await sent.wait()
    assert [r.type for r in sent.callbacks] == [PRIVATE]
    assert sent.ephemeral
    assert sent.response.content.startswith(NOT_VALID)
    after = harness.discord.message(int(game["id"]))
    assert board(after) == board(game)
    assert text(after) == text(game)


async def test_an_accept_id_not_on_the_board_is_refused(harness):
    channel, _, dave, game, challenge = await game_and_challenge(harness)
    sent = forged_click(harness, dave, channel, game, accept_id(challenge))
    await assert_refused_and_unchanged(harness, sent, game)


async def test_a_message_that_claims_another_boards_id_is_refused(harness):
    """The message as delivered holds the Accept id, but has the running board's id and
    channel: its state is not the game memory knows that message to show."""
    channel, alice, dave, game, challenge = await game_and_challenge(harness)
    disguised = copy.deepcopy(challenge)
    disguised["id"], disguised["channel_id"] = game["id"], game["channel_id"]
    sent = forged_click(harness, dave, channel, disguised, accept_id(challenge))
    await assert_refused_and_unchanged(harness, sent, game)
    # The running game plays on, and the challenge still waits for its answer.
    moved = await harness.click(alice, harness.discord.message(int(game["id"])), cell=(0, 0))
    assert moved.callbacks[0].type == discord.InteractionResponseType.message_update
    accepted = await harness.click(dave, challenge, custom_id=accept_id(challenge))
    assert accepted.callbacks[0].type == discord.InteractionResponseType.message_update
