"""Boards the bot posts itself (a tournament's games): posted into a channel with the bot's own
token, played by clicks like any board, lapsing on time even when nobody ever clicks them (and
after a restart, once watched again), and lost by a player who withdraws."""

import asyncio
import dataclasses

import pytest

from bot.core import codec
from bot.core.finished import Finish
from bot.core.game import Ending, Game
from bot.core.live import seat_of
from bot.game.table import SeatTaken
from bot.view.board import render_state
from tests.game.test_table import (
    ALICE,
    BOB,
    BOT,
    GUILD,
    TIMEOUT,
    FakeDoor,
    editor_of,
    ids_of,
    make_table,
    request,
)

THREAD = 777


def tournament_game(pairing="a.1.1") -> Game:
    return Game(ALICE, BOB, moves=(), pairing=pairing)


async def test_a_posted_board_is_played_by_clicks_like_any_board():
    table = make_table()
    message_id = await table.post_board("classic", tournament_game(), THREAD, GUILD)
    ((channel, card),) = editor_of(table).posts
    assert channel == THREAD
    assert set(card.pings) >= {ALICE, BOB}
    assert not any(b.custom_id.startswith("ttt2:h:") for b in card.controls)  # no Hint
    live = table.store.get(seat_of(THREAD, (ALICE, BOB)))
    assert live is not None
    assert live.message_id == message_id
    assert live.token is None
    cell = codec.cell_ids(live.key)[4]
    answers = await click_in_thread(table, ALICE, card, message_id, cell)
    assert [what for what, _ in answers] == ["update"]
    live = table.store.get(seat_of(THREAD, (ALICE, BOB)))
    assert live is not None
    assert live.token == "tok2"  # from now on the click's token edits it


async def click_in_thread(table, user, card, message_id, custom_id):
    door = FakeDoor()
    clicked = request(user, message=(message_id, ids_of(card)), custom_id=custom_id, token="tok2")
    clicked = dataclasses.replace(clicked, channel_id=THREAD)
    await table.click(clicked, door, custom_id)
    return door.answers


async def test_a_posted_board_nobody_clicks_lapses_and_is_announced():
    table = make_table()
    message_id = await table.post_board("classic", tournament_game("b.2.3"), THREAD, GUILD)
    advance(table, TIMEOUT + 1)
    assert await table.expire_lapsed() == 1
    ((channel, edited, card),) = editor_of(table).channel_edits
    assert (channel, edited) == (THREAD, message_id)
    assert card.cells is not None
    (finished,) = heard(table)
    assert finished.game_id == message_id
    assert finished.game.ending is Ending.EXPIRED
    assert finished.game.pairing == "b.2.3"
    assert Finish.of(finished.game) is Finish.EXPIRED


async def test_a_board_watched_again_after_a_restart_lapses_on_its_own_clock():
    table = make_table(wall_clock=lambda: 1_700_000_000.0)
    game = tournament_game().play((1, 1))
    custom_id = codec.cell_ids(codec.state_key(game))[0]
    changed_at = 1_700_000_000.0 - TIMEOUT + 30  # 30 seconds left
    assert table.watch_board("classic", custom_id, 4242, THREAD, GUILD, changed_at)
    assert not table.watch_board("classic", custom_id, 4242, THREAD, GUILD, changed_at)  # held
    advance(table, 29)
    assert await table.expire_lapsed() == 0
    advance(table, 2)
    assert await table.expire_lapsed() == 1
    (finished,) = heard(table)
    assert finished.game.winner_mark is None  # O ran out of time: expired_winner says who
    assert finished.game.ending is Ending.EXPIRED


async def test_a_withdrawal_loses_the_running_game():
    table = make_table()
    message_id = await table.post_board("classic", tournament_game(), THREAD, GUILD)
    assert await table.withdraw(THREAD, (ALICE, BOB), BOB)
    ((_, edited, card),) = editor_of(table).channel_edits
    assert edited == message_id
    assert "resigned" in card.text
    (finished,) = heard(table)
    assert finished.game.ending is Ending.O_RESIGNED
    assert finished.game.winner_id == ALICE
    assert not table.store
    assert not await table.withdraw(THREAD, (ALICE, BOB), BOB)  # nothing on any more


async def test_a_second_board_for_the_same_players_in_the_thread_is_refused():
    table = make_table()
    await table.post_board("classic", tournament_game(), THREAD, GUILD)
    with pytest.raises(SeatTaken):
        await table.post_board("classic", tournament_game("a.2.1"), THREAD, GUILD)
    assert len(editor_of(table).posts) == 1


def heard(table) -> list:
    """What the records would hear (make_table keeps it)."""
    return table.finished


def advance(table, seconds: float) -> None:
    table.clock.now += seconds


async def test_a_board_is_playable_before_its_post_returns_its_id():
    """Under a rate limit discord.py returns a message's id seconds after players see it: a
    click on it meanwhile is a move, not "no longer active"."""
    table = make_table()
    editor = editor_of(table)
    released = asyncio.Event()
    post = editor.post_in_channel

    async def slow_post(channel_id, card):
        await released.wait()
        return await post(channel_id, card)

    editor.post_in_channel = slow_post
    game = tournament_game()
    posting = asyncio.ensure_future(table.post_board("classic", game, THREAD, GUILD))
    await asyncio.sleep(0)  # the seat is held, the post not returned yet
    live = table.store.get(seat_of(THREAD, game.players))
    assert live is not None
    assert live.message_id is None
    shown = render_state(game, BOT, None)
    cell = codec.cell_ids(live.key)[4]
    answers = await click_in_thread(table, ALICE, shown, 9001, cell)
    assert [what for what, _ in answers] == ["update"]
    released.set()
    assert await posting == 9001
    live = table.store.get(seat_of(THREAD, game.players))
    assert live is not None
    assert live.message_id == 9001
    assert live.key != codec.state_key(game)  # the move stands
