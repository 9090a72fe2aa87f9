"""A board's look (its turn timeout, its marks' emoji) in and out of its custom_ids: every look
of a small set on every kind of button, the longest id, what is refused, the fallback when a
server's emoji is deleted."""

import itertools

import pytest

import tictactoe as ttt
from bot.core import codec
from bot.core.codec import Verb
from bot.core.game import AI, Challenge, Ending, Game, board_of_moves
from bot.core.server import (
    DEFAULT_LOOK,
    TURN_TIMEOUT_CHOICES,
    Look,
    Mark,
    ServerSettings,
    SettingError,
)
from tests.support.custom_ids import ids_of

BIGGEST_ID = 2**64 - 1
ALICE, BOB = 111111111111111111, 222222222222222222
# 12 UTF-16 code units, 7 code points: the longest standard emoji a board carries.
LONGEST_EMOJI = "🧑🏽‍🤝‍🧑🏻"
MARKS = (
    None,
    Mark("tic", 1),  # the smallest id
    Mark("tac", BIGGEST_ID, animated=True),  # the longest code: `a` and 11 digits
    Mark("toe", 61),  # one base-62 digit, the last
    Mark("🙂"),
    Mark("1️⃣"),  # a keycap: starts with an ASCII digit
    Mark(LONGEST_EMOJI),
)
LOOKS = [
    Look(timeout, x, o)
    for timeout, x, o in itertools.product((None, 30, max(TURN_TIMEOUT_CHOICES)), MARKS, MARKS)
    if x is None or x != o
]
GAMES = [
    Game.from_moves(BIGGEST_ID, BIGGEST_ID - 1, None, (0, 1, 2, 4, 3, 5, 7, 6, 8)),  # drawn
    Game.from_moves(AI, ALICE, "easy", (4,), locale="es-419"),
    Game.from_moves(ALICE, AI, "impossible", (0, 4), Ending.X_RESIGNED, "pt-BR"),
    Game.from_moves(ALICE, BOB, None, (), Ending.EXPIRED, "de"),
    Game(ALICE, BOB, None, board_of_moves((0, 3, 1, 4, 2))),  # won, move order unknown
]


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_every_look_comes_back_from_every_button():
    """Over every look of the set (3 timeouts x 7 marks x 7 marks): games on and over, with and
    without their move order, against the bot or not, and challenges, through every button."""
    for number, look in enumerate(LOOKS):
        game = GAMES[number % len(GAMES)]
        challenge = Challenge(ALICE, BIGGEST_ID, (ttt.X, ttt.O)[number % 2], "zh-CN")
        for state in (_with_look(game, look), _with_look(challenge, look)):
            key = codec.state_key(state)
            for custom_id, verb, cell in ids_of(state):
                assert len(custom_id) <= codec.MAX_CUSTOM_ID_LENGTH
                click = codec.decode(custom_id)
                assert click == codec.Click(state, key, verb, cell)
                assert click.state.look == look
                # The key a click carries is the one memory holds: written the same again.
                assert isinstance(click.state, Game | Challenge)
                assert codec.state_key(click.state) == key
            assert codec.decode_state(key) == state


def _with_look(state: Game | Challenge, look: Look) -> Game | Challenge:
    if isinstance(state, Challenge):
        return Challenge(
            state.challenger, state.opponent, state.challenger_mark, state.locale, look
        )
    return Game(
        state.x_player,
        state.o_player,
        state.difficulty,
        state.board,
        state.moves,
        state.ending,
        state.locale,
        look,
    )


def test_the_default_look_keeps_the_ids_boards_always_had():
    game = Game.from_moves(ALICE, AI, "hard", (4, 0))
    assert codec.state_key(game) == f"m40:{ALICE}:0:h:-:en-US"
    challenge = Challenge(ALICE, BOB, ttt.O, "de")
    assert codec.state_key(challenge) == f"{ALICE}:{BOB}:O:de"
    assert codec.look_suffix(DEFAULT_LOOK) == ""


def test_servers_that_set_no_look_share_the_default_one():
    assert ServerSettings().look is DEFAULT_LOOK
    assert ServerSettings(games_per_channel=3, challenge_cooldown=60).look is DEFAULT_LOOK
    assert ServerSettings(turn_timeout=60).look == Look(60)


def test_a_look_is_written_after_the_locale():
    look = Look(120, Mark("cross", 62, animated=True), Mark("🙂"))
    game = Game.from_moves(ALICE, BOB, None, (4,), locale="fr", look=look)
    assert codec.control_id(game, Verb.RESIGN) == f"ttt2:r:m4:{ALICE}:{BOB}:-:-:fr:120:a10:🙂"
    timeout_only = Challenge(ALICE, BOB, ttt.X, look=Look(30))
    assert codec.control_id(timeout_only, Verb.ACCEPT) == f"ttt2:a:{ALICE}:{BOB}:X:en-US:30:-:-"
    o_only = Look(o=Mark("nought", 62**10 + 35))
    assert codec.look_suffix(o_only) == ":-:-:c" + "1" + "0" * 9 + "Z"  # Z is 35


def test_the_longest_custom_id_fits_with_the_longest_look():
    """Two 20-digit ids, a full move list, the longest locale, the longest timeout, and both
    marks as long as a board carries: every verb's id fits in 100 characters, however they are
    counted (code points or UTF-16 units)."""
    longest_marks = (Mark("x", BIGGEST_ID, animated=True), Mark(LONGEST_EMOJI))
    ids = []
    for x, o in (longest_marks, longest_marks[::-1]):
        look = Look(max(TURN_TIMEOUT_CHOICES), x, o)
        moves = (0, 1, 2, 4, 3, 5, 7, 6, 8)
        game = Game.from_moves(BIGGEST_ID, BIGGEST_ID - 1, None, moves, None, "es-419", look)
        unknown_order = _with_look(Game(BIGGEST_ID, AI, "hard", game.board), look)
        challenge = Challenge(BIGGEST_ID, BIGGEST_ID - 1, ttt.O, "es-419", look)
        for state in (game, unknown_order, challenge):
            ids += [custom_id for custom_id, _, _ in ids_of(state)]
    assert max(map(utf16_length, ids)) == codec.MAX_CUSTOM_ID_LENGTH  # the bound is exact
    assert max(map(len, ids)) <= codec.MAX_CUSTOM_ID_LENGTH
    assert all(codec.decode(custom_id) for custom_id in ids)


@pytest.mark.parametrize(
    ("text", "fits"),
    [
        ("🙂", True),
        ("❤️", True),
        ("🇫🇷", True),
        ("1️⃣", True),
        (LONGEST_EMOJI, True),
        ("👩🏻‍❤️‍💋‍👨🏼", False),  # 15 UTF-16 units
        ("🙂" * 7, False),
        ("X", False),  # ASCII only: not an emoji, and a board's codes are ASCII
        ("-", False),
        ("🙂:", False),  # the separator
        ("🙂 🙂", False),
    ],
)
def test_mark_fits_says_which_standard_emoji_a_board_can_carry(text, fits):
    assert codec.mark_fits(Mark(text)) is fits
    game = Game.from_moves(ALICE, BOB, None, (4,), look=Look(x=Mark(text)))
    if fits:
        assert codec.decode_state(codec.state_key(game)) == game
    else:
        with pytest.raises(codec.CodecError):
            codec.state_key(game)


def test_every_custom_emoji_fits():
    for emoji_id in (1, 61, 62, 2**32, BIGGEST_ID):
        for animated in (False, True):
            assert codec.mark_fits(Mark("a_name_of_thirty_two_characters_", emoji_id, animated))


@pytest.mark.parametrize(
    "custom_id",
    [
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:-:-:-",  # the default look written out
        f"ttt2:a:{ALICE}:{BOB}:X:en-US:-:-:-",
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:45:-:-",  # not a timeout /settings offers
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:030:-:-",  # a leading zero
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:-",  # a part missing
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:-:-:-",  # one too many
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:c0A:-",  # a leading zero in base 62
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:cLygHa16AHYG:-",  # 2**64: not an emoji id
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:cLygHa16AHYFF:-",  # 12 digits
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:x1:-",  # an ASCII code that is no mark
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:X:-",
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:c:-",
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:-:👩🏻‍❤️‍💋‍👨🏼",  # too long to have been written
        f"ttt2:0:m:{ALICE}:{BOB}:-:-:en-US:30:🙂 :-",
        "ttt:0:---------:1:0:i:-:30:-:-",  # the previous version had no look
    ],
)
def test_malformed_looks_are_rejected(custom_id):
    with pytest.raises(codec.CodecError):
        codec.decode(custom_id)
    key = custom_id.split(":", 2)[2]
    with pytest.raises(codec.CodecError):
        codec.decode_state(key)


def test_a_decoded_custom_mark_equals_its_servers_though_its_name_is_not_carried():
    named = Look(60, Mark("cross", 123456789), Mark("nought", 987654321, animated=True))
    game = Game.from_moves(ALICE, BOB, None, (4,), look=named)
    decoded = codec.decode(codec.control_id(game, Verb.RESIGN)).state
    assert isinstance(decoded, Game)
    assert decoded == game
    assert decoded.look.x is not None
    assert decoded.look.x.text == "mark"
    assert decoded.look.x.markdown == "<:mark:123456789>"
    assert Mark("a", 5) == Mark("b", 5) != Mark("a", 5, animated=True)
    assert Mark("🙂") != Mark("🙃")
    assert len({Mark("a", 5), Mark("b", 5), Mark("🙂")}) == 2


def test_a_mark_refuses_an_animated_standard_emoji():
    with pytest.raises(SettingError):
        Mark("🙂", animated=True)


def test_vanished_custom_emoji_fall_back_to_letters():
    kept, deleted = Mark("kept", 1), Mark("deleted", 2)
    look = Look(300, deleted, kept)
    assert look.with_emoji_that_exist({1}.__contains__) == Look(300, None, kept)
    assert look.with_emoji_that_exist(lambda _: False) == Look(300)
    assert look.with_emoji_that_exist(lambda _: True) is look
    standard = Look(None, Mark("🙂"), deleted)
    assert standard.with_emoji_that_exist(lambda _: False) == Look(None, Mark("🙂"))
    assert Look(x=deleted).with_emoji_that_exist(lambda _: False) is DEFAULT_LOOK
    # A game drawn after the fallback carries the letters, and its ids say so.
    settings = ServerSettings(turn_timeout=300, x_emoji=deleted, o_emoji=kept)
    fallen = settings.look.with_emoji_that_exist({1}.__contains__)
    game = Game.from_moves(ALICE, BOB, None, (), look=fallen)
    assert codec.state_key(game).endswith(":300:-:c1")
