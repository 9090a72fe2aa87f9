"""Games survive a restart and an upgrade; forged buttons are refused; messages stay within
Discord's limits."""

import discord
import pytest
from bot_helpers import (
    CELL_TAKEN,
    CHALLENGE_TIMEOUT,
    GAME_TIMEOUT,
    STALE,
    accent,
    board_of,
    bot_mention,
    buttons,
    check_limits,
    click_cell,
    click_control,
    click_label,
    command_mention,
    control_labels,
    heading,
    invalid,
    is_over,
    is_v2,
    legacy_board_view,
    legacy_id,
    limit_problems,
    make_bot,
    message_by_id,
    payload_problems,
    playing_here,
    post_as_bot,
    post_forged,
    resign,
    sent_messages,
    status,
    texts,
    turn_line,
)

import tictactoe as ttt

pytestmark = pytest.mark.usefixtures("discord_rules")

GREY = discord.Colour.light_grey().value


def command_uploads(env) -> int:
    return sum(1 for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands"))


async def test_a_game_continues_after_a_restart(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    before = board_of(channel.last_message)

    await env.restart_bot(make_bot(seed=1))

    cell = min(ttt.actions(before))
    result = await click_cell(alice, channel.last_message, cell)
    assert not result.ephemeral
    after = channel.last_message
    assert board_of(after)[cell[0]][cell[1]] == ttt.X
    assert sum(mark is not None for row in board_of(after) for mark in row) == 4  # + a reply
    assert status(after).endswith(turn_line(alice, "X", env))
    busy_now = await alice.slash(channel, "tictactoe")  # the board is registered again
    assert busy_now.ephemeral
    assert busy_now.response.content == playing_here(after.jump_url)


async def test_a_game_can_be_resigned_after_a_restart(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    board_message = channel.last_message
    await env.restart_bot(make_bot(seed=1))
    result = await resign(alice, board_message)
    assert result.response.content != STALE
    assert status(message_by_id(channel, board_message.id)) == (
        f"🏳️ {alice.mention} resigned: **{bot_mention(env)} wins.**"
    )


async def test_a_finished_game_can_be_rematched_after_a_restart(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await resign(alice, channel.last_message)
    finished = channel.last_message
    await env.restart_bot(make_bot(seed=1))
    result = await click_control(alice, finished, "Rematch")
    assert not result.ephemeral
    assert control_labels(message_by_id(channel, finished.id)) == ["Review"]
    rematch = channel.last_message
    assert rematch.id != finished.id
    assert status(rematch).endswith(turn_line(alice, "O", env))


async def test_commands_are_not_uploaded_again_when_unchanged(world):
    env = world.env
    assert command_uploads(env) == 1
    await env.restart_bot(make_bot(seed=1))
    assert command_uploads(env) == 1


async def test_commands_registered_with_other_permissions_are_uploaded_again(world):
    """/settings is for Manage Server; commands registered by a version that let everyone use
    it (no default_member_permissions) are replaced at the next start."""
    env = world.env
    http = env.bot.http
    registered = await http.get_global_commands(env.bot.application_id)
    assert [
        str(c["default_member_permissions"]) for c in registered if c["name"] == "settings"
    ] == ["32"]
    server_side = ("id", "application_id", "version", "guild_id")
    older = [
        {key: value for key, value in command.items() if key not in server_side}
        | ({"default_member_permissions": None} if command["name"] == "settings" else {})
        for command in registered
    ]
    await http.bulk_upsert_global_commands(env.bot.application_id, older)
    uploads = command_uploads(env)
    await env.restart_bot(make_bot(seed=1))
    assert command_uploads(env) == uploads + 1
    again = await env.bot.http.get_global_commands(env.bot.application_id)
    assert [str(c["default_member_permissions"]) for c in again if c["name"] == "settings"] == [
        "32"
    ]


async def test_a_development_server_gets_its_own_commands(world):
    env, guild, channel, alice = world.env, world.guild, world.channel, world.alice
    await env.restart_bot(make_bot(guild_id=guild.id))
    uploads = [r.path for r in env.http_requests if r.method == "PUT"]
    assert uploads[-1].endswith(f"/guilds/{guild.id}/commands")
    assert not (await alice.slash(channel, "tictactoe")).ephemeral
    await resign(alice, channel.last_message)
    over = await click_cell(alice, channel.last_message, (1, 1))
    mention = command_mention(env, guild.id)  # the server's own command
    assert mention != command_mention(env)
    assert over.response.content == f"This game is over. Start a new one with {mention}."


async def test_a_stale_board_after_a_restart_expires_on_click(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await env.restart_bot(make_bot(seed=1))  # the idle timer is lost with the old process
    await env.advance_time(GAME_TIMEOUT + 1)
    assert not is_over(channel.last_message)
    result = await click_cell(alice, channel.last_message, (1, 1))
    assert not result.ephemeral
    message = channel.last_message
    assert status(message) == f"⏱️ {alice.mention} ran out of time: the game is over."
    assert board_of(message) == ttt.initial_state()  # the late click is not played
    assert accent(message) == GREY
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_a_challenge_can_be_accepted_after_a_restart(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await alice.slash(channel, "tictactoe", opponent=bob)
    await env.restart_bot(make_bot(seed=1))
    result = await click_label(bob, channel.last_message, "Accept")
    assert not result.ephemeral
    assert board_of(channel.last_message) == ttt.initial_state()
    assert status(channel.last_message) == turn_line(alice, "X", env)


async def test_a_stale_challenge_after_a_restart_expires_on_click(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await alice.slash(channel, "tictactoe", opponent=bob)
    await env.restart_bot(make_bot(seed=1))
    await env.advance_time(CHALLENGE_TIMEOUT + 1)
    result = await click_label(bob, channel.last_message, "Accept")
    assert not result.ephemeral
    assert texts(channel.last_message)[1] == (
        f"⏱️ {bob.mention} did not answer {alice.mention}'s challenge in time."
    )
    assert buttons(channel.last_message) == []


async def test_an_old_board_is_no_longer_playable_once_a_new_game_started(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    old = channel.last_message
    await env.restart_bot(make_bot(seed=1))
    await alice.slash(channel, "tictactoe")  # allowed: the new process knows no game here
    new = channel.last_message
    result = await click_cell(alice, old, (0, 0))
    assert result.ephemeral
    assert result.response.content == (
        f"This board is no longer active: here is [the current game]({new.jump_url})."
    )
    assert board_of(channel.last_message) == ttt.initial_state()
    assert board_of(message_by_id(channel, old.id)) == ttt.initial_state()


# ------------------------------------------------------------------ forged buttons

FORGED_IDS = [
    "ttt:0:XXXXXXXXX:{alice}:0:i:-",  # impossible board
    "ttt:4:XO-------:{alice}:{alice}:-:-",  # one person on both sides
    "ttt:4:---------:{alice}:0:-:-",  # the bot without a difficulty
    "ttt:9:---------:{alice}:0:i:-",  # no such cell
    "ttt:a:{alice}:0:X",  # a challenge to the bot
    "ttt:whatever",
    "ttt2:4:m00:{alice}:0:i:-:en-US",  # a cell played twice
    "ttt2:4:m0314256:{alice}:0:i:-:en-US",  # play went on after X won
    "ttt2:4:m:{alice}:{alice}:-:-:en-US",  # one person on both sides
    "ttt2:4:m:{alice}:0:-:-:en-US",  # the bot without a difficulty
    "ttt2:4:m:{alice}:{bob}:i:-:en-US",  # two people with a difficulty
    "ttt2:m:m:{alice}:0:i:-:en-US",  # a rematch of a game still on
    "ttt2:a:m:{alice}:0:i:-:en-US",  # accept on a board
    "ttt2:y:{alice}:{bob}:X:en-US",  # resign on a challenge
    "ttt2:a:{alice}:{alice}:X:en-US",  # a challenge to oneself
    "ttt2:4:m:{alice}:0:i:-:en-US:extra",
]


@pytest.mark.parametrize("forged", FORGED_IDS)
async def test_a_forged_button_gets_a_private_refusal(world, forged):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    custom_id = forged.format(alice=alice.id, bob=bob.id)
    message = await post_forged(env, channel, custom_id)
    result = await alice.click(message, custom_id=custom_id)
    assert result.ephemeral
    assert result.response.content == invalid(env)
    assert channel.last_message.content == "a forged board"
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


# ------------------------------------------------------------------ the previous version


async def post_legacy(world, cells, x, o, level="i", ending="-", *, over=False):
    content = "❌ the previous version's board"
    view = legacy_board_view(cells, x, o, level, ending, over=over)
    message = await post_as_bot(world.env, world.channel, content, view)
    assert not is_v2(message)
    assert len(buttons(message)) == 10
    return message


async def test_a_board_of_the_previous_version_plays_on_after_the_upgrade(world):
    env, channel, alice = world.env, world.channel, world.alice
    message = await post_legacy(world, "X---O----", alice.id, 0)
    result = await alice.click(message, custom_id=legacy_id("8", "X---O----", alice.id, 0))
    assert not result.ephemeral, result.response.content
    board_message = channel.last_message
    assert board_message.id == message.id
    assert is_v2(board_message)  # now in the new look
    board = board_of(board_message)
    assert (board[0][0], board[1][1], board[2][2]) == (ttt.X, ttt.O, ttt.X)
    assert sum(mark is not None for row in board for mark in row) == 4  # + the bot's reply
    assert heading(board_message).endswith(f"{bot_mention(env)} · Difficulty: Impossible")
    assert status(board_message) == turn_line(alice, "X", env)  # the order is unknown
    assert control_labels(board_message) == ["Hint", "Resign"]
    busy_now = await alice.slash(channel, "tictactoe")
    assert busy_now.ephemeral  # the upgraded board holds the channel


async def test_a_taken_cell_on_a_board_of_the_previous_version_is_refused(world):
    channel, alice = world.channel, world.alice
    # The old board disabled taken cells; a client that still sends one gets the new answer.
    custom_id = legacy_id("0", "XO-------", alice.id, 0)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="X", custom_id=custom_id))
    message = await post_as_bot(world.env, channel, "an old board", view)
    result = await alice.click(message, custom_id=custom_id)
    assert result.ephemeral
    assert result.response.content == CELL_TAKEN


async def test_an_old_board_of_the_previous_version_closes_as_expired(world):
    env, channel, alice = world.env, world.channel, world.alice
    message = await post_legacy(world, "X---O----", alice.id, 0)
    await env.advance_time(GAME_TIMEOUT + 1)
    result = await alice.click(message, custom_id=legacy_id("8", "X---O----", alice.id, 0))
    assert not result.ephemeral, result.response.content
    expired = message_by_id(channel, message.id)
    assert is_v2(expired)
    assert status(expired) == (f"⏱️ {alice.mention} ran out of time: **{bot_mention(env)} wins.**")
    assert board_of(expired)[2][2] is None
    assert "Review" not in control_labels(expired)  # the move order is unknown


async def test_a_finished_board_of_the_previous_version_offers_a_rematch(world):
    env, channel, alice = world.env, world.channel, world.alice
    cells = "XXXOO----"
    message = await post_legacy(world, cells, alice.id, 0, over=True)
    result = await alice.click(message, custom_id=legacy_id("m", cells, alice.id, 0))
    assert not result.ephemeral, result.response.content
    retired = message_by_id(channel, message.id)
    assert is_v2(retired)
    assert status(retired) == (
        f"🏆 **{alice.mention} wins** with three in a row!\n🔁 A rematch started below."
    )
    assert control_labels(retired) == []  # no Review: the move order is unknown
    rematch = channel.last_message
    assert rematch.id != message.id
    assert status(rematch).endswith(turn_line(alice, "O", env))


async def test_a_finished_board_shown_anew_keeps_its_rematch(world):
    """A finished board of the previous version, once redrawn in the new look (here by its
    expiry), still offers Rematch but no Review."""
    env, channel, alice = world.env, world.channel, world.alice
    message = await post_legacy(world, "X---O----", alice.id, 0)
    await env.advance_time(GAME_TIMEOUT + 1)
    await alice.click(message, custom_id=legacy_id("8", "X---O----", alice.id, 0))
    assert control_labels(message_by_id(channel, message.id)) == ["Rematch"]


async def test_a_challenge_of_the_previous_version_can_be_accepted(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    view = discord.ui.View()
    for verb, label in (("a", "Accept"), ("d", "Decline")):
        view.add_item(discord.ui.Button(label=label, custom_id=f"ttt:{verb}:{alice.id}:{bob.id}:O"))
    message = await post_as_bot(env, channel, f"{bob.mention}, a challenge", view)
    result = await click_label(bob, message, "Accept")
    assert not result.ephemeral, result.response.content
    board_message = message_by_id(channel, message.id)
    assert is_v2(board_message)
    assert status(board_message) == turn_line(bob, "X", env)


# ------------------------------------------------------------------ Discord's limits


def test_the_limit_checks_catch_what_discord_refuses():
    """The checks are the fake Discord's own (fake_discord/limits.py): Discord's refusals."""

    def button(custom_id: str) -> dict:
        return {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}

    row = {"type": 1, "components": [button(f"b{i}") for i in range(6)]}
    assert payload_problems({"components": [row]}) == [
        "Invalid Form Body: In components.0.components: An action row holds 1-5 buttons, not 6."
    ]
    many = [{"type": 10, "content": "x"} for _ in range(41)]
    assert "41 components; at most 40" in payload_problems({"components": many})[0]
    long_text = {"components": [{"type": 17, "components": [{"type": 10, "content": "x" * 4001}]}]}
    assert "4001 characters of text displays; at most 4000" in payload_problems(long_text)[0]
    twice = [{"type": 1, "components": [button("same"), button("same")]}]
    assert "Duplicate custom_id" in payload_problems({"components": twice})[0]
    too_long = [{"type": 1, "components": [button("x" * 101)]}]
    assert "Must be 1-100 long" in payload_problems({"components": too_long})[0]
    assert payload_problems({"content": "hello", "components": []}) == []


async def test_every_message_fits_discords_limits(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    seen = []
    await alice.slash(channel, "tictactoe", opponent=bob)
    seen.append(channel.last_message)
    await click_label(bob, channel.last_message, "Accept")
    seen.append(channel.last_message)
    for player, cell in [(alice, (0, 0)), (bob, (1, 1)), (alice, (2, 2))]:
        await click_cell(player, channel.last_message, cell)
        seen.append(channel.last_message)
    asked = await click_control(bob, channel.last_message, "Resign")
    seen.append(asked.followups[0].message)
    confirmed = await click_label(bob, asked.followups[0].message, "Yes, resign")
    seen.append(confirmed.response.message)
    seen.append(channel.last_message)
    await click_control(bob, channel.last_message, "Rematch")
    seen += [message_by_id(channel, seen[-1].id), channel.last_message]
    other = world.guild.create_text_channel("other")
    await world.carol.slash(other, "tictactoe", play_as="O", difficulty="hard")
    seen.append(other.last_message)
    free = min(ttt.actions(board_of(other.last_message)))
    await click_cell(world.carol, other.last_message, free)
    seen.append(other.last_message)
    await env.advance_time(GAME_TIMEOUT)
    seen += [other.last_message, channel.last_message]
    for message in seen:
        assert not limit_problems(message), (limit_problems(message), message)
        check_limits(message)
    assert control_labels(channel.last_message) == ["Rematch", "Review"]
    # The bodies the discord_rules fixture checks: every kind of request that carries one.
    carried = {
        (r.method, r.path.split("/")[1], r.path.rsplit("/", 2)[-2] == "messages")
        for r in env.http_requests
        if isinstance(r.json, dict) and ("components" in r.json or "data" in r.json)
    }
    assert {("POST", "interactions", False), ("POST", "webhooks", False)} <= carried
    assert ("PATCH", "webhooks", True) in carried  # edits by token: resign, expiry
    assert len(sent_messages(env)) >= len(seen)
