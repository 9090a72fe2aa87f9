"""The rules of tic-tac-toe as pure functions over CS50's board: 3 lists of 3 cells."""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

X = "X"
O = "O"  # noqa: E741 - CS50's name for the second player
EMPTY = None

Cell = str | None
Board = list[list[Cell]]
Action = tuple[int, int]

SIZE = 3

# Every three-in-a-row, as (row, column) cells.
LINES: tuple[tuple[Action, Action, Action], ...] = (
    *(((i, 0), (i, 1), (i, 2)) for i in range(SIZE)),
    *(((0, j), (1, j), (2, j)) for j in range(SIZE)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 2), (1, 1), (2, 0)),
)


def initial_state() -> Board:
    """Return the empty starting board."""
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board: Board) -> str:
    """Return whose turn it is: X moves first, then the players alternate."""
    marks = [cell for row in board for cell in row]
    return X if marks.count(X) <= marks.count(O) else O


def actions(board: Board) -> set[Action]:
    """Return every empty cell as an (i, j) action."""
    return {(i, j) for i in range(SIZE) for j in range(SIZE) if board[i][j] is EMPTY}


def validate_action(board: Board, action: Any) -> Action:
    """Return `action` as an (i, j) pair of ints, or raise ValueError saying what is wrong."""
    if (
        not isinstance(action, tuple | list)
        or len(action) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in action)
    ):
        raise ValueError(f"an action must be a pair of ints (row, column), not {action!r}")
    i, j = action
    if not (0 <= i < SIZE and 0 <= j < SIZE):
        raise ValueError(f"action {(i, j)} is off the board: row and column must be 0, 1 or 2")
    if board[i][j] is not EMPTY:
        raise ValueError(f"cell {(i, j)} is already taken by {board[i][j]}")
    return i, j


def result(board: Board, action: Action) -> Board:
    """Return the board after the player to move plays `action`; `board` is left unchanged."""
    i, j = validate_action(board, action)
    new_board = [list(row) for row in board]
    new_board[i][j] = player(board)
    return new_board


def winning_lines(board: Board) -> list[tuple[Action, Action, Action]]:
    """Return every completed line (a last move can complete two)."""
    return [line for line in LINES if _is_complete(board, line)]


def winning_line(board: Board) -> tuple[Action, Action, Action] | None:
    """Return the three cells of a completed line, or None."""
    return next((line for line in LINES if _is_complete(board, line)), None)


def winner(board: Board) -> str | None:
    """Return X or O if that player has three in a row, else None."""
    line = winning_line(board)
    if line is None:
        return None
    i, j = line[0]
    return board[i][j]


def terminal(board: Board) -> bool:
    """Return True when someone has won or no cell is left."""
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board: Board) -> int:
    """Return 1 if X has won, -1 if O has won, 0 otherwise."""
    won = winner(board)
    return 1 if won == X else -1 if won == O else 0


def validate_board(board: Any) -> Board:
    """Check a board that comes from outside (a terminal, a restored game) and return a copy.

    Raises ValueError naming the problem: wrong shape, a foreign value, impossible mark counts,
    two winners, or a move played after the game was already won.
    """
    if not isinstance(board, Sequence) or isinstance(board, str) or len(board) != SIZE:
        raise ValueError("a board must be a list of 3 rows")
    for row in board:
        if not isinstance(row, Sequence) or isinstance(row, str) or len(row) != SIZE:
            raise ValueError("each row of a board must be a list of 3 cells")
        for cell in row:
            if cell not in (X, O, EMPTY):
                raise ValueError(f"a cell must be X, O or EMPTY (None), not {cell!r}")
    copy = [list(row) for row in board]
    marks = [cell for row in copy for cell in row]
    x_count, o_count = marks.count(X), marks.count(O)
    if x_count - o_count not in (0, 1):
        raise ValueError(
            f"impossible mark counts: {x_count} X and {o_count} O "
            "(X moves first, so X has as many marks as O or one more)"
        )
    winners = {copy[i][j] for (i, j), *_ in winning_lines(copy)}
    if len(winners) > 1:
        raise ValueError("both X and O have three in a row")
    if winners == {X} and x_count != o_count + 1:
        raise ValueError("O moved after X had already won")
    if winners == {O} and x_count != o_count:
        raise ValueError("X moved after O had already won")
    return copy


def _is_complete(board: Board, line: tuple[Action, Action, Action]) -> bool:
    (a, b), (c, d), (e, f) = line
    return board[a][b] is not EMPTY and board[a][b] == board[c][d] == board[e][f]
