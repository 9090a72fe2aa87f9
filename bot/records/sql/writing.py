"""Recording games and forgetting players: the SQL of one write transaction (synchronous
Core, run by `Storage` in one call). See bot/records/sql/storage.py for the exactly-once
design this implements.

Every statement is built once (per dialect where the INSERT's ON CONFLICT is the dialect's own)
and run with the rows as parameters: SQLAlchemy then finds it compiled in its cache, where a
multi-row `.values([...])` is a new statement to build and compile on every batch (two thirds
of a game's SQL work, docs/performance.md). On SQLite the many-row statements go further: each
is compiled once to SQL with named parameters and its rows (dicts) go straight to sqlite3's
executemany, skipping SQLAlchemy's per-row parameter processing (which was about 40% of a
transaction; none of these columns has a bind processor on SQLite: integers, floats, strings,
booleans, which sqlite3 stores alike)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    Delete,
    Insert,
    Table,
    Update,
    bindparam,
    delete,
    func,
    or_,
    select,
    update,
)

from bot.records.api import BOT_PLAYER, GameRecord
from bot.records.sql.counting import MEMBER_COLUMNS, PLAYER_COLUMNS, count_game
from bot.records.sql.schema import (
    EVERYONE,
    board_sizes,
    bot_tallies,
    game_row,
    games,
    memberships,
    players,
    shows_on_bot_board,
)

_CHUNK = 500  # ids per SELECT ... IN (well under either driver's parameter cap)

_T = TypeVar("_T")
_K = TypeVar("_K")

# The statements every dialect shares, bound by name.
_LOCK_PLAYERS = (
    select(players)
    .where(players.c.user_id.in_(bindparam("user_ids", expanding=True)))
    .order_by(players.c.user_id)
    .with_for_update()
)
_MEMBERSHIPS_OF = select(memberships.c.guild_id, memberships.c.user_id).where(
    memberships.c.user_id.in_(bindparam("user_ids", expanding=True))
)
_GAMES_THERE = select(games.c.game_id).where(
    games.c.game_id.in_(bindparam("game_ids", expanding=True))
)
# Forgetting a player (rare: built once all the same, for one shape throughout).
_PLAYER = select(players).where(players.c.user_id == bindparam("user_id")).with_for_update()
_GUILDS_OF = select(memberships.c.guild_id).where(memberships.c.user_id == bindparam("user_id"))
_GAMES_NAMING = (
    select(func.count())
    .select_from(games)
    .where(or_(games.c.x_player == bindparam("user_id"), games.c.o_player == bindparam("user_id")))
)
_UNNAME: tuple[Update, ...] = tuple(
    update(games).where(column == bindparam("user_id")).values({column.name: None})
    for column in (games.c.x_player, games.c.o_player)
)
_DELETE: tuple[Delete, ...] = tuple(
    delete(table).where(table.c.user_id == bindparam("user_id"))
    for table in (bot_tallies, memberships, players)
)


_TALLY_COLUMNS = ("wins", "draws", "losses")
_SIZE_COLUMNS = ("rated", "vs_bot")


@dataclass(frozen=True)
class _Inserts:
    """A dialect's INSERT ... ON CONFLICT statements."""

    games: Insert  # RETURNING the ids it inserted (not on SQLite: see _insert_new)
    players: Insert
    memberships: Insert  # RETURNING the (guild, user) pairs it inserted (idem)
    bot_tallies: Insert  # adds to the tallies there
    board_sizes: Insert  # adds to the sizes there


@functools.cache
def _inserts(dialect_name: str) -> _Inserts:
    dialect = dialect_of(dialect_name)
    tallies = dialect.insert(bot_tallies)
    sizes = dialect.insert(board_sizes)
    new_games = dialect.insert(games).on_conflict_do_nothing(index_elements=[games.c.game_id])
    new_members = dialect.insert(memberships).on_conflict_do_nothing(
        index_elements=[memberships.c.guild_id, memberships.c.user_id]
    )
    if dialect_name != "sqlite":
        new_games = new_games.returning(games.c.game_id)
        new_members = new_members.returning(memberships.c.guild_id, memberships.c.user_id)
    return _Inserts(
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


def _execute_many(
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


def _update_many(
    connection: Connection, table: Table, columns: tuple[str, ...], rows: list[dict[str, Any]]
) -> None:
    """Set `columns` of `table` from each row (keyed by column name: a player's state), the
    row's user_id saying where."""
    if connection.dialect.name == "sqlite":
        # Bound by the columns' own names: the rows are the parameters, extra keys ignored.
        _execute_many(connection, _update_by_user(table, columns, ""), rows)
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


def _insert_new(
    connection: Connection,
    insert: Insert,
    rows: list[dict[str, Any]],
    key: Callable[[Mapping[Any, Any]], _K],
    there: Callable[[], set[_K]],
) -> set[_K]:
    """INSERT ... ON CONFLICT DO NOTHING the rows; the keys of those it inserted. PostgreSQL
    says which through RETURNING. sqlite3's executemany returns no rows, so on SQLite the rows
    already `there` are looked up first: no other writer can add any in between, since an
    SQLite write transaction holds the database's write lock from its start (BEGIN IMMEDIATE)."""
    if connection.dialect.name != "sqlite":
        return {key(row._mapping) for row in connection.execute(insert, rows)}
    found = there()
    new = [row for row in rows if key(row) not in found]
    _execute_many(connection, insert, new)
    return {key(row) for row in new}


def record(connection: Connection, batch: Sequence[GameRecord]) -> int:
    # Games in id order: concurrent writers meet on the same rows in the same order.
    ordered = sorted({game.game_id: game for game in batch}.values(), key=lambda g: g.game_id)
    inserts = _inserts(connection.dialect.name)
    ids = [game.game_id for game in ordered]

    def there() -> set[int]:
        return {
            game_id
            for chunk in _chunks(ids)
            for game_id in connection.execute(_GAMES_THERE, {"game_ids": chunk}).scalars()
        }

    new_ids = _insert_new(
        connection, inserts.games, [game_row(game) for game in ordered], _game_id, there
    )
    counted = sorted(
        (game for game in ordered if game.game_id in new_ids and game.counted),
        key=lambda game: (game.ended_at, game.game_id),
    )
    if counted:
        _count_games(connection, inserts, counted)
    return len(new_ids)


def _count_games(connection: Connection, inserts: _Inserts, counted: Sequence[GameRecord]) -> None:
    people = sorted(
        {
            player
            for game in counted
            for player in (game.x_player, game.o_player)
            if player is not None and player != BOT_PLAYER
        }
    )
    if not people:
        return
    _execute_many(connection, inserts.players, [{"user_id": user_id} for user_id in people])
    states: dict[int, dict[str, Any]] = {}
    for chunk in _chunks(people):
        rows = connection.execute(_LOCK_PLAYERS, {"user_ids": chunk}).mappings()
        states.update({row["user_id"]: dict(row) for row in rows})
    before = {user_id: _on_boards(state) for user_id, state in states.items()}
    tallies: dict[tuple[int, str], list[int]] = {}
    joined: set[tuple[int, int]] = set()
    for game in counted:
        count_game(game, states, tallies)
        if game.guild_id is not None:
            joined.update(
                (game.guild_id, player)
                for player in (game.x_player, game.o_player)
                if player is not None and player != BOT_PLAYER
            )
    people_states = [states[user_id] for user_id in people]
    _update_many(connection, players, PLAYER_COLUMNS, people_states)
    _execute_many(
        connection,
        inserts.bot_tallies,
        [
            {"user_id": user_id, "level": level, "wins": w, "draws": d, "losses": lo}
            for (user_id, level), (w, d, lo) in sorted(tallies.items())
        ],
    )
    new_members: set[tuple[int, int]] = set()
    if joined:
        members = sorted(joined)

        def there() -> set[tuple[int, int]]:
            return set(_memberships_of(connection, sorted({user_id for _, user_id in members})))

        new_members = _insert_new(
            connection,
            inserts.memberships,
            [{"guild_id": guild_id, "user_id": user_id} for guild_id, user_id in members],
            _member,
            there,
        )
    _resize_boards(connection, inserts, before, states, new_members)
    _update_many(connection, memberships, MEMBER_COLUMNS, people_states)


def _on_boards(state: dict[str, Any]) -> tuple[int, int]:
    """(on the rating board, on the bot board) as 0 or 1, for a player's (member's) row."""
    return int(state["rating"] is not None), int(shows_on_bot_board(state))


def _resize_boards(
    connection: Connection,
    inserts: _Inserts,
    before: dict[int, tuple[int, int]],
    states: dict[int, dict[str, Any]],
    new_members: set[tuple[int, int]],
) -> None:
    """Count the players who just got onto a board, everyone's and their servers'."""
    sizes: dict[int, list[int]] = {}

    def grow(guild_id: int, rated: int, vs_bot: int) -> None:
        if rated or vs_bot:
            size = sizes.setdefault(guild_id, [0, 0])
            size[0] += rated
            size[1] += vs_bot

    changed: dict[int, tuple[int, int]] = {}
    for user_id, state in states.items():
        now, was = _on_boards(state), before[user_id]
        if now != was:
            changed[user_id] = (now[0] - was[0], now[1] - was[1])
            grow(EVERYONE, *changed[user_id])
    for guild_id, user_id in new_members:
        grow(guild_id, *_on_boards(states[user_id]))
    for guild_id, user_id in _memberships_of(connection, sorted(changed)):
        if (guild_id, user_id) not in new_members:
            grow(guild_id, *changed[user_id])
    _add_sizes(connection, inserts, sizes)


def _add_sizes(connection: Connection, inserts: _Inserts, sizes: dict[int, list[int]]) -> None:
    _execute_many(
        connection,
        inserts.board_sizes,
        [
            {"guild_id": guild_id, "rated": rated, "vs_bot": vs_bot}
            for guild_id, (rated, vs_bot) in sorted(sizes.items())
        ],
    )


def _memberships_of(connection: Connection, user_ids: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(guild id, user id) of every server membership of these users."""
    for chunk in _chunks(user_ids):
        rows = connection.execute(_MEMBERSHIPS_OF, {"user_ids": chunk})
        yield from ((guild_id, user_id) for guild_id, user_id in rows)


def _game_id(row: Mapping[Any, Any]) -> int:
    return int(row["game_id"])


def _member(row: Mapping[Any, Any]) -> tuple[int, int]:
    return row["guild_id"], row["user_id"]


def forget(connection: Connection, user_id: int) -> int:
    by_id = {"user_id": user_id}
    row = connection.execute(_PLAYER, by_id).mappings().first()
    if row is not None:
        rated, vs_bot = _on_boards(dict(row))
        guilds = connection.execute(_GUILDS_OF, by_id).scalars()
        _add_sizes(
            connection,
            _inserts(connection.dialect.name),
            {guild_id: [-rated, -vs_bot] for guild_id in [EVERYONE, *guilds] if rated or vs_bot},
        )
    named = connection.execute(_GAMES_NAMING, by_id).scalar_one()
    for statement in (*_UNNAME, *_DELETE):
        connection.execute(statement, by_id)
    return int(named)
