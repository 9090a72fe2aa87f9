"""The bot's pieces the benchmarks build on. Imported here and nowhere else in benchmarks/, so
that when a module of bot/ moves, this is the one file to update."""

from __future__ import annotations

from bot.app import TicTacToeBot
from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Game
from bot.core.server import Mark, ServerSettings
from bot.guilds.events import ServerSettingsEvents
from bot.ops.shards import shard_of
from bot.records.api import GameRecord
from bot.records.sql.counting import MEMBER_COLUMNS, count_game
from bot.records.sql.paging import MAX_BOARD_ROWS
from bot.records.sql.schema import (
    EVERYONE,
    board_sizes,
    bot_tallies,
    game_row,
    games,
    memberships,
    players,
    shows_on_bot_board,
)
from bot.records.sql.storage import Storage, open_records
from bot.records.writer import DEFAULT_LINGER_SECONDS, RecordWriter
from bot.settings import Settings

__all__ = [
    "AI",
    "DEFAULT_LINGER_SECONDS",
    "EVERYONE",
    "MAX_BOARD_ROWS",
    "MEMBER_COLUMNS",
    "FinishedGame",
    "Game",
    "GameRecord",
    "Mark",
    "Place",
    "RecordWriter",
    "ServerSettings",
    "ServerSettingsEvents",
    "Settings",
    "Storage",
    "TicTacToeBot",
    "board_sizes",
    "bot_tallies",
    "count_game",
    "game_row",
    "games",
    "memberships",
    "open_records",
    "players",
    "shard_of",
    "shows_on_bot_board",
]
