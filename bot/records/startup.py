"""Opening the records at start-up: the database, and the writer that fills it.

A database that does not answer at start-up does not stop the bot: it starts anyway, the writer
spools finished games, and the schema is migrated on the first query that gets through. What
retrying cannot fix (a database newer than this code, a data directory the bot cannot use,
another process holding the spool) stops it with one line naming what to fix.
"""

from __future__ import annotations

from pathlib import Path

from bot.records.api import RecordsError
from bot.records.spool import SpoolInUseError
from bot.records.sql.storage import Storage, open_records
from bot.records.writer import RecordWriter


class RecordsStartError(Exception):
    """The records cannot be used as configured; str() is one line saying what to fix."""


async def start_records(url: str, spool_path: Path | None) -> tuple[Storage, RecordWriter]:
    """Open and migrate the database at `url` (or, if it does not answer, go on and migrate
    later), then start the writer with its spool (replaying what the last run left there)."""
    try:
        storage = await open_records(url, required=False, migrate_in_child=True)
    except RecordsError as error:  # e.g. DatabaseAheadError
        raise RecordsStartError(str(error)) from None
    except OSError as error:  # the SQLite file's directory cannot be made
        raise RecordsStartError(f"cannot use the records database: {error}") from None
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
