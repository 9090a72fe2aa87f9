"""The pairing text a tournament board carries, and a finished board as a tournament result."""

import itertools

import pytest

from bot.core.game import Ending, Game
from bot.core.ultimate_game import UltimateGame
from bot.tournaments.core import Result
from bot.tournaments.keys import pairing_key, pairing_text, result_of_board
from bot.tournaments.running import PairingKey

ALICE, BOB = 11, 22


@pytest.mark.parametrize(
    ("tournament_id", "round_number", "board"),
    list(itertools.product((0, 1, 61, 62, 3843, 10**12), (1, 9, 10, 999), (1, 32, 512))),
)
def test_a_key_survives_its_text(tournament_id, round_number, board):
    key = PairingKey(tournament_id, round_number, board)
    text = pairing_text(key)
    assert len(text) <= 16
    assert set(text) <= set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.")
    assert pairing_key(text) == key


@pytest.mark.parametrize("text", [None, "", "1.1", "1.0.1", "1.1.0", "01.1.1", "1.01.1", "a.b.c"])
def test_other_texts_name_no_key(text):
    assert pairing_key(text) is None


def played(*moves: int, ending: Ending | None = None) -> Game:
    return Game.from_moves(ALICE, BOB, None, moves, ending)


@pytest.mark.parametrize(
    ("game", "result"),
    [
        (played(0, 3, 1, 4, 2), Result.X_WON),
        (played(3, 0, 4, 1, 8, 2), Result.O_WON),
        (played(0, 1, 2, 4, 3, 5, 7, 6, 8), Result.DRAW),
        (played(ending=Ending.EXPIRED), Result.DOUBLE_FORFEIT),  # nobody moved
        (played(4, ending=Ending.EXPIRED), Result.X_WON_BY_FORFEIT),  # O never moved
        (played(4, 0, ending=Ending.EXPIRED), Result.O_WON),  # X's turn ran out
        (played(ending=Ending.X_RESIGNED), Result.O_WON_BY_FORFEIT),
        (played(4, 0, ending=Ending.O_RESIGNED), Result.X_WON),
    ],
)
def test_a_finished_board_is_the_result_the_standings_count(game, result):
    assert result_of_board(game) is result


def test_an_ultimate_board_nobody_played_is_lost_by_both():
    game = UltimateGame.start(ALICE, BOB, None).expire()
    assert result_of_board(game) is Result.DOUBLE_FORFEIT
