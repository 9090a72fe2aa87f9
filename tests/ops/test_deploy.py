"""What can be checked here of the deployment files in deploy/ (systemd and Procfiles are not
run by the tests): they start the bot, and their shard ranges are valid and cover every shard
exactly once."""

import configparser
import re
from pathlib import Path

from bot.ops.shards import parse_shard_ids
from bot.settings import Settings

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "deploy" / "tictactoe-bot@.service"
PROCFILE = REPO / "deploy" / "Procfile.shards"


def read_unit() -> configparser.ConfigParser:
    # systemd allows a key more than once (EnvironmentFile): keep the last, as lists are not
    # needed here; keys keep their case.
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(UNIT.read_text())
    return unit


def covers_every_shard_once(ranges: list[str], shard_count: int) -> bool:
    shards = [shard for text in ranges for shard in parse_shard_ids(text, shard_count)]
    return sorted(shards) == list(range(shard_count))


def test_the_systemd_unit_runs_the_bot_with_the_instance_as_its_shards():
    service = read_unit()["Service"]
    assert service["ExecStart"].endswith("python -m bot")
    # Each process keeps its own spool: a writable directory per instance.
    assert service["Environment"] == "SHARD_IDS=%i DATA_DIR=/var/lib/tictactoe-bot/%i"
    assert service["StateDirectory"] == "tictactoe-bot/%i"
    assert service["KillSignal"] == "SIGTERM"  # the bot's clean stop
    # A bad setting exits 2 (see bot/__main__.py): restarting cannot fix it.
    assert service["RestartPreventExitStatus"] == "2"
    assert "EnvironmentFile=/etc/tictactoe-bot/env" in UNIT.read_text()


def test_the_systemd_example_instances_split_the_shards():
    text = UNIT.read_text()
    instances = re.findall(r"tictactoe-bot@([0-9,-]+)\b", text)
    shard_count = int(re.search(r"SHARD_COUNT \((\d+) here\)", text)[1])  # type: ignore[index]
    assert len(instances) >= 2
    assert covers_every_shard_once(instances, shard_count)
    for instance in instances:
        settings = Settings.from_env(
            {
                "DISCORD_TOKEN": "abc",
                "SHARD_COUNT": str(shard_count),
                "SHARD_IDS": instance,
                "DATABASE_URL": "postgresql+asyncpg://bot:secret@db/tictactoe",
            }
        )
        assert settings.shard_ids is not None


def test_the_sharded_procfile_runs_one_process_per_group_of_shards():
    text = PROCFILE.read_text()
    shard_count = int(re.search(r"SHARD_COUNT=(\d+)", text)[1])  # type: ignore[index]
    processes = [line for line in text.splitlines() if line and not line.startswith("#")]
    ranges = []
    for line in processes:
        match = re.fullmatch(r"[a-z0-9]+: SHARD_IDS=([0-9,-]+) python -m bot", line)
        assert match, line
        ranges.append(match[1])
    assert len(ranges) >= 2
    assert covers_every_shard_once(ranges, shard_count)
