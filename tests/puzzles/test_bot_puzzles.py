"""/puzzle through SimCord, as a player sees it: solving, failing, the day's puzzle, the rating,
a restart in the middle of a puzzle, and the messages within Discord's limits."""

from __future__ import annotations

import pytest
from bot_helpers import (
    board_of,
    buttons,
    click_cell,
    click_label,
    control_labels,
    make_bot,
    post_forged,
    text,
)

import tictactoe as ttt
from tests.support.puzzles import (
    RATING,
    empty_cells,
    rating_change,
    right_move,
    shown_attempt,
    solve,
    wrong_move,
)
from tictactoe import puzzles

pytestmark = pytest.mark.usefixtures("discord_rules")


async def test_a_puzzle_is_private_and_states_the_task(world):
    shown = await world.alice.slash(world.channel, "puzzle")
    assert shown.ephemeral
    message = shown.response.message
    words = text(message)
    assert "## 🧩 Tic-Tac-Toe puzzle" in words
    attempt = shown_attempt(message)
    mark = attempt.puzzle.player
    assert f"You play **{mark}**." in words
    assert f"🎯 **{mark}** to move:" in words
    assert board_of(message) == [list(row) for row in attempt.board]
    assert control_labels(message) == []  # no button but the cells while it is played


async def test_solving_a_puzzle_raises_the_rating_and_offers_the_next(world):
    shown = await world.alice.slash(world.channel, "puzzle")
    message = await solve(world.alice, shown)
    words = text(message)
    assert "**Solved!**" in words
    before, after, change = rating_change(message)
    assert before == 1500
    assert after > before
    assert change == after - before
    # The next puzzle replaces this one, picked near the new rating.
    await click_label(world.alice, message, "Next puzzle")
    following = shown.response.message
    assert "Solved" not in text(following)
    assert puzzles.Status.PLAYING is shown_attempt(following).status
    picked = shown_attempt(following).puzzle
    nearest = sorted(puzzles.puzzles(), key=lambda one: abs(one.rating - after))
    assert picked in nearest[: puzzles.PICK_POOL]


async def test_a_wrong_move_ends_the_attempt_and_names_the_right_moves(world):
    shown = await world.alice.slash(world.channel, "puzzle")
    message = shown.response.message
    correct = sorted(ttt.best_actions(board_of(message)))
    mistake = wrong_move(message)
    await click_cell(world.alice, message, mistake)
    failed = shown.response.message
    words = text(failed)
    assert "❌ **Wrong:**" in words
    assert "\n💡 " in words
    assert "hint for" not in words
    assert ("The right move was" if len(correct) == 1 else "The right moves were") in words
    before, after, _ = rating_change(failed)
    assert after < before == 1500
    assert board_of(failed)[mistake[0]][mistake[1]] == shown_attempt(message).puzzle.player
    assert control_labels(failed) == ["Next puzzle"]
    # The finished board's cells only say that it is over.
    late = await click_cell(world.alice, failed, empty_cells(failed)[0])
    assert late.ephemeral
    assert late.response.content == "This puzzle is over. Press **Next puzzle** for another one."


async def test_the_daily_puzzle_is_the_same_for_everyone_and_rated_once(world):
    alice_sees = await world.alice.slash(world.channel, "puzzle", daily=True)
    bob_sees = await world.bob.slash(world.channel, "puzzle", daily=True)
    alice_board, bob_board = alice_sees.response.message, bob_sees.response.message
    assert "## 🧩 Daily puzzle" in text(alice_board)
    assert board_of(alice_board) == board_of(bob_board)
    day = world.env.now().date()
    assert shown_attempt(alice_board).puzzle == puzzles.daily(day).puzzle
    first = await solve(world.alice, alice_sees)
    _, after, _ = rating_change(first)
    again = await world.alice.slash(world.channel, "puzzle", daily=True)
    second = await solve(world.alice, again)
    assert "Not rated: you already tried today's puzzle." in text(second)
    assert RATING.search(text(second)) is None
    # A picked puzzle afterwards starts from the rating the daily one gave.
    await click_label(world.alice, second, "Next puzzle")
    following = await solve(world.alice, again)
    assert rating_change(following)[0] == after


async def test_a_taken_cell_is_refused_privately(world):
    shown = await world.alice.slash(world.channel, "puzzle", daily=True)
    message = shown.response.message
    taken = next(
        (i, j) for i, row in enumerate(board_of(message)) for j, mark in enumerate(row) if mark
    )
    refused = await click_cell(world.alice, message, taken)
    assert refused.ephemeral
    assert refused.response.content == "That cell is taken. Pick an empty one."
    assert board_of(shown.response.message) == board_of(message)


async def test_a_puzzle_goes_on_after_a_restart(world):
    shown = await world.alice.slash(world.channel, "puzzle", daily=True)
    message = shown.response.message
    assert shown_attempt(message).puzzle.length >= 2  # the day's puzzle in SimCord's January
    await click_cell(world.alice, message, right_move(message))
    middle = shown.response.message
    assert "✅ Correct." in text(middle)
    assert shown_attempt(middle).status is puzzles.Status.PLAYING

    await world.env.restart_bot(make_bot(seed=1))

    finished = await solve(world.alice, shown)
    assert "🏆 **Solved!** Three in a row." in text(finished)
    # Rated from the rating the buttons carried (a new player's), memory being empty.
    assert rating_change(finished)[0] == 1500


async def test_a_forged_puzzle_button_is_refused(world):
    shown = await world.alice.slash(world.channel, "puzzle")
    message = shown.response.message
    parts = str(buttons(message)[0]["custom_id"]).split(":")
    parts[2] = parts[2][:4] + "8888"  # moves nobody could have played
    forged = await post_forged(world.env, world.channel, ":".join(parts))
    result = await world.alice.click(forged, custom_id=":".join(parts))
    assert result.ephemeral
    assert result.response.content == "This puzzle button is not valid. Start one with /puzzle."


async def test_puzzles_work_in_a_dm_with_the_bot(world):
    dana = world.env.create_user("dana")
    world.guild.add_member(dana)
    shown = await dana.slash("puzzle")
    assert shown.ephemeral
    solved = await solve(dana, shown)
    assert "**Solved!**" in text(solved)
