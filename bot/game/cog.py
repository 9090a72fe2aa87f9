"""The game's cog: /tictactoe and the member menu, and the route every board's buttons reach.
It only turns discord.py's interactions into the table's requests (bot/door.py); the table
(bot/game/table.py) plays."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.door import InteractionDoor, request_of
from bot.game.table import Table
from bot.ops.metrics import Metrics
from bot.ops.shards import EVENT_SHARD, shard_of
from bot.ui import DIFFICULTY_CHOICES, VARIANT_CHOICES, release

if TYPE_CHECKING:
    from bot.app import TicTacToeBot

Interaction = discord.Interaction[Any]

log = logging.getLogger(__name__)


def monotonic() -> float:
    # Looked up at each call so a simulated clock (SimCord's) is honoured.
    return time.monotonic()


class TicTacToeCog(commands.Cog, name="TicTacToe"):
    def __init__(self, bot: TicTacToeBot, table: Table, metrics: Metrics) -> None:
        self.bot = bot
        self.table = table
        self.metrics = metrics
        # Cogs cannot declare context menus with a decorator: built here, added on load.
        self.challenge_menu = app_commands.ContextMenu(
            name=locale_str("Challenge to Tic-Tac-Toe"), callback=self.challenge_from_menu
        )

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.challenge_menu)
        self.bot.routes.add(self.table.prefixes, self.on_component)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.challenge_menu.name, type=self.challenge_menu.type)
        self.bot.routes.remove(self.table.prefixes)
        self.table.close()

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
        variant=locale_str(
            "Classic, or Ultimate: nine boards in one; the server's default if left out"
        ),
    )
    @app_commands.choices(
        play_as=[
            app_commands.Choice(name=locale_str("X — you move first"), value="X"),
            app_commands.Choice(name=locale_str("O — the other side moves first"), value="O"),
            app_commands.Choice(name=locale_str("Random"), value="random"),
        ],
        difficulty=DIFFICULTY_CHOICES,
        variant=VARIANT_CHOICES,
    )
    async def tictactoe(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        play_as: Literal["X", "O", "random"] = "X",
        difficulty: Literal["easy", "medium", "hard", "impossible"] | None = None,
        variant: Literal["classic", "ultimate"] | None = None,
    ) -> None:
        await self.start(interaction, opponent, play_as, difficulty, variant)

    async def challenge_from_menu(
        self, interaction: Interaction, member: discord.Member | discord.User
    ) -> None:
        """The member menu's "Challenge to Tic-Tac-Toe": /tictactoe opponent:member."""
        await self.start(interaction, member, "X", None, None)

    async def start(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None,
        play_as: str,
        difficulty: str | None,
        variant: str | None,
    ) -> None:
        EVENT_SHARD.set(shard_of(interaction.guild_id, self.bot.shard_count))
        started = time.perf_counter()
        try:
            target = None if opponent is None else (opponent.id, opponent.bot)
            request = request_of(interaction)
            await self.table.start(
                request, InteractionDoor(interaction), target, play_as, difficulty, variant
            )
        finally:
            self.metrics.command_seconds.observe(time.perf_counter() - started)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: Interaction, command: Any) -> None:
        # discord.py sends this only after a command that did not fail: on an error, the
        # error handler still needs `interaction.response` as it is.
        release(interaction)

    async def on_component(self, interaction: Interaction, custom_id: str) -> None:
        """Every button this bot's boards carry (routed by its prefix: bot/ui.py): its
        custom_id carries the whole state of its message, so a click is handled the same way
        before and after a restart."""
        started = time.perf_counter()
        EVENT_SHARD.set(shard_of(interaction.guild_id, self.bot.shard_count))
        try:
            request = request_of(interaction, custom_id)
            await self.table.click(request, InteractionDoor(interaction), custom_id)
        finally:
            self.metrics.click_seconds.observe(time.perf_counter() - started)
