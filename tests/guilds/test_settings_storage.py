"""Server settings in the records database, on SQLite and PostgreSQL: every field comes back as
saved, saving again replaces, deleting forgets, many servers load in a few queries, migration
0004 adds and removes the table, 0008 makes the servers saved before it classic, and a database
that fails says so with RecordsError."""

import logging
from dataclasses import replace

import pytest
from alembic import command
from sqlalchemy import event, func, inspect, select, text, update

from bot.core.server import DEFAULT_SETTINGS, Mark, ServerSettings
from bot.records.api import RecordsError
from bot.records.sql.migrate import alembic_config
from bot.records.sql.schema import server_settings
from bot.records.sql.storage import Storage, open_records
from tests.support.records import ALICE, BOB, GUILD, OTHER_GUILD, X_WINS, record

EVERY_FIELD = ServerSettings(
    games_per_channel=7,
    difficulty="hard",
    turn_timeout=840,
    x_emoji=Mark("party_parrot", 1_234_567_890_123_456_789, animated=True),
    o_emoji=Mark("\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"),  # a family
    challenge_cooldown=3600,
    variant="ultimate",
)
CUSTOM_BOTH = ServerSettings(
    x_emoji=Mark("cross", 2**63 - 1), o_emoji=Mark("nought", 1), challenge_cooldown=30
)


@pytest.fixture
async def storage(database_url):
    storage = await open_records(database_url)
    yield storage
    await storage.close()


async def run(storage: Storage, work):
    return await storage.database.run(work, write=True)


async def rows(storage: Storage) -> int:
    return await run(
        storage, lambda c: c.execute(select(func.count()).select_from(server_settings)).scalar()
    )


@pytest.mark.parametrize("settings", [EVERY_FIELD, CUSTOM_BOTH, DEFAULT_SETTINGS])
async def test_settings_come_back_as_saved(storage, settings):
    await storage.save_settings(GUILD, settings)
    assert await storage.load_settings(GUILD) == settings
    assert await storage.load_settings(OTHER_GUILD) is None  # never saved: the defaults


async def test_saving_again_replaces_the_servers_one_row(storage):
    await storage.save_settings(GUILD, EVERY_FIELD)
    await storage.save_settings(GUILD, EVERY_FIELD)
    assert await rows(storage) == 1
    await storage.save_settings(GUILD, CUSTOM_BOTH)
    assert await rows(storage) == 1
    assert await storage.load_settings(GUILD) == CUSTOM_BOTH


async def test_deleting_forgets_one_server_and_keeps_the_others(storage):
    await storage.save_settings(GUILD, EVERY_FIELD)
    await storage.save_settings(OTHER_GUILD, CUSTOM_BOTH)
    await storage.delete_settings(GUILD)
    await storage.delete_settings(GUILD)  # nothing left to delete: no error
    assert await storage.load_settings(GUILD) is None
    assert await storage.load_settings(OTHER_GUILD) == CUSTOM_BOTH


async def test_thousands_of_servers_load_in_a_few_queries(storage):
    guilds = [GUILD + n for n in range(5000)]
    configured = {
        guild: ServerSettings(games_per_channel=1 + n % 10)
        for n, guild in enumerate(guilds)
        if n % 7 == 0
    }
    for guild, settings in configured.items():
        await storage.save_settings(guild, settings)
    selects: list[str] = []

    def note(_conn, _cursor, statement, *_args):
        if statement.lstrip().upper().startswith("SELECT") and "server_settings" in statement:
            selects.append(statement)

    event.listen(storage.database.sync_engine, "before_cursor_execute", note)
    try:
        loaded = await storage.load_many_settings(guilds)
    finally:
        event.remove(storage.database.sync_engine, "before_cursor_execute", note)
    assert loaded == configured
    assert len(selects) <= 6  # 5,000 servers, up to 900 to a query
    assert await storage.load_many_settings([]) == {}


@pytest.mark.parametrize(
    "stored", [{"difficulty": "godlike"}, {"variant": "hexagonal"}], ids=lambda v: str(*v)
)
async def test_a_stored_value_this_bot_does_not_offer_reads_as_the_defaults(
    storage, caplog, stored
):
    await storage.save_settings(GUILD, EVERY_FIELD)
    await storage.save_settings(OTHER_GUILD, CUSTOM_BOTH)
    await run(
        storage,
        lambda c: c.execute(
            update(server_settings).where(server_settings.c.guild_id == GUILD).values(**stored)
        ),
    )
    with caplog.at_level(logging.WARNING):
        loaded = await storage.load_many_settings([GUILD, OTHER_GUILD])
    assert loaded == {OTHER_GUILD: CUSTOM_BOTH}
    assert f"Stored settings of server {GUILD} are not valid" in caplog.text
    assert next(iter(stored.values())) in caplog.text


async def test_migration_0004_adds_the_table_and_undoing_it_keeps_the_games(storage):
    def tables(connection):
        return set(inspect(connection).get_table_names())

    await storage.record([record(1, ALICE, BOB, X_WINS)])
    await storage.save_settings(GUILD, EVERY_FIELD)
    await run(storage, lambda c: command.downgrade(alembic_config(c), "0003"))
    assert "server_settings" not in await run(storage, tables)
    # The games stay (read as they are: today's code reads columns later revisions add).
    assert await run(storage, lambda c: c.execute(text("SELECT count(*) FROM games")).scalar()) == 1
    await run(storage, lambda c: command.upgrade(alembic_config(c), "head"))
    assert "server_settings" in await run(storage, tables)
    assert (await storage.stats(ALICE, None)).vs_people.wins == 1
    assert await storage.load_settings(GUILD) is None  # undone means gone
    await storage.save_settings(GUILD, CUSTOM_BOTH)
    assert await storage.load_settings(GUILD) == CUSTOM_BOTH


async def test_migration_0008_makes_every_server_saved_before_it_classic(storage):
    def columns(connection):
        return {column["name"] for column in inspect(connection).get_columns("server_settings")}

    await storage.save_settings(GUILD, EVERY_FIELD)
    await run(storage, lambda c: command.downgrade(alembic_config(c), "0007"))
    assert "variant" not in await run(storage, columns)
    # The server's other settings stay through the undoing and the redoing.
    assert (
        await run(
            storage, lambda c: c.execute(text("SELECT count(*) FROM server_settings")).scalar()
        )
        == 1
    )
    await run(storage, lambda c: command.upgrade(alembic_config(c), "head"))
    assert "variant" in await run(storage, columns)
    assert await storage.load_settings(GUILD) == replace(EVERY_FIELD, variant="classic")
    await storage.save_settings(GUILD, EVERY_FIELD)
    assert await storage.load_settings(GUILD) == EVERY_FIELD


async def test_a_database_that_fails_raises_records_error(tmp_path):
    path = tmp_path / "records.db"
    path.write_bytes(b"not a database" * 100)
    storage = Storage(f"sqlite+aiosqlite:///{path}")
    try:
        with pytest.raises(RecordsError):
            await storage.load_many_settings([GUILD])
        with pytest.raises(RecordsError):
            await storage.save_settings(GUILD, EVERY_FIELD)
        with pytest.raises(RecordsError):
            await storage.delete_settings(GUILD)
    finally:
        await storage.close()
    assert path.read_bytes() == b"not a database" * 100
