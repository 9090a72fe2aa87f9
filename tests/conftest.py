from dataclasses import dataclass
from typing import Any

import pytest
from bot_helpers import make_bot


@pytest.fixture
def simcord_bot():
    return make_bot()


@dataclass(frozen=True)
class World:
    """A server with a #games channel and three members: two players and an onlooker."""

    env: Any
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any


@pytest.fixture
def world(simcord_env) -> World:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob, carol = (
        guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")
    )
    return World(simcord_env, guild, channel, alice, bob, carol)
