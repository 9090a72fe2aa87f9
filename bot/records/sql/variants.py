"""The kinds of game other than classic (ultimate): their players' numbers in the variant_*
tables, keyed by kind, written in the same transaction as the games and read for /stats and
their rating boards (synchronous Core, run by `Storage`).

Classic's tables and queries stay as they were: a batch's classic games are counted by
bot/records/sql/writing.py, then its other games here, with the same counting
(bot/records/sql/counting.py) on rows of the same shape, less the bot board's numbers (the bot
board is classic's). Every writer locks the classic players first, then these rows, each in id
order: writers wait for each other without deadlocking, as classic's do.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Connection, Insert, Table, delete, func, select, tuple_

from bot.core.game import AI
from bot.records.api import GameRecord, Page, Rating, RatingRow, Tally, VariantStats
from bot.records.sql.counting import count_game, rating_of
from bot.records.sql.paging import page_bounds
from bot.records.sql.schema import (
    EVERYONE,
    variant_board_sizes,
    variant_bot_tallies,
    variant_memberships,
    variant_players,
)
from bot.records.sql.statements import dialect_of, insert_many, set_columns

PLAYER_KEY = ("user_id", "kind")
PLAYER_COLUMNS = tuple(c.name for c in variant_players.c if c.name not in PLAYER_KEY)
_MEMBER_KEY = ("kind", "guild_id", "user_id")
_TALLY_ROW = ("user_id", "kind", "level", "wins", "draws", "losses")
_SIZE_ROW = ("kind", "guild_id", "rated")
_NEW_PLAYER = {
    name: 0 if variant_players.c[name].server_default is not None else None
    for name in PLAYER_COLUMNS
}
_CHUNK = 500  # ids per SELECT ... IN (well under SQLite's 999 variables)

Seat = tuple[int, str]  # (user id, kind)


def _chunks(ids: Sequence[int]) -> Iterator[Sequence[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


class _Inserts(NamedTuple):
    players: Insert  # a new player's row, when not there
    memberships: Insert  # a new membership, when not there
    bot_tallies: Insert  # adds to the tallies there
    board_sizes: Insert  # adds to the sizes there


@functools.cache
def _inserts(dialect_name: str) -> _Inserts:
    """A dialect's INSERT ... ON CONFLICT statements, built once (bot/records/sql/statements.py
    compiles each once for SQLite, keyed by the statement itself)."""
    dialect = dialect_of(dialect_name)

    def adding(table: Table, keys: Sequence[str]) -> Insert:
        insert = dialect.insert(table)
        counts = [column.name for column in table.c if column.name not in keys]
        return insert.on_conflict_do_update(  # type: ignore[no-any-return]
            index_elements=[table.c[key] for key in keys],
            set_={name: table.c[name] + insert.excluded[name] for name in counts},
        )

    def new(table: Table, keys: Sequence[str]) -> Insert:
        return dialect.insert(table).on_conflict_do_nothing(  # type: ignore[no-any-return]
            index_elements=[table.c[key] for key in keys]
        )

    return _Inserts(
        players=new(variant_players, PLAYER_KEY),
        memberships=new(variant_memberships, _MEMBER_KEY),
        bot_tallies=adding(variant_bot_tallies, _TALLY_ROW[:3]),
        board_sizes=adding(variant_board_sizes, _SIZE_ROW[:2]),
    )


# ------------------------------------------------------------------------------ writing


def count_games(connection: Connection, counted: Sequence[GameRecord]) -> None:
    """Count newly recorded games of kinds other than classic (in the order given: by when
    they ended) in their kinds' rows."""
    seats = sorted(
        {
            (player, game.kind)
            for game in counted
            for player in (game.x_player, game.o_player)
            if player is not None and player != AI
        }
    )
    if not seats:
        return
    people = sorted({user_id for user_id, _ in seats})
    if connection.dialect.name != "sqlite":
        # A row must be there to be locked (see writing._count_games).
        insert_many(connection, _inserts(connection.dialect.name).players, PLAYER_KEY, seats)
    states = _lock_players(connection, people)
    before = {seat: state["rating"] is not None for seat, state in states.items()}
    for user_id, kind in seats:
        states.setdefault((user_id, kind), {**_NEW_PLAYER, "user_id": user_id, "kind": kind})
    member_of = set(_memberships_of(connection, people))
    by_kind: dict[str, dict[int, dict[str, Any]]] = {}
    for (user_id, kind), state in states.items():
        by_kind.setdefault(kind, {})[user_id] = state
    tallies: dict[str, dict[tuple[int, str], list[int]]] = {}
    joined: set[tuple[str, int, int]] = set()
    for game in counted:
        count_game(game, by_kind[game.kind], tallies.setdefault(game.kind, {}), bot_board=False)
        for player in (game.x_player, game.o_player):
            if player is None or player == AI or game.guild_id is None:
                continue
            if (game.kind, game.guild_id, player) not in member_of:
                joined.add((game.kind, game.guild_id, player))
    set_columns(
        connection,
        variant_players,
        PLAYER_KEY,
        PLAYER_COLUMNS,
        [(*seat, *(states[seat][name] for name in PLAYER_COLUMNS)) for seat in seats],
    )
    insert_many(
        connection,
        _inserts(connection.dialect.name).bot_tallies,
        _TALLY_ROW,
        [
            (user_id, kind, level, *counts)
            for kind, of_kind in sorted(tallies.items())
            for (user_id, level), counts in sorted(of_kind.items())
        ],
    )
    insert_many(
        connection,
        _inserts(connection.dialect.name).memberships,
        (*_MEMBER_KEY, "rating"),
        [
            (kind, guild_id, user_id, states[user_id, kind]["rating"])
            for kind, guild_id, user_id in sorted(joined)
        ],
    )
    set_columns(
        connection,
        variant_memberships,
        _MEMBER_KEY,
        ("rating",),
        [
            (kind, guild_id, user_id, states[user_id, kind]["rating"])
            for kind, guild_id, user_id in sorted(member_of)
            if (user_id, kind) in states
        ],
    )
    _resize(connection, before, states, joined, member_of)


def _lock_players(connection: Connection, people: list[int]) -> dict[Seat, dict[str, Any]]:
    """These players' rows of every kind, locked (PostgreSQL), as dicts to count in."""
    states: dict[Seat, dict[str, Any]] = {}
    for chunk in _chunks(people):
        rows = connection.execute(
            select(variant_players)
            .where(variant_players.c.user_id.in_(chunk))
            .order_by(variant_players.c.user_id, variant_players.c.kind)
            .with_for_update()
        ).mappings()
        for row in rows:
            states[row["user_id"], row["kind"]] = dict(row)
    return states


def _memberships_of(connection: Connection, people: list[int]) -> Iterator[tuple[str, int, int]]:
    """(kind, guild id, user id) of every membership of these players."""
    columns = (variant_memberships.c.kind, variant_memberships.c.guild_id)
    for chunk in _chunks(people):
        rows = connection.execute(
            select(*columns, variant_memberships.c.user_id).where(
                variant_memberships.c.user_id.in_(chunk)
            )
        )
        # Plain tuples (PostgreSQL's rows are Row objects).
        yield from ((kind, guild_id, user_id) for kind, guild_id, user_id in rows)


def _resize(
    connection: Connection,
    before: dict[Seat, bool],
    states: dict[Seat, dict[str, Any]],
    joined: set[tuple[str, int, int]],
    member_of: set[tuple[str, int, int]],
) -> None:
    """Count the players who just got a rating, on their kind's boards: everyone's, and those
    of the servers they were or just became members of."""
    sizes: dict[tuple[str, int], int] = {}
    newly_rated = {
        seat
        for seat, state in states.items()
        if state["rating"] is not None and not before.get(seat, False)
    }
    for _, kind in newly_rated:
        sizes[kind, EVERYONE] = sizes.get((kind, EVERYONE), 0) + 1
    for kind, guild_id, user_id in member_of:
        if (user_id, kind) in newly_rated:
            sizes[kind, guild_id] = sizes.get((kind, guild_id), 0) + 1
    for kind, guild_id, user_id in joined:
        if states[user_id, kind]["rating"] is not None:
            sizes[kind, guild_id] = sizes.get((kind, guild_id), 0) + 1
    _add_sizes(connection, sizes)


def _add_sizes(connection: Connection, sizes: dict[tuple[str, int], int]) -> None:
    insert_many(
        connection,
        _inserts(connection.dialect.name).board_sizes,
        _SIZE_ROW,
        [(kind, guild_id, rated) for (kind, guild_id), rated in sorted(sizes.items()) if rated],
    )


def forget(connection: Connection, user_id: int) -> None:
    """Delete a player's numbers in every kind, and take them off its boards."""
    rated = set(
        connection.execute(
            select(variant_players.c.kind)
            .where(variant_players.c.user_id == user_id, variant_players.c.rating.is_not(None))
            .with_for_update()
        ).scalars()
    )
    sizes = {(kind, EVERYONE): -1 for kind in rated}
    for kind, guild_id in connection.execute(
        select(variant_memberships.c.kind, variant_memberships.c.guild_id).where(
            variant_memberships.c.user_id == user_id
        )
    ):
        if kind in rated:
            sizes[kind, guild_id] = -1
    _add_sizes(connection, sizes)
    for table in (variant_bot_tallies, variant_memberships, variant_players):
        connection.execute(delete(table).where(table.c.user_id == user_id))


# ------------------------------------------------------------------------------ reading


def stats(
    connection: Connection, user_id: int, guild_id: int | None, kinds: Sequence[str]
) -> tuple[VariantStats, ...]:
    """A player's numbers in each of `kinds` they played, in that order."""
    rows = {
        row["kind"]: row
        for row in connection.execute(
            select(variant_players).where(variant_players.c.user_id == user_id)
        ).mappings()
    }
    if not rows:
        return ()
    vs_bot: dict[str, dict[str, Tally]] = {}
    for kind, level, wins, draws, losses in connection.execute(
        select(
            variant_bot_tallies.c.kind,
            variant_bot_tallies.c.level,
            variant_bot_tallies.c.wins,
            variant_bot_tallies.c.draws,
            variant_bot_tallies.c.losses,
        ).where(variant_bot_tallies.c.user_id == user_id)
    ):
        vs_bot.setdefault(kind, {})[level] = Tally(wins, draws, losses)
    found = []
    for kind in kinds:
        state = rows.get(kind)
        if state is None:
            continue
        rating = rating_of(state)
        found.append(
            VariantStats(
                kind=kind,
                vs_bot=vs_bot.get(kind, {}),
                vs_people=Tally(
                    state["people_wins"], state["people_draws"], state["people_losses"]
                ),
                current_streak=state["streak"],
                best_streak=state["best_streak"],
                rating=rating,
                rank=None if rating is None else _rank(connection, kind, user_id, guild_id, rating),
            )
        )
    return tuple(found)


def _rank(
    connection: Connection, kind: str, user_id: int, guild_id: int | None, rating: Rating
) -> int | None:
    table, where = _board_source(kind, guild_id)
    if guild_id is not None:
        member = connection.execute(
            select(variant_memberships.c.user_id).where(*where, table.c.user_id == user_id)
        ).first()
        if member is None:
            return None
    ahead = connection.execute(
        select(func.count())
        .select_from(table)
        .where(
            *where,
            table.c.rating.is_not(None),
            tuple_(table.c.rating, table.c.user_id) > tuple_(rating.value, user_id),
        )
    ).scalar_one()
    return int(ahead) + 1


def _board_source(kind: str, guild_id: int | None) -> tuple[Table, list[Any]]:
    """The rows of a kind's board: its players', or a server's members'."""
    if guild_id is None:
        return variant_players, [variant_players.c.kind == kind]
    where = [variant_memberships.c.kind == kind, variant_memberships.c.guild_id == guild_id]
    return variant_memberships, where


def rating_board(
    connection: Connection, kind: str, guild_id: int | None, page: int, per_page: int
) -> Page[RatingRow]:
    """A kind's rating board, as reading.rating_board reads classic's (ids from the partial
    index alone, then their rows)."""
    source, where = _board_source(kind, guild_id)
    where.append(source.c.rating.is_not(None))
    total = connection.execute(
        select(variant_board_sizes.c.rated).where(
            variant_board_sizes.c.kind == kind,
            variant_board_sizes.c.guild_id == (EVERYONE if guild_id is None else guild_id),
        )
    ).scalar()
    total = int(total or 0)
    page, pages = page_bounds(total, page, per_page)
    ids = list(
        connection.execute(
            select(source.c.user_id)
            .where(*where)
            .order_by(source.c.rating.desc(), source.c.user_id.desc())
            .offset(page * per_page)
            .limit(per_page)
        ).scalars()
    )
    ratings = {
        row.user_id: Rating(row.rating, row.deviation, row.volatility, row.rated_games)
        for row in connection.execute(
            select(
                variant_players.c.user_id,
                variant_players.c.rating,
                variant_players.c.deviation,
                variant_players.c.volatility,
                variant_players.c.rated_games,
            ).where(
                variant_players.c.kind == kind,
                variant_players.c.user_id.in_(ids),
                variant_players.c.rating.is_not(None),
            )
        )
    }
    first = page * per_page + 1
    return Page(
        rows=tuple(
            RatingRow(first + index, user_id, ratings[user_id])
            for index, user_id in enumerate(ids)
            if user_id in ratings  # gone since the first query: forgotten meanwhile
        ),
        page=page,
        pages=pages,
        total=total,
    )
