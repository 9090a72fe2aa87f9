"""Playing a puzzle as a player would, and reading what its message says."""

from __future__ import annotations

import re
from typing import Any

import discord
from bot_helpers import board_of, buttons, click_cell, control_labels, text

import tictactoe as ttt
from tictactoe import puzzles

RATING = re.compile(r"📈 Puzzle rating: (\d[\d,]*) → \*\*(\d[\d,]*)\*\* \(([+-]\d+)\)")


def empty_cells(message: discord.Message) -> list[tuple[int, int]]:
    return sorted(ttt.actions(board_of(message)))


def right_move(message: discord.Message) -> tuple[int, int]:
    return min(ttt.best_actions(board_of(message)))


def wrong_move(message: discord.Message) -> tuple[int, int]:
    best = set(ttt.best_actions(board_of(message)))
    return next(cell for cell in empty_cells(message) if cell not in best)


def shown_attempt(message: discord.Message) -> puzzles.Attempt:
    """The attempt a board's buttons carry (the custom_id is the bot's own format)."""
    state = str(buttons(message)[0]["custom_id"]).split(":")[2]
    return puzzles.decode(state)


async def solve(player: Any, shown: Any) -> discord.Message:
    """Play the perfect moves until the puzzle is over; the message as it ends."""
    for _ in range(5):
        message = shown.response.message
        if "Next puzzle" in control_labels(message):
            return message
        await click_cell(player, message, right_move(message))
    raise AssertionError("the puzzle did not end")


def rating_change(message: discord.Message) -> tuple[int, int, int]:
    match = RATING.search(text(message))
    assert match is not None, text(message)
    before, after, change = (int(group.replace(",", "")) for group in match.groups())
    return before, after, change
