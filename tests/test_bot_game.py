"""Playing against the bot, driven through SimCord as a user would."""

import pytest
from bot_helpers import (
    GAME_TIMEOUT,
    all_cells_disabled,
    board_of,
    cell_buttons,
    click_cell,
    click_control,
    control_labels,
    green_cells,
    snapshot,
)

import tictactoe as ttt


def bot_mention(env) -> str:
    return env.bot.user.mention


async def play_out(channel, player, choose) -> None:
    """Let `player` pick cells with `choose(board)` until the game on the last message ends."""
    for _ in range(5):
        message = channel.last_message
        if all_cells_disabled(message):
            return
        result = await click_cell(player, message, choose(board_of(message)))
        assert not result.ephemeral, result.response.content
    assert all_cells_disabled(channel.last_message)


def first_empty(board) -> tuple[int, int]:
    return min(ttt.actions(board))


async def test_slash_command_is_registered_with_its_options(world):
    env, _, channel, alice, _ = world
    assert "tictactoe" in alice.available_commands(channel)
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(puts) == 1
    (command,) = puts[0].json
    assert command["description"] == "Play tic-tac-toe against me or a friend"
    options = {option["name"]: option for option in command["options"]}
    assert set(options) == {"opponent", "play_as", "difficulty"}
    assert not any(option.get("required") for option in options.values())
    assert [c["value"] for c in options["play_as"]["choices"]] == ["X", "O", "random"]
    assert [c["value"] for c in options["difficulty"]["choices"]] == [
        "easy",
        "medium",
        "hard",
        "impossible",
    ]


async def test_new_game_shows_an_empty_board_and_whose_turn(world):
    env, _, channel, alice, _ = world
    result = await alice.slash(channel, "tictactoe")
    assert not result.ephemeral
    message = channel.last_message
    assert board_of(message) == ttt.initial_state()
    assert not any(cell.disabled for row in cell_buttons(message) for cell in row)
    assert control_labels(message) == ["Resign"]
    assert message.content.startswith(f"❌ {alice.mention} vs ⭕ {bot_mention(env)} · impossible")
    assert message.content.endswith(f"{alice.mention} to move (❌).")


async def test_a_click_shows_the_move_and_the_bot_reply_in_one_edit(world):
    _env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    board_message = channel.last_message
    result = await click_cell(alice, board_message, (0, 0))
    assert not result.ephemeral
    assert result.response.id == board_message.id  # the same message, edited
    board = board_of(channel.last_message)
    assert board[0][0] == ttt.X
    assert sum(cell == ttt.O for row in board for cell in row) == 1
    assert board[1][1] == ttt.O  # the only move that does not lose to a corner opening
    cells = cell_buttons(channel.last_message)
    assert cells[0][0].disabled
    assert cells[1][1].disabled
    assert not cells[0][1].disabled


async def test_bot_wins_a_full_game_and_highlights_the_line(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    await play_out(channel, alice, first_empty)
    message = channel.last_message
    board = board_of(message)
    assert ttt.winner(board) == ttt.O
    assert f"**{bot_mention(env)} wins!**" in message.content
    assert green_cells(message) == set(ttt.winning_line(board))
    assert all_cells_disabled(message)
    assert control_labels(message) == ["Rematch"]


async def test_perfect_play_against_impossible_is_a_draw(world):
    _env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe", play_as="O")
    await play_out(channel, alice, ttt.minimax)
    message = channel.last_message
    assert ttt.terminal(board_of(message))
    assert ttt.winner(board_of(message)) is None
    assert "**Draw!**" in message.content
    assert green_cells(message) == set()


async def test_playing_as_o_the_bot_has_already_moved(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe", play_as="O")
    message = channel.last_message
    marks = [cell for row in board_of(message) for cell in row if cell]
    assert marks == [ttt.X]
    assert message.content.startswith(f"❌ {bot_mention(env)} vs ⭕ {alice.mention}")
    assert message.content.endswith(f"{alice.mention} to move (⭕).")


async def test_random_side_gives_the_user_one_of_the_marks(world):
    _env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe", play_as="random")
    content = channel.last_message.content
    assert f"❌ {alice.mention} vs" in content or f"⭕ {alice.mention} ·" in content


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "impossible"])
async def test_each_difficulty_reaches_the_engine(world, difficulty):
    """A perfect player wins some games against the weaker levels and none against impossible."""
    _env, _, channel, alice, _ = world
    wins = 0
    for _ in range(8):
        await alice.slash(channel, "tictactoe", difficulty=difficulty)
        assert f"· {difficulty} —" in channel.last_message.content
        await play_out(channel, alice, ttt.minimax)
        wins += f"**{alice.mention} wins!**" in channel.last_message.content
    if difficulty == "impossible":
        assert wins == 0
    else:
        assert wins > 0


async def test_stranger_click_gets_a_private_answer_and_changes_nothing(world):
    env, _, channel, alice, bob = world
    await alice.slash(channel, "tictactoe")
    before = snapshot(channel.last_message)
    result = await click_cell(bob, channel.last_message, (1, 1))
    assert result.ephemeral
    assert result.response.content == (
        f"This game is between {alice.mention} and {bot_mention(env)}. "
        "Start your own with /tictactoe."
    )
    assert snapshot(channel.last_message) == before
    resign = await click_control(bob, channel.last_message, "Resign")
    assert resign.ephemeral
    assert snapshot(channel.last_message) == before


async def test_a_second_game_in_a_busy_channel_links_to_the_first(world):
    _env, _, channel, alice, bob = world
    await alice.slash(channel, "tictactoe")
    board_message = channel.last_message
    result = await bob.slash(channel, "tictactoe")
    assert result.ephemeral
    assert board_message.jump_url in result.response.content
    assert "One game per channel" in result.response.content
    assert channel.last_message.id == board_message.id


async def test_games_in_different_channels_are_independent(world):
    _env, guild, channel, alice, bob = world
    other = guild.create_text_channel("other")
    await alice.slash(channel, "tictactoe")
    result = await bob.slash(other, "tictactoe", play_as="O")
    assert not result.ephemeral
    await click_cell(alice, channel.last_message, (0, 0))
    assert sum(cell is not None for row in board_of(other.last_message) for cell in row) == 1


async def test_resign_ends_the_game_and_frees_the_channel(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    result = await click_control(alice, channel.last_message, "Resign")
    assert not result.ephemeral
    message = channel.last_message
    assert f"{alice.mention} resigned, **{bot_mention(env)} wins**" in message.content
    assert all_cells_disabled(message)
    assert control_labels(message) == ["Rematch"]
    again = await alice.slash(channel, "tictactoe")
    assert not again.ephemeral


async def test_rematch_swaps_marks_so_the_other_side_moves_first(world):
    env, _, channel, alice, bob = world
    await alice.slash(channel, "tictactoe", difficulty="hard")
    await click_control(alice, channel.last_message, "Resign")
    finished = channel.last_message
    stranger = await click_control(bob, finished, "Rematch")
    assert stranger.ephemeral
    result = await click_control(alice, finished, "Rematch")
    assert not result.ephemeral
    rematch = channel.last_message
    assert rematch.id != finished.id  # a new message; the finished one stays as it was
    assert rematch.content.startswith(f"❌ {bot_mention(env)} vs ⭕ {alice.mention} · hard")
    assert sum(cell == ttt.X for row in board_of(rematch) for cell in row) == 1
    busy = await click_control(alice, finished, "Rematch")
    assert busy.ephemeral
    assert rematch.jump_url in busy.response.content


async def test_idle_game_expires_and_frees_the_channel(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    await env.advance_time(GAME_TIMEOUT - 1)
    assert not all_cells_disabled(channel.last_message)
    await env.advance_time(1)
    message = channel.last_message
    assert "expired" in message.content
    assert all_cells_disabled(message)
    assert control_labels(message) == ["Rematch"]
    again = await alice.slash(channel, "tictactoe")
    assert not again.ephemeral


async def test_each_move_restarts_the_idle_timer(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    await env.advance_time(GAME_TIMEOUT - 10)
    await click_cell(alice, channel.last_message, (0, 0))
    await env.advance_time(GAME_TIMEOUT - 10)
    assert "expired" not in channel.last_message.content
    result = await click_cell(
        alice, channel.last_message, first_empty(board_of(channel.last_message))
    )
    assert not result.ephemeral


async def test_a_failed_edit_is_apologised_for_and_the_game_is_intact(world):
    env, _, channel, alice, _ = world
    await alice.slash(channel, "tictactoe")
    before = snapshot(channel.last_message)
    env.inject_error("POST", "/interactions/*/callback", times=1)
    result = await click_cell(alice, channel.last_message, (0, 0))
    assert result.ephemeral
    assert result.response.content == "Sorry, something went wrong on my side. Please try again."
    assert snapshot(channel.last_message) == before
    retry = await click_cell(alice, channel.last_message, (0, 0))
    assert not retry.ephemeral
    assert board_of(channel.last_message)[0][0] == ttt.X
