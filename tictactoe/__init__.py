"""Tic-tac-toe with perfect play, keeping CS50 AI's API.

import tictactoe as ttt
board = ttt.initial_state()
board = ttt.result(board, ttt.minimax(board))
"""

from .rules import (
    EMPTY,
    LINES,
    Action,
    Board,
    O,
    X,
    actions,
    initial_state,
    player,
    result,
    terminal,
    utility,
    validate_action,
    validate_board,
    winner,
    winning_line,
    winning_lines,
)
from .solver import (
    DIFFICULTIES,
    EASY,
    HARD,
    IMPOSSIBLE,
    MEDIUM,
    MoveAnalysis,
    analyse,
    best_actions,
    choose_move,
    game_value,
    minimax,
)

__all__ = [
    "DIFFICULTIES",
    "EASY",
    "EMPTY",
    "HARD",
    "IMPOSSIBLE",
    "LINES",
    "MEDIUM",
    "Action",
    "Board",
    "MoveAnalysis",
    "O",
    "X",
    "actions",
    "analyse",
    "best_actions",
    "choose_move",
    "game_value",
    "initial_state",
    "minimax",
    "player",
    "result",
    "terminal",
    "utility",
    "validate_action",
    "validate_board",
    "winner",
    "winning_line",
    "winning_lines",
]
