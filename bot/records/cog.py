"""Records: remembers finished games, and answers /stats, /leaderboard and /forget-me.

The game cog announces each finished game (`on_game_finished`); this cog hands it to the
writer, which stores it in the background: nothing here runs on a click's path, and a database
that is down, slow or full never stops a game. The commands read the database, each within
READ_TIMEOUT_SECONDS so that Discord's 3-second limit on an answer always holds: past it, or on
a database error, the user gets one private sentence and the log one line.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Literal, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.finished import FinishedGame
from bot.records import buttons
from bot.records import view as records_render
from bot.records.api import (
    CLASSIC,
    READ_TIMEOUT_SECONDS,
    GameRecord,
    GameWriter,
    PuzzleAttempt,
    Records,
    RecordsError,
)
from bot.records.view import KIND_OF_TABLE, PER_PAGE, PUZZLES, RATING_TABLES, VS_BOT
from bot.ui import VARIANT_CHOICES, Answered, apologise, card_view, tell, update_message
from bot.view.cards import Card
from bot.view.teaching import render_review
from bot.view.words import command_mention

if TYPE_CHECKING:
    from bot.app import TicTacToeBot
    from bot.ui import Interaction

log = logging.getLogger(__name__)

# What a failed read or delete raises here: the records' one error type, or this cog's timeout.
DATABASE_ERRORS = (RecordsError, TimeoutError)

# How long deleting a player's data waits for the games still queued to be written first.
FORGET_FLUSH_SECONDS = 10.0
# How long a read waits for the games still lingering to be written first (see `_read`): out
# of the read's own time.
READ_FLUSH_SECONDS = 0.5

T = TypeVar("T")
# A line another capability adds to /stats: (player, server or None, locale) -> text or None.
StatsLine = Callable[[int, int | None, str], Awaitable[str | None]]


class Unavailable(Answered):
    """A database read failed or took too long; the user has been told, and the log once.
    A button's handling lets it go (the bot passes it quietly: bot/errors.py); a command ends
    on it, so that discord.py's command tree sees no failure in a normal path."""


class RecordsCog(commands.Cog, name="Records"):
    def __init__(
        self,
        bot: TicTacToeBot,
        records: Records,
        writer: GameWriter,
        *,
        read_timeout: float = READ_TIMEOUT_SECONDS,
        stats_line: StatsLine | None = None,
    ) -> None:
        self.bot = bot
        self.records = records
        self.writer = writer
        self.read_timeout = read_timeout
        # Another capability's line under /stats (the tournaments'), given by the app.
        self.stats_line = stats_line
        self._reads_failing = False

    # ------------------------------------------------------------------ recording

    @commands.Cog.listener()
    async def on_game_finished(self, finished: FinishedGame) -> None:
        # Queued only: the writer batches, retries and spools; submit does no I/O.
        self.writer.submit(GameRecord.from_finished(finished))

    @commands.Cog.listener()
    async def on_puzzle_finished(self, attempt: PuzzleAttempt) -> None:
        self.writer.submit(attempt)

    # ------------------------------------------------------------------ /stats

    @app_commands.command(
        name="stats", description=locale_str("Tic-tac-toe results, streaks, rating and games")
    )
    @app_commands.describe(
        player=locale_str("Whose stats (yours if left empty)"),
        public=locale_str("Show the answer to everyone here (only you see it otherwise)"),
    )
    async def stats(
        self, interaction: Interaction, player: discord.User | None = None, public: bool = False
    ) -> None:
        locale = str(interaction.locale)
        target = player or interaction.user
        if target.bot:
            await tell(interaction, records_render.render_no_bot_stats(locale))
            return
        try:
            found = await self._read(
                interaction, self.records.stats(target.id, interaction.guild_id)
            )
        except Unavailable:
            return  # answered, and logged once
        card = records_render.render_stats(
            found,
            locale,
            in_server=interaction.guild_id is not None,
            with_games=target.id == interaction.user.id,
        )
        extra = await self._extra_line(target.id, interaction.guild_id, locale)
        if extra:
            card = card._replace(body=f"{card.body}\n{extra}")
        await interaction.response.send_message(
            view=card_view(card),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _extra_line(self, user_id: int, guild_id: int | None, locale: str) -> str | None:
        """The other capability's line, or None when there is none or it cannot be read in
        time (the stats are shown without it)."""
        if self.stats_line is None:
            return None
        try:
            return await asyncio.wait_for(
                self.stats_line(user_id, guild_id, locale), self.read_timeout / 2
            )
        except DATABASE_ERRORS:
            log.warning("No tournament line for /stats of %s", user_id)
            return None

    # ------------------------------------------------------------------ /leaderboard

    @app_commands.command(
        name="leaderboard", description=locale_str("The best tic-tac-toe players here")
    )
    @app_commands.describe(
        public=locale_str("Show the answer to everyone here (only you see it otherwise)"),
        variant=locale_str("Which game's ratings: Classic (if left out) or Ultimate"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        public: bool = False,
        variant: Literal["classic", "ultimate"] = "classic",
    ) -> None:
        try:
            card = await self._board(interaction, RATING_TABLES[variant], 0)
        except Unavailable:
            return  # answered, and logged once
        await interaction.response.send_message(
            view=card_view(card),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _board(self, interaction: Interaction, table: str, page: int) -> Card:
        """A page of a leaderboard: this server's, or everyone's outside a server."""
        guild_id, locale = interaction.guild_id, str(interaction.locale)
        in_server = guild_id is not None
        if table == VS_BOT:
            bots = await self._read(interaction, self.records.bot_board(guild_id, page, PER_PAGE))
            return records_render.render_bot_board(bots, locale, in_server=in_server)
        if table == PUZZLES:
            solvers = await self._read(
                interaction, self.records.puzzle_board(guild_id, page, PER_PAGE)
            )
            return records_render.render_puzzle_board(solvers, locale, in_server=in_server)
        kind = KIND_OF_TABLE.get(table, CLASSIC)
        ratings = await self._read(
            interaction, self.records.rating_board(guild_id, page, PER_PAGE, kind)
        )
        command = command_mention(self.bot.command_ids.get("tictactoe"))
        return records_render.render_rating_board(
            ratings, locale, in_server=in_server, command=command, kind=kind
        )

    # ------------------------------------------------------------------ /forget-me

    @app_commands.command(
        name="forget-me", description=locale_str("Delete everything recorded about you")
    )
    async def forget_me(self, interaction: Interaction) -> None:
        question = records_render.render_forget_question(
            interaction.user.id, str(interaction.locale)
        )
        await tell(interaction, question)

    async def _forget(self, interaction: Interaction, user_id: int) -> None:
        """The confirmation: the click is acknowledged at once, then the question is replaced
        by the outcome (the writer first writes the games still waiting, which may take a
        while with the database slow; the interaction's token lasts 15 minutes)."""
        locale = str(interaction.locale)
        if user_id != interaction.user.id:  # the question is private: only a forged click
            await tell(interaction, records_render.render_kept(locale))
            return
        await interaction.response.defer()
        try:
            games = await self.writer.forget(user_id, FORGET_FLUSH_SECONDS)
        except DATABASE_ERRORS as error:
            log.warning("Could not delete a player's records: %r", error)
            reply = records_render.render_unavailable(locale)
        else:
            log.info("Deleted the records of a player on request (%d games)", games)
            reply = records_render.render_forgotten(games, locale)
            self.bot.dispatch("player_forgotten", user_id)  # other capabilities forget too
        await interaction.edit_original_response(content=reply.text, view=None)

    # ------------------------------------------------------------------ buttons

    async def cog_load(self) -> None:
        self.bot.routes.add((buttons.PREFIX,), self.on_component)

    async def cog_unload(self) -> None:
        self.bot.routes.remove((buttons.PREFIX,))

    async def on_component(self, interaction: Interaction, custom_id: str) -> None:
        """The records' buttons, routed by custom_id like the game's (see bot/ui.py): the cards
        are sent as plain JSON, so nothing of discord.py's views is built on a click. A
        failure is answered by the bot (bot/errors.py)."""
        click = buttons.parse(custom_id)
        if click is None:  # forged, or another version's: answered rather than left to time out
            log.warning("Rejected records button %r", custom_id)
            await apologise(interaction)
            return
        locale = str(interaction.locale)
        if click.verb == buttons.REVIEW:
            await self._review(interaction, int(click.args[0]))
        elif click.verb == buttons.PAGE:
            table, page = click.args[0], int(click.args[1])
            await update_message(interaction, await self._board(interaction, table, page))
        elif click.verb == buttons.FORGET:
            await self._forget(interaction, int(click.args[0]))
        else:
            reply = records_render.render_kept(locale)
            await interaction.response.edit_message(content=reply.text, view=None)

    async def _review(self, interaction: Interaction, game_id: int) -> None:
        locale = str(interaction.locale)
        record = await self._read(interaction, self.records.game(game_id))
        if record is None:  # its players deleted their data
            await tell(interaction, records_render.render_game_gone(locale))
            return
        if interaction.user.id not in (record.x_player, record.o_player):
            await tell(interaction, records_render.render_not_your_game(locale))
            return
        if record.kind != CLASSIC:  # no such button is shown: an old or forged one
            await tell(interaction, records_render.render_no_review(locale))
            return
        assert self.bot.user is not None
        game = record.to_game()
        await tell(interaction, render_review(game, locale, self.bot.user.id))

    # ------------------------------------------------------------------ the database

    async def _read(self, interaction: Interaction, read: Awaitable[T]) -> T:
        """The answer of a database read, made once the games still waiting to be written are
        in; on a timeout or a database error, Unavailable, once the user was told privately
        that stats are unavailable (logged once until reads work again)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        if self.writer.pending and self.writer.failing is None:
            # Games that ended a moment ago linger to share a transaction: written now, so that
            # what the user sees includes them. (While writing fails, or once it fails now,
            # the read goes ahead.)
            await self.writer.flush(min(READ_FLUSH_SECONDS, self.read_timeout / 2), retry=False)
        try:
            result = await asyncio.wait_for(read, self.read_timeout - (loop.time() - started))
        except DATABASE_ERRORS as error:
            if not self._reads_failing:
                self._reads_failing = True
                log.warning("Stats are unavailable: the database read failed: %r", error)
            await tell(interaction, records_render.render_unavailable(str(interaction.locale)))
            raise Unavailable from error
        if self._reads_failing:
            self._reads_failing = False
            log.info("Stats are available again")
        return result
