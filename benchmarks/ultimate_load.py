"""Benchmark: Ultimate Tic-Tac-Toe in a real bot process (`python -m bot` on a loopback fake
Discord, as benchmarks/real_process.py runs it): what its games cost the event loop, and the
other players.

    python benchmarks/ultimate_load.py                                   # all three parts
    python benchmarks/ultimate_load.py --part latency --busy 4,8 --clicks 150 --runs 3
    python benchmarks/ultimate_load.py --part click --clicks 80 --runs 3 --click-level hard
    python benchmarks/ultimate_load.py --part memory --games 100 --memory-level easy
    python benchmarks/ultimate_load.py --variant classic   # the same, the bot's games classic

A benchmark, not a test: it prints figures and exits 0 (1 if a click was not answered validly).

latency  Classic clicks' answer time while K ultimate games against the bot ("impossible":
         about 1 s of thinking in a worker per move) keep its AI busy, against the same with
         nothing beside them, and with a process spinning on a core (the CPU a thinking worker
         takes from the machine, with nothing of it on the bot's event loop). One bot process;
         K "busy" players each play ultimate games against the bot without pause (a move, then
         the bot's reply as an edit of the board, a new game after each end), while one player
         clicks moves in classic PvP games (random games, as real_process.py's), one click at
         a time, --gap apart. Answer time: the click sent on the gateway to its interaction
         callback received at the fake (the harness's wall clock). The loads take turns
         within a run, --clicks classic clicks each, in a rotated order each run; p50 / p99
         per phase, medians over --runs. The bot's moves and the workers' CPU per second of
         the phase show the AI was thinking throughout.
click    The bot process's own CPU (its main process: every thread, not the workers') per
         click, from quiet to quiet over --clicks clicks, the games opened before (their
         starts not counted): classic PvP moves; ultimate PvP clicks (a small board picked, or
         a cell played); ultimate moves against the bot at --click-level, each with the bot's
         reply shown (two cards drawn; the move thought in a worker, whose CPU is not
         counted). Wall time from the click to its answer, and the bytes of the picture each
         card carries (the attachment the fake receives). Interleaved, --runs runs, medians.
memory   RSS of the bot (/proc/<pid>/statm) with no ultimate game played (after classic
         warm-up clicks), then after --games ultimate games played to the end against the bot
         at --memory-level, --parallel at a time, with each of its child processes (the
         thinking workers, multiprocessing's resource tracker) apart.

The RSS and CPU of classic play against discord.py's own example are real_process.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from benchmarks.lib.measure import ProcessClock, machine, median, percentile, rss_bytes
from benchmarks.lib.processes import BotProcess, child_pids, game_moves, quiet, rss_or_zero
from fake_discord import FakeChannel, FakeUser, Json, buttons, is_over, mark
from fake_discord.loopback import Exchange
from fake_discord.rest import Request

Response = discord.InteractionResponseType
# A grid button of either board: a cell (0-8), or a small board to pick (p0-p8).
GRID = re.compile(r"^(?:ttt2|ut1):(p?[0-8]):")
CHANNELS = 100
REPLY_TIMEOUT = 30.0  # seconds for the bot's reply edit (a move's budget is 1 s, plus its queue)
EDITS = ("edit_original", "edit_followup")  # a message edited with an interaction's token


class Failed(Exception):
    """A click not answered as it should be: counted, the game abandoned."""


# ---------------------------------------------------------------------------------- playing


@dataclass
class Table:
    """The bot process, and where its players play."""

    bot: BotProcess
    variant: str  # of the games against the bot (and the "ultimate" PvP games)
    errors: Counter[str] = field(default_factory=Counter)
    free: list[FakeChannel] = field(default_factory=list)
    users: int = 0

    def user(self) -> FakeUser:
        self.users += 1
        return self.bot.fake.create_user(f"player{self.users}")

    def channel(self) -> FakeChannel:
        return self.free.pop()


def grid(message: Json) -> list[str]:
    """The custom_ids of the grid's buttons a player may click (the classic board leaves
    taken cells enabled, with their mark)."""
    return [
        b["custom_id"]
        for b in buttons(message)
        if not b.get("disabled") and GRID.match(b.get("custom_id", "")) and mark(b) is None
    ]


def picks(custom_id: str) -> bool:
    """Whether a grid button picks a small board (rather than plays a cell)."""
    return custom_id.split(":")[1].startswith("p")


def answered(request: Request, what: str) -> Json:
    """The message of a public message update; Failed otherwise."""
    if request.type is not Response.message_update or request.message is None:
        raise Failed(f"{what} answered with {request.type} {request.content!r}")
    if request.ephemeral:
        raise Failed(f"{what} answered privately: {request.content!r}")
    return request.message


def picture_bytes(request: Request) -> int:
    return sum(len(upload.data) for upload in request.files)


@dataclass
class Click:
    """One click: wall seconds to its answer, the picture bytes the answer carried."""

    wall: float
    picture: int
    exchange: Exchange
    message: Json


async def click(table: Table, user: FakeUser, message: Json, custom_id: str, what: str) -> Click:
    fake = table.bot.fake
    started = time.perf_counter()
    exchange = await fake.dispatch_click(user, message, custom_id=custom_id)
    listen(exchange)  # the requests already heard are kept
    try:
        request = await exchange.answer()
    except AssertionError as error:  # no answer
        raise Failed(f"{what}: no answer") from error
    wall = time.perf_counter() - started
    return Click(wall, picture_bytes(request), exchange, answered(request, what))


class Heard(list[Request]):
    """An exchange's requests, with an event set as one comes: the bot's reply is awaited, not
    polled for (polling, K players would take the harness's CPU from the clicks it times)."""

    def __init__(self, requests: list[Request]) -> None:
        super().__init__(requests)
        self.came = asyncio.Event()

    def append(self, request: Request) -> None:
        super().append(request)
        self.came.set()


def listen(exchange: Exchange) -> Heard:
    """Make `exchange` announce its requests (the loopback appends each one to its list)."""
    heard = Heard(exchange.requests)
    exchange.requests = heard
    return heard


async def bot_reply(exchange: Exchange) -> Request:
    """The bot's move, shown by editing the board with the click's token."""
    heard = exchange.requests if isinstance(exchange.requests, Heard) else listen(exchange)
    deadline = time.perf_counter() + REPLY_TIMEOUT
    while True:
        for request in heard:
            if request.route in EDITS and request.message is not None:
                if not request.succeeded:
                    raise Failed(f"the bot's reply refused: {request.status}")
                return request
        heard.came.clear()
        try:
            await asyncio.wait_for(heard.came.wait(), deadline - time.perf_counter())
        except TimeoutError:
            raise Failed(f"no reply from the bot in {REPLY_TIMEOUT} s") from None


@dataclass
class Moves:
    """What the players' clicks cost: wall seconds to each answer, picture bytes per card
    (the bot's replies' too), and how many clicks and replies."""

    walls: list[float] = field(default_factory=list)
    pictures: list[int] = field(default_factory=list)
    clicks: int = 0
    bot_moves: int = 0


@dataclass
class Play:
    """A game under way: its players (against the bot, the player twice), its channel, its
    board as last shown, and for a classic PvP game the cells to play (a random game)."""

    x: FakeUser
    o: FakeUser
    channel: FakeChannel
    message: Json
    vs_bot: bool
    cells: list[int]
    made: int = 0  # moves made by the players

    @property
    def over(self) -> bool:
        return is_over(self.message)


async def open_bot_game(table: Table, user: FakeUser, channel: FakeChannel, level: str) -> Play:
    """/tictactoe against the bot, the user as X (the default), of the table's variant."""
    request = await table.bot.fake.slash(
        user, channel, "tictactoe", variant=table.variant, difficulty=level
    )
    if request.type is not Response.channel_message or request.message is None:
        raise Failed(f"/tictactoe answered with {request.type} {request.content!r}")
    return Play(user, user, channel, request.message, vs_bot=True, cells=[])


async def open_pvp_game(table: Table, variant: str, rng: random.Random) -> Play:
    """A challenge between two new players in a free channel, accepted."""
    x, o, channel = table.user(), table.user(), table.channel()
    fake = table.bot.fake
    challenge = await fake.slash(x, channel, "tictactoe", opponent=o, variant=variant)
    if challenge.type is not Response.channel_message or challenge.message is None:
        raise Failed(f"the challenge answered with {challenge.type} {challenge.content!r}")
    accepted = await fake.click(o, challenge.message, label="Accept")
    cells = game_moves(rng) if variant == "classic" else []
    return Play(x, o, channel, answered(accepted, "Accept"), vs_bot=False, cells=cells)


async def step(table: Table, play: Play, rng: random.Random, moves: Moves) -> None:
    """One click in `play` by the player to move: the next cell of a classic PvP game's plan,
    else a random grid button (a small board picked, or a cell played); against the bot, its
    reply too when it comes as an edit of the board (ultimate)."""
    player = play.x if play.vs_bot or play.made % 2 == 0 else play.o
    choices = grid(play.message)
    if play.cells:
        cell = str(play.cells[play.made])
        choices = [verb for verb in choices if verb.split(":")[1] == cell]
    if not choices:
        raise Failed("no grid button to click")
    verb = rng.choice(choices)
    moved = await click(table, player, play.message, verb, "a click")
    moves.walls.append(moved.wall)
    moves.pictures.append(moved.picture)
    moves.clicks += 1
    play.message = moved.message
    if picks(verb):
        return
    play.made += 1
    if play.vs_bot and table.variant == "ultimate" and not play.over:
        reply = await bot_reply(moved.exchange)
        assert reply.message is not None
        moves.pictures.append(picture_bytes(reply))
        moves.bot_moves += 1
        play.message = reply.message


async def play_bot_game(
    table: Table,
    user: FakeUser,
    channel: FakeChannel,
    level: str,
    rng: random.Random,
    moves: Moves,
    pause: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """One game against the bot, to its end; `pause` awaited before each click."""
    play = await open_bot_game(table, user, channel, level)
    while not play.over:
        if pause is not None:
            await pause()
        await step(table, play, rng, moves)


async def pvp_clicks(
    table: Table, variant: str, rng: random.Random, count: int, gap: float = 0.0
) -> Moves:
    """`count` clicks in PvP games of `variant`, one at a time, `gap` seconds apart, a new game
    as one ends (an unfinished game's channel is not used again: its seat stays taken)."""
    moves = Moves()
    while moves.clicks < count:
        try:
            play = await open_pvp_game(table, variant, rng)
            while not play.over and moves.clicks < count:
                await step(table, play, rng, moves)
                await asyncio.sleep(gap)
        except Failed as error:
            table.errors[str(error)[:80]] += 1
            moves.clicks += 1  # no endless loop on a broken bot
            continue
        if play.over:
            table.free.append(play.channel)
    return moves


# ---------------------------------------------------------------------------------- processes


def workers_cpu(bot: BotProcess, clocks: dict[int, ProcessClock]) -> float:
    """The CPU seconds of the bot's children so far (the thinking workers; a worker's clock is
    read from when it is first seen)."""
    total = 0.0
    for pid in child_pids(bot.pid):
        clock = clocks.setdefault(pid, ProcessClock(pid))
        try:
            total += clock.seconds()
        except OSError:
            continue
    return total


async def started_bot(scratch: Path, name: str, channels: int) -> tuple[BotProcess, Table]:
    bot = BotProcess(name, ["-m", "bot"])
    await bot.start(-(-channels // CHANNELS), CHANNELS, scratch)
    await bot.ready()
    return bot, Table(bot, "")


async def stopped(bot: BotProcess) -> None:
    code = await bot.stop()
    if code not in (0, None):
        print(f"  {bot.name} exited with {code}; its log: {bot.log_path}")


# ---------------------------------------------------------------------------------- latency


@dataclass
class Phase:
    """One phase of the latency part: K busy games, the classic clicks' answer times."""

    busy: int
    walls: list[float]
    seconds: float
    bot_moves: int
    workers_cpu: float


class Busy:
    """K players playing against the bot without pause, each in its own channel; `use(k)` lets
    the first k play and pauses the others (each finishes the move it is making first)."""

    def __init__(self, table: Table, most: int, level: str, seed: int) -> None:
        self.table, self.level = table, level
        self.gates = [asyncio.Event() for _ in range(most)]
        self.moves = [Moves() for _ in range(most)]
        self.idle = [asyncio.Event() for _ in range(most)]
        self.tasks = [
            asyncio.ensure_future(self._play(i, random.Random(seed * 1000 + i)))
            for i in range(most)
        ]

    async def _play(self, i: int, rng: random.Random) -> None:
        user, channel = self.table.user(), self.table.channel()
        gate, idle = self.gates[i], self.idle[i]

        async def pause() -> None:
            if not gate.is_set():
                idle.set()
                await gate.wait()
                idle.clear()

        while True:
            await pause()
            try:
                await play_bot_game(
                    self.table, user, channel, self.level, rng, self.moves[i], pause
                )
            except Failed as error:
                self.table.errors[f"busy: {error}"[:80]] += 1
                await asyncio.sleep(1)  # the seat may still be held: let its game lapse

    async def use(self, k: int) -> None:
        for i, gate in enumerate(self.gates):
            (gate.set if i < k else gate.clear)()
        # A paused player's last move may still be thought: wait for it to land.
        await asyncio.gather(*(self.idle[i].wait() for i in range(k, len(self.gates))))

    def bot_moves(self) -> int:
        return sum(m.bot_moves for m in self.moves)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


SPIN = [sys.executable, "-c", "while True: pass"]  # a process that keeps one core busy


@dataclass(frozen=True)
class Load:
    """What runs beside the classic clicks: `busy` games against the bot, or (`spin`) a
    process of the machine's that keeps a core busy, for contrast: the same CPU as a thinking
    worker's, with nothing of it on the bot's event loop."""

    busy: int
    spin: bool = False

    @property
    def label(self) -> str:
        if self.spin:
            return "a process spinning on a core"
        return f"{self.busy} ultimate games vs the bot" if self.busy else "nothing"


async def latency(args: argparse.Namespace, scratch: Path) -> bool:
    loads = [Load(0), Load(0, spin=True), *(Load(k) for k in args.busy)]
    most = max(args.busy)
    bot, table = await started_bot(scratch, "latency", most + 2 * CHANNELS)
    table.variant = args.variant
    table.free = bot.channels()[::-1]
    phases: list[tuple[Load, Phase]] = []
    clocks: dict[int, ProcessClock] = {}
    rng = random.Random(args.seed)
    busy = Busy(table, most, args.busy_level, args.seed)
    try:
        await pvp_clicks(table, "classic", rng, args.warmup)  # the classic path warmed
        await busy.use(most)
        await asyncio.sleep(args.settle)  # the workers started, the load's code warmed
        for r in range(args.runs):
            for load in loads[r % len(loads) :] + loads[: r % len(loads)]:
                await busy.use(load.busy)
                spinner = await asyncio.create_subprocess_exec(*SPIN) if load.spin else None
                await asyncio.sleep(args.settle if load.busy else 0.0)  # thoughts under way
                moves_before, cpu_before = busy.bot_moves(), workers_cpu(bot, clocks)
                started = time.perf_counter()
                clicked = await pvp_clicks(table, "classic", rng, args.clicks, args.gap)
                seconds = time.perf_counter() - started
                cpu = workers_cpu(bot, clocks) - cpu_before
                if spinner is not None:
                    spinner.kill()
                    await spinner.wait()
                thought = busy.bot_moves() - moves_before
                phases.append((load, Phase(load.busy, clicked.walls, seconds, thought, cpu)))
            print(
                f"run {r + 1}: "
                + ", ".join(
                    f"{load.label} p50 {percentile(phase.walls, 50) * 1e3:.2f} ms"
                    for load, phase in phases[-len(loads) :]
                )
            )
    finally:
        await busy.close()
        for problem in bot.fake.problems():
            table.errors[f"Discord: {problem}"[:80]] += 1
        await stopped(bot)

    print(
        f"\n=== classic PvP clicks' answer time (click sent -> callback received), "
        f"{args.clicks} clicks per phase {args.gap * 1e3:.0f} ms apart, {args.runs} run(s), "
        f"medians of the phases; the games vs the bot: {args.variant}, {args.busy_level} ==="
    )
    print(
        f"  {'beside the clicks':36} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'bot moves/s':>12} {'workers CPU/s':>14}"
    )
    for load in loads:
        mine = [phase for each, phase in phases if each == load]
        print(
            f"  {load.label:36} {median([percentile(p.walls, 50) for p in mine]) * 1e3:8.2f} "
            f"{median([percentile(p.walls, 99) for p in mine]) * 1e3:8.2f} "
            f"{median([max(p.walls) for p in mine]) * 1e3:8.2f} "
            f"{median([p.bot_moves / p.seconds for p in mine]):12.2f} "
            f"{median([p.workers_cpu / p.seconds for p in mine]):14.2f}"
        )
    return report_errors(table)


# ---------------------------------------------------------------------------------- click


@dataclass
class Measured:
    """One phase of the click part."""

    cpu_per_click: float
    moves: Moves


async def click_costs(args: argparse.Namespace, scratch: Path) -> bool:
    bot, table = await started_bot(scratch, "click", 4 * CHANNELS)
    table.variant = args.variant
    table.free = bot.channels()[::-1]
    rng = random.Random(args.seed)
    kinds = ["classic PvP move", f"{args.variant} PvP click", f"{args.variant} move vs the bot"]
    # Games a phase opens before its clicks, per click (a classic game lasts 5-9 moves, an
    # ultimate one dozens of clicks): the clicks measured, not the games' starts.
    games_per_click = {kinds[0]: 1 / 5, kinds[1]: 1 / 20, kinds[2]: 1 / 10}
    found: dict[str, list[Measured]] = {kind: [] for kind in kinds}

    async def opened(kind: str, count: int) -> list[Play]:
        plays = []
        for _ in range(int(count * games_per_click[kind]) + 1):
            if kind == kinds[0]:
                plays.append(await open_pvp_game(table, "classic", rng))
            elif kind == kinds[1]:
                plays.append(await open_pvp_game(table, args.variant, rng))
            else:
                user, channel = table.user(), table.channel()
                plays.append(await open_bot_game(table, user, channel, args.click_level))
        return plays

    async def clicks(plays: list[Play], count: int) -> Moves:
        """`count` clicks, a game at a time in turn, until they are made or every game over."""
        moves = Moves()
        while moves.clicks < count and plays:
            for play in list(plays):
                try:
                    await step(table, play, rng, moves)
                except Failed as error:
                    table.errors[str(error)[:80]] += 1
                    plays.remove(play)
                    continue
                if play.over:
                    plays.remove(play)
                if moves.clicks >= count:
                    break
        return moves

    async def phase(kind: str, count: int) -> Measured:
        plays = await opened(kind, count)
        before = (await quiet([bot]))[0]
        moves = await clicks(plays, count)
        after = (await quiet([bot]))[0]
        return Measured((after - before) / max(moves.clicks, 1), moves)

    try:
        for kind in kinds:  # warm-up: each path's first call, the first worker started
            await clicks(await opened(kind, args.warmup), args.warmup)
        for r in range(args.runs):
            for kind in kinds[r % 3 :] + kinds[: r % 3]:
                found[kind].append(await phase(kind, args.clicks))
            print(
                f"run {r + 1}: "
                + ", ".join(
                    f"{kind} {found[kind][-1].cpu_per_click * 1e6:,.0f} µs" for kind in kinds
                )
            )
        rss = rss_bytes(bot.pid)
    finally:
        for problem in bot.fake.problems():
            table.errors[f"Discord: {problem}"[:80]] += 1
        await stopped(bot)

    print(
        f"\n=== the bot process's CPU per click (quiet to quiet, workers excluded), wall time "
        f"to the answer, picture bytes per card; {args.clicks} clicks per phase, "
        f"{args.runs} run(s), medians ==="
    )
    print(
        f"  {'':34} {'CPU µs/click':>12} {'wall p50 ms':>11} {'wall p99 ms':>11} "
        f"{'picture B p50':>13} {'max':>6} cards with one"
    )
    for kind in kinds:
        runs = found[kind]
        cards = [b for m in runs for b in m.moves.pictures]
        pictures = [b for b in cards if b]
        print(
            f"  {kind:34} {median([m.cpu_per_click for m in runs]) * 1e6:12,.0f} "
            f"{median([percentile(m.moves.walls, 50) for m in runs]) * 1e3:11.2f} "
            f"{median([percentile(m.moves.walls, 99) for m in runs]) * 1e3:11.2f} "
            f"{statistics.median(pictures) if pictures else 0:13,.0f} "
            f"{max(pictures, default=0):6,} {len(pictures):,} of {len(cards):,}"
        )
    print(
        f"  (vs the bot at {args.click_level}: a click's CPU includes the bot's reply, its "
        f"card drawn and sent as an edit; RSS at the end {rss / 2**20:.1f} MiB)"
    )
    return report_errors(table)


# ---------------------------------------------------------------------------------- memory


async def memory(args: argparse.Namespace, scratch: Path) -> bool:
    bot, table = await started_bot(scratch, "memory", args.parallel + CHANNELS)
    table.free = bot.channels()[::-1]
    rng = random.Random(args.seed)
    try:
        table.variant = "classic"
        await pvp_clicks(table, "classic", rng, args.warmup)
        await quiet([bot])
        rss_classic = rss_bytes(bot.pid)
        children_before = len(child_pids(bot.pid))
        table.variant = args.variant
        left = [args.games]
        moves = Moves()
        started = time.perf_counter()

        async def player(i: int) -> None:
            user, channel = table.user(), table.channel()
            own = random.Random(args.seed * 1000 + i)
            while left[0] > 0:
                left[0] -= 1
                try:
                    await play_bot_game(table, user, channel, args.memory_level, own, moves)
                except Failed as error:
                    table.errors[str(error)[:80]] += 1

        await asyncio.gather(*(player(i) for i in range(args.parallel)))
        seconds = time.perf_counter() - started
        await quiet([bot])
        rss_after = rss_bytes(bot.pid)
        children = bot.children()
        child_rss = {pid: rss_or_zero(pid) for pid in children}
    finally:
        for problem in bot.fake.problems():
            table.errors[f"Discord: {problem}"[:80]] += 1
        await stopped(bot)

    print(
        f"\n=== RSS: the bot after {args.warmup} classic clicks (no {args.variant} game), then "
        f"after {args.games} {args.variant} games against the bot at {args.memory_level} "
        f"({moves.clicks:,} clicks of the players, {moves.bot_moves:,} moves of the bot, "
        f"{seconds:.0f} s, {args.parallel} at a time) ==="
    )
    print(
        f"  the bot, no {args.variant} game played: {rss_classic / 2**20:6.1f} MiB "
        f"({children_before} child processes)"
    )
    print(f"  the bot, after them:                    {rss_after / 2**20:6.1f} MiB")
    for pid, rss in child_rss.items():
        print(f"  child {pid}: {rss / 2**20:6.1f} MiB  {children[pid][:90]}")
    total = rss_after + sum(child_rss.values())
    print(f"  the bot and its children:               {total / 2**20:6.1f} MiB")
    return report_errors(table)


# ---------------------------------------------------------------------------------- main


def report_errors(table: Table) -> bool:
    errors = sum(table.errors.values())
    print(f"  errors: {errors} {dict(table.errors.most_common(5)) if errors else ''}")
    return not errors


async def main_async(args: argparse.Namespace) -> int:
    print("Ultimate Tic-Tac-Toe in a real bot process (python -m bot, a loopback fake Discord)")
    print(machine())
    ok = True
    with tempfile.TemporaryDirectory(prefix="ultimate-load-") as folder:
        for part in args.part.split(","):
            scratch = Path(folder) / part
            scratch.mkdir()
            run = {"latency": latency, "click": click_costs, "memory": memory}[part]
            ok &= await run(args, scratch)
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--part", default="latency,click,memory", help="which parts, in order")
    parser.add_argument(
        "--variant",
        default="ultimate",
        choices=("ultimate", "classic"),
        help="the bot's games (classic: to try the harness where ultimate is not seated)",
    )
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs (medians quoted)")
    parser.add_argument("--clicks", type=int, default=150, help="clicks per measured phase")
    parser.add_argument("--warmup", type=int, default=40, help="clicks before measuring")
    parser.add_argument(
        "--busy",
        type=lambda s: [int(k) for k in s.split(",")],
        default=[4, 8],
        help="latency: how many games against the bot keep it busy, comma-separated",
    )
    parser.add_argument("--busy-level", default="impossible", help="latency: their level")
    parser.add_argument(
        "--settle", type=float, default=2.0, help="latency: seconds a load runs before measuring"
    )
    parser.add_argument(
        "--gap", type=float, default=0.02, help="latency: seconds between classic clicks"
    )
    parser.add_argument("--click-level", default="medium", help="click: the bot's level")
    parser.add_argument("--games", type=int, default=100, help="memory: games against the bot")
    parser.add_argument("--memory-level", default="easy", help="memory: their level")
    parser.add_argument("--parallel", type=int, default=4, help="memory: games at a time")
    parser.add_argument("--seed", type=int, default=1)
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
