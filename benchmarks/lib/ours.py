"""The bot's pieces the benchmarks build on. Imported here and nowhere else in benchmarks/, so
that when a module of bot/ moves, this is the one file to update."""

from __future__ import annotations

from bot.client import TicTacToeBot
from bot.domain.finished import FinishedGame, Place
from bot.domain.game import AI, Game
from bot.records.counting import MEMBER_COLUMNS, count_game
from bot.records.model import GameRecord
from bot.records.schema import (
    EVERYONE,
    board_sizes,
    bot_tallies,
    game_row,
    games,
    memberships,
    players,
)
from bot.records.storage import Storage, open_records
from bot.records.writer import RecordWriter
from bot.settings import Settings
from bot.shards import shard_of

__all__ = [
    "AI",
    "EVERYONE",
    "MEMBER_COLUMNS",
    "FinishedGame",
    "Game",
    "GameRecord",
    "Place",
    "RecordWriter",
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
]
