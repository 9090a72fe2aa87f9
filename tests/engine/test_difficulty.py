"""Difficulty levels of choose_move: strength against a perfect player, and what each level sees."""

import random

import pytest
from brute_force import (
    best_moves,
    is_over,
    mover,
    other,
    reachable_positions,
    to_action,
    to_board,
    to_index,
    winning_cells,
)

from tictactoe import (
    DIFFICULTIES,
    EMPTY,
    Board,
    X,
    actions,
    best_actions,
    choose_move,
    initial_state,
    player,
    result,
    terminal,
    utility,
)

GAMES_PER_LEVEL = 2000
SEEDS = (0, 1, 2, 3, 4)


def play_game(level, level_plays_x, rng):
    """One game of `level` against a perfect player; returns the moves and the board's utility."""
    board = initial_state()
    moves = []
    while not terminal(board):
        mine = (player(board) == X) == level_plays_x
        move = choose_move(board, level if mine else "impossible", rng)
        assert move is not None
        moves.append(move)
        board = result(board, move)
    return moves, utility(board)


@pytest.fixture(scope="module")
def tallies():
    """Win/draw/loss counts of the perfect player against each level, sides alternating."""
    counts = {}
    for level in DIFFICULTIES:
        rng = random.Random(f"tallies-{level}")
        tally = {"perfect wins": 0, "draws": 0, "level wins": 0}
        for game in range(GAMES_PER_LEVEL):
            level_plays_x = game % 2 == 0
            _, value = play_game(level, level_plays_x, rng)
            if value == 0:
                tally["draws"] += 1
            elif (value == 1) == level_plays_x:
                tally["level wins"] += 1
            else:
                tally["perfect wins"] += 1
        counts[level] = tally
    return counts


@pytest.fixture(scope="module")
def positions():
    return reachable_positions()


def test_the_levels_are_named():
    assert DIFFICULTIES == ("easy", "medium", "hard", "impossible")


# --- strength -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "minimum_share"), [("easy", 0.50), ("medium", 0.25), ("hard", 0.05)]
)
def test_a_perfect_player_beats_the_level_often_enough(tallies, level, minimum_share):
    tally = tallies[level]
    assert sum(tally.values()) == GAMES_PER_LEVEL
    assert tally["perfect wins"] >= minimum_share * GAMES_PER_LEVEL, tally


def test_impossible_never_loses_to_a_perfect_player(tallies):
    assert tallies["impossible"] == {"perfect wins": 0, "draws": GAMES_PER_LEVEL, "level wins": 0}


def test_nobody_beats_a_perfect_player(tallies):
    assert all(tally["level wins"] == 0 for tally in tallies.values()), tallies


def test_the_levels_get_stronger_in_order(tallies):
    losses = [tallies[level]["perfect wins"] for level in DIFFICULTIES]
    assert losses[0] > losses[1] > losses[2] > losses[3] == 0, tallies


# --- reproducibility and contract ---------------------------------------------------------------


@pytest.mark.parametrize("level", DIFFICULTIES)
def test_the_same_seed_replays_the_same_game(level):
    for seed in range(10):
        first = play_game(level, seed % 2 == 0, random.Random(seed))
        again = play_game(level, seed % 2 == 0, random.Random(seed))
        assert first == again


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_different_seeds_give_different_games(level):
    games = {tuple(play_game(level, True, random.Random(seed))[0]) for seed in range(20)}
    assert len(games) > 1


@pytest.mark.parametrize("level", DIFFICULTIES)
def test_choose_move_returns_a_legal_action_everywhere(level, positions):
    rng = random.Random(level)
    for cells in positions:
        board = to_board(cells)
        move = choose_move(board, level, rng)
        if is_over(cells):
            assert move is None, cells
        else:
            assert move in actions(board), cells
            assert isinstance(move, tuple), cells


@pytest.mark.parametrize("level", DIFFICULTIES)
def test_choose_move_returns_none_on_a_finished_board(level):
    x_won: Board = [["X", "X", "X"], ["O", "O", EMPTY], [EMPTY, EMPTY, EMPTY]]
    draw: Board = [["X", "O", "X"], ["X", "O", "O"], ["O", "X", "X"]]
    assert choose_move(x_won, level, random.Random(0)) is None
    assert choose_move(draw, level, random.Random(0)) is None


def test_choose_move_works_without_an_rng():
    assert choose_move(initial_state()) in actions(initial_state())
    assert choose_move(initial_state(), "easy") in actions(initial_state())


@pytest.mark.parametrize("name", ["expert", "Impossible", "EASY", "", None, 3])
def test_an_unknown_difficulty_is_a_value_error(name):
    with pytest.raises(ValueError, match=r"difficulty must be one of"):
        choose_move(initial_state(), name, random.Random(0))


# --- what each level sees -----------------------------------------------------------------------


def threats(cells):
    """(cells where the mover wins at once, cells where the opponent would win at once)."""
    me = mover(cells)
    return winning_cells(cells, me), winning_cells(cells, other(me))


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "impossible"])
def test_every_level_takes_a_win_in_one(level, positions):
    checked = 0
    for cells in positions:
        if is_over(cells):
            continue
        wins, _ = threats(cells)
        if not wins:
            continue
        for seed in SEEDS:
            move = choose_move(to_board(cells), level, random.Random(seed))
            assert to_index(move) in wins, (cells, seed)
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("level", ["medium", "hard", "impossible"])
def test_medium_and_up_block_a_single_threat(level, positions):
    checked = 0
    for cells in positions:
        if is_over(cells):
            continue
        wins, blocks = threats(cells)
        if wins or len(blocks) != 1:
            continue
        for seed in SEEDS:
            move = choose_move(to_board(cells), level, random.Random(seed))
            assert to_index(move) in blocks, (cells, seed)
        checked += 1
    assert checked > 500


def test_easy_does_not_always_block(positions):
    missed = 0
    for cells in positions:
        if is_over(cells):
            continue
        wins, blocks = threats(cells)
        if wins or len(blocks) != 1:
            continue
        for seed in SEEDS:
            missed += (
                to_index(choose_move(to_board(cells), "easy", random.Random(seed))) not in blocks
            )
    assert missed > 0


def test_medium_makes_mistakes_that_perfect_play_would_not(positions):
    rng = random.Random(11)
    mistakes = 0
    for cells in positions:
        if is_over(cells):
            continue
        mistakes += to_index(choose_move(to_board(cells), "medium", rng)) not in best_moves(cells)
    assert mistakes > 0


def test_impossible_only_plays_best_actions(positions):
    for cells in positions:
        if is_over(cells):
            continue
        board = to_board(cells)
        allowed = set(best_actions(board))
        assert allowed == {to_action(index) for index in best_moves(cells)}, cells
        for seed in SEEDS:
            assert choose_move(board, "impossible", random.Random(seed)) in allowed, (cells, seed)


def test_impossible_varies_its_moves_among_equal_ones():
    opening = {
        choose_move(initial_state(), "impossible", random.Random(seed)) for seed in range(50)
    }
    assert len(opening) > 1
    assert opening <= set(best_actions(initial_state()))


def test_impossible_varies_its_replies_too(positions):
    varied = 0
    for cells in positions[:400]:
        if is_over(cells) or len(best_moves(cells)) < 2:
            continue
        board = to_board(cells)
        replies = {choose_move(board, "impossible", random.Random(seed)) for seed in range(20)}
        varied += len(replies) > 1
    assert varied > 0


def test_hard_slips_on_about_a_quarter_of_its_turns(positions):
    # Hard plays perfectly except on about a quarter of its turns, where it sees like medium:
    # so it makes a mistake about a quarter as often as medium does, and not never.
    playable = [cells for cells in positions if not is_over(cells)]
    mistakes = {}
    for level in ("medium", "hard"):
        rng = random.Random(f"slips-{level}")
        mistakes[level] = sum(
            to_index(choose_move(to_board(cells), level, rng)) not in best_moves(cells)
            for _ in range(3)
            for cells in playable
        )
    assert mistakes["medium"] > 300, mistakes
    assert 0.1 * mistakes["medium"] < mistakes["hard"] < 0.4 * mistakes["medium"], mistakes
