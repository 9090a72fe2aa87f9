"""Recording games and forgetting players: the SQL of one write transaction (synchronous
Core, run by `Storage` in one call). See bot/records/sql/storage.py for the exactly-once
design this implements, and bot/records/sql/statements.py for its statements and how they run
many rows at a time."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, Delete, Update, bindparam, delete, func, or_, select, update

from bot.records.api import BOT_PLAYER, GameRecord
from bot.records.sql.counting import (
    MEMBER_COLUMNS,
    PLAYER_COLUMNS,
    columns_changed_by,
    count_game,
)
from bot.records.sql.schema import (
    EVERYONE,
    bot_tallies,
    game_row,
    games,
    memberships,
    players,
    shows_on_bot_board,
)
from bot.records.sql.statements import (
    Inserts,
    execute_many,
    id_parameters,
    inserts,
    lookups,
    update_many,
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


_PLAYER_KEYS = ("user_id", *PLAYER_COLUMNS)  # a players row's columns in order
# A new player's row before their first game: the columns' defaults (counts 0, no rating).
_NEW_PLAYER = {
    name: 0 if players.c[name].server_default is not None else None for name in PLAYER_COLUMNS
}


def record(connection: Connection, batch: Sequence[GameRecord]) -> int:
    # Games in id order: concurrent writers meet on the same rows in the same order.
    ordered = sorted({game.game_id: game for game in batch}.values(), key=lambda g: g.game_id)
    statements = inserts(connection.dialect.name)
    rows = [game_row(game) for game in ordered]
    if connection.dialect.name == "sqlite":
        # sqlite3's executemany returns no rows (no RETURNING): the games already there are
        # looked up first, and no other writer can add one in between (the write lock is held
        # from BEGIN IMMEDIATE on).
        there = lookups("sqlite").games_there
        found = {
            game_id
            for parameters in id_parameters(connection, [game.game_id for game in ordered])
            for game_id in connection.execute(there, parameters).scalars().all()
        }
        rows = [row for row in rows if row["game_id"] not in found]
        execute_many(connection, statements.games, rows)
        new_ids = {row["game_id"] for row in rows}
    else:
        new_ids = set(connection.execute(statements.games, rows).scalars()) if rows else set()
    counted = sorted(
        (game for game in ordered if game.game_id in new_ids and game.counted),
        key=lambda game: (game.ended_at, game.game_id),
    )
    if counted:
        _count_games(connection, statements, counted)
    return len(new_ids)


def _count_games(connection: Connection, inserts: Inserts, counted: Sequence[GameRecord]) -> None:
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
    on_sqlite = connection.dialect.name == "sqlite"
    if not on_sqlite:
        # A row must be there to be locked: a new player's is made first (a writer making the
        # same one at once waits for this transaction, then finds it), then read locked.
        execute_many(connection, inserts.players, [{"user_id": user_id} for user_id in people])
    states: dict[int, dict[str, Any]] = {}
    lock = lookups(connection.dialect.name).lock_players
    for parameters in id_parameters(connection, people):
        # Each row as a dict of its own (Row objects are read-only; .mappings() is slower).
        # .all(): one fetchall() (iterating a result fetches its rows one at a time).
        for row in connection.execute(lock, parameters).all():
            states[row[0]] = dict(zip(_PLAYER_KEYS, row, strict=True))
    # On SQLite the write lock keeps every other writer out (BEGIN IMMEDIATE): a player not
    # there is new, and their row goes in once, counted, rather than made and then updated.
    new_people = [user_id for user_id in people if user_id not in states]
    for user_id in new_people:
        states[user_id] = {**_NEW_PLAYER, "user_id": user_id}
    before = {user_id: _on_boards(state) for user_id, state in states.items()}
    # Every server membership of these players, as it stands: no other writer adds one while
    # this transaction holds their rows (it would have to lock them first).
    member_of = set(_memberships_of(connection, people))
    tallies: dict[tuple[int, str], list[int]] = {}
    joined: set[tuple[int, int]] = set()
    changed: dict[int, frozenset[str]] = {}
    for game in counted:
        count_game(game, states, tallies)
        columns = columns_changed_by(game)
        for player in (game.x_player, game.o_player):
            if player is not None and player != BOT_PLAYER:
                changed[player] = changed.get(player, columns) | columns
                if game.guild_id is not None and (game.guild_id, player) not in member_of:
                    joined.add((game.guild_id, player))
    execute_many(connection, inserts.players, [states[user_id] for user_id in new_people])
    # Each row gets only the columns its games changed: one statement per kind of change.
    by_change: dict[frozenset[str], list[dict[str, Any]]] = {}
    for user_id in people:
        by_change.setdefault(changed[user_id], []).append(states[user_id])
    fresh = set(new_people)
    for columns, rows in by_change.items():
        existing = [row for row in rows if row["user_id"] not in fresh]
        update_many(connection, players, _in_order(PLAYER_COLUMNS, columns), existing)
    execute_many(
        connection,
        inserts.bot_tallies,
        [
            {"user_id": user_id, "level": level, "wins": w, "draws": d, "losses": lo}
            for (user_id, level), (w, d, lo) in sorted(tallies.items())
        ],
    )
    # New memberships go in as they end up; the players' other ones are brought level.
    execute_many(
        connection,
        inserts.memberships,
        [
            {"guild_id": guild_id, **_member_columns(states[user_id])}
            for guild_id, user_id in sorted(joined)
        ],
    )
    _resize_boards(connection, inserts, before, states, joined, member_of)
    members = {user_id for _, user_id in member_of}
    for columns, rows in by_change.items():
        existing = [row for row in rows if row["user_id"] in members]
        update_many(connection, memberships, _in_order(MEMBER_COLUMNS, columns), existing)


def _member_columns(state: dict[str, Any]) -> dict[str, Any]:
    return {"user_id": state["user_id"], **{name: state[name] for name in MEMBER_COLUMNS}}


@functools.cache
def _in_order(names: tuple[str, ...], among: frozenset[str]) -> tuple[str, ...]:
    """The `names` that are `among` these, in their order (one compiled statement each)."""
    return tuple(name for name in names if name in among)


def _on_boards(state: dict[str, Any]) -> tuple[int, int]:
    """(on the rating board, on the bot board) as 0 or 1, for a player's (member's) row."""
    return int(state["rating"] is not None), int(shows_on_bot_board(state))


def _resize_boards(
    connection: Connection,
    inserts: Inserts,
    before: dict[int, tuple[int, int]],
    states: dict[int, dict[str, Any]],
    joined: set[tuple[int, int]],
    member_of: set[tuple[int, int]],
) -> None:
    """Count the players who just got onto a board, everyone's and their servers' (those they
    were members of, `member_of`, and those they just `joined`)."""
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
    for guild_id, user_id in joined:
        grow(guild_id, *_on_boards(states[user_id]))
    for guild_id, user_id in member_of:
        if user_id in changed:
            grow(guild_id, *changed[user_id])
    _add_sizes(connection, inserts, sizes)


def _add_sizes(connection: Connection, inserts: Inserts, sizes: dict[int, list[int]]) -> None:
    execute_many(
        connection,
        inserts.board_sizes,
        [
            {"guild_id": guild_id, "rated": rated, "vs_bot": vs_bot}
            for guild_id, (rated, vs_bot) in sorted(sizes.items())
        ],
    )


def _memberships_of(connection: Connection, user_ids: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(guild id, user id) of every server membership of these users."""
    if not user_ids:
        return
    statement = lookups(connection.dialect.name).memberships_of
    for parameters in id_parameters(connection, user_ids):
        yield from (
            (guild_id, user_id)
            for guild_id, user_id in connection.execute(statement, parameters).all()
        )


def forget(connection: Connection, user_id: int) -> int:
    by_id = {"user_id": user_id}
    row = connection.execute(_PLAYER, by_id).mappings().first()
    if row is not None:
        rated, vs_bot = _on_boards(dict(row))
        guilds = connection.execute(_GUILDS_OF, by_id).scalars()
        _add_sizes(
            connection,
            inserts(connection.dialect.name),
            {guild_id: [-rated, -vs_bot] for guild_id in [EVERYONE, *guilds] if rated or vs_bot},
        )
    named = connection.execute(_GAMES_NAMING, by_id).scalar_one()
    for statement in (*_UNNAME, *_DELETE):
        connection.execute(statement, by_id)
    return int(named)
