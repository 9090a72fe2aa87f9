"""Shards: which ones a process runs, which one an event came from, and the log lines naming it.

Discord splits a bot's servers into shards by server id, `(guild_id >> 22) % shard_count`, and
sends DMs to shard 0. A process runs some or all of the shards (SHARD_COUNT, SHARD_IDS).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from contextvars import ContextVar

# The shard of the event being handled, for log lines (None: not an event of one shard).
# discord.py runs every event handler in a task of its own, so a handler's value ends with it.
EVENT_SHARD: ContextVar[int | None] = ContextVar("EVENT_SHARD", default=None)

_PART = re.compile(r"(\d+)(?:-(\d+))?")


class ShardSpecError(ValueError):
    """A SHARD_IDS value that is not a list of shards out of the count; says why."""


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """ "0-3", "4,5", "0-1, 6": the shard ids, sorted. ShardSpecError says what is wrong."""
    ids: list[int] = []
    for part in text.split(","):
        match = _PART.fullmatch(part.strip())
        if match is None:
            raise ShardSpecError(
                f"must be shard ids and ranges such as 0-3 or 4,5, not {text.strip()!r}"
            )
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ShardSpecError(f"has a range that runs backwards: {part.strip()!r}")
        if last >= shard_count:
            raise ShardSpecError(
                f"names shard {last}, but SHARD_COUNT is {shard_count} "
                f"(shards 0 to {shard_count - 1})"
            )
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ShardSpecError(f"names a shard twice: {text.strip()!r}")
    return tuple(sorted(ids))


def describe_shard_ids(ids: Iterable[int]) -> str:
    """(0, 1, 2, 5) -> "0-2, 5": the shards as SHARD_IDS would write them."""
    runs: list[list[int]] = []
    for shard in sorted(ids):
        if runs and shard == runs[-1][1] + 1:
            runs[-1][1] = shard
        else:
            runs.append([shard, shard])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def runs_every_shard(shard_ids: Iterable[int] | None, shard_count: int | None) -> bool:
    return shard_ids is None or shard_count is None or set(shard_ids) == set(range(shard_count))


def holds_shard_zero(shard_ids: Iterable[int] | None) -> bool:
    """Whether this process gets shard 0: DMs, and the one that registers the commands."""
    return shard_ids is None or 0 in shard_ids


def shard_of(guild_id: int | None, shard_count: int | None) -> int:
    """The shard Discord sends a server's events to; DMs go to shard 0."""
    if guild_id is None or not shard_count:
        return 0
    return (guild_id >> 22) % shard_count


def check_shards_share_database(
    shard_ids: Iterable[int] | None, shard_count: int | None, database_url: str
) -> str | None:
    """Why this process may not run with these shards and this database (one line), or None.

    A process running only some of the shards has siblings that answer the other servers;
    stats and leaderboards agree only if they all write to one database, which a SQLite file
    (one machine, one writer) cannot be. An empty `database_url` is the default SQLite file.
    """
    if runs_every_shard(shard_ids, shard_count):
        return None
    scheme = database_url.partition(":")[0].partition("+")[0].lower()
    if database_url and scheme != "sqlite":
        return None
    assert shard_ids is not None
    return (
        f"SHARD_IDS={describe_shard_ids(shard_ids).replace(' ', '')} runs only some of the "
        f"{shard_count} shards, so other processes run the rest, but DATABASE_URL is a SQLite "
        "file they cannot share: use one PostgreSQL database for every process, or leave "
        "SHARD_IDS empty to run every shard here"
    )


class ShardLogFilter(logging.Filter):
    """Names the shard in the log lines of an event's handler: "shard 3: Channel 42: ..."."""

    def filter(self, record: logging.LogRecord) -> bool:
        shard = EVENT_SHARD.get()
        if shard is not None and not getattr(record, "shard_named", False):
            record.msg = f"shard {shard}: {record.msg}"
            record.shard_named = True
        return True
