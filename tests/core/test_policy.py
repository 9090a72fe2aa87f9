"""The click decision, exhaustively: every reachable board, every button, every clicker.

The oracle below restates the rules a player would describe ("only the player to move can
take an empty cell; a stranger can touch nothing"), in a different shape from policy.py, and
every combination is checked against it.
"""

import random

import pytest
from brute_force import is_over, mover, reachable_positions, to_board

import tictactoe as ttt
from bot.core import policy
from bot.core.codec import Click, Verb, state_key
from bot.core.game import AI, Challenge, Ending, Game, freeze_board
from bot.core.policy import (
    AskResign,
    Decline,
    Expire,
    KeepPlaying,
    Live,
    Private,
    PrivateKind,
    Refusal,
    Refuse,
    Resign,
    Room,
    Seen,
    Start,
    Update,
    decide_click,
    refuse_start,
)

ALICE, BOB, CAROL = 111111111111111111, 222222222222222222, 333333333333333333
MESSAGE, OTHER_MESSAGE = 5000, 6000
TIMEOUT = 600
SEAT, OTHER_SEAT = (42, ALICE, BOB), (42, CAROL, 444444444444444444)
CELL_VERBS = [(Verb.CELL, (i, j)) for i in range(3) for j in range(3)]
CONTROL_VERBS = [(verb, None) for verb in Verb if verb is not Verb.CELL]


def live_for(state, message_id=MESSAGE, token="token", unsure_of=None):
    return Live(message_id, state_key(state), unsure_of, token, 1000.0, 42)


def seen(
    state,
    verb,
    cell=None,
    *,
    message_id=MESSAGE,
    current=True,
    age=1.0,
    ended=False,
    seat=SEAT,
    message_seat=None,
):
    click = Click(state, state_key(state), verb, cell)
    return Seen(click, message_id, current, age, ended, seat, message_seat)


def games_on(cells):
    board = freeze_board(to_board(cells))
    games = [Game(ALICE, BOB, None, board)]
    x_to_move = mover(cells) == "X"
    # Against the bot the human is always to move on a board the bot posted.
    games.append(Game(ALICE, AI, "hard", board) if x_to_move else Game(AI, ALICE, "easy", board))
    return [
        Game(g.x_player, g.o_player, g.difficulty, g.board, None) for g in games
    ]  # order unknown: the decision must not need it


def expected(game, verb, cell, user, *, live_matches=True, confirm_live=True):
    """The rules, as a table a player would write down."""
    is_player = user in (game.x_player, game.o_player)
    if game.is_over:
        if verb not in (Verb.REMATCH, Verb.REVIEW):
            return ("refuse", Refusal.GAME_OVER)
        if not is_player:
            return ("refuse", Refusal.NOT_PLAYER)
        return ("private", PrivateKind.REVIEW) if verb is Verb.REVIEW else ("start",)
    if verb is Verb.KEEP_PLAYING:
        return ("keep_playing",) if is_player else ("refuse", Refusal.INVALID)
    if verb is Verb.CONFIRM_RESIGN:
        if not is_player:
            return ("refuse", Refusal.INVALID)
        return ("resign",) if confirm_live else ("refuse", Refusal.STALE)
    if verb in (Verb.ACCEPT, Verb.DECLINE, Verb.REMATCH, Verb.REVIEW, Verb.PICK, Verb.BACK):
        return ("refuse", Refusal.INVALID)  # the picker's are the ultimate board's
    if not is_player:
        return ("refuse", Refusal.NOT_PLAYER)
    if verb is Verb.RESIGN:
        return ("ask_resign",)
    to_move = game.x_player if game.mark_to_move == ttt.X else game.o_player
    if verb is Verb.HINT:
        if AI not in (game.x_player, game.o_player):
            return ("refuse", Refusal.HINT_VS_BOT_ONLY)
        return (
            ("private", PrivateKind.HINT) if user == to_move else ("refuse", Refusal.NOT_YOUR_TURN)
        )
    if user != to_move:
        return ("refuse", Refusal.NOT_YOUR_TURN)
    if game.board[cell[0]][cell[1]] is not None:
        return ("refuse", Refusal.CELL_TAKEN)
    return ("update",)


def summary(decision):
    match decision:
        case Refuse(reason=reason):
            return ("refuse", reason)
        case Private(kind=kind):
            return ("private", kind)
        case Update():
            return ("update",)
        case Start():
            return ("start",)
        case Resign():
            return ("resign",)
        case AskResign():
            return ("ask_resign",)
        case Expire():
            return ("expire",)
        case Decline():
            return ("decline",)
        case KeepPlaying():
            return ("keep_playing",)
    raise AssertionError(decision)


@pytest.fixture(scope="module")
def positions():
    return reachable_positions()


def test_every_board_button_and_clicker_against_the_rules(positions):
    rng = random.Random(0)
    checked = 0
    for cells in positions:
        for game in games_on(cells):
            live = None if game.is_over else live_for(game)
            for verb, cell in CELL_VERBS + CONTROL_VERBS:
                for user in (ALICE, BOB, CAROL):
                    decision = decide_click(
                        live, seen(game, verb, cell), user, turn_timeout=TIMEOUT, rng=rng
                    )
                    assert summary(decision) == expected(game, verb, cell, user), (
                        game,
                        verb,
                        cell,
                        user,
                    )
                    checked += 1
    assert checked == 5478 * 2 * 19 * 3  # 9 cells and 10 controls (two of them the picker's)


def test_an_accepted_move_plays_the_cell_and_the_bots_reply(positions):
    rng = random.Random(1)
    for cells in positions:
        if is_over(cells):
            continue
        for game in games_on(cells):
            human = game.player_to_move
            if human == AI:
                continue
            cell = min(ttt.actions(game.board))
            decision = decide_click(
                live_for(game), seen(game, Verb.CELL, cell), human, turn_timeout=TIMEOUT, rng=rng
            )
            assert isinstance(decision, Update)
            new = decision.new
            assert isinstance(new, Game)
            assert new.board[cell[0]][cell[1]] == game.mark_to_move
            placed = sum(
                a != b
                for ra, rb in zip(game.board, new.board, strict=True)
                for a, b in zip(ra, rb, strict=True)
            )
            bot_replied = game.vs_ai and not game.play(cell).is_over
            assert placed == (2 if bot_replied else 1)
            assert new.is_over or new.player_to_move == human or not game.vs_ai


def test_rematch_swaps_the_marks_and_review_needs_a_player():
    rng = random.Random(2)
    finished = Game(ALICE, AI, "medium").resign(ALICE)
    decision = decide_click(
        None, seen(finished, Verb.REMATCH), ALICE, turn_timeout=TIMEOUT, rng=rng
    )
    assert isinstance(decision, Start)
    assert decision.retire == finished
    assert decision.state.x_player == AI
    assert decision.state.o_player == ALICE
    assert decision.state.difficulty == "medium"
    again = live_for(Game.start(AI, ALICE, "medium", rng))
    busy = decide_click(again, seen(finished, Verb.REMATCH), ALICE, turn_timeout=TIMEOUT, rng=rng)
    assert busy == Refuse(Refusal.PLAYING_HERE, finished, link=again)


# ------------------------------------------------------------------ the message as the truth


GAME = Game(ALICE, BOB).play((1, 1))
NEXT = GAME.play((0, 0))


@pytest.mark.parametrize(
    ("live", "kwargs", "outcome"),
    [
        # nothing in memory (a restart): the message is the record
        (None, {}, ("update",)),
        (None, {"age": TIMEOUT + 1}, ("expire",)),
        (None, {"ended": True}, ("refuse", Refusal.GAME_OVER)),
        # memory holds this very state
        (live_for(GAME), {}, ("update",)),
        # memory moved on: a click from an older view of the board
        (live_for(NEXT), {}, ("refuse", Refusal.STALE)),
        # another board is the channel's live one
        (live_for(GAME, message_id=OTHER_MESSAGE), {}, ("refuse", Refusal.NOT_ACTIVE)),
        # a custom_id that is not among the message's components: forged, not a player's
        (live_for(GAME), {"current": False}, ("refuse", Refusal.INVALID)),
        # an edit whose fate is unknown: a click on either state settles it
        (live_for(NEXT, unsure_of=state_key(GAME)), {}, ("update",)),
    ],
)
def test_memory_and_message_disagreeing(live, kwargs, outcome):
    decision = decide_click(
        live,
        seen(GAME, Verb.CELL, (2, 2), **kwargs),
        BOB,
        turn_timeout=TIMEOUT,
        rng=random.Random(),
    )
    assert summary(decision) == outcome


def test_after_an_ambiguous_edit_the_newer_state_is_playable_too():
    live = live_for(NEXT, unsure_of=state_key(GAME))
    decision = decide_click(
        live, seen(NEXT, Verb.CELL, (2, 2)), ALICE, turn_timeout=TIMEOUT, rng=random.Random()
    )
    assert isinstance(decision, Update)
    assert decision.old == live


def test_a_confirmed_resignation_needs_the_live_game_and_its_token():
    ask = seen(GAME, Verb.CONFIRM_RESIGN, message_id=OTHER_MESSAGE)
    rng = random.Random()
    assert isinstance(
        decide_click(live_for(GAME), ask, ALICE, turn_timeout=TIMEOUT, rng=rng), Resign
    )
    for live in (None, live_for(NEXT), live_for(GAME, token=None)):
        assert decide_click(live, ask, ALICE, turn_timeout=TIMEOUT, rng=rng) == Refuse(
            Refusal.STALE, GAME
        )
    # The game ended (a timeout, the last move) while the question waited: said as over.
    ended = seen(GAME, Verb.CONFIRM_RESIGN, message_id=OTHER_MESSAGE, ended=True)
    assert decide_click(None, ended, ALICE, turn_timeout=TIMEOUT, rng=rng) == Refuse(
        Refusal.GAME_OVER, GAME
    )
    resigned = decide_click(live_for(GAME), ask, BOB, turn_timeout=TIMEOUT, rng=rng)
    assert isinstance(resigned, Resign)
    assert resigned.new.ending is Ending.O_RESIGNED


# ------------------------------------------------------------------ challenges and starts


CHALLENGE = Challenge(ALICE, BOB, ttt.O)


@pytest.mark.parametrize("verb", list(Verb))
@pytest.mark.parametrize("user", [ALICE, BOB, CAROL])
def test_only_the_challenged_user_answers(verb, user):
    decision = decide_click(
        live_for(CHALLENGE), seen(CHALLENGE, verb), user, turn_timeout=TIMEOUT, rng=random.Random()
    )
    if verb not in (Verb.ACCEPT, Verb.DECLINE):
        assert decision == Refuse(Refusal.INVALID, CHALLENGE)
    elif user != BOB:
        assert decision == Refuse(Refusal.ONLY_OPPONENT, CHALLENGE)
    elif verb is Verb.ACCEPT:
        assert decision == Update(live_for(CHALLENGE), Game(BOB, ALICE, moves=()))
    else:
        assert decision == Decline(live_for(CHALLENGE), CHALLENGE)


def test_a_challenge_lapses_after_a_minute_when_nothing_watched_it():
    click = seen(CHALLENGE, Verb.ACCEPT, age=policy.CHALLENGE_SECONDS + 1)
    assert decide_click(None, click, BOB, turn_timeout=TIMEOUT, rng=random.Random()) == Expire(
        CHALLENGE
    )


def room(**changes) -> Room:
    free = Room(in_channel=0, limit=1, mine=None, theirs=None, any_live=None)
    return free._replace(**changes)


GAME_LIVE = live_for(GAME)


@pytest.mark.parametrize(
    ("opponent", "where", "outcome"),
    [
        (None, room(), None),
        ((BOB, False), room(), None),
        ((ALICE, False), room(), Refuse(Refusal.SELF_CHALLENGE)),
        ((BOB, True), room(), Refuse(Refusal.BOT_OPPONENT)),
        (None, room(in_channel=1, any_live=GAME_LIVE), Refuse(Refusal.BUSY, link=GAME_LIVE)),
        ((BOB, False), room(in_channel=1, limit=2), None),
        (
            (BOB, False),
            room(in_channel=3, limit=3, any_live=GAME_LIVE),
            Refuse(Refusal.BUSY, link=GAME_LIVE, limit=3),
        ),
        (
            None,
            room(in_channel=1, limit=5, mine=GAME_LIVE),
            Refuse(Refusal.PLAYING_HERE, link=GAME_LIVE),
        ),
        (
            (BOB, False),
            room(in_channel=1, limit=5, theirs=GAME_LIVE),
            Refuse(Refusal.OPPONENT_PLAYING, link=GAME_LIVE),
        ),
        (
            (BOB, False),
            room(limit=5, pending=GAME_LIVE, pending_channel=77),
            Refuse(Refusal.CHALLENGE_PENDING, link=GAME_LIVE, link_channel=77),
        ),
        (None, room(limit=5, pending=GAME_LIVE), None),  # playing the bot is no challenge
        ((BOB, False), room(cooldown=12.5), Refuse(Refusal.COOLDOWN, wait=12.5)),
        (None, room(cooldown=12.5), None),
    ],
)
def test_starting_a_game(opponent, where, outcome):
    assert refuse_start(ALICE, opponent, where) == outcome


def test_expired_games_keep_who_was_to_move():
    expired = GAME.expire()
    assert expired.ending is Ending.EXPIRED
    assert expired.player_to_move == BOB


# ------------------------------------------------------------------ a click not of its message


def every_kind_of_message(positions):
    """Every state a message can show: each reachable board (against a friend and the bot, on
    and over) and a challenge each way."""
    for cells in positions:
        yield from games_on(cells)
    yield Challenge(ALICE, BOB, ttt.X)
    yield Challenge(BOB, ALICE, ttt.O)


def test_a_click_not_of_the_clicked_message_changes_nothing(positions):
    """Every verb on every kind of message, by every clicker, with memory holding the state or
    not: a custom_id that is not among the message's components, or whose state belongs to
    another seat than the one memory knows the message to show, is refused as not valid; one
    that is its own is decided as if nothing were known of the message."""
    rng = random.Random(3)
    checked = 0
    for state in every_kind_of_message(positions):
        key = state_key(state)
        is_game_on = isinstance(state, Game) and not state.is_over
        refused = Refuse(Refusal.INVALID, state)
        for live in (None, live_for(state)) if is_game_on else (None,):
            for verb, cell in CELL_VERBS + CONTROL_VERBS:
                click = Click(state, key, verb, cell)
                forged = [
                    Seen(click, MESSAGE, False, 1.0, False, SEAT, None),
                    Seen(click, MESSAGE, True, 1.0, False, SEAT, OTHER_SEAT),
                    Seen(click, MESSAGE, False, 1.0, False, SEAT, SEAT),
                ]
                for user in (ALICE, BOB, CAROL):
                    for one in forged:
                        decision = decide_click(live, one, user, turn_timeout=TIMEOUT, rng=rng)
                        assert decision == refused, (state, verb, user)
                    checked += 1
                if live is None:  # its own id: decided as ever
                    own = Seen(click, MESSAGE, True, 1.0, False, SEAT, SEAT)
                    unknown = Seen(click, MESSAGE, True, 1.0, False, SEAT, None)
                    assert decide_click(
                        live, own, ALICE, turn_timeout=TIMEOUT, rng=random.Random(4)
                    ) == decide_click(
                        live, unknown, ALICE, turn_timeout=TIMEOUT, rng=random.Random(4)
                    )
    assert checked > 5478 * 2 * 17 * 3
