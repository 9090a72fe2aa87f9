"""The CS50 rules API: player, actions, result, winner, terminal, utility, validation."""

import copy

import pytest
from brute_force import (
    O_MARK,
    X_MARK,
    all_grids,
    empties,
    is_over,
    mover,
    play,
    reachable_positions,
    to_action,
    to_board,
    to_cells,
    winner_of,
)

import tictactoe as ttt
from tictactoe import EMPTY, O, X, actions, initial_state, player, result, terminal, utility, winner

E = EMPTY


@pytest.fixture(scope="module")
def positions():
    return reachable_positions()


# --- the API as CS50 defines it -----------------------------------------------------------------


def test_constants_are_cs50s():
    assert X == "X"
    assert O == "O"
    assert EMPTY is None


def test_both_import_styles_expose_the_cs50_functions():
    from tictactoe import minimax as imported_minimax

    assert imported_minimax is ttt.minimax
    for name in ("initial_state", "player", "actions", "result", "winner", "terminal", "utility"):
        assert callable(getattr(ttt, name))
    assert ttt.X == "X"
    assert ttt.O == "O"
    assert ttt.EMPTY is None


def test_initial_state_is_an_empty_3_by_3_list_of_lists():
    board = initial_state()
    assert board == [[E, E, E], [E, E, E], [E, E, E]]
    assert isinstance(board, list)
    assert all(isinstance(row, list) for row in board)


def test_initial_state_returns_a_fresh_board_each_time():
    first = initial_state()
    first[1][1] = X
    assert initial_state() == [[E, E, E], [E, E, E], [E, E, E]]


def test_player_x_moves_first_then_players_alternate():
    assert player(initial_state()) == X
    assert player([[E, E, E], [E, X, E], [E, E, E]]) == O
    assert player([[O, E, E], [E, X, E], [E, E, E]]) == X
    assert player([[O, E, E], [E, X, X], [E, E, E]]) == O
    assert player([[X, O, X], [O, X, O], [O, X, E]]) == X


def test_actions_is_a_set_of_row_column_tuples():
    moves = actions(initial_state())
    assert isinstance(moves, set)
    assert moves == {(i, j) for i in range(3) for j in range(3)}
    assert all(isinstance(move, tuple) and len(move) == 2 for move in moves)


def test_actions_lists_exactly_the_empty_cells():
    board = [[X, O, E], [E, X, E], [O, E, E]]
    assert actions(board) == {(0, 2), (1, 0), (1, 2), (2, 1), (2, 2)}
    assert actions([[X, O, X], [O, X, O], [O, X, E]]) == {(2, 2)}


def test_result_places_the_movers_mark():
    assert result(initial_state(), (1, 1)) == [[E, E, E], [E, X, E], [E, E, E]]
    assert result([[E, E, E], [E, X, E], [E, E, E]], (0, 2)) == [[E, E, O], [E, X, E], [E, E, E]]
    board = [[X, O, E], [E, X, E], [O, E, E]]
    assert result(board, (2, 2)) == [[X, O, E], [E, X, E], [O, E, X]]


def test_result_returns_a_new_board_and_leaves_the_original_alone():
    board: ttt.Board = [[X, O, E], [E, X, E], [E, E, E]]
    before = copy.deepcopy(board)
    after = result(board, (2, 0))
    assert board == before
    assert after is not board
    assert all(new_row is not old_row for new_row, old_row in zip(after, board, strict=True))
    after[0][2] = O
    assert board == before


def test_result_accepts_an_action_from_actions():
    board: ttt.Board = [[X, E, E], [E, O, E], [E, E, E]]
    for action in actions(board):
        i, j = action
        assert result(board, action)[i][j] == X


@pytest.mark.parametrize(
    "line",
    [
        ((0, 0), (0, 1), (0, 2)),
        ((1, 0), (1, 1), (1, 2)),
        ((2, 0), (2, 1), (2, 2)),
        ((0, 0), (1, 0), (2, 0)),
        ((0, 1), (1, 1), (2, 1)),
        ((0, 2), (1, 2), (2, 2)),
        ((0, 0), (1, 1), (2, 2)),
        ((0, 2), (1, 1), (2, 0)),
    ],
    ids=["row0", "row1", "row2", "col0", "col1", "col2", "diagonal", "anti-diagonal"],
)
@pytest.mark.parametrize("mark", [X, O])
def test_winner_terminal_and_utility_for_every_line(line, mark):
    board = initial_state()
    for i, j in line:
        board[i][j] = mark
    assert winner(board) == mark
    assert terminal(board) is True
    assert utility(board) == (1 if mark == X else -1)


def test_winner_on_real_games():
    x_won: ttt.Board = [[X, X, X], [O, O, E], [E, E, E]]
    o_won: ttt.Board = [[X, X, O], [X, O, E], [O, E, E]]
    assert winner(x_won) == X
    assert winner(o_won) == O
    assert utility(x_won) == 1
    assert utility(o_won) == -1


def test_a_full_board_without_a_line_is_a_draw():
    draw: ttt.Board = [[X, O, X], [X, O, O], [O, X, X]]
    assert winner(draw) is None
    assert terminal(draw) is True
    assert utility(draw) == 0


def test_a_game_in_progress_is_not_terminal():
    assert terminal(initial_state()) is False
    board: ttt.Board = [[X, O, X], [O, X, O], [O, X, E]]
    assert winner(board) is None
    assert terminal(board) is False


def test_a_win_on_the_last_cell_beats_the_full_board():
    board: ttt.Board = [[X, O, X], [O, X, O], [O, X, X]]
    assert winner(board) == X
    assert terminal(board) is True
    assert utility(board) == 1


# --- exhaustive comparison with the brute force -------------------------------------------------


def test_there_are_5478_reachable_positions(positions):
    assert len(positions) == 5478
    assert len(set(positions)) == 5478
    assert sum(is_over(cells) for cells in positions) == 958


def test_rules_match_the_brute_force_on_every_reachable_position(positions):
    for cells in positions:
        board = to_board(cells)
        over = is_over(cells)
        assert winner(board) == winner_of(cells), cells
        assert terminal(board) is over, cells
        if over:
            expected = {X_MARK: 1, O_MARK: -1, None: 0}[winner_of(cells)]
            assert utility(board) == expected, cells
            continue
        assert player(board) == mover(cells), cells
        assert actions(board) == {to_action(index) for index in empties(cells)}, cells
        for index in empties(cells):
            assert to_cells(result(board, to_action(index))) == play(cells, index), (cells, index)


def test_result_never_modifies_its_input_on_any_reachable_position(positions):
    for cells in positions:
        if is_over(cells):
            continue
        board = to_board(cells)
        before = copy.deepcopy(board)
        for action in actions(board):
            after = result(board, action)
            assert board == before, (cells, action)
            after[0][0] = "scribble"
            after[2][2] = "scribble"
            assert board == before, (cells, action)


def test_winner_and_terminal_never_modify_their_input(positions):
    for cells in positions:
        board = to_board(cells)
        before = copy.deepcopy(board)
        winner(board)
        terminal(board)
        player(board)
        actions(board)
        assert board == before, cells


def test_validate_board_accepts_exactly_the_reachable_positions(positions):
    reachable = set(positions)
    assert len(all_grids()) == 3**9
    for cells in all_grids():
        board = to_board(cells)
        if cells in reachable:
            checked = ttt.validate_board(board)
            assert checked == board
            assert checked is not board
        else:
            with pytest.raises(ValueError, match=r"mark counts|three in a row|already won"):
                ttt.validate_board(board)


# --- invalid actions ----------------------------------------------------------------------------


def test_result_raises_on_an_occupied_cell():
    board: ttt.Board = [[X, E, E], [E, O, E], [E, E, E]]
    with pytest.raises(ValueError, match=r"already taken"):
        result(board, (0, 0))
    with pytest.raises(ValueError, match=r"already taken"):
        result(board, (1, 1))


@pytest.mark.parametrize("action", [(-1, 2), (2, -1), (-1, -1), (3, 0), (0, 3), (3, 3), (10, 1)])
def test_result_raises_on_an_action_off_the_board(action):
    board = initial_state()
    with pytest.raises(ValueError, match=r"off the board"):
        result(board, action)
    assert board == initial_state()


@pytest.mark.parametrize(
    "action",
    ["a", "11", (1,), (1, 2, 3), (), (1.0, 2), (1, 2.0), (True, 0), (0, False), ("1", 2), None, 4],
    ids=repr,
)
def test_result_raises_on_something_that_is_not_a_pair_of_ints(action):
    board = initial_state()
    with pytest.raises(ValueError, match=r"pair of ints"):
        result(board, action)
    assert board == initial_state()


# --- invalid boards -----------------------------------------------------------------------------

BAD_SHAPES = [
    pytest.param([[E, E, E], [E, E, E]], id="two-rows"),
    pytest.param([[E, E, E], [E, E, E], [E, E, E], [E, E, E]], id="four-rows"),
    pytest.param([[E, E, E], [E, E], [E, E, E]], id="short-row"),
    pytest.param([[E, E, E], [E, E, E, E], [E, E, E]], id="long-row"),
    pytest.param([E] * 9, id="flat-list"),
    pytest.param("X O X O X", id="string"),
    pytest.param(["   ", "   ", "   "], id="rows-as-strings"),
    pytest.param(None, id="None"),
    pytest.param([], id="empty-list"),
]

FOREIGN_VALUES = [
    pytest.param([["x", E, E], [E, E, E], [E, E, E]], id="lowercase-x"),
    pytest.param([[1, E, E], [E, E, E], [E, E, E]], id="int"),
    pytest.param([["", E, E], [E, E, E], [E, E, E]], id="empty-string"),
    pytest.param([[X, E, E], [E, " ", E], [E, E, E]], id="space"),
    pytest.param([[X, E, E], [E, 0, E], [E, E, E]], id="zero"),
]

BAD_POSITIONS = [
    pytest.param([[O, E, E], [E, E, E], [E, E, E]], r"mark counts", id="O-first"),
    pytest.param([[X, X, E], [E, E, E], [E, E, E]], r"mark counts", id="X-twice"),
    pytest.param([[X, X, X], [O, E, E], [E, E, E]], r"mark counts", id="X-three-ahead"),
    pytest.param([[X, X, X], [O, O, O], [E, E, E]], r"both X and O", id="two-winners"),
    pytest.param(
        [[X, X, X], [O, O, E], [O, E, E]], r"O moved after X had already won", id="O-late"
    ),
    pytest.param(
        [[O, O, O], [X, X, E], [X, E, X]], r"X moved after O had already won", id="X-late"
    ),
]


@pytest.mark.parametrize("board", BAD_SHAPES)
def test_validate_board_rejects_a_wrong_shape(board):
    with pytest.raises(ValueError, match=r"list of 3 (rows|cells)"):
        ttt.validate_board(board)


@pytest.mark.parametrize("board", FOREIGN_VALUES)
def test_validate_board_rejects_a_foreign_value(board):
    with pytest.raises(ValueError, match=r"must be X, O or EMPTY"):
        ttt.validate_board(board)


@pytest.mark.parametrize(("board", "message"), BAD_POSITIONS)
def test_validate_board_rejects_an_impossible_position(board, message):
    with pytest.raises(ValueError, match=message):
        ttt.validate_board(board)


def test_validate_board_accepts_tuples_and_returns_lists():
    board = ((X, E, E), (E, O, E), (E, E, E))
    assert ttt.validate_board(board) == [[X, E, E], [E, O, E], [E, E, E]]
