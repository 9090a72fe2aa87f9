"""The game's cog: /tictactoe and the member menu, the listener every board's buttons reach
(bot/game/clicks.py carries a click out), private refusals, and the announcement of a finished
game."""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core import codec
from bot.core.finished import Finish, FinishedGame, Place, kind_of
from bot.core.game import Game
from bot.core.live import Cooldowns, GameStore, Live
from bot.core.policy import (
    Refuse,
    Room,
)
from bot.core.server import DEFAULT_SETTINGS, Look, ServerSettings
from bot.game import clicks, starting
from bot.game.delivery import Delivery
from bot.game.expiry import Expiry
from bot.game.interactions import (
    Interaction,
    channel_id,
    jump_url,
    sent_at,
    where,
)
from bot.ops.metrics import Metrics
from bot.ops.shards import EVENT_SHARD, shard_of
from bot.ui import DIFFICULTY_CHOICES, apologise, release, tell
from bot.view.replies import (
    render_raced,
    render_refusal,
)
from bot.view.words import command_mention

if TYPE_CHECKING:
    from bot.app import TicTacToeBot

log = logging.getLogger(__name__)


def monotonic() -> float:
    # Looked up at each call so a simulated clock (SimCord's) is honoured.
    return time.monotonic()


class TicTacToeCog(commands.Cog, name="TicTacToe"):
    def __init__(
        self,
        bot: TicTacToeBot,
        *,
        rng: random.Random,
        game_timeout: float,
        clock: Callable[[], float] = monotonic,
        metrics: Metrics | None = None,
        server_settings: Callable[[int | None], ServerSettings] = lambda guild_id: DEFAULT_SETTINGS,
    ) -> None:
        self.bot = bot
        # A server's settings by its id (None: a DM), from memory: a click never awaits them.
        self.server_settings = server_settings
        self.rng = rng
        self.game_timeout = game_timeout
        self.clock = clock
        self.metrics = metrics or Metrics()
        self.store = GameStore()
        self.cooldowns = Cooldowns()
        self.metrics.count_live_games(self.store.__len__)
        self.delivery = Delivery(bot, self.store, on_unsure=lambda: self.expiry.schedule())
        self.expiry = Expiry(
            self.store,
            self.delivery,
            clock=lambda: self.clock(),
            announce=self.announce,
            bot_id=lambda: self.bot_id,
            shard_of=lambda guild_id: shard_of(guild_id, self.bot.shard_count),
            challenge_closed=self.challenge_closed,
        )
        # Cogs cannot declare context menus with a decorator: built here, added on load.
        self.challenge_menu = app_commands.ContextMenu(
            name=locale_str("Challenge to Tic-Tac-Toe"), callback=self.challenge_from_menu
        )

    @property
    def bot_id(self) -> int:
        assert self.bot.user is not None
        return self.bot.user.id

    @property
    def command(self) -> str:
        return command_mention(self.bot.command_ids.get("tictactoe"))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.challenge_menu)
        self.bot.routes.add(codec.PREFIXES, self.on_component)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.challenge_menu.name, type=self.challenge_menu.type)
        self.bot.routes.remove(codec.PREFIXES)
        self.expiry.close()
        self.store.clear()
        self.cooldowns.clear()

    async def cog_app_command_error(
        self,
        interaction: discord.Interaction[Any],  # discord.py types this hook for any client
        error: app_commands.AppCommandError,
    ) -> None:
        command = interaction.command.name if interaction.command else "?"
        self.metrics.command_errors.inc()
        log.error("/%s failed in channel %s", command, interaction.channel_id, exc_info=error)
        await apologise(interaction)

    async def on_click_error(
        self, interaction: Interaction, custom_id: str, error: Exception
    ) -> None:
        """Like cog_app_command_error, for buttons: log it, and say sorry to the user."""
        self.metrics.click_errors.inc()
        log.error(
            "Button %r failed in channel %s", custom_id, interaction.channel_id, exc_info=error
        )
        await apologise(interaction)

    # ------------------------------------------------------------------ /tictactoe

    @app_commands.command(
        name="tictactoe", description=locale_str("Play tic-tac-toe against me or a friend")
    )
    @app_commands.describe(
        opponent=locale_str("Challenge this person; leave empty to play against me"),
        play_as=locale_str("Your mark; X moves first"),
        difficulty=locale_str(
            "How well I play (games against me only); the server's default if left out"
        ),
    )
    @app_commands.choices(
        play_as=[
            app_commands.Choice(name=locale_str("X — you move first"), value="X"),
            app_commands.Choice(name=locale_str("O — the other side moves first"), value="O"),
            app_commands.Choice(name=locale_str("Random"), value="random"),
        ],
        difficulty=DIFFICULTY_CHOICES,
    )
    async def tictactoe(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        play_as: Literal["X", "O", "random"] = "X",
        difficulty: Literal["easy", "medium", "hard", "impossible"] | None = None,
    ) -> None:
        await self.start(interaction, opponent, play_as, difficulty)

    async def challenge_from_menu(
        self, interaction: Interaction, member: discord.Member | discord.User
    ) -> None:
        """The member menu's "Challenge to Tic-Tac-Toe": /tictactoe opponent:member."""
        await self.start(interaction, member, "X", None)

    async def start(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None,
        play_as: str,
        difficulty: str | None,
    ) -> None:
        EVENT_SHARD.set(shard_of(interaction.guild_id, self.bot.shard_count))
        started = time.perf_counter()
        try:
            await starting.start(self, interaction, opponent, play_as, difficulty)
        finally:
            self.metrics.command_seconds.observe(time.perf_counter() - started)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: Interaction, command: Any) -> None:
        # discord.py sends this only after a command that did not fail: on an error,
        # cog_app_command_error still needs `interaction.response` as it is.
        release(interaction)

    # ------------------------------------------------------------------ the buttons

    async def on_component(self, interaction: Interaction, custom_id: str) -> None:
        """Every button this bot's boards carry (routed by its prefix: bot/ui.py): its
        custom_id carries the whole state of its message, so a click is handled the same way
        before and after a restart."""
        started = time.perf_counter()
        EVENT_SHARD.set(shard_of(interaction.guild_id, self.bot.shard_count))
        try:
            await clicks.on_click(self, interaction, custom_id)
        except Exception as error:
            await self.on_click_error(interaction, custom_id, error)
        finally:
            release(interaction)
            self.metrics.click_seconds.observe(time.perf_counter() - started)

    # ------------------------------------------------------------------ server settings

    def room(
        self,
        scope: int,
        guild_id: int | None,
        user_id: int,
        opponent_id: int | None,
        *,
        limit: int,
    ) -> Room:
        """What memory knows of `scope` for a /tictactoe there (see policy.refuse_start)."""
        store = self.store
        mine = store.board_of_player(scope, user_id)
        theirs = None if opponent_id is None else store.board_of_player(scope, opponent_id)
        pending = None if guild_id is None else store.challenge_of(guild_id, user_id)
        cooldown = 0.0
        if guild_id is not None:
            now = self.clock()
            until = self.cooldowns.until(guild_id, user_id, now)
            cooldown = 0.0 if until is None else until - now
        return Room(
            in_channel=store.count(scope),
            limit=limit,
            mine=None if mine is None else store.get(mine),
            theirs=None if theirs is None else store.get(theirs),
            any_live=store.any_in(scope),
            pending=None if pending is None else store.get(pending),
            pending_channel=None if pending is None else pending[0],
            cooldown=cooldown,
        )

    def usable_look(self, look: Look) -> Look:
        """`look` without custom emoji that no longer exist (deleted from their server)."""
        return look.with_emoji_that_exist(lambda emoji_id: self.bot.get_emoji(emoji_id) is not None)

    def challenge_closed(self, guild_id: int | None, challenger: int) -> None:
        """A challenge was declined or expired: its server's cooldown starts for the
        challenger."""
        if guild_id is None:
            return
        cooldown = self.server_settings(guild_id).challenge_cooldown
        if cooldown:
            now = self.clock()
            self.cooldowns.start(guild_id, challenger, now + cooldown, now)

    # ------------------------------------------------------------------ private answers

    async def refuse(self, interaction: Interaction, refusal: Refuse, live: Live | None) -> None:
        url = None
        if live is not None and live.message_id is not None:
            url = self.jump_url(refusal.link_channel or channel_id(interaction), live)
        reply = render_refusal(
            refusal.reason,
            refusal.state,
            str(interaction.locale),
            bot_id=self.bot_id,
            command=self.command,
            live_url=url,
            limit=refusal.limit,
            until=math.ceil(sent_at(interaction) + refusal.wait) if refusal.wait else None,
        )
        await tell(interaction, reply)

    async def raced(self, interaction: Interaction) -> None:
        """Another click changed the game first: say so to this one."""
        self.metrics.clicks_raced.inc()
        await tell(interaction, render_raced(str(interaction.locale)))

    # ------------------------------------------------------------------ expiry

    async def expire_lapsed(self) -> int:
        """Free and show every game past its deadline now (the timer's work; tests call it
        after moving the clock)."""
        return await self.expiry.expire_lapsed()

    def announce(
        self,
        message_id: int,
        game: Game,
        ended_at: float,
        guild_id: int | None,
        place: str,
        user_installed: bool,
    ) -> None:
        """Count the game as finished and tell whoever listens (`on_game_finished`) that the
        game of this board has ended: after the click's answer, once per game; no I/O
        (discord.py runs each listener as a task of its own)."""
        self.metrics.finished[kind_of(game), Finish.of(game).label].inc()
        finished = FinishedGame(message_id, game, ended_at, guild_id, Place(place), user_installed)
        self.bot.dispatch("game_finished", finished)

    # ------------------------------------------------------------------ helpers

    def live_entry(
        self, interaction: Interaction, state_key: str, idle: float, message_id: int | None = None
    ) -> Live:
        """Memory's entry for a board this interaction posts or updates."""
        place, user_installed = where(interaction)
        return Live(
            message_id=message_id,
            key=state_key,
            unsure_of=None,
            token=interaction.token,
            deadline=self.clock() + idle,
            guild_id=interaction.guild_id,
            place=place,
            user_installed=user_installed,
        )

    def deadline(self, interaction: Interaction, idle: float) -> int:
        # Rounded up: a deadline shown a second early would read "60 seconds" for a minute.
        return math.ceil(sent_at(interaction) + idle)

    def jump_url(self, channel: int, live: Live) -> str:
        return jump_url(live.guild_id, channel, live.message_id)
