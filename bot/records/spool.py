"""The writer's spool: games (and puzzle attempts) not yet in the database, as JSON lines in a
local file.

Every game is appended before the writer tries the database, as it is submitted (into the
kernel's cache: a killed process loses nothing appended), fsynced once games are to wait there
(the database failed, or memory is full), and after each write the file is emptied down to the
games not written yet (those that ended during the write); at
start-up, whatever it still holds is recorded again (harmless for games that did reach the
database: recording is idempotent), read back a bounded number at a time, as during an outage
(see the writer). A line cut short by a kill is skipped. The file is locked while a writer uses
it: two processes must not share one spool. Blocking I/O: the writer calls these methods in a
worker thread, except an append without fsync (`add`: one write() into the kernel's cache, a
few microseconds: the file is unbuffered and opened for appending, the lines made by orjson).
"""

from __future__ import annotations

import fcntl
import io
import logging
import os
from collections.abc import Callable, Iterable
from pathlib import Path

import orjson

from bot.records.api import GameRecord, PuzzleAttempt
from bot.records.sql.schema import game_record, puzzle_attempt_record

Item = GameRecord | PuzzleAttempt

log = logging.getLogger(__name__)


class SpoolInUseError(RuntimeError):
    """Another process holds the spool."""


class Spool:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: io.FileIO | None = None

    def open(self) -> int:
        """Lock the file (creating it and its directory); how many games and puzzle attempts it
        holds. They are read back with `read`, a bounded number at a time."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Unbuffered: an append is one write() (O_APPEND: at the end, whatever was read).
        file = io.FileIO(self.path, "a+")
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.close()
            raise SpoolInUseError(
                f"another bot process is using {self.path}: give each process its own DATA_DIR"
            ) from None
        self._file = file
        seen: set[tuple[bool, int]] = set()
        ends_in_newline = True
        for number, line in enumerate(self._reader(0), 1):
            ends_in_newline = line.endswith(b"\n")
            game = _parse(line, number, self.path)
            if game is not None:
                seen.add(
                    (True, game.attempt_id)
                    if isinstance(game, PuzzleAttempt)
                    else (False, game.game_id)
                )
        if not ends_in_newline:
            # Cut short by a kill: end it, so that the next batch starts on a line of its own.
            _write(file, b"\n")
        return len(seen)

    def read(self, offset: int, limit: int) -> tuple[list[Item], int]:
        """Up to `limit` games or puzzle attempts from byte `offset` on, and the offset after
        them (the end of the file once everything was read)."""
        reader = self._reader(offset)
        games: list[Item] = []
        while len(games) < limit:
            line = reader.readline()
            if not line:
                break
            game = _parse(line, None, self.path)
            if game is not None:
                games.append(game)
        return games, reader.tell()

    def end(self) -> int:
        """The file's length: the offset the next append starts at."""
        return os.fstat(self._require().fileno()).st_size

    def append(self, games: Iterable[Item], *, sync: bool = True) -> int:
        """Append (and fsync, with `sync`); the offset the first of these games starts at."""
        file = self._require()
        start = os.fstat(file.fileno()).st_size
        _write(file, _lines(games))
        if sync:
            os.fsync(file.fileno())
        return start

    def add(self, game: Item) -> None:
        """Append one game, without fsync (the writer's common case, on the event loop: as
        little work as one line takes)."""
        _write(self._require(), _line(game))

    def sync(self) -> None:
        """Make what was appended survive a power cut too (fsync)."""
        os.fsync(self._require().fileno())

    def clear(self, keep: Iterable[Item] = ()) -> None:
        """Empty the file, but for `keep` (fsynced, if any: they may have been waiting fsynced
        before). An empty file is not fsynced: should a power cut undo the truncation, the
        next start records its games again, which changes nothing."""
        file = self._require()
        file.truncate(0)
        lines = _lines(keep)
        if lines:
            _write(file, lines)
            os.fsync(file.fileno())

    def rewrite(
        self, keep: list[Item], backlog_from: int | None, change: Callable[[Item], Item]
    ) -> int | None:
        """`keep`, then the backlog from `backlog_from` on with `change` made to each (read
        whole: forgetting a player is rare, and rarely meets a long backlog); where the backlog
        now starts."""
        backlog: list[Item] = []
        if backlog_from is not None:
            backlog, _ = self.read(backlog_from, 2**62)
        self.clear()
        self.append(keep)
        return self.append([change(game) for game in backlog]) if backlog else None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()  # releases the lock
            self._file = None

    def _require(self) -> io.FileIO:
        if self._file is None:
            raise RuntimeError("the spool is not open")
        return self._file

    def _reader(self, offset: int) -> io.BufferedReader[io.FileIO]:
        """The file read from `offset` on, buffered (its own offset: appends ignore it)."""
        reader = io.BufferedReader(io.FileIO(self._require().fileno(), "r", closefd=False))
        reader.seek(offset)
        return reader


def _lines(items: Iterable[Item]) -> bytes:
    return b"".join(map(_line, items))


def _line(item: Item) -> bytes:
    """The item's fields as one JSON object (orjson reads the dataclass itself): the keys of its
    database row, with a game's moves a list rather than the row's string of digits (reading
    takes either: older spools hold strings). A puzzle attempt's has an attempt_id, no game_id."""
    return orjson.dumps(item, option=orjson.OPT_APPEND_NEWLINE)


def _write(file: io.FileIO, data: bytes) -> None:
    """All of `data`: a write() may take part of it (a disk about full, then raising, or a
    signal)."""
    view = memoryview(data)
    while view:
        view = view[file.write(view) or 0 :]


def _item(row: dict[str, object]) -> Item:
    return puzzle_attempt_record(row) if "attempt_id" in row else game_record(row)


def _parse(line: bytes, number: int | None, path: Path) -> Item | None:
    try:
        return _item(orjson.loads(line))
    except (ValueError, KeyError, TypeError):
        # The last line of a process killed while appending: that batch was never confirmed
        # to anyone, so there is nothing to recover from it. Said once, when the spool opens.
        if number is not None:
            log.warning("Skipping unreadable line %d of %s", number, path)
        return None
