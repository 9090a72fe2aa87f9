"""Benchmark: CPU per interaction and per move click, and RSS, of real bot processes as a host
runs them, against discord.py's own example (the peer) and the least discord.py allows (the floor).

    python benchmarks/real_process.py --peer-example tic_tac_toe.py         # 300 games, 3 runs
    python benchmarks/real_process.py --discord-py-repo ~/src/discord.py --games 50 --runs 1
    python benchmarks/real_process.py --peer-example tic_tac_toe.py --without orjson,zstandard
    python benchmarks/real_process.py --peer-example tic_tac_toe.py --profile ours.pstats

A benchmark, not a test: it prints figures and exits 0 (1 if a click was not answered validly).

Each contestant is a real process logged in to its own loopback fake Discord
(fake_discord/loopback.py: REST over HTTP and a gateway websocket, compressed as Discord does,
on 127.0.0.1), started through fake_discord/launch.py:

  ours   `python -m bot` as installed: SQLite recording on (DATA_DIR in a temporary
         directory), logging at INFO to a file, no METRICS_PORT.
  peer   discord.py's examples/views/tic_tac_toe.py, its own commands.Bot and view, with a
         slash command /tic doing what its `$tic` command does (benchmarks/bots/peer.py).
  floor  a discord.Client answering /tic with a prebuilt board, and every click with one fixed
         message update (benchmarks/bots/floor.py).

Per run, fresh processes: a warm-up (--warmup games each, played to the end), then --games PvP
games, all started first (ours: /tictactoe opponent:@bob, then bob's Accept; the others: /tic),
then played a round at a time (one move in every live game per round). Every game follows the
same random sequence of moves for all contestants (alternating X and O, to a win or a draw), and
each click goes to every contestant in turn before the next, so that the machine's slow spells
fall on all alike. Every answer is checked: a callback of the right type, Discord's checks of
its body (the fake's), and the mark landing on the clicked cell (ours and the peer's).

Measured, from each process's own CPU clock (clock_getcpuclockid: every thread, user and system
time), read once the process has gone quiet after each phase: CPU per interaction (both phases
over every interaction) and per move click (the play phase over its clicks); RSS after the
warm-up and at the end; CPU in threads other than the main one (ours: the spool's fsync and
SQLite's worker, i.e. the records writer's I/O). Medians of --runs runs.

The peer's source is discord.py's, not this repository's: --peer-example PATH (or env
PEER_EXAMPLE), or --discord-py-repo DIR (a clone, or a bare git directory) with --ref (default:
the installed discord.py's version tag). PyPI's sdist does not ship the examples.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pstats
import random
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from benchmarks.lib.measure import (
    machine,
    median,
    other_threads_seconds,
    rss_bytes,
    thread_cpu_seconds,
)
from benchmarks.lib.processes import BotProcess, game_moves, quiet
from fake_discord import FakeChannel, FakeUser, Json, find_button, is_over, mark, marks

REPO = Path(__file__).resolve().parent.parent
BOTS = REPO / "benchmarks" / "bots"
EXAMPLE_PATH = "examples/views/tic_tac_toe.py"
HOW_TO_GET = (
    "the peer is discord.py's {path}: pass --peer-example PATH (or set PEER_EXAMPLE), e.g. "
    "curl -LO https://raw.githubusercontent.com/Rapptz/discord.py/v{version}/{path}"
)
CHANNELS_PER_GUILD = 100

Response = discord.InteractionResponseType


# ---------------------------------------------------------------------------------- games


@dataclass
class Game:
    x: FakeUser
    o: FakeUser
    channel: FakeChannel
    moves: list[int]
    board: Json = field(default_factory=dict)  # the board message as last answered


# ---------------------------------------------------------------------------------- contestants


@dataclass
class Counts:
    interactions: int = 0
    moves: int = 0
    answers_checked: int = 0
    errors: Counter[str] = field(default_factory=Counter)


class Contestant(BotProcess):
    """One bot process and the loopback fake Discord it is logged in to, and how it plays."""

    def __init__(self, name: str, kind: str, target: list[str], hide: tuple[str, ...]) -> None:
        super().__init__(name, target, hide)
        self.kind = kind
        self.counts = Counts()

    async def start_for(self, games: int, scratch: Path, profile: Path | None) -> None:
        """Started with room for `games` games (a channel each); under cProfile if `profile`."""
        wrapper = () if profile is None else (str(BOTS / "profiled.py"), str(profile))
        guilds = -(-games // CHANNELS_PER_GUILD)
        await self.start(guilds, CHANNELS_PER_GUILD, scratch, wrapper=wrapper)

    # -- playing

    def _check(self, ok: bool, what: str) -> bool:
        """Count a failed check of an answer under `what`."""
        if not ok:
            self.counts.errors[what] += 1
        return ok

    async def open(self, game: Game) -> None:
        """Start `game`: ours with a challenge and its Accept, the others with /tic."""
        fake = self.fake
        try:
            if self.kind == "ours":
                challenge = await fake.slash(game.x, game.channel, "tictactoe", opponent=game.o)
                self._check(
                    challenge.type is Response.channel_message and not challenge.ephemeral,
                    f"challenge answered with {challenge.type} {challenge.content!r}",
                )
                assert challenge.message is not None
                accepted = await fake.click(game.o, challenge.message, label="Accept")
                self.counts.interactions += 2
                answer = accepted
            else:
                answer = await fake.slash(game.x, game.channel, "tic")
                self.counts.interactions += 1
        except AssertionError as error:  # no answer
            self.counts.errors[str(error).split(":")[-1].strip()] += 1
            return
        expected = Response.message_update if self.kind == "ours" else Response.channel_message
        if self._check(
            answer.type is expected and answer.message is not None and not answer.ephemeral,
            f"start answered with {answer.type}",
        ):
            assert answer.message is not None
            game.board = answer.message
            self.counts.answers_checked += 1 if self.kind != "ours" else 2

    async def move(self, game: Game, k: int) -> None:
        """Play the game's k-th move, as X or O, and check the answer."""
        cell = game.moves[k]
        player, shown = (game.x, "X") if k % 2 == 0 else (game.o, "O")
        where = divmod(cell, 3)
        self.counts.interactions += 1
        self.counts.moves += 1
        if not game.board:
            self.counts.errors["a move in a game that did not start"] += 1
            return
        try:
            answer = await self.fake.click(player, game.board, cell=where)
        except (AssertionError, LookupError, ValueError) as error:
            self.counts.errors[f"move: {type(error).__name__} {error}"[:80]] += 1
            return
        message = answer.message
        if not self._check(
            answer.type is Response.message_update and message is not None and not answer.ephemeral,
            f"move answered with {answer.type} {answer.content!r}",
        ):
            return
        assert message is not None
        last = k == len(game.moves) - 1
        if self.kind == "ours":
            landed = marks(message).get(where) == shown and is_over(message) == last
        elif self.kind == "peer":
            over = any(word in (message.get("content") or "") for word in ("won!", "tie!"))
            landed = mark(find_button(message, cell=where)) == shown and over == last
        else:
            landed = message.get("content") == "It is now O's turn"
        if self._check(landed, f"{self.kind}: the move is not shown as played"):
            game.board = message
            self.counts.answers_checked += 1


TARGETS = {  # contestant -> (how it plays, what the process runs)
    "ours": ("ours", ["-m", "bot"]),
    "ours-unrecorded": ("ours", [str(BOTS / "unrecorded.py")]),
    "peer": ("peer", [str(BOTS / "peer.py")]),
    "floor": ("floor", [str(BOTS / "floor.py")]),
}


def contestants(example: str, without: tuple[str, ...], names: Sequence[str]) -> list[Contestant]:
    """The processes of one run: each named contestant, then (`without`) each again as if
    those packages were not installed."""
    made = []
    for hide in ((), without) if without else ((),):
        variant = f" without {'+'.join(hide)}" if hide else ""
        for name in names:
            kind, target = TARGETS[name]
            target = [*target, example] if kind == "peer" else target
            made.append(Contestant(name + variant, kind, target, hide))
    return made


# ---------------------------------------------------------------------------------- one run


@dataclass
class Result:
    """One contestant's figures in one run."""

    start_cpu: float  # seconds, the start phase
    play_cpu: float  # seconds, the play phase
    interactions: int
    moves: int
    rss_warm: int
    rss_end: int
    other_threads_cpu: float  # seconds in threads other than the main one, both phases
    log_lines_per_game: float
    answers_checked: int
    errors: Counter[str]

    @property
    def per_interaction(self) -> float:
        return (self.start_cpu + self.play_cpu) / self.interactions

    @property
    def per_move(self) -> float:
        return self.play_cpu / self.moves


async def open_all(players: list[Contestant], games: list[list[Game]]) -> None:
    """Start every game, each in turn on every player."""
    for g in range(len(games[0])):
        for player, own in zip(players, games, strict=True):
            await player.open(own[g])


async def play_all(players: list[Contestant], games: list[list[Game]]) -> None:
    """Play every game to its end, a round at a time: one move in every live game per round,
    each move in turn on every player."""
    rounds = max(len(game.moves) for game in games[0])
    for k in range(rounds):
        for g, game in enumerate(games[0]):
            if k < len(game.moves):
                for player, own in zip(players, games, strict=True):
                    await player.move(own[g], k)


async def written(path: Path) -> None:
    """Until the profiled process has written `path` (before it is stopped: a SIGTERM could
    otherwise end a process that has no handler for it first)."""
    for _ in range(600):
        if await asyncio.to_thread(path.exists):
            return
        await asyncio.sleep(0.05)
    raise SystemExit(f"the profiled process did not write {path}")


def deal(players: list[Contestant], n: int, first: int, seed: int) -> list[list[Game]]:
    """n games for each player, in channels first.., with the same moves for all players."""
    rng = random.Random(seed)
    moves = [game_moves(rng) for _ in range(n)]
    dealt = []
    for player in players:
        channels = player.channels()[first : first + n]
        users = [player.fake.create_user(f"p{first + i}") for i in range(2 * n)]
        dealt.append(
            [Game(users[2 * i], users[2 * i + 1], channels[i], moves[i]) for i in range(n)]
        )
    return dealt


async def run_once(
    players: list[Contestant], n: int, warmup: int, seed: int, profile: Path | None
) -> list[Result]:
    with tempfile.TemporaryDirectory(prefix="real-process-") as folder:
        try:
            for i, player in enumerate(players):  # profile: the first player's, if given
                await player.start_for(n + warmup, Path(folder), profile if i == 0 else None)
            await asyncio.gather(*(player.ready() for player in players))
            warmup_games = deal(players, warmup, n, seed + 1)
            await open_all(players, warmup_games)
            await play_all(players, warmup_games)
            await quiet(players)
            rss_warm = [rss_bytes(p.pid) for p in players]
            for player in players:
                player.counts = Counts()
            lines_before = [p.log_lines() for p in players]
            threads_before = [thread_cpu_seconds(p.pid) for p in players]
            games = deal(players, n, 0, seed)
            started = await quiet(players)
            await open_all(players, games)
            opened = await quiet(players)
            profiled_pids = [players[0].pid] if profile is not None else []
            for pid in profiled_pids:
                os.kill(pid, signal.SIGUSR1)
            await play_all(players, games)
            ended = await quiet(players)
            for pid in profiled_pids:
                os.kill(pid, signal.SIGUSR2)
            if profile is not None:
                await written(profile)
            results = []
            for i, player in enumerate(players):
                others = other_threads_seconds(threads_before[i], thread_cpu_seconds(player.pid))
                for problem in player.fake.problems():
                    player.counts.errors[f"Discord: {problem}"[:80]] += 1
                results.append(
                    Result(
                        start_cpu=opened[i] - started[i],
                        play_cpu=ended[i] - opened[i],
                        interactions=player.counts.interactions,
                        moves=player.counts.moves,
                        rss_warm=rss_warm[i],
                        rss_end=rss_bytes(player.pid),
                        other_threads_cpu=others,
                        log_lines_per_game=(player.log_lines() - lines_before[i]) / n,
                        answers_checked=player.counts.answers_checked,
                        errors=player.counts.errors,
                    )
                )
            return results
        finally:
            for player in players:
                code = await player.stop()
                if code not in (0, -signal.SIGTERM, None):  # discord.py's run(): killed by it
                    print(f"  {player.name} exited with {code}; its log: {player.log_path}")


# ---------------------------------------------------------------------------------- report


def report(names: list[str], runs: list[list[Result]], n: int) -> bool:
    """Print the table; whether every click was answered validly."""
    by_name = {name: [run[i] for run in runs] for i, name in enumerate(names)}

    def mid(name: str, value: str) -> float:
        return median([getattr(result, value) for result in by_name[name]])

    first = by_name[names[0]][0]
    print()
    print(
        f"=== {n:,} PvP games per process, {len(runs)} run(s), medians; "
        f"run 1, {names[0]}: {first.interactions:,} interactions, {first.moves:,} of them moves ==="
    )
    header = (
        f"  {'':42} {'µs/interaction':>14} {'µs/move click':>14} {'RSS warm':>9} {'RSS end':>8}"
    )
    print(header + f" {'other threads':>14} {'log lines':>10}")
    for name in names:
        print(
            f"  {name:42} {mid(name, 'per_interaction') * 1e6:14,.0f} "
            f"{mid(name, 'per_move') * 1e6:14,.0f} {mid(name, 'rss_warm') / 2**20:7.1f}MB "
            f"{mid(name, 'rss_end') / 2**20:6.1f}MB "
            f"{mid(name, 'other_threads_cpu') / n * 1e6:9,.0f} µs/g "
            f"{mid(name, 'log_lines_per_game'):6.1f}/g"
        )

    def ratio(name: str, other: str, value: str) -> float:
        pairs = zip(by_name[name], by_name[other], strict=True)
        return median([getattr(a, value) / getattr(b, value) for a, b in pairs])

    print("  ratios (medians of each run's ratio):")
    for name in names:
        kind, _, variant = name.partition(" ")
        others = ("peer", "floor") if kind.startswith("ours") else ()
        for other in [f"{o} {variant}".strip() for o in others]:
            if other in by_name:
                print(
                    f"    {name} / {other}: {ratio(name, other, 'per_interaction'):.2f}x per "
                    f"interaction, {ratio(name, other, 'per_move'):.2f}x per move click, "
                    f"{ratio(name, other, 'rss_end'):.2f}x RSS at the end"
                )
        unrecorded = f"ours-unrecorded {variant}".strip()
        if kind == "ours" and unrecorded in by_name:
            pairs = zip(by_name[name], by_name[unrecorded], strict=True)
            spent = median([a.start_cpu + a.play_cpu - b.start_cpu - b.play_cpu for a, b in pairs])
            print(f"    recording, {name} - {unrecorded}: {spent / n * 1e6:,.0f} µs per game")
        if variant:
            print(
                f"    {kind} as installed / {name}: {ratio(kind, name, 'per_interaction'):.3f}x "
                f"per interaction, {ratio(kind, name, 'per_move'):.3f}x per move click"
            )
    all_ok = True
    for name in names:
        errors = sum((r.errors for r in by_name[name]), Counter())
        checked = sum(r.answers_checked for r in by_name[name])
        expected = sum(r.interactions for r in by_name[name])
        ok = not errors
        all_ok &= ok
        print(
            f"  {name:42} answers checked {checked:,} of {expected:,} (all runs); "
            f"errors {sum(errors.values())} {dict(errors.most_common(5)) if errors else ''}"
        )
    return all_ok


def print_profile(path: Path, clicks: int) -> None:
    """The functions of this project that cost most per move click (main thread CPU time), own
    time and with callees."""
    stats = pstats.Stats(str(path))
    table = stats.stats  # type: ignore[attr-defined]
    ours = [
        (key, row)
        for key, row in table.items()
        if f"{os.sep}bot{os.sep}" in key[0] or "tictactoe" in key[0]
    ]
    for title, column in (("own time", 2), ("with callees", 3)):
        print(f"  ours, {title}, µs of CPU per move click (cProfile's overhead included):")
        for (file, line, function), row in sorted(ours, key=lambda kr: -kr[1][column])[:15]:
            where = file.split(f"{os.sep}bot{os.sep}")[-1]
            print(f"    {row[column] / clicks * 1e6:8.1f}  {where}:{line} {function}")
    total = sum(row[2] for _, row in table.items())
    own = sum(row[2] for _, row in ours)
    print(
        f"  all profiled: {total / clicks * 1e6:,.0f} µs per click, ours {own / clicks * 1e6:,.0f}"
    )


# ---------------------------------------------------------------------------------- main


def find_example(args: argparse.Namespace) -> str:
    """The example's path: given, or taken out of a discord.py git repository."""
    version = discord.__version__
    path = args.peer_example or os.environ.get("PEER_EXAMPLE")
    if path:
        if not Path(path).is_file():
            raise SystemExit(
                f"{path}: no such file; " + HOW_TO_GET.format(path=EXAMPLE_PATH, version=version)
            )
        return str(Path(path).resolve())
    if args.discord_py_repo:
        ref = args.ref or f"v{version}"
        shown = subprocess.run(
            ["git", "-C", args.discord_py_repo, "show", f"{ref}:{EXAMPLE_PATH}"],
            capture_output=True,
            text=True,
        )
        if shown.returncode != 0:
            raise SystemExit(f"git show {ref}:{EXAMPLE_PATH}: {shown.stderr.strip()}")
        saved = Path(tempfile.mkdtemp(prefix="peer-")) / "tic_tac_toe.py"
        saved.write_text(shown.stdout)
        return str(saved)
    raise SystemExit(HOW_TO_GET.format(path=EXAMPLE_PATH, version=version))


async def main_async(args: argparse.Namespace) -> int:
    example = find_example(args)
    without = tuple(name for name in args.without.split(",") if name)
    print("Real bot processes on a loopback fake Discord: CPU per interaction and per click, RSS")
    gateway = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
    orjson = "orjson" if discord.utils.HAS_ORJSON else "no orjson"
    print(f"{machine()}; as installed: {orjson}, gateway {gateway}")
    print(f"peer: {example}")
    kinds = args.contestants.split(",")
    names = [player.name for player in contestants(example, without, kinds)]
    runs: list[list[Result]] = []
    for r in range(args.runs):
        players = contestants(example, without, kinds)
        # A different order each run: no contestant always goes first after a click.
        players = players[r % len(players) :] + players[: r % len(players)]
        results = await run_once(players, args.games, args.warmup, seed=r, profile=None)
        by_name = {player.name: result for player, result in zip(players, results, strict=True)}
        runs.append([by_name[name] for name in names])
        each = (f"{name} {by_name[name].per_move * 1e6:,.0f} µs/move" for name in names)
        print(f"run {r + 1}: " + ", ".join(each))
    ok = report(names, runs, args.games)
    if args.profile is not None:
        # One more run, alone and not counted: cProfile slows what it watches.
        alone = contestants(example, (), [args.profiled])
        await run_once(alone, args.games, args.warmup, seed=args.runs, profile=args.profile)
        print(f"\ncProfile of {args.profiled}'s play phase, one more run: {args.profile}")
        print_profile(args.profile, alone[0].counts.moves)
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="PvP games per process per run")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs (medians quoted)")
    parser.add_argument("--warmup", type=int, default=20, help="games played before measuring")
    parser.add_argument("--peer-example", help=f"discord.py's {EXAMPLE_PATH}")
    parser.add_argument("--discord-py-repo", help="a discord.py git clone (or bare git dir)")
    parser.add_argument("--ref", help="with --discord-py-repo: the git ref (default v<installed>)")
    parser.add_argument(
        "--contestants",
        default="ours,peer,floor",
        help=f"which processes, comma-separated, of {', '.join(TARGETS)}",
    )
    parser.add_argument(
        "--without",
        default="",
        help="also run each contestant as if these packages were not installed, e.g. "
        "orjson,zstandard (discord.py[speed]'s)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="one more run, --profiled alone under cProfile (play phase), saved to this file",
    )
    parser.add_argument(
        "--profiled", default="ours", choices=TARGETS, help="the contestant --profile profiles"
    )
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
