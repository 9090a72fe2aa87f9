"""The picture of a position is drawn once and shown again from memory; the worker's reply
brings the picture of the position the bot's move makes, as the loop would have drawn it."""

import random

from bot.core.ultimate_game import UltimateGame
from bot.kinds.ultimate import drawing, picture
from tictactoe import ultimate


def test_a_position_is_drawn_once_and_as_the_game_shows_it():
    rng = random.Random(4)
    game = UltimateGame(1, 2, moves=())
    while not game.is_over:
        game = game.play(rng.choice(sorted(ultimate.actions(game.position))))
        first = drawing.picture_of(game.position, game.is_over)
        assert drawing.picture_of(game.position, game.is_over) is first  # kept
        assert first == picture.draw(
            game.cells,
            won=game.small_winners,
            last=game.last_move,
            playable=game.playable_boards,
            winning_line=game.winning_line,
        )


def test_an_ended_game_shows_no_playable_board():
    position = ultimate.result(ultimate.initial_state(), (4, 4))
    assert drawing.draw(position, True) != drawing.draw(position, False)


def test_the_workers_reply_brings_the_picture_of_its_move():
    position = ultimate.result(ultimate.initial_state(), (0, 4))
    action, png = drawing.reply_with_picture(position, "easy", random.Random(2))
    assert action in ultimate.actions(position)
    after = ultimate.result(position, action)
    assert png == drawing.draw(after, ultimate.terminal(after))
