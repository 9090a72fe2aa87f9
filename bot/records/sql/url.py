"""Database URLs and errors as they may be shown: which URLs the records accept, checked without
connecting (settings use it too), and one-line descriptions that never hold a password."""

from __future__ import annotations

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}
EXAMPLES = (
    "sqlite+aiosqlite:///path/to/records.db or postgresql+asyncpg://user:password@host/database"
)


class UnsupportedDatabaseError(ValueError):
    """DATABASE_URL names a database or driver this bot does not use; str() is one line that
    starts with DATABASE_URL and never quotes the URL (it may hold a password)."""


def safe_url(url: str | URL) -> str:
    """The URL as it may be logged: with the password masked."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<not a URL>"


def parse_url(url: str | URL) -> URL:
    """The URL if it names SQLite as sqlite+aiosqlite (the bot opens the file with the standard
    library's sqlite3: the name stays what DATABASE_URL has always said) or PostgreSQL through
    asyncpg; otherwise UnsupportedDatabaseError saying what to write instead."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise UnsupportedDatabaseError(
            f"DATABASE_URL is not a database URL: write {EXAMPLES}"
        ) from None
    backend = parsed.get_backend_name()
    # postgres:// is what Heroku-style hosts hand out; SQLAlchemy knows it by its full name.
    wanted = DRIVERS.get("postgresql" if backend == "postgres" else backend)
    if wanted is None:
        raise UnsupportedDatabaseError(
            f"DATABASE_URL names the database {backend!r}; the bot stores games in SQLite or "
            f"PostgreSQL: write {EXAMPLES}"
        )
    if parsed.drivername != wanted:
        raise UnsupportedDatabaseError(
            f"DATABASE_URL uses the driver {parsed.drivername!r}; the bot needs an async one: "
            f"start it with {wanted}://"
        )
    if backend == "sqlite" and not parsed.database:
        raise UnsupportedDatabaseError(
            "DATABASE_URL names no SQLite file: write sqlite+aiosqlite:///path/to/records.db"
        )
    return parsed


def describe(error: BaseException) -> str:
    """One line about a database error: the driver's exception and its first line, without the
    SQL and parameters SQLAlchemy appends (drivers do not put passwords in their messages)."""
    cause: BaseException = getattr(error, "orig", None) or error
    while cause.__cause__ is not None:  # the driver's own exception, under SQLAlchemy's adapter
        cause = cause.__cause__
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0][:200]}" if lines else type(cause).__name__
