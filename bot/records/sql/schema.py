"""The records' tables (SQLAlchemy Core), the same on SQLite and PostgreSQL.

`games` holds every finished game, keyed by its board message's id: inserting a game twice is a
no-op, which is what makes recording exactly-once. The other tables are aggregates kept up to
date in the same transaction as each newly inserted game, so that /stats and the leaderboards
read a few rows instead of counting games:

- `players`: one row per person who finished a counted game: tallies against people, streaks,
  the bot board's numbers, and the Glicko-2 rating (NULL until their first game against a
  person).
- `bot_tallies`: wins, draws and losses per person and bot level.
- `memberships`: who played in which server, with a copy of the numbers the server's boards sort
  by, so that a server's board and a rank within it are index range scans.
- `board_sizes`: how many rows each board has (per server, and everyone's).
- `puzzle_attempts`: every finished puzzle attempt, keyed by the id of the interaction that
  showed the puzzle (idempotent like `games`); `puzzle_players`: each player's puzzle rating and
  streaks; `puzzle_ratings`: each tried puzzle's rating; `puzzle_memberships`: who solved
  puzzles in which server, with a copy of their puzzle rating for the server's Puzzles board.
- `server_settings`: each server's /settings (bot/core/server.py), one row per server that saved
  them; deleted when the bot is removed from the server (bot/records/sql/server_settings.py).

Boards sort by (key, user_id) descending; the indexes are ascending, read backwards.
Alembic's migrations (bot/records/sql/migrations) create exactly these tables; a test compares them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ColumnElement,
    Double,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    literal_column,
    or_,
    text,
)

from bot.core.finished import Place
from bot.records.api import CLASSIC, Finish, GameRecord, PuzzleAttempt

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "pk": "pk_%(table_name)s",
    }
)


def _count(name: str) -> Column[int]:
    return Column(name, Integer, nullable=False, server_default=text("0"))


def _partial_index(name: str, *columns: Column[Any], where: ColumnElement[bool]) -> Index:
    """An index of the rows `where` holds: for SQLite at once, for PostgreSQL through
    `with_postgresql_options()` (naming PostgreSQL here would load its dialect, about 2 MB,
    into a bot that records in SQLite)."""
    index = Index(name, *columns, sqlite_where=where)
    index.info["where"] = where
    return index


def with_postgresql_options() -> MetaData:
    """`metadata` with what PostgreSQL's DDL needs too (the partial indexes' predicates): for
    Alembic, which compares the schema with it."""
    for table in metadata.tables.values():
        for index in table.indexes:
            if "where" in index.info:
                index.dialect_options["postgresql"]["where"] = index.info["where"]
    return metadata


games = Table(
    "games",
    metadata,
    Column("game_id", BigInteger, primary_key=True, autoincrement=False),
    Column("x_player", BigInteger),  # NULL: that player deleted their data; 0: the bot
    Column("o_player", BigInteger),
    Column("level", String(16)),
    # The moves in order, NULL when unknown: classic, each cell 0-8 as a digit; ultimate, each
    # move 9 * board + cell as two base-9 digits (its board, then its cell).
    Column("moves", String(162)),
    # The final board, row by row, "X", "O" or "-": classic, 9 cells; ultimate, 81 (index
    # 9 * board + cell).
    Column("board", String(81), nullable=False),
    Column("winner", String(1)),
    Column("finish", String(16), nullable=False),
    Column("counted", Boolean, nullable=False),
    Column("started_at", Double, nullable=False),
    Column("ended_at", Double, nullable=False),
    Column("guild_id", BigInteger),
    Column("place", String(16), nullable=False),
    Column("user_installed", Boolean, nullable=False),
    Column("locale", String(16), nullable=False),
    # The kind of board (bot.core.finished.FinishedGame.kind); rows from before the column
    # (migration 0005) are classic.
    Column("kind", String(16), nullable=False, server_default=text(f"'{CLASSIC}'")),
)
Index(None, games.c.x_player, games.c.ended_at)
Index(None, games.c.o_player, games.c.ended_at)

players = Table(
    "players",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("rating", Double),
    Column("deviation", Double),
    Column("volatility", Double),
    _count("rated_games"),
    _count("people_wins"),
    _count("people_draws"),
    _count("people_losses"),
    _count("streak"),
    _count("best_streak"),
    _count("unbeaten_impossible"),
    _count("best_unbeaten_impossible"),
    _count("wins_hard"),
    _count("bot_games"),
)
_partial_index(
    "ix_players_rating",
    players.c.rating,
    players.c.user_id,
    where=players.c.rating.is_not(None),
)
_partial_index(
    "ix_players_bot_board",
    players.c.best_unbeaten_impossible,
    players.c.wins_hard,
    players.c.user_id,
    players.c.bot_games,  # covering: SQLite checks the filter on the index, not the table
    where=players.c.bot_games > 0,
)

bot_tallies = Table(
    "bot_tallies",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("level", String(16), primary_key=True),
    _count("wins"),
    _count("draws"),
    _count("losses"),
)

memberships = Table(
    "memberships",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    # Copies of the player's row, kept equal by every write that changes it.
    Column("rating", Double),
    _count("best_unbeaten_impossible"),
    _count("wins_hard"),
    _count("bot_games"),
)
Index(None, memberships.c.user_id)
_partial_index(
    "ix_memberships_rating",
    memberships.c.guild_id,
    memberships.c.rating,
    memberships.c.user_id,
    where=memberships.c.rating.is_not(None),
)
_partial_index(
    "ix_memberships_bot_board",
    memberships.c.guild_id,
    memberships.c.best_unbeaten_impossible,
    memberships.c.wins_hard,
    memberships.c.user_id,
    memberships.c.bot_games,
    where=memberships.c.bot_games > 0,
)


def shows_on_bot_board(row: Mapping[str, Any]) -> bool:
    """Whether a player's (member's) row has something to show on the bot board: a game
    without a loss against Impossible, or a win against Hard (what bot_board_filter says in
    SQL; board_sizes counts these)."""
    return bool(
        row["bot_games"] > 0 and (row["best_unbeaten_impossible"] > 0 or row["wins_hard"] > 0)
    )


def bot_board_filter(table: Table) -> list[Any]:
    """shows_on_bot_board in SQL. The literal 0s, not bound parameters: only then can SQLite
    (and PostgreSQL's generic plans for asyncpg's prepared statements) see that the partial
    index's `bot_games > 0` applies. The rows with nothing to show sort last in that index
    (both numbers 0), so a page never reads past the rows it shows for them."""
    zero: ColumnElement[int] = literal_column("0")
    return [
        table.c.bot_games > zero,
        or_(table.c.best_unbeaten_impossible > zero, table.c.wins_hard > zero),
    ]


EVERYONE = 0  # board_sizes' guild_id for the boards of everyone

board_sizes = Table(
    "board_sizes",
    metadata,
    # How many rows each board has, kept with the rows: counting 100,000 index entries per page
    # turned would cost more than the page itself.
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),  # or EVERYONE
    _count("rated"),  # rating board: players (members) with a rating
    _count("vs_bot"),  # bot board: players (members) with a counted game against the bot
)


# Every kind of game other than classic keeps its players' numbers here, keyed by its kind:
# classic's tables and queries stay as they were. The same numbers as classic's, but no bot
# board (its numbers are about Impossible, a classic player that never loses).
variant_players = Table(
    "variant_players",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("kind", String(16), primary_key=True),
    Column("rating", Double),
    Column("deviation", Double),
    Column("volatility", Double),
    _count("rated_games"),
    _count("people_wins"),
    _count("people_draws"),
    _count("people_losses"),
    _count("streak"),
    _count("best_streak"),
    _count("bot_games"),
)
_partial_index(
    "ix_variant_players_rating",
    variant_players.c.kind,
    variant_players.c.rating,
    variant_players.c.user_id,
    where=variant_players.c.rating.is_not(None),
)

variant_bot_tallies = Table(
    "variant_bot_tallies",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("kind", String(16), primary_key=True),
    Column("level", String(16), primary_key=True),
    _count("wins"),
    _count("draws"),
    _count("losses"),
)

variant_memberships = Table(
    "variant_memberships",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("rating", Double),  # a copy of the player's, kept equal
)
Index(None, variant_memberships.c.user_id)
_partial_index(
    "ix_variant_memberships_rating",
    variant_memberships.c.kind,
    variant_memberships.c.guild_id,
    variant_memberships.c.rating,
    variant_memberships.c.user_id,
    where=variant_memberships.c.rating.is_not(None),
)

variant_board_sizes = Table(
    "variant_board_sizes",
    metadata,
    Column("kind", String(16), primary_key=True),
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),  # or EVERYONE
    _count("rated"),  # a variant's rating board: players (members) with a rating
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("attempt_id", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger),  # NULL: the player deleted their data
    Column("puzzle_id", String(3), nullable=False),
    Column("puzzle_rating", Integer, nullable=False),  # the engine's initial rating
    Column("solved", Boolean, nullable=False),
    Column("state", String(16), nullable=False),  # tictactoe.puzzles.encode: the moves
    Column("daily", String(10)),  # the day's puzzle: its UTC date (ISO)
    Column("rated", Boolean, nullable=False),
    Column("ended_at", Double, nullable=False),
    Column("guild_id", BigInteger),
    Column("locale", String(16), nullable=False),
)
Index(None, puzzle_attempts.c.user_id, puzzle_attempts.c.daily)

puzzle_players = Table(
    "puzzle_players",
    metadata,
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("rating", Double, nullable=False),
    Column("deviation", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    _count("attempts"),  # rated attempts
    _count("solved"),
    _count("streak"),  # solved in a row, up to the last rated attempt
    _count("best_streak"),
)
Index(None, puzzle_players.c.rating, puzzle_players.c.user_id)

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle_id", String(3), primary_key=True),
    Column("rating", Double, nullable=False),
    Column("deviation", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    _count("attempts"),
)

puzzle_memberships = Table(
    "puzzle_memberships",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("rating", Double, nullable=False),  # a copy of the player's, kept equal
)
Index(None, puzzle_memberships.c.user_id)
Index(
    None, puzzle_memberships.c.guild_id, puzzle_memberships.c.rating, puzzle_memberships.c.user_id
)


def _mark_columns(mark: str) -> list[Column[Any]]:
    """A mark's emoji (bot.core.server.Mark): a custom emoji's id and name, or a standard
    emoji's text (id NULL); all NULL: the letter."""
    return [
        Column(f"{mark}_emoji_id", BigInteger),
        Column(f"{mark}_emoji_text", String(100)),
        Column(f"{mark}_emoji_animated", Boolean, nullable=False),
    ]


server_settings = Table(
    "server_settings",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("games_per_channel", Integer, nullable=False),
    Column("difficulty", String(16), nullable=False),
    Column("turn_timeout", Integer),  # seconds; NULL: the bot's GAME_TIMEOUT_SECONDS
    *_mark_columns("x"),
    *_mark_columns("o"),
    Column("challenge_cooldown", Integer, nullable=False),  # seconds; 0 is off
    Column("updated_at", Double, nullable=False),  # unix seconds
    # /tictactoe's kind of board when the player names none (bot.core.server.VARIANT_CHOICES)
    Column("variant", String(16), server_default=text("'classic'"), nullable=False),
)


def puzzle_attempt_row(attempt: PuzzleAttempt) -> dict[str, Any]:
    return {
        "attempt_id": attempt.attempt_id,
        "user_id": attempt.user_id,
        "puzzle_id": attempt.puzzle_id,
        "puzzle_rating": attempt.puzzle_rating,
        "solved": attempt.solved,
        "state": attempt.state,
        "daily": attempt.daily,
        "rated": attempt.rated,
        "ended_at": attempt.ended_at,
        "guild_id": attempt.guild_id,
        "locale": attempt.locale,
    }


def puzzle_attempt_record(row: Mapping[Any, Any]) -> PuzzleAttempt:
    return PuzzleAttempt(
        attempt_id=row["attempt_id"],
        user_id=row["user_id"],
        puzzle_id=row["puzzle_id"],
        puzzle_rating=row["puzzle_rating"],
        solved=bool(row["solved"]),
        state=row["state"],
        daily=row["daily"],
        rated=bool(row["rated"]),
        ended_at=row["ended_at"],
        guild_id=row["guild_id"],
        locale=row["locale"],
    )


GAME_COLUMNS = tuple(column.name for column in games.c)


def moves_text(kind: str, moves: tuple[int, ...] | None) -> str | None:
    """games.moves: a classic move (a cell, 0-8) as one digit; another kind's (9 * board +
    cell, 0-80) as two base-9 digits, its board's then its cell's."""
    if moves is None:
        return None
    if kind == CLASSIC:
        return "".join(map(str, moves))
    return "".join(f"{move // 9}{move % 9}" for move in moves)


def moves_of(kind: str, moves: str | list[int] | None) -> tuple[int, ...] | None:
    """The moves of a games row (moves_text), or of a spool's line (a list)."""
    if moves is None:
        return None
    if not isinstance(moves, str):
        return tuple(moves)
    if kind == CLASSIC:
        return tuple(int(cell) for cell in moves)
    return tuple(int(moves[index : index + 2], 9) for index in range(0, len(moves), 2))


def game_values(game: GameRecord) -> tuple[Any, ...]:
    """A game's row: the values of GAME_COLUMNS, in that order."""
    return (
        game.game_id,
        game.x_player,
        game.o_player,
        game.level,
        moves_text(game.kind, game.moves),
        game.board,
        game.winner,
        game.finish.value,
        game.counted,
        game.started_at,
        game.ended_at,
        game.guild_id,
        game.place.value,
        game.user_installed,
        game.locale,
        game.kind,
    )


def game_row(game: GameRecord) -> dict[str, Any]:
    return dict(zip(GAME_COLUMNS, game_values(game), strict=True))


def game_record(row: Mapping[Any, Any]) -> GameRecord:
    moves = row["moves"]
    kind = row.get("kind", CLASSIC)  # a spool's line from before kinds has none
    return GameRecord(
        game_id=row["game_id"],
        x_player=row["x_player"],
        o_player=row["o_player"],
        level=row["level"],
        moves=moves_of(kind, moves),
        board=row["board"],
        winner=row["winner"],
        finish=Finish(row["finish"]),
        counted=bool(row["counted"]),
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        guild_id=row["guild_id"],
        place=Place(row["place"]),
        user_installed=bool(row["user_installed"]),
        locale=row["locale"],
        kind=kind,
    )
