"""/settings: a server's admins see and change its tic-tac-toe settings.

With no options the command shows a private card (bot/guilds/view.py) with a control for each
setting; its clicks and modals reach `on_interaction` by their "set:" custom_ids. With options it
sets them at once. Either way a change is checked (bot/guilds/parse.py), saved to the records
database within SAVE_TIMEOUT_SECONDS and only then put in memory (bot.server_settings), which
is what the games read: a change that could not be saved changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.server import MAX_GAMES_PER_CHANNEL, MIN_GAMES_PER_CHANNEL, ServerSettings
from bot.guilds import parse
from bot.guilds import view as settings_view
from bot.guilds.api import SettingsMemory, SettingsStorage
from bot.guilds.parse import Refused, ServerEmoji
from bot.ops.metrics import Metrics
from bot.records.api import RecordsError
from bot.ui import (
    DIFFICULTY_CHOICES,
    VARIANT_CHOICES,
    apologise,
    card_view,
    show_modal,
    tell,
    update_message,
)
from bot.view.cards import Reply

if TYPE_CHECKING:
    from bot.app import TicTacToeBot
    from bot.ui import Interaction

log = logging.getLogger(__name__)

# A change is saved before it is answered, within Discord's 3 seconds for an answer.
SAVE_TIMEOUT_SECONDS = 2.0


class NotSaved(Exception):
    """The database did not take the change (an error, or no answer in time)."""


class SettingsCog(commands.Cog, name="Settings"):
    def __init__(
        self,
        bot: TicTacToeBot,
        *,
        memory: SettingsMemory,
        storage: SettingsStorage | None,
        metrics: Metrics,
        default_timeout: int,
        save_timeout: float = SAVE_TIMEOUT_SECONDS,
    ) -> None:
        self.bot = bot
        self.memory = memory
        self.storage = storage
        self.metrics = metrics
        self.default_timeout = default_timeout  # GAME_TIMEOUT_SECONDS: the turn timeout unset
        self.save_timeout = save_timeout
        # One change at a time per server, so that two admins' changes to different settings
        # both last (each applies to what the other saved).
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    # ------------------------------------------------------------------ /settings

    @app_commands.command(
        name="settings", description=locale_str("See and change tic-tac-toe's settings here")
    )
    # discord.py fills in the tree's contexts (DMs too) unless a command names its own.
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        games_per_channel=locale_str("How many games can run at once in one channel"),
        difficulty=locale_str("My level in /tictactoe when the player names none"),
        variant=locale_str("The board /tictactoe starts when the player names none"),
        turn_timeout=locale_str("How long a player has for each move"),
        x_emoji=locale_str("The emoji shown for X: one of this server's, or a standard one"),
        o_emoji=locale_str("The emoji shown for O: one of this server's, or a standard one"),
        challenge_cooldown=locale_str(
            "After a challenge is declined or expires, how long until the challenger may ask again"
        ),
    )
    @app_commands.choices(
        difficulty=DIFFICULTY_CHOICES,
        variant=VARIANT_CHOICES,
    )
    @app_commands.choices(
        # Written out for the catalogs; a test keeps the values those of bot/core/server.py.
        turn_timeout=[
            app_commands.Choice(name=locale_str("30 seconds"), value=30),
            app_commands.Choice(name=locale_str("1 minute"), value=60),
            app_commands.Choice(name=locale_str("2 minutes"), value=120),
            app_commands.Choice(name=locale_str("3 minutes"), value=180),
            app_commands.Choice(name=locale_str("5 minutes"), value=300),
            app_commands.Choice(name=locale_str("10 minutes"), value=600),
            app_commands.Choice(name=locale_str("14 minutes"), value=840),
        ],
        challenge_cooldown=[
            app_commands.Choice(name=locale_str("Off"), value=0),
            app_commands.Choice(name=locale_str("30 seconds"), value=30),
            app_commands.Choice(name=locale_str("1 minute"), value=60),
            app_commands.Choice(name=locale_str("2 minutes"), value=120),
            app_commands.Choice(name=locale_str("5 minutes"), value=300),
            app_commands.Choice(name=locale_str("10 minutes"), value=600),
            app_commands.Choice(name=locale_str("30 minutes"), value=1800),
            app_commands.Choice(name=locale_str("1 hour"), value=3600),
        ],
    )
    async def settings(
        self,
        interaction: Interaction,
        games_per_channel: app_commands.Range[int, MIN_GAMES_PER_CHANNEL, MAX_GAMES_PER_CHANNEL]
        | None = None,
        difficulty: Literal["easy", "medium", "hard", "impossible"] | None = None,
        variant: Literal["classic", "ultimate"] | None = None,
        turn_timeout: int | None = None,
        x_emoji: app_commands.Range[str, 1, 100] | None = None,
        o_emoji: app_commands.Range[str, 1, 100] | None = None,
        challenge_cooldown: int | None = None,
    ) -> None:
        locale = str(interaction.locale)
        guild_id = interaction.guild_id
        if guild_id is None:  # Discord offers the command in servers only
            await tell(interaction, settings_view.render_server_only(locale))
            return
        if self.storage is None:
            await tell(interaction, settings_view.render_needs_database(locale))
            return
        emoji = _server_emoji(interaction)
        given: dict[str, Any] = {
            parse.GAMES_PER_CHANNEL: games_per_channel,
            parse.DIFFICULTY: difficulty,
            parse.VARIANT: variant,
            parse.TURN_TIMEOUT: turn_timeout,
            parse.X_EMOJI: None if x_emoji is None else parse.parse_emoji(x_emoji, emoji),
            parse.O_EMOJI: None if o_emoji is None else parse.parse_emoji(o_emoji, emoji),
            parse.CHALLENGE_COOLDOWN: challenge_cooldown,
        }
        changes = {setting: value for setting, value in given.items() if value is not None}
        can_change = interaction.permissions.manage_guild
        if not changes:
            card = settings_view.render_settings(
                self.memory(guild_id),
                locale,
                default_timeout=self.default_timeout,
                can_change=can_change,
            )
            await interaction.response.send_message(view=card_view(card), ephemeral=True)
            return
        if not can_change:
            await tell(interaction, settings_view.render_not_allowed(locale))
            return
        try:
            notice = await self._change(guild_id, changes, locale)
        except NotSaved:
            await tell(interaction, settings_view.render_not_saved(locale))
            return
        await tell(interaction, Reply(notice))

    # ------------------------------------------------------------------ the card's controls

    async def cog_load(self) -> None:
        self.bot.routes.add((settings_view.PREFIX,), self.on_component, modals=True)

    async def cog_unload(self) -> None:
        self.bot.routes.remove((settings_view.PREFIX,))

    async def on_component(self, interaction: Interaction, custom_id: str) -> None:
        """The card's selects, buttons and modals, routed by custom_id (see bot/ui.py; a
        failure is answered by the bot: bot/errors.py)."""
        data: Mapping[str, Any] = interaction.data or {}
        locale = str(interaction.locale)
        click = settings_view.parse_control(custom_id)
        guild_id = interaction.guild_id
        if click is None or guild_id is None:  # forged, or another version's
            log.warning("Rejected settings control %r", custom_id)
            await apologise(interaction)
            return
        # Checked on every click: the card stays open after a member's permissions change.
        if not interaction.permissions.manage_guild:
            await tell(interaction, settings_view.render_not_allowed(locale))
            return
        if self.storage is None:
            await tell(interaction, settings_view.render_needs_database(locale))
            return
        setting = click.setting
        if click.action == settings_view.EDIT:
            modal = settings_view.render_modal(setting, self.memory(guild_id), locale)
            await show_modal(interaction, modal)
            return
        value: Any
        if click.action == settings_view.RESET:
            value = parse.default_of(setting)
        elif click.action == settings_view.MODAL:
            typed = _typed_value(data)
            if setting == parse.GAMES_PER_CHANNEL:
                value = parse.parse_games_per_channel(typed)
                value = parse.default_of(setting) if value is None else value
            else:
                value = parse.parse_emoji(typed, _server_emoji(interaction))
        else:
            values = data.get("values") or [""]
            value = parse.parse_choice(setting, str(values[0]))
        try:
            notice = await self._change(guild_id, {setting: value}, locale)
        except NotSaved:
            await tell(interaction, settings_view.render_not_saved(locale))
            return
        card = settings_view.render_settings(
            self.memory(guild_id), locale, default_timeout=self.default_timeout, notice=notice
        )
        await update_message(interaction, card)

    # ------------------------------------------------------------------ changing

    async def _change(self, guild_id: int, changes: Mapping[str, Any], locale: str) -> str:
        """Apply `changes` to the server's settings: saved, then in memory. The line that says
        what changed, or why nothing did; NotSaved if the database did not take it."""
        lock = self._locks.get(guild_id)
        if lock is None:
            lock = self._locks[guild_id] = asyncio.Lock()
        async with lock:
            old = self.memory(guild_id)
            new = parse.change(old, changes)
            if isinstance(new, Refused):
                return settings_view.render_refused(new, locale)
            changed = parse.changed(old, new)
            if changed:
                await self._save(guild_id, new)
                self.memory.put(guild_id, new)
                for setting in changed:
                    self.metrics.settings_changed.labels(setting=setting).inc()
                log.info("Server %s changed its settings: %s", guild_id, ", ".join(changed))
        return settings_view.render_changed(
            old, new, changed, locale, default_timeout=self.default_timeout
        )

    async def _save(self, guild_id: int, settings: ServerSettings) -> None:
        assert self.storage is not None
        try:
            await asyncio.wait_for(
                self.storage.save_settings(guild_id, settings), self.save_timeout
            )
        except (RecordsError, TimeoutError) as error:
            log.warning("Could not save server %s's settings: %r", guild_id, error)
            raise NotSaved from error


def _server_emoji(interaction: Interaction) -> list[ServerEmoji]:
    """The server's own custom emoji, as the bot's cache knows them."""
    guild = interaction.guild
    if guild is None:
        return []
    return [ServerEmoji(emoji.id, emoji.name, emoji.animated) for emoji in guild.emojis]


def _typed_value(data: Mapping[str, Any]) -> str:
    """The text of a modal's one field: in a label (`component`) or an action row."""
    for item in data.get("components") or []:
        inner = [item["component"]] if "component" in item else item.get("components") or []
        for field in inner:
            if field.get("custom_id") == settings_view.VALUE_INPUT:
                return str(field.get("value") or "")
    return ""
