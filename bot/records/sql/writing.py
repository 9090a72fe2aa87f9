"""Recording games and forgetting players: the SQL of one write transaction (synchronous
Core, run by `Storage` through `run_sync`). See bot/records/sql/storage.py for the exactly-once
design this implements."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from sqlalchemy import Connection, Table, bindparam, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

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

_CHUNK = 500  # rows per multi-row INSERT (15 columns: well under either driver's parameter cap)

_T = TypeVar("_T")


def _insert(connection: Connection, table: Table) -> Any:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _chunks(items: Sequence[_T], size: int = _CHUNK) -> Iterator[Sequence[_T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def record(connection: Connection, batch: Sequence[GameRecord]) -> int:
    # Games in id order: concurrent writers meet on the same rows in the same order.
    ordered = sorted({game.game_id: game for game in batch}.values(), key=lambda g: g.game_id)
    new_ids: set[int] = set()
    for chunk in _chunks(ordered):
        statement = (
            _insert(connection, games)
            .values([game_row(game) for game in chunk])
            .on_conflict_do_nothing(index_elements=[games.c.game_id])
            .returning(games.c.game_id)
        )
        new_ids.update(connection.execute(statement).scalars())
    counted = sorted(
        (game for game in ordered if game.game_id in new_ids and game.counted),
        key=lambda game: (game.ended_at, game.game_id),
    )
    if counted:
        _count_games(connection, counted)
    return len(new_ids)


def _count_games(connection: Connection, counted: Sequence[GameRecord]) -> None:
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
    for chunk in _chunks(people):
        connection.execute(
            _insert(connection, players)
            .values([{"user_id": user_id} for user_id in chunk])
            .on_conflict_do_nothing(index_elements=[players.c.user_id])
        )
    states: dict[int, dict[str, Any]] = {}
    for chunk in _chunks(people):
        rows = connection.execute(
            select(players)
            .where(players.c.user_id.in_(chunk))
            .order_by(players.c.user_id)
            .with_for_update()
        ).mappings()
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
    connection.execute(
        update(players)
        .where(players.c.user_id == bindparam("b_user_id"))
        .values({name: bindparam(f"b_{name}") for name in PLAYER_COLUMNS}),
        [{f"b_{name}": value for name, value in states[user_id].items()} for user_id in people],
    )
    if tallies:
        insert = _insert(connection, bot_tallies)
        connection.execute(
            insert.values(
                [
                    {"user_id": user_id, "level": level, "wins": w, "draws": d, "losses": lo}
                    for (user_id, level), (w, d, lo) in sorted(tallies.items())
                ]
            ).on_conflict_do_update(
                index_elements=[bot_tallies.c.user_id, bot_tallies.c.level],
                set_={
                    name: bot_tallies.c[name] + insert.excluded[name]
                    for name in ("wins", "draws", "losses")
                },
            )
        )
    new_members: set[tuple[int, int]] = set()
    for pairs in _chunks(sorted(joined)):
        inserted = connection.execute(
            _insert(connection, memberships)
            .values([{"guild_id": guild_id, "user_id": user_id} for guild_id, user_id in pairs])
            .on_conflict_do_nothing(index_elements=[memberships.c.guild_id, memberships.c.user_id])
            .returning(memberships.c.guild_id, memberships.c.user_id)
        )
        new_members.update((guild_id, user_id) for guild_id, user_id in inserted)
    _resize_boards(connection, before, states, new_members)
    connection.execute(
        update(memberships)
        .where(memberships.c.user_id == bindparam("b_user_id"))
        .values({name: bindparam(f"b_{name}") for name in MEMBER_COLUMNS}),
        [
            {f"b_{name}": states[user_id][name] for name in ("user_id", *MEMBER_COLUMNS)}
            for user_id in people
        ],
    )


def _on_boards(state: dict[str, Any]) -> tuple[int, int]:
    """(on the rating board, on the bot board) as 0 or 1, for a player's (member's) row."""
    return int(state["rating"] is not None), int(shows_on_bot_board(state))


def _resize_boards(
    connection: Connection,
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
    if changed:
        for guild_id, user_id in connection.execute(
            select(memberships.c.guild_id, memberships.c.user_id).where(
                memberships.c.user_id.in_(sorted(changed))
            )
        ):
            if (guild_id, user_id) not in new_members:
                grow(guild_id, *changed[user_id])
    _add_sizes(connection, sizes)


def _add_sizes(connection: Connection, sizes: dict[int, list[int]]) -> None:
    if not sizes:
        return
    insert = _insert(connection, board_sizes)
    connection.execute(
        insert.values(
            [
                {"guild_id": guild_id, "rated": rated, "vs_bot": vs_bot}
                for guild_id, (rated, vs_bot) in sorted(sizes.items())
            ]
        ).on_conflict_do_update(
            index_elements=[board_sizes.c.guild_id],
            set_={
                name: board_sizes.c[name] + insert.excluded[name] for name in ("rated", "vs_bot")
            },
        )
    )


def forget(connection: Connection, user_id: int) -> int:
    row = (
        connection.execute(select(players).where(players.c.user_id == user_id).with_for_update())
        .mappings()
        .first()
    )
    if row is not None:
        rated, vs_bot = _on_boards(dict(row))
        guilds = connection.execute(
            select(memberships.c.guild_id).where(memberships.c.user_id == user_id)
        ).scalars()
        _add_sizes(
            connection,
            {guild_id: [-rated, -vs_bot] for guild_id in [EVERYONE, *guilds] if rated or vs_bot},
        )
    named = connection.execute(
        select(func.count())
        .select_from(games)
        .where(or_(games.c.x_player == user_id, games.c.o_player == user_id))
    ).scalar_one()
    connection.execute(update(games).where(games.c.x_player == user_id).values(x_player=None))
    connection.execute(update(games).where(games.c.o_player == user_id).values(o_player=None))
    for table in (bot_tallies, memberships, players):
        connection.execute(delete(table).where(table.c.user_id == user_id))
    return int(named)
