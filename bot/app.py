"""The bot: an AutoShardedBot that loads the game, registers its commands, and logs how to add
it to a server or to an account. It runs every shard, or those SHARD_IDS names."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import tictactoe as ttt
from bot import i18n
from bot.door import TokenEditor
from bot.errors import Failures, FailureTree
from bot.game.cog import TicTacToeCog, monotonic
from bot.game.table import Table
from bot.guilds.api import SettingsMemory
from bot.guilds.cog import SettingsCog
from bot.guilds.events import ServerSettingsEvents
from bot.i18n.translator import CommandTranslator
from bot.kinds.classic import CLASSIC
from bot.kinds.ultimate.kind import Ultimate
from bot.kinds.ultimate.thinking import Thinkers
from bot.ops.health import Health
from bot.ops.memory import release_freed_memory
from bot.ops.metrics import Metrics
from bot.ops.rest_errors import count_rest_errors
from bot.ops.shards import describe_shard_ids, holds_shard_zero, shard_of
from bot.ops.shards_cog import ShardsCog
from bot.ops.status_server import StatusServer
from bot.puzzles.cog import PuzzleCog
from bot.records.api import GameWriter, Records
from bot.records.cog import RecordsCog
from bot.records.sql.storage import Storage
from bot.settings import Settings
from bot.tournaments.cog import TournamentsCog
from bot.tournaments.store import TournamentStore
from bot.ui import Routes, release
from bot.view.words import command_mention

log = logging.getLogger(__name__)

INVITE_SCOPES = ("bot", "applications.commands")
# Keys Discord adds to a registered command, or fills with a default when we leave them out.
# (default_member_permissions is compared: a string in Discord's schema, which a payload may
# give as a number.)
_SERVER_SIDE_KEYS = frozenset({"id", "application_id", "version", "guild_id", "dm_permission"})


class TicTacToeBot(commands.AutoShardedBot):
    table: Table  # where games are played: built in setup_hook
    thinkers: Thinkers | None = None  # the ultimate AI's worker processes, started on first use

    def __init__(
        self,
        settings: Settings,
        *,
        rng: random.Random | None = None,
        clock: Callable[[], float] = monotonic,
        records: Records | None = None,
        writer: GameWriter | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.metrics = metrics or Metrics(exported=settings.metrics_port is not None)
        # Failed commands (in the tree) and components (on_interaction), handled alike.
        self.failures = Failures(self.metrics)
        super().__init__(
            command_prefix=commands.when_mentioned,  # no prefix commands; slash only
            # Interactions need no privileged intent; emoji updates tell when a server deletes
            # an emoji its settings show on boards.
            intents=discord.Intents(guilds=True, emojis_and_stickers=True),
            help_command=None,
            # A failed command is counted, logged and apologised for (bot/errors.py).
            tree_cls=FailureTree,
            # Nothing the bot says pings anyone, unless a message says whom (a challenge).
            allowed_mentions=discord.AllowedMentions.none(),
            # None: as many shards as Discord recommends, all in this process. (discord.py's
            # type for shard_ids leaves out its default, None.)
            shard_count=settings.shard_count,
            shard_ids=None if settings.shard_ids is None else list(settings.shard_ids),  # type: ignore[arg-type]
        )
        self.settings = settings
        self.rng = rng or random.Random()
        self.clock = clock
        # Where finished games are stored, and the queue that stores them off the click's path.
        self.records = records
        self.writer = writer
        # Each server's /settings, loaded as its shard receives it: clicks read them here.
        self.server_settings = SettingsMemory()
        self.health = Health(self.running_shards)
        self.status_server: StatusServer | None = None
        self._launching: asyncio.Future[None] | None = None
        # Each capability's components, by their custom_id's prefix (added as its cog loads).
        self.routes = Routes()
        # Filled at sync: the ids Discord gave the commands, for clickable mentions.
        self.command_ids: dict[str, int] = {}
        # Installed to a server or to a user's account; usable in servers, DMs and group DMs.
        self.tree.allowed_contexts = app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        )
        self.tree.allowed_installs = app_commands.AppInstallationType(guild=True, user=True)

    async def on_interaction(self, interaction: discord.Interaction[TicTacToeBot]) -> None:
        """A component interaction, to the capability whose custom_id it carries (bot/ui.py:
        Routes); slash commands go to the command tree, not here. A handler that raises is
        counted, logged and apologised for (bot/errors.py), and every handled interaction is
        released (bot/ui.py)."""
        found = self.routes.find(interaction)
        if found is None:
            return
        handler, custom_id = found
        try:
            await handler(interaction, custom_id)
        except Exception as error:
            await self.failures.component_failed(interaction, custom_id, error)
        finally:
            release(interaction)

    def running_shards(self) -> list[int] | None:
        """The shards this process runs; None until Discord has said how many there are."""
        if self.shard_ids is not None:
            return list(self.shard_ids)
        return None if self.shard_count is None else list(range(self.shard_count))

    async def setup_hook(self) -> None:
        if self.settings.metrics_port is not None:
            # First, so that /healthz answers "connecting" while the shards connect.
            server = StatusServer(self.metrics, self.health)
            await server.start(self.settings.metrics_host, self.settings.metrics_port)
            self.status_server = server
        self.metrics.watch_gateway(lambda: self.latencies)
        count_rest_errors(self.http, self.metrics)  # the session exists once logged in
        await self.add_cog(ShardsCog(self))
        # Names and descriptions in each user's Discord language, from the same catalogs.
        await self.tree.set_translator(CommandTranslator())
        self.table = self.build_table()
        await self.add_cog(TicTacToeCog(self, self.table, self.metrics))
        # The puzzle set is built in a worker thread as the cog loads: no click waits on it.
        records = self.records
        await self.add_cog(
            PuzzleCog(
                self,
                rng=self.rng,
                read_player=None if records is None else records.puzzle_player,
                read_puzzle_ratings=None if records is None else records.puzzle_ratings,
            )
        )
        # /settings always: without a database it says that settings need one.
        await self.add_cog(
            SettingsCog(
                self,
                memory=self.server_settings,
                storage=self.records,
                metrics=self.metrics,
                default_timeout=self.settings.turn_timeout_seconds,
            )
        )
        if self.records is not None:  # each server's settings, loaded as the server arrives
            await self.add_cog(ServerSettingsEvents(self, self.records, self.server_settings))
        tournaments = None
        if isinstance(self.records, Storage):  # tournaments live in the records' database
            tournaments = TournamentsCog(self, TournamentStore(self.records), self.table)
            await self.add_cog(tournaments)
        if self.records is not None and self.writer is not None:
            stats_line = None if tournaments is None else tournaments.stats_line
            await self.add_cog(RecordsCog(self, self.records, self.writer, stats_line=stats_line))
            self.watch_recording(self.writer)
        if holds_shard_zero(self.shard_ids):
            await self.sync_commands()
        else:
            # Commands are the application's, not a shard's: one process registers them.
            await self.fetch_command_ids()
        self.log_install_links()
        # The sync needed every locale's catalog; clicks need only their players' languages.
        i18n.pack_catalogs()
        # The engine solves every position once, on first use (about 13 ms): now, rather than
        # on a player's first click, and before the freeze below takes its table in.
        ttt.best_actions(ttt.initial_state())
        # Everything alive now (modules, the command tree) stays for the process's lifetime:
        # exempt it from garbage collection so that full collections under load stay short.
        # The start-up's garbage first, or the freeze would keep it for good.
        gc.collect()
        gc.freeze()
        release_freed_memory()

    def build_table(self) -> Table:
        """The game's table, wired to this bot: its edits by token, its clock, its settings, and
        `game_finished` for whoever listens (the records)."""

        def bot_id() -> int:
            assert self.user is not None
            return self.user.id

        # Workers start on an ultimate game's first move, not now: a bot that never plays one
        # runs no process for it.
        self.thinkers = Thinkers()
        return Table(
            TokenEditor(self),
            rng=self.rng,
            turn_timeout=self.settings.turn_timeout_seconds,
            clock=self.clock,
            bot_id=bot_id,
            announce=lambda finished: self.dispatch("game_finished", finished),
            metrics=self.metrics,
            server_settings=self.server_settings,
            emoji_exists=lambda emoji_id: self.get_emoji(emoji_id) is not None,
            command_mention=lambda: command_mention(self.command_ids.get("tictactoe")),
            shard_of=lambda guild_id: shard_of(guild_id, self.shard_count),
            # Discord's clock, as every other end time (a snowflake's); SimCord's in tests.
            wall_clock=lambda: discord.utils.utcnow().timestamp(),
            kinds=(CLASSIC, Ultimate(self.thinkers)),
        )

    def watch_recording(self, writer: GameWriter) -> None:
        """/healthz fails while finished games cannot be written; /metrics shows how many wait
        and how long each write takes."""
        self.health.add_check("recording", lambda: writer.failing)
        self.metrics.pending_records.set_function(lambda: writer.pending)
        writer.on_write = self.metrics.database_write_seconds.observe

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
        commands = self.tree.get_commands(guild=guild)
        if isinstance(translator, CommandTranslator):  # one locale's catalog at a time
            await translator.prepare(self.tree, commands)
        try:
            return await self._sync_if_changed(guild, commands, where)
        finally:
            if isinstance(translator, CommandTranslator):
                translator.forget()  # the texts are Discord's now

    async def _sync_if_changed(
        self, guild: discord.Object | None, commands: list[Any], where: str
    ) -> bool:
        translator = self.tree.translator
        local = {
            cmd.name: (
                await cmd.get_translated_payload(self.tree, translator)
                if translator is not None
                else cmd.to_dict(self.tree)
            )
            for cmd in commands
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

    async def fetch_command_ids(self) -> None:
        """The ids Discord gave the commands (for clickable mentions), without changing them."""
        guild = discord.Object(self.settings.guild_id) if self.settings.guild_id else None
        commands = await self._fetch_command_payloads(guild)
        self.command_ids = {cmd["name"]: int(cmd["id"]) for cmd in commands}
        log.info("Commands are registered by the process that runs shard 0; not syncing them")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if initial and self.shard_count is not None:
            # The first shard to connect: the count is known now (Discord's, if not set).
            running = self.running_shards() or []
            log.info("Running shards %s of %d", describe_shard_ids(running), self.shard_count)
        await super().before_identify_hook(shard_id, initial=initial)

    async def _fetch_command_payloads(self, guild: discord.Object | None) -> list[dict[str, Any]]:
        # Raw payloads: AppCommand.to_dict() does not round-trip `contexts` and
        # `integration_types` in discord.py 2.7, which would force a sync on every start.
        assert self.application_id is not None
        if guild is None:
            return await self.http.get_global_commands(self.application_id)  # type: ignore[return-value]
        return await self.http.get_guild_commands(self.application_id, guild.id)  # type: ignore[return-value]

    async def on_ready(self) -> None:
        log.info("Logged in as %s (id %s)", self.user, self.user and self.user.id)

    async def launch_shards(self) -> None:
        # discord.py's close() does not stop a shard that is still connecting (it waits up to
        # shard_connect_timeout for Discord's hello): close() cancels this, and it ends quietly.
        self._launching = asyncio.ensure_future(super().launch_shards())
        try:
            await self._launching
        except asyncio.CancelledError:
            if not self.is_closed():
                raise
        finally:
            self._launching = None

    async def close(self) -> None:
        log.info("Shutting down")
        if self._launching is not None:
            self._launching.cancel()
        await super().close()
        if self.thinkers is not None:
            await self.thinkers.close()
        await self.close_records()
        if self.status_server is not None:
            await self.status_server.close()

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
            key: str(item) if key == "default_member_permissions" else _canonical(item)
            for key, item in value.items()
            if key not in _SERVER_SIDE_KEYS and item not in (None, False, [], {}, "")
        }
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    return value
