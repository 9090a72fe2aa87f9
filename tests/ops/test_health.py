"""METRICS_PORT: /healthz as a watchdog sees it through a start-up, a gateway drop and a failing
check, and /metrics as Prometheus reads it after a scripted game (and a rate limit).

/healthz: the real bot, in this process, connects to a fake Discord on loopback (REST and a
gateway websocket this test drives step by step). /metrics: the bot plays through the fake
Discord (fake_discord/), and the page is parsed with prometheus-client's own parser.
"""

import asyncio
import json
import random
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.app import TicTacToeBot
from bot.records.startup import start_records
from bot.settings import Settings
from fake_discord import Fault, Harness, first_empty, is_over, text
from fake_discord.rest import TOKEN
from testdb.postgres import start_or_skip

APP_ID = "123456789012345678"
GUILD_ID = "223456789012345678"
BOT_USER = {
    "id": APP_ID,
    "username": "TicTacToe",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
}


def json_response(
    payload: object, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    # discord.py decodes a body only if its content type is exactly application/json.
    body = json.dumps(payload).encode()
    headers = {**(headers or {}), "Content-Type": "application/json"}
    return web.Response(body=body, status=status, headers=headers)


class LoopbackDiscord:
    """Discord's REST calls of a start-up, and a gateway whose READY, GUILD_CREATE and RESUMED
    the test sends when it chooses. What the bot sends on the gateway (IDENTIFY, RESUME) is
    queued for the test to wait on."""

    def __init__(self) -> None:
        self.received: asyncio.Queue[tuple[int, web.WebSocketResponse]] = asyncio.Queue()
        self.sequence = 0
        self.rate_limited = False
        app = web.Application()
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_get("/api/v10/oauth2/applications/@me", self.application)
        app.router.add_get(f"/api/v10/applications/{APP_ID}/commands", self.commands)
        app.router.add_put(f"/api/v10/applications/{APP_ID}/commands", self.commands)
        app.router.add_get("/api/v10/gateway/bot", self.gateway_info)
        app.router.add_get("/gateway", self.gateway)
        self.runner = web.AppRunner(app)
        self.url = ""

    async def __aenter__(self) -> "LoopbackDiscord":
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.runner.cleanup()

    async def me(self, request: web.Request) -> web.Response:
        return json_response(BOT_USER)

    async def application(self, request: web.Request) -> web.Response:
        return json_response(
            {"id": APP_ID, "name": "TicTacToe", "description": "", "icon": None,
             "bot_public": True, "bot_require_code_grant": False, "owner": BOT_USER,
             "verify_key": "0" * 64, "flags": 0}
        )  # fmt: skip

    async def commands(self, request: web.Request) -> web.Response:
        if request.method == "GET" and not self.rate_limited:
            # The first look at the commands is rate-limited: discord.py waits, then retries.
            self.rate_limited = True
            body = {"message": "You are being rate limited.", "retry_after": 0, "global": False}
            headers = {"Via": "1.1 google", "X-RateLimit-Scope": "shared"}
            return json_response(body, status=429, headers=headers)
        if request.method == "GET":
            return json_response([])
        return json_response(
            [
                {"description": "", **p, "id": str(10**17 + i), "application_id": APP_ID}
                for i, p in enumerate(await request.json())
            ]
        )

    async def gateway_info(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        url = self.url.replace("http", "ws") + "/gateway"
        return json_response({"url": url, "shards": 1, "session_start_limit": limit})

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for message in ws:
            op = json.loads(message.data)["op"]
            if op == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11}))
            else:
                await self.received.put((op, ws))
        return ws

    async def next_from_bot(self, op: int, bot: asyncio.Task) -> web.WebSocketResponse:
        """Wait for the bot to send `op` (2: IDENTIFY, 6: RESUME); the socket it came on.
        `bot` is the bot's running start(): if it ends first, its error is raised."""
        received, ws = await until(self.received.get(), bot)
        assert received == op, f"expected op {op}, the bot sent op {received}"
        return ws

    async def dispatch(self, ws: web.WebSocketResponse, event: str, data: object) -> None:
        self.sequence += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self.sequence, "d": data}))

    def ready(self) -> dict[str, object]:
        return {
            "v": 10,
            "user": BOT_USER,
            "guilds": [{"id": GUILD_ID, "unavailable": True}],
            "session_id": "session",
            "resume_gateway_url": self.url.replace("http", "ws") + "/gateway",
            "shard": [0, 1],
            "application": {"id": APP_ID, "flags": 0},
        }

    @staticmethod
    def guild() -> dict[str, object]:
        return {
            "id": GUILD_ID, "name": "club", "icon": None, "owner_id": "1", "roles": [],
            "emojis": [], "stickers": [], "features": [], "member_count": 1, "large": False,
            "joined_at": "2026-01-01T00:00:00+00:00", "preferred_locale": "en-US",
            "premium_tier": 0, "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "system_channel_flags": 0, "afk_timeout": 300, "channels": [], "threads": [],
            "members": [], "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [],
        }  # fmt: skip


def port_of(bot: TicTacToeBot) -> int:
    assert bot.status_server is not None
    assert bot.status_server.port is not None
    return bot.status_server.port


async def until(awaitable, running: asyncio.Task):
    """Await `awaitable`, unless the bot's `running` task ends first (then raise its error)."""
    waiting = asyncio.ensure_future(awaitable)
    await asyncio.wait({waiting, running}, return_when=asyncio.FIRST_COMPLETED)
    if not waiting.done():
        waiting.cancel()
        running.result()  # the bot's error, if it failed
        raise AssertionError("the bot stopped")
    return waiting.result()


async def healthz(bot: TicTacToeBot) -> tuple[int, str]:
    url = f"http://127.0.0.1:{port_of(bot)}/healthz"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def scrape(bot: TicTacToeBot) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """/metrics, parsed by prometheus-client: every sample by name and labels."""
    url = f"http://127.0.0.1:{port_of(bot)}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        page = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(page)
        for sample in family.samples
    }


@pytest.fixture
async def loopback(monkeypatch) -> AsyncIterator[LoopbackDiscord]:
    async with LoopbackDiscord() as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.url + "/api/v10")
        yield fake


async def test_healthz_through_start_up_a_gateway_drop_and_a_failing_check(loopback):
    settings = Settings(token="a-token", metrics_port=0)  # any free port
    bot = TicTacToeBot(settings, rng=random.Random(0))
    running = asyncio.create_task(bot.start(settings.token))
    try:
        ws = await loopback.next_from_bot(2, running)  # IDENTIFY: connected, no READY yet
        assert await healthz(bot) == (503, "shard 0 not connected\n")

        connected = asyncio.ensure_future(bot.wait_for("shard_connect"))
        await loopback.dispatch(ws, "READY", loopback.ready())
        await until(connected, running)
        assert await healthz(bot) == (503, "shard 0 connecting\n")  # its servers not in yet

        ready = asyncio.ensure_future(bot.wait_for("shard_ready"))
        await loopback.dispatch(ws, "GUILD_CREATE", loopback.guild())
        await until(ready, running)
        assert await healthz(bot) == (200, "ok\n")

        await ws.close(code=4000)  # Discord drops the connection; discord.py resumes it
        ws = await loopback.next_from_bot(6, running)
        assert await healthz(bot) == (503, "shard 0 disconnected\n")
        resumed = asyncio.ensure_future(bot.wait_for("shard_resumed"))
        await loopback.dispatch(ws, "RESUMED", {})
        await until(resumed, running)
        assert await healthz(bot) == (200, "ok\n")
        reconnects = await scrape(bot)
        assert reconnects["tictactoe_gateway_reconnects_total", (("shard", "0"),)] == 1
        assert ("tictactoe_gateway_latency_seconds", (("shard", "0"),)) in reconnects
        # The start-up's rate-limited request, as discord.py's real HTTP session read it.
        assert reconnects["tictactoe_discord_rate_limits_total", (("scope", "shared"),)] == 1
        assert reconnects["tictactoe_discord_rest_errors_total", (("status", "429"),)] == 1

        # What the records writer will register (the real one comes with the database).
        failing = "the database is unreachable"
        bot.health.add_check("recording", lambda: failing)
        assert await healthz(bot) == (503, "recording: the database is unreachable\n")
        failing = None  # type: ignore[assignment]
        assert await healthz(bot) == (200, "ok\n")
    finally:
        await bot.close()
        await running
    assert bot.status_server is not None
    with pytest.raises(aiohttp.ClientConnectionError):
        await healthz(bot)  # closed with the bot


# ------------------------------------------------------------------ /metrics


def sample(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_count_what_a_scripted_game_did(monkeypatch, tmp_path):
    settings = Settings(token=TOKEN, metrics_port=0, shard_count=1)
    records, writer = await start_records(
        f"sqlite+aiosqlite:///{tmp_path / 'records.db'}", tmp_path / "spool.jsonl"
    )
    bot = TicTacToeBot(settings, rng=random.Random(3), records=records, writer=writer)
    async with await Harness.start(bot=bot) as harness:
        await harness.connect()
        channel = harness.create_guild("club").channels[0]
        alice, bob = harness.create_user("alice"), harness.create_user("bob")
        before = await scrape(bot)
        assert sample(before, "tictactoe_games_live") == 0
        assert sample(before, "tictactoe_pending_records") == 0  # the records writer's
        assert sample(before, "tictactoe_database_write_seconds_count") == 0

        started = await harness.slash(alice, channel, "tictactoe", difficulty="easy")
        assert started.response.message is not None
        board_id = int(started.response.message["id"])
        live = await scrape(bot)
        assert sample(live, "tictactoe_games_live") == 1
        assert sample(live, "tictactoe_games_started_total", kind="ai") == 1

        refused = await harness.click(bob, harness.discord.message(board_id), cell=(1, 1))
        assert refused.ephemeral
        # Discord rate-limits one answer (discord.py waits and retries), and refuses another.
        harness.discord.inject(Fault("callback", status=429, retry_after=0.0))
        harness.discord.inject(Fault("callback", status=404, match=Skip(1)))
        moves, apologies = 0, 0
        while not is_over(board := harness.discord.message(board_id)):
            sent = await harness.click(alice, board, cell=first_empty(board))
            if sent.callbacks[-1].ephemeral:
                assert "Sorry, something went wrong" in text(sent.callbacks[-1].message or {})
                apologies += 1
            else:
                moves += 1
        assert await writer.flush()
        finished = await scrape(bot)

    result = "won" if "wins** with three in a row" in text(board) else "draw"
    assert sample(finished, "tictactoe_games_live") == 0
    assert sample(finished, "tictactoe_games_finished_total", kind="ai", result=result) == 1
    assert sample(finished, "tictactoe_clicks_total", outcome="moved", reason="") == moves
    assert sample(finished, "tictactoe_clicks_total", outcome="refused", reason="not_player") == 1
    assert apologies == 1
    assert sample(finished, "tictactoe_errors_total", where="click") == 1
    assert sample(finished, "tictactoe_discord_rest_errors_total", status="429") == 1
    assert sample(finished, "tictactoe_discord_rest_errors_total", status="404") == 1
    assert sample(finished, "tictactoe_discord_rate_limits_total", scope="user") == 1
    clicks = moves + apologies + 1
    assert sample(finished, "tictactoe_handling_seconds_count", kind="click") == clicks
    assert sample(finished, "tictactoe_handling_seconds_bucket", kind="click", le="+Inf") == clicks
    assert sample(finished, "tictactoe_handling_seconds_count", kind="command") == 1
    # The finished game, recorded in the background: nothing left waiting, one write timed.
    assert writer.written == 1
    assert sample(finished, "tictactoe_pending_records") == 0
    assert sample(finished, "tictactoe_database_write_seconds_count") == 1


async def play_to_the_end(harness, player, channel) -> None:
    started = await harness.slash(player, channel, "tictactoe", difficulty="easy")
    board_id = int(started.response.message["id"])
    while not is_over(board := harness.discord.message(board_id)):
        await harness.click(player, board, cell=first_empty(board))


async def test_healthz_fails_while_the_database_is_down_and_recovers(tmp_path):
    """A real PostgreSQL server of this test's own, stopped while games finish."""
    server = start_or_skip()
    try:
        with server.database("health") as url:
            records, writer = await start_records(url, tmp_path / "spool.jsonl")
            settings = Settings(token=TOKEN, metrics_port=0, shard_count=1)
            bot = TicTacToeBot(settings, rng=random.Random(1), records=records, writer=writer)
            async with await Harness.start(bot=bot) as harness:
                await harness.connect()
                channel = harness.create_guild("club").channels[0]
                alice = harness.create_user("alice")
                assert await healthz(bot) == (200, "ok\n")

                server.stop()
                await play_to_the_end(harness, alice, channel)  # the game goes on regardless
                assert not await writer.flush(wait=5)  # it cannot be written
                status, reason = await healthz(bot)
                assert status == 503
                assert reason.startswith("recording: ")
                assert reason.count("\n") == 1
                down = await scrape(bot)
                assert sample(down, "tictactoe_pending_records") == 1

                server.start()
                assert await writer.flush(wait=30)  # retried and written once it is back
                assert await healthz(bot) == (200, "ok\n")
                up = await scrape(bot)
                assert sample(up, "tictactoe_pending_records") == 0
            assert writer.written == 1
    finally:
        server.destroy()


class Skip:
    """A fault's `match`: let the first `n` matching requests through."""

    def __init__(self, n: int) -> None:
        self.left = n

    def __call__(self, request) -> bool:
        if self.left:
            self.left -= 1
            return False
        return True
