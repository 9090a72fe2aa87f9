"""Benchmark the records storage: /stats and the leaderboards with 1,000,000 recorded games and
100,000 players, and games recorded per second, on SQLite and PostgreSQL.

Run from anywhere with `python benchmarks/records.py` (both backends; `--backend sqlite` or
`--backend postgresql` for one, `--games 20000 --players 2000` for a quick run). PostgreSQL is a
throwaway server started the way the tests start theirs (testdb/postgres.py), or the one
`--postgresql-url` names (its database must be empty). It prints a report and always exits 0.

1. Check: a few thousand games seeded in bulk and the same games recorded one batch at a time
   through `Storage.record` leave identical aggregate tables (players, bot_tallies, memberships,
   board_sizes): seeding takes a shortcut in how rows reach the database, not in what they say.
2. Seed: the games, their aggregates worked out by the storage's own per-game code
   (`count_game`), inserted in bulk, then ANALYZE.
3. Reads: p50 / p99 of `stats` (a random player, in their server), `rating_board` and
   `bot_board` (the largest server and everyone; first page and a deep page), each called
   repeatedly. Target: p99 <= 50 ms.
4. Writes: games recorded per second through `Storage.record`, in batches of 100 and 500 new
   games (new and returning players, every aggregate updated); and the CPU per game written
   through the bot's RecordWriter (spool on), in its threads and in the whole process: games
   ending one every 10 ms (the writer lingers, as in the bot), and flushed one at a time and
   ten at a time (median of 3; `--writer-only` for these alone, on a new database). Target:
   <= 100 µs per game in the writer's threads on SQLite, games ending one every 10 ms
   (on PostgreSQL asyncpg works on the event loop: the whole process's figure is the cost).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import Connection, Table, insert, select, text  # noqa: E402

from benchmarks.lib.measure import other_threads_seconds, thread_cpu_seconds  # noqa: E402
from benchmarks.lib.ours import (  # noqa: E402
    AI,
    EVERYONE,
    MAX_BOARD_ROWS,
    MEMBER_COLUMNS,
    FinishedGame,
    Game,
    GameRecord,
    Place,
    RecordWriter,
    Storage,
    board_sizes,
    bot_tallies,
    count_game,
    game_row,
    games,
    memberships,
    open_records,
    players,
    shows_on_bot_board,
)
from testdb.postgres import start_server  # noqa: E402
from tictactoe import DIFFICULTIES  # noqa: E402

TARGET_P99_MS = 50.0
# CPU per game of the RecordWriter's threads on SQLite (its work in the background), games
# ending one at a time, many a second (its lingering then makes batches of them).
TARGET_WRITER_US = 100
# Finished games as move lists: X wins, O wins, a draw, a short X win.
ENDINGS = (
    (0, 3, 1, 4, 2),
    (3, 0, 4, 1, 8, 2),
    (0, 1, 2, 4, 3, 5, 7, 6, 8),
    (4, 0, 8, 2, 6, 3, 1, 5, 7),
)
CHUNK = 20_000  # games generated and inserted at a time
FIRST_USER = 100_000_000_000_000_000
FIRST_GUILD = 900_000_000_000_000_000
GAME_ID_BASE = 1_300_000_000_000_000_000


class World:
    """Players spread over servers like a real bot's: one big server (a fifth of everyone),
    the rest in many small ones; half the games against the bot, a tenth in DMs."""

    def __init__(self, players: int, guilds: int, seed: int = 1) -> None:
        self.players = players
        self.guilds = guilds
        self.rng = random.Random(seed)
        self.home = [
            0 if index % 5 == 0 else 1 + index % max(guilds - 1, 1) for index in range(players)
        ]
        self.members: dict[int, list[int]] = {}
        for index, guild in enumerate(self.home):
            self.members.setdefault(guild, []).append(index)

    def user(self, index: int) -> int:
        return FIRST_USER + index

    def guild(self, number: int) -> int:
        return FIRST_GUILD + number

    def games(self, start: int, count: int) -> Iterator[GameRecord]:
        rng = self.rng
        for number in range(start, start + count):
            first = rng.randrange(self.players)
            home = self.home[first]
            in_dm = rng.random() < 0.1
            moves = ENDINGS[rng.randrange(len(ENDINGS))]
            if rng.random() < 0.5:
                level = DIFFICULTIES[rng.randrange(len(DIFFICULTIES))]
                x, o = (self.user(first), AI) if rng.random() < 0.5 else (AI, self.user(first))
            else:
                level = None
                mates = self.members[home]
                second = mates[rng.randrange(len(mates))]
                if second == first:
                    second = (first + 1) % self.players
                x, o = self.user(first), self.user(second)
            game = Game.from_moves(x, o, level, moves)
            guild = None if in_dm else self.guild(home)
            place = Place.DM if in_dm else Place.SERVER
            finished = FinishedGame(
                GAME_ID_BASE + (number << 22), game, 1.7e9 + number, guild, place, False
            )
            yield GameRecord.from_finished(finished)


async def seed(storage: Storage, world: World, count: int, progress: bool = True) -> float:
    """Insert `count` games and their aggregates in bulk; seconds taken."""
    started = time.perf_counter()
    states: dict[int, dict[str, Any]] = {}
    tallies: dict[tuple[int, str], list[int]] = {}
    joined: set[tuple[int, int]] = set()
    blank = {c.name: (0 if c.server_default is not None else None) for c in players.c}
    for start in range(0, count, CHUNK):
        chunk = list(world.games(start, min(CHUNK, count - start)))
        for game in chunk:
            if not game.counted:
                continue
            people = [p for p in (game.x_player, game.o_player) if p not in (None, AI)]
            for person in people:
                if person not in states:
                    states[person] = {**blank, "user_id": person}
                if game.guild_id is not None:
                    joined.add((game.guild_id, person))
            count_game(game, states, tallies)
        rows = [game_row(game) for game in chunk]
        await storage.database.run(functools.partial(_insert_all, games, rows), write=True)
        if progress:
            print(f"\r  seeding: {start + len(chunk):,} games", end="", flush=True)
    if progress:
        print()

    def aggregates(connection: Connection) -> None:
        rows = list(states.values())
        for start in range(0, len(rows), CHUNK):
            connection.execute(insert(players), rows[start : start + CHUNK])
        tally_rows = [
            {"user_id": user, "level": level, "wins": w, "draws": d, "losses": lo}
            for (user, level), (w, d, lo) in tallies.items()
        ]
        for start in range(0, len(tally_rows), CHUNK):
            connection.execute(insert(bot_tallies), tally_rows[start : start + CHUNK])
        member_rows = [
            {"guild_id": guild, "user_id": user, **{n: states[user][n] for n in MEMBER_COLUMNS}}
            for guild, user in joined
        ]
        for start in range(0, len(member_rows), CHUNK):
            connection.execute(insert(memberships), member_rows[start : start + CHUNK])
        sizes: dict[int, list[int]] = {EVERYONE: [0, 0]}
        for guild, user in [(EVERYONE, user) for user in states] + list(joined):
            size = sizes.setdefault(guild, [0, 0])
            size[0] += states[user]["rating"] is not None
            size[1] += shows_on_bot_board(states[user])
        connection.execute(
            insert(board_sizes),
            [{"guild_id": g, "rated": r, "vs_bot": b} for g, (r, b) in sizes.items() if r or b],
        )

    await storage.database.run(aggregates, write=True)
    # As autovacuum would have by then (PostgreSQL): statistics, and the visibility map that
    # lets a deep page read the index alone.
    analyze = "VACUUM ANALYZE" if storage.backend == "postgresql" else "ANALYZE"
    await storage.database.run(lambda c: c.execute(text(analyze)), autocommit=True)
    return time.perf_counter() - started


def _insert_all(table: Table, rows: list[dict[str, Any]], connection: Connection) -> None:
    connection.execute(insert(table), rows)


async def aggregates(storage: Storage) -> list[list[tuple[Any, ...]]]:
    def read(connection: Connection) -> list[list[tuple[Any, ...]]]:
        found = []
        for table, key in (
            (players, players.c.user_id),
            (bot_tallies, (bot_tallies.c.user_id, bot_tallies.c.level)),
            (memberships, (memberships.c.guild_id, memberships.c.user_id)),
            (board_sizes, board_sizes.c.guild_id),
        ):
            order = key if isinstance(key, tuple) else (key,)
            rows = connection.execute(select(table).order_by(*order))
            found.append([_rounded(tuple(row)) for row in rows])
        return found

    return await storage.database.run(read)


def _rounded(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(round(value, 6) if isinstance(value, float) else value for value in row)


async def check(make_url: Callable[[str], Awaitable[str]]) -> str:
    """Seed 3,000 games in bulk into one database and record them for real into another."""
    world_games = 3_000
    bulk = await open_records(await make_url("bulk"))
    real = await open_records(await make_url("real"))
    try:
        await seed(bulk, World(300, 20), world_games, progress=False)
        sample = list(World(300, 20).games(0, world_games))
        for start in range(0, len(sample), 100):
            await real.record(sample[start : start + 100])
        same = await aggregates(bulk) == await aggregates(real)
    finally:
        await bulk.close()
        await real.close()
    return "identical" if same else "DIFFERENT (the seeding is wrong: figures below mean nothing)"


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> tuple[float, float]:
    for _ in range(5):
        await call()
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


async def reads(storage: Storage, world: World, repeat: int) -> list[tuple[str, float, float]]:
    rng = random.Random(2)
    big = world.guild(0)
    per_page = 10
    results = []

    async def stats() -> None:
        index = rng.randrange(world.players)
        await storage.stats(world.user(index), world.guild(world.home[index]))

    results.append(("stats (random player, their server)", *await timed(stats, repeat)))
    for name, board in (("rating_board", storage.rating_board), ("bot_board", storage.bot_board)):
        for where, guild in (("largest server", big), ("everyone", None)):
            total = (await board(guild, 0, per_page)).total
            # The middle page, or the deepest a board goes (bot.records.sql.reading).
            deep = max(min(total // per_page // 2, MAX_BOARD_ROWS // per_page - 1), 0)

            def first(board: Any = board, guild: int | None = guild) -> Awaitable[object]:
                return board(guild, 0, per_page)

            def middle(
                board: Any = board, guild: int | None = guild, deep: int = deep
            ) -> Awaitable[object]:
                return board(guild, deep, per_page)

            label = f"{name}, {where} ({total:,} rows)"
            results.append((f"{label}, page 1", *await timed(first, repeat)))
            results.append((f"{label}, page {deep + 1:,}", *await timed(middle, repeat)))
    return results


async def writes(
    storage: Storage, world: World, first_game: int, batch: int, batches: int
) -> float:
    sample = list(world.games(first_game, batch * batches))
    started = time.perf_counter()
    for start in range(0, len(sample), batch):
        written = await storage.record(sample[start : start + batch])
        assert written == batch
    return len(sample) / (time.perf_counter() - started)


async def writer_cpu(
    storage: Storage,
    world: World,
    first_game: int,
    games_: int,
    spool: Path,
    batch: int = 1,
    every: float = 0.0,
) -> tuple[float, float]:
    """CPU per game written by the bot's RecordWriter (its spool on) into `storage`, µs per
    game: `batch` games submitted at once and flushed, or (`every` seconds) one game at a time,
    as games end, the writer lingering as in the bot. Two figures: the writer's threads (the
    database's, the spool's fsyncs: its work in the background, as real_process.py's "other
    threads" count it), and the whole process, the event loop's own cost of waiting `every`
    (measured alone first) taken off (submit() on the loop, each game's line appended)."""
    writer = RecordWriter(storage, spool)
    await writer.start()
    sample = list(world.games(first_game, games_))
    idle = 0.0
    if every:
        started = time.process_time()
        for _ in sample:
            await asyncio.sleep(every)
        idle = time.process_time() - started
    threads_before = thread_cpu_seconds(os.getpid())
    started = time.process_time()
    if every:
        for game in sample:
            writer.submit(game)
            await asyncio.sleep(every)
        assert await writer.flush(60)
    else:
        for start in range(0, len(sample), batch):
            for game in sample[start : start + batch]:
                writer.submit(game)
            assert await writer.flush(60)
    spent = time.process_time() - started - idle
    background = other_threads_seconds(threads_before, thread_cpu_seconds(os.getpid()))
    assert await writer.close() == 0
    return background / len(sample) * 1e6, spent / len(sample) * 1e6


async def writer_figures(
    storage: Storage, world: World, first: int, games_: int, spool: Path
) -> None:
    """Print the RecordWriter's CPU per game, each the median of three runs, after one run
    not counted: a process's first writes compile the statements (once in a bot's life)."""
    await writer_cpu(storage, world, first, games_, spool, batch=10)
    first += games_
    cases = (
        ("one game every 10 ms (lingering)", {"every": 0.01}),
        ("games one at a time", {"batch": 1}),
        ("ten at a time", {"batch": 10}),
    )
    for label, how in cases:
        runs = []
        for _ in range(3):
            runs.append(await writer_cpu(storage, world, first, games_, spool, **how))
            first += games_
        background = statistics.median(run[0] for run in runs)
        whole = statistics.median(run[1] for run in runs)
        verdict = ""
        if "every" in how and storage.backend == "sqlite":
            verdict = "ok" if background <= TARGET_WRITER_US else "FAIL"
            verdict += f" (target <= {TARGET_WRITER_US} µs)"
        elif "every" in how:  # asyncpg's work is on the event loop: the whole process's figure
            verdict = "(PostgreSQL: the writer works on the event loop)"
        print(
            f"  RecordWriter CPU per game, {label}: in its threads {background:,.0f} µs "
            f"(runs {', '.join(f'{run[0]:,.0f}' for run in runs)}) {verdict}; "
            f"whole process {whole:,.0f} µs (runs {', '.join(f'{run[1]:,.0f}' for run in runs)})"
        )


async def run_backend(backend: str, args: argparse.Namespace) -> None:
    print(f"\n== {backend} ==")
    server = None
    scratch = Path(tempfile.mkdtemp(prefix="records-bench-"))
    try:
        if backend == "postgresql" and args.postgresql_url:
            url = args.postgresql_url

            async def make_url(name: str) -> str:
                raise RuntimeError("no check against an external server")

            verdict = "skipped (external server)"
        else:
            if backend == "postgresql":
                # Durable, as a real server is (the tests' servers are not): commits wait for
                # the disk, and VACUUM can mark pages all-visible right after the seeding.
                server = start_server(
                    {
                        "fsync": "on",
                        "synchronous_commit": "on",
                        "full_page_writes": "on",
                        "shared_buffers": "256MB",
                        "max_wal_size": "4GB",
                    }
                )
                if server is None:
                    print("  PostgreSQL is not installed: skipped")
                    return

            async def make_url(name: str) -> str:
                if server is None:
                    return f"sqlite+aiosqlite:///{scratch / (name + '.db')}"
                server.sql(f"CREATE DATABASE {name}")
                return server.url(name)

            if args.writer_only:
                storage = await open_records(await make_url("writer"))
                world = World(args.players, args.guilds)
                await writer_figures(storage, world, 0, args.writer_games, scratch / "spool.jsonl")
                await storage.close()
                return
            verdict = await check(make_url)
            url = await make_url("bench")
        print(f"  seeding shortcut vs Storage.record, 3,000 games: aggregates {verdict}")
        storage = await open_records(url)
        world = World(args.players, args.guilds)
        seconds = await seed(storage, world, args.games)
        print(f"  seeded {args.games:,} games, {args.players:,} players in {seconds:.0f} s")
        ok = True
        print(f"  {'query':<58} {'p50 ms':>8} {'p99 ms':>8}")
        for label, p50, p99 in await reads(storage, world, args.repeat):
            met = p99 <= TARGET_P99_MS
            ok &= met
            print(f"  {label:<58} {p50:8.2f} {p99:8.2f}  {'ok' if met else 'FAIL'}")
        print(f"  target p99 <= {TARGET_P99_MS:.0f} ms: {'met' if ok else 'NOT met'}")
        first = args.games
        for batch in (100, 500):
            rate = await writes(storage, world, first, batch, args.batches)
            first += batch * args.batches
            print(f"  Storage.record, batches of {batch}: {rate:,.0f} games/s")
        await writer_figures(storage, world, first, args.writer_games, scratch / "spool.jsonl")
        await storage.close()
    finally:
        if server is not None:
            server.destroy()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--guilds", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=500, help="calls per query")
    parser.add_argument("--batches", type=int, default=20, help="batches per write figure")
    parser.add_argument(
        "--writer-games", type=int, default=300, help="games per RecordWriter CPU figure"
    )
    parser.add_argument(
        "--writer-only",
        action="store_true",
        help="only the RecordWriter's CPU per game, into a new database",
    )
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--postgresql-url", help="an empty PostgreSQL database to use instead")
    args = parser.parse_args()
    backends = ("sqlite", "postgresql") if args.backend == "both" else (args.backend,)
    for backend in backends:
        asyncio.run(run_backend(backend, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
