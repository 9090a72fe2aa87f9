"""/puzzle and its buttons: a position, the task in words, and the player's clicks.

A puzzle is the player's own: it is shown privately (ephemeral), like a puzzle on lichess, so
nobody else's clicks or eyes are in the way, and a channel can have any number at once. Every
button carries the whole attempt (bot/puzzles/ids.py): a click decodes it, checks the move with
the engine, rates a finished attempt in memory (bot/puzzles/memory.py) and answers by editing
the message; nothing on its path awaits the database. A finished attempt is announced
afterwards (`puzzle_finished`) for the records to store in the background.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.finished import snowflake_time
from bot.core.rating import START
from bot.puzzles import ids
from bot.puzzles.ids import CellClick, Mode, NextClick, Shown
from bot.puzzles.memory import PuzzleMemory, carried
from bot.puzzles.view import (
    RatingChange,
    render_invalid,
    render_over,
    render_puzzle,
    render_taken,
)
from bot.records.api import READ_TIMEOUT_SECONDS, PuzzleAttempt, PuzzlePlayer, Rating
from bot.ui import card_view, tell, update_message
from tictactoe import puzzles
from tictactoe.puzzles import Attempt, Status

if TYPE_CHECKING:
    from bot.app import TicTacToeBot
    from bot.ui import Interaction

log = logging.getLogger(__name__)

# Reads a player's stored puzzle rating, and whether they tried the day's puzzle (ISO date).
PlayerReader = Callable[[int, str], Awaitable[PuzzlePlayer]]


def utc_day(snowflake: int) -> dt.date:
    """The UTC date of a Discord id (an interaction's: when Discord received it)."""
    return dt.datetime.fromtimestamp(snowflake_time(snowflake), dt.UTC).date()


class PuzzleCog(commands.Cog, name="Puzzles"):
    def __init__(
        self,
        bot: TicTacToeBot,
        *,
        rng: random.Random,
        read_player: PlayerReader | None = None,
        read_puzzle_ratings: Callable[[], Awaitable[dict[str, Rating]]] | None = None,
        read_timeout: float = READ_TIMEOUT_SECONDS,
    ) -> None:
        self.bot = bot
        self.rng = rng
        self.read_player = read_player
        self.read_puzzle_ratings = read_puzzle_ratings
        self._loading: asyncio.Task[None] | None = None
        self.read_timeout = read_timeout
        self.memory = PuzzleMemory()

    async def cog_load(self) -> None:
        self.bot.routes.add((ids.PREFIX,), self.on_component)
        # Seconds of CPU once (benchmarks/puzzles.py): off the event loop, before any command
        # or click can need the set.
        await asyncio.to_thread(puzzles.puzzles)
        if self.read_puzzle_ratings is not None:
            self._loading = asyncio.create_task(self._load_puzzle_ratings(self.read_puzzle_ratings))

    async def cog_unload(self) -> None:
        self.bot.routes.remove((ids.PREFIX,))
        if self._loading is not None:
            self._loading.cancel()

    async def _load_puzzle_ratings(self, read: Callable[[], Awaitable[dict[str, Rating]]]) -> None:
        """The puzzles' stored ratings, in the background: until they come (or if the database
        does not answer), a puzzle is rated from its first rating."""
        try:
            self.memory.set_puzzle_ratings(await read())
        except Exception as error:
            # Info, not a warning: a database down at start-up is already reported once, by
            # the records; puzzles go on with their first ratings.
            log.info("Puzzles are rated from their first ratings: reading them failed: %r", error)

    # ------------------------------------------------------------------ /puzzle

    @app_commands.command(
        name="puzzle",
        description=locale_str("A tic-tac-toe puzzle: find the perfect player's move"),
    )
    @app_commands.describe(daily=locale_str("Today's puzzle, the same for everyone"))
    async def puzzle(self, interaction: Interaction, daily: bool = False) -> None:
        user_id = interaction.user.id
        day = utc_day(interaction.id).isoformat()
        rating, tried = await self._player(user_id, day if daily else None)
        if daily:
            attempt = puzzles.daily(dt.date.fromisoformat(day))
            mode = Mode.UNRATED if tried else Mode.DAILY
        else:
            attempt = self._pick(rating)
            mode = Mode.RATED
        shown = _shown(interaction.id, mode, rating, str(interaction.locale))
        await interaction.response.send_message(
            view=card_view(render_puzzle(attempt, shown)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _player(self, user_id: int, day: str | None) -> tuple[Rating, bool]:
        """The player's puzzle rating, and (for the day's puzzle) whether they tried it: from
        memory, or read from the records within the timeout (a new player's otherwise)."""
        rating = self.memory.player(user_id)
        tried = day is not None and self.memory.tried_daily(user_id, day)
        if self.read_player is None or (rating is not None and (day is None or tried)):
            return rating or START, tried
        try:
            stored = await asyncio.wait_for(self.read_player(user_id, day or ""), self.read_timeout)
        except Exception as error:  # the database is down or slow: play on, unrated
            log.warning("Could not read a puzzle rating: %r", error)
            return rating or START, tried
        if rating is None and stored.rating is not None:
            rating = stored.rating
            self.memory.remember(user_id, rating)
        return rating or START, tried or stored.tried_daily

    def _pick(self, rating: Rating, exclude: tuple[str, ...] = ()) -> Attempt:
        return puzzles.start(puzzles.pick(rating.value, self.rng, exclude), rng=self.rng)

    # ------------------------------------------------------------------ the buttons

    async def on_component(self, interaction: Interaction, custom_id: str) -> None:
        """The puzzles' buttons (routed by their prefix: bot/ui.py; a failure is answered by
        the bot: bot/errors.py)."""
        click = ids.parse(custom_id)
        if isinstance(click, NextClick):
            await self._next(interaction, click)
            return
        locale = str(interaction.locale)
        try:
            if click is None:
                raise ValueError("not a puzzle button")
            attempt = puzzles.decode(click.state)
        except ValueError as error:
            log.warning("Channel %s: rejected puzzle button: %s", interaction.channel_id, error)
            await tell(interaction, render_invalid(locale))
            return
        await self._move(interaction, click, attempt)

    async def _move(self, interaction: Interaction, click: CellClick, attempt: Attempt) -> None:
        shown = click.shown
        if attempt.status is not Status.PLAYING:
            await tell(interaction, render_over(shown.locale))
            return
        move = divmod(click.cell, 3)
        if attempt.board[move[0]][move[1]] is not None:
            await tell(interaction, render_taken(shown.locale))
            return
        step = puzzles.answer(attempt, move)
        after = step.attempt
        over = after.status is not Status.PLAYING
        first = over and self.memory.finish(shown.attempt_id)
        change = None
        if first and shown.mode is not Mode.UNRATED:
            change = self._rate(interaction.user.id, shown, after)
        if first and shown.mode is not Mode.RATED:
            self.memory.mark_daily(interaction.user.id, utc_day(shown.attempt_id).isoformat())
        await update_message(interaction, render_puzzle(after, shown, step=step, change=change))
        if first:
            self._announce(interaction, shown, after)

    def _rate(self, user_id: int, shown: Shown, attempt: Attempt) -> RatingChange:
        before, after, puzzle = self.memory.settle(
            user_id, carried(shown.rating, shown.deviation), attempt.puzzle, attempt.solved
        )
        return RatingChange(round(before.value), round(after.value), round(puzzle.value))

    def _announce(self, interaction: Interaction, shown: Shown, attempt: Attempt) -> None:
        """Tell whoever listens (the records) that an attempt has ended: after the click's
        answer, once per attempt; no I/O."""
        daily = None if shown.mode is Mode.RATED else utc_day(shown.attempt_id).isoformat()
        finished = PuzzleAttempt(
            attempt_id=shown.attempt_id,
            user_id=interaction.user.id,
            puzzle_id=attempt.puzzle.id,
            puzzle_rating=attempt.puzzle.rating,
            solved=attempt.solved,
            state=puzzles.encode(attempt),
            daily=daily,
            rated=shown.mode is not Mode.UNRATED,
            ended_at=snowflake_time(interaction.id),
            guild_id=interaction.guild_id,
            locale=shown.locale,
        )
        self.bot.dispatch("puzzle_finished", finished)

    async def _next(self, interaction: Interaction, click: NextClick) -> None:
        rating = self.memory.player(interaction.user.id) or carried(click.rating, click.deviation)
        attempt = self._pick(rating, (click.last,))
        shown = _shown(interaction.id, Mode.RATED, rating, click.locale)
        await update_message(interaction, render_puzzle(attempt, shown))


def _shown(attempt_id: int, mode: Mode, rating: Rating, locale: str) -> Shown:
    return Shown(attempt_id, mode, round(rating.value), round(rating.deviation), locale)
