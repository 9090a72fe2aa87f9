"""The writer's spool: games not yet in the database, as JSON lines in a local file.

Every batch is appended and fsynced before the writer tries the database, and the file is
emptied once everything in it is written; at start-up, whatever it still holds is recorded
again (harmless for games that did reach the database: recording is idempotent). A line cut
short by a kill is skipped. The file is locked while a writer uses it: two processes must not
share one spool. Blocking I/O: the writer calls these methods in a worker thread.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from bot.records.api import GameRecord, PuzzleAttempt
from bot.records.sql.schema import game_record, game_row, puzzle_attempt_record, puzzle_attempt_row

Item = GameRecord | PuzzleAttempt

log = logging.getLogger(__name__)


class SpoolInUseError(RuntimeError):
    """Another process holds the spool."""


class Spool:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def open(self) -> list[Item]:
        """Lock the file (creating it and its directory) and return the games (and puzzle
        attempts) it holds."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        file = self.path.open("a+", encoding="utf-8")
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.close()
            raise SpoolInUseError(
                f"another bot process is using {self.path}: give each process its own DATA_DIR"
            ) from None
        self._file = file
        file.seek(0)
        games: dict[tuple[bool, int], Item] = {}
        for number, line in enumerate(file, 1):
            try:
                game = _item(json.loads(line))
            except (ValueError, KeyError, TypeError):
                # The last line of a process killed while appending: that batch was never
                # confirmed to anyone, so there is nothing to recover from it.
                log.warning("Skipping unreadable line %d of %s", number, self.path)
                continue
            key = (
                (True, game.attempt_id)
                if isinstance(game, PuzzleAttempt)
                else (False, game.game_id)
            )
            games[key] = game
        return list(games.values())

    def append(self, games: Iterable[Item]) -> None:
        file = self._require()
        file.seek(0, os.SEEK_END)
        # A line is the game's database row: the same fields, all of them JSON values.
        # A puzzle attempt's line is its row, which has an attempt_id and no game_id.
        lines = (json.dumps(_row(game), separators=(",", ":")) + "\n" for game in games)
        file.write("".join(lines))
        file.flush()
        os.fsync(file.fileno())

    def clear(self) -> None:
        file = self._require()
        file.truncate(0)
        file.flush()
        os.fsync(file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()  # releases the lock
            self._file = None

    def _require(self) -> IO[str]:
        if self._file is None:
            raise RuntimeError("the spool is not open")
        return self._file


def _row(item: Item) -> dict[str, object]:
    return puzzle_attempt_row(item) if isinstance(item, PuzzleAttempt) else game_row(item)


def _item(row: dict[str, object]) -> Item:
    return puzzle_attempt_record(row) if "attempt_id" in row else game_record(row)
