"""The records schema's migrations, on SQLite and PostgreSQL: an empty database is brought to
the newest revision at start-up, every revision can be undone, the migrations create exactly
the tables the code describes, and a database migrated by a newer bot is refused in one line."""

from dataclasses import replace

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from bot.core.game import AI
from bot.records.sql.migrate import alembic_config
from bot.records.sql.schema import game_row, with_postgresql_options
from bot.records.sql.storage import DatabaseAheadError, Storage, open_records
from bot.tournaments import tables as _tournament_tables  # noqa: F401  (on `metadata`)
from tests.support.records import (
    ALICE,
    BOB,
    CAROL,
    DRAW,
    GUILD,
    O_WINS,
    X_WINS,
    game_id,
    record,
)
from tests.support.ultimate_records import DRAWN, playout, ultimate_record

TABLES = {"games", "players", "bot_tallies", "memberships", "board_sizes"}
PUZZLE_TABLES = {"puzzle_attempts", "puzzle_players", "puzzle_ratings", "puzzle_memberships"}
SETTINGS_TABLES = {"server_settings"}
VARIANT_TABLES = {"variant_players", "variant_bot_tallies", "variant_memberships"} | {
    "variant_board_sizes"
}
TOURNAMENT_TABLES = {"tournaments", "tournament_players", "tournament_rounds"} | {
    "tournament_byes",
    "tournament_pairings",
}
NEWEST_TABLES = TABLES | PUZZLE_TABLES | SETTINGS_TABLES | VARIANT_TABLES | TOURNAMENT_TABLES
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head() or ""


async def run(storage: Storage, work):
    return await storage.database.run(work, write=True)


def tables(connection) -> set[str]:
    return set(inspect(connection).get_table_names()) - {"alembic_version"}


def current(connection) -> tuple[str, ...]:
    return MigrationContext.configure(connection).get_current_heads()


async def test_an_empty_database_is_migrated_to_the_newest_revision(database_url):
    storage = await open_records(database_url)
    try:
        assert await run(storage, tables) == NEWEST_TABLES
        assert await run(storage, current) == (HEAD,)
        # Opening it again finds nothing to do and keeps what is there.
        assert await storage.record([record(1, ALICE, BOB, X_WINS)]) == 1
        again = await open_records(database_url)
        assert (await again.stats(ALICE, None)).vs_people.wins == 1
        await again.close()
    finally:
        await storage.close()


async def test_the_migrations_create_exactly_the_tables_the_code_describes(database_url):
    storage = await open_records(database_url)
    try:
        differences = await run(
            storage,
            lambda connection: compare_metadata(
                MigrationContext.configure(connection), with_postgresql_options()
            ),
        )
        assert differences == []
    finally:
        await storage.close()


async def test_every_revision_can_be_undone(database_url):
    storage = await open_records(database_url)
    try:
        await storage.record([record(1, ALICE, BOB, X_WINS)])
        await run(storage, lambda c: command.downgrade(alembic_config(c), "base"))
        assert await run(storage, tables) == set()
        assert await run(storage, current) == ()
        await run(storage, lambda c: command.upgrade(alembic_config(c), "head"))
        assert await run(storage, tables) == NEWEST_TABLES
    finally:
        await storage.close()


async def test_a_database_from_before_puzzles_keeps_its_games(database_url):
    storage = await open_records(database_url)
    try:
        await storage.record([record(1, ALICE, BOB, X_WINS)])
        await run(storage, lambda c: command.downgrade(alembic_config(c), "0001"))
        assert await run(storage, tables) == TABLES
        await run(storage, lambda c: command.upgrade(alembic_config(c), "head"))
        assert await run(storage, tables) == NEWEST_TABLES
        assert (await storage.stats(ALICE, None)).vs_people.wins == 1
    finally:
        await storage.close()


async def test_0002_recounts_the_bot_board_as_it_now_lists_players(database_url):
    """0001 counted everyone who had played the bot; the board now lists only players with a
    game unbeaten against Impossible or a win against Hard, and its count must agree."""
    storage = await open_records(database_url)
    try:
        await storage.record(
            [
                record(1, AI, ALICE, X_WINS, level="impossible"),  # a loss: nothing to show
                record(2, BOB, AI, DRAW, level="impossible"),
            ]
        )
        await run(storage, lambda c: command.downgrade(alembic_config(c), "0001"))
        sizes = "SELECT guild_id, vs_bot FROM board_sizes ORDER BY guild_id"
        counted = await run(storage, lambda c: c.execute(text(sizes)).all())
        assert [tuple(row) for row in counted] == [(0, 2), (GUILD, 2)]  # as 0001 counted
        await run(storage, lambda c: command.upgrade(alembic_config(c), "head"))
        counted = await run(storage, lambda c: c.execute(text(sizes)).all())
        assert [tuple(row) for row in counted] == [(0, 1), (GUILD, 1)]
        board = await storage.bot_board(GUILD, 0, 10)
        assert ([row.user_id for row in board.rows], board.total) == ([BOB], 1)
    finally:
        await storage.close()


async def test_0005_makes_every_game_recorded_before_it_classic(database_url):
    storage = await open_records(database_url)
    try:
        games = [record(1, ALICE, BOB, X_WINS), record(2, BOB, AI, DRAW, level="hard")]
        await storage.record(games)
        await run(storage, lambda c: command.downgrade(alembic_config(c), "0004"))
        assert "kind" not in await run(storage, game_columns)
        # A game recorded by a bot from before kinds, into the table as it was then.
        await run(storage, insert_without_kind(record(3, CAROL, ALICE, O_WINS)))
        await run(storage, lambda c: command.upgrade(alembic_config(c), "head"))
        kinds = "SELECT kind FROM games ORDER BY game_id"
        assert await run(storage, lambda c: c.scalars(text(kinds)).all()) == ["classic"] * 3
        assert [await storage.game(game.game_id) for game in games] == games
        assert (await storage.game(game_id(3))) == record(3, CAROL, ALICE, O_WINS)
    finally:
        await storage.close()


async def test_0006_keeps_classic_records_and_takes_ultimate_games(database_url):
    storage = await open_records(database_url)
    try:
        games = [record(1, ALICE, BOB, X_WINS), record(2, BOB, AI, DRAW, level="hard")]
        await storage.record(games)
        await run(storage, lambda c: command.downgrade(alembic_config(c), "0005"))
        assert await run(storage, tables) == TABLES | PUZZLE_TABLES | SETTINGS_TABLES
        # A game recorded by a bot from before variants.
        await run(storage, insert_without_kind(record(3, CAROL, ALICE, O_WINS)))
        await run(storage, lambda c: command.upgrade(alembic_config(c), "0006"))
        assert await run(storage, tables) >= VARIANT_TABLES
        assert [await storage.game(game.game_id) for game in games] == games
        assert await storage.game(game_id(3)) == record(3, CAROL, ALICE, O_WINS)
        alice_before = await storage.stats(ALICE, GUILD)
        # 81 cells and more than 9 moves fit now, and count apart from classic.
        full = ultimate_record(4, ALICE, BOB, playout(DRAWN))
        assert len(full.board) == 81
        assert full.moves is not None
        assert len(full.moves) > 9
        assert await storage.record([full]) == 1
        assert await storage.game(full.game_id) == full
        alice = await storage.stats(ALICE, GUILD)
        assert replace(alice, variants=(), recent=()) == replace(alice_before, recent=())
        assert [variant.vs_people.draws for variant in alice.variants] == [1]
        # Undone, the ultimate records go (an older bot knows no other kind) and classic's stay.
        await run(storage, lambda c: command.downgrade(alembic_config(c), "0005"))
        assert await storage.game(full.game_id) is None
        assert [await storage.game(game.game_id) for game in games] == games
    finally:
        await storage.close()


def game_columns(connection) -> list[str]:
    return [column["name"] for column in inspect(connection).get_columns("games")]


def insert_without_kind(game):
    def insert(connection) -> None:
        row = {name: value for name, value in game_row(game).items() if name != "kind"}
        names = ", ".join(row)
        connection.execute(
            text(f"INSERT INTO games ({names}) VALUES ({', '.join(':' + n for n in row)})"), row
        )

    return insert


async def test_a_database_from_a_newer_bot_is_refused_in_one_line(database_url):
    if database_url.startswith("postgresql"):
        # The test server trusts every local connection: the password is only there to be hidden.
        database_url = make_url(database_url).set(password="hunter2")
    storage = await open_records(database_url)
    await run(
        storage,
        lambda c: c.execute(text("UPDATE alembic_version SET version_num = 'f00dcafe1234'")),
    )
    await storage.close()
    with pytest.raises(DatabaseAheadError) as caught:
        await open_records(database_url)
    message = str(caught.value)
    assert "\n" not in message
    assert "f00dcafe1234" in message
    assert HEAD in message
    assert "newer" in message
    assert "hunter2" not in message
    # Nothing was changed: the newer bot's tables are as it left them.
    storage = Storage(database_url)
    try:
        assert await run(storage, current) == ("f00dcafe1234",)
    finally:
        await storage.close()


def test_the_migrations_ship_inside_the_package():
    script = ScriptDirectory.from_config(alembic_config())
    assert "bot/records/sql/migrations" in script.dir.replace("\\", "/")
    # One line of revisions, numbered in order from 0001, ending in the head that start-up
    # migrates to.
    revisions = [revision.revision for revision in script.walk_revisions()]
    assert revisions == [f"{number:04d}" for number in range(len(revisions), 0, -1)]
    assert len(revisions) >= 6
    assert revisions[0] == HEAD
