"""Shard settings (SHARD_COUNT, SHARD_IDS, METRICS_PORT, METRICS_HOST): what is accepted, what
is refused with one line, and which processes may run a subset of the shards."""

import logging

import pytest

from bot.ops.shards import (
    EVENT_SHARD,
    ShardLogFilter,
    check_shards_share_database,
    describe_shard_ids,
    holds_shard_zero,
    parse_shard_ids,
    shard_of,
)
from bot.settings import Settings, SettingsError


def settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "abc", **env})


def problems(**env: str) -> tuple[str, ...]:
    with pytest.raises(SettingsError) as caught:
        settings(**env)
    return caught.value.problems


def test_by_default_one_process_runs_every_shard_discord_recommends():
    config = settings()
    assert config.shard_count is None
    assert config.shard_ids is None
    assert config.metrics_port is None
    assert config.metrics_host == "127.0.0.1"


@pytest.mark.parametrize(
    ("ids", "expected"),
    [
        ("0-3", (0, 1, 2, 3)),
        ("4,5", (4, 5)),
        (" 6 ", (6,)),
        ("0-1, 6", (0, 1, 6)),
        ("7,2-3", (2, 3, 7)),
    ],
)
def test_shard_ids_take_ids_and_ranges(ids, expected):
    config = settings(SHARD_COUNT="8", SHARD_IDS=ids, DATABASE_URL=POSTGRES)
    assert config.shard_count == 8
    assert config.shard_ids == expected


def test_a_shard_count_alone_runs_all_of_them_here():
    config = settings(SHARD_COUNT="4")
    assert (config.shard_count, config.shard_ids) == (4, None)


@pytest.mark.parametrize(
    ("env", "fragments"),
    [
        ({"SHARD_IDS": "0-1"}, ("SHARD_IDS needs SHARD_COUNT",)),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-4"}, ("SHARD_IDS", "shard 4", "SHARD_COUNT is 4")),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, ("SHARD_IDS", "backwards", "'3-1'")),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1,1"}, ("SHARD_IDS", "twice")),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a-b"}, ("SHARD_IDS", "0-3 or 4,5", "'a-b'")),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, ("SHARD_IDS", "'0;1'")),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "-1"}, ("SHARD_IDS", "'-1'")),
        ({"SHARD_COUNT": "0"}, ("SHARD_COUNT", "'0'")),
        ({"SHARD_COUNT": "two"}, ("SHARD_COUNT", "'two'")),
        ({"METRICS_PORT": "0"}, ("METRICS_PORT", "'0'")),
        ({"METRICS_PORT": "http"}, ("METRICS_PORT", "'http'")),
        ({"METRICS_PORT": "70000"}, ("METRICS_PORT", "'70000'")),
    ],
)
def test_a_bad_range_or_port_is_one_line_naming_it(env, fragments):
    (line,) = problems(**env)
    for fragment in fragments:
        assert fragment in line


def test_every_bad_setting_is_named_at_once():
    lines = problems(SHARD_COUNT="4", SHARD_IDS="9", METRICS_PORT="x", LOG_LEVEL="LOUD")
    assert [line.split()[0] for line in lines] == ["LOG_LEVEL", "SHARD_IDS", "METRICS_PORT"]


def test_metrics_port_and_host():
    config = settings(METRICS_PORT="9100", METRICS_HOST="0.0.0.0")
    assert (config.metrics_port, config.metrics_host) == (9100, "0.0.0.0")


def test_parse_and_describe_are_inverse():
    assert describe_shard_ids(parse_shard_ids("0-2,5,7-8", 9)) == "0-2, 5, 7-8"
    assert describe_shard_ids([3]) == "3"


def test_only_the_process_with_shard_zero_holds_it():
    assert holds_shard_zero(None)  # every shard
    assert holds_shard_zero((0, 1))
    assert not holds_shard_zero((2, 3))


def test_a_server_belongs_to_the_shard_discord_computes_and_dms_to_shard_zero():
    guild_id = 81384788765712384  # a server of shard 2, out of 4
    assert shard_of(guild_id, 4) == 2
    guild_id = (4 * 10**9 + 1) << 22  # made at a millisecond that is 1 modulo 4
    assert shard_of(guild_id, 4) == 1
    assert shard_of(None, 4) == 0
    assert shard_of(guild_id, None) == 0


SQLITE = "sqlite+aiosqlite:///games.db"
POSTGRES = "postgresql+asyncpg://bot:secret@db/tictactoe"


@pytest.mark.parametrize(
    ("shard_ids", "shard_count", "url"),
    [
        (None, None, SQLITE),  # every shard Discord recommends, here
        (None, 4, SQLITE),  # every shard, here
        ((0, 1, 2, 3), 4, SQLITE),  # the same, written out
        ((0, 1), 4, POSTGRES),
        ((2, 3), 4, "postgresql://db/tictactoe"),
    ],
)
def test_what_may_run_with_which_database(shard_ids, shard_count, url):
    assert check_shards_share_database(shard_ids, shard_count, url) is None


@pytest.mark.parametrize(
    "url",
    [SQLITE, "sqlite:///games.db", "SQLite:////var/lib/bot.db", ""],  # "": the default
)
def test_a_subset_of_shards_on_sqlite_is_refused_in_one_line(url):
    reason = check_shards_share_database((0, 1), 4, url)
    assert reason is not None
    assert "\n" not in reason
    assert "SHARD_IDS=0-1" in reason
    assert "4 shards" in reason
    assert "PostgreSQL" in reason
    assert "secret" not in reason  # never the URL itself


def test_settings_refuse_a_subset_of_shards_on_the_default_sqlite_file():
    assert problems(SHARD_COUNT="4", SHARD_IDS="0-1") == (
        check_shards_share_database((0, 1), 4, ""),
    )
    assert settings(SHARD_COUNT="4", SHARD_IDS="0-1", DATABASE_URL=POSTGRES).shard_ids == (0, 1)


def test_log_lines_of_an_event_name_its_shard():
    filter_ = ShardLogFilter()
    record = logging.LogRecord(
        "bot.game.cog", logging.INFO, __file__, 1, "Channel %s: new", (5,), None
    )
    assert filter_.filter(record)
    assert record.getMessage() == "Channel 5: new"
    token = EVENT_SHARD.set(3)
    try:
        named = logging.LogRecord(
            "bot.game.cog", logging.INFO, __file__, 1, "Channel %s", (5,), None
        )
        assert filter_.filter(named)
        assert filter_.filter(named)  # a second handler does not name it twice
    finally:
        EVENT_SHARD.reset(token)
    assert named.getMessage() == "shard 3: Channel 5"
