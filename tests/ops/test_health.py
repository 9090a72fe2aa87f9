"""METRICS_PORT: /healthz as a watchdog sees it through a start-up, a gateway drop and a failing
check, and /metrics as Prometheus reads it after a scripted game (and a rate limit).

/healthz: the real bot, in this process, connects to a fake Discord on loopback (REST and a
gateway websocket this test drives step by step). /metrics: the bot plays through the fake
Discord (fake_discord/), and the page is parsed with prometheus-client's own parser.
"""

import asyncio
import random
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import TicTacToeBot
from bot.records.startup import start_records
from bot.settings import Settings
from fake_discord import Fault, Harness, first_empty, is_over, text
from fake_discord.loopback import Loopback
from fake_discord.rest import TOKEN
from testdb.postgres import start_or_skip

LOOPBACK_TOKEN = "a-token"
IDENTIFY, RESUME = (
    discord.gateway.DiscordWebSocket.IDENTIFY,
    discord.gateway.DiscordWebSocket.RESUME,
)


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
async def loopback(monkeypatch) -> AsyncIterator[Loopback]:
    """Discord on loopback, whose READY, GUILD_CREATE and RESUMED this test sends when it
    chooses; the start-up's first look at the commands is rate-limited (discord.py waits, then
    retries)."""
    async with Loopback(token=LOOPBACK_TOKEN, gateway="manual") as fake:
        limited = Fault("commands", status=429, scope="shared", match=lambda r: r.method == "GET")
        fake.discord.inject(limited)
        monkeypatch.setattr(discord.http.Route, "BASE", fake.url + "/api/v10")
        yield fake


async def test_healthz_through_start_up_a_gateway_drop_and_a_failing_check(loopback):
    settings = Settings(token=LOOPBACK_TOKEN, metrics_port=0)  # any free port
    bot = TicTacToeBot(settings, rng=random.Random(0))
    guild = loopback.create_guild("club")
    running = asyncio.create_task(bot.start(settings.token))
    try:
        ws = await loopback.next_from_bot(IDENTIFY, running)  # connected, no READY yet
        assert await healthz(bot) == (503, "shard 0 not connected\n")

        connected = asyncio.ensure_future(bot.wait_for("shard_connect"))
        await loopback.send(ws, "READY", loopback.ready_payload(ws))
        await until(connected, running)
        assert await healthz(bot) == (503, "shard 0 connecting\n")  # its servers not in yet

        ready = asyncio.ensure_future(bot.wait_for("shard_ready"))
        await loopback.announce(guild)
        await until(ready, running)
        assert await healthz(bot) == (200, "ok\n")

        await loopback.drop(ws, code=4000)  # Discord drops the connection; discord.py resumes
        ws = await loopback.next_from_bot(RESUME, running)
        assert await healthz(bot) == (503, "shard 0 disconnected\n")
        resumed = asyncio.ensure_future(bot.wait_for("shard_resumed"))
        await loopback.send(ws, "RESUMED", {})
        await until(resumed, running)
        assert await healthz(bot) == (200, "ok\n")
        reconnects = await scrape(bot)
        assert reconnects["tictactoe_gateway_reconnects_total", (("shard", "0"),)] == 1
        assert ("tictactoe_gateway_latency_seconds", (("shard", "0"),)) in reconnects
        # The start-up's rate-limited request, as discord.py's real HTTP session read it.
        assert reconnects["tictactoe_discord_rate_limits_total", (("scope", "shared"),)] == 1
        assert reconnects["tictactoe_discord_rest_errors_total", (("status", "429"),)] == 1
        assert not loopback.problems()

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
