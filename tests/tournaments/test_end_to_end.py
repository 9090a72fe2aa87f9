"""Tournaments through SimCord, as players and organisers see them: /tournament create, the
sign-up card's buttons, the thread with its round cards and boards, results carried to the next
round and the final standings; on a real SQLite database."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import uuid

import discord
import pytest
from bot_helpers import GAME_TIMEOUT, click_cell, click_label, text
from sqlalchemy import update

from bot.app import TicTacToeBot
from bot.core.live import seat_of
from bot.records.sql.storage import open_records
from bot.tournaments.cog import LAST_RETRY_SECONDS, WINDOW_SECONDS
from bot.tournaments.core import Result
from bot.tournaments.keys import pairing_text
from bot.tournaments.running import State
from bot.tournaments.store import TournamentStore
from bot.tournaments.tables import tournament_pairings, tournament_rounds
from testdb.postgres import start_or_skip
from tests.support.records import recording_bot


@pytest.fixture
async def storage(tmp_path):
    storage = await open_records(f"sqlite+aiosqlite:///{tmp_path / 'records.db'}")
    yield storage
    await storage.close()


async def new_bot(storage, spool) -> TicTacToeBot:
    """A bot process on `storage`: records (for /stats) and tournaments."""
    return await recording_bot(storage, spool, turn_timeout=GAME_TIMEOUT)


@pytest.fixture
async def simcord_bot(storage, tmp_path):
    bot = await new_bot(storage, tmp_path / "spool.jsonl")
    yield bot
    await bot.close_records()  # SimCord detaches the bot without closing it


@pytest.fixture
def organiser(world):
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("dana"), roles=[role])


def store_of(env) -> TournamentStore:
    return env.bot.get_cog("Tournaments").store


def labels(message) -> list[str]:
    found: list[str] = []

    def walk(component) -> None:
        label = getattr(component, "label", None)
        if label:
            found.append(label)
        for child in getattr(component, "children", ()) or ():
            walk(child)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            walk(accessory)

    for component in message.components:
        walk(component)
    return found


async def signed_up(world, organiser, *players, **options):
    """The organiser opens a sign-up in #games; `players` join. The sign-up card."""
    await organiser.slash(world.channel, "tournament create", **options)
    card = world.channel.last_message
    assert labels(card) == ["Join", "Leave", "Start", "Cancel"]
    for player in players:
        joined = await player.click(card, label="Join")
        assert joined.ephemeral, joined
    return world.channel.history()[-1]


def message_in(thread, message_id: int):
    return next(m for m in thread.history() if m.id == message_id)


async def play_top_row(thread, board, actors) -> None:
    """X takes the top row while O answers in the middle row."""
    assert board.message_id is not None
    x, o = actors[board.x], actors[board.o]
    for cell, player in (((0, 0), x), ((1, 0), o), ((0, 1), x), ((1, 1), o), ((0, 2), x)):
        await click_cell(player, message_in(thread, board.message_id), cell)


async def test_a_round_robin_is_played_to_its_final_standings(world, organiser):
    actors = {a.id: a for a in (world.alice, world.bob, world.carol)}
    card = await signed_up(
        world, organiser, world.alice, world.bob, world.carol, format="round-robin"
    )
    await organiser.click(card, label="Start")
    (thread,) = world.channel.threads
    store = store_of(world.env)
    for round_number in (1, 2, 3):
        tournament = await store.by_thread(thread.id)
        assert tournament is not None
        assert tournament.state is State.RUNNING
        (board,) = tournament.boards[round_number - 1]  # three players: one game, one bye
        assert board.message_id is not None
        assert pairing_text(board.key) in str(message_in(thread, board.message_id).components)
        await play_top_row(thread, board, actors)
        await world.env.advance_time(WINDOW_SECONDS)  # the next boards wait for the pace
    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    assert tournament.state is State.FINISHED
    shown = [text(m) for m in thread.history()]
    assert any("Congratulations" in s for s in shown), shown
    posted = [b.message_id for r in tournament.boards for b in r]
    assert len(set(posted)) == 3  # one board per game, none posted twice
    winner = actors[tournament.winners[0]]
    stats = await winner.slash(world.channel, "stats")
    assert "Tournaments: 1 played, 1 on the podium, 1 won" in text(stats.response.message)


async def test_only_the_organiser_starts_or_cancels(world, organiser):
    card = await signed_up(world, organiser, world.alice, world.bob, world.carol)
    for label in ("Start", "Cancel"):
        refused = await world.alice.click(card, label=label)
        assert refused.ephemeral, refused
    assert world.channel.threads == []
    assert labels(world.channel.history()[-1]) == ["Join", "Leave", "Start", "Cancel"]


def round_card(thread, round_number: int):
    """The thread's card of that round (the latest one that names it)."""
    return [m for m in thread.history() if f"Round {round_number} of" in text(m)][-1]


async def started(world, organiser, players, **options):
    card = await signed_up(world, organiser, *players, **options)
    await organiser.click(card, label="Start")
    (thread,) = world.channel.threads
    return thread


async def three_player_round_robin(world, organiser):
    """Alice, Bob and Carol's round-robin started: its thread, the players by id, and round 1's
    only board (one game, one bye)."""
    players = (world.alice, world.bob, world.carol)
    thread = await started(world, organiser, players, format="round-robin")
    tournament = await store_of(world.env).by_thread(thread.id)
    assert tournament is not None
    (board,) = tournament.boards[0]
    return thread, {a.id: a for a in players}, board


async def four_player_swiss(world, organiser):
    """Alice, Bob, Carol and the organiser's Swiss of two rounds started: its thread, the
    players by id, and the tournament as stored."""
    players = (world.alice, world.bob, world.carol, organiser)
    thread = await started(world, organiser, players, format="swiss", rounds=2)
    tournament = await store_of(world.env).by_thread(thread.id)
    assert tournament is not None
    return thread, {a.id: a for a in players}, tournament


async def test_a_swiss_with_an_odd_field_gives_a_bye_and_goes_on(world, organiser):
    dave = world.guild.add_member(world.env.create_user("erin"))
    players = (world.alice, world.bob, world.carol, organiser, dave)
    actors = {a.id: a for a in players}
    thread = await started(world, organiser, players, format="swiss", rounds=2)
    store = store_of(world.env)
    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    first = tournament.boards[0]
    assert len(first) == 2  # five players: two games and a bye
    assert "bye" in text(round_card(thread, 1)).lower()
    for board in first:
        await play_top_row(thread, board, actors)
    await world.env.advance_time(WINDOW_SECONDS)
    assert "results" in text(round_card(thread, 1))
    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    assert len(tournament.boards) == 2
    assert all(b.message_id is not None for b in tournament.boards[1])
    assert labels(round_card(thread, 2)) == ["Standings", "Withdraw"]


async def test_a_board_nobody_plays_is_lost_by_both(world, organiser):
    thread = await started(world, organiser, (world.alice, world.bob, world.carol))
    store = store_of(world.env)
    await world.env.advance_time(GAME_TIMEOUT + 1)
    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    assert tournament.boards[0][0].result is Result.DOUBLE_FORFEIT


async def test_a_player_who_withdraws_loses_their_game_and_is_paired_no_more(world, organiser):
    players = (world.alice, world.bob, world.carol, organiser)
    thread = await started(world, organiser, players, format="round-robin")
    store = store_of(world.env)
    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    board = tournament.boards[0][0]
    assert board.message_id is not None
    quitter = next(p for p in players if p.id == board.x)
    asked = await quitter.click(round_card(thread, 1), label="Withdraw")
    assert asked.ephemeral
    assert labels(asked.response.message) == ["Withdraw", "Keep playing"]
    await quitter.click(asked.response.message, label="Withdraw")
    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    assert tournament.boards[0][0].result is Result.O_WON_BY_FORFEIT
    assert "resign" in text(message_in(thread, board.message_id)).lower()
    later = [b for r in tournament.boards[1:] for b in r]
    assert all(quitter.id not in (b.x, b.o) for b in later)


async def test_someone_not_playing_cannot_withdraw(world, organiser):
    thread = await started(world, organiser, (world.alice, world.bob, world.carol))
    refused = await organiser.click(round_card(thread, 1), label="Withdraw")
    assert refused.ephemeral
    assert labels(refused.response.message) == []


async def test_start_without_thread_permissions_says_what_to_grant_and_changes_nothing(
    world, organiser
):
    channel = world.guild.create_text_channel(
        "no-threads",
        overwrites={world.env.bot.user: discord.PermissionOverwrite(create_public_threads=False)},
    )
    await organiser.slash(channel, "tournament create")
    card = channel.last_message
    for player in (world.alice, world.bob, world.carol):
        await player.click(card, label="Join")
    told = await organiser.click(channel.history()[-1], label="Start")
    assert told.ephemeral
    assert "Create Public Threads" in told.response.content
    assert channel.threads == []
    assert labels(channel.history()[-1]) == ["Join", "Leave", "Start", "Cancel"]


async def test_a_restart_mid_round_posts_nothing_twice_and_the_round_goes_on(
    world, organiser, storage, tmp_path
):
    thread, actors, tournament = await four_player_swiss(world, organiser)
    first, second = tournament.boards[0]
    await play_top_row(thread, first, actors)
    before = len(thread.history())

    await world.env.restart_bot(await new_bot(storage, tmp_path / "spool2.jsonl"))
    assert len(thread.history()) == before  # nothing posted again
    # The unfinished board is held again, so that it lapses on time even if nobody clicks it.
    held = world.env.bot.table.store.get(seat_of(thread.id, (second.x, second.o)))
    assert held is not None
    assert held.message_id == second.message_id
    await play_top_row(thread, second, actors)
    await world.env.advance_time(WINDOW_SECONDS)
    tournament = await store_of(world.env).by_thread(thread.id)
    assert tournament is not None
    assert len(tournament.boards) == 2
    assert all(b.message_id is not None for b in tournament.boards[1])
    posted = [b.message_id for r in tournament.boards for b in r]
    assert len(set(posted)) == 4


async def test_a_64_player_round_is_posted_within_a_minute(world, organiser):
    """33 messages (the card and 32 boards) at Discord's 5 per 5 seconds in one channel."""
    field = [world.guild.add_member(world.env.create_user(f"p{n}")) for n in range(64)]
    await organiser.slash(world.channel, "tournament create", rounds=3)
    card = world.channel.last_message
    for player in field:
        await player.click(card, label="Join")
    await organiser.click(world.channel.history()[-1], label="Start")
    (thread,) = world.channel.threads
    await world.env.advance_time(60)
    tournament = await store_of(world.env).by_thread(thread.id)
    assert tournament is not None
    (first,) = tournament.boards
    assert len(first) == 32
    assert all(b.message_id is not None for b in first)
    assert len(thread.history()) == 33


async def test_a_game_that_ended_while_its_result_was_not_written_is_counted_after_a_restart(
    world, organiser, storage, tmp_path
):
    """The process stopped between a board's last edit and its result's write (a SIGKILL, or
    the database failing then): at start-up the thread's board says the game is over, and the
    round goes on."""
    thread, actors, board = await three_player_round_robin(world, organiser)
    store = store_of(world.env)
    # The result never reaches the store: the listener is gone before the last move lands.
    world.env.bot.remove_listener(
        world.env.bot.get_cog("Tournaments").on_game_finished, "on_game_finished"
    )
    await play_top_row(thread, board, actors)
    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    assert tournament.boards[0][0].result is None
    await world.env.restart_bot(await new_bot(storage, tmp_path / "spool2.jsonl"))
    await world.env.advance_time(WINDOW_SECONDS)
    tournament = await store_of(world.env).by_thread(thread.id)
    assert tournament is not None
    assert tournament.boards[0][0].result is Result.X_WON
    assert len(tournament.boards) == 2  # round 2 paired and posted
    assert all(b.message_id is not None for b in tournament.boards[1])


async def test_a_restart_after_discord_answered_but_before_the_ids_were_written_posts_nothing_twice(
    world, organiser, storage, tmp_path
):
    """The process died between Discord's answer to a post and the write of its message id:
    the round card and a board are taken but not confirmed. At start-up both are found in the
    thread, nothing is posted again, and the round card later shows the round's results."""
    thread, actors, tournament = await four_player_swiss(world, organiser)
    card_id = tournament.round_card(1).message_id
    first, second = tournament.boards[0]
    assert card_id is not None
    assert first.message_id is not None

    def forget_ids(connection) -> None:  # what the dead process never wrote
        connection.execute(
            update(tournament_rounds)
            .where(tournament_rounds.c.tournament_id == tournament.tournament_id)
            .values(card_message_id=None)
        )
        connection.execute(
            update(tournament_pairings)
            .where(
                tournament_pairings.c.tournament_id == tournament.tournament_id,
                tournament_pairings.c.board == first.key.board,
            )
            .values(message_id=None)
        )

    await storage.write(forget_ids)
    before = len(thread.history())
    await world.env.restart_bot(await new_bot(storage, tmp_path / "spool2.jsonl"))
    await world.env.advance_time(WINDOW_SECONDS)
    assert len(thread.history()) == before  # neither the card nor the board posted again
    tournament = await store_of(world.env).by_thread(thread.id)
    assert tournament is not None
    assert tournament.round_card(1).message_id == card_id
    assert tournament.boards[0][0].message_id == first.message_id

    await play_top_row(thread, first, actors)
    await play_top_row(thread, second, actors)
    await world.env.advance_time(WINDOW_SECONDS)
    card = text(message_in(thread, card_id))
    assert "Round 1 of 2: results" in card, card  # the same card, edited
    shown = [text(m) for m in thread.history()]
    assert sum("Round 1 of 2" in s for s in shown) == 1, shown
    assert sum("Round 2 of 2" in s for s in shown) == 1, shown


async def test_a_result_the_database_refuses_is_written_once_it_can_be(
    world, organiser, tmp_path, caplog
):
    """Another writer holds SQLite's write lock longer than the storage waits when a game ends:
    the result is tried again until it is written, and the round goes on (one warning, one
    line when it is written)."""
    caplog.set_level(logging.INFO, logger="bot.tournaments.cog")
    path = tmp_path / "slow.db"
    storage = await open_records(f"sqlite+aiosqlite:///{path}", query_timeout=0.2)
    try:
        await world.env.restart_bot(await new_bot(storage, tmp_path / "spool-slow.jsonl"))
        thread, actors, board = await three_player_round_robin(world, organiser)
        store = store_of(world.env)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            await play_top_row(thread, board, actors)
            warned = [
                r
                for r in caplog.records
                if r.levelno >= logging.WARNING and r.name == "bot.tournaments.cog"
            ]
            # One warning (a shard's logs may carry its number first).
            (warning,) = warned
            expected = f"Tournament game {pairing_text(board.key)} not recorded, trying again"
            assert expected in warning.getMessage()
        finally:
            other.execute("ROLLBACK")
            other.close()
        await world.env.advance_time(LAST_RETRY_SECONDS + WINDOW_SECONDS)
        tournament = await store.by_thread(thread.id)
        assert tournament is not None
        assert tournament.boards[0][0].result is Result.X_WON
        assert len(tournament.boards) == 2  # round 2 paired and posted
        assert all(b.message_id is not None for b in tournament.boards[1])
        lines = [r.getMessage() for r in caplog.records if r.name == "bot.tournaments.cog"]
        assert sum("recorded after all" in line for line in lines) == 1, lines
    finally:
        await world.env.bot.close_records()
        await storage.close()


async def test_standings_by_command_are_the_threads_and_elsewhere_say_where_to_ask(
    world, organiser
):
    thread = await started(world, organiser, (world.alice, world.bob, world.carol))
    elsewhere = await organiser.slash(world.channel, "tournament standings")
    assert elsewhere.response.ephemeral
    assert text(elsewhere.response.message) == "Use this command in a tournament's thread."
    inside = await organiser.slash(thread, "tournament standings")
    assert inside.response.ephemeral
    shown = text(inside.response.message)
    for player in (world.alice, world.bob, world.carol):
        assert f"<@{player.id}>" in shown, shown


@pytest.fixture(scope="module")
def own_server():
    """A PostgreSQL server of this module's own: a test stops it."""
    started = start_or_skip()
    yield started
    started.destroy()


async def test_a_restart_while_postgresql_is_down_resumes_the_tournament_once_it_is_back(
    world, organiser, own_server, tmp_path, caplog
):
    """The bot comes back while the database is down: the tournament is resumed when it
    answers again (its unfinished board held again, so it lapses on time), not given up."""
    caplog.set_level(logging.INFO, logger="bot.tournaments.cog")
    if not own_server.running():
        own_server.start()
    with own_server.database(f"resume_{uuid.uuid4().hex[:12]}") as url:
        storage = await open_records(url, query_timeout=2)
        try:
            await world.env.restart_bot(await new_bot(storage, tmp_path / "spool-pg.jsonl"))
            thread = await started(world, organiser, (world.alice, world.bob, world.carol))
            tournament = await store_of(world.env).by_thread(thread.id)
            assert tournament is not None
            (board,) = tournament.boards[0]
            seat = seat_of(thread.id, (board.x, board.o))
            await world.env.bot.close_records()
            await asyncio.to_thread(own_server.stop)
            try:
                await world.env.restart_bot(await new_bot(storage, tmp_path / "spool-pg2.jsonl"))
                assert world.env.bot.table.store.get(seat) is None  # not resumed yet
                warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
                assert any("Tournaments not resumed yet" in m for m in warned), warned
            finally:
                await asyncio.to_thread(own_server.start)
            await world.env.advance_time(LAST_RETRY_SECONDS)
            held = world.env.bot.table.store.get(seat)
            assert held is not None
            assert held.message_id == board.message_id
        finally:
            await world.env.bot.close_records()
            await storage.close()


async def test_forget_me_withdraws_a_player_and_leaves_no_trace_of_them_in_the_tournament(
    world, organiser
):
    thread, actors, tournament = await four_player_swiss(world, organiser)
    store = store_of(world.env)
    first, second = tournament.boards[0]
    gone = actors[first.x]
    await play_top_row(thread, second, actors)

    asked = await gone.slash(world.channel, "forget-me")
    await click_label(gone, asked.response.message, "Delete my data")
    await world.env.advance_time(WINDOW_SECONDS)

    tournament = await store.by_thread(thread.id)
    assert tournament is not None
    assert gone.id not in tournament.players
    assert tournament.boards[0][0].result is Result.O_WON_BY_FORFEIT  # their game lost
    board = text(message_in(thread, first.message_id))
    assert "resigned" in board, board  # the board shows it, no longer playable
    assert len(tournament.boards) == 2  # round 2 paired without them
    assert all(gone.id not in (b.x, b.o) for b in tournament.boards[1])
    standings = await organiser.slash(thread, "tournament standings")
    shown = text(standings.response.message)
    assert "a deleted player (withdrawn)" in shown, shown
    assert gone.mention not in shown
    stats = text((await gone.slash(world.channel, "stats")).response.message)
    assert "Tournaments:" not in stats, stats
