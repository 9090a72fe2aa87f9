"""Ultimate Tic-Tac-Toe: nine small boards in a 3x3, and an AI that searches within a time budget.

The rules are the standard ones (as OpenSpiel's `ultimate_tic_tac_toe`): X moves first; the cell
played (0-8, row-major) sends the opponent to the small board of the same index, or anywhere open
when that board is closed (won or full); three won small boards in a line win the game; when every
board is closed without such a line the game is a draw.

    import tictactoe.ultimate as ut
    state = ut.initial_state()
    state = ut.result(state, (4, 4))          # (board, cell), each 0-8 row-major
    ut.choose(state, "impossible")            # the AI's move, within one second
    ut.analyse(state, "hard")                 # its move, its estimate and why

States are immutable, hashable and cheap to pickle (two tuples of nine 9-bit masks and the last
move), so a bot can hand them to worker processes. The search is Monte Carlo tree search over
bitboards with a rollout policy that takes small boards, never misses a game win and avoids
sending the opponent where it can take a board, and with solver-style propagation of proven wins
and losses. Standard library only.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from enum import Enum
from typing import NamedTuple

from .solver import DIFFICULTIES, EASY, HARD, IMPOSSIBLE, MEDIUM

X = "X"
O = "O"  # noqa: E741 - the second player's mark
MARKS = (X, O)

Action = tuple[int, int]  # (small board, cell), each 0-8 row-major

_FULL = 0b111_111_111
_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_LINE_MASKS = tuple(sum(1 << index for index in line) for line in _LINES)
# _WON[mask]: the 9-bit set `mask` holds a line.
_WON = tuple(any(mask & line == line for line in _LINE_MASKS) for mask in range(_FULL + 1))
# _THREATS[mask]: the cells that would complete a line for the owner of `mask` (taken or not).
_THREATS = tuple(
    sum(1 << cell for cell in range(9) if _WON[mask | 1 << cell] and not mask >> cell & 1)
    if not _WON[mask]
    else 0
    for mask in range(_FULL + 1)
)
# _CELLS_OF[mask]: the indices of the set bits of `mask`, in order.
_CELLS_OF = tuple(tuple(cell for cell in range(9) if mask >> cell & 1) for mask in range(_FULL + 1))


class IllegalMove(ValueError):
    """The action is not one of the legal moves of the state."""


class State(NamedTuple):
    """A position: `x[b]` and `o[b]` are small board b's marks as 9-bit masks (bit c is cell c),
    and `last` the move that led here (None at the start), which decides the forced board."""

    x: tuple[int, ...]
    o: tuple[int, ...]
    last: Action | None


class Reason(Enum):
    """Why the AI plays its move, for hints: machine-readable, worded by the caller."""

    WINS_GAME = "wins_game"  # the move completes a line of won boards
    FORCED_WIN = "forced_win"  # the search proved a win against any defence
    BLOCKS_GAME = "blocks_game"  # the opponent would win the game in this board at this cell
    TAKES_BOARD = "takes_board"  # the move wins small board `board`
    BLOCKS_BOARD = "blocks_board"  # the opponent could take small board `board` at this cell
    AVOIDS_GIVING = "avoids_giving"  # other moves would let the opponent take board `board`
    ALL_LOSE = "all_lose"  # every move loses against best play; this one resists longest
    BEST_ESTIMATE = "best_estimate"  # no tactic: the search's best estimate


class Analysis(NamedTuple):
    """The AI's move and its judgement of the position, for the player to move.

    `value` is the search's estimate of the mover's score (win 1, draw 1/2, loss 0): 1.0 or 0.0
    once proven, 0.5 from "easy", which does not search. `reason` says why, about small board
    `board` when it names one. `playouts` is how many simulated games the search ran."""

    action: Action
    value: float
    reason: Reason
    board: int | None
    playouts: int


class Level(NamedTuple):
    """How a difficulty searches: at most `budget` seconds and `playouts` simulated games (None:
    no cap); `blunder` is the chance of playing a random legal move instead."""

    budget: float
    playouts: int | None
    blunder: float


# Easy runs no tree search (its move is the rollout policy's, with blunders); the others search.
LEVELS = {
    EASY: Level(budget=0.0, playouts=0, blunder=0.25),
    MEDIUM: Level(budget=0.25, playouts=200, blunder=0.0),
    HARD: Level(budget=0.25, playouts=None, blunder=0.0),
    IMPOSSIBLE: Level(budget=1.0, playouts=None, blunder=0.0),
}
# The search stops this share of its budget early: building the answer and a worker's
# round trip must fit in what is left.
_BUDGET_MARGIN = 0.15
# With a single legal move there is nothing to choose: this many playouts estimate its value.
_FORCED_MOVE_PLAYOUTS = 100
# Below this many playouts through the chosen move, its own average is too noisy to report.
_TRUSTED_VISITS = 30
# Exploration constant of UCT, for rewards in [0, 1].
_EXPLORATION = 0.9
# How often the rollout policy takes a small board it can take (always, would make it blind to
# gambits; never, would make its games random).
_TAKE_BOARD = 0.9
# How many random cells the rollout policy tries before accepting one that sends the opponent
# where it can take a board (or anywhere).
_SAFE_TRIES = 3


# --- the rules ------------------------------------------------------------------------------


def initial_state() -> State:
    """The empty boards, X to move anywhere."""
    return State((0,) * 9, (0,) * 9, None)


def player(state: State) -> str:
    """Whose turn it is: X moves first, then the players alternate."""
    marks_x = sum(map(int.bit_count, state.x))
    marks_o = sum(map(int.bit_count, state.o))
    return X if marks_x == marks_o else O


def small_winner(state: State, board: int) -> str | None:
    """Who won small board `board`, or None."""
    if _WON[state.x[board]]:
        return X
    if _WON[state.o[board]]:
        return O
    return None


def small_winners(state: State) -> tuple[str | None, ...]:
    """Each small board's winner, or None, in board order."""
    return tuple(small_winner(state, board) for board in range(9))


def is_closed(state: State, board: int) -> bool:
    """Whether small board `board` is won or full: nobody may play there any more."""
    x, o = state.x[board], state.o[board]
    return _WON[x] or _WON[o] or x | o == _FULL


def _meta_masks(state: State) -> tuple[int, int, int]:
    """Boards won by X, by O, and closed, as 9-bit masks."""
    won_x = won_o = closed = 0
    for board in range(9):
        x, o = state.x[board], state.o[board]
        if _WON[x]:
            won_x |= 1 << board
            closed |= 1 << board
        elif _WON[o]:
            won_o |= 1 << board
            closed |= 1 << board
        elif x | o == _FULL:
            closed |= 1 << board
    return won_x, won_o, closed


def winner(state: State) -> str | None:
    """X or O once it has three won small boards in a line, else None."""
    won_x, won_o, _ = _meta_masks(state)
    if _WON[won_x]:
        return X
    if _WON[won_o]:
        return O
    return None


def winning_line(state: State) -> tuple[int, int, int] | None:
    """The three small boards of the winner's line, or None."""
    won_x, won_o, _ = _meta_masks(state)
    for mask in (won_x, won_o):
        for line, line_mask in zip(_LINES, _LINE_MASKS, strict=True):
            if mask & line_mask == line_mask:
                return line
    return None


def terminal(state: State) -> bool:
    """Whether the game is over: someone won, or every small board is closed."""
    won_x, won_o, closed = _meta_masks(state)
    return _WON[won_x] or _WON[won_o] or closed == _FULL


def forced_board(state: State) -> int | None:
    """The small board the player to move must play in; None when they may choose (or the
    game is over)."""
    if state.last is None or terminal(state):
        return None
    target = state.last[1]
    return None if is_closed(state, target) else target


def open_boards(state: State) -> tuple[int, ...]:
    """The small boards where the player to move may play, in order; () when the game is over."""
    if terminal(state):
        return ()
    forced = forced_board(state)
    if forced is not None:
        return (forced,)
    return tuple(board for board in range(9) if not is_closed(state, board))


def actions(state: State) -> set[Action]:
    """Every legal (board, cell) move; empty when the game is over."""
    return {
        (board, cell)
        for board in open_boards(state)
        for cell in _CELLS_OF[_FULL & ~(state.x[board] | state.o[board])]
    }


def result(state: State, action: Action) -> State:
    """The state after the player to move plays `action`. Raises IllegalMove (a ValueError)
    naming what is wrong when it is not a legal move."""
    _check_action(state, action)
    board, cell = action
    bit = 1 << cell
    if player(state) == X:
        x = (*state.x[:board], state.x[board] | bit, *state.x[board + 1 :])
        return State(x, state.o, (board, cell))
    o = (*state.o[:board], state.o[board] | bit, *state.o[board + 1 :])
    return State(state.x, o, (board, cell))


def _check_action(state: State, action: object) -> None:
    if (
        not isinstance(action, tuple)
        or len(action) != 2
        or not all(type(part) is int and 0 <= part <= 8 for part in action)
    ):
        raise IllegalMove(f"a move is a (board, cell) pair of integers 0-8, not {action!r}")
    board, cell = action
    if terminal(state):
        raise IllegalMove("the game is over")
    if is_closed(state, board):
        raise IllegalMove(f"small board {board} is closed")
    forced = forced_board(state)
    if forced is not None and board != forced:
        raise IllegalMove(f"the move must be in small board {forced}, not {board}")
    if (state.x[board] | state.o[board]) >> cell & 1:
        raise IllegalMove(f"cell {cell} of small board {board} is taken")


def cells(state: State) -> tuple[str | None, ...]:
    """The 81 cells, board by board and cell by cell within each (index 9 * board + cell):
    "X", "O" or None. With `last`, what a codec needs to store a game."""
    return tuple(
        X if state.x[board] >> cell & 1 else O if state.o[board] >> cell & 1 else None
        for board in range(9)
        for cell in range(9)
    )


def from_cells(marks: tuple[str | None, ...] | list[str | None], last: Action | None) -> State:
    """The state with these 81 cells (as `cells` gives them) after the move `last`.

    Raises ValueError when the cells and the last move cannot go together: a wrong count of
    marks, `last` not holding the mark of the player who just moved, marks in a small board
    after it was won by both sides, or both players owning a line of boards.
    """
    if len(marks) != 81 or any(mark not in (X, O, None) for mark in marks):
        raise ValueError("81 cells, each 'X', 'O' or None")
    x = tuple(sum(1 << c for c in range(9) if marks[9 * b + c] == X) for b in range(9))
    o = tuple(sum(1 << c for c in range(9) if marks[9 * b + c] == O) for b in range(9))
    count_x, count_o = marks.count(X), marks.count(O)
    if count_x - count_o not in (0, 1):
        raise ValueError(f"{count_x} X and {count_o} O cannot arise: X moves first")
    if (last is None) != (count_x == 0):
        raise ValueError("the last move is given exactly when a mark is on the board")
    if last is not None:
        if not (
            isinstance(last, tuple)
            and len(last) == 2
            and all(type(part) is int and 0 <= part <= 8 for part in last)
        ):
            raise ValueError(f"the last move is a (board, cell) pair 0-8, not {last!r}")
        just_moved = X if count_x > count_o else O
        if marks[9 * last[0] + last[1]] != just_moved:
            raise ValueError(f"the last move's cell must hold {just_moved}")
    if any(_WON[x[board]] and _WON[o[board]] for board in range(9)):
        raise ValueError("a small board cannot be won by both players")
    state = State(x, o, last)
    won_x, won_o, _ = _meta_masks(state)
    if _WON[won_x] and _WON[won_o]:
        raise ValueError("both players cannot own a line of boards")
    return state


# --- the search ---------------------------------------------------------------------------


class _Sim:
    """A mutable copy of a position for the search: marks per player and board, boards won per
    player, closed boards, the forced board (-1: free), the mover (0 X, 1 O), the result (-1
    unfinished, 0 X won, 1 O won, 2 draw)."""

    __slots__ = ("closed", "forced", "marks", "meta", "mover", "outcome")

    def __init__(self, state: State | None = None) -> None:
        if state is None:
            return
        won_x, won_o, closed = _meta_masks(state)
        self.marks = [list(state.x), list(state.o)]
        self.meta = [won_x, won_o]
        self.closed = closed
        self.mover = 0 if player(state) == X else 1
        forced = forced_board(state)
        self.forced = -1 if forced is None else forced
        self.outcome = 0 if _WON[won_x] else 1 if _WON[won_o] else 2 if closed == _FULL else -1

    def copy(self) -> _Sim:
        other = _Sim()
        other.marks = [self.marks[0][:], self.marks[1][:]]
        other.meta = self.meta[:]
        other.closed = self.closed
        other.forced = self.forced
        other.mover = self.mover
        other.outcome = self.outcome
        return other

    def moves(self) -> list[int]:
        """Legal moves as 9 * board + cell."""
        mine, theirs = self.marks
        if self.forced >= 0:
            boards: tuple[int, ...] = (self.forced,)
        else:
            boards = _CELLS_OF[_FULL & ~self.closed]
        return [
            9 * board + cell
            for board in boards
            for cell in _CELLS_OF[_FULL & ~(mine[board] | theirs[board])]
        ]

    def winning_move(self) -> int:
        """A move that wins the game at once for the mover, or -1."""
        mover = self.mover
        mine, theirs = self.marks[mover], self.marks[1 - mover]
        decisive = _THREATS[self.meta[mover]] & ~self.closed
        if self.forced >= 0:
            decisive &= 1 << self.forced
        for board in _CELLS_OF[decisive]:
            wins = _THREATS[mine[board]] & ~(mine[board] | theirs[board])
            if wins:
                return 9 * board + _CELLS_OF[wins][0]
        return -1

    def play(self, move: int) -> None:
        board, cell = divmod(move, 9)
        mover = self.mover
        own = self.marks[mover]
        mask = own[board] | 1 << cell
        own[board] = mask
        if _WON[mask]:
            self.closed |= 1 << board
            meta = self.meta[mover] | 1 << board
            self.meta[mover] = meta
            if _WON[meta]:
                self.outcome = mover
        elif mask | self.marks[1 - mover][board] == _FULL:
            self.closed |= 1 << board
        if self.outcome < 0 and self.closed == _FULL:
            self.outcome = 2
        self.forced = -1 if self.closed >> cell & 1 else cell
        self.mover = 1 - mover


def _policy_move(sim: _Sim, rand: Callable[[], float]) -> int:
    """The rollout policy's move (sim unfinished): win the game if it can, take a small board
    most of the time, else a random cell that does not send the opponent where it can take a
    board or choose freely (a few tries)."""
    mover = sim.mover
    mine, theirs = sim.marks[mover], sim.marks[1 - mover]
    closed = sim.closed
    forced = sim.forced
    decisive = _THREATS[sim.meta[mover]] & ~closed
    if forced >= 0:
        board = forced
        empty = _FULL & ~(mine[board] | theirs[board])
        wins = _THREATS[mine[board]] & empty
        if wins and (decisive >> board & 1 or rand() < _TAKE_BOARD):
            options = _CELLS_OF[wins]
            return 9 * board + options[int(rand() * len(options))]
    else:
        open_mask = _FULL & ~closed
        takeable = 0
        for board in _CELLS_OF[open_mask]:
            wins = _THREATS[mine[board]] & ~(mine[board] | theirs[board])
            if wins:
                if decisive >> board & 1:
                    return 9 * board + _CELLS_OF[wins][0]
                takeable |= 1 << board
        if takeable and rand() < _TAKE_BOARD:
            options = _CELLS_OF[takeable]
            board = options[int(rand() * len(options))]
            wins = _THREATS[mine[board]] & ~(mine[board] | theirs[board])
            choices = _CELLS_OF[wins]
            return 9 * board + choices[int(rand() * len(choices))]
        options = _CELLS_OF[open_mask]
        board = options[int(rand() * len(options))]
        empty = _FULL & ~(mine[board] | theirs[board])
    choices = _CELLS_OF[empty]
    count = len(choices)
    cell = choices[int(rand() * count)]
    for _ in range(_SAFE_TRIES):
        # Safe: the target board is open, and the opponent cannot take it at once.
        if not closed >> cell & 1:
            target_empty = _FULL & ~(mine[cell] | theirs[cell])
            if cell == board:
                target_empty &= ~(1 << cell)
            if not _THREATS[theirs[cell]] & target_empty:
                break
        cell = choices[int(rand() * count)]
    return 9 * board + cell


def _rollout(sim: _Sim, rand: Callable[[], float]) -> int:
    """Play the policy to the end of the game; the outcome (0 X won, 1 O won, 2 draw)."""
    play, policy = sim.play, _policy_move
    while sim.outcome < 0:
        play(policy(sim, rand))
    return sim.outcome


class _Node:
    """A tree node: the move that led here and who made it; score is that player's total
    reward (win 1, draw 1/2); `proven` is that player's exact result once known (1 win, 0 draw,
    -1 loss). No link to the parent: the tree has no cycles, so it is freed as soon as the
    search returns instead of waiting for the garbage collector, which would pause a later
    search."""

    __slots__ = ("children", "move", "mover", "proven", "score", "untried", "visits")

    def __init__(self, move: int, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.children: list[_Node] = []
        self.untried: list[int] = []
        self.visits = 0
        self.score = 0.0
        self.proven: int | None = None


def _expand_into(node: _Node, sim: _Sim, rng: random.Random) -> None:
    """Set up a new node from its position `sim`: its exact result when the game is over or
    the next player wins at once, else its untried moves in random order."""
    if sim.outcome >= 0:
        node.proven = 0 if sim.outcome == 2 else 1 if sim.outcome == node.mover else -1
        return
    if sim.winning_move() >= 0:
        node.proven = -1
        return
    moves = sim.moves()
    rng.shuffle(moves)
    node.untried = moves


def _prove_upwards(path: list[_Node]) -> None:
    """Propagate the proof of the last node of `path` (root first) to its ancestors while it
    decides them."""
    for node in reversed(path[:-1]):
        if node.proven is not None:
            return
        children = node.children
        if any(child.proven == 1 for child in children):
            node.proven = -1
        elif not node.untried and all(child.proven is not None for child in children):
            node.proven = -max(child.proven for child in children if child.proven is not None)
        else:
            return


def _search(
    state: State, budget: float, playouts: int | None, rng: random.Random
) -> tuple[_Node, int]:
    """Run MCTS from `state` until the budget, the playout cap or a proof: the root and how
    many playouts ran."""
    start = time.perf_counter()
    deadline = start + budget * (1 - _BUDGET_MARGIN)
    root_sim = _Sim(state)
    root = _Node(-1, 1 - root_sim.mover)
    _expand_into(root, root_sim.copy(), rng)
    if root.proven is not None:
        # The mover wins at once: the search has nothing to add.
        return root, 0
    if len(root.untried) == 1:
        # A forced move: search only enough for an estimate of the position.
        playouts = min(playouts or _FORCED_MOVE_PLAYOUTS, _FORCED_MOVE_PLAYOUTS)
    rand = rng.random
    log, sqrt = math.log, math.sqrt
    count = 0
    clock = time.perf_counter
    while root.proven is None and (playouts is None or count < playouts):
        if clock() >= deadline and count > 0:
            break
        count += 1
        node, sim = root, root_sim.copy()
        path = [root]
        # Select.
        while node.proven is None and not node.untried:
            log_visits = log(node.visits)
            best, best_value = None, -1.0
            for child in node.children:
                proven = child.proven
                if proven == -1:
                    continue
                if proven == 1:
                    best = child
                    break
                value = child.score / child.visits + _EXPLORATION * sqrt(log_visits / child.visits)
                if value > best_value:
                    best, best_value = child, value
            if best is None:  # every child loses for its mover: _prove_upwards settles it
                break
            node = best
            path.append(node)
            sim.play(node.move)
        # Expand.
        if node.proven is None and node.untried:
            move = node.untried.pop()
            sim.play(move)
            child = _Node(move, 1 - sim.mover)
            node.children.append(child)
            _expand_into(child, sim, rng)
            node = child
            path.append(child)
            if child.proven is not None:
                _prove_upwards(path)
        # Simulate.
        if node.proven is None:
            outcome = _rollout(sim, rand)
        elif node.proven == 0:
            outcome = 2
        else:
            outcome = node.mover if node.proven == 1 else 1 - node.mover
        # Back up.
        for walker in path:
            walker.visits += 1
            if outcome == 2:
                walker.score += 0.5
            elif outcome == walker.mover:
                walker.score += 1.0
    return root, count


def _best_child(root: _Node) -> _Node:
    """A proven win, else the most visited child that is not a proven loss for the mover."""
    for child in root.children:
        if child.proven == 1:
            return child
    candidates = [child for child in root.children if child.proven != -1] or root.children
    return max(candidates, key=lambda child: (child.visits, child.score))


# --- levels and reasons ----------------------------------------------------------------------


def choose(
    state: State,
    level: str = IMPOSSIBLE,
    rng: random.Random | None = None,
    *,
    budget: float | None = None,
    playouts: int | None = None,
) -> Action:
    """The AI's move at `level` ("easy", "medium", "hard" or "impossible").

    `budget` (seconds) overrides the level's thinking time, `playouts` caps the simulated games
    (for reproducible results: with a cap and no budget, the move depends only on `rng`).
    Raises ValueError on a finished game or an unknown level.
    """
    return analyse(state, level, rng, budget=budget, playouts=playouts).action


def analyse(
    state: State,
    level: str = IMPOSSIBLE,
    rng: random.Random | None = None,
    *,
    budget: float | None = None,
    playouts: int | None = None,
) -> Analysis:
    """The AI's move at `level` with its estimate for the player to move and the reason.

    When `playouts` is given without `budget`, the search is not timed at all (deterministic
    given `rng`). Raises ValueError on a finished game or an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(DIFFICULTIES)}, not {level!r}")
    if terminal(state):
        raise ValueError("the game is over: there is no move to choose")
    rng = rng if rng is not None else random.Random()
    settings = LEVELS[level]
    if playouts is not None and budget is None:
        budget = math.inf
    elif budget is None:
        budget = settings.budget
    cap = playouts if playouts is not None else settings.playouts
    sim = _Sim(state)
    if settings.blunder and rng.random() < settings.blunder:
        moves = sim.moves()
        move = moves[int(rng.random() * len(moves))]
        return _explained(state, move, 0.5, None, 0)
    if cap == 0 or level == EASY:
        move = sim.winning_move()
        if move < 0:
            move = _policy_move(sim, rng.random)
        return _explained(state, move, 0.5, None, 0)
    root, count = _search(state, budget, cap, rng)
    if root.proven is not None and not root.children:
        # Proven before any search: the mover wins at once.
        move = sim.winning_move()
        return _explained(state, move, 1.0, 1, count)
    best = _best_child(root)
    proven_for_mover = None if root.proven is None else -root.proven
    if proven_for_mover is not None:
        value = (proven_for_mover + 1) / 2
    elif best.proven is not None:
        value = (best.proven + 1) / 2
    elif best.visits >= _TRUSTED_VISITS:
        value = best.score / best.visits
    else:
        # Too few games through the move to judge it alone: the mover's results over all of them.
        value = 1 - root.score / root.visits
    return _explained(state, best.move, value, proven_for_mover, count)


def _explained(state: State, move: int, value: float, proven: int | None, count: int) -> Analysis:
    """The analysis of `move` with the first reason that applies."""
    board, cell = divmod(move, 9)
    sim = _Sim(state)
    mover = sim.mover
    mine, theirs = sim.marks[mover], sim.marks[1 - mover]
    empty = _FULL & ~(mine[board] | theirs[board])
    bit = 1 << cell
    reason, about = Reason.BEST_ESTIMATE, None
    takes = _WON[mine[board] | bit]
    their_block = _THREATS[theirs[board]] & empty & bit
    if takes and _WON[sim.meta[mover] | 1 << board]:
        reason, about, value = Reason.WINS_GAME, board, 1.0
    elif proven == 1:
        reason, about = Reason.FORCED_WIN, None
    elif their_block and _WON[sim.meta[1 - mover] | 1 << board]:
        reason, about = Reason.BLOCKS_GAME, board
    elif takes:
        reason, about = Reason.TAKES_BOARD, board
    elif their_block:
        reason, about = Reason.BLOCKS_BOARD, board
    elif proven == -1:
        reason, about = Reason.ALL_LOSE, None
    else:
        avoided = _dangerous_targets(sim, move)
        if avoided is not None:
            reason, about = Reason.AVOIDS_GIVING, avoided
    return Analysis((board, cell), value, reason, about, count)


def _dangerous_targets(sim: _Sim, move: int) -> int | None:
    """If `move` sends the opponent where it cannot take a board, but another legal move would
    send it to a board it could take: the first such board; else None."""

    def gift(candidate: int) -> int | None:
        after = sim.copy()
        after.play(candidate)
        if after.outcome >= 0:
            return None
        mover = after.mover
        mine, theirs = after.marks[mover], after.marks[1 - mover]
        boards = (after.forced,) if after.forced >= 0 else _CELLS_OF[_FULL & ~after.closed]
        for board in boards:
            if _THREATS[mine[board]] & ~(mine[board] | theirs[board]):
                return board
        return None

    if gift(move) is not None:
        return None
    given = sorted(
        {board for other in sim.moves() if (board := gift(other)) is not None and other != move}
    )
    return given[0] if given else None


__all__ = [
    "DIFFICULTIES",
    "EASY",
    "HARD",
    "IMPOSSIBLE",
    "LEVELS",
    "MARKS",
    "MEDIUM",
    "Action",
    "Analysis",
    "IllegalMove",
    "Level",
    "O",
    "Reason",
    "State",
    "X",
    "actions",
    "analyse",
    "cells",
    "choose",
    "forced_board",
    "from_cells",
    "initial_state",
    "is_closed",
    "open_boards",
    "player",
    "result",
    "small_winner",
    "small_winners",
    "terminal",
    "winner",
    "winning_line",
]
