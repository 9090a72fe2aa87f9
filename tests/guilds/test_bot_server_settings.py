"""Servers' settings follow the servers, through the real bot on a fake Discord and a real
database: a restart on the same SQLite file loads them again when Discord announces the server
(GUILD_CREATE); two processes on one PostgreSQL keep them across a failover and a reshard; the
bot removed from a server deletes them, a server down for an outage keeps them; a database
that is down costs one warning line and the defaults until the server is announced again."""

import asyncio
import logging

import pytest
from sqlalchemy import event

from bot.app import TicTacToeBot
from bot.core.server import DEFAULT_SETTINGS, Mark, ServerSettings
from bot.guilds.events import ServerSettingsEvents
from bot.records.sql.storage import Storage
from fake_discord import FakeChannel, Harness
from testdb.postgres import start_or_skip
from tests.support.cluster import Cluster

EVENTS_LOG = "bot.guilds.events"
CONFIGURED = ServerSettings(
    games_per_channel=3,
    difficulty="medium",
    turn_timeout=120,
    x_emoji=Mark("fire", 1_100_000_000_000_000_001),
    o_emoji=Mark("\N{DROPLET}"),
    challenge_cooldown=300,
)
OTHER = ServerSettings(games_per_channel=10, difficulty="easy", x_emoji=Mark("\N{CROSS MARK}"))


@pytest.fixture
async def cluster():
    async with Cluster() as cluster:
        yield cluster


def bot_of(process: Harness) -> TicTacToeBot:
    assert isinstance(process.bot, TicTacToeBot)
    return process.bot


def storage_of(process: Harness) -> Storage:
    records = bot_of(process).records
    assert isinstance(records, Storage)
    return records


async def settled(*processes: Harness) -> None:
    """Until each process has loaded (or deleted) the settings of the servers announced so far."""
    for process in processes:
        events = process.bot.get_cog("ServerSettingsEvents")  # type: ignore[attr-defined]
        assert isinstance(events, ServerSettingsEvents)
        await events.settled()


async def configure(process: Harness, channel: FakeChannel, settings: ServerSettings) -> None:
    """What /settings does once an admin saves: the database, then this process's memory."""
    assert channel.guild_id is not None
    await storage_of(process).save_settings(channel.guild_id, settings)
    bot_of(process).server_settings.put(channel.guild_id, settings)


def settings_in(process: Harness, channel: FakeChannel) -> ServerSettings:
    """What a click in the channel reads."""
    return bot_of(process).server_settings(channel.guild_id)


async def test_a_restart_on_the_same_sqlite_file_loads_the_settings_as_servers_arrive(
    cluster, tmp_path
):
    url = f"sqlite+aiosqlite:///{tmp_path / 'records.db'}"
    first = await cluster.start(None, 1, database_url=url, data_dir=tmp_path / "data")
    configured, untouched = cluster.create_guild(0, "club"), cluster.create_guild(0, "other")
    await settled(first)
    assert settings_in(first, configured) is DEFAULT_SETTINGS
    await configure(first, configured, CONFIGURED)
    await first.close()

    again = await cluster.start(None, 1, database_url=url, data_dir=tmp_path / "data")
    await settled(again)
    assert settings_in(again, configured) == CONFIGURED
    assert settings_in(again, untouched) is DEFAULT_SETTINGS
    assert len(bot_of(again).server_settings) == 1  # only changed servers take memory


async def test_a_start_up_burst_of_servers_loads_with_one_query(cluster, tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'records.db'}"
    first = await cluster.start(None, 1, database_url=url, data_dir=tmp_path / "data")
    channels = [cluster.create_guild(0, f"server {n}") for n in range(300)]
    await settled(first)
    for channel in channels[::10]:
        await configure(first, channel, CONFIGURED)
    await first.close()

    again = await cluster.start(None, 1, database_url=url, data_dir=tmp_path / "data")
    queries: list[str] = []

    def note(_connection, _cursor, statement, *_):
        if "server_settings" in statement:
            queries.append(statement)

    engine = storage_of(again).database.sync_engine
    event.listen(engine, "before_cursor_execute", note)
    await settled(again)  # the 300 GUILD_CREATEs of its start
    event.remove(engine, "before_cursor_execute", note)
    assert len(queries) == 1, queries
    assert [settings_in(again, channel) for channel in channels[::10]] == [CONFIGURED] * 30
    assert len(bot_of(again).server_settings) == 30


async def test_removal_deletes_the_settings_and_an_outage_keeps_them(cluster, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger=EVENTS_LOG)
    url = f"sqlite+aiosqlite:///{tmp_path / 'records.db'}"
    process = await cluster.start(None, 1, database_url=url, data_dir=tmp_path / "data")
    down, removed = cluster.create_guild(0, "down"), cluster.create_guild(0, "removed")
    await settled(process)
    await configure(process, down, CONFIGURED)
    await configure(process, removed, OTHER)
    guild_down, guild_removed = cluster.guilds

    process.remove(guild_down, unavailable=True)  # an outage: Discord sends it back later
    await settled(process)
    assert settings_in(process, down) == CONFIGURED
    assert await storage_of(process).load_settings(guild_down.id) == CONFIGURED
    process.announce(guild_down)
    await settled(process)
    assert settings_in(process, down) == CONFIGURED

    process.remove(guild_removed)  # the bot was removed from the server
    await settled(process)
    assert settings_in(process, removed) is DEFAULT_SETTINGS
    assert await storage_of(process).load_settings(guild_removed.id) is None
    assert f"Deleted the settings of server {guild_removed.id}" in caplog.text
    process.announce(guild_removed)  # added back: it starts from the defaults
    await settled(process)
    assert settings_in(process, removed) is DEFAULT_SETTINGS
    assert await storage_of(process).load_settings(guild_down.id) == CONFIGURED


async def test_two_processes_on_postgresql_keep_settings_through_a_failover_and_a_reshard(
    cluster, postgres_url, tmp_path
):
    first = await cluster.start((0, 1), database_url=postgres_url, data_dir=tmp_path / "first")
    second = await cluster.start((2, 3), database_url=postgres_url, data_dir=tmp_path / "second")
    on_first, on_second = cluster.create_guild(1, "one"), cluster.create_guild(2, "two")
    await settled(first, second)
    assert cluster.serving(on_first) is first
    assert cluster.serving(on_second) is second
    await configure(first, on_first, OTHER)
    await configure(second, on_second, CONFIGURED)
    assert settings_in(first, on_second) is DEFAULT_SETTINGS  # not its server

    await second.close()  # it dies; its shards start again in another process
    third = await cluster.start((2, 3), database_url=postgres_url, data_dir=tmp_path / "third")
    await settled(third)
    assert cluster.serving(on_second) is third
    assert settings_in(third, on_second) == CONFIGURED
    assert settings_in(third, on_first) is DEFAULT_SETTINGS

    # Resharding: one process takes every server.
    await first.close()
    await third.close()
    alone = await cluster.start(None, 1, database_url=postgres_url, data_dir=tmp_path / "alone")
    await settled(alone)
    assert settings_in(alone, on_first) == OTHER
    assert settings_in(alone, on_second) == CONFIGURED


@pytest.fixture(scope="module")
def stoppable_postgres():
    """A server of this module's own, as the next test stops and starts it."""
    server = start_or_skip()
    yield server
    server.destroy()


async def test_a_database_that_is_down_costs_one_warning_and_the_defaults_until_it_answers(
    cluster, stoppable_postgres, tmp_path, caplog
):
    caplog.set_level(logging.DEBUG, logger=EVENTS_LOG)
    with stoppable_postgres.database("settings_down") as url:
        process = await cluster.start((0, 1, 2, 3), database_url=url, data_dir=tmp_path)
        channels = [cluster.create_guild(shard, f"server {shard}") for shard in (0, 1, 2)]
        await settled(process)
        for channel, settings in zip(channels, (CONFIGURED, OTHER, CONFIGURED), strict=True):
            await configure(process, channel, settings)
        configured, other, removed = cluster.guilds
        await process.close()  # restarted while the database is down
        await asyncio.to_thread(stoppable_postgres.stop)
        try:
            process = await cluster.start((0, 1, 2, 3), database_url=url, data_dir=tmp_path)
            await settled(process)
            process.announce(other)  # a second GUILD_CREATE: a second failure, no new warning
            process.remove(removed)
            await settled(process)
            assert [settings_in(process, channel) for channel in channels] == [DEFAULT_SETTINGS] * 3
        finally:
            await asyncio.to_thread(stoppable_postgres.start)
        warnings = [
            r.getMessage()
            for r in caplog.records
            if r.name == EVENTS_LOG and r.levelno >= logging.WARNING
        ]
        assert len(warnings) == 1, warnings
        assert warnings[0].startswith("Could not load the settings of 3 server(s)")

        process.announce(configured)  # Discord announces it again (a reconnect)
        process.announce(other)
        await settled(process)
        assert settings_in(process, channels[0]) == CONFIGURED
        assert settings_in(process, channels[1]) == OTHER
        assert "Server settings: the database answers again" in caplog.text
        # The removal made while it was down is carried out before the next load.
        assert await storage_of(process).load_settings(removed.id) is None
        await process.close()
