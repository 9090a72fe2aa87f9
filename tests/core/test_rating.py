"""Glicko-2 as Glickman publishes it, and the bounds the bot adds."""

import pytest

from bot.core.rating import MAX_DEVIATION, MIN_DEVIATION, START, rate, rate_game
from bot.records.api import Rating


def test_glickmans_worked_example():
    # "Example of the Glicko-2 system" (2013), section 3: tau 0.5. The paper rounds every step
    # to a few digits and prints 1464.06; carried through exactly the rating is 1464.0507.
    player = Rating(1500, 200, 0.06, games=0)
    opponents = [(Rating(1400, 30, 0.06, 0), 1.0), (Rating(1550, 100, 0.06, 0), 0.0)]
    opponents.append((Rating(1700, 300, 0.06, 0), 0.0))
    after = rate(player, opponents, tau=0.5)
    assert after.value == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.games == 3


def test_a_period_without_games_changes_nothing():
    assert rate(START, []) == START


def test_one_game_moves_both_players_symmetrically_from_the_start():
    winner, loser = rate_game(START, START, 1.0)
    assert winner.value - 1500 == pytest.approx(1500 - loser.value)
    assert winner.value > 1500
    assert winner.deviation == loser.deviation < START.deviation
    drawn_x, drawn_o = rate_game(START, START, 0.5)
    assert drawn_x.value == pytest.approx(1500)
    assert drawn_o.value == pytest.approx(1500)


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    settled = Rating(1500, 60, 0.06, 100)
    strong, weak = Rating(1800, 60, 0.06, 100), Rating(1200, 60, 0.06, 100)
    assert rate(settled, [(strong, 1.0)]).value - 1500 > rate(settled, [(weak, 1.0)]).value - 1500


def test_deviation_stays_within_its_bounds():
    steady = Rating(1500, 46, 0.0001, 100)
    many = [(Rating(1500, 30, 0.06, 100), 0.5)] * 20
    assert rate(steady, many).deviation == MIN_DEVIATION
    wide = rate(Rating(1500, 349, 0.5, 1), [(START, 1.0)])
    assert wide.deviation <= MAX_DEVIATION
