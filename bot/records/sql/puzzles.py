"""Puzzle attempts in the records: the SQL of writing them (one transaction, like games) and of
reading the puzzle ratings back (synchronous Core, run by `Storage` in one call).

Each attempt is inserted by its id (a no-op the second time); only a newly inserted, rated
attempt changes ratings: the player's and the puzzle's (Glicko-2, `rate_attempt`), from the rows
as stored, whichever process wrote them. A rated try at a day's puzzle that the player already
tried is stored unrated."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Table, func, select, update

from bot.core.rating import START, puzzle_start, rate_attempt
from bot.records.api import Page, PuzzleAttempt, PuzzlePlayer, PuzzleStats, Rating, RatingRow
from bot.records.sql import statements
from bot.records.sql.paging import page_bounds
from bot.records.sql.schema import (
    puzzle_attempt_row,
    puzzle_attempts,
    puzzle_memberships,
    puzzle_players,
    puzzle_ratings,
)


def _insert(connection: Connection, table: Table) -> Any:
    return statements.dialect_of(connection.dialect.name).insert(table)


def _rating(row: Any) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility, row.attempts)


def record(connection: Connection, batch: Sequence[PuzzleAttempt]) -> int:
    ordered = sorted(
        {attempt.attempt_id: attempt for attempt in batch}.values(),
        key=lambda attempt: (attempt.ended_at, attempt.attempt_id),
    )
    new = 0
    for attempt in ordered:
        inserted = connection.execute(
            _insert(connection, puzzle_attempts)
            .values(puzzle_attempt_row(attempt))
            .on_conflict_do_nothing(index_elements=[puzzle_attempts.c.attempt_id])
            .returning(puzzle_attempts.c.attempt_id)
        ).first()
        if inserted is None:
            continue
        new += 1
        if attempt.user_id is None or not attempt.rated:
            continue
        if attempt.daily is not None and _tried_before(connection, attempt):
            connection.execute(
                update(puzzle_attempts)
                .where(puzzle_attempts.c.attempt_id == attempt.attempt_id)
                .values(rated=False)
            )
            continue
        _rate(connection, attempt, attempt.user_id)
    return new


def _tried_before(connection: Connection, attempt: PuzzleAttempt) -> bool:
    earlier = connection.execute(
        select(puzzle_attempts.c.attempt_id)
        .where(
            puzzle_attempts.c.user_id == attempt.user_id,
            puzzle_attempts.c.daily == attempt.daily,
            puzzle_attempts.c.rated.is_(True),
            puzzle_attempts.c.attempt_id != attempt.attempt_id,
        )
        .limit(1)
    ).first()
    return earlier is not None


def _rate(connection: Connection, attempt: PuzzleAttempt, user_id: int) -> None:
    player_row = connection.execute(
        select(puzzle_players).where(puzzle_players.c.user_id == user_id).with_for_update()
    ).first()
    puzzle_row = connection.execute(
        select(puzzle_ratings)
        .where(puzzle_ratings.c.puzzle_id == attempt.puzzle_id)
        .with_for_update()
    ).first()
    player = START if player_row is None else _rating(player_row)
    puzzle = puzzle_start(attempt.puzzle_rating) if puzzle_row is None else _rating(puzzle_row)
    player_after, puzzle_after = rate_attempt(player, puzzle, attempt.solved)
    streak = (0 if player_row is None else player_row.streak) + 1 if attempt.solved else 0
    best = max(streak, 0 if player_row is None else player_row.best_streak)
    solved = (0 if player_row is None else player_row.solved) + int(attempt.solved)
    values = {
        "rating": player_after.value,
        "deviation": player_after.deviation,
        "volatility": player_after.volatility,
        "attempts": player_after.games,
        "solved": solved,
        "streak": streak,
        "best_streak": best,
    }
    insert = _insert(connection, puzzle_players)
    connection.execute(
        insert.values(user_id=user_id, **values).on_conflict_do_update(
            index_elements=[puzzle_players.c.user_id], set_=values
        )
    )
    puzzle_values = {
        "rating": puzzle_after.value,
        "deviation": puzzle_after.deviation,
        "volatility": puzzle_after.volatility,
        "attempts": (0 if puzzle_row is None else puzzle_row.attempts) + 1,
    }
    insert = _insert(connection, puzzle_ratings)
    connection.execute(
        insert.values(puzzle_id=attempt.puzzle_id, **puzzle_values).on_conflict_do_update(
            index_elements=[puzzle_ratings.c.puzzle_id], set_=puzzle_values
        )
    )
    if attempt.guild_id is not None:
        insert = _insert(connection, puzzle_memberships)
        connection.execute(
            insert.values(
                guild_id=attempt.guild_id, user_id=user_id, rating=player_after.value
            ).on_conflict_do_nothing(
                index_elements=[puzzle_memberships.c.guild_id, puzzle_memberships.c.user_id]
            )
        )
    connection.execute(
        update(puzzle_memberships)
        .where(puzzle_memberships.c.user_id == user_id)
        .values(rating=player_after.value)
    )


def forget(connection: Connection, user_id: int) -> None:
    connection.execute(
        update(puzzle_attempts).where(puzzle_attempts.c.user_id == user_id).values(user_id=None)
    )
    for table in (puzzle_memberships, puzzle_players):
        connection.execute(table.delete().where(table.c.user_id == user_id))


# Reading


def stats(connection: Connection, user_id: int) -> PuzzleStats | None:
    row = connection.execute(
        select(puzzle_players).where(puzzle_players.c.user_id == user_id)
    ).first()
    if row is None:
        return None
    return PuzzleStats(_rating(row), row.attempts, row.solved, row.streak, row.best_streak)


def player(connection: Connection, user_id: int, day: str) -> PuzzlePlayer:
    found = stats(connection, user_id)
    tried = bool(day) and (
        connection.execute(
            select(puzzle_attempts.c.attempt_id)
            .where(puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.daily == day)
            .limit(1)
        ).first()
        is not None
    )
    return PuzzlePlayer(None if found is None else found.rating, tried)


def ratings(connection: Connection) -> dict[str, Rating]:
    return {row.puzzle_id: _rating(row) for row in connection.execute(select(puzzle_ratings))}


def board(
    connection: Connection, guild_id: int | None, page: int, per_page: int
) -> Page[RatingRow]:
    """Players by puzzle rating, best first (a server's: those who solved puzzles there)."""
    source: Table = puzzle_players if guild_id is None else puzzle_memberships
    where: list[Any] = [] if guild_id is None else [puzzle_memberships.c.guild_id == guild_id]
    total = int(
        connection.execute(select(func.count()).select_from(source).where(*where)).scalar_one()
    )
    page, pages = page_bounds(total, page, per_page)  # the top MAX_BOARD_ROWS, as every board
    ids = list(
        connection.execute(
            select(source.c.user_id)
            .where(*where)
            .order_by(source.c.rating.desc(), source.c.user_id.desc())
            .offset(page * per_page)
            .limit(per_page)
        ).scalars()
    )
    rows = {
        row.user_id: _rating(row)
        for row in connection.execute(
            select(puzzle_players).where(puzzle_players.c.user_id.in_(ids))
        )
    }
    first = page * per_page + 1
    return Page(
        rows=tuple(
            RatingRow(first + index, user_id, rows[user_id])
            for index, user_id in enumerate(ids)
            if user_id in rows
        ),
        page=page,
        pages=pages,
        total=total,
    )
