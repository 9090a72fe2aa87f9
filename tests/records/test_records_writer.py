"""The background writer on a real database: games submitted without waiting are recorded once,
a clean stop writes what is pending, the spool keeps what a stop could not write and the next
start records it, and a SIGKILL during an outage loses nothing that was spooled."""

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.game import Ending
from bot.records.api import Tally
from bot.records.spool import Spool, SpoolInUseError
from bot.records.sql.schema import game_record, game_row
from bot.records.sql.storage import Storage, open_records
from bot.records.writer import RecordWriter
from testdb.postgres import free_port
from tests.support.records import ALICE, BOB, CAROL, DRAW, GUILD, O_WINS, X_WINS, game_id, record
from tests.support.ultimate_records import DRAWN, playout, ultimate_record

REPO = Path(__file__).resolve().parents[2]
WRITER_LOG = "bot.records.writer"


def games(first: int, count: int):
    players = (ALICE, BOB, CAROL)
    return [
        record(n, players[n % 3], players[(n + 1) % 3], (X_WINS, O_WINS, DRAW)[n % 3])
        for n in range(first, first + count)
    ]


def unreachable_url() -> str:
    """A PostgreSQL URL where nothing listens: the database is down."""
    return f"postgresql+asyncpg://bot:secret@127.0.0.1:{free_port()}/records"


async def counted_games(records) -> int:
    """Games counted in the stats of all three players (each game has two of them)."""
    total = 0
    for player in (ALICE, BOB, CAROL):
        total += (await records.stats(player, GUILD)).vs_people.games
    return total // 2


@pytest.fixture
async def records(database_url):
    storage = await open_records(database_url)
    yield storage
    await storage.close()


async def test_submitted_games_are_written_in_the_background(records, tmp_path):
    writer = RecordWriter(records, tmp_path / "spool.jsonl")
    assert await writer.start() == 0
    batch = games(0, 30)
    for game in batch:
        writer.submit(game)  # returns at once: nothing awaited
    assert writer.pending == 30
    assert await writer.flush()
    assert (writer.pending, writer.failing, writer.written) == (0, None, 30)
    assert await counted_games(records) == 30
    assert await records.game(batch[7].game_id) == batch[7]
    for game in batch[:5]:
        writer.submit(game)  # a repeated announcement: already recorded
    assert await writer.close() == 0
    assert writer.written == 30
    assert await counted_games(records) == 30
    assert (tmp_path / "spool.jsonl").read_text() == ""


async def test_games_ending_close_together_share_one_transaction(records, tmp_path):
    """A game waits (safe in the spool) up to `linger` seconds for others to be written with
    it: one transaction for a burst of games instead of one each."""
    writer = RecordWriter(records, tmp_path / "spool.jsonl", linger=0.5)
    await writer.start()
    transactions: list[float] = []
    writer.on_write = transactions.append
    drained = asyncio.ensure_future(writer._drained.wait())
    for game in games(0, 10):
        writer.submit(game)
        for _ in range(20):  # let the writer take each game on its own, as games end apart
            await asyncio.sleep(0)
    assert (writer.written, writer.pending) == (0, 10)  # none written yet
    await asyncio.wait_for(drained, timeout=10)
    assert (len(transactions), writer.written) == (1, 10)
    assert await counted_games(records) == 10
    await writer.close()


async def test_a_flush_without_retries_ends_at_the_first_failed_write(tmp_path):
    """What a read asks before it reads: the lingering games written now, but a database that
    fails is not retried for it (the wait ends at once, well before `wait`)."""
    down = Storage(unreachable_url(), query_timeout=2)
    writer = RecordWriter(down, tmp_path / "spool.jsonl", first_retry=0.01, linger=3600)
    await writer.start()
    writer.submit(record(1, ALICE, BOB, X_WINS))
    async with asyncio.timeout(30):  # a flush with retries would wait all of its 60 s
        assert not await writer.flush(60, retry=False)
    assert writer.failing is not None
    assert writer.pending == 1
    await writer.close(0)
    await down.close()


async def test_games_submitted_before_start_wait_for_it(records, tmp_path):
    writer = RecordWriter(records, None)
    writer.submit(record(1, ALICE, BOB, X_WINS))
    assert not await writer.flush(0.05)
    await writer.start()
    assert await writer.flush()
    assert (await records.stats(ALICE, GUILD)).vs_people.wins == 1
    await writer.close()


async def test_a_stop_during_an_outage_leaves_the_games_for_the_next_start(
    database_url, tmp_path, caplog
):
    caplog.set_level(logging.INFO, logger=WRITER_LOG)
    spool = tmp_path / "data" / "spool.jsonl"
    down = Storage(unreachable_url(), query_timeout=2)
    writer = RecordWriter(down, spool, first_retry=0.01, last_retry=0.05)
    await writer.start()
    for game in games(0, 12):
        writer.submit(game)
    assert not await writer.flush(0.3)
    assert writer.failing is not None
    assert "secret" not in writer.failing
    assert await writer.close(0.1) == 12
    await down.close()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 2  # failing, then stopped with games left
    assert "Cannot record games" in warnings[0].getMessage()
    assert "12 game(s) not recorded" in warnings[1].getMessage()
    assert "secret" not in caplog.text
    assert len(spool.read_text().splitlines()) == 12

    # The next start: the database is back.
    records = await open_records(database_url)
    writer = RecordWriter(records, spool)
    assert await writer.start() == 12
    writer.submit(record(50, ALICE, BOB, X_WINS))
    assert await writer.flush()
    assert await counted_games(records) == 13
    assert await writer.close() == 0
    assert spool.read_text() == ""
    await records.close()


async def test_the_spool_skips_a_line_cut_short_and_repeats(tmp_path, records):
    spool = tmp_path / "spool.jsonl"
    kept = games(0, 3)
    lines = [json.dumps(game_row(game)) for game in [*kept, kept[0]]]
    spool.write_text("\n".join(lines) + "\n" + lines[1][: len(lines[1]) // 2])
    writer = RecordWriter(records, spool)
    assert await writer.start() == 3
    assert await writer.flush()
    assert await counted_games(records) == 3
    await writer.close()


def test_a_game_survives_the_spool_unchanged_and_older_spools_still_read(tmp_path):
    kept = [*games(0, 3), record(9, ALICE, BOB, (4,), ending=Ending.EXPIRED, guild=None)]
    path = tmp_path / "spool.jsonl"
    # A line as earlier versions wrote it: the game's database row (moves a string of digits).
    path.write_text(json.dumps(game_row(kept[0])) + "\n")
    spool = Spool(path)
    assert spool.open() == 1
    spool.append(kept[1:3])
    spool.add(kept[3])
    assert spool.read(0, 10) == (kept, path.stat().st_size)
    spool.close()


def test_a_spooled_game_keeps_its_kind_and_an_older_line_without_one_is_classic(tmp_path):
    classic = record(1, ALICE, BOB, X_WINS)
    other = replace(record(2, ALICE, BOB, O_WINS), kind="ultimate")
    path = tmp_path / "spool.jsonl"
    older = {name: value for name, value in game_row(classic).items() if name != "kind"}
    path.write_text(json.dumps(older) + "\n")  # as a bot from before kinds wrote it
    spool = Spool(path)
    assert spool.open() == 1
    spool.add(other)
    assert spool.read(0, 10) == ([classic, other], path.stat().st_size)
    spool.close()


async def test_two_writers_cannot_share_a_spool(records, tmp_path):
    first = RecordWriter(records, tmp_path / "spool.jsonl")
    await first.start()
    second = RecordWriter(records, tmp_path / "spool.jsonl")
    with pytest.raises(SpoolInUseError, match="DATA_DIR"):
        await second.start()
    await first.close()
    await second.start()  # free again
    await second.close()


async def test_forgetting_a_player_also_empties_their_seat_in_games_still_waiting(
    records, tmp_path
):
    writer = RecordWriter(records, tmp_path / "spool.jsonl")
    await writer.start()
    writer.submit(record(1, ALICE, BOB, X_WINS))
    assert await writer.flush()
    await writer.close()
    # A game ends while the player deletes their data, before the writer has written it.
    writer = RecordWriter(records, tmp_path / "spool.jsonl")
    writer.submit(record(2, BOB, ALICE, X_WINS))
    assert await writer.forget(ALICE, wait=0.01) == 1
    await writer.start()
    assert await writer.flush()
    assert (await records.stats(ALICE, None)).vs_people == Tally()
    assert (await records.stats(BOB, None)).vs_people == Tally(wins=1, losses=1)
    stored = await records.game(game_id(2))
    assert stored is not None
    assert (stored.x_player, stored.o_player) == (BOB, None)
    await writer.close()


# SIGKILL: a child process writes through a spool while the database is down, and is killed.

CHILD = """
import asyncio, sys
from dataclasses import replace
from pathlib import Path
from bot.records.sql.storage import Storage
from bot.records.writer import RecordWriter
from tests.support.records import record, X_WINS, ALICE, BOB

async def main(url, spool, count):
    writer = RecordWriter(Storage(url, query_timeout=2), spool, first_retry=0.01, last_retry=0.05)
    await writer.start()
    for n in range(count):
        writer.submit(record(n, ALICE, BOB, X_WINS))
    # Wait until everything is spooled, then say so and wait to be killed.
    while writer.at_risk:
        await asyncio.sleep(0.01)
    print("spooled", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])))
"""


async def test_a_sigkill_during_an_outage_loses_nothing_spooled(database_url, tmp_path):
    spool = tmp_path / "spool.jsonl"
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        unreachable_url(),
        str(spool),
        "40",
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert await child.stdout.readline() == b"spooled\n"
    finally:
        child.send_signal(signal.SIGKILL)
        await child.wait()
    assert child.returncode == -signal.SIGKILL
    records = await open_records(database_url)
    # Recorded once already by someone else (another process, before the outage): no matter.
    await records.record([record(3, ALICE, BOB, X_WINS)])
    writer = RecordWriter(records, spool)
    assert await writer.start() == 40
    assert await writer.flush()
    assert writer.written == 39
    alice = await records.stats(ALICE, None)
    assert alice.vs_people.wins == 40
    assert alice.rating is not None
    assert alice.rating.games == 40
    assert await records.game(game_id(39)) is not None
    await writer.close()
    await records.close()


def test_the_spool_file_holds_one_json_line_per_game(tmp_path):
    spool = Spool(tmp_path / "spool.jsonl")
    assert spool.open() == 0
    spool.append(games(0, 2))
    spool.append(games(2, 1))
    lines = (tmp_path / "spool.jsonl").read_text().splitlines()
    assert [json.loads(line)["game_id"] for line in lines] == [game_id(n) for n in range(3)]
    spool.clear()
    assert (tmp_path / "spool.jsonl").read_text() == ""
    spool.close()


class Watched(Storage):
    """The storage, noting how many games the writer held in memory at each batch it wrote."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.writer: RecordWriter | None = None
        self.held: list[int] = []

    async def record(self, games):
        assert self.writer is not None
        self.held.append(self.writer.in_memory)
        return await super().record(games)


async def test_a_spool_longer_than_memory_is_read_back_a_bounded_number_at_a_time(
    database_url, tmp_path
):
    spool = tmp_path / "spool.jsonl"
    down = Storage(unreachable_url(), query_timeout=2)
    writer = RecordWriter(down, spool, first_retry=0.01, last_retry=0.05, batch_size=2)
    await writer.start()
    for game in games(0, 30):
        writer.submit(game)
    assert await writer.close(0.1) == 30
    await down.close()

    records = Watched(database_url)
    await records.migrate()
    writer = RecordWriter(records, spool, batch_size=2, max_in_memory=4)
    records.writer = writer
    assert await writer.start() == 30
    writer.submit(record(50, ALICE, BOB, X_WINS))
    assert await writer.flush()
    assert (writer.written, await counted_games(records)) == (31, 31)
    assert max(records.held) <= 4 + 1  # the bound, and the game submitted meanwhile
    assert len(records.held) >= 31 // 2
    assert spool.read_text() == ""
    await writer.close()
    await records.close()


def spooled_ids(spool: Path) -> list[int]:
    return [json.loads(line)["game_id"] for line in spool.read_text().splitlines()]


async def test_a_submitted_game_is_in_the_spool_when_submit_returns(records, tmp_path):
    """A SIGKILL right after submit() loses nothing: the game is already in the file."""
    spool = tmp_path / "spool.jsonl"
    writer = RecordWriter(records, spool)
    await writer.start()
    game = record(1, ALICE, BOB, X_WINS)
    writer.submit(game)  # nothing awaited: the writer's task has not run since
    assert writer.at_risk == 0
    assert [game_record(json.loads(line)) for line in spool.read_text().splitlines()] == [game]
    assert await writer.close() == 0
    assert spool.read_text() == ""


class Paused(Storage):
    """The storage, each write held until `go` is set; the spool's games noted as each write
    starts."""

    def __init__(self, url: str, spool: Path) -> None:
        super().__init__(url)
        self.spool = spool
        self.writing = asyncio.Event()
        self.go = asyncio.Event()
        self.spooled_at_writes: list[list[int]] = []

    async def record(self, games):
        self.spooled_at_writes.append(spooled_ids(self.spool))
        self.writing.set()
        await self.go.wait()
        return await super().record(games)


async def test_the_spool_keeps_the_games_that_end_during_a_write(database_url, tmp_path):
    """After a write the spool holds the games not written yet, and only them."""
    spool = tmp_path / "spool.jsonl"
    records = Paused(database_url, spool)
    await records.migrate()
    writer = RecordWriter(records, spool, batch_size=2, linger=60)
    written = asyncio.Event()
    writer.on_write = lambda seconds: written.set()
    await writer.start()
    first, second, third, fourth = games(0, 4)
    writer.submit(first)
    writer.submit(second)  # a full batch: written at once
    await records.writing.wait()
    writer.submit(third)  # ends during the write
    records.go.set()
    await written.wait()
    writer.submit(fourth)  # a full batch again
    assert await writer.flush()
    assert records.spooled_at_writes == [
        [game_id(0), game_id(1)],
        [game_id(2), game_id(3)],
    ]
    assert (writer.written, await counted_games(records)) == (4, 4)
    await writer.close()
    assert spool.read_text() == ""
    await records.close()


async def test_ultimate_games_wait_in_the_spool_and_are_recorded_once_after_a_restart(
    database_url, tmp_path
):
    spool = tmp_path / "spool.jsonl"
    waiting = [
        ultimate_record(1, ALICE, BOB, playout("X")),
        ultimate_record(2, BOB, CAROL, playout(DRAWN), known_moves=False),
    ]
    down = Storage(unreachable_url(), query_timeout=2)
    writer = RecordWriter(down, spool, first_retry=0.01, last_retry=0.05)
    await writer.start()
    for game in waiting:
        writer.submit(game)
    assert await writer.close(0.1) == 2
    await down.close()

    records = await open_records(database_url)
    writer = RecordWriter(records, spool)
    assert await writer.start() == 2
    writer.submit(waiting[0])  # announced again: still once
    assert await writer.flush()
    assert [await records.game(game.game_id) for game in waiting] == waiting
    (alice,) = (await records.stats(ALICE, GUILD)).variants
    assert alice.vs_people == Tally(wins=1)
    await writer.close()
    await records.close()
