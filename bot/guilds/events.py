"""Servers' settings follow the servers: loaded into memory when this process gets a server
(GUILD_CREATE: it joins, or the server arrives with its shard at start-up, after a failover or a
reshard), deleted when the bot is removed from it.

Clicks read settings from memory only (SettingsMemory); this is the one place that fills it
from the database, in the background. The GUILD_CREATEs of a start-up (thousands, in bursts per
shard) are gathered over a short window and loaded with a few IN (...) queries, not one each.
A database that is down costs one warning line; its servers keep the defaults until their next
GUILD_CREATE loads them. A server that goes unavailable (an outage: GUILD_DELETE with
`unavailable`) keeps its settings.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from typing import Protocol

import discord
from discord.ext import commands

from bot.core.server import DEFAULT_SETTINGS, ServerSettings
from bot.guilds.api import SettingsMemory, SettingsStorage
from bot.records.api import RecordsError

log = logging.getLogger(__name__)

# Seconds to gather GUILD_CREATEs before loading them: discord.py hands over a shard's servers
# in one burst once the shard is ready, so a short window catches each burst whole.
LOAD_WINDOW = 0.25


class BatchSettingsStorage(SettingsStorage, Protocol):
    """Settings storage that loads many servers at once (the records' Storage)."""

    async def load_many_settings(self, guild_ids: Collection[int]) -> dict[int, ServerSettings]: ...


class ServerSettingsEvents(commands.Cog, name="ServerSettingsEvents"):
    def __init__(
        self,
        bot: discord.Client,
        storage: BatchSettingsStorage,
        memory: SettingsMemory,
        *,
        window: float = LOAD_WINDOW,
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.memory = memory
        self.window = window
        self._to_load: set[int] = set()
        # Removed servers whose settings the database did not delete yet: retried before the
        # next load, and never loaded meanwhile.
        self._to_delete: set[int] = set()
        self._worker: asyncio.Task[None] | None = None
        self._failing = False  # warned about the database already

    async def cog_unload(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        if self._to_delete:
            log.warning(
                "Shutting down before the settings of %d removed server(s) could be deleted",
                len(self._to_delete),
            )

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.load_soon(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.load_soon(guild.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from the server (or the server was deleted): its settings go."""
        self.memory.drop(guild.id)
        self._to_load.discard(guild.id)
        self._to_delete.add(guild.id)
        self._wake()

    def load_soon(self, guild_id: int) -> None:
        """Load the server's settings with the others arriving in the next `window` seconds."""
        self._to_load.add(guild_id)
        self._wake()

    async def settled(self) -> None:
        """Return once every server announced or removed so far is loaded or deleted (or failed
        to be): for tests and tools. Listeners run as tasks: one turn of the loop lets them in."""
        await asyncio.sleep(0)
        if self._worker is not None:
            await asyncio.shield(self._worker)

    def _wake(self) -> None:
        if self._worker is None:
            self._worker = asyncio.create_task(self._work())

    async def _work(self) -> None:
        try:
            while self._to_load or self._to_delete:
                if not self._to_delete:
                    await asyncio.sleep(self.window)  # let the rest of a burst arrive
                # A removed server's settings go before any load, so a server that comes back
                # (the bot added again) starts from the defaults.
                if not await self._delete_removed():
                    self._to_load.clear()  # they load on their next GUILD_CREATE
                    return
                batch, self._to_load = self._to_load, set()
                if batch:
                    await self._load(batch)
        except Exception:
            log.exception("Loading or deleting server settings failed")
            self._to_load.clear()
        finally:
            self._worker = None

    async def _load(self, batch: set[int]) -> None:
        # What memory held before the query: a /settings saved meanwhile is newer than the row.
        before = {guild_id: self.memory(guild_id) for guild_id in batch}
        try:
            loaded = await self.storage.load_many_settings(batch)
        except RecordsError as error:
            self._failed("load", len(batch), error)
            return
        self._back()
        for guild_id in batch:
            if self.bot.get_guild(guild_id) is None or guild_id in self._to_delete:
                continue  # removed while loading
            if self.memory(guild_id) is not before[guild_id]:
                continue  # /settings saved newer ones meanwhile
            self.memory.put(guild_id, loaded.get(guild_id, DEFAULT_SETTINGS))
        log.debug("Loaded the settings of %d server(s), %d set", len(batch), len(loaded))

    async def _delete_removed(self) -> bool:
        """Delete the settings of the removed servers; False if the database failed."""
        for guild_id in sorted(self._to_delete):
            try:
                await self.storage.delete_settings(guild_id)
            except RecordsError as error:
                self._failed("delete", len(self._to_delete), error)
                return False
            self._to_delete.discard(guild_id)
            self._back()
            log.info("Deleted the settings of server %s: the bot was removed from it", guild_id)
        return True

    def _failed(self, doing: str, servers: int, error: RecordsError) -> None:
        """One warning while the database fails; the next failures are debug lines."""
        if self._failing:
            log.debug("Server settings: could not %s %d server(s): %s", doing, servers, error)
            return
        self._failing = True
        if doing == "load":
            log.warning(
                "Could not load the settings of %d server(s) (%s); they keep the defaults until "
                "Discord announces them again",
                servers,
                error,
            )
        else:
            log.warning(
                "Could not delete the settings of %d removed server(s) (%s); retrying before "
                "the next servers load",
                servers,
                error,
            )

    def _back(self) -> None:
        if self._failing:
            self._failing = False
            log.info("Server settings: the database answers again")
