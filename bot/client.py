"""The bot: a commands.Bot subclass that loads the game, registers its commands, and logs how
to add it to a server or to an account."""

from __future__ import annotations

import gc
import logging
import random
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import tictactoe as ttt

from .cog import TicTacToeCog, monotonic
from .i18n import CommandTranslator
from .records.cog import GameWriter, RecordsCog
from .records.model import Records
from .settings import Settings

log = logging.getLogger(__name__)

INVITE_SCOPES = ("bot", "applications.commands")
# Keys Discord adds to a registered command, or fills with a default when we leave them out.
_SERVER_SIDE_KEYS = frozenset(
    {"id", "application_id", "version", "guild_id", "dm_permission", "default_member_permissions"}
)


class TicTacToeBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        rng: random.Random | None = None,
        clock: Callable[[], float] = monotonic,
        records: Records | None = None,
        writer: GameWriter | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,  # no prefix commands; slash only
            intents=discord.Intents(guilds=True),  # interactions need no privileged intent
            help_command=None,
            # Nothing the bot says pings anyone, unless a message says whom (a challenge).
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.rng = rng or random.Random()
        self.clock = clock
        # Where finished games are stored, and the queue that stores them off the click's path.
        self.records = records
        self.writer = writer
        # Filled at sync: the ids Discord gave the commands, for clickable mentions.
        self.command_ids: dict[str, int] = {}
        # Installed to a server or to a user's account; usable in servers, DMs and group DMs.
        self.tree.allowed_contexts = app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        )
        self.tree.allowed_installs = app_commands.AppInstallationType(guild=True, user=True)

    async def setup_hook(self) -> None:
        # Names and descriptions in each user's Discord language, from the same catalogs.
        await self.tree.set_translator(CommandTranslator())
        await self.add_cog(
            TicTacToeCog(
                self,
                rng=self.rng,
                game_timeout=self.settings.game_timeout_seconds,
                clock=self.clock,
            )
        )
        if self.records is not None and self.writer is not None:
            await self.add_cog(RecordsCog(self, self.records, self.writer))
        await self.sync_commands()
        self.log_install_links()
        # The engine solves every position once, on first use (about 13 ms): now, rather than
        # on a player's first click, and before the freeze below takes its table in.
        ttt.best_actions(ttt.initial_state())
        # Everything alive now (modules, the command tree) stays for the process's lifetime:
        # exempt it from garbage collection so that full collections under load stay short.
        gc.freeze()

    def log_install_links(self) -> None:
        """Log the links that add the bot to a server and to a user's account."""
        assert self.application_id is not None
        log.info("Add me to a server: %s", install_url(self.application_id, user=False))
        log.info("Add me to your account: %s", install_url(self.application_id, user=True))

    async def sync_commands(self) -> bool:
        """Upload the slash commands if Discord's copy differs from ours; True if it did.

        With DISCORD_GUILD_ID set they go to that server only, where updates show at once.
        """
        guild = discord.Object(self.settings.guild_id) if self.settings.guild_id else None
        where = f"server {guild.id}" if guild else "all servers"
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        local = {
            cmd.name: (
                await cmd.get_translated_payload(self.tree, translator)
                if translator is not None
                else cmd.to_dict(self.tree)
            )
            for cmd in self.tree.get_commands(guild=guild)
        }
        remote = {cmd["name"]: cmd for cmd in await self._fetch_command_payloads(guild)}
        if _canonical(local) == _canonical(remote):
            self.command_ids = {name: int(cmd["id"]) for name, cmd in remote.items()}
            log.info("Slash commands for %s are up to date (%s)", where, ", ".join(sorted(local)))
            return False
        synced = await self.tree.sync(guild=guild)
        self.command_ids = {command.name: command.id for command in synced}
        log.info("Synced %d command(s) to %s", len(synced), where)
        return True

    async def _fetch_command_payloads(self, guild: discord.Object | None) -> list[dict[str, Any]]:
        # Raw payloads: AppCommand.to_dict() does not round-trip `contexts` and
        # `integration_types` in discord.py 2.7, which would force a sync on every start.
        assert self.application_id is not None
        if guild is None:
            return await self.http.get_global_commands(self.application_id)  # type: ignore[return-value]
        return await self.http.get_guild_commands(self.application_id, guild.id)  # type: ignore[return-value]

    async def on_ready(self) -> None:
        log.info("Logged in as %s (id %s)", self.user, self.user and self.user.id)

    async def close(self) -> None:
        log.info("Shutting down")
        await super().close()
        await self.close_records()

    async def close_records(self) -> None:
        """Write what is pending (or spool it for the next start), then let the database go;
        once the gateway is closed, as no more games can end."""
        writer, records = self.writer, self.records
        self.writer = self.records = None
        if writer is not None:
            await writer.close()
        if records is not None:
            await records.close()


def install_url(application_id: int, *, user: bool) -> str:
    """The link that adds the app to a server (bot + commands) or to a user's account."""
    # discord.py's oauth_url has no integration_type: Discord's values are 0 (server), 1 (user).
    if user:
        url = discord.utils.oauth_url(application_id, scopes=("applications.commands",))
        return f"{url}&integration_type=1"
    url = discord.utils.oauth_url(
        application_id, permissions=discord.Permissions.none(), scopes=INVITE_SCOPES
    )
    return f"{url}&integration_type=0"


def _canonical(value: Any) -> Any:
    """A command payload without server-side keys and empty values, for comparison."""
    if isinstance(value, dict):
        return {
            key: _canonical(item)
            for key, item in value.items()
            if key not in _SERVER_SIDE_KEYS and item not in (None, False, [], {}, "")
        }
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    return value
