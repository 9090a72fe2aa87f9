"""The queries behind /stats and the leaderboards (synchronous Core, run by `Storage` in one
read transaction, in one call). They read aggregates, never count games; boards and ranks
are range scans of the partial indexes in bot/records/sql/schema.py."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Table, func, select, tuple_

from bot.records.api import (
    VARIANTS,
    BotRow,
    GameRecord,
    Page,
    PlayerStats,
    Rating,
    RatingRow,
    Tally,
)
from bot.records.sql.counting import rating_of
from bot.records.sql.paging import page_bounds
from bot.records.sql.puzzles import stats as puzzle_stats
from bot.records.sql.schema import (
    EVERYONE,
    board_sizes,
    bot_board_filter,
    bot_tallies,
    game_record,
    games,
    memberships,
    players,
)
from bot.records.sql.variants import stats as variant_stats


def stats(connection: Connection, user_id: int, guild_id: int | None, recent: int) -> PlayerStats:
    recent_games = _recent(connection, user_id, recent)
    puzzles = puzzle_stats(connection, user_id)
    others = variant_stats(connection, user_id, guild_id, VARIANTS)
    row = connection.execute(select(players).where(players.c.user_id == user_id)).first()
    if row is None:
        return PlayerStats(user_id=user_id, recent=recent_games, puzzles=puzzles, variants=others)
    state = row._mapping
    vs_bot = {
        level: Tally(wins, draws, losses)
        for level, wins, draws, losses in connection.execute(
            select(
                bot_tallies.c.level, bot_tallies.c.wins, bot_tallies.c.draws, bot_tallies.c.losses
            ).where(bot_tallies.c.user_id == user_id)
        )
    }
    rating = rating_of(state)
    rank = None if rating is None else _rank(connection, user_id, guild_id, rating.value)
    return PlayerStats(
        user_id=user_id,
        vs_bot=vs_bot,
        vs_people=Tally(state["people_wins"], state["people_draws"], state["people_losses"]),
        current_streak=state["streak"],
        best_streak=state["best_streak"],
        rating=rating,
        rank=rank,
        recent=recent_games,
        puzzles=puzzles,
        variants=others,
    )


def _rank(connection: Connection, user_id: int, guild_id: int | None, value: float) -> int | None:
    if guild_id is None:
        table: Table = players
        where: list[Any] = []
    else:
        table = memberships
        where = [memberships.c.guild_id == guild_id]
        member = connection.execute(
            select(memberships.c.user_id).where(
                memberships.c.guild_id == guild_id, memberships.c.user_id == user_id
            )
        ).first()
        if member is None:
            return None
    ahead = connection.execute(
        select(func.count())
        .select_from(table)
        .where(
            *where,
            table.c.rating.is_not(None),
            tuple_(table.c.rating, table.c.user_id) > tuple_(value, user_id),
        )
    ).scalar_one()
    return int(ahead) + 1


def _recent(connection: Connection, user_id: int, count: int) -> tuple[GameRecord, ...]:
    if count <= 0:
        return ()
    found: list[GameRecord] = []
    for seat in (games.c.x_player, games.c.o_player):
        rows = connection.execute(
            select(games)
            .where(seat == user_id, games.c.counted.is_(True))
            .order_by(games.c.ended_at.desc())
            .limit(count)
        ).mappings()
        found.extend(game_record(row) for row in rows)
    found.sort(key=lambda game: (game.ended_at, game.game_id), reverse=True)
    return tuple(found[:count])


def _board_page(
    connection: Connection,
    source: Table,
    size: str,
    guild_id: int | None,
    where: list[Any],
    order: list[Any],
    page: int,
    per_page: int,
) -> tuple[list[int], int, int, int]:
    """The user ids on one page of a board, best first, with the page (clamped), the number of
    pages and the total (`size`: board_sizes' column). The ids come from the board's index alone
    (user_id is among its columns): skipping to a deep page reads index entries, not rows."""
    total = connection.execute(
        select(board_sizes.c[size]).where(
            board_sizes.c.guild_id == (EVERYONE if guild_id is None else guild_id)
        )
    ).scalar()
    total = int(total or 0)
    page, pages = page_bounds(total, page, per_page)
    ids = connection.execute(
        select(source.c.user_id)
        .where(*where)
        .order_by(*order)
        .offset(page * per_page)
        .limit(per_page)
    ).scalars()
    return list(ids), page, pages, total


def rating_board(
    connection: Connection, guild_id: int | None, page: int, per_page: int
) -> Page[RatingRow]:
    source: Table = players if guild_id is None else memberships
    where: list[Any] = [source.c.rating.is_not(None)]
    if guild_id is not None:
        where.append(memberships.c.guild_id == guild_id)
    order = [source.c.rating.desc(), source.c.user_id.desc()]
    ids, page, pages, total = _board_page(
        connection, source, "rated", guild_id, where, order, page, per_page
    )
    ratings = {
        user_id: Rating(value, deviation, volatility, games)
        for user_id, value, deviation, volatility, games in connection.execute(
            select(
                players.c.user_id,
                players.c.rating,
                players.c.deviation,
                players.c.volatility,
                players.c.rated_games,
            ).where(players.c.user_id.in_(ids))
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


def bot_board(
    connection: Connection, guild_id: int | None, page: int, per_page: int
) -> Page[BotRow]:
    source: Table = players if guild_id is None else memberships
    where: list[Any] = bot_board_filter(source)
    if guild_id is not None:
        where.append(memberships.c.guild_id == guild_id)
    order = [
        source.c.best_unbeaten_impossible.desc(),
        source.c.wins_hard.desc(),
        source.c.user_id.desc(),
    ]
    ids, page, pages, total = _board_page(
        connection, source, "vs_bot", guild_id, where, order, page, per_page
    )
    numbers = {
        user_id: (unbeaten, wins_hard, games)
        for user_id, unbeaten, wins_hard, games in connection.execute(
            select(
                source.c.user_id,
                source.c.best_unbeaten_impossible,
                source.c.wins_hard,
                source.c.bot_games,
            ).where(*where[2:], source.c.user_id.in_(ids))
        )
    }
    first = page * per_page + 1
    return Page(
        rows=tuple(
            BotRow(first + index, user_id, *numbers[user_id])
            for index, user_id in enumerate(ids)
            if user_id in numbers
        ),
        page=page,
        pages=pages,
        total=total,
    )
