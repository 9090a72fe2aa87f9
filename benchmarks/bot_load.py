"""Load test: thousands of live games through discord.py's real interaction dispatch.

    python benchmarks/bot_load.py                       # 1,000 and 10,000 games
    python benchmarks/bot_load.py --games 2000 --profile

For each N: N users start N games against the bot (impossible level, playing X), one per text
channel (servers of --channels-per-guild channels), then play them to the end move by move with
a fixed strategy (the first empty cell), in rounds: one click for every live game per round, so
all N games are live at once and the moves of different games interleave.

Events are fed like the gateway does: one INTERACTION_CREATE per event-loop iteration, decoded
from its JSON frame and handed to ConnectionState's parser; the bot answers through discord.py's
HTTP stack into FakeDiscord (benchmarks/dispatch.py), which answers at once (or after --rtt-ms).

Measured
  * moves/s: clicks answered per second of wall time during the play phase (one process, one
    thread, so one core);
  * processing time per click, p50 / p99: from the dispatch of the INTERACTION_CREATE (before
    its JSON is decoded) to the bot handing its callback request to the transport;
  * event-loop lag: a task sleeping 1 ms in a loop records how late it wakes (max, p99), with
    the garbage collector's pauses recorded alongside (gc.callbacks);
  * memory per live game: a second run under tracemalloc; with N games started (and again after
    one move each) the traced memory growth minus what FakeDiscord and the harness themselves
    hold (their deep size), divided by N: the registry entry, its timer, the stored Interaction
    with its parsed message, and anything else the bot keeps per game. Cross-checked by the
    growth on the lines that are not the harness's, and by a walk of one entry's objects.

"Moves per second end to end" counts everything in the process, FakeDiscord included; the
time the harness spent playing Discord (and writing gateway frames) is measured and shown, and
the rate over the rest of the time is the bot's own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import enum
import gc
import io
import math
import os
import platform
import pstats
import sys
import time
import tracemalloc
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from benchmarks.dispatch import (
    FakeChannel,
    FakeDiscord,
    FakeSession,
    FakeUser,
    Harness,
    Sent,
    cells_disabled,
    first_empty,
)

TARGET_P99_MS = 5.0
TARGET_MOVES_PER_SECOND = 1000.0
TARGET_BYTES_PER_GAME = 20 * 1024
TARGET_MAX_STALL_MS = 10.0
UPDATE_MESSAGE, CHANNEL_MESSAGE = 7, 4


# ---------------------------------------------------------------------------------- helpers


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[rank]


class LagMonitor:
    """How late a 1 ms sleep wakes up, while the load runs; and the GC's pauses."""

    def __init__(self, interval: float = 0.001) -> None:
        self.interval = interval
        self.lags: list[float] = []
        self.gc_pauses: list[tuple[int, float]] = []  # (generation, seconds)
        self._task: asyncio.Task[None] | None = None
        self._gc_started = 0.0

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.lags.append(time.perf_counter() - start - self.interval)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_pauses.append((info["generation"], time.perf_counter() - self._gc_started))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="lag-monitor")
        gc.callbacks.append(self._on_gc)

    async def stop(self) -> None:
        gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


@dataclass(slots=True)
class Game:
    user: FakeUser
    channel: FakeChannel
    message_id: int | None = None  # the board message (FakeDiscord keeps its JSON)
    over: bool = False
    clicks: int = 0


@dataclass
class World:
    harness: Harness
    games: list[Game]
    errors: Counter[str] = field(default_factory=Counter)


async def make_world(n: int, channels_per_guild: int, seed: int, rtt: float) -> World:
    harness = await Harness.start(seed=seed, record=False)
    harness.discord.latency = rtt
    channels: list[FakeChannel] = []
    for g in range(math.ceil(n / channels_per_guild)):
        count = min(channels_per_guild, n - len(channels))
        channels.extend(harness.create_guild(f"server {g}", channels=count).channels)
    games = [Game(harness.create_user(f"player{i}"), channel) for i, channel in enumerate(channels)]
    world = World(harness, games)
    await warm_up(world)
    return world


async def warm_up(world: World) -> None:
    """One full game in a spare server, so that one-off costs stay out of the figures."""
    harness = world.harness
    channel = harness.create_guild("warm-up").channels[0]
    user = harness.create_user("warm-up")
    game = Game(user, channel)
    for _ in range(3):
        await feed(world, [game], lambda g: harness.dispatch_slash(g.user, g.channel), [])
        while game.message_id is not None and not game.over:
            await feed(world, [game], click_first_empty(harness), [])
        game.message_id, game.over = None, False


def click_first_empty(harness: Harness) -> Callable[[Game], Sent]:
    def click(game: Game) -> Sent:
        assert game.message_id is not None
        message = harness.discord.message(game.message_id)
        return harness.dispatch_click(game.user, message, cell=first_empty(message))

    return click


async def feed(
    world: World, games: list[Game], make: Callable[[Game], Sent], latencies: list[float]
) -> None:
    """One interaction per game, one per event-loop iteration like the gateway; each answered
    interaction is checked and forgotten at once, so the harness holds little in between."""
    in_flight: deque[tuple[Game, Sent]] = deque()
    for game in games:
        in_flight.append((game, make(game)))
        await asyncio.sleep(0)  # the gateway reads the next event on a later iteration
        while in_flight and all(task.done() for task in in_flight[0][1].tasks):
            await settle(world, *in_flight.popleft(), latencies)
    while in_flight:
        await settle(world, *in_flight.popleft(), latencies)


async def settle(world: World, game: Game, sent: Sent, latencies: list[float]) -> None:
    await sent.wait()
    check(world, game, sent)
    if sent.latency is not None:
        latencies.append(sent.latency)
    world.harness.forget(sent)


def check(world: World, game: Game, sent: Sent) -> None:
    """Every interaction gets exactly one successful, public callback of the expected type."""
    expected = CHANNEL_MESSAGE if sent.type == 2 else UPDATE_MESSAGE
    if len(sent.requests) != 1:
        world.errors[f"{len(sent.requests)} requests for one interaction"] += 1
        return
    (request,) = sent.requests
    if request.status != 200 or request.type != expected or request.ephemeral:
        body = request.content if request.status == 200 else request.status
        world.errors[f"type {request.type} status {request.status}: {body}"] += 1
        return
    assert request.message is not None
    game.message_id = int(request.message["id"])
    game.over = cells_disabled(request.message)
    game.clicks += sent.type == 3


async def start_games(world: World, latencies: list[float]) -> None:
    harness = world.harness
    await feed(world, world.games, lambda g: harness.dispatch_slash(g.user, g.channel), latencies)


async def play_round(world: World, latencies: list[float]) -> int:
    live = [g for g in world.games if g.message_id is not None and not g.over]
    await feed(world, live, click_first_empty(world.harness), latencies)
    return len(live)


def registry_size(harness: Harness) -> int:
    cog: Any = harness.bot.get_cog("TicTacToe")
    return len(cog.games)


# ---------------------------------------------------------------------------------- runs


@dataclass
class TimingResult:
    games: int
    clicks: int
    slash_latencies: list[float]
    click_latencies: list[float]
    play_seconds: float
    play_cpu_seconds: float
    play_harness_seconds: float  # of the wall time: FakeDiscord and frame writing
    start_seconds: float
    lags: list[float]
    gc_pauses: list[tuple[int, float]]
    live_after_start: int
    live_at_end: int
    errors: Counter[str]
    profile: str = ""


async def timing_run(
    n: int, channels_per_guild: int, seed: int, rtt: float, profile: bool
) -> TimingResult:
    world = await make_world(n, channels_per_guild, seed, rtt)
    harness = world.harness
    try:
        gc.collect()
        monitor = LagMonitor()
        monitor.start()
        slash: list[float] = []
        started = time.perf_counter()
        await start_games(world, slash)
        start_seconds = time.perf_counter() - started
        live_after_start = registry_size(harness)

        clicks: list[float] = []
        profiler = cProfile.Profile() if profile else None
        overhead = harness.overhead_seconds
        wall, cpu = time.perf_counter(), time.process_time()
        if profiler is not None:
            profiler.enable()
        total = 0
        while (played := await play_round(world, clicks)) > 0:
            total += played
        if profiler is not None:
            profiler.disable()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        overhead = harness.overhead_seconds - overhead
        await monitor.stop()
        report = ""
        if profiler is not None:
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out).strip_dirs()
            stats.sort_stats("tottime").print_stats(25)
            stats.sort_stats("cumulative").print_stats(40)
            report = out.getvalue()
        return TimingResult(
            games=n,
            clicks=total,
            slash_latencies=slash,
            click_latencies=clicks,
            play_seconds=wall,
            play_cpu_seconds=cpu,
            play_harness_seconds=overhead,
            start_seconds=start_seconds,
            lags=monitor.lags,
            gc_pauses=monitor.gc_pauses,
            live_after_start=live_after_start,
            live_at_end=registry_size(harness),
            errors=world.errors,
            profile=report,
        )
    finally:
        await harness.close()


@dataclass
class MemoryResult:
    games: int
    # traced growth less the harness's own data, per game: entries holding the /tictactoe
    # interaction, then entries holding a button click's interaction
    per_game_started: float
    per_game_after_move: float
    per_game_by_line: float  # cross-check: growth on lines that are not the harness's
    gc_objects_per_game: float  # objects the garbage collector tracks, per live game
    live: int
    top: list[str]
    entry_breakdown: list[tuple[str, int, int]]
    entry_total: int
    errors: Counter[str]


# Lines whose retained allocations belong to the harness (FakeDiscord's stored messages are
# JSON text written by json.dumps; the bot's own encodings are not retained).
HARNESS_LINES = ("benchmarks/", "json/encoder.py")
JSON_DECODE = "json/decoder.py"  # what survives of it is the bot's decoding of gateway frames


def growth_by_line(
    after: tracemalloc.Snapshot, before: tracemalloc.Snapshot, n: int
) -> tuple[float, list[str]]:
    """Traced growth per game from lines that are not the harness's, and the top lines."""
    kept: list[tuple[int, str]] = []
    for stat in after.compare_to(before, "lineno"):
        frame = stat.traceback[0]
        if any(part in frame.filename for part in HARNESS_LINES):
            continue
        where = f"{short_path(frame.filename)}:{frame.lineno}"
        if JSON_DECODE in frame.filename:
            where += " (JSON decoding of the INTERACTION_CREATE frames)"
        kept.append((stat.size_diff, where))
    kept.sort(reverse=True)
    top = [f"{size / n:8,.0f} B/game  {where}" for size, where in kept[:12]]
    return sum(size for size, _ in kept) / n, top


async def memory_run(n: int, channels_per_guild: int, seed: int, rtt: float) -> MemoryResult:
    world = await make_world(n, channels_per_guild, seed, rtt)
    harness = world.harness
    try:
        gc.collect()
        base_objects = len(gc.get_objects())
        tracemalloc.start(1)
        base_traced = tracemalloc.get_traced_memory()[0]
        base_storage = harness.storage_bytes()
        base = tracemalloc.take_snapshot()

        def growth() -> float:
            """Traced growth per game, less what the harness and FakeDiscord hold."""
            gc.collect()
            traced = tracemalloc.get_traced_memory()[0] - base_traced
            return (traced - (harness.storage_bytes() - base_storage)) / n

        await start_games(world, [])
        started = growth()
        live = registry_size(harness)
        await play_round(world, [])
        after_move = growth()
        by_line, top = growth_by_line(tracemalloc.take_snapshot(), base, n)
        tracemalloc.stop()
        gc_objects = len(gc.get_objects()) - base_objects
        cog: Any = harness.bot.get_cog("TicTacToe")
        entry = next(iter(cog.games._entries.values()))
        breakdown, total = entry_footprint(entry, harness)
        return MemoryResult(
            games=n,
            per_game_started=started,
            per_game_after_move=after_move,
            per_game_by_line=by_line,
            gc_objects_per_game=gc_objects / n,
            live=live,
            top=top,
            entry_breakdown=breakdown,
            entry_total=total,
            errors=world.errors,
        )
    finally:
        if tracemalloc.is_tracing():
            tracemalloc.stop()
        await harness.close()


def short_path(filename: str) -> str:
    for marker in ("site-packages/", "/work/main/", "python3.11/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


def entry_footprint(entry: Any, harness: Harness) -> tuple[list[tuple[str, int, int]], int]:
    """Objects reachable from one registry entry and not shared with the rest of the bot (the
    client, its state and caches, servers, channels, the HTTP session), grouped by type:
    (type, count, bytes). Approximate: a cross-check of the tracemalloc figure."""
    state = harness.bot._connection
    cog: Any = harness.bot.get_cog("TicTacToe")
    shared: list[Any] = [harness.bot, state, harness.bot.http, cog, cog.games]
    shared.append(discord.utils.MISSING)
    for guild in state.guilds:
        shared.extend([guild, *guild.channels, *guild.roles, guild.me])
    stop = {id(obj) for obj in shared}
    stop_types = (
        type,
        type(sys),
        type(len),
        type(entry_footprint),
        asyncio.AbstractEventLoop,
        FakeSession,
        FakeDiscord,
        discord.ui.view.ViewStore,
        enum.Enum,
    )
    seen: set[int] = set()
    sizes: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    todo = [entry]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in stop or obj is None or isinstance(obj, bool):
            continue
        if isinstance(obj, stop_types):
            continue
        seen.add(id(obj))
        name = type(obj).__qualname__
        sizes[name] += sys.getsizeof(obj)
        counts[name] += 1
        todo.extend(gc.get_referents(obj))
    ranked = sorted(sizes.items(), key=lambda item: -item[1])
    return [(name, counts[name], size) for name, size in ranked], sum(sizes.values())


# ---------------------------------------------------------------------------------- report


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def summarize(timing: TimingResult, memory: MemoryResult, rtt_ms: float) -> bool:
    n = timing.games
    moves = timing.clicks / timing.play_seconds
    bot_seconds = timing.play_seconds - timing.play_harness_seconds
    bot_moves = timing.clicks / bot_seconds
    p50 = percentile(timing.click_latencies, 50) * 1000
    p99 = percentile(timing.click_latencies, 99) * 1000
    worst = max(timing.click_latencies, default=math.nan) * 1000
    s50 = percentile(timing.slash_latencies, 50) * 1000
    s99 = percentile(timing.slash_latencies, 99) * 1000
    lag_max = max(timing.lags, default=math.nan) * 1000
    lag_p99 = percentile(timing.lags, 99) * 1000
    gc2 = [seconds for generation, seconds in timing.gc_pauses if generation == 2]
    per_game = max(memory.per_game_started, memory.per_game_after_move)
    errors = timing.errors + memory.errors
    print()
    print(f"=== {n:,} live games, one channel each, FakeDiscord rtt {rtt_ms:g} ms ===")
    print(
        f"games started          {n:,} in {timing.start_seconds:.2f} s; live at once "
        f"{timing.live_after_start:,} (registry entries); left at the end {timing.live_at_end}"
    )
    print(
        f"clicks                 {timing.clicks:,} ({timing.clicks / n:.1f} per game) in "
        f"{timing.play_seconds:.2f} s wall, {timing.play_cpu_seconds:.2f} s CPU, of which "
        f"{timing.play_harness_seconds:.2f} s in the harness (FakeDiscord, frame writing)"
    )
    print(
        f"moves per second       {moves:,.0f} end to end; {bot_moves:,.0f} counting only the "
        f"bot's share of the time"
    )
    print(f"per click (bot)        p50 {p50:.3f} ms   p99 {p99:.3f} ms   max {worst:.1f} ms")
    print(f"per /tictactoe (bot)   p50 {s50:.3f} ms   p99 {s99:.3f} ms")
    print(
        f"event-loop lag         p99 {lag_p99:.3f} ms   max {lag_max:.1f} ms   "
        f"({len(timing.lags):,} wake-ups of a 1 ms sleep)"
    )
    by_generation = []
    for generation in (0, 1, 2):
        pauses = [seconds for g, seconds in timing.gc_pauses if g == generation]
        longest = max(pauses, default=0.0) * 1000
        by_generation.append(f"gen{generation} {len(pauses):,} (max {longest:.1f} ms)")
    print(
        f"GC pauses              {', '.join(by_generation)}; "
        f"full collections {sum(gc2) * 1000:.0f} ms in all"
    )
    print(
        f"memory per live game   {memory.per_game_started:,.0f} B holding the /tictactoe "
        f"interaction, {memory.per_game_after_move:,.0f} B holding a click's (tracemalloc, "
        f"{memory.live:,} live)"
    )
    print(
        f"  cross-check          {memory.per_game_by_line:,.0f} B (traced growth on the bot's "
        f"lines); {memory.gc_objects_per_game:.0f} GC-tracked objects per game"
    )
    print(f"errors                 {sum(errors.values())} {dict(errors) if errors else ''}")
    targets = [
        (f"p99 per click <= {TARGET_P99_MS:g} ms", p99 <= TARGET_P99_MS, f"{p99:.2f} ms"),
        (
            f">= {TARGET_MOVES_PER_SECOND:,.0f} moves/s on one core (end to end)",
            moves >= TARGET_MOVES_PER_SECOND,
            f"{moves:,.0f}/s",
        ),
        (
            f"<= {TARGET_BYTES_PER_GAME // 1024} KB per live game",
            per_game <= TARGET_BYTES_PER_GAME,
            f"{per_game / 1024:.1f} KB",
        ),
        (
            f"no event-loop stall > {TARGET_MAX_STALL_MS:g} ms",
            lag_max <= TARGET_MAX_STALL_MS,
            f"max {lag_max:.1f} ms",
        ),
    ]
    for name, ok, value in targets:
        print(f"  target {name:46} {value:>12}   {verdict(ok)}")
        if "moves/s" in name:
            alone = verdict(bot_moves >= TARGET_MOVES_PER_SECOND)
            print(
                f"         {'... counting the bot share of the time only':46} "
                f"{bot_moves:>10,.0f}/s   {alone}"
            )
    print("  per-game memory by allocating line (tracemalloc, after a move):")
    for line in memory.top[:10]:
        print(f"    {line}")
    print(f"  one registry entry owns ~{memory.entry_total:,} B (gc walk); largest parts:")
    for name, count, size in memory.entry_breakdown[:8]:
        print(f"    {size:7,} B  {count:4} x {name}")
    return not errors


async def main_async(args: argparse.Namespace) -> int:
    print("Tic-tac-toe bot under load: real discord.py dispatch, in-process fake Discord")
    print(
        f"machine: Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{os.cpu_count()} CPUs ({len(os.sched_getaffinity(0))} usable), "
        f"{platform.machine()}, {platform.system()} {platform.release()}; "
        f"discord.py {discord.__version__}; one process, one event loop"
    )
    rtt = args.rtt_ms / 1000
    clean = True
    for n in args.games:
        timing = await timing_run(n, args.channels_per_guild, args.seed, rtt, args.profile)
        memory = await memory_run(n, args.channels_per_guild, args.seed, rtt)
        clean &= summarize(timing, memory, args.rtt_ms)
        if timing.profile:
            print(f"\n--- cProfile of the play phase, {n:,} games ---")
            print(timing.profile)
    print()
    print("done" if clean else "done, with errors (see above)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--channels-per-guild", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--rtt-ms", type=float, default=0.0, help="delay FakeDiscord's answers (default 0)"
    )
    parser.add_argument("--profile", action="store_true", help="cProfile the play phase")
    args = parser.parse_args(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
