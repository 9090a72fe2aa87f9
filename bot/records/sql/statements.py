"""The write statements: built once per dialect, and run with many rows at a time.

Every statement is built once (per dialect where the INSERT's ON CONFLICT is the dialect's own)
and run with the rows as parameters: SQLAlchemy then finds it compiled in its cache, where a
multi-row `.values([...])` is a new statement to build and compile on every batch (two thirds
of a game's SQL work, docs/performance.md). On SQLite the many-row statements go further: each
is compiled once to SQL with named parameters and its rows (dicts) go straight to sqlite3's
executemany, skipping SQLAlchemy's per-row parameter processing (which was about 40% of a
transaction; none of these columns has a bind processor on SQLite: integers, floats, strings,
booleans, which sqlite3 stores alike). Lookups by a list of ids take the list as one parameter
(see `id_parameters`)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Insert, Select, Table, Update, bindparam, func, select, update

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


def id_parameters(connection: Connection, ids: Sequence[int]) -> Iterator[dict[str, Any]]:
    """The parameters that look `ids` up: one JSON array on SQLite, chunks elsewhere."""
    if connection.dialect.name == "sqlite":
        yield {"ids": orjson.dumps(ids).decode()}
        return
    for chunk in _chunks(ids):
        yield {"ids": chunk}


@dataclass(frozen=True)
class Inserts:
    """A dialect's INSERT ... ON CONFLICT statements."""

    games: Insert  # RETURNING the ids it inserted (not on SQLite: executemany returns no rows)
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
    new_members = dialect.insert(memberships).on_conflict_do_nothing(
        index_elements=[memberships.c.guild_id, memberships.c.user_id]
    )
    if dialect_name != "sqlite":
        new_games = new_games.returning(games.c.game_id)
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


def execute_many(
    connection: Connection, statement: Insert | Update, rows: list[dict[str, Any]]
) -> None:
    """`statement` once per row (all rows with the same keys): on SQLite as SQL compiled once,
    the rows handed to the driver as they are (still through the engine: its events see it)."""
    if not rows:
        return
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql(_sqlite_sql(statement, tuple(rows[0])), rows)
    else:
        connection.execute(statement, rows)


@functools.cache
def _sqlite_sql(statement: Insert | Update, keys: tuple[str, ...]) -> str:
    from sqlalchemy.dialects import sqlite

    # Named parameters, so that each row's dict is its parameters as it stands. An UPDATE sets
    # what its .values() names, whatever the rows hold.
    column_keys = keys if isinstance(statement, Insert) else ()
    compiled = statement.compile(
        dialect=sqlite.dialect(paramstyle="named"), column_keys=column_keys
    )
    return str(compiled)


def update_many(
    connection: Connection, table: Table, columns: tuple[str, ...], rows: list[dict[str, Any]]
) -> None:
    """Set `columns` of `table` from each row (keyed by column name: a player's state), the
    row's user_id saying where."""
    if not rows:
        return
    if connection.dialect.name == "sqlite":
        # Bound by the columns' own names: the rows are the parameters, extra keys ignored.
        execute_many(connection, _update_by_user(table, columns, ""), rows)
        return
    # SQLAlchemy binds parameters named after the columns it sets itself: other names here.
    names = ("user_id", *columns)
    connection.execute(
        _update_by_user(table, columns, "b_"),
        [{f"b_{name}": row[name] for name in names} for row in rows],
    )


@functools.cache
def _update_by_user(table: Table, columns: tuple[str, ...], prefix: str) -> Update:
    return (
        update(table)
        .where(table.c.user_id == bindparam(f"{prefix}user_id"))
        .values({name: bindparam(f"{prefix}{name}") for name in columns})
    )
