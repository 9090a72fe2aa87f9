"""Hints and reviews against the independent brute force, exhaustively, plus worked examples."""

import random
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from brute_force import (
    EASY_LEVEL,
    EMPTY_POSITION,
    HARD_LEVEL,
    MEDIUM_LEVEL,
    X_MARK,
    best_moves,
    empties,
    fork_cells,
    holding_moves,
    is_over,
    level_chances,
    move_outcome,
    mover,
    other,
    paths_to_positions,
    play,
    reachable_positions,
    solve,
    to_action,
    to_board,
    verdict_of,
    winner_of,
    winning_cells,
)

import tictactoe
from tictactoe import (
    EMPTY,
    CellOutcome,
    GameResult,
    Hint,
    LineShape,
    MoveReview,
    O,
    Outcome,
    Reason,
    ReasonKind,
    Review,
    Value,
    Verdict,
    X,
    best_actions,
    cell_action,
    cell_number,
    hint,
    initial_state,
    line_shape,
    review,
)
from tictactoe.review import winning_chances

REPO_ROOT = Path(__file__).resolve().parents[2]

E = EMPTY
OUTCOME_OF_SCORE = {1: Outcome.WIN, 0: Outcome.DRAW, -1: Outcome.LOSS}
CORNER_INDEXES = {0, 2, 6, 8}
CENTRE_INDEX = 4
# The eight lines as cell numbers 1-9, written out here rather than taken from the engine.
NUMBERED_LINES = {
    (1, 2, 3): LineShape.ROW,
    (4, 5, 6): LineShape.ROW,
    (7, 8, 9): LineShape.ROW,
    (1, 4, 7): LineShape.COLUMN,
    (2, 5, 8): LineShape.COLUMN,
    (3, 6, 9): LineShape.COLUMN,
    (1, 5, 9): LineShape.DIAGONAL,
    (3, 5, 7): LineShape.DIAGONAL,
}


@pytest.fixture(scope="module")
def positions():
    return reachable_positions()


@pytest.fixture(scope="module")
def hints(positions):
    """Every non-terminal reachable position with its hint."""
    return {cells: hint(to_board(cells)) for cells in positions if not is_over(cells)}


def number(index):
    return index + 1


def numbers(indexes):
    return tuple(sorted(number(index) for index in indexes))


def actions_of(indexes):
    return frozenset(to_action(index) for index in indexes)


def value_of(score, plies):
    """The expected Value for a (score, plies) pair of the brute force."""
    return Value(OUTCOME_OF_SCORE[score], plies, own_moves=(plies + 1) // 2)


def after_move(cells, index):
    return play(cells, index)


# --- cells -------------------------------------------------------------------------------------


def test_cells_are_numbered_row_by_row_from_the_top_left():
    assert [cell_number((i, j)) for i in range(3) for j in range(3)] == list(range(1, 10))
    for n in range(1, 10):
        assert cell_number(cell_action(n)) == n
    assert cell_action(1) == (0, 0)
    assert cell_action(6) == (1, 2)
    assert cell_action(7) == (2, 0)


@pytest.mark.parametrize("bad", [0, 10, -1, True, "5", 5.0, None])
def test_cell_action_rejects_anything_but_1_to_9(bad):
    with pytest.raises(ValueError, match="numbered 1 to 9"):
        cell_action(bad)


@pytest.mark.parametrize("bad", [(3, 0), (0, 3), (-1, 0)])
def test_cell_number_rejects_actions_off_the_board(bad):
    with pytest.raises(ValueError, match="off the board"):
        cell_number(bad)


def test_line_shapes():
    for line, shape in NUMBERED_LINES.items():
        assert line_shape(line) is shape


# --- hints against the brute force, on every reachable position ---------------------------------


def test_hint_gives_every_empty_cells_outcome_and_the_best_moves(positions, hints):
    assert len(hints) == 4520
    for cells, advice in hints.items():
        assert advice.player == mover(cells), cells
        assert [cell.number for cell in advice.cells] == [number(i) for i in empties(cells)]
        for cell, index in zip(advice.cells, empties(cells), strict=True):
            score, plies = move_outcome(cells, index)
            assert cell == CellOutcome(
                to_action(index), number(index), OUTCOME_OF_SCORE[score], plies, (plies + 1) // 2
            ), cells
            assert cell.value == value_of(score, plies)
        assert advice.best == actions_of(best_moves(cells)), cells
        assert advice.best == frozenset(best_actions(to_board(cells))), cells
        assert advice.value == value_of(*solve(cells)), cells


def test_own_moves_count_the_players_moves_to_the_end():
    # X to move wins at once on cell 3.
    advice = hint([[X, X, E], [O, O, E], [E, E, E]])
    by_number = {cell.number: cell for cell in advice.cells}
    assert (by_number[3].outcome, by_number[3].plies, by_number[3].own_moves) == (Outcome.WIN, 1, 1)
    # Leaving cell 6 to O loses on O's next move: two plies, one move of each player.
    assert (by_number[9].outcome, by_number[9].plies, by_number[9].own_moves) == (
        Outcome.LOSS,
        2,
        1,
    )


def test_hint_refuses_finished_and_impossible_boards(positions):
    for cells in positions:
        if is_over(cells):
            with pytest.raises(ValueError, match="game is over"):
                hint(to_board(cells))
    with pytest.raises(ValueError, match="mark counts"):
        hint([[O, E, E], [E, E, E], [E, E, E]])
    with pytest.raises(ValueError, match="list of 3 rows"):
        hint([[E, E, E], [E, E, E]])


def test_hint_leaves_the_board_alone():
    board = [[X, E, E], [E, O, E], [E, E, X]]
    hint(board)
    assert board == [[X, E, E], [E, O, E], [E, E, X]]


# --- reasons: the chosen tag, and what each tag claims, on every reachable position -------------


def expected_kind(cells):
    """The tag, in the documented order, from the brute force's own notions."""
    me = mover(cells)
    them = other(me)
    threats = winning_cells(cells, them)
    score, _ = solve(cells)
    scores = {move_outcome(cells, index)[0] for index in empties(cells)}
    best = best_moves(cells)
    if winning_cells(cells, me):
        return ReasonKind.WIN_NOW
    if len(threats) == 1:
        return ReasonKind.BLOCK
    if threats:
        return ReasonKind.LOST_FORK
    if fork_cells(cells, me):
        return ReasonKind.FORK
    if score == 1:
        return ReasonKind.FORCE_WIN
    if score == -1:
        return ReasonKind.UNSTOPPABLE_FORK
    if scores == {0}:
        return ReasonKind.ANY_DRAWS
    if fork_cells(cells, them):
        return ReasonKind.BLOCK_FORK
    if best == {CENTRE_INDEX}:
        return ReasonKind.CENTRE
    if best <= CORNER_INDEXES:
        return ReasonKind.CORNER
    return ReasonKind.KEEP_DRAW


def test_every_reason_is_the_first_tag_that_applies(hints):
    seen = set()
    for cells, advice in hints.items():
        assert advice.reason.kind is expected_kind(cells), cells
        seen.add(advice.reason.kind)
    assert seen == set(ReasonKind)


def test_every_reason_says_only_true_things(hints):
    for cells, advice in hints.items():
        reason = advice.reason
        me, them = mover(cells), other(mover(cells))
        assert reason.opponent == them
        best_numbers = set(numbers(best_moves(cells)))
        outcomes = {index: move_outcome(cells, index) for index in empties(cells)}
        # Whatever the tag, the cells it recommends are best moves, listed in order, once.
        assert set(reason.cells) <= best_numbers, cells
        assert list(reason.cells) == sorted(set(reason.cells)), cells
        assert list(reason.opponent_cells) == sorted(set(reason.opponent_cells)), cells
        if reason.kind in (ReasonKind.WIN_NOW, ReasonKind.BLOCK):
            assert reason.line in NUMBERED_LINES, cells
            assert reason.line_shape is NUMBERED_LINES[reason.line]
        else:
            assert reason.line is None, cells
            assert reason.line_shape is None
        check = CLAIMS[reason.kind]
        check(cells, reason, me, them, best_numbers, outcomes)


def claims_win_now(cells, reason, me, them, best_numbers, outcomes):
    # Exactly the cells that complete a line, which are exactly the best moves.
    assert set(reason.cells) == set(numbers(winning_cells(cells, me))) == best_numbers
    assert reason.opponent_cells == ()
    for n in reason.cells:
        assert winner_of(after_move(cells, n - 1)) == me
        assert outcomes[n - 1] == (1, 1)
    first, line = reason.cells[0], reason.line
    assert first in line
    assert all(cells[n - 1] == me for n in line if n != first)


def claims_block(cells, reason, me, them, best_numbers, outcomes):
    (block,) = reason.cells
    assert reason.opponent_cells == (block,)
    assert block in reason.line
    assert all(cells[n - 1] == them for n in reason.line if n != block)
    assert best_numbers == {block}
    # Every other move leaves the line open: the opponent completes it next move.
    for index in empties(cells):
        if number(index) != block:
            assert block - 1 in winning_cells(after_move(cells, index), them)
            assert outcomes[index] == (-1, 2)
    assert not winning_cells(after_move(cells, block - 1), them)


def claims_lost_fork(cells, reason, me, them, best_numbers, outcomes):
    assert reason.cells == ()
    assert len(reason.opponent_cells) >= 2
    assert set(reason.opponent_cells) == set(numbers(winning_cells(cells, them)))
    # Whatever you play, a winning cell is left for the opponent.
    for index in empties(cells):
        assert winning_cells(after_move(cells, index), them)
        assert outcomes[index] == (-1, 2)


def claims_fork(cells, reason, me, them, best_numbers, outcomes):
    assert set(reason.cells) == set(numbers(fork_cells(cells, me))) == best_numbers
    assert reason.opponent_cells == ()
    for n in reason.cells:
        after = after_move(cells, n - 1)
        assert len(winning_cells(after, me)) >= 2
        assert not winning_cells(after, them)
        assert outcomes[n - 1] == (1, 3)


def claims_force_win(cells, reason, me, them, best_numbers, outcomes):
    assert set(reason.cells) == best_numbers
    assert reason.opponent_cells == ()
    for n in reason.cells:
        assert winning_cells(after_move(cells, n - 1), me), "each makes a threat"
        assert outcomes[n - 1][0] == 1


def claims_block_fork(cells, reason, me, them, best_numbers, outcomes):
    assert set(reason.opponent_cells) == set(numbers(fork_cells(cells, them))) != set()
    assert set(reason.cells) == best_numbers
    for n in reason.cells:
        after = after_move(cells, n - 1)
        # It stops the fork: either no fork is left, or a threat the opponent must answer.
        assert not fork_cells(after, them) or winning_cells(after, me)
        assert outcomes[n - 1][0] == 0
    assert any(outcome[0] == -1 for outcome in outcomes.values()), "some move lets it through"


def claims_unstoppable_fork(cells, reason, me, them, best_numbers, outcomes):
    assert reason.cells == ()
    assert set(reason.opponent_cells) == set(numbers(fork_cells(cells, them))) != set()
    assert all(outcome[0] == -1 for outcome in outcomes.values())


def claims_centre(cells, reason, me, them, best_numbers, outcomes):
    assert reason.cells == (5,)
    assert best_numbers == {5}
    assert reason.opponent_cells == ()
    assert all(outcome[0] == -1 for index, outcome in outcomes.items() if index != CENTRE_INDEX)


def claims_corner(cells, reason, me, them, best_numbers, outcomes):
    assert set(reason.cells) == best_numbers <= set(numbers(CORNER_INDEXES))
    assert reason.opponent_cells == ()
    assert all(
        outcome[0] == -1 for index, outcome in outcomes.items() if number(index) not in best_numbers
    )


def claims_keep_draw(cells, reason, me, them, best_numbers, outcomes):
    assert set(reason.cells) == best_numbers
    assert reason.opponent_cells == ()
    for index, outcome in outcomes.items():
        assert outcome[0] == (0 if number(index) in best_numbers else -1)


def claims_any_draws(cells, reason, me, them, best_numbers, outcomes):
    assert reason.cells == reason.opponent_cells == ()
    assert all(outcome[0] == 0 for outcome in outcomes.values())


CLAIMS = {
    ReasonKind.WIN_NOW: claims_win_now,
    ReasonKind.BLOCK: claims_block,
    ReasonKind.LOST_FORK: claims_lost_fork,
    ReasonKind.FORK: claims_fork,
    ReasonKind.FORCE_WIN: claims_force_win,
    ReasonKind.BLOCK_FORK: claims_block_fork,
    ReasonKind.UNSTOPPABLE_FORK: claims_unstoppable_fork,
    ReasonKind.CENTRE: claims_centre,
    ReasonKind.CORNER: claims_corner,
    ReasonKind.KEEP_DRAW: claims_keep_draw,
    ReasonKind.ANY_DRAWS: claims_any_draws,
}


# --- chances against a level, on every reachable position ---------------------------------------


@cache
def brute_win_chance(cells, me, level):
    """`me`'s chance to win after their move to `cells`, the level replying as its description
    says and `me` then playing whichever move that keeps their perfect-play result wins most."""
    if is_over(cells):
        return Fraction(1 if winner_of(cells) == me else 0)
    total = Fraction(0)
    for reply, share in level_chances(cells, level).items():
        after = play(cells, reply)
        if not is_over(after):
            total += share * max(
                brute_win_chance(play(after, move), me, level) for move in holding_moves(after)
            )
    return total


@pytest.mark.parametrize("level", [EASY_LEVEL, MEDIUM_LEVEL, HARD_LEVEL])
def test_winning_chances_against_a_level_match_the_brute_force(positions, level):
    for cells in positions:
        chances = winning_chances(to_board(cells), level)
        if is_over(cells):
            assert chances == {}
            continue
        me = mover(cells)
        expected = {
            to_action(index): brute_win_chance(play(cells, index), me, level)
            for index in holding_moves(cells)
        }
        assert chances == expected, cells


def test_a_perfect_opponent_leaves_no_chance_beyond_perfect_play(positions):
    for cells in positions:
        if is_over(cells):
            continue
        score, _ = solve(cells)
        chances = winning_chances(to_board(cells), "impossible")
        assert set(chances.values()) == {Fraction(1 if score > 0 else 0)}, cells


def test_against_easy_a_corner_opening_wins_most_often():
    chances = winning_chances(initial_state(), EASY_LEVEL)
    best = max(chances.values())
    assert {action for action, chance in chances.items() if chance == best} == {
        (0, 0),
        (0, 2),
        (2, 0),
        (2, 2),
    }
    assert Fraction(99, 100) < best < 1


def test_winning_chances_refuse_an_unknown_level():
    with pytest.raises(ValueError, match="difficulty"):
        winning_chances(initial_state(), "brutal")
    with pytest.raises(ValueError, match="difficulty"):
        winning_chances(to_board(("X", "X", "X", "O", "O", None, None, None, None)), "brutal")


# --- reviews against the brute force ------------------------------------------------------------


@cache
def expected_move(cells, index):
    """The MoveReview the brute force expects for playing `index` on `cells`."""
    return MoveReview(
        ply=10 - len(empties(cells)),
        player=mover(cells),
        action=to_action(index),
        number=number(index),
        verdict=Verdict(verdict_of(cells, index)),
        before=value_of(*solve(cells)),
        after=value_of(*move_outcome(cells, index)),
        best=actions_of(best_moves(cells)),
        held_by=actions_of(holding_moves(cells)),
    )


def expected_result(cells):
    won = winner_of(cells)
    if won is not None:
        return GameResult.X_WON if won == X_MARK else GameResult.O_WON
    return GameResult.DRAW if is_over(cells) else GameResult.UNFINISHED


def check_review(indexes):
    """Review a game given as cell indexes and compare everything with the brute force."""
    game = review([to_action(index) for index in indexes])
    cells = EMPTY_POSITION
    expected = []
    for index in indexes:
        expected.append(expected_move(cells, index))
        cells = play(cells, index)
    assert list(game.moves) == expected, indexes
    mistakes = [move for move in expected if move.verdict is Verdict.MISTAKE]
    assert game.first_mistake == (mistakes[0] if mistakes else None), indexes
    assert game.result is expected_result(cells), indexes
    assert game.board == tuple(tuple(row) for row in to_board(cells)), indexes
    return game


def test_review_judges_every_move_from_every_reachable_position():
    """Each of the 16,167 (position, move) pairs, within complete games.

    A move's review depends on the position before it and on nothing else, so checking every
    pair checks every move of all 255,168 complete games; `first_mistake` and `result`, which
    depend on the whole game, are checked on each game reviewed here and on the random ones
    below. Each game is steered through pairs not checked yet, so that about 5,000 games cover
    them all, instead of one review per pair.
    """
    paths = paths_to_positions()
    unchecked = {
        (cells, index) for cells in paths if not is_over(cells) for index in empties(cells)
    }
    assert len(unchecked) == 16167
    games = 0
    for cells, index in sorted(
        unchecked, key=lambda pair: (len(paths[pair[0]]), paths[pair[0]], pair[1])
    ):
        if (cells, index) not in unchecked:
            continue
        indexes = [*paths[cells], index]
        position = play(cells, index)
        while not is_over(position):
            fresh = [i for i in empties(position) if (position, i) in unchecked]
            indexes.append((fresh or empties(position))[0])
            position = play(position, indexes[-1])
        check_review(indexes)
        games += 1
        position = EMPTY_POSITION
        for played in indexes:
            unchecked.discard((position, played))
            position = play(position, played)
    assert not unchecked
    assert games < 5000


def test_review_of_random_complete_games():
    rng = random.Random(2024)
    verdicts: set[Verdict] = set()
    for _ in range(1500):
        cells, indexes = EMPTY_POSITION, []
        while not is_over(cells):
            indexes.append(rng.choice(empties(cells)))
            cells = play(cells, indexes[-1])
        game = check_review(indexes)
        assert game.result is not GameResult.UNFINISHED
        verdicts.update(move.verdict for move in game.moves)
    assert verdicts == set(Verdict)


def test_perfect_play_is_reviewed_as_all_best_and_a_draw():
    board = initial_state()
    moves: list[tictactoe.Action] = []
    while not tictactoe.terminal(board):
        action = tictactoe.minimax(board)
        assert action is not None
        moves.append(action)
        board = tictactoe.result(board, action)
    game = review(moves)
    assert [move.verdict for move in game.moves] == [Verdict.BEST] * 9
    assert game.first_mistake is None
    assert game.result is GameResult.DRAW


def test_an_empty_game_is_unfinished():
    game = review([])
    assert game == Review(moves=(), result=GameResult.UNFINISHED, board=((E, E, E),) * 3)
    assert game.first_mistake is None


def test_review_accepts_lists_and_stops_anywhere():
    game = review([[1, 1], [0, 0]])  # type: ignore[list-item]  # lists, not tuples, on purpose
    assert [move.action for move in game.moves] == [(1, 1), (0, 0)]
    assert game.result is GameResult.UNFINISHED
    assert game.board == ((O, E, E), (E, X, E), (E, E, E))


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([(1, 1), (1, 1)], r"^move 2: cell \(1, 1\) is already taken by X"),
        ([(0, 0), (3, 0)], r"^move 2: action \(3, 0\) is off the board"),
        ([(0,)], r"^move 1: an action must be a pair"),
        (["a1"], r"^move 1: an action must be a pair"),
        ([(True, 0)], r"^move 1: an action must be a pair"),
        # X completes the top row on move 5; a sixth move is too many.
        ([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (2, 2)], r"^move 6 comes after the end"),
        ([(i, j) for i in range(3) for j in range(3)] + [(0, 0)], r"^move 8 comes after the end"),
    ],
)
def test_review_refuses_an_illegal_sequence(moves, message):
    with pytest.raises(ValueError, match=message):
        review(moves)


# --- examples a CS50 student will recognise -----------------------------------------------------


def test_x_corner_o_edge_is_the_classic_mistake():
    game = review([cell_action(1), cell_action(2)])
    first, second = game.moves
    assert first.verdict is Verdict.BEST
    assert second.verdict is Verdict.MISTAKE
    assert second.before == Value(Outcome.DRAW, 8, 4)
    assert second.after.outcome is Outcome.LOSS
    # Only the centre answers a corner.
    assert second.held_by == second.best == {cell_action(5)}
    assert game.first_mistake is second
    assert game.result is GameResult.UNFINISHED


def test_x_centre_o_edge_loses_only_corners_hold():
    game = review([cell_action(5), cell_action(2)])
    assert game.first_mistake is game.moves[1]
    assert game.moves[1].held_by == {cell_action(n) for n in (1, 3, 7, 9)}


def test_a_slower_win_is_inaccurate_not_a_mistake():
    # X 9, O 8, X 6, O 7: X wins at once on 3 (column 3-6-9); 5 still wins, one move later.
    game = review([cell_action(n) for n in (9, 8, 6, 7, 5)])
    last = game.moves[-1]
    assert last.verdict is Verdict.INACCURATE
    assert last.before == Value(Outcome.WIN, 1, 1)
    assert last.after == Value(Outcome.WIN, 3, 2)
    assert last.best == {cell_action(3)}


def test_not_blocking_a_lost_position_is_inaccurate():
    # O is lost after X 9, O 6, X 8 either way; not blocking 7 only loses sooner.
    game = review([cell_action(n) for n in (9, 6, 8, 1)])
    assert game.moves[1].verdict is Verdict.MISTAKE
    last = game.moves[-1]
    assert last.verdict is Verdict.INACCURATE
    assert (last.before.plies, last.after.plies) == (4, 2)
    assert last.best == {cell_action(7)}
    assert game.first_mistake is game.moves[1]


def test_a_won_game_ends_with_the_winner():
    game = review([cell_action(n) for n in (1, 4, 2, 5, 3)])
    assert game.result is GameResult.X_WON
    assert game.moves[-1].after == Value(Outcome.WIN, 1, 1)
    assert review([cell_action(n) for n in (1, 4, 2, 5, 9, 6)]).result is GameResult.O_WON


def test_empty_board_every_move_draws():
    advice = hint(initial_state())
    assert advice.player == X
    assert len(advice.cells) == 9
    assert all(cell.value == Value(Outcome.DRAW, 9, 5) for cell in advice.cells)
    assert advice.reason == Reason(ReasonKind.ANY_DRAWS, O, (), (), None)


def test_answer_a_corner_with_the_centre_and_the_centre_with_a_corner():
    assert hint([[X, E, E], [E, E, E], [E, E, E]]).reason == Reason(
        ReasonKind.CENTRE, X, (5,), (), None
    )
    assert hint([[E, E, E], [E, X, E], [E, E, E]]).reason == Reason(
        ReasonKind.CORNER, X, (1, 3, 7, 9), (), None
    )


def test_win_now_names_the_line():
    advice = hint([[X, X, E], [O, O, E], [E, E, E]])
    assert advice.reason == Reason(ReasonKind.WIN_NOW, O, (3,), (), (1, 2, 3))
    assert advice.reason.line_shape is LineShape.ROW
    assert advice.best == {cell_action(3)}


def test_block_names_the_threatened_diagonal():
    # X 1, O 5, X 9, O 3: O threatens the diagonal 3-5-7.
    advice = hint([[X, E, O], [E, O, E], [E, E, X]])
    assert advice.reason == Reason(ReasonKind.BLOCK, O, (7,), (7,), (3, 5, 7))
    assert advice.reason.line_shape is LineShape.DIAGONAL
    assert advice.best == {cell_action(7)}


def test_opposite_corners_against_the_centre_needs_an_edge():
    # X 1, O 5, X 9: a corner lets X fork at 3 or 7; an edge forces X to block instead.
    advice = hint([[X, E, E], [E, O, E], [E, E, X]])
    assert advice.reason == Reason(ReasonKind.BLOCK_FORK, X, (2, 4, 6, 8), (3, 7), None)


def test_fork_and_lost_fork():
    # X 1, O 2, X 5, O 9: X forks at 4 (lines 4-5-6 and 1-4-7) or at 7 (1-4-7 and 3-5-7).
    board = [[X, O, E], [E, X, E], [E, E, O]]
    assert hint(board).reason == Reason(ReasonKind.FORK, O, (4, 7), (), None)
    forked = tictactoe.result(board, cell_action(4))
    assert hint(forked).reason == Reason(ReasonKind.LOST_FORK, X, (), (6, 7), None)


def test_force_win_after_an_edge_reply():
    # X 1, O 2: X wins by force with a threat first, at 4, 5 or 7.
    advice = hint([[X, O, E], [E, E, E], [E, E, E]])
    assert advice.reason == Reason(ReasonKind.FORCE_WIN, O, (4, 5, 7), (), None)
    assert advice.value == Value(Outcome.WIN, 5, 3)


def test_the_values_are_frozen():
    advice = hint(initial_state())
    with pytest.raises(AttributeError):
        advice.player = O  # type: ignore[misc]  # read-only on purpose: it must raise
    assert isinstance(advice, Hint)


def test_the_package_keeps_review_the_function():
    # The module tictactoe.review and the function share a name; the package gives the function.
    import tictactoe.review as module_or_function

    assert tictactoe.review is review
    assert callable(module_or_function)
    assert "review" in dir(tictactoe)


@pytest.mark.parametrize(
    "code",
    [
        # The engine alone stays as quick to import as before: the review API loads on first use.
        "import sys, tictactoe; assert 'tictactoe.review' not in sys.modules"
        "; assert 'dataclasses' not in sys.modules; assert callable(tictactoe.review)",
        # Importing the submodule first must not leave the module where the function belongs.
        "from tictactoe.review import Hint; import tictactoe; assert callable(tictactoe.review)"
        "; assert tictactoe.Hint is Hint",
        "import tictactoe.cli, tictactoe; assert callable(tictactoe.review)",
        "from tictactoe import *; assert callable(review) and callable(hint)",
    ],
)
def test_how_the_review_api_is_imported(code):
    process = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )
    assert process.returncode == 0, process.stderr
