"""Perfect play: every reachable position is solved once, then answers are table look-ups.

On first use the whole game tree from the empty board (5,478 positions) is solved over bitboards,
which takes about 10 ms; after that each answer is a dictionary look-up. Imports are kept to the
bare minimum on purpose (no typing, dataclasses or enum at run time) because they would cost more
than the solve itself on a cold start.
"""

from __future__ import annotations

import random
from collections import namedtuple

from .rules import EMPTY, LINES, SIZE, O, X, validate_board

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from .rules import Action, Board, Cell

    # A board flattened row by row, and a board as a tuple of row tuples (the cache key).
    Flat = tuple[Cell, ...]
    Key = tuple[Flat, ...]
    Entry = tuple[int, int, tuple[int, ...]]

EASY, MEDIUM, HARD, IMPOSSIBLE = "easy", "medium", "hard", "impossible"
DIFFICULTIES = (EASY, MEDIUM, HARD, IMPOSSIBLE)

if TYPE_CHECKING:
    # What the namedtuple below is, for type checkers (typing.NamedTuple costs an import).
    from typing import NamedTuple

    class MoveAnalysis(NamedTuple):
        action: Action
        outcome: str
        plies: int

else:
    MoveAnalysis = namedtuple("MoveAnalysis", "action outcome plies")
MoveAnalysis.__doc__ = """One legal move under perfect play, from the mover's point of view:
`action` (i, j), `outcome` "win" / "draw" / "loss", `plies` until the game ends, this move
included."""

_CELLS = SIZE * SIZE
_FULL = (1 << _CELLS) - 1
_BITS = tuple(1 << index for index in range(_CELLS))
_ACTIONS: tuple[Action, ...] = tuple(divmod(index, SIZE) for index in range(_CELLS))
_LINE_MASKS = tuple(sum(1 << (i * SIZE + j) for i, j in line) for line in LINES)
# _HAS_LINE[mask] tells whether the cells in `mask` contain a three-in-a-row.
_HAS_LINE = tuple(any(mask & line == line for line in _LINE_MASKS) for mask in range(_FULL + 1))

# Levels below impossible see this many plies ahead: a result further away looks like a draw.
_HORIZON = {EASY: 1, MEDIUM: 2}
# Hard plays perfectly, except that on this share of its turns it only sees as far as medium.
HARD_SLIP_CHANCE = 0.25


def _solve_all() -> dict[int, Entry]:
    """Solve every position reachable from the empty board.

    Keys are `x_bits | o_bits << 9`; values are (value for X, plies left under perfect play,
    the cells 0-8 of every move that achieves it).
    """
    table: dict[int, Entry] = {}

    def solve(x_bits: int, o_bits: int, x_to_move: bool) -> Entry:
        if _HAS_LINE[x_bits]:
            entry: Entry = (1, 0, ())
        elif _HAS_LINE[o_bits]:
            entry = (-1, 0, ())
        elif x_bits | o_bits == _FULL:
            entry = (0, 0, ())
        else:
            occupied = x_bits | o_bits
            sign = 1 if x_to_move else -1
            best_rank, best, best_value, best_plies = -1000, [], 0, 0
            for index, bit in enumerate(_BITS):
                if occupied & bit:
                    continue
                child_x, child_o = (x_bits | bit, o_bits) if x_to_move else (x_bits, o_bits | bit)
                child = table.get(child_x | child_o << _CELLS) or solve(
                    child_x, child_o, not x_to_move
                )
                value, plies = child[0], child[1]
                rank = _rank(sign * value, plies)
                if rank > best_rank:
                    best_rank, best, best_value, best_plies = rank, [index], value, plies
                elif rank == best_rank:
                    best.append(index)
            entry = (best_value, best_plies + 1, tuple(best))
        table[x_bits | o_bits << _CELLS] = entry
        return entry

    solve(0, 0, True)
    return table


def _rank(value_for_mover: int, plies: int) -> int:
    """Order results for the mover: a win beats a draw beats a loss; a sooner win and a later
    loss are better."""
    return value_for_mover * (100 - plies)


class _Solver:
    """The solved table, built on first use, with a look-up cache keyed by flattened boards."""

    __slots__ = ("_by_bits", "_by_key")

    def __init__(self) -> None:
        self._by_bits: dict[int, Entry] | None = None
        self._by_key: dict[Key, Entry] = {}

    def entry(self, board: Board) -> Entry:
        try:
            # Rows stay separate in the key so that a misshapen board can never hit the cache.
            key = tuple(map(tuple, board))
            return self._by_key[key]
        except (KeyError, TypeError):
            pass
        rows = validate_board(board)  # raises with the precise reason
        if self._by_bits is None:
            self._by_bits = _solve_all()
        entry = self._by_bits.get(_bits_of((*rows[0], *rows[1], *rows[2])))
        if entry is None:
            raise ValueError("this board cannot arise in a game of tic-tac-toe")
        self._by_key[tuple(map(tuple, rows))] = entry
        return entry

    def child(self, board_key: Flat, index: int, mark: str) -> Entry:
        """The entry after `mark` is played at `index` on the flattened board `board_key`."""
        assert self._by_bits is not None
        return self._by_bits[_bits_of((*board_key[:index], mark, *board_key[index + 1 :]))]


def _bits_of(key: Flat) -> int:
    """Bitboard key of a flattened, validated board."""
    bits = 0
    for index, cell in enumerate(key):
        if cell == X:
            bits |= 1 << index
        elif cell == O:
            bits |= 1 << (index + _CELLS)
    return bits


_SOLVER = _Solver()


def minimax(board: Board) -> Action | None:
    """Return the optimal action for the player to move, or None on a finished board.

    Among equally valued moves it plays the quickest win, or the slowest loss.
    Raises ValueError on a board that cannot arise in a game.
    """
    best = _SOLVER.entry(board)[2]
    return _ACTIONS[best[0]] if best else None


def best_actions(board: Board) -> list[Action]:
    """Every optimal action (quickest win / slowest loss among equal values); [] when finished."""
    return [_ACTIONS[index] for index in _SOLVER.entry(board)[2]]


def game_value(board: Board) -> tuple[int, int]:
    """Return (utility for X under perfect play, plies until the game ends)."""
    value, plies, _ = _SOLVER.entry(board)
    return value, plies


def analyse(board: Board) -> list[MoveAnalysis]:
    """Every legal move with its outcome for the mover under perfect play, best first.

    Empty on a finished board. Raises ValueError on a board that cannot arise in a game.
    """
    if not _SOLVER.entry(board)[2]:
        return []
    key = (*board[0], *board[1], *board[2])
    mover = X if key.count(X) == key.count(O) else O
    sign = 1 if mover == X else -1
    moves = []
    for index, cell in enumerate(key):
        if cell is EMPTY:
            value, plies, _ = _SOLVER.child(key, index, mover)
            outcome = "win" if sign * value > 0 else "loss" if sign * value < 0 else "draw"
            moves.append(MoveAnalysis(_ACTIONS[index], outcome, plies + 1))
    moves.sort(key=lambda move: -_rank(_OUTCOME_VALUE[move.outcome], move.plies))
    return moves


_OUTCOME_VALUE = {"win": 1, "draw": 0, "loss": -1}


def choose_move(
    board: Board, difficulty: str = IMPOSSIBLE, rng: random.Random | None = None
) -> Action | None:
    """Pick a move for the player to move at `difficulty`; None on a finished board.

    - impossible: perfect play; a random choice among the equally best moves.
    - hard: as impossible, but on a quarter of its turns it only sees as far as medium.
    - medium: sees 2 plies ahead: takes a win in one, blocks the opponent's win in one,
      otherwise picks at random.
    - easy: sees 1 ply ahead: takes a win in one, otherwise picks at random.

    Pass a seeded `random.Random` for reproducible choices.
    """
    _check_difficulty(difficulty)
    rng = rng or random.Random()
    if difficulty == IMPOSSIBLE or (difficulty == HARD and rng.random() >= HARD_SLIP_CHANCE):
        best = best_actions(board)
        return rng.choice(best) if best else None
    candidates = _short_sighted_moves(board, difficulty)
    return rng.choice(candidates) if candidates else None


def move_chances(board: Board, difficulty: str) -> dict[Action, Fraction]:
    """The exact chance that `choose_move` plays each legal move at `difficulty` (moves it never
    plays are left out); empty on a finished board. The chances add up to 1."""
    from fractions import Fraction  # only the puzzles need exact chances: keep it off cold starts

    _check_difficulty(difficulty)
    if not _SOLVER.entry(board)[2]:
        return {}
    chances: dict[Action, Fraction] = {}

    def spread(moves: list[Action], share: Fraction) -> None:
        for move in moves:
            chances[move] = chances.get(move, Fraction(0)) + share / len(moves)

    if difficulty in (IMPOSSIBLE, HARD):
        perfect = Fraction(1) if difficulty == IMPOSSIBLE else 1 - Fraction(HARD_SLIP_CHANCE)
        spread(best_actions(board), perfect)
        if perfect < 1:
            spread(_short_sighted_moves(board, MEDIUM), 1 - perfect)
    else:
        spread(_short_sighted_moves(board, difficulty), Fraction(1))
    return chances


def _check_difficulty(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}")


def _short_sighted_moves(board: Board, difficulty: str) -> list[Action]:
    """The moves a level that sees only its horizon ahead finds equally good (it picks one at
    random); hard uses medium's horizon when it slips."""
    moves = analyse(board)
    horizon = _HORIZON.get(difficulty, _HORIZON[MEDIUM])

    def seen_rank(move: MoveAnalysis) -> int:
        if move.plies > horizon:
            return 0
        return _rank(_OUTCOME_VALUE[move.outcome], move.plies)

    top = max((seen_rank(move) for move in moves), default=0)
    return [move.action for move in moves if seen_rank(move) == top]
