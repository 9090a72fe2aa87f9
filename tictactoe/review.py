"""Hints and move-by-move reviews under perfect play, as data for any renderer; and, against a
level that can go wrong, each safe move's exact chance to win (`winning_chances`).

Nothing here is prose: the Discord bot words these results in many languages and the terminal
game in English, so every answer is an enum or a small frozen value. Cells are numbered 1-9 row
by row, top-left first, the way people type them; see `cell_number` and `cell_action`.

Outcomes, plies and best moves come from the solved table in `solver`, so a hint, a review and
the AI always agree on what perfect play is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from .rules import (
    EMPTY,
    LINES,
    SIZE,
    Action,
    Board,
    Cell,
    O,
    X,
    initial_state,
    player,
    result,
    terminal,
    validate_action,
    winner,
)
from .solver import analyse, best_actions, move_chances

Line = tuple[int, int, int]
Row = tuple[Cell, Cell, Cell]
Rows = tuple[Row, Row, Row]

CENTRE = 5
CORNERS = frozenset({1, 3, 7, 9})


class Outcome(StrEnum):
    """How the game ends under perfect play, for the player it is said of."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class Verdict(StrEnum):
    """How good one move was, judged against perfect play."""

    BEST = "best"  # one of the moves perfect play would choose
    INACCURATE = "inaccurate"  # same outcome, but a slower win or a quicker loss
    MISTAKE = "mistake"  # a worse outcome: a win or a draw thrown away


class GameResult(StrEnum):
    """Where a reviewed sequence of moves left the game."""

    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"
    UNFINISHED = "unfinished"  # the moves stop before the end, e.g. someone resigned


class LineShape(StrEnum):
    """Which way a line runs, for sentences such as "the diagonal 3-5-7"."""

    ROW = "row"
    COLUMN = "column"
    DIAGONAL = "diagonal"


class ReasonKind(StrEnum):
    """Why the best moves are best, in the terms a person uses; the first that applies wins.

    What `Reason.cells`, `Reason.opponent_cells` and `Reason.line` hold for each kind (cells are
    cell numbers, in increasing order; "you" is the player to move):

    - WIN_NOW: you complete a line at once. cells: every such cell (exactly the best moves);
      line: the line the first of them completes.
    - BLOCK: the opponent would complete a line next move and one cell stops it. cells and
      opponent_cells: that cell (the only best move); line: the opponent's line.
    - LOST_FORK: the opponent already threatens two cells and you can block only one. cells: ();
      opponent_cells: the cells where the opponent completes a line; every move loses.
    - FORK: a move creates two threats at once, so the opponent can block only one. cells: every
      such cell (exactly the best moves).
    - FORCE_WIN: no fork yet, but a threat that the opponent must answer leads to a win. cells:
      the best moves, each of which makes a threat.
    - BLOCK_FORK: the opponent could create two threats at once next move. cells: the moves that
      stop it (exactly the best moves, which keep the draw); opponent_cells: where the opponent
      would fork.
    - UNSTOPPABLE_FORK: as BLOCK_FORK, but no move stops it: every move loses. cells: ();
      opponent_cells: where the opponent would fork.
    - CENTRE: only the centre keeps the draw. cells: (5,).
    - CORNER: only corners keep the draw. cells: those corners.
    - KEEP_DRAW: some moves lose and these keep the draw. cells: the best moves.
    - ANY_DRAWS: every move keeps the draw. cells: ().
    """

    WIN_NOW = "win_now"
    BLOCK = "block"
    LOST_FORK = "lost_fork"
    FORK = "fork"
    FORCE_WIN = "force_win"
    BLOCK_FORK = "block_fork"
    UNSTOPPABLE_FORK = "unstoppable_fork"
    CENTRE = "centre"
    CORNER = "corner"
    KEEP_DRAW = "keep_draw"
    ANY_DRAWS = "any_draws"


@dataclass(frozen=True, slots=True)
class Value:
    """Where the game is heading under perfect play, for one player, counted from their move.

    `plies` counts every move until the game ends, theirs included; `own_moves` counts only the
    player's own (for a win, how many of their moves it takes; for a loss, the opponent needs as
    many to win).
    """

    outcome: Outcome
    plies: int
    own_moves: int


@dataclass(frozen=True, slots=True)
class CellOutcome:
    """One empty cell: what playing it leads to under perfect play, for the player to move."""

    action: Action
    number: int
    outcome: Outcome
    plies: int
    own_moves: int

    @property
    def value(self) -> Value:
        return Value(self.outcome, self.plies, self.own_moves)


@dataclass(frozen=True, slots=True)
class Reason:
    """One tag explaining the position, with the cells and line it concerns (see ReasonKind)."""

    kind: ReasonKind
    opponent: str  # the opponent's mark, X or O
    cells: tuple[int, ...]
    opponent_cells: tuple[int, ...]
    line: Line | None

    @property
    def line_shape(self) -> LineShape | None:
        return None if self.line is None else line_shape(self.line)


@dataclass(frozen=True, slots=True)
class Hint:
    """Advice for the player to move: every empty cell's outcome, the best moves, and why."""

    player: str  # X or O
    cells: tuple[CellOutcome, ...]  # every empty cell, in cell-number order
    best: frozenset[Action]  # the moves minimax would choose
    reason: Reason

    @property
    def value(self) -> Value:
        """The position's value for the player to move: that of any best move."""
        return next(cell.value for cell in self.cells if cell.action in self.best)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of a game judged against perfect play, from the mover's side."""

    ply: int  # 1 for X's first move
    player: str
    action: Action
    number: int
    verdict: Verdict
    before: Value  # the best the mover could get before this move
    after: Value  # what this move leads to
    best: frozenset[Action]  # the moves minimax would have chosen
    held_by: frozenset[Action]  # the moves that keep `before.outcome`, however slowly


@dataclass(frozen=True, slots=True)
class Review:
    """A whole game, or the start of one, move by move."""

    moves: tuple[MoveReview, ...]
    result: GameResult
    board: Rows  # the final board

    @property
    def first_mistake(self) -> MoveReview | None:
        return next((move for move in self.moves if move.verdict is Verdict.MISTAKE), None)


def cell_number(action: Action) -> int:
    """The 1-9 number of the (i, j) cell, counting row by row from the top left."""
    i, j = action
    if not (0 <= i < SIZE and 0 <= j < SIZE):
        raise ValueError(f"action {action!r} is off the board")
    return i * SIZE + j + 1


def cell_action(number: int) -> Action:
    """The (i, j) action of cell `number` 1-9."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= SIZE**2:
        raise ValueError(f"cells are numbered 1 to 9, not {number!r}")
    i, j = divmod(number - 1, SIZE)
    return i, j


def line_shape(line: Line) -> LineShape:
    """Whether a line of three cell numbers is a row, a column or a diagonal."""
    first, second, _ = line
    step = second - first
    return LineShape.ROW if step == 1 else LineShape.COLUMN if step == SIZE else LineShape.DIAGONAL


def hint(board: Board) -> Hint:
    """Advise the player to move on an unfinished board.

    Raises ValueError on a finished board or one that cannot arise in a game.
    """
    values = _move_values(board)
    if not values:
        raise ValueError("there is no move to hint at: the game is over")
    mover = player(board)
    cells = tuple(
        CellOutcome(action, cell_number(action), value.outcome, value.plies, value.own_moves)
        for action, value in sorted(values.items())
    )
    best = frozenset(best_actions(board))
    return Hint(mover, cells, best, _reason(board, mover, values, best))


def winning_chances(board: Board, difficulty: str) -> dict[Action, Fraction]:
    """Against the AI at `difficulty`, the exact chance that each safe move wins: the moves
    that keep the position's outcome under perfect play, so that none risks a worse result.

    The opponent plays as `choose_move` does at that level (`solver.move_chances`); the player
    goes on the same way, each later move a safe one that wins most often. Against a level that
    can slip, a drawn position can still be won: this says which move gives it the most room to
    go wrong. Empty on a finished board; raises ValueError on a board that cannot arise in a
    game or an unknown difficulty.
    """
    if not _move_values(board):
        move_chances(board, difficulty)  # checks the difficulty
        return {}
    key = _rows(board)
    return {
        action: _chance_after(_rows(result(board, action)), player(board), difficulty)
        for action in _safe_moves(key)
    }


def review(moves: Sequence[Action]) -> Review:
    """Judge every move of a game played from the empty board, X first.

    The moves may stop before the end (a resigned game). Raises ValueError on an illegal move or
    a move after the game has ended, naming the move.
    """
    board = initial_state()
    reviewed = []
    for ply, move in enumerate(moves, start=1):
        if terminal(board):
            raise ValueError(f"move {ply} comes after the end of the game")
        try:
            action = validate_action(board, move)
        except ValueError as error:
            raise ValueError(f"move {ply}: {error}") from None
        reviewed.append(_review_move(board, ply, action))
        board = result(board, action)
    return Review(tuple(reviewed), _game_result(board), _rows(board))


# --- values ------------------------------------------------------------------------------------


def _move_values(board: Board) -> dict[Action, Value]:
    """Every legal move's value for the mover; empty on a finished board."""
    return {move.action: _value(move.outcome, move.plies) for move in analyse(board)}


@cache
def _value(outcome: str, plies: int) -> Value:
    # Shared instances: there are only a few dozen distinct values, and a review builds many.
    return Value(Outcome(outcome), plies, own_moves=(plies + 1) // 2)


def _review_move(board: Board, ply: int, action: Action) -> MoveReview:
    values = _move_values(board)
    best = frozenset(best_actions(board))
    before = values[next(iter(best))]
    after = values[action]
    if action in best:
        verdict = Verdict.BEST
    elif after.outcome is before.outcome:
        verdict = Verdict.INACCURATE
    else:
        verdict = Verdict.MISTAKE
    held_by = frozenset(move for move, value in values.items() if value.outcome is before.outcome)
    return MoveReview(
        ply, player(board), action, cell_number(action), verdict, before, after, best, held_by
    )


def _game_result(board: Board) -> GameResult:
    won = winner(board)
    if won == X:
        return GameResult.X_WON
    if won == O:
        return GameResult.O_WON
    return GameResult.DRAW if terminal(board) else GameResult.UNFINISHED


def _rows(board: Board) -> Rows:
    """An immutable copy of the board, the shape the bot keeps its boards in."""
    (a, b, c), (d, e, f), (g, h, i) = board
    return (a, b, c), (d, e, f), (g, h, i)


# --- chances against a level ------------------------------------------------------------------


@cache
def _safe_moves(board: Rows) -> tuple[Action, ...]:
    """The moves that keep the position's outcome under perfect play, however slowly."""
    values = _move_values([list(row) for row in board])
    if not values:
        return ()
    best = values[best_actions([list(row) for row in board])[0]].outcome
    return tuple(action for action, value in sorted(values.items()) if value.outcome is best)


@cache
def _chance_after(board: Rows, me: str, difficulty: str) -> Fraction:
    """`me`'s chance to win once they have moved to `board`, the level to reply."""
    cells = [list(row) for row in board]
    if terminal(cells):
        return Fraction(1 if winner(cells) == me else 0)
    total = Fraction(0)
    for reply, share in move_chances(cells, difficulty).items():
        after = result(cells, reply)
        if terminal(after):
            continue  # the level won, or drew on the last cell
        rows = _rows(after)
        total += share * max(
            _chance_after(_rows(result(after, move)), me, difficulty) for move in _safe_moves(rows)
        )
    return total


# --- reasons -----------------------------------------------------------------------------------

# The lines as cell numbers, in the order of rules.LINES.
_NUMBERED_LINES: tuple[Line, ...] = tuple(
    (cell_number(a), cell_number(b), cell_number(c)) for a, b, c in LINES
)


def _reason(
    board: Board, mover: str, values: dict[Action, Value], best: frozenset[Action]
) -> Reason:
    """The first tag, in ReasonKind's order, that describes the position."""
    marks = _marks(board)
    opponent = O if mover == X else X

    def tag(
        kind: ReasonKind,
        cells: frozenset[int] = frozenset(),
        opponent_cells: frozenset[int] = frozenset(),
        line: Line | None = None,
    ) -> Reason:
        return Reason(kind, opponent, tuple(sorted(cells)), tuple(sorted(opponent_cells)), line)

    best_numbers = frozenset(cell_number(action) for action in best)
    own_wins = _winning_cells(marks, mover)
    if own_wins:
        line = _line_completed(marks, mover, min(own_wins))
        return tag(ReasonKind.WIN_NOW, own_wins, line=line)
    threats = _winning_cells(marks, opponent)
    if len(threats) == 1:
        (block,) = threats
        return tag(ReasonKind.BLOCK, threats, threats, _line_completed(marks, opponent, block))
    if threats:
        return tag(ReasonKind.LOST_FORK, opponent_cells=threats)
    own_forks = _fork_cells(marks, mover)
    if own_forks:
        return tag(ReasonKind.FORK, own_forks)
    outcome = values[next(iter(best))].outcome
    if outcome is Outcome.WIN:
        return tag(ReasonKind.FORCE_WIN, best_numbers)
    opponent_forks = _fork_cells(marks, opponent)
    if outcome is Outcome.LOSS:
        # With no threat on the board, only a fork can be coming (the tests check every position).
        return tag(ReasonKind.UNSTOPPABLE_FORK, opponent_cells=opponent_forks)
    # From here the best is a draw. A fork only needs stopping if some move lets it through;
    # when every move draws, the position is described by that instead.
    every_move_draws = all(value.outcome is Outcome.DRAW for value in values.values())
    if every_move_draws:
        return tag(ReasonKind.ANY_DRAWS)
    if opponent_forks:
        return tag(ReasonKind.BLOCK_FORK, best_numbers, opponent_forks)
    if best_numbers == {CENTRE}:
        return tag(ReasonKind.CENTRE, best_numbers)
    if best_numbers <= CORNERS:
        return tag(ReasonKind.CORNER, best_numbers)
    return tag(ReasonKind.KEEP_DRAW, best_numbers)


def _marks(board: Board) -> dict[int, Cell]:
    """The board by cell number."""
    return {cell_number((i, j)): board[i][j] for i in range(SIZE) for j in range(SIZE)}


def _winning_cells(marks: dict[int, Cell], mark: str) -> frozenset[int]:
    """The empty cells where `mark` would complete a line at once."""
    return frozenset(
        cell
        for line in _NUMBERED_LINES
        for cell in line
        if marks[cell] is EMPTY and sum(marks[other] == mark for other in line) == 2
    )


def _fork_cells(marks: dict[int, Cell], mark: str) -> frozenset[int]:
    """The empty cells where `mark` would then threaten to complete two different cells."""
    return frozenset(
        cell
        for cell, current in marks.items()
        if current is EMPTY and len(_winning_cells({**marks, cell: mark}, mark)) >= 2
    )


def _line_completed(marks: dict[int, Cell], mark: str, cell: int) -> Line:
    """The first line that `mark` completes by playing `cell`."""
    return next(
        line
        for line in _NUMBERED_LINES
        if cell in line and sum(marks[other] == mark for other in line) == 2
    )
