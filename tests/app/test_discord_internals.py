"""Each of discord.py's private names the bot relies on (bot/discord_internals.py), checked
against the discord.py installed: after an upgrade that moves one, the failing test names the
use. Interactions are real ones, parsed by discord.py from a gateway event (the harness)."""

from __future__ import annotations

import asyncio
import logging
import random

import discord
import pytest

from bot import discord_internals
from bot.app import TicTacToeBot
from bot.settings import Settings
from fake_discord import Harness, Sent
from fake_discord.rest import TOKEN

CHANNEL_MESSAGE = discord.InteractionResponseType.channel_message
PROBE = "probe:"
WEBSOCKET = object()  # what the recording session connects to


@pytest.fixture
async def harness():
    settings = Settings(token=TOKEN, shard_count=1)
    async with await Harness.start(bot=TicTacToeBot(settings, rng=random.Random(0))) as harness:
        yield harness


async def click_probe(harness, handler) -> Sent:
    """A click on a button routed to `handler` (a capability of the test's); what the click's
    handling sent."""
    harness.bot.routes.add((PROBE,), handler)
    channel = harness.create_guild("club").channels[0]
    button = {"type": 2, "style": 2, "label": "probe", "custom_id": f"{PROBE}1"}
    message = harness.post_message(
        channel, {"content": "probe", "components": [{"type": 1, "components": [button]}]}
    )
    return await harness.click(harness.create_user("alice"), message, custom_id=f"{PROBE}1")


async def test_post_interaction_callback_uses_the_interactions_state_and_session(harness):
    """`interaction._state.http` (its proxy) and `interaction._session` (discord.py's HTTP
    session, taken at parsing), read by post_interaction_callback."""

    async def answer(interaction, custom_id):
        await discord_internals.post_interaction_callback(
            interaction, CHANNEL_MESSAGE, {"content": "answered", "flags": 64}
        )

    sent = await click_probe(harness, answer)
    assert sent.response.type is CHANNEL_MESSAGE
    assert sent.response.content == "answered"
    assert sent.response.ephemeral


async def test_mark_answered_sets_the_response_that_discord_py_reads(harness):
    """`InteractionResponse._response_type` and the `_cs_response` slot, set by
    mark_answered: afterwards discord.py takes the interaction as answered (a followup, not a
    second answer)."""
    seen = {}

    async def answer(interaction, custom_id):
        discord_internals.mark_answered(interaction, CHANNEL_MESSAGE)
        seen["done"] = interaction.response.is_done()
        seen["type"] = interaction.response.type

    await click_probe(harness, answer)
    assert seen == {"done": True, "type": CHANNEL_MESSAGE}


async def test_the_response_slot_is_where_discord_py_caches_response(harness):
    """`_cs_response`: the slot of Interaction's `response` cached_slot_property, emptied by
    forget_response (the reference cycle it breaks)."""
    assert discord.Interaction.response.name == discord_internals.RESPONSE_SLOT
    assert discord_internals.RESPONSE_SLOT in discord.Interaction.__slots__
    seen = {}

    async def answer(interaction, custom_id):
        first = interaction.response
        seen["cached"] = interaction.response is first
        discord_internals.forget_response(interaction)
        seen["forgotten"] = not hasattr(interaction, discord_internals.RESPONSE_SLOT)
        seen["fresh"] = interaction.response is not first
        await interaction.response.send_message("answered", ephemeral=True)

    await click_probe(harness, answer)
    assert seen == {"cached": True, "forgotten": True, "fresh": True}


class RecordingSession:
    """An aiohttp session's stand-in: notes what discord.py's HTTP client asks of it."""

    def __init__(self) -> None:
        self.connected_to: list[str] = []

    async def ws_connect(self, url: str, **kwargs: object) -> object:
        self.connected_to.append(url)
        return WEBSOCKET


async def test_the_http_clients_session_attribute_is_the_one_it_sends_with():
    """`HTTPClient._HTTPClient__session` (its name-mangled `__session`), read by http_session
    and replaced by replace_http_session (bot/ops/rest_errors.py counts Discord's errors so)."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    assert discord_internals.HTTP_SESSION_ATTRIBUTE in vars(http)
    assert discord_internals.http_session(http) is None  # before login
    session = RecordingSession()
    discord_internals.replace_http_session(http, session)
    assert discord_internals.http_session(http) is session
    assert await http.ws_connect("wss://gateway.example") is WEBSOCKET
    assert session.connected_to == ["wss://gateway.example"]


def test_the_colour_log_formatter_formats_in_colour():
    """`discord.utils._ColourFormatter`, the terminal's log formatter (bot/__main__.py)."""
    formatter = discord_internals.colour_log_formatter()
    assert isinstance(formatter, logging.Formatter)
    record = logging.LogRecord("bot.test", logging.ERROR, __file__, 1, "it %s", ("failed",), None)
    line = formatter.format(record)
    assert "it failed" in line
    assert "bot.test" in line
    assert "\x1b[31m" in line  # errors in red
