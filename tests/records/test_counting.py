"""What one game changes in its players' aggregates (bot/records/sql/counting.py), worked out
by hand for each kind of game."""

import pytest

from bot.core import rating as glicko
from bot.core.game import AI, Ending
from bot.records.sql.counting import PLAYER_COLUMNS, count_game, rating_of
from tests.support.records import ALICE, BOB, DRAW, O_WINS, X_WINS, record


def fresh() -> dict:
    state: dict[str, object] = dict.fromkeys(PLAYER_COLUMNS, 0)
    state.update(rating=None, deviation=None, volatility=None)
    return state


def counted(*games):
    states = {ALICE: fresh(), BOB: fresh()}
    tallies: dict = {}
    for game in games:
        count_game(game, states, tallies)
    return states, tallies


def test_a_win_against_a_person_counts_and_rates_both():
    states, tallies = counted(record(1, ALICE, BOB, X_WINS))
    alice, bob = states[ALICE], states[BOB]
    assert (alice["people_wins"], alice["streak"], alice["best_streak"]) == (1, 1, 1)
    assert (bob["people_losses"], bob["streak"]) == (1, 0)
    assert tallies == {}
    expected = glicko.rate_game(glicko.START, glicko.START, 1.0)
    assert (rating_of(alice), rating_of(bob)) == expected
    assert expected[0].value > 1500 > expected[1].value


def test_a_draw_keeps_ratings_level_and_ends_a_streak():
    states, _ = counted(record(1, ALICE, BOB, X_WINS), record(2, ALICE, BOB, DRAW))
    assert (states[ALICE]["people_draws"], states[ALICE]["streak"]) == (1, 0)
    assert states[ALICE]["best_streak"] == 1


def test_games_against_the_bot_fill_the_bot_board_and_are_not_rated():
    states, tallies = counted(
        record(1, ALICE, AI, DRAW, level="impossible"),
        record(2, AI, ALICE, X_WINS, level="impossible"),
        record(3, ALICE, AI, X_WINS, level="hard"),
    )
    alice = states[ALICE]
    assert alice["bot_games"] == 3
    assert (alice["unbeaten_impossible"], alice["best_unbeaten_impossible"]) == (0, 1)
    assert alice["wins_hard"] == 1
    assert rating_of(alice) is None
    assert tallies == {(ALICE, "impossible"): [0, 1, 1], (ALICE, "hard"): [1, 0, 0]}


def test_an_expired_game_is_lost_by_the_player_to_move():
    # Four moves in: X (Alice) to move runs out of time.
    states, _ = counted(record(1, ALICE, BOB, O_WINS[:4], ending=Ending.EXPIRED))
    assert (states[ALICE]["people_losses"], states[BOB]["people_wins"]) == (1, 1)


@pytest.mark.parametrize("ending", [Ending.X_RESIGNED, Ending.EXPIRED])
def test_a_game_abandoned_before_both_moved_is_not_counted(ending):
    game = record(1, ALICE, BOB, (4,), ending=ending)
    assert not game.counted
    assert game.winner is None
