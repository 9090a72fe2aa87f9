"""A tournament game's buttons carry its pairing beside the whole game, in 100 characters for
the longest players, moves, locale and look; its Hint and Rematch are refused as buttons no
tournament board shows."""

import random

from bot.core import codec
from bot.core.codec import Verb
from bot.core.game import Ending, Game
from bot.core.live import Live
from bot.core.policy import Refusal, Refuse, Seen, decide_click
from bot.core.server import Look, Mark

BIGGEST_ID = 2**64 - 1
LONGEST_LOOK = Look(840, Mark("tac", BIGGEST_ID, animated=True), Mark("🧑🏽‍🤝‍🧑🏻"))
LONGEST_PAIRING = "ZZZZZZZZZZZZ.999"


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_the_longest_tournament_ids_fit_and_come_back():
    moves = (0, 4, 8, 1, 7, 6, 2, 5, 3)  # a full board
    for length in range(len(moves) + 1):
        game = Game.from_moves(
            BIGGEST_ID,
            BIGGEST_ID - 1,
            None,
            moves[:length],
            None,
            "es-419",
            LONGEST_LOOK,
            LONGEST_PAIRING,
        )
        key = codec.state_key(game)
        assert codec.decode_state(key) == game
        for custom_id in (*codec.cell_ids(key), codec.id_of(Verb.REVIEW, key)):
            assert utf16_length(custom_id) <= codec.MAX_CUSTOM_ID_LENGTH, custom_id
            click = codec.decode(custom_id)
            assert click.state == game
            assert click.state.pairing == LONGEST_PAIRING


def test_a_pairing_survives_every_move_and_the_end():
    game = Game(1, 2, moves=(), pairing="a.1.1")
    for cell in ((0, 0), (1, 1), (0, 1), (2, 2), (0, 2)):
        game = game.play(cell)
        assert game.pairing == "a.1.1"
    assert game.winner_id == 1
    assert Game.from_moves(1, 2, None, (4,), pairing="a.1.1").expire().pairing == "a.1.1"


def test_no_hint_and_no_rematch_on_a_tournament_board():
    rng = random.Random(0)
    on = Game.from_moves(1, 2, None, (0,), pairing="a.1.1")
    over = Game.from_moves(1, 2, None, (0, 4), Ending.X_RESIGNED, pairing="a.1.1")
    for game, verb, user in ((on, Verb.HINT, 2), (over, Verb.REMATCH, 1)):
        key = codec.state_key(game)
        live = Live(7, key, None, "tok", 99.0, 5, "server", False) if not game.is_over else None
        click = codec.Click(game, key, verb)
        seen = Seen(click, 7, True, 1.0, False)
        decision = decide_click(live, seen, user, turn_timeout=60, rng=rng)
        assert decision == Refuse(Refusal.INVALID, game)
