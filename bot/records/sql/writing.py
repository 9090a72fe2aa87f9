"""Recording games and forgetting players: the SQL of one write transaction (synchronous
Core, run by `Storage` in one call). See bot/records/sql/storage.py for the exactly-once
design this implements, and bot/records/sql/statements.py for its statements and how they run
many rows at a time."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, Delete, Update, bindparam, delete, func, or_, select, update

from bot.core.game import AI
from bot.records.api import CLASSIC, GameRecord
from bot.records.sql import variants
from bot.records.sql.counting import (
    MEMBER_COLUMNS,
    PLAYER_COLUMNS,
    columns_changed_by,
    count_game,
)
from bot.records.sql.schema import (
    EVERYONE,
    GAME_COLUMNS,
    bot_tallies,
    game_values,
    games,
    memberships,
    players,
    shows_on_bot_board,
)
from bot.records.sql.statements import (
    Inserts,
    insert_many,
    inserts,
    look_up,
    lookups,
    set_columns,
    values_of,
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
_PLAYER_KEY = ("user_id",)  # primary keys
_MEMBER_KEY = ("guild_id", "user_id")
_MEMBER_ROW = (*_MEMBER_KEY, *MEMBER_COLUMNS)
_TALLY_ROW = ("user_id", "level", "wins", "draws", "losses")
_SIZE_ROW = ("guild_id", "rated", "vs_bot")
# A new player's row before their first game: the columns' defaults (counts 0, no rating).
_NEW_PLAYER = {
    name: 0 if players.c[name].server_default is not None else None for name in PLAYER_COLUMNS
}
_member_values = values_of(MEMBER_COLUMNS)


def record(connection: Connection, batch: Sequence[GameRecord]) -> int:
    # Games in id order: concurrent writers meet on the same rows in the same order.
    ordered = sorted({game.game_id: game for game in batch}.values(), key=lambda g: g.game_id)
    statements = inserts(connection.dialect.name)
    rows = [game_values(game) for game in ordered]
    if connection.dialect.name == "sqlite":
        # Not RETURNING (sqlite3 would step once a row, a GIL hand-over each, about 1 µs a
        # row more than this): the games already there are looked up first, and no other
        # writer can add one in between (the write lock is held from BEGIN IMMEDIATE on).
        there = lookups("sqlite").games_there
        found = {game_id for (game_id,) in look_up(connection, there, [g.game_id for g in ordered])}
        rows = [values for values in rows if values[0] not in found]
        insert_many(connection, statements.games, GAME_COLUMNS, rows)
        new_ids = {values[0] for values in rows}
    else:
        inserted = insert_many(connection, statements.games, GAME_COLUMNS, rows)
        new_ids = {game_id for (game_id,) in inserted}
    counted = sorted(
        (game for game in ordered if game.game_id in new_ids and game.counted),
        key=lambda game: (game.ended_at, game.game_id),
    )
    if not counted:
        return len(new_ids)
    # Other kinds count in rows of their own (bot/records/sql/variants.py), after classic's:
    # every writer locks the classic players first.
    others = [game for game in counted if game.kind != CLASSIC]
    if others:
        counted = [game for game in counted if game.kind == CLASSIC]
    if counted:
        _count_games(connection, statements, counted)
    if others:
        variants.count_games(connection, others)
    return len(new_ids)


def _count_games(connection: Connection, inserts: Inserts, counted: Sequence[GameRecord]) -> None:
    people = sorted(
        {
            player
            for game in counted
            for player in (game.x_player, game.o_player)
            if player is not None and player != AI
        }
    )
    if not people:
        return
    if connection.dialect.name != "sqlite":
        # A row must be there to be locked: a new player's is made first (a writer making the
        # same one at once waits for this transaction, then finds it), then read locked.
        insert_many(connection, inserts.players, _PLAYER_KEY, [(user_id,) for user_id in people])
    states: dict[int, dict[str, Any]] = {}
    # Each row as a dict of its own, to count in (Row objects are read-only).
    for row in look_up(connection, lookups(connection.dialect.name).lock_players, people):
        states[row[0]] = dict(zip(_PLAYER_KEYS, row, strict=True))
    # On SQLite the write lock keeps every other writer out (BEGIN IMMEDIATE): a player not
    # there is new, and their row goes in once, counted, rather than made and then updated.
    before = {user_id: _on_boards(state) for user_id, state in states.items()}
    for user_id in people:
        if user_id not in states:
            states[user_id] = {**_NEW_PLAYER, "user_id": user_id}
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
            if player is not None and player != AI:
                changed[player] = changed.get(player, columns) | columns
                if game.guild_id is not None and (game.guild_id, player) not in member_of:
                    joined.add((game.guild_id, player))
    # Each row gets only the columns its games changed: one statement per kind of change.
    by_change: dict[frozenset[str], list[int]] = {}
    for user_id in people:
        by_change.setdefault(changed[user_id], []).append(user_id)
    for columns, user_ids in by_change.items():
        names = _in_order(PLAYER_COLUMNS, columns)
        row_of = values_of((*_PLAYER_KEY, *names))
        set_columns(
            connection,
            players,
            _PLAYER_KEY,
            names,
            [row_of(states[user_id]) for user_id in user_ids],
        )
    insert_many(
        connection,
        inserts.bot_tallies,
        _TALLY_ROW,
        [(user_id, level, *counts) for (user_id, level), counts in sorted(tallies.items())],
    )
    # New memberships go in as they end up; the players' other ones are brought level.
    insert_many(
        connection,
        inserts.memberships,
        _MEMBER_ROW,
        [
            (guild_id, user_id, *_member_values(states[user_id]))
            for guild_id, user_id in sorted(joined)
        ],
    )
    _resize_boards(connection, inserts, before, states, joined, member_of)
    guilds_of: dict[int, list[int]] = {}
    for guild_id, user_id in sorted(member_of):
        guilds_of.setdefault(user_id, []).append(guild_id)
    for columns, user_ids in by_change.items():
        names = _in_order(MEMBER_COLUMNS, columns)
        row_of = values_of(names)
        set_columns(
            connection,
            memberships,
            _MEMBER_KEY,
            names,
            [
                (guild_id, user_id, *row_of(states[user_id]))
                for user_id in user_ids
                for guild_id in guilds_of.get(user_id, ())
            ],
        )


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
    were members of, `member_of`, and those they just `joined`). `before`: where the players
    already in the database were (a new one was on neither)."""
    sizes: dict[int, list[int]] = {}

    def grow(guild_id: int, rated: int, vs_bot: int) -> None:
        if rated or vs_bot:
            size = sizes.setdefault(guild_id, [0, 0])
            size[0] += rated
            size[1] += vs_bot

    now = {user_id: _on_boards(state) for user_id, state in states.items()}
    changed: dict[int, tuple[int, int]] = {}
    for user_id, (rated, vs_bot) in now.items():
        was_rated, was_vs_bot = before.get(user_id, (0, 0))
        if rated != was_rated or vs_bot != was_vs_bot:
            changed[user_id] = (rated - was_rated, vs_bot - was_vs_bot)
            grow(EVERYONE, *changed[user_id])
    for guild_id, user_id in joined:
        grow(guild_id, *now[user_id])
    for guild_id, user_id in member_of:
        if user_id in changed:
            grow(guild_id, *changed[user_id])
    _add_sizes(connection, inserts, sizes)


def _add_sizes(connection: Connection, inserts: Inserts, sizes: dict[int, list[int]]) -> None:
    insert_many(
        connection,
        inserts.board_sizes,
        _SIZE_ROW,
        [(guild_id, rated, vs_bot) for guild_id, (rated, vs_bot) in sorted(sizes.items())],
    )


def _memberships_of(connection: Connection, user_ids: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(guild id, user id) of every server membership of these users."""
    statement = lookups(connection.dialect.name).memberships_of
    # Plain tuples (PostgreSQL's rows are Row objects).
    yield from (
        (guild_id, user_id) for guild_id, user_id in look_up(connection, statement, user_ids)
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
    variants.forget(connection, user_id)
    named = connection.execute(_GAMES_NAMING, by_id).scalar_one()
    for statement in (*_UNNAME, *_DELETE):
        connection.execute(statement, by_id)
    return int(named)
