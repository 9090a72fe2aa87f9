"""Games survive a restart; forged buttons are refused; messages stay within Discord's limits."""

import discord
import pytest
from bot_helpers import (
    GAME_TIMEOUT,
    all_cells_disabled,
    board_of,
    buttons,
    click_cell,
    click_control,
    control_labels,
    make_bot,
)

import tictactoe as ttt
from bot.codec import MAX_CUSTOM_ID_LENGTH


def command_uploads(env) -> int:
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_a_game_continues_after_a_restart(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    before = board_of(channel.last_message)

    await env.restart_bot(make_bot(seed=1))

    cell = min(ttt.actions(before))
    result = await click_cell(alice, channel.last_message, cell)
    assert not result.ephemeral
    after = board_of(channel.last_message)
    assert after[cell[0]][cell[1]] == ttt.X
    assert sum(mark is not None for row in after for mark in row) == 4  # + the bot's reply
    busy = await alice.slash(channel, "tictactoe")  # the channel is registered again
    assert busy.ephemeral
    assert channel.last_message.jump_url in busy.response.content


async def test_commands_are_not_uploaded_again_when_unchanged(world):
    env, *_ = world
    assert command_uploads(env) == 1
    await env.restart_bot(make_bot(seed=1))
    assert command_uploads(env) == 1


async def test_a_development_server_gets_its_own_commands(world):
    env, guild, channel, alice, _ = world
    bot = make_bot(guild_id=guild.id)
    await env.restart_bot(bot)
    uploads = [r.path for r in env.http_requests if r.method == "PUT"]
    assert uploads[-1].endswith(f"/guilds/{guild.id}/commands")
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_a_stale_board_after_a_restart_expires_on_click(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    await env.restart_bot(make_bot(seed=1))  # the idle timer is lost with the old process
    await env.advance_time(GAME_TIMEOUT + 1)
    result = await click_cell(alice, channel.last_message, (1, 1))
    assert not result.ephemeral
    message = channel.last_message
    assert "expired" in message.content
    assert all_cells_disabled(message)
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_a_challenge_can_be_accepted_after_a_restart(world):
    env, _, channel, alice, bob = world
    await alice.slash(channel, "tictactoe", opponent=bob)
    await env.restart_bot(make_bot(seed=1))
    result = await click_control(bob, channel.last_message, "Accept")
    assert not result.ephemeral
    assert board_of(channel.last_message) == ttt.initial_state()


async def test_an_old_board_is_no_longer_playable_once_a_new_game_started(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    old = channel.last_message
    await env.restart_bot(make_bot(seed=1))
    await alice.slash(channel, "tictactoe")  # allowed: the new process knows no game here
    new = channel.last_message
    result = await click_cell(alice, old, (0, 0))
    assert result.ephemeral
    assert result.response.content.startswith("This board is no longer active.")
    assert new.jump_url in result.response.content
    assert board_of(channel.last_message) == ttt.initial_state()


FORGED_IDS = [
    "ttt:0:XXXXXXXXX:{alice}:0:i:-",  # impossible board
    "ttt:4:XO-------:{alice}:{alice}:-:-",  # one person on both sides
    "ttt:4:---------:{alice}:0:-:-",  # the bot without a difficulty
    "ttt:9:---------:{alice}:0:i:-",  # no such cell
    "ttt:0:XO-------:{alice}:0:i:-",  # an occupied cell
    "ttt:a:{alice}:0:X",  # a challenge to the bot
    "ttt:whatever",
]


@pytest.mark.parametrize("forged", FORGED_IDS)
async def test_a_forged_button_gets_a_private_refusal(world, forged):
    env, _, channel, alice, _ = world
    custom_id = forged.format(alice=alice.id)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="forged", custom_id=custom_id))
    await env.bot.get_channel(channel.id).send("a forged board", view=view)
    result = await alice.click(channel.last_message, custom_id=custom_id)
    assert result.ephemeral
    assert "not valid" in result.response.content or "taken" in result.response.content, (
        result.response.content
    )
    assert channel.last_message.content == "a forged board"
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


def check_limits(message: discord.Message) -> None:
    rows = buttons(message)
    assert len(rows) <= 5
    assert all(len(row) <= 5 for row in rows)
    ids = [button.custom_id for row in rows for button in row]
    assert all(len(custom_id) <= MAX_CUSTOM_ID_LENGTH for custom_id in ids)
    assert len(set(ids)) == len(ids)


async def test_every_message_fits_discords_component_limits(world):
    _, _, channel, alice, bob = world
    await alice.slash(channel, "tictactoe", opponent=bob)
    check_limits(channel.last_message)
    await click_control(bob, channel.last_message, "Accept")
    check_limits(channel.last_message)
    for player, cell in [(alice, (0, 0)), (bob, (1, 1)), (alice, (2, 2))]:
        await click_cell(player, channel.last_message, cell)
        check_limits(channel.last_message)
    await click_control(bob, channel.last_message, "Resign")
    check_limits(channel.last_message)
    assert control_labels(channel.last_message) == ["Rematch"]
