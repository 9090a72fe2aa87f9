"""The ultimate board's buttons carry its whole game: every button of positions from random
playouts comes back as the same game and the same action, within Discord's 100 characters for
the longest ids and looks; what no board shows is refused."""

import random

import pytest

from bot.core.base62 import encode as base62
from bot.core.codec import MAX_CUSTOM_ID_LENGTH, CodecError, Verb
from bot.core.game import AI, Challenge, Ending
from bot.core.server import DEFAULT_LOOK, TURN_TIMEOUT_CHOICES, Look, Mark
from bot.core.ultimate_game import UltimateGame
from bot.kinds.ultimate import codec
from tictactoe import ultimate

BIGGEST_ID = 2**64 - 1
ALICE, BOB = 111111111111111111, 222222222222222222
LONGEST_EMOJI = "🧑🏽‍🤝‍🧑🏻"  # 12 UTF-16 code units: the longest standard emoji a board carries
LOOKS = (
    DEFAULT_LOOK,
    Look(30),
    Look(max(TURN_TIMEOUT_CHOICES), Mark("tac", BIGGEST_ID, animated=True), Mark(LONGEST_EMOJI)),
    Look(None, Mark("🙂"), Mark("tic", 1)),
)
CONTROLS = (Verb.RESIGN, Verb.CONFIRM_RESIGN, Verb.KEEP_PLAYING, Verb.HINT, Verb.REMATCH)


def playout(rng: random.Random, moves: int) -> ultimate.State:
    state = ultimate.initial_state()
    for _ in range(moves):
        if ultimate.terminal(state):
            break
        state = ultimate.result(state, rng.choice(sorted(ultimate.actions(state))))
    return state


def games(rng: random.Random):
    """Games on and over, with the longest ids and every look, against the bot or not, each
    with every board its picker may open."""
    for number in range(120):
        position = playout(rng, rng.randrange(82))
        look = LOOKS[number % len(LOOKS)]
        players = [(BIGGEST_ID, BIGGEST_ID - 1, None), (ALICE, AI, "hard"), (AI, BOB, "easy")]
        x, o, level = players[number % 3]
        ending = None
        if not ultimate.terminal(position) and number % 5 == 0:
            ending = (Ending.X_RESIGNED, Ending.O_RESIGNED, Ending.EXPIRED)[number % 3]
        game = UltimateGame(
            x, o, level, position, ending, ("es-419", "de", "en-US")[number % 3], look
        )
        yield game
        if ending is None and game.forced_board is None:
            for board in game.playable_boards:
                yield game.picking(board)


def buttons(game: UltimateGame, key: str):
    """(custom_id, verb, action or board) of every button its card can carry."""
    for verb in (*CONTROLS, Verb.REVIEW):
        yield codec.control_id(key, verb), verb, None
    if game.picked is not None:
        yield codec.control_id(key, Verb.BACK), Verb.BACK, None
    if game.shown_board is None:
        for board in range(9):
            yield codec.pick_id(key, board), Verb.PICK, board
    else:
        for cell in range(9):
            yield codec.cell_id(key, cell), Verb.CELL, (game.shown_board, cell)


def test_every_button_of_every_game_comes_back_whole():
    checked = 0
    for game in games(random.Random(7)):
        key = codec.key(game)
        assert codec.decode_key(key) == game
        for custom_id, verb, target in buttons(game, key):
            assert len(custom_id) <= MAX_CUSTOM_ID_LENGTH, custom_id
            click = codec.decode(custom_id)
            assert click.state == game
            assert click.key == key
            assert click.verb is verb
            if verb is Verb.CELL:
                assert click.cell == target
            if verb is Verb.PICK:
                assert click.board == target
            checked += 1
    assert checked > 2000


def test_the_longest_id_fits():
    position = playout(random.Random(3), 40)
    look = LOOKS[2]
    game = UltimateGame(BIGGEST_ID, BIGGEST_ID - 1, None, position, None, "es-419", look)
    key = codec.key(game)
    assert len(codec.pick_id(key, 8)) <= MAX_CUSTOM_ID_LENGTH
    assert len(codec.control_id(key, Verb.KEEP_PLAYING)) <= MAX_CUSTOM_ID_LENGTH


def test_challenges_come_back_as_ultimate_challenges():
    for look in LOOKS:
        challenge = Challenge(ALICE, BIGGEST_ID, "O", "zh-CN", look, variant="ultimate")
        key = codec.key(challenge)
        for verb in (Verb.ACCEPT, Verb.DECLINE):
            click = codec.decode(codec.control_id(key, verb))
            assert click.state == challenge
            assert click.verb is verb
        accepted = challenge.accept()
        assert isinstance(accepted, UltimateGame)
        assert accepted.players == (BIGGEST_ID, ALICE)


def forged_ids():
    game = UltimateGame(ALICE, BOB, moves=())  # the first move is free: the picker
    key = codec.key(game)
    forced = game.play((4, 0))  # O must play in board 0
    yield "a cell on the picker", codec.cell_id(key, 4)
    yield "a picked forced board", codec.pick_id(codec.key(forced), 3).replace("-:", "3:", 1)
    yield "a board picked that is closed", _with_picked(game, won_board_game(), 0)
    yield "too long", codec.control_id(key, Verb.RESIGN) + "x" * 40
    yield "a leading zero", codec.control_id(key, Verb.RESIGN).replace(":", ":0", 2)
    yield "a bad level", codec.control_id(key, Verb.RESIGN).replace(":-:-:", ":q:-:")
    yield (
        "both players one",
        codec.control_id(codec.key(UltimateGame(ALICE, BOB)), Verb.HINT).replace(
            base62(BOB), base62(ALICE)
        ),
    )
    yield "a classic id", "ttt2:4:m:1:2:-:-:en-US"


def won_board_game() -> UltimateGame:
    """X has won board 0 and the move is free."""
    state = ultimate.initial_state()
    for action in ((0, 0), (0, 4), (4, 0), (0, 3), (3, 0), (0, 8), (8, 0)):
        state = ultimate.result(state, action)
    return UltimateGame(ALICE, BOB, position=state)


def _with_picked(_: UltimateGame, game: UltimateGame, board: int) -> str:
    key = codec.key(game)
    return codec.control_id(key, Verb.BACK).replace(key[:25], key[:24] + str(board), 1)


@pytest.mark.parametrize(("why", "custom_id"), list(forged_ids()))
def test_what_no_board_shows_is_refused(why, custom_id):
    with pytest.raises(CodecError):
        codec.decode(custom_id)
