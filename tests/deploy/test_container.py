"""The Dockerfile, built and run for real without a Docker daemon: buildah builds it from a plain
Debian 12 base (python3 and python3-venv only: tests/support/containers.py), then runs the
image's own command, as its own user, against the loopback fake Discord
(fake_discord/loopback.py, pointed at by fake_discord/launch.py copied into the container).

What a host would see: the image's settings (non-root user, health check, volume) and contents
(the bot alone, no test tools, no .env from the build context); the bot logs in, the image's
own HEALTHCHECK command passes once it is ready, a game played to its end is recorded in the
SQLite file under /data, SIGTERM stops it with exit code 0, and a bad setting exits 2 with one
line. Cold: about a minute for the base and 35 s for the image; cached: a few seconds each.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3

import discord
import pytest

from fake_discord import first_empty, is_over, text
from fake_discord.loopback import LAUNCH, Loopback
from testdb.postgres import free_port
from tests.support.bot_process import GOOD_TOKEN, read_until
from tests.support.containers import (
    buildah_run,
    debian_base,
    export_repository,
    inner_process,
    kill_tree,
    run,
    working_container,
)

IMAGE = "localhost/tictactoe-bot:test"
LAUNCH_IN_CONTAINER = "/opt/tictactoe/launch.py"
PLANTED_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.planted-in-the-build-context"
TEST_TOOLS = ("pytest", "_pytest", "ruff", "mypy", "simcord", "playwright", "av")
# buildah's own lines after the command's, on the same stderr.
BUILDAH_EXIT_LINE = re.compile(r"^(subprocess exited with status \d+|Error: exit status \d+)$")
Response = discord.InteractionResponseType
Op = discord.gateway.DiscordWebSocket


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Dockerfile built from the plain Debian base, from a build context that also holds
    a .env with a token (which .dockerignore must keep out)."""
    base = debian_base()
    context = tmp_path_factory.mktemp("context")
    export_repository(context)
    (context / ".env").write_text(f"DISCORD_TOKEN={PLANTED_TOKEN}\n")
    run(
        [
            "buildah", "bud", "--isolation", "chroot", "--layers", "--format", "docker",
            "--pull=false", "--build-arg", f"PYTHON_IMAGE={base}", "--tag", IMAGE, str(context),
        ],
        timeout=1200,
    )  # fmt: skip
    return IMAGE


def image_config(image: str) -> dict:
    inspected = json.loads(run(["buildah", "inspect", "--type", "image", image]).stdout)
    return inspected["Docker"]["config"]


def test_the_image_runs_the_bot_as_a_non_root_user_with_a_health_check(image):
    config = image_config(image)
    user = config["User"]
    assert user
    assert user.split(":")[0] not in ("0", "root")
    assert config["Cmd"] == ["python", "-m", "bot"]
    environment = dict(item.split("=", 1) for item in config["Env"])
    assert environment["DATA_DIR"] == "/data"
    assert environment["METRICS_PORT"].isdigit()
    assert "/data" in config["Volumes"]
    check = config["Healthcheck"]["Test"]
    assert check[:2] == ["CMD", "python"]  # no curl needed
    assert "/healthz" in check[-1]
    assert config["StopSignal"] == "SIGTERM"


def test_the_image_holds_the_bot_alone(image):
    with working_container(image) as container:
        listing = run(
            buildah_run(
                container,
                ["python", "-c", "import sys, os; print('\\n'.join(os.listdir(sys.path[-1])))"],
            )
        ).stdout.split()
        assert {"discord", "sqlalchemy", "asyncpg"} <= set(listing)
        assert not set(TEST_TOOLS) & set(listing), set(TEST_TOOLS) & set(listing)
        app = run(buildah_run(container, ["sh", "-c", "ls -A /opt/tictactoe/app"])).stdout.split()
        assert sorted(app) == ["bot", "tictactoe"]
        planted = run(
            buildah_run(container, ["grep", "-rl", PLANTED_TOKEN, "/opt", "/data", "/tmp"]),
            check=False,
        )
        assert planted.returncode == 1, planted.stdout  # grep found nothing
        compilers = run(
            buildah_run(container, ["sh", "-c", "command -v cc gcc pip curl"]), check=False
        )
        assert compilers.stdout == ""


def without_buildah_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if not BUILDAH_EXIT_LINE.match(line)]


def test_a_bad_setting_exits_2_with_one_line(image):
    with working_container(image) as container:
        result = run(
            buildah_run(
                container,
                image_config(image)["Cmd"],
                env={"DISCORD_TOKEN": GOOD_TOKEN, "TURN_TIMEOUT_SECONDS": "5"},
            ),
            check=False,
        )
    assert result.returncode == 2
    lines = without_buildah_lines(result.stdout + result.stderr)
    assert len(lines) == 1, lines
    assert "TURN_TIMEOUT_SECONDS" in lines[0]


async def test_the_image_plays_a_game_records_it_and_stops_cleanly(image, tmp_path):
    config = image_config(image)
    healthcheck = config["Healthcheck"]["Test"][1:]
    metrics_port = free_port()
    # As docker run -e would: the token, and a free METRICS_PORT on loopback (the container
    # shares this machine's network here).
    env = {
        "DISCORD_TOKEN": GOOD_TOKEN,
        "METRICS_PORT": str(metrics_port),
        "METRICS_HOST": "127.0.0.1",
    }
    with working_container(image) as container:
        run(["buildah", "copy", "--quiet", container, str(LAUNCH), LAUNCH_IN_CONTAINER])
        # The test says READY and sends the server when it chooses (gateway="manual").
        async with Loopback(token=GOOD_TOKEN, gateway="manual") as fake:
            guild = fake.create_guild("club")
            channel = guild.channels[0]
            python, *arguments = config["Cmd"]
            command = [python, LAUNCH_IN_CONTAINER, fake.url, *arguments]
            bot = await asyncio.create_subprocess_exec(
                *buildah_run(container, command, env=env),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            try:
                # Logged in (IDENTIFY with the token), not ready: unhealthy (exit code 1).
                connection = await fake.next_from_bot(Op.IDENTIFY)
                assert await exit_code(buildah_run(container, healthcheck, env=env)) == 1
                await fake.send(connection, "READY", fake.ready_payload(connection))
                await fake.announce(guild)
                await read_until(bot, "Shard 0 ready")
                assert await exit_code(buildah_run(container, healthcheck, env=env)) == 0

                alice = fake.create_user("alice")
                board = (await fake.slash(alice, channel, "tictactoe")).message
                assert board is not None
                while not is_over(board):
                    answer = await fake.click(alice, board, cell=first_empty(board))
                    assert answer.type is Response.message_update
                    board = answer.message
                    assert board is not None
                assert fake.problems() == []
                ending = text(board)

                # docker stop: SIGTERM to the container's command.
                os.kill(inner_process(bot.pid, "python"), signal.SIGTERM)
                rest, _ = await asyncio.wait_for(bot.communicate(), timeout=60)
                assert bot.returncode == 0, rest.decode()[-3000:]
            finally:
                if bot.returncode is None:
                    kill_tree(bot.pid)
                    await bot.wait()

        # The records, read from the volume by this machine's sqlite3.
        records = tmp_path / "records.db"
        records.write_bytes(await output_of(buildah_run(container, ["cat", "/data/records.db"])))
    with sqlite3.connect(records) as database:
        rows = database.execute("SELECT x_player, o_player, finish, winner FROM games").fetchall()
    # alice (X) takes the first free cell each time; the bot (O, Impossible) wins with a line.
    assert rows == [(alice.id, 0, "line", "O")]  # 0: the bot
    assert f"{fake.bot_user.mention} wins" in ending


async def output_of(command: list[str]) -> bytes:
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE
    )
    output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 0, command
    return output


async def exit_code(command: list[str]) -> int:
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await asyncio.wait_for(process.wait(), timeout=60)
