"""`Records` on SQLAlchemy's async Core: SQLite (aiosqlite) by default, PostgreSQL (asyncpg)
when several bot processes share one database or the disk does not last.

Exactly once: a game's row is keyed by its board message's id and inserted with
INSERT ... ON CONFLICT DO NOTHING RETURNING; the aggregates (players, bot_tallies, memberships)
change in the same transaction, and only for the rows that insert returned. A retried batch, a
replayed spool or a second process recording the same game inserts nothing and changes nothing.
Concurrent writers on PostgreSQL: inserting a game another transaction has just inserted waits
for that transaction and then does nothing; the players a batch changes are locked
(SELECT ... FOR UPDATE) before their rows are read, so read-modify-write of ratings and streaks
never interleaves. Every writer takes its locks in the same order (games by id, then players by
id), so writers wait for each other but cannot deadlock; a deadlock or serialization failure
reported anyway is retried. On SQLite a write transaction starts with BEGIN IMMEDIATE: writers,
in one process or several, take turns.

What counts is decided when a game is made a record (`GameRecord.from_finished`); here a game
that does not count (`counted` False: abandoned before both sides moved) is stored and changes
nothing else. Streaks and ratings follow games in the order they are recorded (within a batch,
by when they ended).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    delete,
    event,
    func,
    literal_column,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from ..domain.finished import Place
from . import rating as glicko
from .model import (
    BOT_PLAYER,
    BotRow,
    Finish,
    GameRecord,
    Page,
    PlayerStats,
    Rating,
    RatingRow,
    Tally,
)
from .schema import bot_tallies, games, memberships, players
from .url import UnsupportedDatabaseError, describe, parse_url, safe_url

__all__ = [
    "DatabaseAheadError",
    "RecordsError",
    "Storage",
    "UnsupportedDatabaseError",
    "open_records",
    "parse_url",
    "safe_url",
]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 10.0  # seconds: connecting, waiting for a lock, running one statement
MIGRATIONS = "bot.records:migrations"
_WRITE = "tictactoe_write"  # execution option: this transaction writes (SQLite: BEGIN IMMEDIATE)
_CHUNK = 500  # rows per multi-row INSERT (15 columns: well under either driver's parameter cap)
_RETRIES = 5
_RETRYABLE_SQLSTATES = ("40001", "40P01")  # serialization failure, deadlock detected
_MIGRATION_LOCK = 7_160_316  # PostgreSQL advisory lock: one process migrates at a time

_T = TypeVar("_T")


class RecordsError(Exception):
    """A problem with the records database that retrying will not fix; str() is one line."""


class DatabaseAheadError(RecordsError):
    """The database was migrated by a newer version of the bot than this one."""


async def open_records(
    url: str | URL, *, query_timeout: float = DEFAULT_TIMEOUT, required: bool = True
) -> Storage:
    """Storage on `url`, migrated to the newest schema.

    Raises DatabaseAheadError when the database is newer than this code (the bot says so in
    one line and exits 2). When the database cannot be reached: with `required`, the driver's
    error; without, one warning, and a Storage that migrates on its first successful use (the
    bot starts anyway; the writer keeps the games until the database is back).
    """
    storage = Storage(url, query_timeout=query_timeout)
    try:
        await storage.migrate()
    except RecordsError:
        await storage.close()
        raise
    except Exception as error:
        if required:
            await storage.close()
            raise
        log.warning(
            "The records database %s cannot be reached (%s); games are kept until it is back",
            safe_url(storage.url),
            describe(error),
        )
    except BaseException:
        await storage.close()
        raise
    return storage


class Storage:
    """`Records` on SQLite or PostgreSQL. Creating one does no I/O; the schema is migrated on
    `migrate()` or, failing that, before the first query."""

    def __init__(self, url: str | URL, *, query_timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = parse_url(url)
        self.engine = _create_engine(self.url, query_timeout)
        self._migrated = False
        self._migrating = asyncio.Lock()

    def __repr__(self) -> str:
        return f"Storage({safe_url(self.url)!r})"

    @property
    def backend(self) -> str:
        return self.url.get_backend_name()

    async def migrate(self) -> None:
        """Bring the schema to the newest revision (no-op when it is); DatabaseAheadError if
        the database has a revision this code does not know."""
        async with self._migrating:
            if self._migrated:
                return
            async with self.engine.connect() as connection:
                await connection.execution_options(**{_WRITE: True})
                async with connection.begin():
                    await connection.run_sync(_upgrade)
            self._migrated = True

    async def close(self) -> None:
        await self.engine.dispose()

    # Writing

    async def record(self, games_: Sequence[GameRecord]) -> int:
        if not games_:
            return 0
        return await self._write(lambda connection: _record(connection, games_))

    async def forget(self, user_id: int) -> int:
        if user_id == BOT_PLAYER:
            raise ValueError("the bot's own seat is not a person's data")
        return await self._write(lambda connection: _forget(connection, user_id))

    # Reading

    async def game(self, game_id: int) -> GameRecord | None:
        async with self._read() as connection:
            row = (
                await connection.execute(select(games).where(games.c.game_id == game_id))
            ).first()
        return None if row is None else _game_record(row._mapping)

    async def stats(self, user_id: int, guild_id: int | None, recent: int = 5) -> PlayerStats:
        async with self._read() as connection:
            return await connection.run_sync(lambda sync: _stats(sync, user_id, guild_id, recent))

    async def rating_board(self, guild_id: int | None, page: int, per_page: int) -> Page[RatingRow]:
        async with self._read() as connection:
            return await connection.run_sync(
                lambda sync: _rating_board(sync, guild_id, page, per_page)
            )

    async def bot_board(self, guild_id: int | None, page: int, per_page: int) -> Page[BotRow]:
        async with self._read() as connection:
            return await connection.run_sync(
                lambda sync: _bot_board(sync, guild_id, page, per_page)
            )

    # Transactions

    async def _write(self, work: Callable[[Connection], _T]) -> _T:
        await self.migrate()
        for attempt in range(1, _RETRIES + 1):
            async with self.engine.connect() as connection:
                try:
                    await connection.execution_options(**{_WRITE: True})
                    async with connection.begin():
                        return await connection.run_sync(work)
                except DBAPIError as error:
                    if attempt == _RETRIES or _sqlstate(error) not in _RETRYABLE_SQLSTATES:
                        # The next try gets a new connection: this one may stay broken (an
                        # SQLite file opened while its disk was read-only stays read-only).
                        await connection.invalidate()
                        raise
                    log.debug("Retrying a write after %s", _sqlstate(error))
        raise AssertionError("unreachable")

    def _read(self) -> _ReadTransaction:
        return _ReadTransaction(self)


class _ReadTransaction:
    """A read-only transaction: one consistent view for the several queries of a stats card."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._connection: AsyncConnection | None = None

    async def __aenter__(self) -> AsyncConnection:
        await self._storage.migrate()
        self._connection = await self._storage.engine.connect()
        await self._connection.begin()
        return self._connection

    async def __aexit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        assert self._connection is not None
        try:
            if exc_type is not None and issubclass(exc_type, DBAPIError):
                await self._connection.invalidate()  # as in Storage._write
            else:
                await self._connection.rollback()
        finally:
            await self._connection.close()


def _sqlstate(error: DBAPIError) -> str | None:
    orig = error.orig
    return getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)


def _create_engine(url: URL, timeout: float) -> AsyncEngine:
    if url.get_backend_name() == "postgresql":
        milliseconds = str(round(timeout * 1000))
        return create_async_engine(
            url,
            pool_pre_ping=True,  # a server restarted since: find out before a query fails
            connect_args={
                "timeout": timeout,
                "command_timeout": timeout * 2,  # a server that stopped answering at all
                "server_settings": {
                    "application_name": "tictactoe-bot",
                    "statement_timeout": milliseconds,
                    "lock_timeout": milliseconds,
                },
            },
        )
    database = url.database or ""
    if database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, connect_args={"timeout": timeout})

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: object) -> None:
        # Transactions are begun below, not by the driver, so that writers can BEGIN IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            # Readers never wait for the writer (persistent: the first connection sets it).
            cursor.execute("PRAGMA journal_mode=WAL")
        except Exception as error:  # a read-only or full file: writes will say so
            log.debug("Could not switch SQLite to WAL: %s", error)
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A writer takes the write lock at once: two writers that both start by reading would
        # otherwise deadlock when both try to write (SQLITE_BUSY without waiting).
        writes = connection.get_execution_options().get(_WRITE)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    return engine


# Migrations


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the packaged migrations (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
    config = alembic_config(connection)
    script = ScriptDirectory.from_config(config)
    known = {revision.revision for revision in script.walk_revisions()}
    current = MigrationContext.configure(connection).get_current_heads()
    unknown = sorted(set(current) - known)
    if unknown:
        raise DatabaseAheadError(
            f"the records database {safe_url(connection.engine.url)} is at schema revision "
            f"{', '.join(unknown)}, newer than this bot knows (newest "
            f"{script.get_current_head()}): run the newer bot, or point DATABASE_URL elsewhere"
        )
    command.upgrade(config, "head")


# Writing games


def _insert(connection: Connection, table: Table) -> Any:
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _chunks(items: Sequence[_T], size: int = _CHUNK) -> Iterator[Sequence[_T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _game_row(game: GameRecord) -> dict[str, Any]:
    return {
        "game_id": game.game_id,
        "x_player": game.x_player,
        "o_player": game.o_player,
        "level": game.level,
        "moves": None if game.moves is None else "".join(map(str, game.moves)),
        "board": game.board,
        "winner": game.winner,
        "finish": game.finish.value,
        "counted": game.counted,
        "started_at": game.started_at,
        "ended_at": game.ended_at,
        "guild_id": game.guild_id,
        "place": game.place.value,
        "user_installed": game.user_installed,
        "locale": game.locale,
    }


def _game_record(row: Mapping[Any, Any]) -> GameRecord:
    moves = row["moves"]
    return GameRecord(
        game_id=row["game_id"],
        x_player=row["x_player"],
        o_player=row["o_player"],
        level=row["level"],
        moves=None if moves is None else tuple(int(cell) for cell in moves),
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
    )


_PLAYER_COLUMNS = tuple(column.name for column in players.c if column.name != "user_id")
_MEMBER_COLUMNS = ("rating", "best_unbeaten_impossible", "wins_hard", "bot_games")


def _record(connection: Connection, batch: Sequence[GameRecord]) -> int:
    # Games in id order: concurrent writers meet on the same rows in the same order.
    ordered = sorted({game.game_id: game for game in batch}.values(), key=lambda g: g.game_id)
    new_ids: set[int] = set()
    for chunk in _chunks(ordered):
        statement = (
            _insert(connection, games)
            .values([_game_row(game) for game in chunk])
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
    tallies: dict[tuple[int, str], list[int]] = {}
    joined: set[tuple[int, int]] = set()
    for game in counted:
        _count_game(game, states, tallies)
        if game.guild_id is not None:
            joined.update(
                (game.guild_id, player)
                for player in (game.x_player, game.o_player)
                if player is not None and player != BOT_PLAYER
            )
    connection.execute(
        update(players)
        .where(players.c.user_id == bindparam("b_user_id"))
        .values({name: bindparam(f"b_{name}") for name in _PLAYER_COLUMNS}),
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
    for pairs in _chunks(sorted(joined)):
        connection.execute(
            _insert(connection, memberships)
            .values([{"guild_id": guild_id, "user_id": user_id} for guild_id, user_id in pairs])
            .on_conflict_do_nothing(index_elements=[memberships.c.guild_id, memberships.c.user_id])
        )
    connection.execute(
        update(memberships)
        .where(memberships.c.user_id == bindparam("b_user_id"))
        .values({name: bindparam(f"b_{name}") for name in _MEMBER_COLUMNS}),
        [
            {f"b_{name}": states[user_id][name] for name in ("user_id", *_MEMBER_COLUMNS)}
            for user_id in people
        ],
    )


_TALLY_INDEX = {1: 0, 0: 1, -1: 2}  # wins, draws, losses


def _outcome(game: GameRecord, mark: str) -> int:
    """1 a win, 0 a draw, -1 a loss, for the side playing `mark`."""
    if game.winner is None:
        return 0
    return 1 if game.winner == mark else -1


def _count_game(
    game: GameRecord,
    states: dict[int, dict[str, Any]],
    tallies: dict[tuple[int, str], list[int]],
) -> None:
    sides = [(game.x_player, "X"), (game.o_player, "O")]
    if BOT_PLAYER in (game.x_player, game.o_player):
        for player, mark in sides:
            if player is None or player == BOT_PLAYER:
                continue
            outcome = _outcome(game, mark)
            state = states[player]
            level = game.level or "unknown"
            tallies.setdefault((player, level), [0, 0, 0])[_TALLY_INDEX[outcome]] += 1
            state["bot_games"] += 1
            if level == "hard" and outcome == 1:
                state["wins_hard"] += 1
            if level == "impossible":
                run = 0 if outcome == -1 else state["unbeaten_impossible"] + 1
                state["unbeaten_impossible"] = run
                state["best_unbeaten_impossible"] = max(run, state["best_unbeaten_impossible"])
            _streak(state, outcome)
        return
    for player, mark in sides:
        if player is None:
            continue
        outcome = _outcome(game, mark)
        state = states[player]
        column = {1: "people_wins", 0: "people_draws", -1: "people_losses"}[outcome]
        state[column] += 1
        _streak(state, outcome)
    if game.x_player is None or game.o_player is None:
        return
    x_state, o_state = states[game.x_player], states[game.o_player]
    x_rating, o_rating = glicko.rate_game(
        _rating(x_state) or glicko.START,
        _rating(o_state) or glicko.START,
        (_outcome(game, "X") + 1) / 2,
    )
    _set_rating(x_state, x_rating)
    _set_rating(o_state, o_rating)


def _streak(state: dict[str, Any], outcome: int) -> None:
    state["streak"] = state["streak"] + 1 if outcome == 1 else 0
    state["best_streak"] = max(state["streak"], state["best_streak"])


def _rating(state: Mapping[Any, Any]) -> Rating | None:
    if state["rating"] is None:
        return None
    return Rating(state["rating"], state["deviation"], state["volatility"], state["rated_games"])


def _set_rating(state: dict[str, Any], rating: Rating) -> None:
    state["rating"] = rating.value
    state["deviation"] = rating.deviation
    state["volatility"] = rating.volatility
    state["rated_games"] = rating.games


def _forget(connection: Connection, user_id: int) -> int:
    connection.execute(
        select(players.c.user_id).where(players.c.user_id == user_id).with_for_update()
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


# Reading


def _stats(connection: Connection, user_id: int, guild_id: int | None, recent: int) -> PlayerStats:
    recent_games = _recent(connection, user_id, recent)
    row = connection.execute(select(players).where(players.c.user_id == user_id)).first()
    if row is None:
        return PlayerStats(user_id=user_id, recent=recent_games)
    state = row._mapping
    vs_bot = {
        level: Tally(wins, draws, losses)
        for level, wins, draws, losses in connection.execute(
            select(
                bot_tallies.c.level, bot_tallies.c.wins, bot_tallies.c.draws, bot_tallies.c.losses
            ).where(bot_tallies.c.user_id == user_id)
        )
    }
    rating = _rating(state)
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
        found.extend(_game_record(row) for row in rows)
    found.sort(key=lambda game: (game.ended_at, game.game_id), reverse=True)
    return tuple(found[:count])


def _page_bounds(total: int, page: int, per_page: int) -> tuple[int, int]:
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    pages = max(1, math.ceil(total / per_page))
    return min(max(page, 0), pages - 1), pages


def _board_page(
    connection: Connection,
    source: Table,
    where: list[Any],
    order: list[Any],
    page: int,
    per_page: int,
) -> tuple[list[int], int, int, int]:
    """The user ids on one page of a board, best first, with the page (clamped), the number of
    pages and the total. The ids come from the board's index alone (user_id is its last
    column): skipping to a deep page reads index entries only, not table rows."""
    total = int(
        connection.execute(select(func.count()).select_from(source).where(*where)).scalar_one()
    )
    page, pages = _page_bounds(total, page, per_page)
    ids = connection.execute(
        select(source.c.user_id)
        .where(*where)
        .order_by(*order)
        .offset(page * per_page)
        .limit(per_page)
    ).scalars()
    return list(ids), page, pages, total


def _rating_board(
    connection: Connection, guild_id: int | None, page: int, per_page: int
) -> Page[RatingRow]:
    source: Table = players if guild_id is None else memberships
    where: list[Any] = [source.c.rating.is_not(None)]
    if guild_id is not None:
        where.append(memberships.c.guild_id == guild_id)
    order = [source.c.rating.desc(), source.c.user_id.desc()]
    ids, page, pages, total = _board_page(connection, source, where, order, page, per_page)
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


def _bot_board(
    connection: Connection, guild_id: int | None, page: int, per_page: int
) -> Page[BotRow]:
    source: Table = players if guild_id is None else memberships
    # A literal 0, not a bound parameter: only then can SQLite (and PostgreSQL's generic plans
    # for asyncpg's prepared statements) see that the partial index's `bot_games > 0` applies.
    where: list[Any] = [source.c.bot_games > literal_column("0")]
    if guild_id is not None:
        where.append(memberships.c.guild_id == guild_id)
    order = [
        source.c.best_unbeaten_impossible.desc(),
        source.c.wins_hard.desc(),
        source.c.user_id.desc(),
    ]
    ids, page, pages, total = _board_page(connection, source, where, order, page, per_page)
    numbers = {
        user_id: (unbeaten, wins_hard, games)
        for user_id, unbeaten, wins_hard, games in connection.execute(
            select(
                source.c.user_id,
                source.c.best_unbeaten_impossible,
                source.c.wins_hard,
                source.c.bot_games,
            ).where(*where[1:], source.c.user_id.in_(ids))
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
