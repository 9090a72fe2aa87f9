"""The write statements: built once per dialect, and run with many rows at a time.

Every statement is built once (per dialect where the INSERT's ON CONFLICT is the dialect's own)
and run with the rows as parameters: SQLAlchemy then finds it compiled in its cache, where a
multi-row `.values([...])` is a new statement to build and compile on every batch (two thirds
of a game's SQL work, docs/performance.md). On SQLite the many-row statements go further: each
is compiled once, and its rows go to sqlite3 as a few multi-row INSERTs of positional values
(one step of SQLite's, one hand-over of the GIL, for up to 64 rows; an UPDATE is an INSERT ...
ON CONFLICT DO UPDATE), skipping SQLAlchemy's per-row parameter processing (none of these
columns has a bind processor on SQLite: integers, floats, strings, booleans, which sqlite3
stores alike), on the transaction's own sqlite3 connection. Lookups by a list of ids take the
list as one parameter on SQLite (see `look_up`).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
from sqlalchemy import (
    Connection,
    Insert,
    Select,
    Table,
    Update,
    and_,
    bindparam,
    func,
    select,
    update,
)

from bot.records.sql.database import run_on_sqlite
from bot.records.sql.schema import board_sizes, bot_tallies, games, memberships, players

_CHUNK = 500  # ids per SELECT ... IN elsewhere than SQLite (well under the driver's cap)
_TALLY_COLUMNS = ("wins", "draws", "losses")
_SIZE_COLUMNS = ("rated", "vs_bot")

_T = TypeVar("_T")


# The lookups every dialect shares; each takes its list of ids as the parameter "ids".
def _lock_players(ids: Any) -> Select[Any]:
    return (
        select(players)
        .where(players.c.user_id.in_(ids))
        .order_by(players.c.user_id)
        .with_for_update()
    )


def _memberships_of_ids(ids: Any) -> Select[Any]:
    return select(memberships.c.guild_id, memberships.c.user_id).where(
        memberships.c.user_id.in_(ids)
    )


def _games_there(ids: Any) -> Select[Any]:
    return select(games.c.game_id).where(games.c.game_id.in_(ids))


@dataclass(frozen=True)
class Lookups:
    """A dialect's statements that take a list of ids."""

    lock_players: Select[Any]
    memberships_of: Select[Any]
    games_there: Select[Any]


@functools.cache
def lookups(dialect_name: str) -> Lookups:
    if dialect_name == "sqlite":
        # The list as one JSON array, read by json_each: one statement, compiled once, for any
        # number of ids (an expanding IN is rendered again for every new length).
        ids: Any = select(func.json_each(bindparam("ids")).table_valued("value").c.value)
    else:
        ids = bindparam("ids", expanding=True)
    return Lookups(_lock_players(ids), _memberships_of_ids(ids), _games_there(ids))


def look_up(connection: Connection, statement: Select[Any], ids: Sequence[int]) -> list[Any]:
    """The rows of a lookup (one of `lookups`) for these ids: on SQLite one statement, run
    by sqlite3 itself (see `run_on_sqlite`) with the ids as one JSON array; elsewhere in
    chunks, each fetched at once (iterating a result fetches its rows one at a time)."""
    if connection.dialect.name == "sqlite":
        return run_on_sqlite(connection, _sqlite_lookup(statement), (orjson.dumps(ids).decode(),))
    return [row for chunk in _chunks(ids) for row in connection.execute(statement, {"ids": chunk})]


@functools.cache
def _sqlite_lookup(statement: Select[Any]) -> str:
    from sqlalchemy.dialects import sqlite

    return str(statement.compile(dialect=sqlite.dialect()))


@dataclass(frozen=True)
class Inserts:
    """A dialect's INSERT ... ON CONFLICT statements."""

    games: Insert  # RETURNING the ids it inserted (not on SQLite)
    players: Insert
    memberships: Insert
    bot_tallies: Insert  # adds to the tallies there
    board_sizes: Insert  # adds to the sizes there


@functools.cache
def inserts(dialect_name: str) -> Inserts:
    dialect = dialect_of(dialect_name)
    tallies = dialect.insert(bot_tallies)
    sizes = dialect.insert(board_sizes)
    new_games = dialect.insert(games).on_conflict_do_nothing(index_elements=[games.c.game_id])
    if dialect_name != "sqlite":
        # The ids of the games it inserted: the others were recorded already. (On SQLite,
        # RETURNING makes sqlite3 step once a row: see writing.record.)
        new_games = new_games.returning(games.c.game_id)
    new_members = dialect.insert(memberships).on_conflict_do_nothing(
        index_elements=[memberships.c.guild_id, memberships.c.user_id]
    )
    return Inserts(
        games=new_games,
        players=dialect.insert(players).on_conflict_do_nothing(index_elements=[players.c.user_id]),
        memberships=new_members,
        bot_tallies=tallies.on_conflict_do_update(
            index_elements=[bot_tallies.c.user_id, bot_tallies.c.level],
            set_={name: bot_tallies.c[name] + tallies.excluded[name] for name in _TALLY_COLUMNS},
        ),
        board_sizes=sizes.on_conflict_do_update(
            index_elements=[board_sizes.c.guild_id],
            set_={name: board_sizes.c[name] + sizes.excluded[name] for name in _SIZE_COLUMNS},
        ),
    )


def dialect_of(name: str) -> Any:
    """The dialect's module, for its INSERT ... ON CONFLICT (imported for the database in use:
    a SQLite bot never loads PostgreSQL's)."""
    if name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql
    from sqlalchemy.dialects import sqlite

    return sqlite


def _chunks(items: Sequence[_T], size: int = _CHUNK) -> Iterator[Sequence[_T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def insert_many(
    connection: Connection,
    statement: Insert,
    keys: tuple[str, ...],
    rows: Sequence[Sequence[Any]],
) -> Sequence[Any]:
    """`statement` once for each of `rows`: the values of the columns `keys` (in the table's
    order), in that order; the rows it returns (RETURNING). On SQLite as a few multi-row
    statements (see `_MAX_ROWS`), compiled once, run by sqlite3 itself (see
    `run_on_sqlite`)."""
    if not rows:
        return []
    if connection.dialect.name != "sqlite":
        result = connection.execute(statement, [dict(zip(keys, row, strict=True)) for row in rows])
        return result.all() if result.returns_rows else []
    rows_sql = _sqlite_sql(statement, keys)
    most = _max_rows(len(keys))
    returned: list[Any] = []
    start = 0
    while start < len(rows):
        # Powers of two: a handful of statement texts, each prepared once by sqlite3's cache.
        size = min(1 << (len(rows) - start).bit_length() - 1, most)
        values = tuple(itertools.chain.from_iterable(rows[start : start + size]))
        returned += run_on_sqlite(connection, rows_sql(size), values)
        start += size
    return returned


def set_columns(
    connection: Connection,
    table: Table,
    keys: tuple[str, ...],
    columns: tuple[str, ...],
    rows: Sequence[Sequence[Any]],
) -> None:
    """Set `columns` of the `table` rows whose primary key is `keys`: each of `rows` is the
    values of `keys` and then of `columns` (both in the table's order). On SQLite a row that
    is not there yet goes in (its other columns take their defaults); elsewhere every row
    must be there."""
    if not rows or not columns:
        return
    if connection.dialect.name == "sqlite":
        insert_many(connection, _upsert(table, keys, columns), (*keys, *columns), rows)
        return
    # SQLAlchemy binds parameters named after the columns it sets itself: other names here.
    names = [f"b_{name}" for name in (*keys, *columns)]
    connection.execute(
        _update(table, keys, columns), [dict(zip(names, row, strict=True)) for row in rows]
    )


def values_of(names: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """What takes the values of `names` from a row (a dict keyed by column name), as a tuple."""
    if len(names) == 1:  # itemgetter of one name gives the value itself, not a tuple
        (name,) = names
        return lambda row: (row[name],)
    return operator.itemgetter(*names)


# SQLite's variables per statement before 3.32 (32,766 since): the cap a statement's rows keep to.
_SQLITE_VARIABLES = 999
# Rows per statement at most: a multi-row INSERT is one step of SQLite's for all its rows, where
# executemany steps (and lets go of the GIL) once a row; the largest text, prepared once, is
# about 100 KB of sqlite3's statement cache.
_MAX_ROWS = 64


def _max_rows(columns: int) -> int:
    """The most rows of `columns` values one statement takes: a power of two."""
    fits = max(_SQLITE_VARIABLES // columns, 1)
    return min(1 << fits.bit_length() - 1, _MAX_ROWS)


@functools.cache
def _sqlite_sql(statement: Insert, keys: tuple[str, ...]) -> Callable[[int], str]:
    """The statement's SQL for a number of rows of `keys` (positional parameters)."""
    from sqlalchemy.dialects import sqlite

    compiled = statement.compile(dialect=sqlite.dialect(), column_keys=keys)
    if tuple(compiled.positiontup or ()) != keys:
        raise ValueError(f"{keys} are not the parameters of {compiled}, in their order")
    # Each column a parameter of its own (none of these INSERTs sets one by an expression).
    one_row = f"({', '.join('?' * len(keys))})"
    head, tail = str(compiled).split(f" VALUES {one_row}")

    @functools.cache
    def rows_sql(count: int) -> str:
        return f"{head} VALUES {', '.join([one_row] * count)}{tail}"

    return rows_sql


@functools.cache
def _upsert(table: Table, keys: tuple[str, ...], columns: tuple[str, ...]) -> Insert:
    from sqlalchemy.dialects import sqlite

    insert = sqlite.insert(table)
    return insert.on_conflict_do_update(
        index_elements=[table.c[key] for key in keys],
        set_={name: insert.excluded[name] for name in columns},
    )


@functools.cache
def _update(table: Table, keys: tuple[str, ...], columns: tuple[str, ...]) -> Update:
    condition = and_(*(table.c[key] == bindparam(f"b_{key}") for key in keys))
    return update(table).where(condition).values({name: bindparam(f"b_{name}") for name in columns})
