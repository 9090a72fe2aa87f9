import pytest
from bot_helpers import make_bot


@pytest.fixture
def simcord_bot():
    return make_bot()


@pytest.fixture
def world(simcord_env):
    """A server with a #games channel and two members, alice and bob."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    return simcord_env, guild, channel, alice, bob
