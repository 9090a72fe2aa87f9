"""Ultimate Tic-Tac-Toe's rules and AI, checked against an independent brute-force model written
here (plain lists of 81 cells, naive line checks) and, when it is installed, against OpenSpiel."""

from __future__ import annotations

import itertools
import pickle
import random
from collections.abc import Iterator

import pytest

from tictactoe import ultimate as ut

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


# --- the reference: 81 cells in a list, index 9 * board + cell ------------------------------


def line_owner(marks: list[str | None]) -> str | None:
    for a, b, c in LINES:
        if marks[a] is not None and marks[a] == marks[b] == marks[c]:
            return marks[a]
    return None


def board_marks(grid: list[str | None], board: int) -> list[str | None]:
    return grid[9 * board : 9 * board + 9]


def board_owner(grid: list[str | None], board: int) -> str | None:
    return line_owner(board_marks(grid, board))


def board_closed(grid: list[str | None], board: int) -> bool:
    marks = board_marks(grid, board)
    return board_owner(grid, board) is not None or None not in marks


def ref_winner(grid: list[str | None]) -> str | None:
    return line_owner([board_owner(grid, board) for board in range(9)])


def ref_terminal(grid: list[str | None]) -> bool:
    return ref_winner(grid) is not None or all(board_closed(grid, b) for b in range(9))


def ref_moves(grid: list[str | None], last: tuple[int, int] | None) -> set[tuple[int, int]]:
    if ref_terminal(grid):
        return set()
    if last is not None and not board_closed(grid, last[1]):
        boards = [last[1]]
    else:
        boards = [b for b in range(9) if not board_closed(grid, b)]
    return {(b, c) for b in boards for c in range(9) if grid[9 * b + c] is None}


def random_games(
    count: int, seed: int
) -> Iterator[tuple[ut.State, list[str | None], tuple[int, int] | None]]:
    """`count` random games, yielding (state, reference grid, last move) at every position."""
    rng = random.Random(seed)
    for _ in range(count):
        grid: list[str | None] = [None] * 81
        last: tuple[int, int] | None = None
        state, mark = ut.initial_state(), "X"
        while True:
            yield state, grid, last
            moves = sorted(ref_moves(grid, last))
            if not moves:
                break
            move = rng.choice(moves)
            grid = grid.copy()
            grid[9 * move[0] + move[1]] = mark
            state, last, mark = ut.result(state, move), move, "O" if mark == "X" else "X"


# --- rules ------------------------------------------------------------------------------


def test_the_start_is_empty_with_x_to_move_anywhere() -> None:
    state = ut.initial_state()
    assert ut.player(state) == "X"
    assert ut.actions(state) == {(b, c) for b in range(9) for c in range(9)}
    assert ut.forced_board(state) is None
    assert ut.winner(state) is None
    assert not ut.terminal(state)
    assert ut.cells(state) == (None,) * 81


def test_random_games_follow_the_reference_rules() -> None:
    positions = finished = 0
    for state, grid, last in random_games(150, seed=1):
        positions += 1
        assert ut.cells(state) == tuple(grid)
        assert ut.actions(state) == ref_moves(grid, last)
        assert ut.winner(state) == ref_winner(grid)
        assert ut.terminal(state) == ref_terminal(grid)
        assert ut.small_winners(state) == tuple(board_owner(grid, b) for b in range(9))
        assert all(ut.is_closed(state, b) == board_closed(grid, b) for b in range(9))
        if not ut.terminal(state):
            assert ut.player(state) == ("X" if grid.count("X") == grid.count("O") else "O")
            forced = {b for b, _ in ut.actions(state)}
            assert ut.open_boards(state) == tuple(sorted(forced))
            sent_to = None if last is None or board_closed(grid, last[1]) else last[1]
            assert ut.forced_board(state) == sent_to
        else:
            finished += 1
            assert ut.open_boards(state) == ()
    assert finished == 150
    assert positions > 150 * 40


def test_random_games_end_in_every_way() -> None:
    endings = {
        ut.winner(state) for state, grid, _ in random_games(100, seed=2) if ut.terminal(state)
    }
    assert endings == {"X", "O", None}


def test_every_small_board_position_is_won_and_closed_as_the_reference_says() -> None:
    # Every placement of X, O or nothing on one small board (3^9), in a few board slots.
    for board in (0, 4, 8):
        for marks in itertools.product(("X", "O", None), repeat=9):
            x_line = line_owner([m if m == "X" else None for m in marks])
            o_line = line_owner([m if m == "O" else None for m in marks])
            if x_line and o_line:
                continue  # both sides own a line: no game reaches it
            grid: list[str | None] = [None] * 81
            grid[9 * board : 9 * board + 9] = marks
            x = [0] * 9
            o = [0] * 9
            x[board] = sum(1 << c for c in range(9) if marks[c] == "X")
            o[board] = sum(1 << c for c in range(9) if marks[c] == "O")
            state = ut.State(tuple(x), tuple(o), None)
            assert ut.small_winner(state, board) == board_owner(grid, board)
            assert ut.is_closed(state, board) == board_closed(grid, board)


def test_the_forced_board_is_the_last_cell_unless_that_board_is_closed() -> None:
    state = ut.result(ut.initial_state(), (4, 2))
    assert ut.forced_board(state) == 2
    assert ut.actions(state) == {(2, c) for c in range(9)}
    # X owns board 0, and O's last cell 0 sends X there: the board is closed, X moves anywhere.
    state = x_owns_board_0()
    assert ut.small_winner(state, 0) == "X"
    assert ut.forced_board(state) is None
    assert {b for b, _ in ut.actions(state)} == set(range(1, 9))
    assert ut.forced_board(ut.result(state, (2, 5))) == 5


def x_owns_board_0() -> ut.State:
    return position([(0, 0), (0, 1), (0, 2)], [(1, 0), (2, 0), (3, 0)], (3, 0))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ((9, 0), "integers 0-8"),
        ((0, -1), "integers 0-8"),
        ((0,), "integers 0-8"),
        ("a", "integers 0-8"),
        ((0.0, 1), "integers 0-8"),
        ((True, 1), "integers 0-8"),
        ((3, 0), "must be in small board 4, not 3"),
        ((4, 2), "cell 2 of small board 4 is taken"),
    ],
)
def test_illegal_actions_raise_a_value_error_that_names_the_fault(action, message) -> None:
    # X played board 4 cell 2, sending O to board 2; O's cell 4 there sends X to board 4.
    state = ut.result(ut.result(ut.initial_state(), (4, 2)), (2, 4))
    with pytest.raises(ut.IllegalMove, match=message):
        ut.result(state, action)
    assert issubclass(ut.IllegalMove, ValueError)


def test_a_closed_board_cannot_be_played_even_with_free_cells() -> None:
    with pytest.raises(ut.IllegalMove, match="small board 0 is closed"):
        ut.result(x_owns_board_0(), (0, 8))


def test_a_finished_game_has_no_moves_and_no_choice() -> None:
    for state, _, _ in random_games(20, seed=3):
        if ut.terminal(state):
            assert ut.actions(state) == set()
            with pytest.raises(ValueError, match="over"):
                ut.choose(state, "easy", random.Random(0))
            with pytest.raises(ut.IllegalMove, match="over"):
                ut.result(state, (0, 0))


def test_states_are_immutable_hashable_values_that_pickle() -> None:
    state = ut.result(ut.initial_state(), (4, 4))
    same = ut.result(ut.initial_state(), (4, 4))
    assert state == same
    assert hash(state) == hash(same)
    assert {state, same} == {state}
    assert pickle.loads(pickle.dumps(state)) == state
    with pytest.raises(AttributeError):
        state.last = (0, 0)  # type: ignore[misc]
    before = ut.cells(state)
    ut.result(state, (4, 0))
    assert ut.cells(state) == before


def test_cells_and_from_cells_round_trip_on_random_games() -> None:
    for state, _, _ in random_games(30, seed=4):
        assert ut.from_cells(ut.cells(state), state.last) == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda grid: grid.__setitem__(0, "X"), "cannot arise"),
        (lambda grid: grid.__setitem__(80, "Q"), "81 cells"),
    ],
)
def test_from_cells_refuses_impossible_positions(change, message) -> None:
    grid = list(ut.cells(ut.result(ut.initial_state(), (4, 4))))
    change(grid)
    with pytest.raises(ValueError, match=message):
        ut.from_cells(grid, (4, 4))


def test_from_cells_checks_the_last_move_against_the_marks() -> None:
    grid = ut.cells(ut.result(ut.initial_state(), (4, 4)))
    with pytest.raises(ValueError, match="must hold X"):
        ut.from_cells(grid, (4, 5))
    with pytest.raises(ValueError, match="exactly when"):
        ut.from_cells(grid, None)


# --- the AI -----------------------------------------------------------------------------


def position(x_cells: list[tuple[int, int]], o_cells: list[tuple[int, int]], last) -> ut.State:
    grid: list[str | None] = [None] * 81
    for board, cell in x_cells:
        grid[9 * board + cell] = "X"
    for board, cell in o_cells:
        grid[9 * board + cell] = "O"
    return ut.from_cells(grid, last)


# X owns boards 0 and 1 and has cells 0 and 1 of board 2: cell 2 there wins the game.
X_THREAT = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1)]
O_SCATTERED = [(3, 0), (3, 1), (5, 0), (5, 1), (6, 0), (6, 1), (7, 0), (7, 1)]


def one_move_from_winning() -> ut.State:
    """X to move anywhere (O's last cell 1 sends X to board 1, which is closed)."""
    return position(X_THREAT, O_SCATTERED, (7, 1))


@pytest.mark.parametrize("level", ut.DIFFICULTIES)
def test_every_level_takes_an_immediate_game_win(level: str) -> None:
    state = one_move_from_winning()
    assert ut.player(state) == "X"
    assert (2, 2) in ut.actions(state)
    for seed in range(5):
        analysis = ut.analyse(state, level, random.Random(seed), playouts=50)
        if level == "easy" and analysis.action != (2, 2):
            continue  # easy blunders on purpose now and then
        assert analysis.action == (2, 2)
        assert ut.winner(ut.result(state, analysis.action)) == "X"
        assert analysis.reason is ut.Reason.WINS_GAME
        assert analysis.value == 1.0


def test_a_block_of_a_game_winning_cell_is_named_so() -> None:
    # X's last cell 2 sends O to board 2, where X threatens the cell that wins it the game.
    o_cells = [(4, 0), (4, 1), (4, 2), (8, 0), (8, 1), (8, 2), (7, 0), (7, 1)]
    state = position([*X_THREAT, (5, 2)], o_cells, (5, 2))
    assert ut.player(state) == "O"
    assert ut.forced_board(state) == 2
    blocked = 0
    for seed in range(6):
        analysis = ut.analyse(state, "hard", random.Random(seed), playouts=300)
        assert analysis.value < 0.5  # X's two boards and threat weigh more than O's two boards
        if analysis.action == (2, 2):
            blocked += 1
            assert (analysis.reason, analysis.board) == (ut.Reason.BLOCKS_GAME, 2)
        else:
            assert analysis.reason is not ut.Reason.BLOCKS_GAME
    assert blocked >= 3


@pytest.mark.parametrize("level", ut.DIFFICULTIES)
def test_choose_returns_legal_moves_through_whole_games(level: str) -> None:
    rng = random.Random(7)
    state = ut.initial_state()
    while not ut.terminal(state):
        move = ut.choose(state, level, rng, playouts=30)
        assert move in ut.actions(state)
        state = ut.result(state, move)


def test_a_playout_cap_is_honoured_and_makes_the_search_reproducible() -> None:
    state = ut.result(ut.initial_state(), (4, 4))
    first = ut.analyse(state, "impossible", random.Random(3), playouts=120)
    second = ut.analyse(state, "impossible", random.Random(3), playouts=120)
    assert first == second
    assert first.playouts == 120
    assert 0.0 <= first.value <= 1.0
    assert first.action in ut.actions(state)


def test_a_spent_time_budget_stops_the_search_after_one_playout() -> None:
    state = ut.result(ut.initial_state(), (4, 4))
    assert ut.analyse(state, "impossible", random.Random(1), budget=0.0).playouts == 1
    assert ut.analyse(state, "hard", random.Random(1), budget=0.0, playouts=50).playouts == 1


def test_a_single_legal_move_is_played_after_a_short_estimate() -> None:
    # O must answer in board 2, where only cell 8 is free.
    state = position(
        [(2, 0), (2, 2), (2, 3), (2, 7), (4, 2)], [(2, 1), (2, 4), (2, 5), (2, 6)], (4, 2)
    )
    assert ut.actions(state) == {(2, 8)}
    analysis = ut.analyse(state, "impossible", random.Random(1))
    assert analysis.action == (2, 8)
    assert analysis.playouts <= 100


def test_levels_search_less_in_order() -> None:
    budgets = [ut.LEVELS[level].budget for level in ut.DIFFICULTIES]
    assert budgets == sorted(budgets)
    assert budgets[-1] <= 1.0
    assert ut.LEVELS["easy"].playouts == 0
    assert ut.LEVELS["medium"].playouts is not None
    assert ut.LEVELS["impossible"].blunder == 0.0


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="level must be one of"):
        ut.choose(ut.initial_state(), "expert")


def test_easy_beats_random_play() -> None:
    rng = random.Random(5)
    score = 0.0
    games = 40
    for number in range(games):
        easy = "X" if number % 2 == 0 else "O"
        state = ut.initial_state()
        while not ut.terminal(state):
            if ut.player(state) == easy:
                move = ut.choose(state, "easy", rng)
            else:
                move = rng.choice(sorted(ut.actions(state)))
            state = ut.result(state, move)
        won = ut.winner(state)
        score += 1.0 if won == easy else 0.5 if won is None else 0.0
    assert score >= 0.75 * games


def test_a_move_that_takes_a_board_is_named_so() -> None:
    # O's last cell 4 sends X to board 4, where X's cells 0 and 1 make cell 2 take the board.
    state = position([(4, 0), (4, 1), (7, 3)], [(0, 4), (1, 4), (3, 4)], (3, 4))
    took = 0
    for seed in range(6):
        analysis = ut.analyse(state, "medium", random.Random(seed), playouts=200)
        if analysis.action == (4, 2):
            took += 1
            assert (analysis.reason, analysis.board) == (ut.Reason.TAKES_BOARD, 4)
        else:
            assert analysis.reason is not ut.Reason.TAKES_BOARD
    assert took >= 1


# --- OpenSpiel as a referee -------------------------------------------------------------


def test_openspiel_agrees_on_moves_and_winners() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    rng = random.Random(8)
    outcomes = set()
    for _ in range(200):
        state, spiel = ut.initial_state(), game.new_initial_state()
        while not ut.terminal(state):
            assert not spiel.is_terminal()
            # Where the move is free, OpenSpiel first picks a board (actions 0-8), then a cell.
            if ut.forced_board(state) is None:
                boards = spiel.legal_actions()
                assert set(boards) == {b for b, _ in ut.actions(state)}
                board = rng.choice(boards)
                spiel.apply_action(board)
            else:
                board = ut.forced_board(state)
            assert {(board, c) for c in spiel.legal_actions()} == {
                move for move in ut.actions(state) if move[0] == board
            }
            cell = rng.choice(spiel.legal_actions())
            spiel.apply_action(cell)
            state = ut.result(state, (board, cell))
        assert spiel.is_terminal()
        returns = spiel.returns()
        expected = "X" if returns[0] > 0 else "O" if returns[1] > 0 else None
        assert ut.winner(state) == expected
        outcomes.add(expected)
    assert outcomes == {"X", "O", None}
