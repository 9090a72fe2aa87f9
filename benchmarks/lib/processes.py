"""A real bot process logged in to its own loopback fake Discord (fake_discord/loopback.py,
started through fake_discord/launch.py), and what the benchmarks read of it and its children:
CPU clock (once quiet), RSS, and the worker processes it spawned; the random classic games
they play."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path

from fake_discord import FakeChannel
from fake_discord.loopback import Loopback, launch_command

from .measure import ProcessClock, rss_bytes
from .ours import DEFAULT_LINGER_SECONDS

REPO = Path(__file__).resolve().parent.parent.parent
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.benchmark-token"
SETTINGS = ("DISCORD_", "DATA", "GAME_", "LOG_", "SHARD_", "METRICS_")  # the bot's: not passed on
STOP_SECONDS = 30
QUIET_SECONDS = 0.1  # a process is quiet once its CPU clock moves less than QUIET_CPU in this
QUIET_CPU = 0.0005
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class BotProcess:
    """One bot process (`target`: ["-m", "bot"], or a script and its arguments) and the
    loopback fake Discord it is logged in to; `hide`: packages it runs as if not installed."""

    def __init__(self, name: str, target: list[str], hide: tuple[str, ...] = ()) -> None:
        self.name, self.target, self.hide = name, target, hide
        self.fake = Loopback(token=TOKEN, record=False)
        self.process: asyncio.subprocess.Process | None = None
        self.clock: ProcessClock | None = None
        self.log_path: Path | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def start(
        self,
        guilds: int,
        channels_per_guild: int,
        scratch: Path,
        *,
        wrapper: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        """Start the fake with `guilds` servers, then the process in a folder of `scratch` (its
        data and log there), run through `wrapper` (e.g. a profiler script) if given, with the
        bot's own settings of this environment left out and `env` added."""
        await self.fake.start()
        for g in range(guilds):
            self.fake.create_guild(f"server {g}", channels=channels_per_guild)
        folder = scratch / self.name.replace(" ", "-")
        folder.mkdir()
        self.log_path = folder / "log.txt"
        environment = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS)}
        environment.update(PYTHONPATH=str(REPO), DISCORD_TOKEN=TOKEN, DATA_DIR=str(folder / "data"))
        environment.update(env or {})
        with self.log_path.open("wb") as log:
            self.process = await asyncio.create_subprocess_exec(
                *launch_command(self.fake.url, *wrapper, *self.target, hide=self.hide),
                cwd=folder,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.clock = ProcessClock(self.process.pid)

    async def ready(self) -> None:
        await self.fake.wait_ready()

    async def stop(self) -> int | None:
        """SIGTERM (SIGKILL after STOP_SECONDS), then close the fake: the exit code."""
        code = None
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self.fake.close()
        return code

    def channels(self) -> list[FakeChannel]:
        return [channel for guild in self.fake.guilds for channel in guild.channels]

    def cpu(self) -> float:
        """The process's own CPU seconds (all its threads; not its children's)."""
        assert self.clock is not None
        return self.clock.seconds()

    def log_lines(self) -> int:
        assert self.log_path is not None
        return len(self.log_path.read_bytes().splitlines())

    def children(self) -> dict[int, str]:
        """The process's live children: pid -> what each runs (its command line, shortened)."""
        return {pid: command_line(pid) for pid in child_pids(self.pid)}


def child_pids(parent: int) -> list[int]:
    """The live processes whose parent is `parent`, from /proc (no psutil needed)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent:
                found.append(int(entry))
    return sorted(found)


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def rss_or_zero(pid: int) -> int:
    """rss_bytes, or 0 for a process that has gone."""
    try:
        return rss_bytes(pid)
    except OSError:
        return 0


async def quiet(processes: Sequence[BotProcess]) -> list[float]:
    """Each process's CPU clock, once none has moved more than QUIET_CPU in QUIET_SECONDS (the
    last answer read, the records written): the end of a phase. Ours writes a phase's last
    games once they have lingered: that is waited out first, so that each phase's recording is
    counted in it (the warm-up's, with its one-time work, not in the play's)."""
    await asyncio.sleep(DEFAULT_LINGER_SECONDS)
    last = [p.cpu() for p in processes]
    for _ in range(100):
        await asyncio.sleep(QUIET_SECONDS)
        now = [p.cpu() for p in processes]
        if all(b - a < QUIET_CPU for a, b in zip(last, now, strict=True)):
            return now
        last = now
    return last


def game_moves(rng: random.Random) -> list[int]:
    """A random classic PvP game, X first: the cells played (0-8, row by row), to a win or a
    draw."""
    order = rng.sample(range(9), 9)
    board: list[str | None] = [None] * 9
    for k, cell in enumerate(order):
        board[cell] = "XO"[k % 2]
        if any(board[a] == board[b] == board[c] is not None for a, b, c in LINES):
            return order[: k + 1]
    return order
