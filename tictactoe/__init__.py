"""Tic-tac-toe with perfect play, keeping CS50 AI's API.

import tictactoe as ttt
board = ttt.initial_state()
board = ttt.result(board, ttt.minimax(board))
ttt.hint(board)                        # every free cell's outcome, the best moves and why
ttt.review([(1, 1), (0, 0), (0, 1)])   # each move judged: best, inaccurate or mistake
"""

from __future__ import annotations

import sys

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
    move_chances,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from .review import (
        CellOutcome,
        GameResult,
        Hint,
        LineShape,
        MoveReview,
        Outcome,
        Reason,
        ReasonKind,
        Review,
        Value,
        Verdict,
        cell_action,
        cell_number,
        hint,
        line_shape,
        review,
    )
else:
    ModuleType = type(sys)

# Loaded on first use: the review module needs dataclasses and enum, whose imports would add
# about 20 ms to the engine's cold start (the README's benchmark aims at 25 ms in all).
_REVIEW_NAMES = (
    "CellOutcome",
    "GameResult",
    "Hint",
    "LineShape",
    "MoveReview",
    "Outcome",
    "Reason",
    "ReasonKind",
    "Review",
    "Value",
    "Verdict",
    "cell_action",
    "cell_number",
    "hint",
    "line_shape",
    "review",
)


class _Package(ModuleType):
    """This package, loading the review API when one of its names is first asked for.

    The function `review` shares its name with the module `tictactoe.review`, and the import
    system binds a freshly loaded submodule to its name on the package; refusing that binding
    keeps `tictactoe.review` the function however the submodule was first imported (the
    documented way to customise a module's attributes is to give it a ModuleType subclass).
    """

    def __getattr__(self, name: str) -> Any:
        if name not in _REVIEW_NAMES:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        __import__(f"{self.__name__}.review")
        module = sys.modules[f"{self.__name__}.review"]
        for exported in _REVIEW_NAMES:
            self.__dict__[exported] = getattr(module, exported)
        return self.__dict__[name]

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "review" and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *_REVIEW_NAMES})


sys.modules[__name__].__class__ = _Package

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
    "CellOutcome",
    "GameResult",
    "Hint",
    "LineShape",
    "MoveAnalysis",
    "MoveReview",
    "O",
    "Outcome",
    "Reason",
    "ReasonKind",
    "Review",
    "Value",
    "Verdict",
    "X",
    "actions",
    "analyse",
    "best_actions",
    "cell_action",
    "cell_number",
    "choose_move",
    "game_value",
    "hint",
    "initial_state",
    "line_shape",
    "minimax",
    "move_chances",
    "player",
    "result",
    "review",
    "terminal",
    "utility",
    "validate_action",
    "validate_board",
    "winner",
    "winning_line",
    "winning_lines",
]
