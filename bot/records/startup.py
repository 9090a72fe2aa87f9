"""Opening the records at start-up: the database, and the writer that fills it.

A database that does not answer at start-up does not stop the bot: it starts anyway, the writer
spools finished games, and the schema is migrated on the first query that gets through. What
retrying cannot fix (a database newer than this code, a data directory the bot cannot use,
another process holding the spool) stops it with one line naming what to fix.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from ..settings import Settings
from .spool import SpoolInUseError
from .storage import RecordsError, Storage, safe_url
from .writer import RecordWriter

log = logging.getLogger(__name__)

# How long start-up waits for the database before going on without it.
CONNECT_SECONDS = 5.0


class RecordsStartError(Exception):
    """The records cannot be used as configured; str() is one line saying what to fix."""


async def start_records(
    url: str, spool_path: Path | None, *, connect_seconds: float = CONNECT_SECONDS
) -> tuple[Storage, RecordWriter]:
    """Open and migrate the database at `url` (or, if it does not answer, go on and migrate
    later), then start the writer with its spool (replaying what the last run left there)."""
    try:
        storage = Storage(url)  # no I/O but the SQLite file's directory
    except OSError as error:
        raise RecordsStartError(f"cannot use the records database: {error}") from None
    try:
        await asyncio.wait_for(storage.migrate(), connect_seconds)
    except RecordsError as error:  # e.g. DatabaseAheadError
        await storage.close()
        raise RecordsStartError(str(error)) from None
    except Exception as error:  # down, refused, timed out: the driver's own errors
        # Storage migrates before its first query that gets through.
        log.warning(
            "The records database %s does not answer (%s): games are kept until it does",
            safe_url(url),
            type(error).__name__,
        )
    writer = RecordWriter(storage, spool_path)
    try:
        await writer.start()
    except SpoolInUseError as error:
        await storage.close()
        raise RecordsStartError(str(error)) from None
    except OSError as error:
        await storage.close()
        raise RecordsStartError(f"cannot use the spool {spool_path}: {error}") from None
    return storage, writer


async def start_records_for(settings: Settings) -> tuple[Storage, RecordWriter]:
    return await start_records(settings.records_url, settings.spool_path)
