"""What the game announces when a game ends: one value, no I/O.

The game cog dispatches it as a discord.py custom event once the click's answer is on its way
(`bot.dispatch("game_finished", finished)`, listened to as `on_game_finished`); whatever wants
to remember games listens for it. The game itself never learns who listens.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.core.game import Game


class Place(StrEnum):
    """Where a game was played."""

    SERVER = "server"
    DM = "dm"  # a direct message with the bot
    GROUP_DM = "group_dm"  # a group DM, through a user install


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game that has just ended (on the board, by resigning, or by expiring).

    `game_id` is the id of the board's message: one message per game (a rematch posts a new
    one), known to every process that receives a click on it, so it identifies the game
    everywhere and for good. When the game started follows from it (a snowflake's time).
    """

    game_id: int
    game: Game  # is_over
    ended_at: float  # unix seconds
    guild_id: int | None  # the server, or None in a DM or group DM
    place: Place
    user_installed: bool  # reached through a user install rather than the server's
