"""Benchmark: what each package the bot imports adds to a process's RSS, and what each step of
its start-up adds, measured in fresh interpreters.

    python benchmarks/import_memory.py

A benchmark, not a test: it prints figures and exits 0.

  * Per package: RSS after `import discord` (what any discord.py bot pays), then after
    importing the package on top; the difference. Each in its own interpreter, median of 3.
  * The start-up's steps, in one interpreter each time (median of 3): the interpreter alone,
    discord.py imported, everything `python -m bot` imports (bot.__main__), the records opened
    and migrated (SQLite in a temporary directory: SQLAlchemy's engine, Alembic's run), every
    locale's catalog read as the command sync reads them (one at a time) then packed, and one
    locale's catalog in use. What a process holds once logged in and playing is
    in benchmarks/real_process.py (RSS after the warm-up).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.lib.measure import machine, median

REPO = Path(__file__).resolve().parent.parent
PACKAGES = (
    "sqlalchemy",
    "sqlalchemy.ext.asyncio",
    "alembic.command",
    "alembic.runtime.migration",
    "asyncpg",
    "prometheus_client",
    "babel.core",
    "babel.lists",
    "babel.messages.pofile",
    "dotenv",
    "orjson",
    "zstandard",
)

# Run in a fresh interpreter: prints {step: RSS in bytes} as JSON. Reads /proc/self/statm.
PROBE = """
import json, os, sys
page = os.sysconf("SC_PAGE_SIZE")
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page
steps = {"interpreter": rss()}
import discord
steps["discord"] = rss()
for name in sys.argv[1:]:
    __import__(name)
    steps[name] = rss()
print(json.dumps(steps))
"""

START_UP = """
import asyncio, json, os, sys
page = os.sysconf("SC_PAGE_SIZE")
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page
steps = {"interpreter": rss()}
import discord
steps["+ discord.py"] = rss()
import bot.__main__
steps["+ everything python -m bot imports"] = rss()
from bot.records.startup import start_records
async def records():
    storage, writer = await start_records(f"sqlite+aiosqlite:///{sys.argv[1]}/r.db", None)
    await writer.close()
    await storage.close()
asyncio.run(records())
steps["+ records opened and migrated (SQLite)"] = rss()
from bot import i18n
for code in i18n.LOCALES:  # as the command sync does: each locale's catalog read, one at a time
    i18n.read_translations(code)
i18n.pack_catalogs()
steps["+ every locale's catalog read (the sync), packed"] = rss()
i18n.translations("de").gettext("Resign")
steps["+ one locale's catalog in use (de)"] = rss()
print(json.dumps(steps))
"""


# What `python -m bot` imports, in layers, each on top of the ones before (discord.py first);
# then, still on top, what it imports only when it needs them.
LAYERS = (
    ("discord.ext.commands", "discord.ext.commands"),
    ("sqlalchemy (Core)", "sqlalchemy"),
    ("sqlalchemy's sqlite dialect (+ sqlite3)", "sqlalchemy.dialects.sqlite,sqlite3"),
    ("dotenv", "dotenv"),
    ("the bot's own modules (bot.__main__)", "bot.__main__"),
    ("lists and numbers only (hints, /stats): babel", "babel.lists,babel.numbers"),
    ("METRICS_PORT only: aiohttp.web", "aiohttp.web"),
    ("METRICS_PORT only: prometheus_client", "prometheus_client"),
    (
        "PostgreSQL only: sqlalchemy.ext.asyncio (+ greenlet), its dialect",
        "sqlalchemy.ext.asyncio,sqlalchemy.dialects.postgresql",
    ),
    ("PostgreSQL only: asyncpg", "asyncpg"),
    (
        "migrating only (a child process): alembic",
        "alembic.command,alembic.config,alembic.runtime.migration,alembic.script",
    ),
)


def probe(script: str, *args: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        check=True,
    )
    return dict(json.loads(done.stdout.splitlines()[-1]))


def medians(samples: list[dict[str, int]]) -> dict[str, float]:
    return {key: median([sample[key] for sample in samples]) for key in samples[0]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    mb = 2**20
    print("RSS of imports and of the bot's start-up, fresh interpreters, medians")
    print(machine())
    print(f"\n  {'package, imported after discord.py':40} {'adds':>8}")
    for package in PACKAGES:
        steps = medians([probe(PROBE, package) for _ in range(args.repeat)])
        print(f"  {package:40} {(steps[package] - steps['discord']) / mb:6.1f}MB")
    print(f"\n  {'what python -m bot imports, in layers':46} {'RSS':>8} {'adds':>8}")
    names = [name for _, modules in LAYERS for name in modules.split(",")]
    steps = medians([probe(PROBE, *names) for _ in range(args.repeat)])
    previous = steps["discord"]
    print(f"  {'interpreter + discord.py':46} {previous / mb:6.1f}MB")
    for label, modules in LAYERS:
        rss = steps[modules.split(",")[-1]]
        print(f"  {label:46} {rss / mb:6.1f}MB {(rss - previous) / mb:6.1f}MB")
        previous = rss
    print(f"\n  {'start-up step':46} {'RSS':>8} {'adds':>8}")
    with tempfile.TemporaryDirectory() as folder:
        steps = medians([probe(START_UP, folder) for _ in range(args.repeat)])
    previous = 0.0
    for step, rss in steps.items():
        print(f"  {step:46} {rss / mb:6.1f}MB {(rss - previous) / mb:6.1f}MB")
        previous = rss
    return 0


if __name__ == "__main__":
    sys.exit(main())
