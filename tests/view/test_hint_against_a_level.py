"""A hint against a level that can go wrong: perfect play's outcomes, then the safe moves that
win it most often, when any can; in English and in a language that writes percentages its own
way."""

from __future__ import annotations

import math

import pytest
from brute_force import is_over, mover, reachable_positions, solve, to_board

from bot.core.game import AI, Game
from bot.core.server import Look
from bot.view.teaching import render_hint
from tests.support.words import CELL_NAMES
from tictactoe.review import cell_number, winning_chances

ALICE, BOB = 111111111111111111, 222222222222222222
CORNERS = "top left, top right, bottom left, or bottom right"


def game_on(cells, level: str | None, locale: str = "en-US") -> Game:
    """The person to move on `cells`, the bot (at `level`) on the other side."""
    rows = tuple(tuple(cells[i : i + 3]) for i in (0, 3, 6))
    other = AI if level is not None else BOB
    x, o = (ALICE, other) if mover(cells) == "X" else (other, ALICE)
    return Game(x, o, level, rows, None, None, locale, Look())  # type: ignore[arg-type]


def last_line(game: Game) -> str:
    return render_hint(game, game.locale).text.split("\n")[-1]


EMPTY = (None,) * 9


def test_against_easy_the_hint_says_what_wins_most_often():
    text = render_hint(game_on(EMPTY, "easy"), "en-US").text
    lines = text.split("\n")
    assert lines[0] == "💡 **Hint for X**, by perfect play:"  # perfect play stays what it is
    assert lines[-2] == "Every move keeps the draw with good play."
    assert lines[-1] == (
        f"🎯 **Against Easy**, the best chance to win without risking the draw: {CORNERS} "
        "(99.4% of games)."
    )


def test_the_chance_is_written_the_languages_way():
    german = last_line(game_on(EMPTY, "easy", "de"))
    assert german.startswith("🎯 **Gegen mich, Leicht**")
    assert german.endswith("(99,4\xa0% der Partien).")


@pytest.mark.parametrize("level", [None, "impossible"])
def test_against_a_perfect_opponent_or_a_person_perfect_play_is_all_there_is(level):
    assert "🎯" not in render_hint(game_on(EMPTY, level), "en-US").text


def test_in_a_lost_position_a_weak_level_may_still_be_beaten():
    # X threatens the centre; once O blocks it, X answers with a fork: O is lost.
    cells = ("X", None, None, None, None, None, "O", None, "X")
    assert solve(cells)[0] == -1
    line = last_line(game_on(cells, "easy"))
    assert line.startswith("🎯 **Against Easy**, the best chance to still win: ")


def test_every_position_names_the_moves_that_win_most_often():
    """Against each level, on every position with the person to move: the line is there when a
    safe move can win and perfect play does not win already, and names exactly those moves,
    with their chance rounded down to a tenth of a percent."""
    for level in ("easy", "medium", "hard"):
        for cells in reachable_positions():
            if is_over(cells):
                continue
            text = render_hint(game_on(cells, level), "en-US").text
            chances = winning_chances(to_board(cells), level)
            best = max(chances.values())
            if solve(cells)[0] == 1 or not best:
                assert "🎯" not in text, (level, cells)
                continue
            line = text.split("\n")[-1]
            named = {name for name in CELL_NAMES if name in line.split(":", 1)[1]}
            top = {
                CELL_NAMES[cell_number(a) - 1] for a, chance in chances.items() if chance == best
            }
            assert named == top, (level, cells, line)
            shown = max(math.floor(best * 1000), 1) / 10
            assert f"({shown:g}% of games)." in line, (level, cells, line, best)
