"""What the rest of the bot sees of server settings: a memory that clicks read, and the
storage protocol behind it."""

from __future__ import annotations

from typing import Protocol

from bot.core.server import DEFAULT_SETTINGS, ServerSettings


class SettingsStorage(Protocol):
    """Where servers' settings are kept (the records database). Raises RecordsError when the
    database fails."""

    async def load_settings(self, guild_id: int) -> ServerSettings | None: ...

    async def save_settings(self, guild_id: int, settings: ServerSettings) -> None: ...

    async def delete_settings(self, guild_id: int) -> None: ...


class SettingsMemory:
    """Every server's settings this process has loaded: what a click reads, without awaiting
    anything. A server nobody configured (and every DM) has the defaults; only changed
    servers take memory."""

    def __init__(self) -> None:
        self._by_guild: dict[int, ServerSettings] = {}

    def __call__(self, guild_id: int | None) -> ServerSettings:
        if guild_id is None:
            return DEFAULT_SETTINGS
        return self._by_guild.get(guild_id, DEFAULT_SETTINGS)

    def __len__(self) -> int:
        return len(self._by_guild)

    def put(self, guild_id: int, settings: ServerSettings) -> None:
        if settings == DEFAULT_SETTINGS:
            self._by_guild.pop(guild_id, None)
        else:
            self._by_guild[guild_id] = settings

    def drop(self, guild_id: int) -> None:
        self._by_guild.pop(guild_id, None)
