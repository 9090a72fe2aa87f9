"""Puzzles: positions where a move throws the best outcome away, found and checked by the solver.

Definitions (the tests check each against an independent brute force, over the whole set):

- A **puzzle** is a position reachable in a game (X moved first, nobody has won yet, cells left)
  where the player to move can win or draw under perfect play and at least one legal move throws
  that outcome away. Positions are counted once up to the board's 8 symmetries: each puzzle is
  stored in its canonical orientation (the image whose cells, read row by row as base-3 digits
  with empty 0, X 1 and O 2, make the smallest number) and shown in any of them.
- The **correct** moves of a position are the solver's best moves: those that keep the best
  outcome, and where that outcome is a win, only those that win fastest.
- **Multi-step.** After a correct move that does not end the puzzle, the opponent replies
  perfectly and the player goes on. The reply is the opponent's best move (slowest loss, or any
  move keeping the draw) that leaves the player the most wrong moves; ties go to the lowest cell
  number in the puzzle's canonical orientation, so a puzzle plays the same line in every
  orientation.
- **Solved.** A win puzzle is solved when the player completes a line. A draw puzzle is solved
  when the draw is **secured**, meaning that the player can no longer lose whatever they play
  against any perfect opponent: a position is secure when the game is over without their loss,
  or, with them to move, every move keeps the draw and leads to a secure position, or, with the
  opponent to move, every best reply leads to a secure position. This is checked after the
  player's correct move (then no reply is shown) and again after the opponent's reply. Until
  then the player keeps moving, even at a turn where every move happens to keep the draw (a
  later turn on that line still holds a losing move; 5 such turns in the whole set).
- **Wrong.** Any other move ends the attempt: the refutation is the opponent's reply to it
  (chosen by the same rule) with the hint's reason for that reply, what the wrong move leads
  to under perfect play, and the player's hint once the reply is on the board (what the
  opponent threatens now).
- **Themes** are the hint's reasons (`review.ReasonKind`) for the puzzle's first position, plus
  ONLY_MOVE when one cell is correct. Each step's task comes from the hint of that step.
- **Difficulty.** For each of the easy, medium and hard levels, the exact chance that the level
  fails the puzzle when it plays the player's side through the whole line against the replies
  above, from its move distribution (`solver.move_chances`). The initial rating is the rating at
  which a player would solve it as often as the levels do, were they players rated
  LEVEL_RATINGS (see `_rating`), within 800-2000.

The set is built on first use (about 0.3 s of CPU, see benchmarks/puzzles.py) and kept;
everything here is pure.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import TypeVar

from .review import Hint, Reason, ReasonKind, Rows, Value, Verdict, hint
from .rules import EMPTY, LINES, SIZE, Action, Board, Cell, O, X, validate_board
from .solver import EASY, HARD, MEDIUM, best_actions, move_chances

# A board flattened row by row: index 3 * i + j is cell (i, j).
Flat = tuple[Cell, ...]
_T = TypeVar("_T")

SYMMETRIES = 8
LEVELS = (EASY, MEDIUM, HARD)  # the levels whose mistakes seed a puzzle's difficulty
# The initial rating is the one at which a player would be expected to solve the puzzle as often,
# in all, as the three levels do if they were players of these ratings (see `_rating`).
LEVEL_RATINGS = (1100.0, 1500.0, 1900.0)
RATING_FLOOR, RATING_CEILING = 800, 2000
PICK_POOL = 12  # pick() chooses at random among this many puzzles nearest the rating

# A puzzle attempt in a button: the puzzle id (3 characters), the orientation (0-7), then every
# move since the puzzle's start as shown, the player's and the replies, one cell 0-8 each.
ID_PATTERN = r"[0-9a-z]{3}"
STATE_PATTERN = rf"{ID_PATTERN}[0-7][0-8]{{0,9}}"
MAX_STATE_LENGTH = 3 + 1 + 9
_STATE = re.compile(rf"(?P<id>{ID_PATTERN})(?P<symmetry>[0-7])(?P<moves>[0-8]{{0,9}})")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"

_DAILY_EPOCH = dt.date(2026, 1, 1)
_DAILY_SEED = 24  # fixes the daily order; changing it changes every day's puzzle


class Goal(StrEnum):
    """What the player to move can get, and must keep."""

    WIN = "win"
    DRAW = "draw"


class Theme(StrEnum):
    """What a puzzle asks, named after the hint's reasons (`ReasonKind`) plus ONLY_MOVE."""

    WIN_NOW = ReasonKind.WIN_NOW.value  # complete a line at once
    BLOCK = ReasonKind.BLOCK.value  # stop the opponent's line
    FORK = ReasonKind.FORK.value  # make two threats at once
    FORCE_WIN = ReasonKind.FORCE_WIN.value  # a threat that leads to a win
    BLOCK_FORK = ReasonKind.BLOCK_FORK.value  # stop the opponent's fork
    CENTRE = ReasonKind.CENTRE.value  # only the centre keeps the draw
    CORNER = ReasonKind.CORNER.value  # only corners keep the draw
    KEEP_DRAW = ReasonKind.KEEP_DRAW.value  # some other moves lose
    ONLY_MOVE = "only_move"  # exactly one cell is correct


class Status(StrEnum):
    """Where an attempt stands."""

    PLAYING = "playing"  # the player is to move
    WON = "won"  # solved: the player completed a line
    SECURED = "secured"  # solved: the draw is secured (see the module's docstring)
    FAILED = "failed"  # a wrong move ended it


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle, in its canonical orientation."""

    id: str  # 3 characters [0-9a-z], from the canonical board
    board: Rows
    player: str  # X or O, to move
    goal: Goal
    win_in: int  # for a win, how many of the player's moves the fastest win takes; 0 for a draw
    theme: Theme  # the first position's reason
    themes: frozenset[Theme]  # `theme`, and ONLY_MOVE when one cell is correct
    correct: frozenset[Action]  # the first position's correct moves
    length: int  # the most moves the player makes on any correct line
    errors: tuple[Fraction, Fraction, Fraction]  # chance that easy, medium, hard fail it
    rating: int  # the initial puzzle rating


@dataclass(frozen=True, slots=True)
class Task:
    """What the player to move is asked, from the hint of the position on the board."""

    player: str
    opponent: str
    goal: Goal
    win_in: int  # for a win, the player's moves the fastest win takes, this one included; else 0
    kind: ReasonKind  # what the position asks (the hint's reason)
    reason: Reason  # the hint's reason, cells included: it gives the answer away
    correct: frozenset[Action]  # the moves that keep the goal (fastest, for a win)

    @property
    def only_move(self) -> bool:
        return len(self.correct) == 1


@dataclass(frozen=True, slots=True)
class Refutation:
    """Why a wrong move was wrong: what it allows."""

    move: Action
    opponent: str  # who answers it, X or O
    verdict: Verdict  # MISTAKE: the outcome thrown away; INACCURATE: a slower win
    before: Value  # what the position was worth to the player
    after: Value  # what the wrong move leads to, for the player
    reply: Action  # the opponent's best answer
    reason: Reason  # the hint's reason for that answer, with the opponent as the player to move
    correct: frozenset[Action]  # the moves that were correct
    # The hint's reason for the player once the reply is on the board (what the opponent
    # threatens now); None when the reply ended the game.
    now: Reason | None = None


@dataclass(frozen=True, slots=True)
class Attempt:
    """A puzzle being played, shown in one orientation: build it with `start`, `answer` or
    `decode`, which check every move."""

    puzzle: Puzzle
    symmetry: int  # 0-7: how the canonical board is turned or reflected for showing
    # As shown, every move since the start: the player's and the replies (a wrong move too,
    # followed by its refutation's reply).
    moves: tuple[Action, ...]
    board: Rows  # as shown
    status: Status
    refutation: Refutation | None = field(default=None, compare=False)  # when FAILED

    @property
    def solved(self) -> bool:
        return self.status in (Status.WON, Status.SECURED)

    @property
    def task(self) -> Task | None:
        """The current step's task; None once the attempt is over."""
        return None if self.status is not Status.PLAYING else _task(self.puzzle.goal, self.board)


@dataclass(frozen=True, slots=True)
class Answer:
    """What a move in an attempt did."""

    attempt: Attempt  # after the move and the reply (if any)
    move: Action
    correct: frozenset[Action]  # the moves that were correct for this step
    reply: Action | None  # the opponent's reply on the board; None when the move ended it at once

    @property
    def right(self) -> bool:
        return self.move in self.correct


# --- the public functions --------------------------------------------------------------------


def puzzles() -> tuple[Puzzle, ...]:
    """Every puzzle, ordered by id. Built on first use, then kept."""
    return _catalogue()[0]


def puzzle(puzzle_id: str) -> Puzzle:
    """The puzzle with this id; KeyError if there is none."""
    return _catalogue()[1][puzzle_id]


def find(board: Board | Rows) -> tuple[Puzzle, int] | None:
    """The puzzle this position is, and the orientation it is shown in; None if it is no puzzle.
    Raises ValueError on a board that cannot arise in a game."""
    flat = _flat(validate_board(board))
    canonical_flat, symmetry = _canonical(flat)
    found = _catalogue()[1].get(_id_of(canonical_flat))
    return None if found is None else (found, symmetry)


def start(puzzle: Puzzle, symmetry: int | None = None, rng: random.Random | None = None) -> Attempt:
    """A new attempt at `puzzle`, shown in orientation `symmetry` (0 shows the canonical board),
    or in one picked with `rng` for variety."""
    if symmetry is None:
        symmetry = (rng or random.Random()).randrange(SYMMETRIES)
    if symmetry not in range(SYMMETRIES):
        raise ValueError(f"symmetry must be 0 to {SYMMETRIES - 1}, not {symmetry!r}")
    shown = _transform(_flat(puzzle.board), symmetry)
    return Attempt(puzzle, symmetry, (), _rows(shown), Status.PLAYING)


def answer(attempt: Attempt, move: Action) -> Answer:
    """Play `move` (as shown) in an attempt that is still PLAYING. A correct move is followed by
    the opponent's reply unless it ends the puzzle; a wrong one by the refutation's reply.
    Raises ValueError when the attempt is over or the cell is not free."""
    if attempt.status is not Status.PLAYING:
        raise ValueError(f"the attempt is over: {attempt.status}")
    shown = _flat(attempt.board)
    i, j = move
    if not (0 <= i < SIZE and 0 <= j < SIZE) or shown[i * SIZE + j] is not EMPTY:
        raise ValueError(f"cell {move!r} is not free")
    goal, symmetry = attempt.puzzle.goal, attempt.symmetry
    inverse = _INVERSE[symmetry]
    here = _transform(shown, inverse)  # the canonical orientation
    canonical_move = _turn(move, inverse)
    correct = frozenset(_turn(action, symmetry) for action in _correct(here))
    after_move = _play(here, canonical_move)
    if canonical_move not in _correct(here):
        refuting = _reply(after_move)
        refutation = _refute(attempt.board, move, _turn(refuting, symmetry), correct)
        failed = Attempt(
            attempt.puzzle,
            symmetry,
            (*attempt.moves, move, refutation.reply),
            _rows(_transform(_play(after_move, refuting), symmetry)),
            Status.FAILED,
            refutation,
        )
        return Answer(failed, move, correct, refutation.reply)
    status, reply, reached = _after_correct(after_move, goal)
    moves = (*attempt.moves, move)
    shown_reply = None if reply is None else _turn(reply, symmetry)
    if shown_reply is not None:
        moves = (*moves, shown_reply)
    shown_board = _rows(_transform(reached, symmetry))
    return Answer(
        Attempt(attempt.puzzle, symmetry, moves, shown_board, status), move, correct, shown_reply
    )


def encode(attempt: Attempt) -> str:
    """The attempt as at most MAX_STATE_LENGTH characters [0-9a-z] (see STATE_PATTERN), for a
    button's custom_id."""
    cells = "".join(str(i * SIZE + j) for i, j in attempt.moves)
    return f"{attempt.puzzle.id}{attempt.symmetry}{cells}"


def decode(state: str) -> Attempt:
    """The attempt `encode` wrote, every move checked again: the player's moves correct (a wrong
    one only last, followed by its reply), the replies perfect. Raises ValueError otherwise."""
    match = _STATE.fullmatch(state)
    if match is None:
        raise ValueError(f"not a puzzle state: {state!r}")
    try:
        found = puzzle(match["id"])
    except KeyError:
        raise ValueError(f"no puzzle has the id {match['id']!r}") from None
    attempt = start(found, int(match["symmetry"]))
    moves = [divmod(int(cell), SIZE) for cell in match["moves"]]
    while moves:
        if attempt.status is not Status.PLAYING:
            raise ValueError(f"moves after the end of the attempt in {state!r}")
        move = moves.pop(0)
        shown = _flat(attempt.board)
        if shown[move[0] * SIZE + move[1]] is not EMPTY:
            raise ValueError(f"a move on a taken cell in {state!r}")
        step = answer(attempt, move)
        if step.reply is None:
            attempt = step.attempt
            continue
        if not moves:
            raise ValueError(f"a reply is missing in {state!r}")
        reply = moves.pop(0)
        # Another perfect reply than the rule's is accepted (an older rule may have chosen it).
        attempt = step.attempt if reply == step.reply else _with_reply(attempt, step, reply, state)
    return attempt


def daily(day: dt.date) -> Attempt:
    """The day's puzzle, the same for everyone: the puzzles other than WIN_NOW in a fixed
    shuffled order, one a day (UTC dates), round and round, each day in its own orientation."""
    pool = _daily_order()
    index = (day.toordinal() - _DAILY_EPOCH.toordinal()) % len(pool)
    return start(pool[index], day.toordinal() % SYMMETRIES)


def pick(rating: float, rng: random.Random, exclude: Collection[str] = ()) -> Puzzle:
    """A puzzle near `rating`: one of the PICK_POOL puzzles whose ratings are nearest, leaving
    out the ids in `exclude` (unless that leaves none)."""
    everything = puzzles()
    candidates = [found for found in everything if found.id not in exclude] or list(everything)
    candidates.sort(key=lambda found: (abs(found.rating - rating), found.id))
    return rng.choice(candidates[:PICK_POOL])


def transform(board: Board | Rows, symmetry: int) -> Rows:
    """The board turned or reflected by symmetry 0-7 (0 leaves it as it is)."""
    return _rows(_transform(_flat(board), symmetry))


def transform_action(action: Action, symmetry: int) -> Action:
    """Where cell `action` goes when the board is transformed by `symmetry`."""
    return _turn(action, symmetry)


def inverse_symmetry(symmetry: int) -> int:
    """The symmetry that undoes `symmetry`."""
    return _INVERSE[symmetry]


def expected_score(player_rating: float, puzzle_rating: float) -> float:
    """The chance that a player of `player_rating` solves a puzzle of `puzzle_rating`, on the
    Elo scale that the ratings share (400 points: ten to one)."""
    return 1.0 / (1.0 + float(10.0 ** ((puzzle_rating - player_rating) / 400.0)))


# --- symmetries --------------------------------------------------------------------------------


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """Each symmetry as the index each cell goes to: the identity, three turns, four flips."""
    last = SIZE - 1
    maps = (
        lambda i, j: (i, j),
        lambda i, j: (j, last - i),  # a quarter turn clockwise
        lambda i, j: (last - i, last - j),
        lambda i, j: (last - j, i),
        lambda i, j: (i, last - j),  # left-right
        lambda i, j: (last - i, j),  # top-bottom
        lambda i, j: (j, i),  # the main diagonal
        lambda i, j: (last - j, last - i),  # the other diagonal
    )
    return tuple(
        tuple(a * SIZE + b for a, b in (cell(*divmod(k, SIZE)) for k in range(SIZE * SIZE)))
        for cell in maps
    )


_SYMMETRY_MAPS = _symmetries()
_INVERSE = tuple(
    next(
        t
        for t in range(SYMMETRIES)
        if all(_SYMMETRY_MAPS[t][_SYMMETRY_MAPS[s][k]] == k for k in range(9))
    )
    for s in range(SYMMETRIES)
)


# _SOURCES[s][target] is the cell that symmetry s moves to `target`.
_SOURCES = tuple(
    tuple(mapping.index(target) for target in range(SIZE * SIZE)) for mapping in _SYMMETRY_MAPS
)


def _transform(cells: tuple[_T, ...], symmetry: int) -> tuple[_T, ...]:
    return tuple(cells[source] for source in _SOURCES[symmetry])


def _turn(action: Action, symmetry: int) -> Action:
    i, j = action
    if not (0 <= i < SIZE and 0 <= j < SIZE):
        raise ValueError(f"action {action!r} is off the board")
    target = _SYMMETRY_MAPS[symmetry][i * SIZE + j]
    return target // SIZE, target % SIZE


_DIGIT = {EMPTY: 0, X: 1, O: 2}


def _number(flat: Flat) -> int:
    number = 0
    for cell in flat:
        number = number * 3 + _DIGIT[cell]
    return number


def _canonical(flat: Flat) -> tuple[Flat, int]:
    """The canonical image of a board, and the symmetry that turns it back into `flat`."""
    # Comparing the digit tuples compares the base-3 numbers (the first cell is the highest
    # digit), without computing them.
    digits = tuple(_DIGIT[cell] for cell in flat)
    images = [(_transform(digits, s), s) for s in range(SYMMETRIES)]
    _, turn = min(images)
    canonical = _transform(flat, turn)
    return canonical, _INVERSE[turn]


def _id_of(canonical: Flat) -> str:
    number, digits = _number(canonical), ""
    for _ in range(3):  # 3 ** 9 = 19,683 < 36 ** 3
        number, digit = divmod(number, 36)
        digits = _DIGITS[digit] + digits
    return digits


# --- boards -----------------------------------------------------------------------------------


def _flat(board: Board | Rows) -> Flat:
    return tuple(cell for row in board for cell in row)


def _board(flat: Flat) -> Board:
    """The CS50 board (3 lists of 3) the solver's functions take."""
    return [list(flat[0:3]), list(flat[3:6]), list(flat[6:9])]


def _rows(flat: Flat) -> Rows:
    return (flat[0], flat[1], flat[2]), (flat[3], flat[4], flat[5]), (flat[6], flat[7], flat[8])


def _mover(flat: Flat) -> str:
    return X if flat.count(X) == flat.count(O) else O


def _play(flat: Flat, action: Action) -> Flat:
    index = action[0] * SIZE + action[1]
    return (*flat[:index], _mover(flat), *flat[index + 1 :])


def _won(flat: Flat) -> bool:
    return any(
        flat[a * SIZE + b] is not EMPTY
        and flat[a * SIZE + b] == flat[c * SIZE + d] == flat[e * SIZE + f]
        for (a, b), (c, d), (e, f) in LINES
    )


def _over(flat: Flat) -> bool:
    return _won(flat) or EMPTY not in flat


# --- the solver's view -------------------------------------------------------------------------


@cache
def _hint(flat: Flat) -> Hint:
    return hint(_board(flat))


@cache
def _correct(flat: Flat) -> frozenset[Action]:
    return frozenset(best_actions(_board(flat)))


def _wrong_count(flat: Flat) -> int:
    return flat.count(EMPTY) - len(_correct(flat))


@cache
def _reply(flat: Flat) -> Action:
    """The opponent's perfect reply: the best move leaving the player the most wrong moves, the
    lowest cell on a tie."""
    return min(
        _correct(flat),
        key=lambda action: (-_wrong_count_after(flat, action), action),
    )


def _wrong_count_after(flat: Flat, action: Action) -> int:
    after = _play(flat, action)
    return 0 if _over(after) else _wrong_count(after)


def _goal_of(flat: Flat) -> Goal | None:
    """The outcome the player to move can keep, when some move throws it away; else None."""
    advice = _hint(flat)
    outcome = advice.value.outcome.value
    if outcome == "loss":
        return None
    goal = Goal(outcome)
    if all(cell.outcome.value == outcome for cell in advice.cells):
        return None
    return goal


@cache
def _safe_before(flat: Flat) -> bool:
    """The player to move cannot lose from here whatever they play, against any perfect reply."""
    if _over(flat):
        return True
    advice = _hint(flat)
    return all(cell.outcome.value == "draw" for cell in advice.cells) and all(
        _safe_after(_play(flat, cell.action)) for cell in advice.cells
    )


@cache
def _safe_after(flat: Flat) -> bool:
    """As `_safe_before`, with the opponent to move (and playing only perfect moves)."""
    return _over(flat) or all(_safe_before(_play(flat, reply)) for reply in _correct(flat))


def _after_correct(after_move: Flat, goal: Goal) -> tuple[Status, Action | None, Flat]:
    """After a correct move: solved (and how), or still playing after the opponent's reply."""
    if _won(after_move):
        return Status.WON, None, after_move
    if _over(after_move) or (goal is Goal.DRAW and _safe_after(after_move)):
        return Status.SECURED, None, after_move
    reply = _reply(after_move)
    reached = _play(after_move, reply)
    assert not _won(reached), "a perfect opponent cannot win against a correct line"
    if _over(reached) or (goal is Goal.DRAW and _safe_before(reached)):
        return Status.SECURED, reply, reached
    return Status.PLAYING, reply, reached


def _task(goal: Goal, board: Rows) -> Task:
    advice = _hint(_flat(board))
    mover = advice.player
    win_in = advice.value.own_moves if goal is Goal.WIN else 0
    return Task(
        mover, advice.reason.opponent, goal, win_in, advice.reason.kind, advice.reason, advice.best
    )


def _refute(board: Rows, move: Action, reply: Action, correct: frozenset[Action]) -> Refutation:
    advice = _hint(_flat(board))
    before = advice.value
    after = next(cell.value for cell in advice.cells if cell.action == move)
    verdict = Verdict.INACCURATE if after.outcome is before.outcome else Verdict.MISTAKE
    after_move = _play(_flat(board), move)
    answering = _hint(after_move)
    after_reply = _play(after_move, reply)
    now = None if _over(after_reply) else _hint(after_reply).reason
    return Refutation(
        move, answering.player, verdict, before, after, reply, answering.reason, correct, now
    )


def _with_reply(attempt: Attempt, step: Answer, reply: Action, state: str) -> Attempt:
    """`step`'s attempt with another reply in place of the one the rule picks, if it is perfect."""
    shown = _flat(attempt.board)
    after_move = _play(shown, step.move)
    if reply not in _correct(after_move):
        raise ValueError(f"a reply that is not perfect in {state!r}")
    reached = _play(after_move, reply)
    moves = (*attempt.moves, step.move, reply)
    if step.attempt.status is Status.FAILED:
        refutation = _refute(attempt.board, step.move, reply, step.correct)
        return Attempt(
            attempt.puzzle, attempt.symmetry, moves, _rows(reached), Status.FAILED, refutation
        )
    goal = attempt.puzzle.goal
    secured = _over(reached) or (goal is Goal.DRAW and _safe_before(reached))
    status = Status.SECURED if secured else Status.PLAYING
    return Attempt(attempt.puzzle, attempt.symmetry, moves, _rows(reached), status)


# --- difficulty ---------------------------------------------------------------------------------


@cache
def _solve_chance(flat: Flat, goal: Goal, level: str) -> Fraction:
    """The exact chance that `level`, playing the player's side from here, solves the puzzle."""
    correct = _correct(flat)
    chance = Fraction(0)
    for move, share in move_chances(_board(flat), level).items():
        if move in correct:
            status, _, reached = _after_correct(_play(flat, move), goal)
            rest = (
                Fraction(1) if status is not Status.PLAYING else _solve_chance(reached, goal, level)
            )
            chance += share * rest
    return chance


@cache
def _length(flat: Flat, goal: Goal) -> int:
    """The most moves the player makes on any correct line from here."""
    longest = 0
    for move in _correct(flat):
        status, _, reached = _after_correct(_play(flat, move), goal)
        longest = max(longest, 1 + (0 if status is not Status.PLAYING else _length(reached, goal)))
    return longest


def _rating(errors: tuple[Fraction, ...]) -> int:
    """The rating R at which the expected solves of a player of rating R, counted three times,
    equal the solves the three levels expect (`expected_score` against LEVEL_RATINGS): the
    maximum-likelihood rating were the levels players of those ratings. Between RATING_FLOOR and
    RATING_CEILING, to the nearest 10."""
    solves = sum(1 - float(error) for error in errors)

    def expected(rating: float) -> float:
        return sum(expected_score(level, rating) for level in LEVEL_RATINGS)

    low, high = float(RATING_FLOOR), float(RATING_CEILING)
    if expected(low) <= solves:
        return RATING_FLOOR
    if expected(high) >= solves:
        return RATING_CEILING
    for _ in range(40):  # the expectation falls as the puzzle's rating rises
        middle = (low + high) / 2
        low, high = (middle, high) if expected(middle) > solves else (low, middle)
    return round((low + high) / 20) * 10


# --- the catalogue ------------------------------------------------------------------------------


def _canonical_positions() -> Iterable[Flat]:
    """Every reachable unfinished position, once up to symmetry, in canonical orientation."""
    empty: Flat = (EMPTY,) * (SIZE * SIZE)
    seen = {empty}
    frontier = [empty]
    while frontier:
        flat = frontier.pop()
        if _over(flat):
            continue
        yield flat
        for index, cell in enumerate(flat):
            if cell is EMPTY:
                child = _canonical(_play(flat, divmod(index, SIZE)))[0]
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)


def _make(flat: Flat) -> Puzzle | None:
    goal = _goal_of(flat)
    if goal is None:
        return None
    advice = _hint(flat)
    theme = Theme(advice.reason.kind.value)
    correct = _correct(flat)
    themes = frozenset({theme, Theme.ONLY_MOVE} if len(correct) == 1 else {theme})
    errors = tuple(1 - _solve_chance(flat, goal, level) for level in LEVELS)
    assert len(errors) == 3
    return Puzzle(
        id=_id_of(flat),
        board=_rows(flat),
        player=advice.player,
        goal=goal,
        win_in=advice.value.own_moves if goal is Goal.WIN else 0,
        theme=theme,
        themes=themes,
        correct=correct,
        length=_length(flat, goal),
        errors=(errors[0], errors[1], errors[2]),
        rating=_rating(errors),
    )


@cache
def _catalogue() -> tuple[tuple[Puzzle, ...], dict[str, Puzzle]]:
    found = (_make(flat) for flat in _canonical_positions())
    ordered = tuple(sorted((one for one in found if one is not None), key=lambda one: one.id))
    # Only making the catalogue asks these (about 0.4 MB of fractions): an attempt never does.
    _solve_chance.cache_clear()
    _length.cache_clear()
    # These hold every position the making looked at (about 1.2 MB); an attempt asks only those
    # its player reaches, kept again as they come.
    for solved in (_hint, _correct, _reply, _safe_before, _safe_after):
        solved.cache_clear()
    return ordered, {one.id: one for one in ordered}


@cache
def _daily_order() -> tuple[Puzzle, ...]:
    pool = [one for one in puzzles() if one.theme is not Theme.WIN_NOW]
    random.Random(_DAILY_SEED).shuffle(pool)
    return tuple(pool)
