"""Recorded games, stats, boards, ratings and forgetting, on a real SQLite file and a real
PostgreSQL server (testdb/postgres.py), through the same `Storage`."""

import asyncio
from dataclasses import replace

import pytest
from sqlalchemy import text

from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Ending, Game
from bot.core.rating import PROVISIONAL_DEVIATION
from bot.records.api import Finish, GameRecord, Tally, snowflake_time
from bot.records.sql import paging
from bot.records.sql.storage import Storage, UnsupportedDatabaseError, open_records, parse_url
from tests.support.records import (
    ALICE,
    BOB,
    CAROL,
    DRAW,
    GUILD,
    O_WINS,
    OTHER_GUILD,
    X_WINS,
    game_id,
    record,
)


@pytest.fixture
async def records(database_url):
    storage = await open_records(database_url)
    yield storage
    await storage.close()


# What a finished game becomes


def test_a_line_wins_and_a_full_board_is_a_draw():
    won = record(1, ALICE, BOB, X_WINS)
    assert (won.winner, won.finish, won.counted) == ("X", Finish.LINE, True)
    assert won.board == "XXXOO----"
    assert won.moves == X_WINS
    drawn = record(2, ALICE, BOB, DRAW)
    assert (drawn.winner, drawn.finish, drawn.counted) == (None, Finish.FULL, True)


def test_resigning_loses():
    resigned = record(1, ALICE, BOB, (4, 0), ending=Ending.X_RESIGNED)
    assert (resigned.winner, resigned.finish, resigned.counted) == ("O", Finish.RESIGNED, True)


def test_on_expiry_the_player_to_move_loses():
    o_to_move = record(1, ALICE, BOB, (4, 0, 8), ending=Ending.EXPIRED)
    assert (o_to_move.winner, o_to_move.finish, o_to_move.counted) == ("X", Finish.EXPIRED, True)
    x_to_move = record(2, ALICE, BOB, (4, 0), ending=Ending.EXPIRED)
    assert x_to_move.winner == "O"


@pytest.mark.parametrize(
    ("moves", "ending"),
    [
        ((), Ending.EXPIRED),
        ((4,), Ending.EXPIRED),
        ((4,), Ending.O_RESIGNED),
        ((), Ending.X_RESIGNED),
    ],
)
def test_a_game_abandoned_before_both_sides_moved_counts_for_nobody(moves, ending):
    abandoned = record(1, ALICE, BOB, moves, ending=ending)
    assert abandoned.counted is False
    assert abandoned.winner is None


def test_a_record_knows_where_when_and_in_which_language():
    game = Game.from_moves(AI, ALICE, "hard", (4, 0, 8, 2, 1, 7, 6, 3, 5), locale="fr")
    finished = FinishedGame(game_id(7), game, 1_800_000_123.5, None, Place.GROUP_DM, True)
    made = GameRecord.from_finished(finished)
    assert (made.x_player, made.o_player, made.level) == (AI, ALICE, "hard")
    assert (made.guild_id, made.place, made.user_installed) == (None, Place.GROUP_DM, True)
    assert made.locale == "fr"
    assert made.ended_at == 1_800_000_123.5
    assert made.started_at == snowflake_time(game_id(7))
    assert made.started_at == pytest.approx(1_420_070_400 + 1_000_000.007)


def test_an_unfinished_game_is_not_a_record():
    game = Game.from_moves(ALICE, BOB, None, (4,))
    with pytest.raises(ValueError, match="finished"):
        GameRecord.from_finished(FinishedGame(game_id(1), game, 0.0, GUILD, Place.SERVER, False))


# Recording exactly once


async def test_a_game_is_stored_as_it_was_recorded(records):
    game = record(1, ALICE, BOB, O_WINS)
    assert await records.record([game]) == 1
    assert await records.game(game.game_id) == game
    assert await records.game(game_id(99)) is None


async def test_a_game_names_its_kind_classic_unless_it_says_another(records):
    classic = record(1, ALICE, BOB, O_WINS)
    assert classic.kind == "classic"  # what the game announced: FinishedGame's default
    other = replace(record(2, ALICE, BOB, X_WINS), kind="ultimate")
    assert await records.record([classic, other]) == 2
    stored = await records.database.run(
        lambda c: c.execute(text("SELECT game_id, kind FROM games ORDER BY game_id")).all()
    )
    assert [tuple(row) for row in stored] == [(game_id(1), "classic"), (game_id(2), "ultimate")]
    assert await records.game(game_id(1)) == classic
    assert await records.game(game_id(2)) == other
    assert classic.to_game().moves == O_WINS
    with pytest.raises(ValueError, match="ultimate"):
        other.to_game()  # its review comes with its kind, never as a classic board


async def test_recording_a_game_again_changes_nothing(records):
    batch = [record(1, ALICE, BOB, X_WINS), record(2, ALICE, AI, DRAW)]
    assert await records.record(batch) == 2
    before = await records.stats(ALICE, GUILD)
    assert await records.record(batch) == 0
    assert await records.record([batch[1], batch[1], record(3, BOB, ALICE, X_WINS)]) == 1
    after = await records.stats(ALICE, GUILD)
    assert after.vs_people == Tally(wins=1, losses=1)
    assert after.vs_bot == before.vs_bot == {"impossible": Tally(draws=1)}
    assert after.rating is not None
    assert after.rating.games == 2


async def test_a_game_that_does_not_count_is_kept_but_counts_for_nobody(records):
    abandoned = record(1, ALICE, BOB, (4,), ending=Ending.EXPIRED)
    assert await records.record([abandoned]) == 1
    assert await records.game(abandoned.game_id) == abandoned
    stats = await records.stats(ALICE, GUILD)
    assert (stats.vs_people, stats.rating, stats.rank, stats.recent) == (Tally(), None, None, ())
    assert (await records.rating_board(GUILD, 0, 10)).total == 0


async def test_two_processes_recording_the_same_and_overlapping_batches_count_each_game_once(
    database_url,
):
    first, second = await open_records(database_url), await open_records(database_url)
    players = [ALICE, BOB, CAROL]
    games = [
        record(n, players[n % 3], players[(n + 1) % 3], (X_WINS, O_WINS, DRAW)[n % 3])
        for n in range(60)
    ]
    try:
        written = await asyncio.gather(
            first.record(games[:40]),
            second.record(games[20:]),
            first.record(games[10:50]),
            second.record(games),
            first.record(games[::-1]),
        )
        assert sum(written) == 60
        total = 0
        for player in players:
            stats = await second.stats(player, GUILD)
            assert stats.rating is not None
            assert stats.rating.games == stats.vs_people.games == 40
            total += stats.vs_people.wins
        assert total == 40  # two thirds of the games were won
        assert (await first.rating_board(None, 0, 10)).total == 3
        assert (await first.rating_board(GUILD, 0, 10)).total == 3
    finally:
        await first.close()
        await second.close()


# Stats


async def test_stats_count_each_bot_level_and_people_separately(records):
    await records.record(
        [
            record(1, ALICE, AI, X_WINS, level="easy"),
            record(2, AI, ALICE, X_WINS, level="easy"),
            record(3, ALICE, AI, X_WINS, level="hard"),
            record(4, ALICE, AI, DRAW, level="impossible"),
            record(5, ALICE, BOB, O_WINS),
            record(6, BOB, ALICE, DRAW),
        ]
    )
    stats = await records.stats(ALICE, GUILD)
    assert stats.vs_bot == {
        "easy": Tally(wins=1, losses=1),
        "hard": Tally(wins=1),
        "impossible": Tally(draws=1),
    }
    assert stats.vs_people == Tally(draws=1, losses=1)
    assert stats.vs_people.games == 2


async def test_streaks_count_wins_in_a_row_across_bot_and_people(records):
    alice_wins = [
        record(1, ALICE, AI, X_WINS, level="easy"),
        record(2, ALICE, BOB, X_WINS),
        record(3, BOB, ALICE, O_WINS),
        record(4, ALICE, BOB, DRAW),  # ends the streak at 3
        record(5, ALICE, AI, X_WINS, level="medium"),
    ]
    await records.record(alice_wins[:2])
    await records.record(alice_wins[2:])
    stats = await records.stats(ALICE, None)
    assert (stats.current_streak, stats.best_streak) == (1, 3)
    bob = await records.stats(BOB, None)
    assert (bob.current_streak, bob.best_streak) == (0, 0)


async def test_a_batch_is_applied_in_the_order_the_games_ended(records):
    # Recorded newest first: the streak still follows the games' order.
    await records.record(
        [record(3, ALICE, BOB, X_WINS), record(2, ALICE, BOB, X_WINS), record(1, ALICE, BOB, DRAW)]
    )
    stats = await records.stats(ALICE, None)
    assert (stats.current_streak, stats.best_streak) == (2, 2)


async def test_recent_games_newest_first_with_the_counted_ones_only(records):
    await records.record(
        [
            record(1, ALICE, BOB, X_WINS),
            record(2, AI, ALICE, DRAW),
            record(3, CAROL, ALICE, O_WINS, guild=None),
            record(4, ALICE, CAROL, (4,), ending=Ending.EXPIRED),  # not counted
            record(5, BOB, CAROL, X_WINS),  # not Alice's
        ]
    )
    stats = await records.stats(ALICE, GUILD, recent=2)
    assert [game.game_id for game in stats.recent] == [game_id(3), game_id(2)]
    everything = await records.stats(ALICE, GUILD, recent=10)
    assert [game.game_id for game in everything.recent] == [game_id(n) for n in (3, 2, 1)]


async def test_a_player_with_no_games_has_empty_stats(records):
    stats = await records.stats(ALICE, GUILD)
    assert (stats.vs_bot, stats.vs_people, stats.rating, stats.rank) == ({}, Tally(), None, None)


# Ratings and ranks


async def test_people_are_rated_from_their_first_game_provisionally(records):
    await records.record([record(1, ALICE, BOB, X_WINS)])
    alice, bob = await records.stats(ALICE, GUILD), await records.stats(BOB, GUILD)
    assert alice.rating is not None
    assert bob.rating is not None
    assert alice.rating.value > 1500 > bob.rating.value
    assert alice.rating.value - 1500 == pytest.approx(1500 - bob.rating.value)
    assert alice.rating.provisional
    assert alice.rating.deviation > PROVISIONAL_DEVIATION
    assert (alice.rank, bob.rank) == (1, 2)


async def test_ratings_settle_after_enough_games(records):
    await records.record([record(n, ALICE, BOB, (X_WINS, DRAW)[n % 2]) for n in range(30)])
    stats = await records.stats(ALICE, None)
    assert stats.rating is not None
    assert stats.rating.games == 30
    assert not stats.rating.provisional


async def test_games_against_the_bot_are_not_rated(records):
    await records.record([record(1, ALICE, AI, X_WINS, level="hard"), record(2, AI, BOB, DRAW)])
    assert (await records.stats(ALICE, GUILD)).rating is None
    assert (await records.rating_board(None, 0, 10)).total == 0


async def test_rank_is_among_the_rated_players_of_the_server(records):
    await records.record(
        [
            record(1, ALICE, BOB, X_WINS, guild=GUILD),
            record(2, CAROL, BOB, X_WINS, guild=OTHER_GUILD),
            record(3, CAROL, BOB, X_WINS, guild=OTHER_GUILD),
        ]
    )
    carol_here = await records.stats(CAROL, GUILD)
    assert carol_here.rating is not None
    assert carol_here.rank is None  # never played here
    assert (await records.stats(CAROL, OTHER_GUILD)).rank == 1
    assert (await records.stats(CAROL, None)).rank == 1
    assert (await records.stats(ALICE, GUILD)).rank == 1
    assert (await records.stats(ALICE, None)).rank == 2
    assert (await records.stats(BOB, GUILD)).rank == 2
    assert (await records.stats(BOB, None)).rank == 3


async def test_the_rating_board_pages_through_the_players_of_a_server_best_first(records):
    others = [200 + n for n in range(7)]
    games = [record(n, ALICE, other, X_WINS) for n, other in enumerate(others)]
    games.append(record(50, CAROL, BOB, X_WINS, guild=OTHER_GUILD))
    await records.record(games)
    first = await records.rating_board(GUILD, 0, 3)
    assert (first.page, first.pages, first.total) == (0, 3, 8)
    assert first.rows[0].user_id == ALICE
    assert [row.rank for row in first.rows] == [1, 2, 3]
    everyone = []
    for page in range(3):
        everyone += (await records.rating_board(GUILD, page, 3)).rows
    assert [row.rank for row in everyone] == list(range(1, 9))
    assert {row.user_id for row in everyone} == {ALICE, *others}
    values = [row.rating.value for row in everyone]
    assert values == sorted(values, reverse=True)
    for row in everyone:
        assert row.rating == (await records.stats(row.user_id, GUILD)).rating
        assert row.rank == (await records.stats(row.user_id, GUILD)).rank
    beyond = await records.rating_board(GUILD, 7, 3)
    assert beyond.page == 2
    assert list(beyond.rows) == everyone[6:]
    assert (await records.rating_board(None, 0, 20)).total == 10


async def test_an_empty_board_has_one_empty_page(records):
    board = await records.rating_board(GUILD, 3, 10)
    assert (board.rows, board.page, board.pages, board.total) == ((), 0, 1, 0)
    assert (await records.bot_board(None, 0, 10)).rows == ()


async def test_the_bot_board_ranks_unbeaten_runs_against_impossible_then_wins_against_hard(
    records,
):
    await records.record(
        [
            # Alice: 2 unbeaten, then a loss, then 1: best 2.
            record(1, ALICE, AI, DRAW, level="impossible"),
            record(2, AI, ALICE, DRAW, level="impossible"),
            record(3, AI, ALICE, X_WINS, level="impossible"),
            record(4, ALICE, AI, DRAW, level="impossible"),
            record(5, ALICE, AI, O_WINS, level="easy"),  # other levels do not break the run
            # Bob: best 2, and a win against Hard.
            record(6, BOB, AI, DRAW, level="impossible"),
            record(7, AI, BOB, DRAW, level="impossible"),
            record(8, BOB, AI, X_WINS, level="hard"),
            # Carol: no games against the bot: not on the board.
            record(9, CAROL, ALICE, X_WINS),
        ]
    )
    board = await records.bot_board(GUILD, 0, 10)
    assert [(row.rank, row.user_id) for row in board.rows] == [(1, BOB), (2, ALICE)]
    bob, alice = board.rows
    assert (bob.best_unbeaten_impossible, bob.wins_hard, bob.games) == (2, 1, 3)
    assert (alice.best_unbeaten_impossible, alice.wins_hard, alice.games) == (2, 0, 5)
    assert (await records.bot_board(OTHER_GUILD, 0, 10)).total == 0
    assert (await records.bot_board(None, 0, 1)).pages == 2


async def test_the_bot_board_lists_only_players_with_something_to_show(records):
    await records.record(
        [
            record(1, AI, ALICE, X_WINS, level="impossible"),  # lost: nothing to show
            record(2, BOB, AI, X_WINS, level="easy"),  # Easy: nothing to show either
            record(3, CAROL, AI, DRAW, level="impossible"),
        ]
    )
    board = await records.bot_board(GUILD, 0, 10)
    assert [row.user_id for row in board.rows] == [CAROL]
    assert (board.total, board.pages) == (1, 1)
    assert (await records.bot_board(None, 0, 10)).total == 1
    # A win against Hard puts Alice on it, in her server and everyone's board.
    await records.record([record(4, ALICE, AI, X_WINS, level="hard")])
    board = await records.bot_board(GUILD, 0, 10)
    assert [row.user_id for row in board.rows] == [CAROL, ALICE]
    assert (await records.bot_board(None, 0, 10)).total == 2
    # Forgetting her takes her off, count included; Bob, never on it, changes nothing.
    await records.forget(ALICE)
    await records.forget(BOB)
    assert (await records.bot_board(GUILD, 0, 10)).total == 1
    assert (await records.bot_board(None, 0, 10)).total == 1


async def test_a_board_stops_at_its_top_rows(records, monkeypatch):
    # A page is read with OFFSET: the cap bounds the index entries a page can skip.
    monkeypatch.setattr(paging, "MAX_BOARD_ROWS", 4)
    others = [200 + n for n in range(7)]
    await records.record([record(n, ALICE, other, X_WINS) for n, other in enumerate(others)])
    first = await records.rating_board(GUILD, 0, 3)
    assert (first.pages, first.total) == (2, 8)
    last = await records.rating_board(GUILD, 5, 3)  # past the cap: its last page
    assert last.page == 1
    assert [row.rank for row in last.rows] == [4, 5, 6]


# Forgetting a player


async def test_forgetting_a_player_leaves_their_opponents_counts(records):
    await records.record(
        [
            record(1, ALICE, BOB, X_WINS),
            record(2, BOB, ALICE, DRAW),
            record(3, AI, BOB, DRAW),
            record(4, CAROL, ALICE, X_WINS),
        ]
    )
    bob_before = await records.stats(BOB, GUILD)
    assert await records.forget(ALICE) == 3
    gone = await records.stats(ALICE, GUILD)
    assert (gone.vs_bot, gone.vs_people, gone.rating, gone.recent) == ({}, Tally(), None, ())
    bob = await records.stats(BOB, GUILD)
    assert bob.vs_people == bob_before.vs_people == Tally(draws=1, losses=1)
    assert bob.rating == bob_before.rating
    assert [game.game_id for game in bob.recent] == [game_id(n) for n in (3, 2, 1)]
    assert (bob.recent[1].x_player, bob.recent[1].o_player) == (BOB, None)
    assert (bob.recent[2].x_player, bob.recent[2].o_player) == (None, BOB)
    board = await records.rating_board(GUILD, 0, 10)
    assert [row.user_id for row in board.rows] == [CAROL, BOB]
    assert board.total == 2
    assert (await records.rating_board(None, 0, 10)).total == 2
    assert (await records.bot_board(GUILD, 0, 10)).total == 1
    assert await records.forget(ALICE) == 0
    # A game retried after forgetting does not bring the player back.
    assert await records.record([record(1, ALICE, BOB, X_WINS)]) == 0
    assert (await records.stats(ALICE, None)).vs_people == Tally()


async def test_board_sizes_follow_players_onto_boards_in_every_server_they_played_in(records):
    # Alice plays the bot in two servers first, then her first game against a person: she
    # joins the rating board of both servers at once, and everyone's.
    await records.record(
        [
            record(1, ALICE, AI, DRAW, guild=GUILD),
            record(2, ALICE, AI, DRAW, guild=OTHER_GUILD),
            record(3, ALICE, AI, DRAW, guild=None),
        ]
    )
    sizes = [(await records.rating_board(g, 0, 5)).total for g in (GUILD, OTHER_GUILD, None)]
    assert sizes == [0, 0, 0]
    assert [(await records.bot_board(g, 0, 5)).total for g in (GUILD, OTHER_GUILD, None)] == [
        1,
        1,
        1,
    ]
    await records.record([record(4, ALICE, BOB, X_WINS, guild=None)])
    sizes = [(await records.rating_board(g, 0, 5)).total for g in (GUILD, OTHER_GUILD, None)]
    assert sizes == [1, 1, 2]
    await records.record([record(5, CAROL, BOB, X_WINS, guild=GUILD)])
    sizes = [(await records.rating_board(g, 0, 5)).total for g in (GUILD, OTHER_GUILD, None)]
    assert sizes == [3, 1, 3]
    assert await records.forget(ALICE) == 4
    sizes = [(await records.rating_board(g, 0, 5)).total for g in (GUILD, OTHER_GUILD, None)]
    assert sizes == [2, 0, 2]
    assert [(await records.bot_board(g, 0, 5)).total for g in (GUILD, OTHER_GUILD, None)] == [
        0,
        0,
        0,
    ]


async def test_the_bots_seat_is_not_a_person_to_forget(records):
    with pytest.raises(ValueError, match="bot"):
        await records.forget(AI)


# URLs


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("sqlite:///records.db", "start it with sqlite+aiosqlite://"),
        ("sqlite+pysqlite:///records.db", "start it with sqlite+aiosqlite://"),
        ("postgresql://u:hunter2@db/bot", "start it with postgresql+asyncpg://"),
        ("postgresql+psycopg2://u:hunter2@db/bot", "start it with postgresql+asyncpg://"),
        ("mysql+aiomysql://u:hunter2@db/bot", "the database 'mysql'"),
        ("records.db", "not a database URL"),
        ("sqlite+aiosqlite://", "names no SQLite file"),
    ],
)
def test_an_unusable_url_says_what_to_write_without_the_password(url, fragment):
    with pytest.raises(UnsupportedDatabaseError) as caught:
        parse_url(url)
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message
    assert "hunter2" not in message


def test_storage_never_shows_the_password():
    storage = Storage("postgresql+asyncpg://bot:hunter2@db.example/records")
    assert "hunter2" not in repr(storage)
    assert "db.example" in repr(storage)


async def test_the_sqlite_file_and_its_directory_are_created(tmp_path):
    path = tmp_path / "data" / "deeper" / "records.db"
    storage = await open_records(f"sqlite+aiosqlite:///{path}")
    await storage.close()
    assert path.is_file()
