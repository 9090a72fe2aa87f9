"""Ways to pick a move on a board, for tests, tools (tools/screenshots.py) and benchmarks alike:
the engine's boards (rows of "X", "O" or None), as read off a message."""

from __future__ import annotations

import tictactoe as ttt


def first_empty(board: ttt.Board) -> ttt.Action:
    """The first free cell in reading order, row by row: a strategy that loses to the bot on
    impossible. ValueError on a full board."""
    return min(ttt.actions(board))
