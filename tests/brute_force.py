"""An independent brute-force model of tic-tac-toe, used as the reference in the engine tests.

Nothing here comes from `tictactoe`: positions are flat 9-tuples read row by row (index
3 * i + j is cell (i, j)) holding "X", "O" or None, with their own lines, win check and a plain
memoized negamax. Scores are from the point of view of the player to move: 1 win, 0 draw,
-1 loss; plies count the moves left until the game ends under perfect play, where the mover
prefers a quicker win and a slower loss.
"""

from fractions import Fraction
from functools import cache

X_MARK, O_MARK = "X", "O"
# A position: 9 cells, each "X", "O" or None.
Cells = tuple[str | None, ...]
EMPTY_POSITION: Cells = (None,) * 9

WIN_LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


def line_winners(cells):
    """The set of marks that own a complete line (two on impossible boards)."""
    return {
        cells[a]
        for a, b, c in WIN_LINES
        if cells[a] is not None and cells[a] == cells[b] == cells[c]
    }


def winner_of(cells):
    marks = line_winners(cells)
    assert len(marks) <= 1
    return next(iter(marks), None)


def mover(cells):
    return X_MARK if cells.count(X_MARK) == cells.count(O_MARK) else O_MARK


def other(mark):
    return O_MARK if mark == X_MARK else X_MARK


def is_over(cells):
    return winner_of(cells) is not None or None not in cells


def empties(cells):
    return [index for index, cell in enumerate(cells) if cell is None]


def play(cells, index):
    assert cells[index] is None
    return (*cells[:index], mover(cells), *cells[index + 1 :])


def to_board(cells):
    """The CS50 board (3 lists of 3) for a flat position."""
    return [list(cells[0:3]), list(cells[3:6]), list(cells[6:9])]


def to_cells(board):
    return tuple(cell for row in board for cell in row)


def to_action(index):
    return (index // 3, index % 3)


def to_index(action):
    i, j = action
    return 3 * i + j


@cache
def solve(cells):
    """(score for the mover, plies to the end) under perfect play."""
    if is_over(cells):
        # On a won board the winner is the player who just moved, never the mover.
        return (0 if winner_of(cells) is None else -1), 0
    return max((move_outcome(cells, index) for index in empties(cells)), key=preference)


def move_outcome(cells, index):
    """(score for the mover, plies to the end, this move included) of playing `index`."""
    score, plies = solve(play(cells, index))
    return -score, plies + 1


def preference(outcome):
    """Sort key for the mover: a win beats a draw beats a loss, sooner wins, later losses."""
    score, plies = outcome
    if score > 0:
        return (1, -plies)
    if score < 0:
        return (-1, plies)
    return (0, 0)


def best_moves(cells):
    """Every optimal move (cell index); empty on a finished board."""
    if is_over(cells):
        return set()
    outcomes = {index: move_outcome(cells, index) for index in empties(cells)}
    top = max(preference(outcome) for outcome in outcomes.values())
    return {index for index, outcome in outcomes.items() if preference(outcome) == top}


def value_for_x(cells):
    """(value for X: 1, 0 or -1, plies to the end) under perfect play."""
    score, plies = solve(cells)
    return (score if mover(cells) == X_MARK else -score), plies


def winning_cells(cells, mark):
    """Empty cells where `mark` would complete a line at once."""
    found = set()
    for line in WIN_LINES:
        marks = [cells[index] for index in line]
        if marks.count(mark) == 2 and marks.count(None) == 1:
            found.add(line[marks.index(None)])
    return found


@cache
def reachable_positions():
    """Every position reachable from the empty board by legal play, the empty board included."""
    seen = {EMPTY_POSITION}
    stack = [EMPTY_POSITION]
    while stack:
        cells = stack.pop()
        if is_over(cells):
            continue
        for index in empties(cells):
            child = play(cells, index)
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return tuple(sorted(seen, key=lambda cells: tuple("_OX".index(c or "_") for c in cells)))


def all_grids():
    """All 3**9 ways to fill the grid with X, O or None, legal or not."""
    cells = [None, X_MARK, O_MARK]
    grids: list[Cells] = [()]
    for _ in range(9):
        grids = [(*grid, cell) for grid in grids for cell in cells]
    return grids


def fork_cells(cells, mark):
    """Empty cells where `mark` would then have two or more cells completing a line."""
    forks = set()
    for index in empties(cells):
        after = (*cells[:index], mark, *cells[index + 1 :])
        if len(winning_cells(after, mark)) >= 2:
            forks.add(index)
    return forks


def holding_moves(cells):
    """Moves that keep the mover's perfect-play score (win, draw or loss), however slowly."""
    score, _ = solve(cells)
    return {index for index in empties(cells) if move_outcome(cells, index)[0] == score}


def verdict_of(cells, index):
    """'best' for an optimal move, 'inaccurate' for the same score reached worse (a slower win,
    a quicker loss), 'mistake' for a lower score."""
    if index in best_moves(cells):
        return "best"
    return "inaccurate" if index in holding_moves(cells) else "mistake"


@cache
def paths_to_positions():
    """One move sequence (cell indexes, from the empty board) reaching each reachable position."""
    paths: dict[Cells, tuple[int, ...]] = {EMPTY_POSITION: ()}
    stack = [EMPTY_POSITION]
    while stack:
        cells = stack.pop()
        if is_over(cells):
            continue
        for index in empties(cells):
            child = play(cells, index)
            if child not in paths:
                paths[child] = (*paths[cells], index)
                stack.append(child)
    return paths


def replay(indexes):
    """The position after playing the cell indexes in order from the empty board."""
    cells = EMPTY_POSITION
    for index in indexes:
        assert not is_over(cells)
        cells = play(cells, index)
    return cells


# The AI's levels, by the names the engine gives them.
EASY_LEVEL, MEDIUM_LEVEL, HARD_LEVEL = "easy", "medium", "hard"


def level_chances(cells, level):
    """What each level plays, from its description: easy takes a win in one, else any move;
    medium also avoids moves after which the opponent wins at once; hard plays a best move on
    3 turns out of 4, else as medium."""
    me = mover(cells)
    wins = winning_cells(cells, me)
    moves = sorted(empties(cells))
    if wins:
        short_sighted = sorted(wins)
    elif level == EASY_LEVEL:
        short_sighted = moves
    else:
        safe = [index for index in moves if not winning_cells(play(cells, index), other(me))]
        short_sighted = safe or moves
    chances: dict[int, Fraction] = {}
    if level == HARD_LEVEL:
        best = sorted(best_moves(cells))
        for index in best:
            chances[index] = chances.get(index, Fraction(0)) + Fraction(3, 4) / len(best)
        for index in short_sighted:
            chances[index] = chances.get(index, Fraction(0)) + Fraction(1, 4) / len(short_sighted)
    else:
        for index in short_sighted:
            chances[index] = chances.get(index, Fraction(0)) + Fraction(1, len(short_sighted))
    return chances
