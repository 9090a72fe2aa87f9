"""Playing against the bot, driven through SimCord as a user would."""

import discord
import pytest
from bot_helpers import (
    APOLOGY,
    BLANK,
    CELL_TAKEN,
    GAME_TIMEOUT,
    RESIGN_QUESTION,
    STALE,
    accent,
    all_cells_enabled,
    board_of,
    bot_mention,
    busy,
    buttons,
    cell_buttons,
    cell_styles,
    click_cell,
    click_control,
    click_label,
    control_labels,
    deadline,
    game_over,
    green_cells,
    heading,
    is_over,
    is_v2,
    last_move,
    marks_keep_their_colours,
    message_by_id,
    not_player,
    not_player_after,
    resign,
    snapshot,
    status,
    turn_line,
)
from simcord import SetupError

import tictactoe as ttt
from tests.support.moves import first_empty

pytestmark = pytest.mark.usefixtures("discord_rules")

RED = discord.Colour.red().value
BLURPLE = discord.Colour.blurple().value
GREEN = discord.Colour.green().value
GREY = discord.Colour.light_grey().value


async def play_out(channel, player, choose) -> None:
    """Let `player` pick cells with `choose(board)` until the game on the last message ends."""
    for _ in range(5):
        message = channel.last_message
        if is_over(message):
            return
        result = await click_cell(player, message, choose(board_of(message)))
        assert not result.ephemeral, result.response.content
    assert is_over(channel.last_message)


def marks_on(message) -> int:
    return sum(cell is not None for row in board_of(message) for cell in row)


async def test_slash_command_is_registered_with_its_options(world):
    env, channel, alice = world.env, world.channel, world.alice
    assert "tictactoe" in alice.available_commands(channel)
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(puts) == 1
    (command,) = [c for c in puts[0].json if c["name"] == "tictactoe"]
    assert command["description"] == "Play tic-tac-toe against me or a friend"
    options = {option["name"]: option for option in command["options"]}
    assert set(options) == {"opponent", "play_as", "difficulty", "variant"}
    assert not any(option.get("required") for option in options.values())
    choices = {
        name: [(c["name"], c["value"]) for c in options[name]["choices"]]
        for name in ("play_as", "difficulty", "variant")
    }
    assert choices["play_as"] == [
        ("X — you move first", "X"),
        ("O — the other side moves first", "O"),
        ("Random", "random"),
    ]
    assert choices["difficulty"] == [
        ("Easy — makes plenty of mistakes", "easy"),
        ("Medium — sees two moves ahead", "medium"),
        ("Hard — slips now and then", "hard"),
        ("Impossible — never loses", "impossible"),
    ]
    assert choices["variant"] == [
        ("Classic — one board", "classic"),
        ("Ultimate — nine boards in one", "ultimate"),
    ]


async def test_new_game_shows_an_empty_board_and_whose_turn(world):
    env, channel, alice = world.env, world.channel, world.alice
    result = await alice.slash(channel, "tictactoe")
    assert not result.ephemeral
    message = channel.last_message
    assert is_v2(message)
    assert heading(message) == (
        f"## Tic-Tac-Toe\n🟥 **X** {alice.mention}\n"
        f"🟦 **O** {bot_mention(env)} · Difficulty: Impossible"
    )
    assert status(message) == turn_line(alice, "X", env)
    assert board_of(message) == ttt.initial_state()
    assert all(cell["label"] == BLANK for cell in cell_buttons(message))
    assert cell_styles(message) == [[discord.ButtonStyle.secondary.value] * 3] * 3
    assert all_cells_enabled(message)
    assert control_labels(message) == ["Hint", "Resign"]
    assert accent(message) == RED


async def test_a_click_shows_the_move_and_the_bot_reply_in_one_edit(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    board_message = channel.last_message
    await env.advance_time(30)
    result = await click_cell(alice, board_message, (0, 0))
    assert not result.ephemeral
    assert result.response.id == board_message.id  # the same message, edited
    message = channel.last_message
    board = board_of(message)
    assert board[0][0] == ttt.X
    assert board[1][1] == ttt.O  # the only move that does not lose to a corner opening
    assert marks_on(message) == 2
    assert status(message) == last_move("O", (1, 1)) + "\n" + turn_line(alice, "X", env)
    styles = cell_styles(message)
    assert styles[0][0] == discord.ButtonStyle.danger.value
    assert styles[1][1] == discord.ButtonStyle.primary.value
    assert styles[0][1] == discord.ButtonStyle.secondary.value
    assert all_cells_enabled(message)
    assert accent(message) == RED


async def test_bot_wins_a_full_game_and_highlights_the_line(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await play_out(channel, alice, first_empty)
    message = channel.last_message
    board = board_of(message)
    assert ttt.winner(board) == ttt.O
    assert status(message).endswith(f"\n🏆 **{bot_mention(env)} wins** with three in a row!")
    line = ttt.winning_line(board)
    assert line is not None
    assert green_cells(message) == set(line)
    assert marks_keep_their_colours(message)
    assert all_cells_enabled(message)  # full strength, even when finished
    assert control_labels(message) == ["Rematch", "Review"]
    assert accent(message) == GREEN


async def test_perfect_play_against_impossible_is_a_draw(world):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe", play_as="O")
    await play_out(channel, alice, ttt.minimax)
    message = channel.last_message
    assert ttt.terminal(board_of(message))
    assert ttt.winner(board_of(message)) is None
    assert status(message).endswith("\n🤝 **Draw:** nobody can win any more.")
    assert green_cells(message) == set()
    assert marks_keep_their_colours(message)
    assert control_labels(message) == ["Rematch", "Review"]
    assert accent(message) == GREY


async def test_playing_as_o_the_bot_has_already_moved(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe", play_as="O", difficulty="easy")
    message = channel.last_message
    board = board_of(message)
    marks = [(i, j) for i in range(3) for j in range(3) if board[i][j]]
    assert [board[i][j] for i, j in marks] == [ttt.X]
    assert heading(message) == (
        f"## Tic-Tac-Toe\n🟥 **X** {bot_mention(env)} · Difficulty: Easy\n🟦 **O** {alice.mention}"
    )
    assert status(message) == last_move("X", marks[0]) + "\n" + turn_line(alice, "O", env)
    assert accent(message) == BLURPLE


async def test_random_side_gives_the_user_either_mark(world):
    env, channel, alice = world.env, world.channel, world.alice
    sides: list[str] = []
    while len(set(sides)) < 2:
        assert len(sides) < 8, sides
        await alice.slash(channel, "tictactoe", play_as="random")
        lines = heading(channel.last_message).splitlines()
        assert f"🟥 **X** {alice.mention}" in lines or f"🟦 **O** {alice.mention}" in lines
        assert bot_mention(env) in heading(channel.last_message)
        sides.append("X" if f"🟥 **X** {alice.mention}" in lines else "O")
        await resign(alice, channel.last_message)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
async def test_the_weaker_levels_lose_to_perfect_play(world, difficulty):
    """The level reaches the engine: a perfect player soon beats easy, medium and hard."""
    channel, alice = world.channel, world.alice
    for _ in range(8):
        await alice.slash(channel, "tictactoe", difficulty=difficulty)
        assert heading(channel.last_message).endswith(f" · Difficulty: {difficulty.title()}")
        await play_out(channel, alice, ttt.minimax)
        if f"🏆 **{alice.mention} wins**" in status(channel.last_message):
            return
    pytest.fail(f"{difficulty} never lost in 8 games")


@pytest.mark.parametrize("play_as", ["X", "O"])
async def test_impossible_never_loses_to_perfect_play(world, play_as):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe", play_as=play_as)
    await play_out(channel, alice, ttt.minimax)
    assert status(channel.last_message).endswith("\n🤝 **Draw:** nobody can win any more.")


async def test_stranger_clicks_get_a_private_answer_and_change_nothing(world):
    env, channel, alice, carol = world.env, world.channel, world.alice, world.carol
    await alice.slash(channel, "tictactoe")
    board_message = channel.last_message
    before = snapshot(board_message)
    refusal = not_player(alice.mention, bot_mention(env), env)
    result = await click_cell(carol, board_message, (1, 1))
    assert result.ephemeral
    assert result.response.content == refusal
    for label in ("Hint", "Resign"):
        pressed = await click_control(carol, board_message, label)
        assert pressed.ephemeral
        assert pressed.response.content == refusal
    assert snapshot(channel.last_message) == before


async def test_a_taken_cell_is_refused_privately(world):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe", play_as="O")
    message = channel.last_message
    before = snapshot(message)
    taken = next((i, j) for i in range(3) for j in range(3) if board_of(message)[i][j])
    result = await click_cell(alice, message, taken)
    assert result.ephemeral
    assert result.response.content == CELL_TAKEN
    assert snapshot(channel.last_message) == before


async def test_every_cell_of_a_finished_board_answers_that_the_game_is_over(world):
    env, channel, alice, carol = world.env, world.channel, world.alice, world.carol
    await alice.slash(channel, "tictactoe")
    await play_out(channel, alice, first_empty)  # the bot wins with cells left empty
    finished = channel.last_message
    before = snapshot(finished)
    assert any(cell is None for row in board_of(finished) for cell in row)
    for cell in ((i, j) for i in range(3) for j in range(3)):
        result = await click_cell(alice if cell[0] != 1 else carol, finished, cell)
        assert result.ephemeral
        assert result.response.content == game_over(env)
    assert snapshot(message_by_id(channel, finished.id)) == before


async def test_a_second_game_in_a_busy_channel_links_to_the_first(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    await alice.slash(channel, "tictactoe")
    board_message = channel.last_message
    result = await bob.slash(channel, "tictactoe")
    assert result.ephemeral
    assert result.response.content == busy(board_message.jump_url)
    assert channel.last_message.id == board_message.id


async def test_games_in_different_channels_are_independent(world):
    guild, channel, alice, bob = world.guild, world.channel, world.alice, world.bob
    other = guild.create_text_channel("other")
    await alice.slash(channel, "tictactoe")
    result = await bob.slash(other, "tictactoe", play_as="O")
    assert not result.ephemeral
    await click_cell(alice, channel.last_message, (0, 0))
    assert marks_on(other.last_message) == 1
    assert marks_on(channel.last_message) == 2


# ------------------------------------------------------------------ resigning


async def test_resign_asks_privately_first_and_changes_nothing(world):
    channel, alice, carol = world.channel, world.alice, world.carol
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    board_message = channel.last_message
    before = snapshot(board_message)
    asked = await click_control(alice, board_message, "Resign")
    assert asked.followups[0].ephemeral
    assert asked.followups[0].content == RESIGN_QUESTION
    question = asked.followups[0].message
    assert [(b["label"], b["style"]) for b in buttons(question)] == [
        ("Yes, resign", discord.ButtonStyle.danger.value),
        ("Cancel", discord.ButtonStyle.secondary.value),
    ]
    assert snapshot(message_by_id(channel, board_message.id)) == before
    # Only alice sees the question: it is not in what the others see of the channel.
    assert question.id in [m.id for m in channel.history(viewer=alice)]
    assert question.id not in [m.id for m in channel.history(viewer=carol)]
    with pytest.raises(SetupError):
        await click_label(carol, question, "Yes, resign")
    assert snapshot(message_by_id(channel, board_message.id)) == before


async def test_cancel_on_the_resign_question_keeps_the_game_going(world):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    board_message = channel.last_message
    asked = await click_control(alice, board_message, "Resign")
    before = snapshot(message_by_id(channel, board_message.id))
    cancelled = await click_label(alice, asked.followups[0].message, "Cancel")
    # The private question becomes the answer, without buttons; the board is untouched.
    assert cancelled.response.id == asked.followups[0].id
    assert cancelled.response.ephemeral
    assert cancelled.response.content == "You did not resign: the game goes on."
    assert cancelled.response.components == []
    assert snapshot(message_by_id(channel, board_message.id)) == before
    # The game goes on: the next move is played on the same board.
    await click_cell(alice, message_by_id(channel, board_message.id), (2, 2))
    assert board_of(message_by_id(channel, board_message.id))[2][2] == ttt.X
    assert channel.last_message.id == board_message.id


async def test_confirmed_resign_ends_the_game_and_frees_the_channel(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    board_message = channel.last_message
    asked = await click_control(alice, board_message, "Resign")
    confirmed = await click_label(alice, asked.followups[0].message, "Yes, resign")
    # The private question becomes the answer, with a link to the board and no button.
    assert confirmed.response.id == asked.followups[0].id
    assert confirmed.response.ephemeral
    assert confirmed.response.content == (
        f"You resigned. [See the board]({board_message.jump_url})"
    )
    assert confirmed.response.components == []
    message = message_by_id(channel, board_message.id)
    assert status(message) == (
        f"{last_move('O', (1, 1))}\n🏳️ {alice.mention} resigned: **{bot_mention(env)} wins.**"
    )
    assert board_of(message)[0][0] == ttt.X  # the board stays as it was
    assert green_cells(message) == set()
    assert accent(message) == GREEN
    assert control_labels(message) == ["Rematch", "Review"]
    assert all_cells_enabled(message)
    again = await alice.slash(channel, "tictactoe")
    assert not again.ephemeral


async def test_a_resign_question_goes_stale_once_the_board_moves_on(world):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    asked = await click_control(alice, channel.last_message, "Resign")
    await click_cell(alice, channel.last_message, (0, 0))  # played on instead
    before = snapshot(channel.last_message)
    late = await click_label(alice, asked.followups[0].message, "Yes, resign")
    assert late.ephemeral
    assert late.response.content == STALE
    assert snapshot(channel.last_message) == before
    assert control_labels(channel.last_message) == ["Hint", "Resign"]


async def test_a_second_resign_question_closes_when_the_first_is_confirmed(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    board_message = channel.last_message
    first = await click_control(alice, board_message, "Resign")
    second = await click_control(alice, board_message, "Resign")
    await click_label(alice, first.followups[0].message, "Yes, resign")
    resigned = snapshot(message_by_id(channel, board_message.id))
    assert f"{alice.mention} resigned: **{bot_mention(env)} wins.**" in resigned[0]
    # The other question loses its buttons: the game is over.
    question_id = second.followups[0].message.id
    (question,) = [m for m in channel.history(viewer=alice) if m.id == question_id]
    assert question.content.startswith("This game is over.")
    assert not buttons(question)
    assert snapshot(message_by_id(channel, board_message.id)) == resigned


# ------------------------------------------------------------------ hint and review


async def test_hint_is_a_private_answer_for_the_player_only(world):
    env, channel, alice, carol = world.env, world.channel, world.alice, world.carol
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    before = snapshot(channel.last_message)
    hint = await click_control(alice, channel.last_message, "Hint")
    assert hint.ephemeral
    assert hint.response.content
    assert hint.response.content != APOLOGY
    assert hint.response.id not in [m.id for m in channel.history(viewer=carol)]
    stranger = await click_control(carol, channel.last_message, "Hint")
    assert stranger.ephemeral
    assert stranger.response.content == not_player(alice.mention, bot_mention(env), env)
    assert snapshot(channel.last_message) == before


async def test_review_of_a_finished_game_is_for_its_players_only(world):
    env, channel, alice, carol = world.env, world.channel, world.alice, world.carol
    await alice.slash(channel, "tictactoe")
    await play_out(channel, alice, first_empty)
    finished = channel.last_message
    before = snapshot(finished)
    review = await click_control(alice, finished, "Review")
    assert review.ephemeral
    assert review.response.content
    assert review.response.content != APOLOGY
    stranger = await click_control(carol, finished, "Review")
    assert stranger.ephemeral
    assert stranger.response.content == not_player_after(alice.mention, bot_mention(env), env)
    assert snapshot(channel.last_message) == before


async def test_review_is_only_offered_once_a_game_is_over(world):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    labels = [control_labels(channel.last_message)]
    while not is_over(channel.last_message):
        await click_cell(alice, channel.last_message, first_empty(board_of(channel.last_message)))
        labels.append(control_labels(channel.last_message))
    assert labels[:-1] == [["Hint", "Resign"]] * (len(labels) - 1)
    assert labels[-1] == ["Rematch", "Review"]


# ------------------------------------------------------------------ rematch


async def test_rematch_retires_the_old_board_and_swaps_marks(world):
    env, channel, alice, carol = world.env, world.channel, world.alice, world.carol
    await alice.slash(channel, "tictactoe", difficulty="hard")
    await resign(alice, channel.last_message)
    finished = channel.last_message
    finished_status = status(finished)
    stranger = await click_control(carol, finished, "Rematch")
    assert stranger.ephemeral
    assert stranger.response.content == not_player_after(alice.mention, bot_mention(env), env)

    result = await click_control(alice, finished, "Rematch")
    assert not result.ephemeral
    assert result.response.id == finished.id  # the old board is edited ...
    (followup,) = result.followups  # ... and the new one posted below it
    rematch = channel.last_message
    assert rematch.id == followup.id != finished.id
    assert heading(rematch) == (
        f"## Tic-Tac-Toe\n🟥 **X** {bot_mention(env)} · Difficulty: Hard\n🟦 **O** {alice.mention}"
    )
    assert status(rematch).endswith(turn_line(alice, "O", env))
    assert marks_on(rematch) == 1
    assert accent(rematch) == BLURPLE

    retired = message_by_id(channel, finished.id)
    assert status(retired) == f"{finished_status}\n🔁 A rematch started below."
    assert control_labels(retired) == ["Review"]
    assert accent(retired) == GREEN
    with pytest.raises(SetupError):  # no second rematch: the button is gone
        await alice.click(retired, custom_id=buttons(finished)[9]["custom_id"])
    review = await click_control(alice, retired, "Review")
    assert review.ephemeral
    assert review.response.content != APOLOGY


async def test_a_rematch_while_another_game_is_on_links_to_it(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    await alice.slash(channel, "tictactoe")
    await resign(alice, channel.last_message)
    finished = channel.last_message
    before = snapshot(finished)
    await bob.slash(channel, "tictactoe")
    current = channel.last_message
    result = await click_control(alice, finished, "Rematch")
    assert result.ephemeral
    assert result.response.content == busy(current.jump_url)
    assert snapshot(message_by_id(channel, finished.id)) == before
    assert channel.last_message.id == current.id


# ------------------------------------------------------------------ time


async def test_the_board_shows_when_time_runs_out(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    started = deadline(env)
    assert f"<t:{started}:R>" in status(channel.last_message)
    await env.advance_time(100)
    await click_cell(alice, channel.last_message, (0, 0))
    assert f"<t:{started + 100}:R>" in status(channel.last_message)
    assert f"<t:{started}:R>" not in status(channel.last_message)


async def test_idle_game_expires_and_frees_the_channel(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await click_cell(alice, channel.last_message, (0, 0))
    await env.advance_time(GAME_TIMEOUT - 1)
    assert not is_over(channel.last_message)
    await env.advance_time(1)
    message = channel.last_message
    assert status(message) == (
        f"{last_move('O', (1, 1))}\n⏱️ {alice.mention} ran out of time: **{bot_mention(env)} wins.**"
    )
    assert accent(message) == GREEN
    assert all_cells_enabled(message)
    assert control_labels(message) == ["Rematch", "Review"]
    late = await click_cell(alice, message, (2, 2))
    assert late.ephemeral
    assert late.response.content == game_over(env)
    again = await alice.slash(channel, "tictactoe")
    assert not again.ephemeral


async def test_each_move_restarts_the_idle_timer(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await env.advance_time(GAME_TIMEOUT - 10)
    await click_cell(alice, channel.last_message, (0, 0))
    await env.advance_time(GAME_TIMEOUT - 10)
    assert not is_over(channel.last_message)
    result = await click_cell(
        alice, channel.last_message, first_empty(board_of(channel.last_message))
    )
    assert not result.ephemeral
    await env.advance_time(GAME_TIMEOUT)
    assert "ran out of time" in status(channel.last_message)


# ------------------------------------------------------------------ failures


async def test_a_failed_edit_is_apologised_for_and_the_game_is_intact(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    before = snapshot(channel.last_message)
    env.inject_error("POST", "/interactions/*/callback", times=1)
    result = await click_cell(alice, channel.last_message, (0, 0))
    assert result.ephemeral
    assert result.response.content == APOLOGY
    assert snapshot(channel.last_message) == before
    retry = await click_cell(alice, channel.last_message, (0, 0))
    assert not retry.ephemeral
    assert board_of(channel.last_message)[0][0] == ttt.X


async def test_a_failed_new_game_is_apologised_for_and_the_channel_stays_free(world):
    env, channel, alice = world.env, world.channel, world.alice
    env.inject_error("POST", "/interactions/*/callback", times=1)
    result = await alice.slash(channel, "tictactoe")
    assert result.ephemeral
    assert result.response.content == APOLOGY
    assert channel.last_message is None
    with pytest.raises(ExceptionGroup) as raised:  # the command's failure, logged
        env.raise_errors()
    assert "injected by test" in str(raised.value.exceptions[0])
    again = await alice.slash(channel, "tictactoe")
    assert not again.ephemeral
    # Read afresh: for mypy, channel.last_message would still be the None asserted above.
    assert board_of(world.channel.last_message) == ttt.initial_state()
