"""Finished games for the records tests, built the way the bot builds them: a Game played out
from a move list, announced as a FinishedGame, turned into a GameRecord."""

from __future__ import annotations

import random
from pathlib import Path

from bot.app import TicTacToeBot
from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Ending, Game
from bot.records.api import GameRecord
from bot.records.sql.storage import Storage
from bot.records.writer import DEFAULT_LINGER_SECONDS, RecordWriter
from bot.settings import Settings

GUILD = 900_000_000_000_000_001
OTHER_GUILD = 900_000_000_000_000_002
ALICE, BOB, CAROL = 100_000_000_000_000_001, 100_000_000_000_000_002, 100_000_000_000_000_003

X_WINS = (0, 3, 1, 4, 2)  # X: the top row
O_WINS = (3, 0, 4, 1, 8, 2)  # O: the top row
DRAW = (0, 1, 2, 4, 3, 5, 7, 6, 8)
T0 = 1_800_000_000.0


def game_id(n: int) -> int:
    """A snowflake-like id: n milliseconds after some moment, so ids grow with time."""
    return (1_000_000_000 + n) << 22


def record(
    n: int,
    x: int,
    o: int,
    moves: tuple[int, ...],
    *,
    level: str | None = None,
    ending: Ending | None = None,
    guild: int | None = GUILD,
) -> GameRecord:
    """Game number `n` (its id and end time follow from n)."""
    if AI in (x, o) and level is None:
        level = "impossible"
    game = Game.from_moves(x, o, level, moves, ending)
    place = Place.SERVER if guild is not None else Place.DM
    finished = FinishedGame(game_id(n), game, T0 + n, guild, place, user_installed=False)
    return GameRecord.from_finished(finished)


async def recording_bot(
    storage: Storage,
    spool: Path | None,
    *,
    seed: int = 0,
    turn_timeout: int = 600,
    linger: float = DEFAULT_LINGER_SECONDS,
) -> TicTacToeBot:
    """The bot recording into `storage` through the real writer (started) and its spool."""
    settings = Settings(token="not-a-real-token", turn_timeout_seconds=turn_timeout, shard_count=1)
    writer = RecordWriter(storage, spool, first_retry=0.01, last_retry=0.01, linger=linger)
    await writer.start()
    return TicTacToeBot(settings, rng=random.Random(seed), records=storage, writer=writer)
