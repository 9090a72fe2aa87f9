"""The bot migrates its database in a child process, so that Alembic never loads into it."""

import sqlite3

from alembic.script import ScriptDirectory

from bot.records.sql.migrate import alembic_config
from tests.support.probe import run_python

HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()

PROBE = """
import asyncio, sys
from pathlib import Path
from bot.records.startup import start_records

async def main(scratch):
    url = f"sqlite+aiosqlite:///{scratch}/records.db"
    storage, writer = await start_records(url, Path(scratch) / "spool")
    await writer.close()
    await storage.close()

asyncio.run(main(sys.argv[1]))
print("alembic loaded" if "alembic" in sys.modules else "no alembic")
"""


def test_start_up_migrates_in_a_child_and_never_loads_alembic(tmp_path):
    result = run_python(PROBE, str(tmp_path))
    assert result.stdout.split("\n")[-2] == "no alembic", result.stderr
    with sqlite3.connect(tmp_path / "records.db") as database:
        (version,) = database.execute("SELECT version_num FROM alembic_version").fetchone()
        tables = {name for (name,) in database.execute("SELECT name FROM sqlite_master")}
    assert version == HEAD
    assert {"games", "players", "bot_tallies", "memberships", "board_sizes"} <= tables


SQLITE_PROBE = """
import asyncio, sys
from pathlib import Path
from bot.records.startup import start_records
from tests.support.records import ALICE, BOB, X_WINS, record

async def main(scratch):
    url = f"sqlite+aiosqlite:///{scratch}/records.db"
    storage, writer = await start_records(url, Path(scratch) / "spool")
    writer.submit(record(1, ALICE, BOB, X_WINS))
    assert await writer.flush(30)
    assert (await storage.stats(ALICE, None)).vs_people.wins == 1
    await writer.close()
    await storage.close()

asyncio.run(main(sys.argv[1]))
postgresql_only = ("sqlalchemy.ext.asyncio", "greenlet", "asyncpg", "aiosqlite",
                   "sqlalchemy.dialects.postgresql")
print(sorted(name for name in postgresql_only if name in sys.modules))
"""


def test_a_sqlite_bot_loads_nothing_of_postgresql_or_the_async_engine(tmp_path):
    """SQLite runs on the standard library's sqlite3 in a worker thread: the async engine,
    greenlet, asyncpg and PostgreSQL's dialect (about 9 MB) stay out of a SQLite bot."""
    result = run_python(SQLITE_PROBE, str(tmp_path))
    assert result.stdout.split("\n")[-2] == "[]", result.stderr
