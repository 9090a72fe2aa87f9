"""Benchmark: the bot's CPU per click against a minimal discord.py handler, its garbage-collection
pauses, and its memory per live game, with thousands of games live at once.

    python benchmarks/bot_load.py                           # 1,000 and 10,000 games
    python benchmarks/bot_load.py --games 50000 --repeat 0     # GC and memory only
    python benchmarks/bot_load.py --games 2000 --profile    # where the bot's time goes
    python benchmarks/bot_load.py --games 10000 --record sqlite                  # recording on
    python benchmarks/bot_load.py --games 10000 --record postgresql --db-fault slow

A benchmark, not a test: it prints figures and PASS/FAIL against targets, and exits 0.

Both bots run in the same harness (fake_discord/): INTERACTION_CREATE frames decoded and parsed
by discord.py's gateway code, answers going through discord.py's HTTP stack to an in-process fake
of Discord's REST API, no socket.

  ours      TicTacToeBot. For each N: N users start N games (impossible level, playing X), one
            per text channel (servers of --channels-per-guild channels), then play them to the
            end, a round at a time (one click per live game per round, first empty cell), so
            all N games are live at once.
  baseline  a bare commands.AutoShardedBot (as ours is) with one on_interaction listener
            that answers every button click with a prebuilt message of the same shape as ours
            (--shape; "auto" copies the layout of our board: classic content + action rows,
            or a Components V2 container), through the same discord.py call
            InteractionResponse makes. Its N
            boards are posted as ours are, in answer to N /tictactoe commands (so Discord's
            copies carry the same fields); it gets as many clicks as ours.

The CPU figures come from paired runs (--repeat, default 3): both bots live in the same process
at once, and each click of ours is followed by one of the baseline's, so the machine's slow
spells (this one is shared: identical runs differ by 20%) fall on both alike. The GC figures
come from solo runs of each bot (--gc-repeat, default 1), where the heap holds one bot only.

Measured
  * CPU per click: thread CPU time (time.thread_time) from feeding the click's gateway frame
    (before its JSON is decoded) to discord.py handing the answer to the transport, minus the
    harness's own code in between; clicks are fed one at a time, each handled to the end
    before the next, so nothing else runs in that window. Also shown, for information: the
    whole click, including discord.py reading Discord's answer, minus the fake's work.
    p50 / p99 / mean in µs per paired run, median over the runs.
  * Garbage collection during play, from gc.callbacks (every collection, start to stop, with
    its generation; wall time, and CPU time to tell the machine's scheduler apart), after a
    gc.collect() once the games are started; plus an explicit gc.collect(2), timed, with the
    N games live and again after play: the least a full collection costs with the process's
    heap (discord.py's caches of N channels included). The harness's own records of users and
    channels are frozen (gc.freeze) before the servers are announced, so collections scan the
    bot's objects, and discord.py's, only.
  * Memory per live game: a separate run under tracemalloc; growth from starting N games
    (and again after one move each), minus what the harness itself came to hold (its deep
    size), divided by N. Cross-checked by the growth on lines that are not the harness's.

With --record sqlite|postgresql, instead: recording. Three bots live at once, clicks taking
turns: ours recording off, ours recording every finished game (the real writer and storage, a
fresh database: a SQLite file, or a PostgreSQL server started for the run as the tests start
it), and the baseline. Shown: CPU per click and per finishing click (the click that ends a game
and announces it), on against off and against the baseline; each click's wall time (feed to
handler done); how many games were recorded, and how fast the writer drains a backlog.
--db-fault slow|down makes the database hang (SQLite: another connection holds its write lock;
PostgreSQL: SIGSTOP) or go away (PostgreSQL stopped; a SQLite file cannot be taken away from
connections that have it open) for the whole play phase, then recover: no click may notice,
and every game is recorded after.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import math
import pstats
import random
import signal
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from benchmarks.lib.baseline import BASELINE_CELLS, BaselineBot
from benchmarks.lib.measure import (
    Figures,
    GcLog,
    LogCounter,
    machine,
    median,
    timed_full_collection,
    verdict,
)
from benchmarks.lib.ours import (
    FinishedGame,
    Game,
    GameRecord,
    Place,
    RecordWriter,
    Storage,
    TicTacToeBot,
)
from benchmarks.lib.world import (
    Clicks,
    World,
    bot_live_games,
    click_once,
    close_world,
    make_world,
    our_bot,
    play_once,
    start_games,
)

# Our CPU per click, at most this many times the baseline's. The baseline is the floor (a
# prebuilt answer), so this bounds our own work over it: 1.5x as first set, with the standard
# library's JSON. orjson (discord.py[speed], pinned in requirements-bot.txt) takes the same
# time off a click of either bot (the floor's JSON work, none of our own Python), so the same
# allowance over the floor is a higher ratio: 1.65x (derived from the measured figures in
# docs/performance.md, "orjson" and the restated target). Whether ours is at discord.py's own
# bot is benchmarks/real_process.py's target (<= 1.0x discord.py's example, same environment).
TARGET_RATIO = 1.65 if discord.utils.HAS_ORJSON else 1.5
TARGET_BYTES_PER_GAME = 1.5 * 1024
TARGET_FULL_GC_MS = ((10_000, 10.0), (50_000, 20.0))  # (up to N games, longest full GC)


# ---------------------------------------------------------------------------------- helpers


def full_gc_target_ms(n: int) -> float | None:
    for up_to, limit in TARGET_FULL_GC_MS:
        if n <= up_to:
            return limit
    return None


def heap_once_started() -> tuple[float, int]:
    """Once the games are started and the garbage collected: what a full collection costs at
    the least, and how many objects it scans."""
    gc.collect()
    return timed_full_collection(), len(gc.get_objects())


# ---------------------------------------------------------------------------------- the runs


@dataclass
class Run:
    """One run of one bot at one N."""

    live_after_start: int
    bot_live_after_start: int | None
    rounds: int
    clicks: Clicks
    gc: GcLog
    full_gc_live: float  # explicit gc.collect(2) with the N games live (timed_full_collection)
    full_gc_after: float  # the same after play
    tracked_objects: int  # objects the collector tracks (not frozen), N games live
    shape: str  # "classic" or "v2": the layout of the board messages
    errors: Counter[str]
    profile: str = ""


@dataclass
class Paired:
    """One paired run: both bots live at once, each click of ours followed by one of the
    baseline's, so that the machine's ups and downs fall on both alike."""

    ours: Clicks
    base: Clicks
    rounds: int
    shape: str
    errors: Counter[str]


async def run_paired(n: int, channels_per_guild: int, shape: str) -> Paired:
    ours = await make_world(n, channels_per_guild, None)
    base: World | None = None
    try:
        await start_games(ours)
        shape = ours.shape() if shape == "auto" else shape
        base = await make_world(n, channels_per_guild, BaselineBot(shape))
        await start_games(base)
        gc.collect()
        ours_clicks, base_clicks, rounds = Clicks(), Clicks(), 0
        while live := ours.live():
            for i in live:
                await play_once(ours, i, ours_clicks)
                await click_once(base, i, BASELINE_CELLS[rounds % len(BASELINE_CELLS)], base_clicks)
            rounds += 1
        return Paired(ours_clicks, base_clicks, rounds, shape, ours.errors + base.errors)
    finally:
        if base is not None:
            await close_world(base)  # the later harness first: task factories are stacked
        await close_world(ours)


async def run_ours(n: int, channels_per_guild: int, profile: bool) -> Run:
    world = await make_world(n, channels_per_guild, None)
    try:
        await start_games(world)
        full_gc_live, tracked = heap_once_started()
        live_after_start = len(world.live())
        bot_live = bot_live_games(world.harness.bot)
        clicks, rounds = Clicks(), 0
        profiler = cProfile.Profile() if profile else None
        with GcLog().recording() as log:
            if profiler is not None:
                profiler.enable()
            while live := world.live():
                rounds += 1
                for i in live:
                    await play_once(world, i, clicks)
            if profiler is not None:
                profiler.disable()
        full_gc_after = timed_full_collection()
        return Run(
            live_after_start=live_after_start,
            bot_live_after_start=bot_live,
            rounds=rounds,
            clicks=clicks,
            gc=log,
            full_gc_live=full_gc_live,
            full_gc_after=full_gc_after,
            tracked_objects=tracked,
            shape=world.shape(),
            errors=world.errors,
            profile=profile_report(profiler),
        )
    finally:
        await close_world(world)


# -- recording


@dataclass
class Recording:
    """One run with three bots live: ours recording off, ours recording on, the baseline."""

    off: Clicks
    on: Clicks
    base: Clicks
    off_finishing: Clicks  # the clicks that ended a game
    on_finishing: Clicks
    finished: int  # games that ended on the recording bot
    pending_after_play: int  # in the writer when the last click was handled
    recorded: int  # in the database at the end
    drain_seconds: float  # from lifting the fault (or the end of play) to nothing pending
    errors: Counter[str]


class Database:
    """Fresh databases for the runs, on one backend, and the faults it can be put in."""

    def __init__(self, backend: str, scratch: Path) -> None:
        self.backend = backend
        self.scratch = scratch
        self.server: Any = None
        self._count = 0
        self._lock: Any = None

    def __enter__(self) -> Database:
        if self.backend == "postgresql":
            from testdb.postgres import start_server

            self.server = start_server()
            if self.server is None:
                raise SystemExit("--record postgresql needs PostgreSQL's binaries (initdb, pg_ctl)")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.server is not None:
            self.server.destroy()

    def fresh(self) -> str:
        self._count += 1
        if self.backend == "sqlite":
            return f"sqlite+aiosqlite:///{self.scratch / f'records-{self._count}.db'}"
        name = f"bench_{self._count}"
        self.server.sql(f"CREATE DATABASE {name} TEMPLATE template0")
        return str(self.server.url(name))

    def break_(self, url: str, fault: str) -> None:
        if fault == "none":
            return
        if self.backend == "sqlite":  # slow: another connection holds the write lock
            import sqlite3

            self._lock = sqlite3.connect(url.split("///", 1)[1], isolation_level=None)
            self._lock.execute("BEGIN EXCLUSIVE")
        elif fault == "slow":
            self.server.signal_all(signal.SIGSTOP)  # a hung host: connections just wait
        else:
            self.server.stop()

    def mend(self, url: str, fault: str) -> None:
        if fault == "none":
            return
        if self.backend == "sqlite":
            self._lock.execute("ROLLBACK")
            self._lock.close()
        elif fault == "slow":
            self.server.signal_all(signal.SIGCONT)
        else:
            self.server.start()


async def recording_bot(url: str, spool: Path) -> tuple[TicTacToeBot, RecordWriter]:
    """Ours, as the harness builds it, recording through the real writer and storage."""
    storage = Storage(url)
    await storage.migrate()
    writer = RecordWriter(storage, spool)
    await writer.start()
    return our_bot(records=storage, writer=writer), writer


async def run_recording(
    n: int, channels_per_guild: int, database: Database, fault: str, scratch: Path
) -> Recording:
    url = database.fresh()
    spool = scratch / f"spool-{database._count}.jsonl"
    bot, writer = await recording_bot(url, spool)
    off = await make_world(n, channels_per_guild, None)
    on: World | None = None
    base: World | None = None
    try:
        on = await make_world(n, channels_per_guild, bot)
        await start_games(off)
        await start_games(on)
        base = await make_world(n, channels_per_guild, BaselineBot(off.shape()))
        await start_games(base)
        gc.collect()
        result = Recording(
            Clicks(), Clicks(), Clicks(), Clicks(), Clicks(), 0, 0, 0, 0.0, Counter()
        )
        database.break_(url, fault)
        rounds = 0
        while live := off.live():
            for i in live:
                for world, clicks, finishing in (
                    (off, result.off, result.off_finishing),
                    (on, result.on, result.on_finishing),
                ):
                    answered = len(clicks.whole)
                    if await play_once(world, i, clicks) and len(clicks.whole) > answered:
                        finishing.take_last(clicks)  # the click that finished the game
                await click_once(base, i, BASELINE_CELLS[rounds % len(BASELINE_CELLS)], result.base)
            rounds += 1
        result.finished = sum(on.over)
        result.pending_after_play = writer.pending
        database.mend(url, fault)
        started = time.perf_counter()
        drained = await writer.flush(wait=600)
        result.drain_seconds = time.perf_counter() - started if drained else math.nan
        result.recorded = writer.written
        result.errors = off.errors + on.errors + base.errors
        return result
    finally:
        for each in (base, on, off):  # the later harness first: task factories are stacked
            if each is not None:
                await close_world(each)
        await bot.close_records()


async def run_throughput(database: Database, n: int, scratch: Path) -> float:
    """Games per second the writer sustains into a fresh database: N finished games submitted
    at once, timed until every one is written."""
    url = database.fresh()
    storage = Storage(url)
    await storage.migrate()
    writer = RecordWriter(storage, scratch / f"spool-throughput-{database._count}.jsonl")
    await writer.start()
    rng = random.Random(3)
    games: list[GameRecord] = []
    for k in range(n):
        x, o = rng.randrange(1, 2_000) * 10**15, rng.randrange(2_000, 4_000) * 10**15
        game = Game.from_moves(x, o, None, rng.choice(((0, 3, 1, 4, 2), (3, 0, 4, 1, 8, 2))))
        game_id = (1_700_000_000_000 + k - discord.utils.DISCORD_EPOCH) << 22
        finished = FinishedGame(game_id, game, 1.8e9 + k, 1, Place.SERVER, False)
        games.append(GameRecord.from_finished(finished))
    try:
        started = time.perf_counter()
        for record in games:
            writer.submit(record)
        if not await writer.flush(wait=600):
            return math.nan
        return n / (time.perf_counter() - started)
    finally:
        await writer.close()
        await storage.close()


def summarize_recording(
    n: int, backend: str, fault: str, runs: list[Recording], throughput: float
) -> None:
    print()
    print(
        f"=== {n:,} live games, recording into {backend}, database fault: {fault}; "
        f"{len(runs)} run(s), medians over runs ==="
    )
    print(f"  {'CPU per click (µs), feed -> transport':44} {'p50':>8} {'p99':>8} {'mean':>8}")
    off, on, base = (
        Figures.of([getattr(r, k).to_transport for r in runs]) for k in ("off", "on", "base")
    )
    off_f = Figures.of([r.off_finishing.to_transport for r in runs])
    on_f = Figures.of([r.on_finishing.to_transport for r in runs])
    print(off.row("ours, recording off: every click"))
    print(on.row("ours, recording on: every click"))
    print(base.row("baseline"))
    print(off_f.row("ours, recording off: finishing clicks"))
    print(on_f.row("ours, recording on: finishing clicks"))
    whole_off = Figures.of([r.off_finishing.whole for r in runs])
    whole_on = Figures.of([r.on_finishing.whole for r in runs])
    print(whole_off.row("  whole finishing click, off (incl. dispatch)"))
    print(whole_on.row("  whole finishing click, on"))
    wall_off = Figures.of([r.off.wall for r in runs])
    wall_on = Figures.of([r.on.wall for r in runs])
    print(f"  {'wall time per click (µs), feed -> done':44} {'p50':>8} {'p99':>8} {'mean':>8}")
    print(wall_off.row("recording off"))
    print(wall_on.row("recording on"))
    longest_on = max(max(r.on.wall) for r in runs) * 1000
    longest_off = max(max(r.off.wall) for r in runs) * 1000
    print(f"  longest click, wall: off {longest_off:.1f} ms, on {longest_on:.1f} ms")
    finishing_ratio = on_f.mean / off_f.mean
    ratio = on.mean / base.mean
    ratios = ", ".join(
        f"{statistics.fmean(r.on.to_transport) / statistics.fmean(r.base.to_transport):.2f}x"
        for r in runs
    )
    print(f"  on / baseline, mean, each run: {ratios}")
    finished = median([r.finished for r in runs])
    pending = median([r.pending_after_play for r in runs])
    recorded = median([r.recorded for r in runs])
    drain = median([r.drain_seconds for r in runs])
    print(
        f"games: {finished:,.0f} finished, {pending:,.0f} still queued after the last click, "
        f"{recorded:,.0f} recorded; the rest written {drain:.2f} s after "
        f"{'the fault was lifted' if fault != 'none' else 'play ended'}"
    )
    print(f"writer throughput: {throughput:,.0f} games/s ({n:,} games submitted at once)")
    errors = sum((r.errors for r in runs), Counter())
    print(f"errors                    {sum(errors.values())} {dict(errors) if errors else ''}")
    targets = [
        ("finishing click CPU, on <= 1.10x off", finishing_ratio <= 1.10,
         f"{on_f.mean:,.0f} vs {off_f.mean:,.0f} µs = {finishing_ratio:.3f}x"),
        (f"CPU per click mean, on <= {TARGET_RATIO}x baseline", ratio <= TARGET_RATIO,
         f"{on.mean:,.0f} vs {base.mean:,.0f} µs = {ratio:.2f}x"),
        ("every finished game recorded", recorded == finished,
         f"{recorded:,.0f} of {finished:,.0f}"),
    ]  # fmt: skip
    for name, ok, value in targets:
        print(f"  {verdict(ok)}  {name:44} {value}")


async def main_recording(args: argparse.Namespace) -> int:
    import tempfile

    log = LogCounter.installed()
    with tempfile.TemporaryDirectory(prefix="bot-load-") as folder:
        scratch = Path(folder)
        with Database(args.record, scratch) as database:
            for n in args.games:
                runs = [
                    await run_recording(
                        n, args.channels_per_guild, database, args.db_fault, scratch
                    )
                    for _ in range(max(1, args.repeat))
                ]
                throughput = await run_throughput(database, n, scratch)
                summarize_recording(n, args.record, args.db_fault, runs, throughput)
    log.report()
    return 0


def profile_report(profiler: cProfile.Profile | None) -> str:
    if profiler is None:
        return ""
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(40)
    return out.getvalue()


# -- the baseline


async def run_baseline(n: int, channels_per_guild: int, shape: str, rounds: int) -> Run:
    bot = BaselineBot(shape)
    world = await make_world(n, channels_per_guild, bot)
    try:
        await start_games(world)
        full_gc_live, tracked = heap_once_started()
        clicks = Clicks()
        with GcLog().recording() as log:
            for r in range(rounds):
                for i in range(n):
                    await click_once(world, i, BASELINE_CELLS[r % len(BASELINE_CELLS)], clicks)
        full_gc_after = timed_full_collection()
        return Run(
            live_after_start=n,
            bot_live_after_start=None,
            rounds=rounds,
            clicks=clicks,
            gc=log,
            full_gc_live=full_gc_live,
            full_gc_after=full_gc_after,
            tracked_objects=tracked,
            shape=shape,
            errors=world.errors,
        )
    finally:
        await close_world(world)


# -- memory


@dataclass
class Memory:
    per_game_started: float  # traced growth less the harness's, per game, N games started
    per_game_after_move: float  # the same after one more move in each game
    per_game_by_line: float  # cross-check: growth on lines that are not the harness's
    live: int
    top: list[str]
    errors: Counter[str]


# Lines whose retained allocations are the harness's (the fake's stored messages are JSON text
# written by json.dumps; the bot's own encodings are not retained).
HARNESS_LINES = ("fake_discord/", "benchmarks/", "json/encoder.py")
JSON_DECODE = "json/decoder.py"  # what survives of it is the bot's decoding of gateway frames


def growth_by_line(
    after: tracemalloc.Snapshot, before: tracemalloc.Snapshot, n: int
) -> tuple[float, list[str]]:
    """Traced growth per game on lines that are not the harness's, and the top lines."""
    kept: list[tuple[int, str]] = []
    for stat in after.compare_to(before, "lineno"):
        frame = stat.traceback[0]
        if any(part in frame.filename for part in HARNESS_LINES):
            continue
        where = f"{short_path(frame.filename)}:{frame.lineno}"
        if JSON_DECODE in frame.filename:
            where += " (JSON decoding of gateway frames)"
        kept.append((stat.size_diff, where))
    kept.sort(reverse=True)
    top = [f"{size / n:8,.0f} B/game  {where}" for size, where in kept[:10]]
    return sum(size for size, _ in kept) / n, top


def short_path(filename: str) -> str:
    for marker in ("site-packages/", "/work/main/", "python3.11/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


async def run_memory(n: int, channels_per_guild: int) -> Memory:
    world = await make_world(n, channels_per_guild, None)
    try:
        gc.collect()
        tracemalloc.start(1)
        base_traced = tracemalloc.get_traced_memory()[0]
        base_harness = world.harness_bytes()
        base = tracemalloc.take_snapshot()

        def per_game() -> float:
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0] - base_traced
            return (traced - (world.harness_bytes() - base_harness)) / n

        await start_games(world)
        started = per_game()
        live = len(world.live())
        for i in world.live():
            await play_once(world, i, Clicks())  # a fresh record each: none retained
        after_move = per_game()
        by_line, top = growth_by_line(tracemalloc.take_snapshot(), base, n)
        return Memory(started, after_move, by_line, live, top, world.errors)
    finally:
        if tracemalloc.is_tracing():
            tracemalloc.stop()
        await close_world(world)


# ---------------------------------------------------------------------------------- report


def gc_line(runs: list[Run]) -> str:
    counts = ", ".join(
        f"gen{g} {median([run.gc.count(g) for run in runs]):,.0f}" for g in (0, 1, 2)
    )
    wall, cpu = max(run.gc.longest(2) for run in runs)
    return (
        f"{counts} per run; longest full {wall * 1000:.1f} ms, of which CPU {cpu * 1000:.1f} ms"
        f" (longest of runs)"
    )


def run_ratio(run: Paired) -> float:
    """Our mean CPU per click over the baseline's, in one paired run."""
    return statistics.fmean(run.ours.to_transport) / statistics.fmean(run.base.to_transport)


def summarize(
    n: int, paired: list[Paired], ours: list[Run], base: list[Run], memory: Memory
) -> None:
    clicks = len(ours[0].clicks.to_transport)
    bot_live = ours[0].bot_live_after_start
    print()
    print(
        f"=== {n:,} live games: CPU from {len(paired)} paired run(s) (medians over runs), "
        f"GC from {len(ours)} solo run(s) of each ==="
    )
    print(
        f"live after the start     {ours[0].live_after_start:,} boards "
        f"(bot's own count: {'n/a' if bot_live is None else f'{bot_live:,}'}); "
        f"{clicks:,} clicks in {ours[0].rounds} rounds ({clicks / n:.2f} per game), "
        f"as many for the baseline; {ours[0].shape} layout"
    )
    ratio = None
    if paired:
        to = Figures.of([run.ours.to_transport for run in paired])
        bto = Figures.of([run.base.to_transport for run in paired])
        whole = Figures.of([run.ours.whole for run in paired])
        bwhole = Figures.of([run.base.whole for run in paired])
        print(f"  {'CPU per click (µs), paired runs':44} {'p50':>8} {'p99':>8} {'mean':>8}")
        print(to.row("ours: feed -> answer handed to transport"))
        print(bto.row("baseline: the same"))
        ratio = Figures(to.p50 / bto.p50, to.p99 / bto.p99, to.mean / bto.mean)
        print(f"  {'ours / baseline':44} {ratio.p50:7.2f}x {ratio.p99:7.2f}x {ratio.mean:7.2f}x")
        ratios = ", ".join(f"{run_ratio(run):.2f}x" for run in paired)
        print(f"  {'  mean ratio of each paired run':44} {ratios}")
        print(whole.row("ours: whole click, incl. reading the answer"))
        print(bwhole.row("baseline: the same"))
    solo = Figures.of([run.clicks.to_transport for run in ours])
    bsolo = Figures.of([run.clicks.to_transport for run in base])
    print(
        f"  solo runs (GC phase), for reference: ours {solo.mean:,.0f} µs, baseline "
        f"{bsolo.mean:,.0f} µs mean to transport = {solo.mean / bsolo.mean:.2f}x"
    )
    live_ms = median([run.full_gc_live for run in ours]) * 1000
    after_ms = median([run.full_gc_after for run in ours]) * 1000
    longest_ms = max(run.gc.longest(2)[0] for run in ours) * 1000
    tracked = ours[0].tracked_objects
    print(f"GC during play, ours      {gc_line(ours)}")
    print(f"GC during play, baseline  {gc_line(base)}")
    print(
        f"explicit gc.collect(2)    ours {live_ms:.1f} ms with {n:,} live, {after_ms:.1f} ms "
        f"after play; baseline {median([r.full_gc_live for r in base]) * 1000:.1f} ms "
        f"(shortest of 3 in a row; median of runs)"
    )
    print(
        f"  objects it scans        {tracked:,} tracked (not frozen) with {n:,} live, "
        f"{tracked / n:.1f} per game (the harness's records are frozen: not counted)"
    )
    per_game = max(memory.per_game_started, memory.per_game_after_move)
    print(
        f"memory per live game      {memory.per_game_started:,.0f} B started, "
        f"{memory.per_game_after_move:,.0f} B after a move (tracemalloc, {memory.live:,} live; "
        f"growth on the bot's lines {memory.per_game_by_line:,.0f} B)"
    )
    for line in memory.top[:6]:
        print(f"    {line}")
    errors = sum((run.errors for run in ours + base), Counter()) + memory.errors
    errors += sum((run.errors for run in paired), Counter())
    print(f"errors                    {sum(errors.values())} {dict(errors) if errors else ''}")
    targets = [
        (f"memory per live game <= {TARGET_BYTES_PER_GAME / 1024:g} KB",
         per_game <= TARGET_BYTES_PER_GAME, f"{per_game / 1024:.2f} KB"),
    ]  # fmt: skip
    if ratio is not None:
        targets[:0] = [
            (f"CPU per click p50 <= {TARGET_RATIO}x baseline", ratio.p50 <= TARGET_RATIO,
             f"{to.p50:,.0f} vs {bto.p50:,.0f} µs = {ratio.p50:.2f}x"),
            (f"CPU per click mean <= {TARGET_RATIO}x baseline", ratio.mean <= TARGET_RATIO,
             f"{to.mean:,.0f} vs {bto.mean:,.0f} µs = {ratio.mean:.2f}x"),
        ]  # fmt: skip
    limit = full_gc_target_ms(n)
    if limit is not None:
        targets.append(
            (
                f"longest full GC during play <= {limit:g} ms",
                longest_ms <= limit,
                f"{longest_ms:.1f} ms",
            )
        )
        targets.append(
            (
                f"explicit full GC, {n:,} live <= {limit:g} ms",
                live_ms <= limit,
                f"{live_ms:.1f} ms (the floor)",
            )
        )
    for name, ok, value in targets:
        print(f"  {verdict(ok)}  {name:44} {value}")


async def main_async(args: argparse.Namespace) -> int:
    print("Tic-tac-toe bot: CPU per click vs a minimal discord.py handler, GC, memory")
    print(machine() + "; one process, one thread")
    if args.profile:
        print("--profile: ours runs under cProfile in the first run; its CPU figures are inflated")
    if args.record != "off":
        return await main_recording(args)
    log = LogCounter.installed()
    for n in args.games:
        paired = [
            await run_paired(n, args.channels_per_guild, args.shape) for _ in range(args.repeat)
        ]
        ours: list[Run] = []
        base: list[Run] = []
        for r in range(args.gc_repeat):
            ours.append(await run_ours(n, args.channels_per_guild, args.profile and r == 0))
            shape = ours[-1].shape if args.shape == "auto" else args.shape
            base.append(await run_baseline(n, args.channels_per_guild, shape, ours[-1].rounds))
        memory = await run_memory(n, args.channels_per_guild)
        summarize(n, paired, ours, base, memory)
        if ours[0].profile:
            print(f"\n--- cProfile of our play phase, {n:,} games ---")
            print(ours[0].profile)
    log.report()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="paired CPU runs per N (medians quoted); 0: GC and memory only",
    )
    parser.add_argument(
        "--gc-repeat",
        type=int,
        default=1,
        choices=range(1, 10),
        metavar="1-9",
        help="solo runs of each bot per N, for GC figures",
    )
    parser.add_argument(
        "--shape",
        choices=("auto", "classic", "v2"),
        default="auto",
        help="the baseline's message layout (auto: the same as the bot's board)",
    )
    parser.add_argument("--channels-per-guild", type=int, default=100)
    parser.add_argument("--profile", action="store_true", help="cProfile our play phase")
    parser.add_argument(
        "--record",
        choices=("off", "sqlite", "postgresql"),
        default="off",
        help="measure recording into this database instead (see above)",
    )
    parser.add_argument(
        "--db-fault",
        choices=("none", "slow", "down"),
        default="none",
        help="with --record: the database hangs or is gone during play",
    )
    args = parser.parse_args(argv)
    if args.record == "sqlite" and args.db_fault == "down":
        parser.error("--db-fault down needs --record postgresql (see above)")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
