"""Servers' /settings in the records database: the SQL of loading (many servers in one query),
saving and deleting them (synchronous Core, run by `Storage` through `run_sync`).

A server that never saved settings has no row and the defaults. A row a newer or older bot wrote
with a value this one does not offer is logged and read as the defaults, rather than stopping
the servers loaded with it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator, Mapping
from typing import Any

from sqlalchemy import Connection, delete, select

from bot.core.server import Mark, ServerSettings, SettingError
from bot.records.sql.schema import server_settings
from bot.records.sql.statements import dialect_of

log = logging.getLogger(__name__)

# Servers per IN (...): under SQLite's oldest limit of 999 bound parameters.
_CHUNK = 900


def load(connection: Connection, guild_ids: Collection[int]) -> dict[int, ServerSettings]:
    """The stored settings of those of `guild_ids` that have any."""
    found: dict[int, ServerSettings] = {}
    for chunk in _chunks(sorted(set(guild_ids))):
        rows = connection.execute(
            select(server_settings).where(server_settings.c.guild_id.in_(chunk))
        ).mappings()
        for row in rows:
            guild_id = row["guild_id"]
            try:
                found[guild_id] = settings_of(row)
            except SettingError as error:
                log.warning("Stored settings of server %s are not valid: %s", guild_id, error)
    return found


def save(connection: Connection, guild_id: int, settings: ServerSettings, now: float) -> None:
    """Insert or replace the server's row: saving the same settings twice leaves one row."""
    row = settings_row(guild_id, settings, now)
    insert = dialect_of(connection.dialect.name).insert(server_settings).values(row)
    connection.execute(
        insert.on_conflict_do_update(
            index_elements=[server_settings.c.guild_id],
            set_={name: insert.excluded[name] for name in row if name != "guild_id"},
        )
    )


def delete_all(connection: Connection, guild_ids: Collection[int]) -> None:
    for chunk in _chunks(sorted(set(guild_ids))):
        connection.execute(delete(server_settings).where(server_settings.c.guild_id.in_(chunk)))


def settings_row(guild_id: int, settings: ServerSettings, now: float) -> dict[str, Any]:
    return {
        "guild_id": guild_id,
        "games_per_channel": settings.games_per_channel,
        "difficulty": settings.difficulty,
        "turn_timeout": settings.turn_timeout,
        **_mark_row("x", settings.x_emoji),
        **_mark_row("o", settings.o_emoji),
        "challenge_cooldown": settings.challenge_cooldown,
        "updated_at": now,
        "variant": settings.variant,
    }


def settings_of(row: Mapping[Any, Any]) -> ServerSettings:
    """The row as settings; SettingError if it holds a value no server can have."""
    return ServerSettings(
        games_per_channel=row["games_per_channel"],
        difficulty=row["difficulty"],
        turn_timeout=row["turn_timeout"],
        x_emoji=_mark_of(row, "x"),
        o_emoji=_mark_of(row, "o"),
        challenge_cooldown=row["challenge_cooldown"],
        variant=row["variant"],
    )


def _mark_row(mark: str, emoji: Mark | None) -> dict[str, Any]:
    return {
        f"{mark}_emoji_id": None if emoji is None else emoji.emoji_id,
        f"{mark}_emoji_text": None if emoji is None else emoji.text,
        f"{mark}_emoji_animated": emoji is not None and emoji.animated,
    }


def _mark_of(row: Mapping[Any, Any], mark: str) -> Mark | None:
    text = row[f"{mark}_emoji_text"]
    if text is None:
        return None
    return Mark(text, row[f"{mark}_emoji_id"], bool(row[f"{mark}_emoji_animated"]))


def _chunks(ids: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]
