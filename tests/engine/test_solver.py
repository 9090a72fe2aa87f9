"""Perfect play: minimax, analyse, best_actions and game_value against an independent solver."""

import copy
import random

import pytest
from brute_force import (
    O_MARK,
    X_MARK,
    all_grids,
    best_moves,
    empties,
    is_over,
    move_outcome,
    mover,
    other,
    play,
    preference,
    reachable_positions,
    solve,
    to_action,
    to_board,
    to_cells,
    to_index,
    value_for_x,
    winner_of,
)

from tictactoe import (
    EMPTY,
    Board,
    O,
    X,
    analyse,
    best_actions,
    choose_move,
    game_value,
    initial_state,
    minimax,
    result,
    terminal,
    utility,
)

E = EMPTY
OUTCOME_SCORE = {"win": 1, "draw": 0, "loss": -1}


@pytest.fixture(scope="module")
def positions():
    return reachable_positions()


# --- CS50 cases ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "board",
    [
        [[X, X, X], [O, O, E], [E, E, E]],
        [[X, O, X], [X, O, O], [O, X, X]],
        [[O, O, O], [X, X, E], [X, E, E]],
    ],
    ids=["x-won", "draw", "o-won"],
)
def test_minimax_returns_none_on_a_finished_board(board):
    assert minimax(board) is None
    assert best_actions(board) == []
    assert analyse(board) == []


def test_minimax_returns_a_legal_action_on_the_empty_board():
    move = minimax(initial_state())
    assert isinstance(move, tuple)
    assert len(move) == 2
    assert move in {(i, j) for i in range(3) for j in range(3)}


def test_minimax_takes_a_win_in_one():
    # X can win at (0, 2) or must otherwise deal with O's threat.
    assert minimax([[X, X, E], [O, O, E], [E, E, E]]) == (0, 2)
    assert minimax([[X, X, E], [O, O, E], [X, E, E]]) == (1, 2)


def test_minimax_blocks_a_win_in_one():
    assert minimax([[X, X, E], [E, O, E], [E, E, E]]) == (0, 2)
    assert minimax([[O, E, E], [E, X, E], [E, E, X]]) in {(0, 2), (2, 0)}


def test_minimax_prefers_the_quickest_win():
    # X wins at once in (2, 2) on the diagonal, and nowhere else in one move.
    board: Board = [[X, O, E], [E, X, O], [E, E, E]]
    assert minimax(board) == (2, 2)
    assert best_actions(board) == [(2, 2)]
    assert game_value(board) == (1, 1)


# --- exhaustive comparison with the brute force -------------------------------------------------


def test_minimax_is_optimal_and_quickest_on_every_reachable_position(positions):
    assert len(positions) == 5478
    for cells in positions:
        board = to_board(cells)
        move = minimax(board)
        if is_over(cells):
            assert move is None, cells
            continue
        index = to_index(move)
        assert cells[index] is None, cells
        # Same game-theoretic value and the same plies to the end: a quickest win/slowest loss.
        assert move_outcome(cells, index) == solve(cells), cells
        assert index in best_moves(cells), cells


def test_best_actions_are_exactly_the_optimal_moves(positions):
    for cells in positions:
        found = best_actions(to_board(cells))
        assert len(found) == len(set(found)), cells
        assert {to_index(action) for action in found} == best_moves(cells), cells


def test_game_value_matches_the_brute_force(positions):
    for cells in positions:
        board = to_board(cells)
        assert game_value(board) == value_for_x(cells), cells
        if is_over(cells):
            assert game_value(board) == (utility(board), 0), cells


def test_the_game_is_a_draw_in_nine_plies():
    assert game_value(initial_state()) == (0, 9)
    assert {move.outcome for move in analyse(initial_state())} == {"draw"}


def test_analyse_matches_the_brute_force_on_every_reachable_position(positions):
    for cells in positions:
        moves = analyse(to_board(cells))
        if is_over(cells):
            assert moves == [], cells
            continue
        expected = {}
        for index in empties(cells):
            score, plies = move_outcome(cells, index)
            expected[to_action(index)] = ({1: "win", 0: "draw", -1: "loss"}[score], plies)
        assert {move.action: (move.outcome, move.plies) for move in moves} == expected, cells
        assert len(moves) == len(expected), cells
        # Best first: the listed order never improves, and the head is an optimal move.
        keys = [preference((OUTCOME_SCORE[move.outcome], move.plies)) for move in moves]
        assert keys == sorted(keys, reverse=True), cells
        assert to_index(moves[0].action) in best_moves(cells), cells


def test_analyse_names_its_fields():
    board: Board = [[X, X, E], [O, O, E], [E, E, E]]
    moves = analyse(board)
    assert moves[0].action == (0, 2)
    assert moves[0].outcome == "win"
    assert moves[0].plies == 1
    # Leaving (1, 2) to O loses on O's very next move.
    assert {(move.action, move.outcome, move.plies) for move in moves} >= {((2, 0), "loss", 2)}


# --- the AI never loses -------------------------------------------------------------------------


def games_against_everything(cells, ai_mark, pick, tally):
    """Play `pick` as `ai_mark` against every possible sequence of opponent moves."""
    if is_over(cells):
        tally[winner_of(cells)] += 1
        return
    if mover(cells) == ai_mark:
        board = to_board(cells)
        action = pick(board)
        assert board == to_board(cells), cells
        index = to_index(action)
        assert cells[index] is None, (cells, action)
        games_against_everything(play(cells, index), ai_mark, pick, tally)
    else:
        for index in empties(cells):
            games_against_everything(play(cells, index), ai_mark, pick, tally)


@pytest.mark.parametrize("ai_mark", [X_MARK, O_MARK])
def test_minimax_never_loses_against_any_sequence_of_moves(ai_mark):
    tally = {X_MARK: 0, O_MARK: 0, None: 0}
    games_against_everything((None,) * 9, ai_mark, minimax, tally)
    assert tally[other(ai_mark)] == 0
    assert tally[ai_mark] > 0
    assert tally[None] > 0


@pytest.mark.parametrize("ai_mark", [X_MARK, O_MARK])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_impossible_never_loses_against_any_sequence_of_moves(ai_mark, seed):
    rng = random.Random(seed)
    tally = {X_MARK: 0, O_MARK: 0, None: 0}
    games_against_everything(
        (None,) * 9, ai_mark, lambda board: choose_move(board, "impossible", rng), tally
    )
    assert tally[other(ai_mark)] == 0
    assert tally[ai_mark] > 0


def test_perfect_play_against_itself_is_a_draw():
    board = initial_state()
    while not terminal(board):
        action = minimax(board)
        assert action is not None
        board = result(board, action)
    assert utility(board) == 0
    assert all(cell is not EMPTY for row in board for cell in row)


# --- no mutation --------------------------------------------------------------------------------


def test_solver_functions_never_modify_their_input(positions):
    rng = random.Random(5)
    for cells in positions:
        board = to_board(cells)
        before = copy.deepcopy(board)
        minimax(board)
        analyse(board)
        best_actions(board)
        game_value(board)
        for level in ("easy", "medium", "hard", "impossible"):
            choose_move(board, level, rng)
        assert board == before, cells
        assert to_cells(board) == cells


# --- invalid boards -----------------------------------------------------------------------------

INVALID_BOARDS = [
    pytest.param([[E, E, E], [E, E, E]], r"list of 3 rows", id="two-rows"),
    pytest.param([[E, E, E], [E, E], [E, E, E]], r"list of 3 cells", id="short-row"),
    pytest.param([[E, E, E], [E, E, E, E], [E, E, E]], r"list of 3 cells", id="long-row"),
    pytest.param([E] * 9, r"list of 3 rows", id="flat-list"),
    pytest.param("XOXOXOXOX", r"list of 3 rows", id="string"),
    pytest.param(None, r"list of 3 rows", id="None"),
    pytest.param([["x", E, E], [E, E, E], [E, E, E]], r"X, O or EMPTY", id="lowercase-x"),
    pytest.param([[1, E, E], [E, E, E], [E, E, E]], r"X, O or EMPTY", id="int"),
    pytest.param([["", E, E], [E, E, E], [E, E, E]], r"X, O or EMPTY", id="empty-string"),
    pytest.param([[[], E, E], [E, E, E], [E, E, E]], r"X, O or EMPTY", id="unhashable"),
    pytest.param([[O, E, E], [E, E, E], [E, E, E]], r"mark counts", id="O-first"),
    pytest.param([[X, X, E], [E, E, E], [E, E, E]], r"mark counts", id="X-twice"),
    pytest.param([[X, X, X], [O, O, O], [E, E, E]], r"both X and O", id="two-winners"),
    pytest.param([[X, X, X], [O, O, E], [O, E, E]], r"after X had already won", id="O-late"),
    pytest.param([[O, O, O], [X, X, E], [X, E, X]], r"after O had already won", id="X-late"),
]

# Boards whose cells, read row after row, happen to spell 9 legal cells.
MISSHAPEN_BOARDS = [
    pytest.param([[E, E, E], [E, E, E], [E, E, E], [E, E, E]], r"list of 3 rows", id="four-rows"),
    pytest.param([[X, E, E, E], [E, E, E], [E, E]], r"list of 3 cells", id="ragged-rows"),
]


@pytest.mark.parametrize(("board", "message"), INVALID_BOARDS)
@pytest.mark.parametrize("function", [minimax, analyse, best_actions, game_value])
def test_solver_raises_value_error_on_an_invalid_board(function, board, message):
    with pytest.raises(ValueError, match=message):
        function(board)


@pytest.mark.parametrize(("board", "message"), INVALID_BOARDS)
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "impossible"])
def test_choose_move_raises_value_error_on_an_invalid_board(level, board, message):
    with pytest.raises(ValueError, match=message):
        choose_move(board, level, random.Random(0))


@pytest.mark.parametrize(("board", "message"), MISSHAPEN_BOARDS)
@pytest.mark.parametrize("function", [minimax, analyse, best_actions, game_value])
def test_solver_raises_value_error_on_a_misshapen_board(function, board, message):
    with pytest.raises(ValueError, match=message):
        function(board)


def test_solver_rejects_every_unreachable_grid(positions):
    reachable = set(positions)
    rejected = 0
    for cells in all_grids():
        if cells in reachable:
            continue
        with pytest.raises(ValueError, match=r"mark counts|three in a row|already won"):
            minimax(to_board(cells))
        rejected += 1
    assert rejected == 3**9 - 5478
