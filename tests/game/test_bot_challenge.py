"""Playing a friend: the challenge, then alternating turns."""

import discord
import pytest
from bot_helpers import (
    APOLOGY,
    CHALLENGE_TIMEOUT,
    GAME_TIMEOUT,
    accent,
    all_cells_enabled,
    board_of,
    busy,
    buttons,
    click_cell,
    click_control,
    click_label,
    control_labels,
    deadline,
    green_cells,
    heading,
    invalid,
    is_v2,
    last_move,
    marks_keep_their_colours,
    message_by_id,
    not_player,
    not_player_after,
    post_forged,
    resign,
    snapshot,
    status,
    texts,
    turn_line,
)

import tictactoe as ttt

pytestmark = pytest.mark.usefixtures("discord_rules")

RED = discord.Colour.red().value
BLURPLE = discord.Colour.blurple().value
GREEN = discord.Colour.green().value
GREY = discord.Colour.light_grey().value
CHALLENGE_HEADING = "## ⚔️ Tic-Tac-Toe challenge"


async def challenge(channel, alice, bob, **options):
    result = await alice.slash(channel, "tictactoe", opponent=bob, **options)
    assert not result.ephemeral, result.response.content
    return channel.last_message


async def accepted(world, **options):
    """A game between alice and bob, bob having accepted alice's challenge; its board."""
    message = await challenge(world.channel, world.alice, world.bob, **options)
    result = await click_label(world.bob, message, "Accept")
    assert not result.ephemeral, result.response.content
    return world.channel.last_message


def game_heading(x, o) -> str:
    return f"## Tic-Tac-Toe\n🟥 **X** {x.mention}\n🟦 **O** {o.mention}"


async def test_challenge_pings_the_opponent_with_accept_and_decline(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    message = await challenge(channel, alice, bob)
    assert is_v2(message)
    assert texts(message) == [
        CHALLENGE_HEADING,
        f"{bob.mention}, {alice.mention} challenges you! {alice.mention} plays **X**, "
        f"you play **O**. **X** moves first.\n"
        f"⏳ The challenge closes <t:{deadline(env, CHALLENGE_TIMEOUT)}:R>.",
    ]
    assert [(b["label"], b["style"]) for b in buttons(message)] == [
        ("Accept", discord.ButtonStyle.success.value),
        ("Decline", discord.ButtonStyle.danger.value),
    ]
    (callback,) = [r for r in env.http_requests if r.path.endswith("/callback")]
    allowed = callback.json["data"]["allowed_mentions"]
    assert [int(user) for user in allowed["users"]] == [bob.id]
    assert allowed["parse"] == []


async def test_accepted_challenge_becomes_a_board_and_players_alternate(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    message = await challenge(channel, alice, bob)
    await env.advance_time(20)
    result = await click_label(bob, message, "Accept")
    assert not result.ephemeral
    board_message = channel.last_message
    assert board_message.id == message.id
    assert is_v2(board_message)
    assert board_of(board_message) == ttt.initial_state()
    assert heading(board_message) == game_heading(alice, bob)
    assert status(board_message) == turn_line(alice, "X", env)  # 600 s from the accept
    assert control_labels(board_message) == ["Resign"]  # no hint between two people
    assert accent(board_message) == RED
    # alice takes the top row while bob plays the middle row
    for player, cell, colour in [
        (alice, (0, 0), BLURPLE),
        (bob, (1, 0), RED),
        (alice, (0, 1), BLURPLE),
        (bob, (1, 1), RED),
    ]:
        result = await click_cell(player, channel.last_message, cell)
        assert not result.ephemeral, result.response.content
        assert accent(channel.last_message) == colour
    await click_cell(alice, channel.last_message, (0, 2))
    final = channel.last_message
    assert status(final) == (
        f"{last_move('X', (0, 2))}\n🏆 **{alice.mention} wins** with three in a row!"
    )
    assert green_cells(final) == {(0, 0), (0, 1), (0, 2)}
    assert marks_keep_their_colours(final)
    assert all_cells_enabled(final)
    assert control_labels(final) == ["Rematch", "Review"]
    assert accent(final) == GREEN


async def test_playing_out_of_turn_is_refused_privately(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    board_message = await accepted(world)
    before = snapshot(board_message)
    result = await click_cell(bob, board_message, (1, 1))
    assert result.ephemeral
    assert result.response.content == f"It's {alice.mention}'s turn."
    await click_cell(alice, board_message, (1, 1))
    moved = snapshot(channel.last_message)
    result = await click_cell(alice, channel.last_message, (0, 0))
    assert result.ephemeral
    assert result.response.content == f"It's {bob.mention}'s turn."
    assert snapshot(channel.last_message) == moved != before


async def test_a_stranger_cannot_touch_a_friends_game(world):
    env, channel, alice, bob, carol = world.env, world.channel, world.alice, world.bob, world.carol
    board_message = await accepted(world)
    before = snapshot(board_message)
    for pressed in (
        await click_cell(carol, board_message, (1, 1)),
        await click_control(carol, board_message, "Resign"),
    ):
        assert pressed.ephemeral
        assert pressed.response.content == not_player(alice.mention, bob.mention, env)
    assert snapshot(channel.last_message) == before


async def test_only_the_challenged_user_can_answer(world):
    channel, alice, bob, carol = world.channel, world.alice, world.bob, world.carol
    message = await challenge(channel, alice, bob)
    before = snapshot(message)
    for user in (alice, carol):
        for label in ("Accept", "Decline"):
            result = await click_label(user, message, label)
            assert result.ephemeral
            assert result.response.content == f"Only {bob.mention} can answer this challenge."
    assert snapshot(channel.last_message) == before


async def test_declined_challenge_frees_the_channel(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    message = await challenge(channel, alice, bob)
    result = await click_label(bob, message, "Decline")
    assert not result.ephemeral
    declined = channel.last_message
    assert declined.id == message.id
    assert texts(declined) == [
        CHALLENGE_HEADING,
        f"{bob.mention} declined {alice.mention}'s challenge.",
    ]
    assert buttons(declined) == []
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_unanswered_challenge_expires_after_a_minute(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    message = await challenge(channel, alice, bob)
    await env.advance_time(CHALLENGE_TIMEOUT - 1)
    assert [b["label"] for b in buttons(channel.last_message)] == ["Accept", "Decline"]
    await env.advance_time(1)
    expired = channel.last_message
    assert expired.id == message.id
    assert texts(expired) == [
        CHALLENGE_HEADING,
        f"⏱️ {bob.mention} did not answer {alice.mention}'s challenge in time.",
    ]
    assert buttons(expired) == []
    assert not (await bob.slash(channel, "tictactoe")).ephemeral


async def test_a_challenge_keeps_the_channel_busy(world):
    channel, alice, bob, carol = world.channel, world.alice, world.bob, world.carol
    message = await challenge(channel, alice, bob)
    result = await carol.slash(channel, "tictactoe")
    assert result.ephemeral
    assert result.response.content == busy(message.jump_url)
    assert channel.last_message.id == message.id


async def test_play_as_o_lets_the_opponent_move_first(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    message = await challenge(channel, alice, bob, play_as="O")
    assert texts(message)[1].startswith(
        f"{bob.mention}, {alice.mention} challenges you! {alice.mention} plays **O**, "
        "you play **X**. **X** moves first."
    )
    await click_label(bob, message, "Accept")
    board_message = channel.last_message
    assert heading(board_message) == game_heading(bob, alice)
    assert status(board_message) == turn_line(bob, "X", env)


async def test_challenging_yourself_or_a_bot_is_refused(world):
    env, guild, channel, alice = world.env, world.guild, world.channel, world.alice
    result = await alice.slash(channel, "tictactoe", opponent=alice)
    assert result.ephemeral
    assert result.response.content == (
        "You can't challenge yourself. Leave out `opponent` to play me."
    )
    robot = guild.add_member(env.create_user("robot", bot=True))
    result = await alice.slash(channel, "tictactoe", opponent=robot)
    assert result.ephemeral
    assert result.response.content == "Bots can't play. Leave out `opponent` to play me instead."
    assert channel.last_message is None
    assert not (await alice.slash(channel, "tictactoe")).ephemeral


async def test_friend_game_rematch_swaps_who_starts(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    board_message = await accepted(world)
    await resign(bob, board_message)
    finished = message_by_id(channel, board_message.id)
    assert status(finished) == f"🏳️ {bob.mention} resigned: **{alice.mention} wins.**"
    assert accent(finished) == GREEN
    await click_control(bob, finished, "Rematch")
    rematch = channel.last_message
    assert rematch.id != finished.id
    assert heading(rematch) == game_heading(bob, alice)
    assert status(rematch) == turn_line(bob, "X", env)
    assert control_labels(message_by_id(channel, finished.id)) == ["Review"]


async def test_an_accepted_game_expires_on_the_player_to_move(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    board_message = await accepted(world)
    await click_cell(alice, board_message, (1, 1))
    await env.advance_time(GAME_TIMEOUT)
    expired = channel.last_message
    assert status(expired) == (
        f"{last_move('X', (1, 1))}\n⏱️ {bob.mention} ran out of time: the game is over."
    )
    assert accent(expired) == GREY
    assert control_labels(expired) == ["Rematch", "Review"]


async def test_review_is_for_both_players_of_a_finished_game(world):
    env, channel, alice, bob, carol = world.env, world.channel, world.alice, world.bob, world.carol
    board_message = await accepted(world)
    await resign(alice, board_message)
    finished = message_by_id(channel, board_message.id)
    before = snapshot(finished)
    for player in (alice, bob):
        review = await click_control(player, finished, "Review")
        assert review.ephemeral
        assert review.response.content
        assert review.response.content != APOLOGY
    stranger = await click_control(carol, finished, "Review")
    assert stranger.ephemeral
    assert stranger.response.content == not_player_after(alice.mention, bob.mention, env)
    assert snapshot(message_by_id(channel, finished.id)) == before


async def test_a_hint_is_refused_between_two_people(world):
    """No Hint button on a friend game; a forged one is refused and changes nothing."""
    env, alice, bob = world.env, world.alice, world.bob
    board_message = await accepted(world)
    assert "Hint" not in control_labels(board_message)
    other = world.guild.create_text_channel("other")
    forged = await post_forged(env, other, f"ttt2:h:m:{alice.id}:{bob.id}:-:-:en-US")
    result = await alice.click(forged, custom_id=buttons(forged)[0]["custom_id"])
    assert result.ephemeral
    assert result.response.content not in ("", APOLOGY)
    assert other.last_message.content == "a forged board"
    assert not (await alice.slash(other, "tictactoe")).ephemeral


async def test_a_resign_confirmation_only_ever_resigns_whoever_presses_it(world):
    """The question is private to the asker; were its button pressed by someone else (here a
    copy of it), a stranger is refused and the opponent can only resign themselves."""
    env, channel, alice, bob, carol = world.env, world.channel, world.alice, world.bob, world.carol
    board_message = await accepted(world)
    asked = await click_control(alice, board_message, "Resign")
    confirm, _cancel = buttons(asked.followups[0].message)
    assert confirm.get("custom_id") is not None
    assert asked.followups[0].id not in [m.id for m in channel.history(viewer=bob)]
    copy = await post_forged(env, channel, confirm["custom_id"])
    before = snapshot(message_by_id(channel, board_message.id))
    stranger = await carol.click(copy, custom_id=confirm["custom_id"])
    assert stranger.ephemeral
    assert stranger.response.content == invalid(env)
    assert snapshot(message_by_id(channel, board_message.id)) == before
    await bob.click(copy, custom_id=confirm["custom_id"])
    after = message_by_id(channel, board_message.id)
    assert status(after) == f"🏳️ {bob.mention} resigned: **{alice.mention} wins.**"
