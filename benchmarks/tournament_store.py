"""Benchmark the tournament store: a Swiss of `--players` (64 by default) played through on
SQLite and PostgreSQL, every result recorded through `TournamentStore.record_result`.

Run from anywhere with `python benchmarks/tournament_store.py` (`--backend sqlite` or
`--backend postgresql` for one). PostgreSQL is a throwaway server started the way the tests
start theirs (testdb/postgres.py). Prints, per backend: p50 / p99 / max of a result that does
not end its round, of the result that ends a round (the next round paired in the same
transaction), and of `claim_posts` for a whole round. Always exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.records.sql.storage import open_records  # noqa: E402
from bot.tournaments.core import Format, Result  # noqa: E402
from bot.tournaments.store import TournamentStore  # noqa: E402


def milliseconds(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:6.1f} ms  p99 {p99 * 1000:6.1f} ms  "
        f"max {ordered[-1] * 1000:6.1f} ms  (n={len(ordered)})"
    )


async def run(url: str, players: int) -> None:
    storage = await open_records(url)
    store = TournamentStore(storage)
    try:
        created = await store.create(
            guild_id=1,
            channel_id=2,
            organiser_id=3,
            format_=Format.SWISS,
            rounds=None,
            variant="classic",
            name=None,
        )
        for player in range(10_000, 10_000 + players):
            await store.join(created.tournament_id, player)
        await store.start(created.tournament_id, thread_id=4)
        results: list[float] = []
        closing: list[float] = []
        claims: list[float] = []
        while True:
            started = time.perf_counter()
            boards = await store.claim_posts(created.tournament_id)
            if not boards:
                break
            claims.append(time.perf_counter() - started)
            for index, board in enumerate(boards):
                await store.mark_posted(board.key, 5_000 + index)
                outcome = Result.DRAW if index % 4 == 0 else Result.X_WON
                started = time.perf_counter()
                progress = await store.record_result(board.key, outcome)
                elapsed = time.perf_counter() - started
                (closing if progress.closed_rounds else results).append(elapsed)
        stored = await store.load(created.tournament_id)
        assert stored is not None
        print(f"  {len(stored.tournament.rounds)} rounds, state {stored.state}")
        print(f"  a result:                 {milliseconds(results)}")
        print(f"  the result ending a round: {milliseconds(closing)}")
        print(f"  claim_posts (a round):     {milliseconds(claims)}")
    finally:
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--backend", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    if args.backend in (None, "sqlite"):
        with tempfile.TemporaryDirectory() as directory:
            print(f"SQLite, {args.players} players:")
            asyncio.run(run(f"sqlite+aiosqlite:///{directory}/records.db", args.players))
    if args.backend in (None, "postgresql"):
        from testdb.postgres import start_server

        server = start_server({"fsync": "on", "synchronous_commit": "on"})  # as a real one
        if server is None:
            print("PostgreSQL is not installed: skipped")
            return
        try:
            with server.database("tournament_bench") as url:
                print(f"PostgreSQL, {args.players} players:")
                asyncio.run(run(url, args.players))
        finally:
            server.destroy()


if __name__ == "__main__":
    main()
