"""`python -m bot` as a host runs it, in a child process logged in to the loopback fake Discord
(fake_discord/loopback.py): for the tests of start-up, shutdown and exit codes."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from fake_discord import FakeUser
from fake_discord.loopback import Loopback, launch_command

REPO = Path(__file__).resolve().parents[2]
SETTING_PREFIXES = ("DISCORD_", "GAME_", "LOG_", "SHARD_", "METRICS_", "DATA_", "DATABASE_")
GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.good-token-value"
BAD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.revoked-token-value"
APP_ID = 123456789012345678
BOT_USER = FakeUser(APP_ID, "TicTacToe", bot=True)

# As in a container: discord.utils.setup_logging would then colour logs even into a pipe.
START_AS_IN_DOCKER = (
    "import runpy, sys, discord.utils\n"
    "discord.utils.is_docker = lambda: True\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def fake_discord(*, answer_gateway: bool = True) -> Loopback:
    """Discord on loopback, knowing the bot by GOOD_TOKEN; answer_gateway=False: its gateway
    never says HELLO."""
    return Loopback(
        token=GOOD_TOKEN, bot_user=BOT_USER, gateway="auto" if answer_gateway else "silent"
    )


async def start_bot(
    fake: Loopback, tmp_path: Path, token: str | None, *, docker: bool = False
) -> asyncio.subprocess.Process:
    """`python -m bot` in tmp_path against the fake, its output (stdout and stderr) piped;
    token None: the token comes from tmp_path/.env."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(SETTING_PREFIXES)}
    env.update(PYTHONPATH=str(REPO))
    if token is not None:
        env.update(DISCORD_TOKEN=token)
    python, *launch = launch_command(fake.url, "-m", "bot")
    command = ["-c", START_AS_IN_DOCKER, *launch] if docker else launch
    return await asyncio.create_subprocess_exec(
        python,
        *command,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def read_until(process: asyncio.subprocess.Process, marker: str) -> str:
    """The child's output up to and including the first line containing `marker`."""
    assert process.stdout is not None
    seen: list[str] = []
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), timeout=60)).decode()
        assert line, "the bot exited early:\n" + "".join(seen)
        seen.append(line)
        if marker in line:
            return "".join(seen)
