"""Recorded games, stats and leaderboards as plain values (pure: no I/O, no Discord).

`Records` is what the rest of the bot asks of storage; `bot.records.sql.storage` implements it on
SQLAlchemy (SQLite or PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic, Protocol, TypeVar

from bot.core.finished import (
    Finish,
    FinishedGame,
    Place,
    counts,
    ending_of,
    snowflake_time,
    winner_of,
)
from bot.core.game import DELETED_PLAYER, Game
from bot.core.rating import Rating
from bot.core.server import ServerSettings
from bot.core.ultimate_game import ULTIMATE, UltimateGame

# Discord wants an answer within 3 seconds of the interaction: a read of the records for one
# (/stats, /leaderboard, a puzzle rating) waits this long at most; the rest is the network's.
READ_TIMEOUT_SECONDS = 2.0
CLASSIC = "classic"  # the kind of every game recorded before there were kinds
VARIANTS = (ULTIMATE,)  # the other kinds, each with ratings and tallies of its own

RowT = TypeVar("RowT")


class RecordsError(Exception):
    """The one error the records raise to the rest of the bot: the database failed, timed out
    or cannot be used as it is; str() is one line without the URL's password."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game as stored. A player id of None: that player deleted their data."""

    game_id: int  # the board message's id (see bot.core.finished.FinishedGame)
    x_player: int | None  # bot.core.game.AI for the bot
    o_player: int | None
    level: str | None  # the bot's difficulty, when the bot played
    # In order; None when unknown. Classic: cells 0-8; ultimate: 9 * board + cell, 0-80.
    moves: tuple[int, ...] | None
    # The final board, "X", "O" or "-" a cell: classic, 9 row by row; ultimate, 81 (index
    # 9 * board + cell).
    board: str
    winner: str | None  # "X", "O", or None for a draw (or a game that counts for nobody)
    finish: Finish
    counted: bool  # False for a game abandoned before both sides moved: kept, not counted
    started_at: float  # unix seconds
    ended_at: float
    guild_id: int | None
    place: Place
    user_installed: bool
    locale: str  # the board's language
    kind: str = CLASSIC  # the kind of board (FinishedGame.kind)

    @classmethod
    def from_finished(cls, finished: FinishedGame) -> GameRecord:
        """The record of a game that has just ended.

        - Three in a row wins; a full board with no line is a draw; resigning loses.
        - Expired: the player to move ran out of time and loses (against the bot that is
          always the person, whose move it is whenever the board waits).
        - A game abandoned (resigned or expired) before both sides moved is kept but counts for
          nobody: `counted` is False and `winner` None. No tally, streak or rating sees it.
        - It started when its board was posted: the time in the board message's snowflake.

        The same for an ultimate game (its `kind` ULTIMATE), with three small boards in a line
        for three in a row and every small board closed for a full board.
        """
        game = finished.game
        if not game.is_over:
            raise ValueError("only a finished game is recorded")
        if isinstance(game, UltimateGame):
            if finished.kind != ULTIMATE:
                raise ValueError(f"an ultimate game announced as {finished.kind!r}")
            flat: tuple[str | None, ...] = game.cells
        elif finished.kind == CLASSIC:
            flat = (*game.board[0], *game.board[1], *game.board[2])
        else:
            raise ValueError(f"a classic game announced as {finished.kind!r}")
        finish = Finish.of(game)
        counted = counts(game)
        winner = winner_of(game, finish) if counted else None
        return cls(
            game_id=finished.game_id,
            x_player=game.x_player,
            o_player=game.o_player,
            level=game.difficulty,
            moves=game.moves,
            board="".join(cell or "-" for cell in flat),
            winner=winner,
            finish=finish,
            counted=counted,
            started_at=snowflake_time(finished.game_id),
            ended_at=finished.ended_at,
            guild_id=finished.guild_id,
            place=finished.place,
            user_installed=finished.user_installed,
            locale=game.locale,
            kind=finished.kind,
        )

    def to_game(self) -> Game:
        """The recorded game as the bot's Game (the inverse of from_finished), for its review.
        A seat emptied by /forget-me holds DELETED_PLAYER (or the one after it, when both
        players deleted their data). Classic games only: another kind's review comes with
        that kind."""
        if self.kind != CLASSIC:
            raise ValueError(f"a {self.kind} game is not a classic board: no review for it yet")
        x = DELETED_PLAYER if self.x_player is None else self.x_player
        o = DELETED_PLAYER if self.o_player is None else self.o_player
        if x == o:  # both deleted their data
            o = DELETED_PLAYER + 1
        ending = ending_of(self.finish, self.winner)
        return Game.from_moves(x, o, self.level, self.moves or (), ending, self.locale)


@dataclass(frozen=True, slots=True)
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    vs_bot: dict[str, Tally] = field(default_factory=dict)  # by level, levels played only
    vs_people: Tally = Tally()
    current_streak: int = 0  # wins in a row, up to the last counted game
    best_streak: int = 0
    rating: Rating | None = None  # None until a rated game
    rank: int | None = None  # by rating, among the rated players of the server (or everyone)
    recent: tuple[GameRecord, ...] = ()  # newest first
    puzzles: PuzzleStats | None = None  # None before their first rated puzzle
    variants: tuple[VariantStats, ...] = ()  # the other kinds they played, in VARIANTS' order


@dataclass(frozen=True, slots=True)
class VariantStats:
    """A player's numbers in a kind of game other than classic (ultimate): its own tallies,
    streaks and rating, as PlayerStats has for classic."""

    kind: str
    vs_bot: dict[str, Tally] = field(default_factory=dict)
    vs_people: Tally = Tally()
    current_streak: int = 0
    best_streak: int = 0
    rating: Rating | None = None
    rank: int | None = None  # by this kind's rating, in the server (or everyone)

    @property
    def games(self) -> int:
        return self.vs_people.games + sum(tally.games for tally in self.vs_bot.values())


@dataclass(frozen=True, slots=True)
class RatingRow:
    rank: int
    user_id: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class BotRow:
    """One player against the bot: what means something in a game the bot never loses."""

    rank: int
    user_id: int
    best_unbeaten_impossible: int  # longest run of games without a loss against Impossible
    wins_hard: int
    games: int  # counted games against the bot, any level


@dataclass(frozen=True, slots=True)
class Page(Generic[RowT]):
    rows: tuple[RowT, ...]
    page: int  # 0-based
    pages: int  # at least 1
    total: int  # rows on every page together


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    """One finished puzzle attempt, as the puzzles announce it (`puzzle_finished`) and the
    records store it: a game between the player and the puzzle, rated as on lichess."""

    attempt_id: int  # the snowflake of the interaction that showed the puzzle: stable
    user_id: int | None  # None: the player deleted their data
    puzzle_id: str
    puzzle_rating: int  # the puzzle's initial rating (the engine's), until it has a stored one
    solved: bool
    state: str  # tictactoe.puzzles.encode of the finished attempt: its moves
    daily: str | None  # the day's puzzle: its UTC date (ISO); None for a picked puzzle
    rated: bool  # False for another try at the day's puzzle
    ended_at: float  # unix seconds
    guild_id: int | None
    locale: str


# What the writer stores: finished games and finished puzzle attempts, through the same queue,
# spool and retries; each kind by its own stable id.
Item = GameRecord | PuzzleAttempt
Key = tuple[bool, int]  # (a puzzle attempt?, its id)


def key_of(item: Item) -> Key:
    if isinstance(item, PuzzleAttempt):
        return True, item.attempt_id
    return False, item.game_id


def without_player(item: Item, user_id: int) -> Item:
    """The item with the player's seat emptied, as `Records.forget` leaves stored ones."""
    if isinstance(item, PuzzleAttempt):
        return replace(item, user_id=None) if item.user_id == user_id else item
    if user_id not in (item.x_player, item.o_player):
        return item
    return replace(
        item,
        x_player=None if item.x_player == user_id else item.x_player,
        o_player=None if item.o_player == user_id else item.o_player,
    )


@dataclass(frozen=True, slots=True)
class PuzzleStats:
    rating: Rating
    attempts: int
    solved: int
    streak: int  # solved in a row, up to the last attempt
    best_streak: int


@dataclass(frozen=True, slots=True)
class PuzzlePlayer:
    """What /puzzle reads before showing a puzzle: the player's puzzle rating (None before
    their first rated attempt) and whether they tried the day's puzzle already."""

    rating: Rating | None
    tried_daily: bool


class Records(Protocol):
    """What the bot asks of storage. Every method may raise when the database is down."""

    async def record(self, games: Sequence[GameRecord]) -> int:
        """Store finished games and update every aggregate and rating they change, in one
        transaction; idempotent by game_id (a game already stored changes nothing, whichever
        process stored it). Returns how many were new."""
        ...

    async def stats(self, user_id: int, guild_id: int | None, recent: int = 5) -> PlayerStats:
        """A player's stats; `rank` among the rated players of `guild_id` (None: everyone)."""
        ...

    async def game(self, game_id: int) -> GameRecord | None: ...

    async def record_puzzles(self, attempts: Sequence[PuzzleAttempt]) -> int:
        """Store finished puzzle attempts and rate them (player and puzzle), in one
        transaction; idempotent by attempt_id. Returns how many were new."""
        ...

    async def puzzle_player(self, user_id: int, day: str) -> PuzzlePlayer:
        """A player's puzzle rating, and whether they tried the puzzle of `day` (ISO date)."""
        ...

    async def puzzle_ratings(self) -> dict[str, Rating]:
        """Every puzzle's stored rating, by puzzle id (puzzles nobody tried are left out)."""
        ...

    async def puzzle_board(self, guild_id: int | None, page: int, per_page: int) -> Page[RatingRow]:
        """Players by puzzle rating, best first: those who played in `guild_id` (None:
        everyone)."""
        ...

    async def rating_board(
        self, guild_id: int | None, page: int, per_page: int, kind: str = CLASSIC
    ) -> Page[RatingRow]:
        """Players who played `kind` in `guild_id` (None: everywhere), best rating in that kind
        first."""
        ...

    async def bot_board(self, guild_id: int | None, page: int, per_page: int) -> Page[BotRow]:
        """Players against the bot, longest unbeaten run against Impossible first, then wins
        against Hard."""
        ...

    async def forget(self, user_id: int) -> int:
        """Delete everything about a player: their aggregates and rating go, their seat in
        recorded games becomes None (their opponents keep their own counts). Returns how many
        games named them."""
        ...

    async def load_settings(self, guild_id: int) -> ServerSettings | None:
        """A server's stored /settings; None when it saved none (RecordsError if it failed)."""
        ...

    async def load_many_settings(self, guild_ids: Collection[int]) -> dict[int, ServerSettings]:
        """The stored settings of those servers that have any, in few queries."""
        ...

    async def save_settings(self, guild_id: int, settings: ServerSettings) -> None: ...

    async def delete_settings(self, guild_id: int) -> None: ...

    async def close(self) -> None: ...


class GameWriter(Protocol):
    """What the rest of the bot needs of the background writer (bot.records.writer)."""

    on_write: Callable[[float], None]

    @property
    def pending(self) -> int: ...

    @property
    def failing(self) -> str | None: ...

    def submit(self, record: GameRecord | PuzzleAttempt) -> None: ...

    async def flush(self, wait: float = ..., *, retry: bool = ...) -> bool:
        """True once nothing is pending; False if `wait` seconds passed first (or, without
        `retry`, a write failed)."""
        ...

    async def forget(self, user_id: int, wait: float = ...) -> int:
        """Records.forget, after writing what is pending, and the player taken out of the
        games still waiting; how many stored games named them (RecordsError if it failed)."""
        ...

    async def close(self) -> int:
        """Write or spool what is pending; how many games were left for the next start."""
        ...
