"""Hint and Review as a player reads them, checked against the independent brute force.

Games are played through SimCord; each Hint's cell lines ("**centre**: win in 2 moves") are
parsed back and compared, cell by cell, with what tests/brute_force.py says of that move.
"""

import re

import pytest
from bot_helpers import board_of, click_cell, click_control, control_labels
from brute_force import best_moves, move_outcome, to_cells, verdict_of

import tictactoe as ttt
from tests.support.words import CELL_NAMES

HINT_LINE = re.compile(r"^(⭐ )?\*\*(?P<cell>[a-z ]+)\*\*: (?P<outcome>.+)$")
REVIEW_LINE = re.compile(
    r"^(?P<ply>\d)\. \*\*(?P<mark>[XO])\*\* (?P<cell>[a-z ]+): (?P<verdict>.+)$"
)
VERDICTS = {"✅ best": "best", "⚠️ inaccurate (slower)": "inaccurate", "❌ mistake": "mistake"}


def expected_outcome(cells, index) -> str:
    """The brute force's outcome of a move, counted in the winner's moves."""
    score, plies = move_outcome(cells, index)
    if score == 0:
        return "draw"
    moves = (plies + 1) // 2 if score > 0 else plies // 2
    word = "win" if score > 0 else "loss"
    return f"{word} in {moves} move" + ("" if moves == 1 else "s")


def read_hint(content: str) -> tuple[dict[int, str], set[int]]:
    outcomes, starred = {}, set()
    for line in content.splitlines():
        if match := HINT_LINE.match(line):
            index = CELL_NAMES.index(match["cell"])
            outcomes[index] = match["outcome"]
            if match.group(1):
                starred.add(index)
    return outcomes, starred


# Openings that reach different kinds of position: quiet, a threat to block, a fork to make.
@pytest.mark.parametrize(
    ("play_as", "difficulty", "moves"),
    [
        ("X", "impossible", []),
        ("X", "impossible", [(0, 0)]),
        ("X", "impossible", [(0, 0), (2, 2)]),
        ("O", "impossible", []),
        ("O", "easy", [(1, 1)]),
        ("X", "easy", [(1, 1), (0, 0)]),
    ],
)
async def test_every_cell_of_a_hint_matches_the_brute_force(world, play_as, difficulty, moves):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe", play_as=play_as, difficulty=difficulty)
    for cell in moves:
        if not ttt.terminal(board_of(channel.last_message)) and cell in ttt.actions(
            board_of(channel.last_message)
        ):
            await click_cell(alice, channel.last_message, cell)
    board = board_of(channel.last_message)
    if ttt.terminal(board):
        pytest.skip("the bot ended this game first")
    hint = await click_control(alice, channel.last_message, "Hint")
    assert hint.ephemeral
    outcomes, starred = read_hint(hint.response.content)
    cells = to_cells(board)
    empty = {index for index, cell in enumerate(cells) if cell is None}
    assert set(outcomes) == empty
    for index in empty:
        assert outcomes[index] == expected_outcome(cells, index), CELL_NAMES[index]
    assert starred == best_moves(cells)
    # Moves are counted only where some cell wins or loses: a hint of draws says nothing of them.
    header = hint.response.content.splitlines()[0]
    mark = "X" if cells.count(None) % 2 else "O"
    if set(outcomes.values()) == {"draw"}:
        assert header == f"💡 **Hint for {mark}**, by perfect play:"
    else:
        assert header == (
            f"💡 **Hint for {mark}**, by perfect play (counted in the winner's moves):"
        )


async def test_a_review_marks_every_move_as_the_brute_force_does(world):
    channel, alice = world.channel, world.alice
    await alice.slash(channel, "tictactoe", difficulty="impossible")
    while "Resign" in control_labels(channel.last_message):
        board = board_of(channel.last_message)
        await click_cell(alice, channel.last_message, min(ttt.actions(board)))
    review = await click_control(alice, channel.last_message, "Review")
    assert review.ephemeral
    lines = [m for line in review.response.content.splitlines() if (m := REVIEW_LINE.match(line))]
    assert lines, review.response.content
    cells = to_cells(ttt.initial_state())
    for match in lines:
        index = CELL_NAMES.index(match["cell"])
        assert VERDICTS[match["verdict"]] == verdict_of(cells, index), match.group(0)
        cells = (*cells[:index], match["mark"], *cells[index + 1 :])
    assert ttt.terminal([list(cells[0:3]), list(cells[3:6]), list(cells[6:9])])
