"""The loopback fake Discord (fake_discord/loopback.py) with a real `python -m bot` process: it
logs in, plays a friend's challenge to the end, and resumes a dropped gateway connection."""

import asyncio
import os
from pathlib import Path

import aiohttp
import discord
import pytest

from fake_discord import first_empty, is_over, marks, text
from fake_discord.loopback import Loopback, launch_command

REPO = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.loopback-token"
Op = discord.gateway.DiscordWebSocket
Response = discord.InteractionResponseType


@pytest.fixture(params=[(), ("zstandard",)], ids=["as-installed", "without-zstandard"])
async def bot_process(request, tmp_path):
    """A Loopback and `python -m bot` logged in to it (records in tmp_path), until the test
    ends; without zstandard, discord.py asks for zlib-stream instead of zstd-stream."""
    async with Loopback(token=TOKEN) as fake:
        channel = fake.create_guild("club").channels[0]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATA_"))}
        env.update(PYTHONPATH=str(REPO), DISCORD_TOKEN=TOKEN, DATA_DIR=str(tmp_path))
        child = await asyncio.create_subprocess_exec(
            *launch_command(fake.url, "-m", "bot", hide=request.param),
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        try:
            await fake.wait_ready()
            # What discord.py asks for: zstd-stream when it can import zstandard, else zlib.
            installed = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
            yield fake, channel, "zlib-stream" if request.param else installed
        finally:
            child.terminate()
            assert await asyncio.wait_for(child.wait(), timeout=60) == 0


async def test_a_bot_process_plays_a_challenge_to_the_end(bot_process):
    fake, channel, compression = bot_process
    connection = await fake.next_from_bot(Op.IDENTIFY)
    assert connection.shard == (0, 1)
    assert connection.compress == compression
    alice, bob = fake.create_user("alice"), fake.create_user("bob")

    challenge = await fake.slash(alice, channel, "tictactoe", opponent=bob)
    assert challenge.type is Response.channel_message
    assert "challenges you" in text(challenge.message)
    accepted = await fake.click(bob, challenge.message, label="Accept")
    assert accepted.type is Response.message_update
    board = accepted.message
    players = {"X": alice, "O": bob}
    mark, shown = "X", {}
    while not is_over(board):
        cell = first_empty(board)
        answer = await fake.click(players[mark], board, cell=cell)
        assert (answer.succeeded, answer.type, answer.ephemeral) == (
            True,
            Response.message_update,
            False,
        )
        shown[cell] = mark
        assert marks(answer.message) == shown
        assert fake.message(int(board["id"])) == answer.message  # as Discord stores it
        board, mark = answer.message, "O" if mark == "X" else "X"
    assert f"{alice.mention} wins" in text(board)
    assert fake.last_message(channel) == board
    assert fake.problems() == []


async def test_a_dropped_connection_is_resumed_and_interactions_still_answered(bot_process):
    fake, channel, _ = bot_process
    identified = await fake.next_from_bot(Op.IDENTIFY)
    await fake.drop(identified)
    resumed = await fake.next_from_bot(Op.RESUME)
    assert resumed.session_id == identified.session_id
    assert resumed.shard == (0, 1)
    answer = await fake.slash(fake.create_user("carol"), channel, "tictactoe")
    assert answer.type is Response.channel_message
    assert fake.problems() == []


async def test_every_request_is_answered_and_refusals_are_listed():
    async with Loopback(token=TOKEN) as fake, aiohttp.ClientSession(fake.url) as http:
        me = await http.get("/api/v10/users/@me", headers={"Authorization": f"Bot {TOKEN}"})
        assert (await me.json())["id"] == str(fake.bot_user.id)
        wrong = await http.get("/api/v10/users/@me", headers={"Authorization": "Bot other"})
        assert wrong.status == 401
        unknown = await http.get("/api/v10/nowhere", headers={"Authorization": f"Bot {TOKEN}"})
        assert (unknown.status, (await unknown.json())["code"]) == (404, 0)
        garbled = await http.post("/api/v10/interactions/1/tok1/callback", data=b"{not json")
        assert garbled.status == 400
        assert [problem.split(":")[0] for problem in fake.problems()] == [
            "GET /users/@me",
            "GET /nowhere",
            "POST /interactions/1/tok1/callback",
        ]


async def next_dispatch(ws: aiohttp.ClientWebSocketResponse) -> tuple[str, dict]:
    """The next DISPATCH event on a gateway connection (heartbeat acks and the like skipped)."""
    while True:
        frame = await asyncio.wait_for(ws.receive_json(), timeout=10)
        if frame["op"] == Op.DISPATCH:
            return frame["t"], frame["d"]


async def identify(fake: Loopback, http: aiohttp.ClientSession) -> aiohttp.ClientWebSocketResponse:
    """A gateway connection as a bot opens one (no compression), past READY."""
    assert fake.discord.gateway_url is not None
    ws = await http.ws_connect(fake.discord.gateway_url)
    assert (await ws.receive_json())["op"] == Op.HELLO
    await ws.send_json({"op": Op.IDENTIFY, "d": {"token": TOKEN, "shard": [0, 1]}})
    assert (await next_dispatch(ws))[0] == "READY"
    return ws


async def test_a_thread_reaches_the_gateway_and_a_reconnected_bots_guild_create():
    async with Loopback(token=TOKEN) as fake, aiohttp.ClientSession(fake.url) as http:
        guild = fake.create_guild("club")
        channel = guild.channels[0]
        bot = {"Authorization": f"Bot {TOKEN}"}
        ws = await identify(fake, http)
        event, joined = await next_dispatch(ws)
        assert (event, joined["threads"]) == ("GUILD_CREATE", [])
        posted = await http.post(
            f"/api/v10/channels/{channel.id}/messages", json={"content": "Cup"}, headers=bot
        )
        card = await posted.json()
        started = await http.post(
            f"/api/v10/channels/{channel.id}/messages/{card['id']}/threads",
            json={"name": "Cup", "auto_archive_duration": 60},
            headers=bot,
        )
        assert started.status == 201
        thread = await started.json()
        event, created = await next_dispatch(ws)
        assert event == "THREAD_CREATE"
        assert created == {**thread, "newly_created": True}
        assert (thread["id"], thread["parent_id"]) == (card["id"], str(channel.id))
        await ws.close()
        ws = await identify(fake, http)
        event, joined = await next_dispatch(ws)
        assert event == "GUILD_CREATE"
        assert joined["threads"] == [thread]
        await ws.close()
        assert fake.problems() == []


async def test_a_channels_sixth_message_in_a_window_is_answered_429_as_discord_does():
    async with Loopback(token=TOKEN) as fake, aiohttp.ClientSession(fake.url) as http:
        channel = fake.create_guild("club").channels[0]
        bot = {"Authorization": f"Bot {TOKEN}"}
        path = f"/api/v10/channels/{channel.id}/messages"
        remaining = []
        for i in range(5):
            answer = await http.post(path, json={"content": f"Board {i}"}, headers=bot)
            assert answer.status == 200
            remaining.append(answer.headers["X-RateLimit-Remaining"])
        assert remaining == ["4", "3", "2", "1", "0"]
        assert answer.headers["X-RateLimit-Limit"] == "5"
        limited = await http.post(path, json={"content": "Board 5"}, headers=bot)
        body = await limited.json()
        assert limited.status == 429
        assert body["global"] is False
        assert 0 < body["retry_after"] <= 5
        assert float(limited.headers["X-RateLimit-Reset-After"]) == body["retry_after"]
        assert limited.headers["X-RateLimit-Remaining"] == "0"
        assert limited.headers["X-RateLimit-Scope"] == "user"
        assert limited.headers["Via"]  # without it, discord.py takes a 429 for a ban
        assert 1 <= int(limited.headers["Retry-After"]) <= 5
        other = fake.create_guild("other").channels[0]
        elsewhere = await http.post(
            f"/api/v10/channels/{other.id}/messages", json={"content": "Board"}, headers=bot
        )
        assert elsewhere.status == 200  # a bucket per channel
        assert [m["content"] for m in fake.messages_in(channel)] == [f"Board {i}" for i in range(5)]
        assert fake.discord.message_bucket.rate_limited == 1
        assert fake.problems() == []  # a 429 is Discord pacing the bot, not a refusal
