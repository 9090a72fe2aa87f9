"""Routes: each component interaction goes to the one capability whose prefix its custom_id
carries (the bot's single on_interaction), and nowhere else."""

from types import SimpleNamespace

import discord
import pytest

from bot.ui import Routes

COMPONENT = discord.InteractionType.component
MODAL = discord.InteractionType.modal_submit
COMMAND = discord.InteractionType.application_command


def interaction(kind: discord.InteractionType, custom_id: str | None):
    data = None if custom_id is None else {"custom_id": custom_id}
    return SimpleNamespace(type=kind, data=data)


async def game(interaction, custom_id):
    pass


async def settings(interaction, custom_id):
    pass


@pytest.fixture
def routes():
    routes = Routes()
    routes.add(("ttt2:", "ttt:"), game)
    routes.add(("set:",), settings, modals=True)
    return routes


def test_a_custom_id_goes_to_the_capability_of_its_prefix(routes):
    assert routes.find(interaction(COMPONENT, "ttt2:4:abc")) == (game, "ttt2:4:abc")
    assert routes.find(interaction(COMPONENT, "ttt:x")) == (game, "ttt:x")
    assert routes.find(interaction(COMPONENT, "set:difficulty")) == (settings, "set:difficulty")
    assert routes.find(interaction(MODAL, "set:x_emoji:edit")) == (settings, "set:x_emoji:edit")


def test_what_no_capability_owns_goes_nowhere(routes):
    for custom_id in ("tt:1", "ttt2", "", "rec:1", "xttt2:1", ":"):
        assert routes.find(interaction(COMPONENT, custom_id)) is None, custom_id
    assert routes.find(interaction(MODAL, "ttt2:4:abc")) is None  # the game has no modals
    assert routes.find(interaction(COMMAND, None)) is None
    assert routes.find(interaction(COMPONENT, None)) is None


def test_prefixes_are_whole_and_owned_once(routes):
    with pytest.raises(ValueError, match="two capabilities"):
        routes.add(("ttt2:",), settings)
    for bad in ("rec", "a:b:"):
        with pytest.raises(ValueError, match="only colon"):
            routes.add((bad,), settings)
    routes.remove(("set:",))
    assert routes.find(interaction(COMPONENT, "set:difficulty")) is None
    routes.add(("set:",), settings)
    assert routes.find(interaction(COMPONENT, "set:difficulty")) == (settings, "set:difficulty")
