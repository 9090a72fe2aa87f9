"""Puzzle attempts in the records, on a real SQLite file and a real PostgreSQL server: stored
once by their id, rated as a game between the player and the puzzle, the day's puzzle rated
once, streaks, the Puzzles board, forgetting a player, and the writer's spool."""

from __future__ import annotations

import pytest

from bot.core.rating import START, puzzle_start, rate_attempt
from bot.records.api import PuzzleAttempt
from bot.records.spool import Spool
from bot.records.sql import paging
from bot.records.sql.storage import Storage, open_records
from bot.records.writer import RecordWriter
from tests.support.records import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    OTHER_GUILD,
    X_WINS,
    game_id,
    record,
)
from tictactoe import puzzles

T0 = 1_800_000_000.0
FIRST, SECOND = puzzles.puzzles()[0], puzzles.puzzles()[1]


def attempt(
    n: int,
    user: int | None = ALICE,
    *,
    solved: bool = True,
    puzzle: puzzles.Puzzle = FIRST,
    daily: str | None = None,
    rated: bool = True,
    guild: int | None = GUILD,
) -> PuzzleAttempt:
    return PuzzleAttempt(
        attempt_id=game_id(n),
        user_id=user,
        puzzle_id=puzzle.id,
        puzzle_rating=puzzle.rating,
        solved=solved,
        state=f"{puzzle.id}0",
        daily=daily,
        rated=rated,
        ended_at=T0 + n,
        guild_id=guild,
        locale="en-US",
    )


@pytest.fixture
async def records(database_url):
    storage = await open_records(database_url)
    yield storage
    await storage.close()


async def test_an_attempt_is_rated_as_a_game_against_the_puzzle(records):
    assert await records.record_puzzles([attempt(1)]) == 1
    expected, puzzle_after = rate_attempt(START, puzzle_start(FIRST.rating), True)
    stats = (await records.stats(ALICE, None)).puzzles
    assert stats is not None
    assert stats.rating.value == pytest.approx(expected.value)
    assert (stats.attempts, stats.solved, stats.streak, stats.best_streak) == (1, 1, 1, 1)
    assert (await records.puzzle_ratings())[FIRST.id].value == pytest.approx(puzzle_after.value)
    player = await records.puzzle_player(ALICE, "2027-01-15")
    assert player.rating is not None
    assert player.rating.value == pytest.approx(expected.value)
    assert not player.tried_daily


async def test_recording_an_attempt_again_changes_nothing(records):
    await records.record_puzzles([attempt(1)])
    before = (await records.stats(ALICE, None)).puzzles
    assert await records.record_puzzles([attempt(1), attempt(1)]) == 0
    assert (await records.stats(ALICE, None)).puzzles == before


async def test_streaks_count_solved_puzzles_in_a_row(records):
    results = [True, True, False, True, True, True, False]
    await records.record_puzzles([attempt(n, solved=solved) for n, solved in enumerate(results, 1)])
    stats = (await records.stats(ALICE, None)).puzzles
    assert stats is not None
    assert (stats.attempts, stats.solved, stats.streak, stats.best_streak) == (7, 5, 0, 3)


async def test_failing_lowers_the_rating_and_raises_the_puzzles(records):
    await records.record_puzzles([attempt(1, solved=False), attempt(2, BOB, puzzle=SECOND)])
    alice = (await records.stats(ALICE, None)).puzzles
    assert alice is not None
    assert alice.rating.value < START.value
    assert (await records.puzzle_ratings())[FIRST.id].value > FIRST.rating


async def test_the_days_puzzle_is_rated_once_a_day(records):
    day = "2027-01-15"
    await records.record_puzzles([attempt(1, daily=day)])
    assert (await records.puzzle_player(ALICE, day)).tried_daily
    assert not (await records.puzzle_player(BOB, day)).tried_daily
    once = (await records.stats(ALICE, None)).puzzles
    # A second try, even one the bot thought rated (another process), is stored unrated.
    assert await records.record_puzzles([attempt(2, daily=day, solved=False)]) == 1
    assert (await records.stats(ALICE, None)).puzzles == once
    await records.record_puzzles([attempt(3, daily="2027-01-16", solved=False)])
    after = (await records.stats(ALICE, None)).puzzles
    assert after is not None
    assert after.attempts == 2


async def test_the_puzzles_board_ranks_by_puzzle_rating_here_and_everywhere(records):
    await records.record_puzzles(
        [
            attempt(1, ALICE, solved=True),
            attempt(2, BOB, solved=False),
            attempt(3, CAROL, solved=True, guild=OTHER_GUILD),
            attempt(4, CAROL, solved=True, puzzle=SECOND, guild=OTHER_GUILD),
        ]
    )
    everyone = await records.puzzle_board(None, 0, 10)
    assert [row.user_id for row in everyone.rows] == [CAROL, ALICE, BOB]
    assert [row.rank for row in everyone.rows] == [1, 2, 3]
    here = await records.puzzle_board(GUILD, 0, 10)
    assert [row.user_id for row in here.rows] == [ALICE, BOB]
    paged = await records.puzzle_board(None, 1, 2)
    assert ([row.user_id for row in paged.rows], paged.pages, paged.total) == ([BOB], 2, 3)


async def test_the_puzzles_board_stops_at_its_top_rows_like_every_board(records, monkeypatch):
    monkeypatch.setattr(paging, "MAX_BOARD_ROWS", 2)
    await records.record_puzzles([attempt(n, 300 + n) for n in range(5)])
    first = await records.puzzle_board(None, 0, 1)
    assert (first.pages, first.total) == (2, 5)
    last = await records.puzzle_board(None, 4, 1)  # past the cap: its last page
    assert (last.page, [row.rank for row in last.rows]) == (1, [2])


async def test_forgetting_a_player_deletes_their_puzzle_rating(records):
    await records.record_puzzles([attempt(1), attempt(2, BOB)])
    await records.record([record(3, ALICE, BOB, X_WINS)])
    await records.forget(ALICE)
    assert (await records.stats(ALICE, None)).puzzles is None
    assert [row.user_id for row in (await records.puzzle_board(GUILD, 0, 10)).rows] == [BOB]
    assert (await records.puzzle_player(ALICE, "")).rating is None


async def test_the_writer_stores_games_and_attempts_and_spools_both(database_url, tmp_path):
    storage = await open_records(database_url)
    spool = tmp_path / "spool.jsonl"
    try:
        writer = RecordWriter(storage, spool)
        await writer.start()
        writer.submit(record(1, ALICE, BOB, X_WINS))
        writer.submit(attempt(2))
        assert await writer.flush()
        stats = await storage.stats(ALICE, None)
        assert stats.vs_people.wins == 1
        assert stats.puzzles is not None
        assert stats.puzzles.attempts == 1
        await writer.close()
    finally:
        await storage.close()
    # What a stopped writer left in the spool is written at the next start.
    spool.write_text("")
    storage = await open_records(database_url)
    try:
        left = Spool(spool)  # as a writer stopped with the database down leaves it
        left.open()
        left.append([attempt(5, BOB), record(6, BOB, ALICE, X_WINS)])
        left.close()
        writer = RecordWriter(storage, spool)
        assert await writer.start() == 2
        assert await writer.flush()
        bob = await storage.stats(BOB, None)
        assert bob.puzzles is not None
        assert bob.vs_people.wins == 1
        await writer.close()
    finally:
        await storage.close()


class Watched(Storage):
    """The storage, noting how many items the writer held in memory at each batch it wrote."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.writer: RecordWriter | None = None
        self.held: list[int] = []

    async def record(self, games):
        assert self.writer is not None
        self.held.append(self.writer.in_memory)
        return await super().record(games)

    async def record_puzzles(self, attempts):
        assert self.writer is not None
        self.held.append(self.writer.in_memory)
        return await super().record_puzzles(attempts)


async def test_a_spool_longer_than_memory_gives_back_games_and_attempts_once(
    database_url, tmp_path
):
    spool = tmp_path / "spool.jsonl"
    left = Spool(spool)  # as a writer stopped during an outage leaves it, one batch twice
    left.open()
    items = [
        item
        for n in range(0, 20, 2)
        for item in (record(n, ALICE, BOB, X_WINS), attempt(n + 1, CAROL, solved=n % 4 == 0))
    ]
    left.append(items)
    left.append(items[:6])
    left.close()

    storage = Watched(database_url)
    await storage.migrate()
    writer = RecordWriter(storage, spool, batch_size=2, max_in_memory=3)
    storage.writer = writer
    try:
        assert await writer.start() == 20
        writer.submit(attempt(40, BOB))  # arrives while the backlog is read back
        assert await writer.flush()
        assert writer.written == 21
        assert max(storage.held) <= 3 + 1  # the bound, and the attempt submitted meanwhile
        alice = await storage.stats(ALICE, None)
        assert alice.vs_people.wins == 10
        carol = (await storage.stats(CAROL, None)).puzzles
        assert carol is not None
        assert (carol.attempts, carol.solved) == (10, 5)
        bob = (await storage.stats(BOB, None)).puzzles
        assert bob is not None
        assert bob.attempts == 1
        assert spool.read_text() == ""
    finally:
        await writer.close()
        await storage.close()
