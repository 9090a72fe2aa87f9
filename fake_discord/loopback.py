"""FakeDiscord on 127.0.0.1: REST over HTTP and a gateway websocket, for a real bot process.

    async with Loopback(token=TOKEN) as discord_:          # a free port: discord_.url
        channel = discord_.create_guild("club").channels[0]
        alice = discord_.create_user("alice")
        child = start launch_command(discord_.url, "-m", "bot") with DISCORD_TOKEN=TOKEN
        await discord_.wait_ready()
        answer = await discord_.slash(alice, channel, "tictactoe")   # the callback Request
        board = answer.message
        answer = await discord_.click(alice, board, cell=(1, 1))
        assert not discord_.problems()

The REST side is fake_discord.rest.FakeDiscord itself (its routes, stored messages, checks of
every body, faults): this module is only the transport around it. The bot's token is checked
(401 for another). The gateway answers HELLO, IDENTIFY with READY and a GUILD_CREATE for each
server on that shard, heartbeats with ACKs, RESUME with RESUMED; frames are compressed as the
bot asks (zlib-stream, or zstd-stream when zstandard is installed), as Discord's are.

What the REST side does on its own (a thread started from a message, updated, deleted; a
channel's overwrites changed) goes out on the gateway too, to the shard that holds the server
(THREAD_CREATE with newly_created, ...), and GUILD_CREATE carries the server's active threads.

gateway="manual" leaves READY, GUILD_CREATE and RESUMED to the test (`next_from_bot`, `send`,
`drop`), for tests of what a bot does in between; gateway="silent" does not even say HELLO.

Interactions: `dispatch_slash` / `dispatch_click` send INTERACTION_CREATE on the gateway and
return an Exchange at once; `slash` / `click` wait for the bot's answer (the callback). Every
request is answered (unknown routes 404, as Discord); `problems()` lists what Discord would
have refused and every interaction left unanswered, so that a test or benchmark can check that
each click was answered validly.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

import discord
from aiohttp import WSMsgType, web

from .attachments import Upload
from .interactions import click_data, open_interaction, slash_data
from .payloads import ATTACHMENT_SIZE_LIMIT, FakeGuild, FakeUser, Json, Place, Snowflakes
from .rest import TOKEN, FakeDiscord, Request, token_of
from .world import World

LAUNCH = Path(__file__).with_name("launch.py")  # points a bot process at a fake (see there)
API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
HEARTBEAT_INTERVAL_MS = 41_250  # Discord's
ANSWER_TIMEOUT = 10.0  # seconds to wait for an answer (Discord refuses it after 3 anyway)
GATEWAY_WAIT = 60.0  # seconds to wait for a bot process to start up and connect

Op = discord.gateway.DiscordWebSocket
GatewayMode = Literal["auto", "manual", "silent"]


@dataclass(eq=False, slots=True)
class Exchange:
    """One INTERACTION_CREATE sent to the bot, and every request made with its token."""

    id: int
    token: str
    type: discord.InteractionType
    requests: list[Request] = field(default_factory=list)
    answered: asyncio.Future[Request] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    async def answer(self) -> Request:
        """The bot's callback (the interaction's answer), once it has come."""
        try:
            return await asyncio.wait_for(asyncio.shield(self.answered), ANSWER_TIMEOUT)
        except TimeoutError:
            raise AssertionError(
                f"interaction {self.id}: no answer in {ANSWER_TIMEOUT} s"
            ) from None


def launch_command(url: str, *target: str, hide: tuple[str, ...] = ()) -> list[str]:
    """The command line that runs `target` (["-m", "bot"], or a script and its arguments)
    against the fake Discord at `url`, as if the `hide` packages were not installed."""
    hidden = [arg for name in hide for arg in ("--hide", name)]
    return [sys.executable, str(LAUNCH), url, *hidden, *target]


class Connection:
    """One gateway websocket, as one shard of the bot sees it."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress  # as the bot asked: "zlib-stream", "zstd-stream" or None
        self.shard = (0, 1)
        self.sequence = 0
        self.session_id = ""
        self._sending = asyncio.Lock()  # one event at a time, in sequence order
        if compress == "zlib-stream":
            zlib_stream = zlib.compressobj()
            self._compress: Any = lambda data: (
                zlib_stream.compress(data) + zlib_stream.flush(zlib.Z_SYNC_FLUSH)
            )
        elif compress == "zstd-stream":
            import zstandard  # what discord.py asks for when it has zstandard itself

            zstd_stream = zstandard.ZstdCompressor().compressobj()
            self._compress = lambda data: (
                zstd_stream.compress(data) + zstd_stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
            )
        elif compress is None:
            self._compress = None
        else:
            raise ValueError(f"unknown gateway compression {compress!r}")

    async def send(self, payload: Json) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        if self._compress is None:
            await self.ws.send_str(text)
        else:
            await self.ws.send_bytes(self._compress(text.encode()))

    async def dispatch(self, event: str, data: Any) -> None:
        async with self._sending:
            self.sequence += 1
            await self.send({"op": Op.DISPATCH, "t": event, "s": self.sequence, "d": data})


class Loopback(World):
    """FakeDiscord served on a free port of 127.0.0.1, REST and gateway (see the module)."""

    def __init__(
        self,
        *,
        token: str = TOKEN,
        bot_user: FakeUser | None = None,
        gateway: GatewayMode = "auto",
        shard_count: int = 1,
        record: bool = True,
    ) -> None:
        snowflake = Snowflakes()
        super().__init__(
            FakeDiscord(
                bot_user=bot_user or FakeUser(snowflake(), "TicTacToe", bot=True),
                snowflake=snowflake,
                record=record,
                token=token,
            )
        )
        self.discord.shard_count = shard_count
        self.gateway_mode = gateway
        self.url = ""
        self.connected = asyncio.Event()  # a gateway websocket was opened
        self.guilds: list[FakeGuild] = []
        self.identified: list[Json] = []  # every IDENTIFY's data
        # What the bot sent, for next_from_bot: IDENTIFY and RESUME (manual: all but heartbeats).
        self.received: asyncio.Queue[tuple[int, Any, Connection]] = asyncio.Queue()
        self.connections: dict[int, Connection] = {}  # by shard id
        self.refused: list[Request] = []  # requests Discord answered with an error
        self._ready_shards: set[int] = set()
        self._ready = asyncio.Event()
        self._exchanges: dict[str, Exchange] = {}  # by token, until answered
        self._unanswered: dict[str, Exchange] = {}
        self._sending: set[asyncio.Task[None]] = set()  # gateway events on their way
        self.discord.listeners.append(self._on_dispatch)
        # Bodies up to Discord's upload limit reach the fake, which refuses a larger file as
        # Discord does (aiohttp's own limit is 1 MiB).
        app = web.Application(client_max_size=2 * ATTACHMENT_SIZE_LIMIT)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_route("*", "/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> Self:
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        self.discord.gateway_url = f"ws://{host}:{port}{GATEWAY_PATH}"
        return self

    async def close(self) -> None:
        self.discord.resume()
        for connection in list(self.connections.values()):
            await connection.ws.close()
        await self._runner.cleanup()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- the world

    def create_guild(self, name: str, *, channels: int = 1) -> FakeGuild:
        """A server with `channels` text channels; the bot hears of it in READY and its
        GUILD_CREATE (at once, if its shard is already connected; see `announce`)."""
        guild = self._new_guild(self.discord.snowflake(), name, channels)
        self.guilds.append(guild)
        return guild

    async def announce(self, guild: FakeGuild) -> None:
        """GUILD_CREATE for `guild` on its shard's connection (it must be connected)."""
        connection = self.connections[self.shard_of(guild.id)]
        await connection.dispatch("GUILD_CREATE", self._guild_payload(guild))

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.discord.shard_count

    def message(self, message_id: int) -> Json:
        """A stored message, as Discord would send it."""
        return self.discord.message(message_id)

    # -- the gateway

    async def wait_ready(self) -> None:
        """Until every shard has been sent READY and its servers (gateway="auto")."""
        await asyncio.wait_for(self._ready.wait(), GATEWAY_WAIT)

    async def next_from_bot(
        self, op: int, running: asyncio.Future[Any] | None = None
    ) -> Connection:
        """Wait for the bot to send `op` (IDENTIFY, RESUME, ...) on the gateway; the connection
        it came on. `running`: the bot's start(), whose end (or error) ends the wait early."""
        waiting = asyncio.ensure_future(self.received.get())
        others: set[asyncio.Future[Any]] = set() if running is None else {running}
        done, _ = await asyncio.wait(
            {waiting, *others}, timeout=GATEWAY_WAIT, return_when=asyncio.FIRST_COMPLETED
        )
        if waiting not in done:
            waiting.cancel()
            for ended in done:
                ended.result()  # the bot's error, if it failed
            raise AssertionError(f"the bot sent no op {op}")
        received, _, connection = waiting.result()
        assert received == op, f"expected op {op}, the bot sent op {received}"
        return connection

    def ready_payload(self, connection: Connection) -> Json:
        shard_id, count = connection.shard
        return {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [
                {"id": str(guild.id), "unavailable": True}
                for guild in self.guilds
                if self.shard_of(guild.id) == shard_id
            ],
            "session_id": connection.session_id,
            "resume_gateway_url": self.discord.gateway_url,
            "shard": [shard_id, count],
            "application": {"id": str(self.discord.application_id), "flags": 0},
        }

    async def send(self, connection: Connection, event: str, data: Any) -> None:
        """A DISPATCH event on `connection` (READY: see ready_payload; GUILD_CREATE: announce)."""
        await connection.dispatch(event, data)

    async def drop(self, connection: Connection, code: int = 4000) -> None:
        """Discord closes the connection (4000: an unknown error; the bot resumes)."""
        await connection.ws.close(code=code)

    # -- interactions

    async def dispatch_slash(
        self, user: FakeUser, channel: Place, name: str, **options: Any
    ) -> Exchange:
        """Send /`name` with `options` to the bot; returns without waiting for its answer."""
        data = slash_data(self.discord, name, channel.guild_id, options)
        kind = discord.InteractionType.application_command
        return await self._dispatch(kind, user, channel, data, None, name)

    async def dispatch_click(
        self,
        user: FakeUser,
        message: Json,
        *,
        custom_id: str | None = None,
        cell: tuple[int, int] | None = None,
        label: str | None = None,
    ) -> Exchange:
        """Send a click on a button of `message` (see reading.find_button) to the bot."""
        data = click_data(message, custom_id=custom_id, cell=cell, label=label)
        channel = self.channel_of(message)
        kind = discord.InteractionType.component
        return await self._dispatch(kind, user, channel, data, message, None)

    async def slash(self, user: FakeUser, channel: Place, name: str, **options: Any) -> Request:
        """/`name`, and the bot's answer to it (the interaction callback)."""
        return await (await self.dispatch_slash(user, channel, name, **options)).answer()

    async def click(
        self,
        user: FakeUser,
        message: Json,
        *,
        custom_id: str | None = None,
        cell: tuple[int, int] | None = None,
        label: str | None = None,
    ) -> Request:
        """A click, and the bot's answer to it (the interaction callback)."""
        exchange = await self.dispatch_click(
            user, message, custom_id=custom_id, cell=cell, label=label
        )
        return await exchange.answer()

    def problems(self) -> list[str]:
        """What Discord refused (injected faults and rate limits aside: count those with
        discord.message_bucket), the interactions with no answer, and where the fake's own
        answers broke Discord's OpenAPI spec: empty when every interaction was answered validly."""
        found = [
            f"{r.method} {r.path}: {r.status} {r.body if r.status == 401 else ''}".rstrip()
            for r in self.refused
        ]
        found += self.discord.spec_problems
        found += [
            f"interaction {e.id} ({e.type.name}): no answer" for e in self._unanswered.values()
        ]
        return found

    async def _dispatch(
        self,
        kind: discord.InteractionType,
        user: FakeUser,
        channel: Place,
        data: Json,
        message: Json | None,
        command: str | None,
    ) -> Exchange:
        payload, record = open_interaction(
            self.discord, kind, user, channel, data, message=message, command=command
        )
        exchange = Exchange(record.id, payload["token"], kind)
        self._exchanges[exchange.token] = self._unanswered[exchange.token] = exchange
        shard = 0 if channel.guild_id is None else self.shard_of(channel.guild_id)
        await self.connections[shard].dispatch("INTERACTION_CREATE", payload)
        return exchange

    # -- the transport

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        cpu_at = time.thread_time()
        data: str | None = None
        files: tuple[Upload, ...] = ()
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            data = str(form.get("payload_json") or "") or None
            files = tuple(
                Upload(name, value.filename, value.file.read())
                for name, value in form.items()
                if isinstance(value, web.FileField)
            )
        elif request.body_exists:
            data = await request.text()
        try:
            answer = self.discord.handle(
                request.method,
                str(request.url),
                dict(request.headers),
                dict(request.query),
                data,
                cpu_at=cpu_at,
                files=files,
            )
        except ValueError as error:  # a body that is not JSON: Discord's 400, not a crash here
            path = request.path.removeprefix(API_PREFIX)
            self.refused.append(Request(request.method, path, "unknown", 400, cpu_at))
            body = {"message": f"400: Bad Request ({error})", "code": 50109}
            return _json_response(400, body, {})
        record, status, body, headers = answer
        if status >= 400 and status != 429 and record.fault is None:
            self.refused.append(record)
        self._note(record)
        await self.discord.respond()
        return _json_response(status, body, headers)

    def _note(self, request: Request) -> None:
        token = token_of(request.path)
        exchange = None if token is None else self._exchanges.get(token)
        if exchange is None:
            return
        exchange.requests.append(request)
        if request.route == "callback" and 200 <= request.status < 300:
            self._unanswered.pop(exchange.token, None)
            if not exchange.answered.done():
                exchange.answered.set_result(request)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        # Discord compresses the transport (zlib-stream, zstd-stream), not each message.
        ws = web.WebSocketResponse(compress=False, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request.query.get("compress"))
        self.connected.set()
        if self.gateway_mode == "silent":
            async for _ in ws:  # says nothing, until the bot gives up
                pass
            return ws
        await connection.send({"op": Op.HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        async for frame in ws:
            if frame.type is not WSMsgType.TEXT:
                continue
            sent = json.loads(frame.data)
            op, data = sent.get("op"), sent.get("d")
            if op == Op.HEARTBEAT:
                await connection.send({"op": Op.HEARTBEAT_ACK})
                continue
            if op in (Op.IDENTIFY, Op.RESUME):
                self._take(connection, op, data)
            if self.gateway_mode == "auto" and op == Op.IDENTIFY:
                await self._identified(connection)
            elif self.gateway_mode == "auto" and op == Op.RESUME:
                await connection.dispatch("RESUMED", {})
            if self.gateway_mode == "manual" or op in (Op.IDENTIFY, Op.RESUME):
                await self.received.put((op, data, connection))
        return ws

    def _take(self, connection: Connection, op: int, data: Json) -> None:
        """Note which shard and session a connection is for (IDENTIFY or RESUME)."""
        if op == Op.IDENTIFY:
            self.identified.append(data)
            shard_id, count = data.get("shard") or (0, 1)
            connection.shard = (shard_id, count)
            connection.session_id = f"session-{shard_id}-{len(self.identified)}"
        else:
            connection.session_id = data.get("session_id", "")
            connection.sequence = int(data.get("seq") or 0)
            for shard_id, known in self.connections.items():
                if known.session_id == connection.session_id:
                    connection.shard = known.shard
                    self.connections[shard_id] = connection
                    return
        self.connections[connection.shard[0]] = connection

    async def _identified(self, connection: Connection) -> None:
        await connection.dispatch("READY", self.ready_payload(connection))
        shard_id, count = connection.shard
        for guild in self.guilds:
            if self.shard_of(guild.id) == shard_id:
                await connection.dispatch("GUILD_CREATE", self._guild_payload(guild))
        self._ready_shards.add(shard_id)
        if len(self._ready_shards) >= count:
            self._ready.set()

    def _guild_payload(self, guild: FakeGuild) -> Json:
        return self.discord.guild_create(guild)

    def _on_dispatch(self, guild_id: int, event: str, data: Json) -> None:
        """A gateway event from the fake Discord, on the shard that holds `guild_id` (none
        until that shard has identified: it will hear of the server in GUILD_CREATE)."""
        connection = self.connections.get(self.shard_of(guild_id))
        if connection is not None and not connection.ws.closed:
            task = asyncio.ensure_future(connection.dispatch(event, data))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)


def _json_response(status: int, body: Any, headers: dict[str, str]) -> web.Response:
    if body is None:
        return web.Response(status=status, headers=headers)
    # discord.py decodes a body only if its content type is exactly application/json.
    return web.Response(
        status=status,
        body=json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode(),
        headers={**headers, "Content-Type": "application/json"},
    )
