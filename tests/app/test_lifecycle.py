"""`python -m bot` against a fake Discord on loopback: a rejected token, and SIGTERM on deploy.

The child process runs the real entry point; only discord.py's API base URL is pointed at a small
aiohttp server in this test, which answers the few REST calls a start-up makes.
"""

import asyncio
import json
import os
import re
import signal
import socket
import sys
from pathlib import Path

from aiohttp import web

REPO = Path(__file__).resolve().parents[2]
SETTING_PREFIXES = ("DISCORD_", "GAME_", "LOG_", "SHARD_", "METRICS_")
GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.good-token-value"
BAD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.revoked-token-value"
APP_ID = "123456789012345678"
BOT_USER = {
    "id": APP_ID,
    "username": "TicTacToe",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
}

# Points discord.py's REST and gateway addresses at the fake, then runs `python -m bot`.
START_THROUGH_LOOPBACK = (
    "import sys, runpy, yarl, discord.gateway, discord.http\n"
    "discord.http.Route.BASE = sys.argv[1] + '/api/v10'\n"
    "gateway = yarl.URL(sys.argv[1].replace('http', 'ws') + '/gateway')\n"
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway\n"
    "sys.argv = ['bot']\n"
    "runpy.run_module('bot', run_name='__main__')\n"
)
# As in a container: discord.utils.setup_logging would then colour logs even into a pipe.
START_AS_IN_DOCKER = "import discord.utils\ndiscord.utils.is_docker = lambda: True\n"


def json_response(payload: object, status: int = 200) -> web.Response:
    # discord.py only decodes a body whose content type is exactly application/json, as Discord's.
    body = json.dumps(payload).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


class FakeDiscord:
    """Just enough of Discord's REST API and gateway for a bot to log in and connect."""

    def __init__(self, *, answer_gateway: bool = True) -> None:
        self.answer_gateway = answer_gateway
        self.gateway_connected = asyncio.Event()
        self.command_uploads = 0
        app = web.Application()
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/oauth2/applications/@me", self.application)
        app.router.add_get(f"/api/v10/applications/{APP_ID}/commands", self.commands)
        app.router.add_put(f"/api/v10/applications/{APP_ID}/commands", self.upload)
        app.router.add_get("/api/v10/gateway/bot", self.gateway_info)
        app.router.add_get("/gateway", self.gateway)
        self.runner = web.AppRunner(app)
        self.url = ""

    async def __aenter__(self) -> "FakeDiscord":
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()

    async def me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {GOOD_TOKEN}":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return json_response(BOT_USER)

    async def application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": APP_ID,
                "name": "TicTacToe",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": BOT_USER,
                "verify_key": "0" * 64,
                "flags": 0,
            }
        )

    async def commands(self, request: web.Request) -> web.Response:
        return json_response([])

    async def upload(self, request: web.Request) -> web.Response:
        self.command_uploads += 1
        payloads = await request.json()
        # Like Discord, answer every command with a description ("" for context menus).
        return json_response(
            [
                {"description": "", **p, "id": str(10**17 + i), "application_id": APP_ID}
                for i, p in enumerate(payloads)
            ]
        )

    async def gateway_info(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        url = self.url.replace("http", "ws") + "/gateway"
        return json_response({"url": url, "shards": 1, "session_start_limit": limit})

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.gateway_connected.set()
        if self.answer_gateway:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for message in ws:  # stays connected until the bot closes the socket
            sent = json.loads(message.data)
            if self.answer_gateway and sent.get("op") == 2:  # IDENTIFY
                ready = self.ready(sent["d"].get("shard", [0, 1]))
                await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": 1, "d": ready}))
        return ws

    def ready(self, shard: list[int]) -> dict[str, object]:
        return {
            "shard": shard,
            "v": 10,
            "user": BOT_USER,
            "guilds": [],
            "session_id": "fake-session",
            "resume_gateway_url": self.url.replace("http", "ws") + "/gateway",
            "application": {"id": APP_ID, "flags": 0},
        }


async def start_bot(
    fake: FakeDiscord, tmp_path: Path, token: str | None, *, docker: bool = False
) -> asyncio.subprocess.Process:
    """`python -m bot` against the fake; token None: the token comes from tmp_path/.env."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(SETTING_PREFIXES)}
    env.update(PYTHONPATH=str(REPO))
    if token is not None:
        env.update(DISCORD_TOKEN=token)
    script = START_AS_IN_DOCKER + START_THROUGH_LOOPBACK if docker else START_THROUGH_LOOPBACK
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        fake.url,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def test_a_rejected_token_is_one_line_and_exit_1(tmp_path):
    async with FakeDiscord() as fake:
        process = await start_bot(fake, tmp_path, BAD_TOKEN)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    text = output.decode()
    assert process.returncode == 1
    assert "Traceback" not in text
    errors = [line for line in text.splitlines() if "ERROR" in line]
    assert len(errors) == 1
    assert "rejected DISCORD_TOKEN" in errors[0]
    assert BAD_TOKEN not in text


async def test_logs_into_a_pipe_have_no_colour_codes_even_in_docker(tmp_path):
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={BAD_TOKEN}\n")
    async with FakeDiscord() as fake:
        process = await start_bot(fake, tmp_path, None, docker=True)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    text = output.decode()
    assert process.returncode == 1, text
    assert "rejected DISCORD_TOKEN" in text
    assert "\x1b[" not in text
    # discord.py's layout, uncoloured: "2026-01-31 12:00:00 ERROR    __main__ Discord rejected ..."
    error = next(line for line in text.splitlines() if "rejected DISCORD_TOKEN" in line)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR    __main__ Discord rejected", error)
    assert BAD_TOKEN not in text


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


async def test_sigterm_closes_the_bot_cleanly_with_exit_0(tmp_path):
    async with FakeDiscord() as fake:
        process = await start_bot(fake, tmp_path, GOOD_TOKEN)
        started = await read_until(process, "Logged in as TicTacToe")
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
        uploads = fake.command_uploads
    text = started + output.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text
    # /tictactoe, /puzzle, /stats, /leaderboard, /forget-me and the member menu's "Challenge to
    # Tic-Tac-Toe"
    assert "Synced 6 command(s) to all servers" in text
    assert "Running shards 0 of 1" in text  # as many as Discord recommends (the fake: 1)
    assert "Shard 0 connected" in text
    assert f"client_id={APP_ID}" in text
    # both install links: to a server (bot + commands) and to a user's account
    assert "scope=bot+applications.commands" in text
    assert "integration_type=0" in text
    assert "integration_type=1" in text
    assert "Shutting down" in text
    assert "voice will NOT be supported" not in text
    assert uploads == 1
    assert GOOD_TOKEN not in text


async def test_sigterm_during_the_gateway_handshake_is_still_a_clean_exit(tmp_path):
    async with FakeDiscord(answer_gateway=False) as fake:
        process = await start_bot(fake, tmp_path, GOOD_TOKEN)
        await asyncio.wait_for(fake.gateway_connected.wait(), timeout=60)
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 0, output.decode()
    assert "Traceback" not in output.decode()


async def test_a_metrics_port_in_use_is_one_line_and_exit_1(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        (tmp_path / ".env").write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\nMETRICS_PORT={port}\n")
        async with FakeDiscord() as fake:
            process = await start_bot(fake, tmp_path, None)
            output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    finally:
        taken.close()
    text = output.decode()
    assert process.returncode == 1, text
    assert "Traceback" not in text
    (error,) = [line for line in text.splitlines() if "ERROR" in line]
    assert f"cannot listen on 127.0.0.1:{port}" in error
    assert "set another METRICS_PORT" in error
