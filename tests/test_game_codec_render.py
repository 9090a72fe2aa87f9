"""The bot's pure parts, over every reachable position: Game, custom_id codec, render."""

import random

import discord
import pytest
from brute_force import WIN_LINES, reachable_positions, to_board, winner_of

import tictactoe as ttt
from bot import codec
from bot.game import AI, Challenge, Ending, Game, GameError, freeze_board
from bot.render import EMPTY_LABEL, render_challenge, render_game

BIGGEST_ID = 2**64 - 1  # the largest snowflake Discord can hand out
ALICE, BOB = 111111111111111111, 222222222222222222
BOT_ID = 999999999999999999


@pytest.fixture(scope="module")
def positions():
    return reachable_positions()


def games_for(cells):
    board = freeze_board(to_board(cells))
    return [
        Game(ALICE, AI, "impossible", board),
        Game(AI, BIGGEST_ID, "easy", board),
        Game(BIGGEST_ID, BOB, None, board),
    ]


def test_every_reachable_game_survives_its_custom_ids(positions):
    for cells in positions:
        for game in games_for(cells):
            for cell in ((i, j) for i in range(3) for j in range(3)):
                custom_id = codec.cell_id(game, cell)
                assert len(custom_id) <= codec.MAX_CUSTOM_ID_LENGTH
                assert codec.decode(custom_id) == codec.GameClick(game, cell, None)
            for verb in (codec.Verb.RESIGN, codec.Verb.REMATCH):
                assert codec.decode(codec.control_id(game, verb)) == codec.GameClick(
                    game, None, verb
                )


def test_endings_and_challenges_survive_their_custom_ids():
    game = Game(ALICE, BOB, None, freeze_board(ttt.result(ttt.initial_state(), (1, 1))))
    for ending in Ending:
        ended = Game(ALICE, BOB, None, game.board, ending)
        assert codec.decode(codec.control_id(ended, codec.Verb.REMATCH)).game == ended
    for mark in (ttt.X, ttt.O):
        challenge = Challenge(BIGGEST_ID, BOB, mark)
        for verb in (codec.Verb.ACCEPT, codec.Verb.DECLINE):
            custom_id = codec.challenge_id(challenge, verb)
            assert len(custom_id) <= codec.MAX_CUSTOM_ID_LENGTH
            assert codec.decode(custom_id) == codec.ChallengeClick(challenge, verb)


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "ttt:",
        "ttt:0:---------:1:0:i",  # a field missing
        "ttt:0:---------:1:0:x:-",  # unknown level
        "ttt:0:--------:1:0:i:-",  # 8 cells
        "ttt:0:---------:1:0:i:-:extra",
        "ttt:0:OO-------:1:0:i:-",  # O moved first
        "ttt:0:XXXOO-OO-:1:0:i:-",  # both sides have three in a row
        "ttt:m:XXXOO----:1:0:i:x",  # won on the board and also resigned
        f"ttt:0:---------:{2**64}:0:i:-",  # not a snowflake
        "ttt:0:---------:5:5:-:-",  # one person on both sides
        "ttt:0:---------:0:5:-:-",  # the bot plays, but no level
        "ttt:0:---------:4:5:i:-",  # two people, but a level
        "ttt:a:5:5:X",
        "ttt:d:0:5:O",
        "ttt:a:5:6:Z",
        "ttt:0:---------:1:0:i:-" + "9" * 100,
    ],
)
def test_malformed_or_impossible_ids_are_rejected(custom_id):
    with pytest.raises(codec.CodecError):
        codec.decode(custom_id)


def test_render_shows_every_reachable_position_as_users_should_see_it(positions):
    for cells in positions:
        game = Game(ALICE, BOB, None, freeze_board(to_board(cells)))
        screen = render_game(game, BOT_ID)
        assert len(screen.rows) == 4
        assert all(len(row) <= 5 for row in screen.rows)
        ids = [button.custom_id for row in screen.rows for button in row]
        assert len(set(ids)) == len(ids)
        over = game.is_over
        won_by = winner_of(cells)
        line = {k for three in WIN_LINES if {cells[k] for k in three} == {won_by} for k in three}
        if won_by is None:
            line = set()
        for i in range(3):
            for j in range(3):
                button = screen.rows[i][j]
                mark = cells[i * 3 + j]
                assert button.disabled == (over or mark is not None)
                assert button.emoji == {ttt.X: "❌", ttt.O: "⭕", None: None}[mark]
                assert button.label == (EMPTY_LABEL if mark is None else None)
                highlighted = button.style is discord.ButtonStyle.success
                assert highlighted == ((i * 3 + j) in line)
        assert [b.label for b in screen.rows[3]] == (["Rematch"] if over else ["Resign"])
        if won_by:
            winner = ALICE if won_by == ttt.X else BOB
            assert screen.content.endswith(f"**<@{winner}> wins!**")
        elif over:
            assert screen.content.endswith("**Draw!**")
        else:
            to_move = ALICE if ttt.player(to_board(cells)) == ttt.X else BOB
            assert screen.content.endswith(
                f"<@{to_move}> to move ({'❌' if to_move == ALICE else '⭕'})."
            )


def test_the_status_line_names_players_marks_and_level():
    game = Game(AI, ALICE, "medium")
    assert render_game(game, BOT_ID).content == (
        f"❌ <@{BOT_ID}> vs ⭕ <@{ALICE}> · medium — <@{BOT_ID}> to move (❌)."
    )
    assert render_game(game.expire(), BOT_ID).content.endswith("expired: no move in time.")
    resigned = game.resign(ALICE)
    assert resigned.winner_id == AI
    assert f"<@{ALICE}> resigned, **<@{BOT_ID}> wins**" in render_game(resigned, BOT_ID).content


def test_challenge_screen_pings_only_the_opponent():
    screen = render_challenge(Challenge(ALICE, BOB, ttt.O))
    assert screen.pings == (BOB,)
    assert screen.content.startswith(f"<@{BOB}>, <@{ALICE}> challenges you")
    assert f"<@{BOB}> moves first" in screen.content
    assert [b.label for b in screen.rows[0]] == ["Accept", "Decline"]


def test_game_transitions():
    rng = random.Random(0)
    game = Game.start(AI, ALICE, "impossible", rng)
    assert sum(cell is not None for row in game.board for cell in row) == 1
    assert game.player_to_move == ALICE
    with pytest.raises(GameError):
        game.resign(BOB)
    with pytest.raises(ValueError, match="already taken"):
        game.play(next((i, j) for i in range(3) for j in range(3) if game.board[i][j]))
    finished = game.resign(ALICE)
    assert finished.is_over
    with pytest.raises(GameError):
        finished.play((2, 2))
    assert finished.expire() == finished
    rematch = finished.rematch(rng)
    assert (rematch.x_player, rematch.o_player, rematch.difficulty) == (ALICE, AI, "impossible")
    assert rematch.board == ((None,) * 3,) * 3
    assert Challenge(ALICE, BOB, ttt.O).accept() == Game(BOB, ALICE)
