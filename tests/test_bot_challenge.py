"""Playing a friend: the challenge, then alternating turns."""

import pytest
from bot_helpers import (
    GAME_TIMEOUT,
    all_cells_disabled,
    board_of,
    buttons,
    click_cell,
    click_control,
    control_labels,
    green_cells,
    snapshot,
)

import tictactoe as ttt


@pytest.fixture
def carol(world):
    env, guild, *_ = world
    return guild.add_member(env.create_user("carol"))


async def challenge(channel, alice, bob, **options):
    result = await alice.slash(channel, "tictactoe", opponent=bob, **options)
    assert not result.ephemeral, result.response.content
    return channel.last_message


async def test_challenge_pings_the_opponent_with_accept_and_decline(world):
    env, _, channel, alice, bob = world
    message = await challenge(channel, alice, bob)
    assert message.content.startswith(f"{bob.mention}, {alice.mention} challenges you")
    assert "Accept within 60 seconds" in message.content
    assert [b.label for row in buttons(message) for b in row] == ["Accept", "Decline"]
    (callback,) = [r for r in env.http_requests if r.path.endswith("/callback")]
    allowed = callback.json["data"]["allowed_mentions"]
    assert allowed["users"] == [str(bob.id)] or allowed["users"] == [bob.id]
    assert allowed["parse"] == []


async def test_accepted_challenge_becomes_a_board_and_players_alternate(world):
    _env, _, channel, alice, bob = world
    message = await challenge(channel, alice, bob)
    result = await click_control(bob, message, "Accept")
    assert not result.ephemeral
    board_message = channel.last_message
    assert board_message.id == message.id
    assert board_of(board_message) == ttt.initial_state()
    assert board_message.content == (
        f"❌ {alice.mention} vs ⭕ {bob.mention} — {alice.mention} to move (❌)."
    )
    # alice takes the top row while bob plays the middle row
    for player, cell in [(alice, (0, 0)), (bob, (1, 0)), (alice, (0, 1)), (bob, (1, 1))]:
        result = await click_cell(player, channel.last_message, cell)
        assert not result.ephemeral, result.response.content
    await click_cell(alice, channel.last_message, (0, 2))
    final = channel.last_message
    assert f"**{alice.mention} wins!**" in final.content
    assert green_cells(final) == {(0, 0), (0, 1), (0, 2)}
    assert all_cells_disabled(final)
    assert control_labels(final) == ["Rematch"]


async def test_playing_out_of_turn_is_refused_privately(world):
    _env, _, channel, alice, bob = world
    await click_control(bob, await challenge(channel, alice, bob), "Accept")
    before = snapshot(channel.last_message)
    result = await click_cell(bob, channel.last_message, (1, 1))
    assert result.ephemeral
    assert result.response.content == f"It's {alice.mention}'s turn."
    assert snapshot(channel.last_message) == before


async def test_a_stranger_cannot_touch_a_friends_game(world, carol):
    _env, _, channel, alice, bob = world
    await click_control(bob, await challenge(channel, alice, bob), "Accept")
    before = snapshot(channel.last_message)
    result = await click_cell(carol, channel.last_message, (1, 1))
    assert result.ephemeral
    assert result.response.content == (
        f"This game is between {alice.mention} and {bob.mention}. Start your own with /tictactoe."
    )
    assert snapshot(channel.last_message) == before


async def test_only_the_challenged_user_can_answer(world, carol):
    _env, _, channel, alice, bob = world
    message = await challenge(channel, alice, bob)
    for user in (alice, carol):
        result = await click_control(user, message, "Accept")
        assert result.ephemeral
        assert result.response.content == f"Only {bob.mention} can answer this challenge."
    assert channel.last_message.content == message.content


async def test_declined_challenge_frees_the_channel(world):
    _env, _, channel, alice, bob = world
    message = await challenge(channel, alice, bob)
    result = await click_control(bob, message, "Decline")
    assert not result.ephemeral
    declined = channel.last_message
    assert declined.content == f"{bob.mention} declined {alice.mention}'s challenge."
    assert declined.components == []
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_unanswered_challenge_expires_after_a_minute(world):
    env, _, channel, alice, bob = world
    message = await challenge(channel, alice, bob)
    await env.advance_time(59)
    assert channel.last_message.components != []
    await env.advance_time(1)
    expired = channel.last_message
    assert expired.id == message.id
    assert expired.content == f"{alice.mention}'s challenge to {bob.mention} expired unanswered."
    assert expired.components == []
    assert not (await bob.slash(channel, "tictactoe")).ephemeral


async def test_a_challenge_keeps_the_channel_busy(world, carol):
    _env, _, channel, alice, bob = world
    message = await challenge(channel, alice, bob)
    result = await carol.slash(channel, "tictactoe")
    assert result.ephemeral
    assert "A challenge is open" in result.response.content
    assert message.jump_url in result.response.content


async def test_play_as_o_lets_the_opponent_move_first(world):
    _env, _, channel, alice, bob = world
    await click_control(bob, await challenge(channel, alice, bob, play_as="O"), "Accept")
    assert channel.last_message.content == (
        f"❌ {bob.mention} vs ⭕ {alice.mention} — {bob.mention} to move (❌)."
    )


async def test_challenging_yourself_or_a_bot_is_refused(world):
    env, _, channel, alice, _ = world
    result = await alice.slash(channel, "tictactoe", opponent=alice)
    assert result.ephemeral
    assert "can't challenge yourself" in result.response.content
    robot = env.guild.add_member(env.create_user("robot", bot=True))
    result = await alice.slash(channel, "tictactoe", opponent=robot)
    assert result.ephemeral
    assert "Bots can't take a challenge" in result.response.content
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_friend_game_rematch_swaps_who_starts(world):
    _env, _, channel, alice, bob = world
    await click_control(bob, await challenge(channel, alice, bob), "Accept")
    await click_control(bob, channel.last_message, "Resign")
    assert f"{bob.mention} resigned, **{alice.mention} wins**" in channel.last_message.content
    await click_control(bob, channel.last_message, "Rematch")
    assert channel.last_message.content == (
        f"❌ {bob.mention} vs ⭕ {alice.mention} — {bob.mention} to move (❌)."
    )


async def test_an_accepted_game_expires_when_idle(world):
    env, _, channel, alice, bob = world
    await click_control(bob, await challenge(channel, alice, bob), "Accept")
    await env.advance_time(GAME_TIMEOUT)
    assert "expired" in channel.last_message.content
    assert all_cells_disabled(channel.last_message)
