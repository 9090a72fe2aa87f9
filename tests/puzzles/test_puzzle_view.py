"""What a puzzle says, in every language, for every puzzle's start, its wrong moves and its end:
within Discord's limits, the task true of the position, and the buttons readable back."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.i18n import LOCALES
from bot.puzzles.ids import CellClick, Mode, NextClick, Shown, parse
from bot.puzzles.view import RatingChange, render_puzzle
from bot.view.components import card_components
from fake_discord.limits import problems
from tictactoe import puzzles

SNOWFLAKE = 1_456_074_443_980_800_012


def shown(locale: str, mode: Mode = Mode.RATED) -> Shown:
    return Shown(SNOWFLAKE, mode, 1500, 350, locale)


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
