"""The puzzles, exhaustively, against the independent brute force in brute_force.py: the set, every
step of every correct line in every orientation, every wrong move, the levels' exact chances, the
encoding, the daily puzzle and the picking."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest
from brute_force import (
    EMPTY_POSITION,
    best_moves,
    empties,
    fork_cells,
    is_over,
    level_chances,
    move_outcome,
    mover,
    other,
    play,
    reachable_positions,
    solve,
    to_board,
    winner_of,
    winning_cells,
)

from tictactoe import EASY, HARD, MEDIUM, ReasonKind, Verdict, choose_move, move_chances
from tictactoe import puzzles as pz
from tictactoe.puzzles import Attempt, Goal, Puzzle, Status, Theme

CENTRE, CORNERS = 4, {0, 2, 6, 8}
OUTCOME_OF_SCORE = {1: "win", 0: "draw", -1: "loss"}


# --- an independent model of the symmetries and of the levels ---------------------------------


def _rotate(index):
    i, j = divmod(index, 3)
    return 3 * j + (2 - i)


def _reflect(index):
    i, j = divmod(index, 3)
    return 3 * i + (2 - j)


def own_symmetries():
    """The 8 symmetries as index maps: 4 rotations, each with and without a reflection."""
    maps = []
    for turns in range(4):
        for flip in (False, True):

            def mapping(index, turns=turns, flip=flip):
                for _ in range(turns):
                    index = _rotate(index)
                return _reflect(index) if flip else index

            maps.append(tuple(mapping(index) for index in range(9)))
    assert len(set(maps)) == 8
    return maps


SYMMETRY_MAPS = own_symmetries()


def image(cells, mapping):
    shown = [None] * 9
    for index, target in enumerate(mapping):
        shown[target] = cells[index]
    return tuple(shown)


def images(cells):
    return {image(cells, mapping) for mapping in SYMMETRY_MAPS}


def cells_of(rows):
    return tuple(cell for row in rows for cell in row)


def index_of(action):
    return 3 * action[0] + action[1]


def indexes(actions):
    return {index_of(action) for action in actions}


def brute_is_puzzle(cells):
    """Not over, the mover can win or draw, and some move throws that away."""
    if is_over(cells):
        return False
    score, _ = solve(cells)
    return score >= 0 and any(move_outcome(cells, index)[0] < score for index in empties(cells))


@cache
def could_lose(cells, me):
    """Whether `me` can still lose from here: any move of theirs, any perfect reply."""
    if is_over(cells):
        return winner_of(cells) == other(me)
    if mover(cells) == me:
        return any(could_lose(play(cells, index), me) for index in empties(cells))
    return any(could_lose(play(cells, index), me) for index in best_moves(cells))


# --- walking every line -------------------------------------------------------------------------


def walk(attempt: Attempt):
    """Every attempt reachable from `attempt` by correct moves, with each (attempt, answer) step
    taken from it, correct and wrong."""
    states, steps = [attempt], []
    frontier = [attempt]
    while frontier:
        current = frontier.pop()
        cells = cells_of(current.board)
        for index in empties(cells):
            step = pz.answer(current, divmod(index, 3))
            steps.append((current, step))
            states.append(step.attempt)
            if step.attempt.status is Status.PLAYING:
                frontier.append(step.attempt)
    return states, steps


@cache
def every_walk():
    """Every puzzle in every orientation, walked."""
    return {
        (found.id, symmetry): walk(pz.start(found, symmetry))
        for found in pz.puzzles()
        for symmetry in range(pz.SYMMETRIES)
    }


def all_steps():
    for states_and_steps in every_walk().values():
        yield from states_and_steps[1]


def all_states():
    for states_and_steps in every_walk().values():
        yield from states_and_steps[0]


# --- the set ----------------------------------------------------------------------------------


def test_the_set_is_every_puzzle_position_once_up_to_symmetry() -> None:
    expected = {cells for cells in reachable_positions() if brute_is_puzzle(cells)}
    # Every puzzle position is an image of exactly one puzzle (its images counted once each).
    owners = Counter(cell for found in pz.puzzles() for cell in images(cells_of(found.board)))
    assert set(owners) == expected
    assert set(owners.values()) == {1}
    assert len(pz.puzzles()) == 431


def test_each_puzzle_is_stored_in_its_canonical_orientation_under_its_id() -> None:
    def number(cells):
        return int("".join("0" if c is None else "1" if c == "X" else "2" for c in cells), 3)

    ids = [found.id for found in pz.puzzles()]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    for found in pz.puzzles():
        cells = cells_of(found.board)
        assert number(cells) == min(number(shown) for shown in images(cells))
        assert re.fullmatch(pz.ID_PATTERN, found.id)
        assert int(found.id, 36) == number(cells)
        assert pz.puzzle(found.id) is found
    with pytest.raises(KeyError):
        pz.puzzle("zzz")


def test_each_puzzle_is_a_reachable_unfinished_position_with_its_facts_right() -> None:
    reachable = set(reachable_positions())
    for found in pz.puzzles():
        cells = cells_of(found.board)
        assert cells in reachable
        assert not is_over(cells)
        assert found.player == mover(cells)
        score, plies = solve(cells)
        assert found.goal is (Goal.WIN if score == 1 else Goal.DRAW)
        assert found.win_in == ((plies + 1) // 2 if score == 1 else 0)
        assert indexes(found.correct) == best_moves(cells)
        assert (Theme.ONLY_MOVE in found.themes) == (len(found.correct) == 1)
        assert found.themes - {Theme.ONLY_MOVE} == {found.theme}
        assert RATING_RANGE[0] <= found.rating <= RATING_RANGE[1]


RATING_RANGE = (pz.RATING_FLOOR, pz.RATING_CEILING)


def test_the_theme_counts() -> None:
    themes = Counter(found.theme for found in pz.puzzles())
    assert themes == {
        Theme.WIN_NOW: 252,
        Theme.BLOCK: 111,
        Theme.BLOCK_FORK: 27,
        Theme.FORK: 26,
        Theme.FORCE_WIN: 10,
        Theme.KEEP_DRAW: 3,
        Theme.CENTRE: 1,
        Theme.CORNER: 1,
    }


def test_find_names_the_puzzle_and_orientation_of_any_position() -> None:
    for cells in reachable_positions():
        found = pz.find(to_board(cells))
        assert (found is not None) == brute_is_puzzle(cells), cells
        if found is not None:
            puzzle, symmetry = found
            assert cells_of(pz.transform(puzzle.board, symmetry)) == cells


# --- every step of every line, in every orientation -------------------------------------------


def test_every_task_says_what_is_true_of_its_position() -> None:
    for attempt in all_states():
        task = attempt.task
        if task is None:
            continue
        cells = cells_of(attempt.board)
        me, them = mover(cells), other(mover(cells))
        score, plies = solve(cells)
        assert (task.player, task.opponent) == (me, them)
        assert task.goal is attempt.puzzle.goal
        assert score == (1 if task.goal is Goal.WIN else 0), "the goal is still on"
        assert task.win_in == ((plies + 1) // 2 if score == 1 else 0)
        correct = indexes(task.correct)
        assert correct == best_moves(cells)
        assert task.only_move == (len(correct) == 1)
        losing = {index for index in empties(cells) if move_outcome(cells, index)[0] < score}
        own_wins, threats = winning_cells(cells, me), winning_cells(cells, them)
        match task.kind:
            case ReasonKind.WIN_NOW:
                assert correct == own_wins != set()
            case ReasonKind.BLOCK:
                assert not own_wins
                assert len(threats) == 1
                assert correct == threats
            case ReasonKind.FORK:
                assert not own_wins
                assert not threats
                assert task.goal is Goal.WIN
                assert correct == fork_cells(cells, me) != set()
            case ReasonKind.FORCE_WIN:
                assert not own_wins
                assert not threats
                assert not fork_cells(cells, me)
                assert task.goal is Goal.WIN
                assert all(winning_cells(play(cells, index), me) for index in correct)
            case ReasonKind.BLOCK_FORK:
                assert not threats
                assert task.goal is Goal.DRAW
                assert losing
                assert fork_cells(cells, them)
            case ReasonKind.CENTRE:
                assert task.goal is Goal.DRAW
                assert correct == {CENTRE}
                assert losing
            case ReasonKind.CORNER:
                assert task.goal is Goal.DRAW
                assert correct <= CORNERS
                assert losing
            case ReasonKind.KEEP_DRAW:
                assert task.goal is Goal.DRAW
                assert losing
            case ReasonKind.ANY_DRAWS:
                # Only later in a line, where a later turn still holds a losing move.
                assert attempt.moves
                assert task.goal is Goal.DRAW
                assert not losing
                assert could_lose(cells, me)
            case kind:
                raise AssertionError(f"a lost position in a puzzle: {kind}")
        if not attempt.moves:
            assert task.kind.value == attempt.puzzle.theme.value


def test_a_correct_move_is_answered_perfectly_or_ends_the_puzzle_as_defined() -> None:
    for before, step in all_steps():
        if not step.right:
            continue
        cells = cells_of(before.board)
        me = mover(cells)
        after_move = play(cells, index_of(step.move))
        status = step.attempt.status
        assert step.attempt.moves[: len(before.moves) + 1] == (*before.moves, step.move)
        if before.puzzle.goal is Goal.WIN:
            # A win puzzle ends exactly when the line is made.
            assert (status is Status.WON) == (winner_of(after_move) == me)
            assert status in (Status.WON, Status.PLAYING)
        else:
            assert status in (Status.SECURED, Status.PLAYING)
        if step.reply is None:
            assert status is not Status.PLAYING
            assert cells_of(step.attempt.board) == after_move
            if status is Status.SECURED:
                assert not could_lose(after_move, me)
            continue
        assert index_of(step.reply) in best_moves(after_move), "the reply is perfect"
        reached = play(after_move, index_of(step.reply))
        assert cells_of(step.attempt.board) == reached
        assert could_lose(after_move, me) or before.puzzle.goal is Goal.WIN
        if status is Status.SECURED:
            assert not could_lose(reached, me) or is_over(reached)
        elif before.puzzle.goal is Goal.DRAW:
            # The draw puzzle goes on exactly while a mistake is still possible.
            assert could_lose(reached, me)


def test_the_reply_is_the_documented_choice_in_the_canonical_orientation() -> None:
    """The best reply leaving the player the most wrong moves, then the lowest cell."""

    def wrong_moves(cells):
        if is_over(cells):
            return 0
        return len(empties(cells)) - len(best_moves(cells))

    for (_, symmetry), (_, steps) in every_walk().items():
        if symmetry != 0:
            continue
        for before, step in steps:
            if step.reply is None:
                continue
            after_move = play(cells_of(before.board), index_of(step.move))
            best = sorted(best_moves(after_move))
            expected = min(best, key=lambda index: (-wrong_moves(play(after_move, index)), index))
            assert index_of(step.reply) == expected


def test_every_orientation_plays_the_image_of_the_canonical_line() -> None:
    for symmetry in range(pz.SYMMETRIES):
        mapping = next(
            candidate
            for candidate in SYMMETRY_MAPS
            if all(
                index_of(pz.transform_action(divmod(index, 3), symmetry)) == candidate[index]
                for index in range(9)
            )
        )
        inverse = pz.inverse_symmetry(symmetry)
        for found in pz.puzzles():
            attempt = pz.start(found, symmetry)
            assert cells_of(attempt.board) == image(cells_of(found.board), mapping)
            canonical = pz.start(found, 0)
            # Play the canonical line's first correct move in this orientation.
            first = min(found.correct)
            step = pz.answer(attempt, pz.transform_action(first, symmetry))
            reference = pz.answer(canonical, first)
            assert step.right
            assert reference.right
            assert {pz.transform_action(a, inverse) for a in step.correct} == found.correct
            if reference.reply is None:
                assert step.reply is None
            else:
                assert step.reply == pz.transform_action(reference.reply, symmetry)
            assert step.attempt.status is reference.attempt.status


def test_a_wrong_move_ends_the_attempt_with_its_refutation() -> None:
    for before, step in all_steps():
        if step.right:
            continue
        cells = cells_of(before.board)
        me, them = mover(cells), other(mover(cells))
        move = index_of(step.move)
        refutation = step.attempt.refutation
        assert step.attempt.status is Status.FAILED
        assert refutation is not None
        assert indexes(step.correct) == best_moves(cells) == indexes(refutation.correct)
        assert move not in best_moves(cells)
        assert refutation.opponent == them
        score, _plies = solve(cells)
        after_score, after_plies = move_outcome(cells, move)
        assert refutation.before.outcome.value == OUTCOME_OF_SCORE[score]
        assert refutation.after.outcome.value == OUTCOME_OF_SCORE[after_score]
        assert refutation.after.plies == after_plies
        expected_verdict = Verdict.INACCURATE if after_score == score else Verdict.MISTAKE
        assert refutation.verdict is expected_verdict
        after_move = play(cells, move)
        reply = index_of(refutation.reply)
        assert reply == index_of(step.reply)
        assert reply in best_moves(after_move)
        reached = play(after_move, reply)
        assert cells_of(step.attempt.board) == reached
        match refutation.reason.kind:
            case ReasonKind.WIN_NOW:
                assert winner_of(reached) == them
            case ReasonKind.FORK:
                assert reply in fork_cells(after_move, them)
            case ReasonKind.BLOCK:
                assert {reply} == winning_cells(after_move, me)
            case ReasonKind.LOST_FORK | ReasonKind.UNSTOPPABLE_FORK:
                assert solve(after_move)[0] == -1, "the opponent cannot hold"
            case ReasonKind.BLOCK_FORK:
                assert fork_cells(after_move, me)
                assert solve(after_move)[0] == 0
            case ReasonKind.FORCE_WIN:
                assert winning_cells(reached, them)
                assert solve(after_move)[0] == 1
            case _:
                assert solve(after_move)[0] == 0, "the opponent holds the draw"


def test_every_state_round_trips_through_its_encoding() -> None:
    pattern = re.compile(pz.STATE_PATTERN)
    for attempt in all_states():
        state = pz.encode(attempt)
        assert len(state) <= pz.MAX_STATE_LENGTH
        assert pattern.fullmatch(state)
        decoded = pz.decode(state)
        assert decoded == attempt
        assert decoded.refutation == attempt.refutation


def test_decode_accepts_another_perfect_reply() -> None:
    # After X in the centre and O in a corner, X has several perfect replies; O must go on.
    found, symmetry = pz.find([[None] * 3, [None, "X", None], [None] * 3]) or (None, 0)
    assert found is not None
    attempt = pz.start(found, symmetry)
    step = pz.answer(attempt, (0, 0))
    assert step.reply is not None
    others = best_moves(play(cells_of(attempt.board), 0)) - {index_of(step.reply)}
    assert others
    for index in others:
        state = pz.encode(attempt) + "0" + str(index)
        decoded = pz.decode(state)
        assert decoded.moves == ((0, 0), divmod(index, 3))
        assert decoded.status in (Status.PLAYING, Status.SECURED)
        assert pz.encode(decoded) == state


@pytest.mark.parametrize(
    ("state", "problem"),
    [
        ("", "not a puzzle state"),
        ("zzz0", "no puzzle has the id"),
        ("0290", None),  # X in the centre, O to move: a puzzle (only corners keep the draw)
        ("0298", "not a puzzle state"),  # the symmetries are 0-7
        ("0290a", "not a puzzle state"),
        ("0290" + "0" * 10, "not a puzzle state"),
        ("02904", "taken cell"),  # the centre is X's
    ],
)
def test_decode_refuses_what_no_attempt_writes(state: str, problem: str | None) -> None:
    if problem is None:
        assert pz.decode(state).moves == ()
        return
    with pytest.raises(ValueError, match=problem):
        pz.decode(state)


def test_decode_refuses_moves_that_break_the_rules_of_an_attempt() -> None:
    def first_right(one: Puzzle) -> int:
        return min(best_moves(cells_of(one.board)))

    def imperfect_replies(one: Puzzle) -> set[int]:
        after = play(cells_of(one.board), first_right(one))
        return set() if is_over(after) else set(empties(after)) - best_moves(after)

    found = next(one for one in pz.puzzles() if one.length >= 2 and imperfect_replies(one))
    attempt = pz.start(found, 0)
    cells = cells_of(attempt.board)
    wrong = min(set(empties(cells)) - best_moves(cells))
    right = first_right(found)
    failed = pz.answer(attempt, divmod(wrong, 3)).attempt
    state = pz.encode(failed)
    free = min(set(empties(cells_of(failed.board))))
    with pytest.raises(ValueError, match="after the end"):
        pz.decode(state + str(free))
    with pytest.raises(ValueError, match="reply is missing"):
        pz.decode(pz.encode(attempt) + str(right))
    bad_reply = min(imperfect_replies(found))
    with pytest.raises(ValueError, match="not perfect"):
        pz.decode(pz.encode(attempt) + str(right) + str(bad_reply))


def test_an_attempt_that_is_over_takes_no_more_moves() -> None:
    found = pz.puzzles()[0]
    attempt = pz.start(found, 0)
    done = pz.answer(attempt, min(found.correct)).attempt
    while done.status is Status.PLAYING:
        assert done.task is not None
        done = pz.answer(done, min(done.task.correct)).attempt
    assert done.solved
    assert done.task is None
    free = min(empties(cells_of(done.board)), default=None)
    if free is not None:
        with pytest.raises(ValueError, match="over"):
            pz.answer(done, divmod(free, 3))
    taken = next(index for index, cell in enumerate(cells_of(attempt.board)) if cell)
    with pytest.raises(ValueError, match="not free"):
        pz.answer(attempt, divmod(taken, 3))


# --- difficulty ---------------------------------------------------------------------------------


def test_each_levels_move_chances_match_its_description() -> None:
    for cells in reachable_positions():
        if is_over(cells):
            assert move_chances(to_board(cells), EASY) == {}
            continue
        for level in (EASY, MEDIUM, HARD):
            chances = move_chances(to_board(cells), level)
            assert {index_of(a): p for a, p in chances.items()} == level_chances(cells, level)


class Recorder(random.Random):
    """A Random whose random() is fixed, recording what choose_move chooses among."""

    def __init__(self, draw: float) -> None:
        super().__init__(0)
        self.draw = draw
        self.seen: list[list] = []

    def random(self) -> float:
        return self.draw

    def choice(self, seq):
        self.seen.append(list(seq))
        return seq[0]


def test_choose_move_picks_uniformly_among_what_move_chances_spreads() -> None:
    for cells in reachable_positions():
        if is_over(cells):
            continue
        board = to_board(cells)
        for level in (EASY, MEDIUM):
            rng = Recorder(0.5)
            choose_move(board, level, rng)
            (candidates,) = rng.seen
            assert set(candidates) == set(move_chances(board, level))
        slipping, perfect = Recorder(0.0), Recorder(0.99)
        choose_move(board, HARD, slipping)
        choose_move(board, HARD, perfect)
        assert set(slipping.seen[0]) == set(move_chances(board, MEDIUM))
        assert indexes(perfect.seen[0]) == best_moves(cells)


def test_each_puzzles_errors_are_the_levels_exact_chances_to_fail_it() -> None:
    @cache
    def solve_chance(state: str, level: str) -> Fraction:
        attempt = pz.decode(state)
        cells = cells_of(attempt.board)
        total = Fraction(0)
        for index, chance in level_chances(cells, level).items():
            step = pz.answer(attempt, divmod(index, 3))
            if not step.right:
                continue
            if step.attempt.status is Status.PLAYING:
                total += chance * solve_chance(pz.encode(step.attempt), level)
            else:
                total += chance
        return total

    for found in pz.puzzles():
        state = pz.encode(pz.start(found, 0))
        expected = tuple(1 - solve_chance(state, level) for level in (EASY, MEDIUM, HARD))
        assert found.errors == expected, found.id


def test_ratings_order_the_puzzles_by_how_often_the_levels_fail() -> None:
    def failures(found: Puzzle) -> Fraction:
        return sum(found.errors, Fraction(0))

    ordered = sorted(pz.puzzles(), key=failures)
    for easier, harder in itertools.pairwise(ordered):
        assert easier.rating <= harder.rating or failures(easier) == failures(harder)
    assert {found.rating for found in pz.puzzles() if failures(found) == 0} == {pz.RATING_FLOOR}
    assert all(
        found.rating == pz.RATING_FLOOR for found in pz.puzzles() if found.theme == "win_now"
    )
    assert max(found.rating for found in pz.puzzles()) > 1700


def test_a_stronger_player_is_expected_to_solve_more() -> None:
    assert pz.expected_score(1500, 1500) == 0.5
    assert pz.expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert pz.expected_score(1100, 1500) == pytest.approx(1 / 11)


# --- daily, picking, presenting -----------------------------------------------------------------


def test_the_daily_puzzle_is_the_same_all_day_and_goes_through_the_set() -> None:
    first = dt.date(2026, 11, 26)
    assert pz.daily(first) == pz.daily(dt.date(2026, 11, 26))
    pool = [found for found in pz.puzzles() if found.theme is not Theme.WIN_NOW]
    days = [pz.daily(first + dt.timedelta(days=n)) for n in range(len(pool))]
    assert Counter(day.puzzle.id for day in days) == Counter(found.id for found in pool)
    assert {day.symmetry for day in days} == set(range(8))
    assert all(day.moves == () and day.status is Status.PLAYING for day in days)
    again = pz.daily(first + dt.timedelta(days=len(pool)))
    assert again.puzzle == days[0].puzzle


def test_pick_chooses_near_the_rating_and_leaves_out_the_excluded() -> None:
    everything = pz.puzzles()
    for target in (600, 800, 1200, 1500, 1900, 2500):
        distances = sorted(abs(found.rating - target) for found in everything)
        picked = {pz.pick(target, random.Random(seed)).id for seed in range(200)}
        assert len(picked) > 1
        for found_id in picked:
            assert abs(pz.puzzle(found_id).rating - target) <= distances[pz.PICK_POOL - 1]
        excluded = pz.pick(target, random.Random(1), exclude=picked)
        assert excluded.id not in picked
    assert pz.pick(1500, random.Random(5)) == pz.pick(1500, random.Random(5))
    every_id = {found.id for found in everything}
    assert pz.pick(1500, random.Random(5), exclude=every_id) in everything


def test_start_shows_an_orientation_picked_by_the_rng_or_given() -> None:
    found = next(one for one in pz.puzzles() if len(images(cells_of(one.board))) == 8)
    boards = {pz.start(found, rng=random.Random(seed)).board for seed in range(100)}
    assert {cells_of(board) for board in boards} == images(cells_of(found.board))
    assert pz.start(found, 0).board == found.board
    with pytest.raises(ValueError, match="symmetry"):
        pz.start(found, 8)


def test_the_empty_board_is_no_puzzle() -> None:
    assert pz.find(to_board(EMPTY_POSITION)) is None
