"""What a puzzle says, in every language, for every puzzle's start, its wrong moves and its end:
within Discord's limits, the task true of the position, and the buttons readable back."""

from __future__ import annotations

import datetime as dt

import pytest
from brute_force import (
    WIN_LINES,
    empties,
    fork_cells,
    is_over,
    other,
    to_index,
    winning_cells,
)

from bot.i18n import LOCALES
from bot.puzzles.ids import CellClick, Mode, NextClick, Shown, parse
from bot.puzzles.view import RatingChange, render_puzzle
from bot.view.components import card_components
from fake_discord.limits import problems
from tests.support.words import CELL_NAMES
from tictactoe import puzzles
from tictactoe.review import Outcome

SNOWFLAKE = 1_456_074_443_980_800_012


def shown(locale: str, mode: Mode = Mode.RATED) -> Shown:
    return Shown(SNOWFLAKE, mode, 1500, 350, locale)


def cells_of(board) -> tuple:
    return tuple(cell for row in board for cell in row)


def payload(card) -> dict:
    return {"components": card_components(card)}


def longest_texts() -> list[tuple[puzzles.Attempt, puzzles.Answer | None]]:
    """For each puzzle, its start and its first wrong move's failure."""
    found: list[tuple[puzzles.Attempt, puzzles.Answer | None]] = []
    for one in puzzles.puzzles():
        start = puzzles.start(one, 0)
        found.append((start, None))
        empty = [(i, j) for i in range(3) for j in range(3) if start.board[i][j] is None]
        wrong = next(cell for cell in empty if cell not in one.correct)
        step = puzzles.answer(start, wrong)
        found.append((step.attempt, step))
    return found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_puzzle_in_every_language_stays_within_discords_limits(locale):
    change = RatingChange(1500, 1388, 1710)
    for attempt, step in longest_texts():
        card = render_puzzle(attempt, shown(locale), step=step, change=change)
        assert problems(payload(card)) == [], (locale, attempt.puzzle.id)
        if step is None:
            assert "{" not in card.body, card.body  # every placeholder filled


def test_the_buttons_carry_the_attempt_and_the_rating():
    start = puzzles.daily(dt.date(2026, 1, 1))
    card = render_puzzle(start, shown("es-419", Mode.DAILY))
    assert card.cells is not None
    clicks = [parse(custom_id) for custom_id in card.cells.custom_ids]
    assert all(isinstance(click, CellClick) for click in clicks)
    assert [click.cell for click in clicks if isinstance(click, CellClick)] == list(range(9))
    first = clicks[0]
    assert isinstance(first, CellClick)
    assert puzzles.decode(first.state) == start
    assert first.shown == shown("es-419", Mode.DAILY)
    assert max(len(custom_id) for custom_id in card.cells.custom_ids) <= 100


def test_the_next_button_carries_the_new_rating_and_leaves_out_the_puzzle_played():
    start = puzzles.daily(dt.date(2026, 1, 1))
    wrong = next(
        (i, j)
        for i in range(3)
        for j in range(3)
        if start.board[i][j] is None and (i, j) not in start.puzzle.correct
    )
    step = puzzles.answer(start, wrong)
    card = render_puzzle(
        step.attempt, shown("de"), step=step, change=RatingChange(1500, 1399, 1710)
    )
    (button,) = card.controls
    assert button.label == "Nächstes Rätsel"
    assert parse(button.custom_id) == NextClick(start.puzzle.id, 1399, 350, "de")


@pytest.mark.parametrize(
    "custom_id",
    [
        "pz1:9:0yk6:b293b94y3uoc:r1500-350:en-US",  # no cell 9
        "pz1:0:0yk6:b293b94y3uoc:x1500-350:en-US",  # no such mode
        "pz1:0:0yk6:b293b94y3uoc:r1500-350:",  # no locale
        "pz1:n:0yk:1500:en-US",  # no deviation
        "ttt:0:0yk6",
    ],
)
def test_a_malformed_button_is_no_puzzle_click(custom_id):
    assert parse(custom_id) is None


# --- a wrong move, said to the player --------------------------------------------------------

# Written out here rather than taken from the bot: cell indexes 0-8 and lines, in English.
LINE_NAMES = {
    (0, 1, 2): "the top row",
    (3, 4, 5): "the middle row",
    (6, 7, 8): "the bottom row",
    (0, 3, 6): "the left column",
    (1, 4, 7): "the middle column",
    (2, 5, 8): "the right column",
    (0, 4, 8): "the diagonal from the top left",
    (2, 4, 6): "the diagonal from the top right",
}


def every_failure() -> list[puzzles.Answer]:
    """Every wrong move of every puzzle, at every step of every correct line."""
    found: list[puzzles.Answer] = []

    def walk(attempt: puzzles.Attempt) -> None:
        for cell in [(i, j) for i in range(3) for j in range(3) if attempt.board[i][j] is None]:
            step = puzzles.answer(attempt, cell)
            if step.attempt.status is puzzles.Status.FAILED:
                found.append(step)
            elif step.attempt.status is puzzles.Status.PLAYING:
                walk(step.attempt)

    for one in puzzles.puzzles():
        walk(puzzles.start(one, 0))
    return found


def names(indexes) -> set[str]:
    return {CELL_NAMES[index] for index in indexes}


def named_cells(text: str) -> set[str]:
    """The cell names a piece of text mentions, lines' names left out ("the diagonal from the
    top left" names no cell)."""
    for line_name in LINE_NAMES.values():
        text = text.replace(line_name, "")
    return {name for name in CELL_NAMES if name in text}


def why_line(step: puzzles.Answer) -> str:
    body = render_puzzle(step.attempt, shown("en-US"), step=step).body
    (why,) = [line for line in body.splitlines() if line.startswith("💡 ")]
    return why


def test_after_a_wrong_move_the_player_hears_what_the_opponent_threatens_now():
    losses = 0
    for step in every_failure():
        attempt, refutation = step.attempt, step.attempt.refutation
        assert refutation is not None
        body = render_puzzle(attempt, shown("en-US"), step=step).body
        why = why_line(step)
        assert "hint for" not in body.lower()
        if refutation.after.outcome is not Outcome.LOSS:
            continue
        losses += 1
        assert body.endswith("would have prevented this."), body
        cells = cells_of(attempt.board)  # the reply on it
        them = other(attempt.puzzle.player)
        if is_over(cells):
            completed = [line for line in WIN_LINES if {cells[i] for i in line} == {them}]
            assert why in {
                f"💡 **{them}** was threatening {LINE_NAMES[line]}, and your move did not block it."
                for line in completed  # the reply may complete two lines at once
            }
            continue
        # Every cell named is one the opponent could still play: none is taken.
        assert named_cells(why) <= names(empties(cells)), why
        threats = winning_cells(cells, them)
        if len(threats) >= 2:
            assert why.startswith(f"💡 Now **{them}** threatens two lines at once (")
            assert named_cells(why) == names(threats)
        elif threats:
            (block,) = threats
            (line,) = [
                line
                for line in WIN_LINES
                if block in line and [cells[i] for i in line].count(them) == 2
            ]
            assert why == (
                f"💡 Now **{them}** threatens {LINE_NAMES[line]}: blocking it at "
                f"{CELL_NAMES[block]} does not save the game."
            )
        else:
            assert why.startswith(f"💡 Now **{them}** can make two threats at once next move (")
            assert named_cells(why) == names(fork_cells(cells, them)) != set()
    assert losses > 1000  # most wrong moves lose


def test_a_win_thrown_away_says_what_the_reply_stopped():
    kinds = set()
    for step in every_failure():
        attempt, refutation = step.attempt, step.attempt.refutation
        assert refutation is not None
        if (refutation.before.outcome, refutation.after.outcome) != (Outcome.WIN, Outcome.DRAW):
            continue
        body = render_puzzle(attempt, shown("en-US"), step=step).body
        assert body.splitlines()[-1].startswith(("The right move was", "The right moves were"))
        assert "prevented" not in body
        why = why_line(step)
        me = attempt.puzzle.player
        them = other(me)
        before_reply = list(cells_of(attempt.board))
        before_reply[to_index(refutation.reply)] = None
        if "blocks your threat on" in why:
            kinds.add("block")
            (line,) = [name for line, name in LINE_NAMES.items() if name in why]
            line_cells = next(cells for cells, name in LINE_NAMES.items() if name == line)
            assert to_index(refutation.reply) in line_cells
            assert [before_reply[i] for i in line_cells].count(me) == 2
            assert why == f"💡 **{them}** blocks your threat on {line}, and the win is gone."
        elif "stops the fork" in why:
            kinds.add("fork")
            assert why.startswith(f"💡 **{them}** stops the fork you were threatening (")
            assert named_cells(why) == names(fork_cells(tuple(before_reply), me))
        else:
            kinds.add("draw")
            assert why == f"💡 **{them}** can hold the draw from here."
    assert kinds == {"block", "fork", "draw"}
