"""Drive a real discord.py bot through its real interaction dispatch, in one process, offline.

    async with await Harness.start(seed=0) as harness:
        guild = harness.create_guild("club", channels=2)
        alice = harness.create_user("alice")
        sent = await harness.slash(alice, guild.channels[0], "tictactoe", play_as="O")
        board = harness.last_message(guild.channels[0])
        sent = await harness.click(alice, board, cell=(1, 1))
        assert sent.response.type is discord.InteractionResponseType.message_update

What is real: the bot (TicTacToeBot from bot.app unless another client is given) with
`Client.login` and `setup_hook` (command sync included), the gateway's JSON decoding of each
event, ConnectionState's INTERACTION_CREATE parser, the app command tree and the view store,
discord.py's HTTP layers (HTTPClient for bot routes, the webhook adapter for interaction
callbacks) with their JSON encoding, locks, retries and response parsing.

What is fake: the network. FakeSession stands where discord.py keeps its aiohttp session
(`HTTPClient._HTTPClient__session`, which every Interaction also takes for its callbacks) and
hands each request to FakeDiscord (fake_rest.py). No socket is opened.

`dispatch_slash` / `dispatch_click` feed one INTERACTION_CREATE and return at once (the bot's
handler is then a scheduled task), so several clicks can race; `Sent.wait()` or `slash` /
`click` wait until the bot's handler tasks have finished.

What the fake Discord does on its own (a thread started, archived, a channel's overwrites
changed) reaches the bot as the gateway event Discord sends (THREAD_CREATE, CHANNEL_UPDATE, ...),
parsed at once, if the server is one this bot's harness announced.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self

import discord
from discord.http import MultipartParameters, Route
from discord.webhook.async_ import async_context

from .interactions import click_data, open_interaction, slash_data
from .payloads import FakeChannel, FakeGuild, FakeUser, Json, Place, Snowflakes
from .rest import TOKEN, FakeDiscord, FakeSession, Request
from .world import World


@dataclass(eq=False, slots=True)
class Sent:
    """One INTERACTION_CREATE fed to the bot, and every request made with its token."""

    id: int
    token: str
    type: discord.InteractionType
    user_id: int
    channel_id: int
    dispatched_cpu: float = 0.0  # thread_time() before the gateway frame was decoded
    parsed_cpu: float = 0.0  # thread_time() once the parser returned (handlers scheduled)
    tasks: list[asyncio.Task[Any]] = field(default_factory=list, repr=False)
    requests: list[Request] = field(default_factory=list)

    @property
    def callbacks(self) -> list[Request]:
        return [r for r in self.requests if r.route == "callback"]

    @property
    def response(self) -> Request:
        """The interaction's one callback; AssertionError if there were none or several."""
        callbacks = self.callbacks
        assert len(callbacks) == 1, f"expected one callback, got {callbacks!r}"
        return callbacks[0]

    @property
    def ephemeral(self) -> bool:
        return self.response.ephemeral

    async def wait(self) -> Sent:
        """Wait until the bot's handler tasks for this interaction have finished."""
        for task in self.tasks:
            await task  # a handler's exception surfaces here, as with asyncio.gather
        self.tasks.clear()
        return self


class Harness(World):
    """A bot logged in to FakeDiscord, fed INTERACTION_CREATE payloads."""

    def __init__(self, bot: discord.Client, fake: FakeDiscord, snowflake: Snowflakes) -> None:
        super().__init__(fake)
        self.bot = bot
        self._snowflake = snowflake
        self._sent: dict[str, Sent] = {}  # by token, until forget()
        self._announced: set[int] = set()  # servers whose events this bot hears
        self._sequence = 0
        self._capture: list[asyncio.Task[Any]] | None = None
        self._factory: Any = None
        self._progress = asyncio.Event()  # set on every request and finished handler
        self._previous_factory: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    @classmethod
    async def start(
        cls,
        *,
        seed: int = 0,
        turn_timeout_seconds: int = 600,
        record: bool = True,
        bot: discord.Client | None = None,
        discord_: FakeDiscord | None = None,
    ) -> Harness:
        """Log `bot` (default: TicTacToeBot with a seeded AI) in to FakeDiscord (`discord_`:
        one that other harnesses' bots use too, as processes sharing the shards of a bot)."""
        if bot is None:
            # Imported by name: the harness does not depend on the bot's (changing) types.
            client, settings = (importlib.import_module(f"bot.{m}") for m in ("app", "settings"))
            config = settings.Settings(token=TOKEN, turn_timeout_seconds=turn_timeout_seconds)
            bot = client.TicTacToeBot(config, rng=random.Random(seed))
        if discord_ is None:
            snowflake = Snowflakes()
            fake = FakeDiscord(
                bot_user=FakeUser(snowflake(), "TicTacToe", bot=True),
                snowflake=snowflake,
                record=record,
            )
        else:
            fake, snowflake = discord_, discord_.snowflake
        harness = cls(bot, fake, snowflake)
        fake.listeners.append(harness._on_dispatch)
        harness._install_task_factory()
        try:
            await harness._login()
        except BaseException:
            await harness.close()
            raise
        return harness

    async def _login(self) -> None:
        http = self.bot.http
        session = FakeSession(self.discord, self._on_request)

        async def static_login(token: str) -> Any:
            # HTTPClient.static_login without the aiohttp session: ours is the transport.
            http._HTTPClient__session = session  # type: ignore[attr-defined]
            http._global_over = asyncio.Event()
            http._global_over.set()
            http.token = token
            return await http.request(Route("GET", "/users/@me"))

        http.static_login = static_login  # type: ignore[method-assign]
        await self.bot.login(TOKEN)  # the real login: user, application info, setup_hook

    def _install_task_factory(self) -> None:
        """Note the tasks each dispatch creates, to know when the bot is done with it."""
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._previous_factory = previous = loop.get_task_factory()

        def factory(
            loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
        ) -> asyncio.Task[Any]:
            if previous is not None:
                task: asyncio.Task[Any] = previous(loop, coro, **kwargs)  # type: ignore[assignment]
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            if self._capture is not None:
                self._capture.append(task)
                task.add_done_callback(self._note_progress)
            return task

        self._factory = factory
        loop.set_task_factory(factory)  # type: ignore[arg-type]

    async def close(self) -> None:
        """Let running handlers finish, close the bot (cogs unloaded: timers cancelled)."""
        if self.closed:
            return
        self.closed = True
        self.discord.resume()
        pending = [task for sent in self._sent.values() for task in sent.tasks]
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        if not self.bot.is_closed():
            await self.bot.close()
        if self._loop is not None and self._loop.get_task_factory() is self._factory:
            # (A later harness's factory calls ours, which records nothing once closed.)
            self._loop.set_task_factory(self._previous_factory)
        self._sent.clear()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- the world

    def create_guild(
        self, name: str, *, channels: int = 1, announce: bool = True, shard: int | None = None
    ) -> FakeGuild:
        """A server with `channels` text channels, announced to the bot with GUILD_CREATE
        (announce=False: later, with announce()). `shard`: its id puts it on that shard of
        the bot's (Discord's rule: the id's milliseconds modulo the shard count)."""
        guild_id = self._snowflake()
        if shard is not None:
            count = getattr(self.bot, "shard_count", None) or 1
            while (guild_id >> 22) % count != shard % count:
                guild_id += 1 << 22  # a millisecond later
            self._snowflake._last = max(self._snowflake._last, guild_id)
        guild = self._new_guild(guild_id, name, channels)
        if announce:
            self.announce(guild)
        return guild

    def create_dm(self, user: FakeUser) -> FakeChannel:
        """The DM channel between `user` and the bot (Discord sends its events to shard 0)."""
        channel = FakeChannel(self._snowflake(), None, f"dm-{user.name}", recipient=user)
        self._add_channel(channel)
        return channel

    def adopt(self, *channels: FakeChannel) -> None:
        """Channels made by another harness on the same FakeDiscord, to click in here too."""
        for channel in channels:
            self._add_channel(channel)

    async def connect(self) -> None:
        """The gateway's READY for every shard the bot runs, as Discord sends it once the bot
        identifies; returns once discord.py has dispatched each shard's `shard_ready`."""
        bot, state = self.bot, self.bot._connection
        count = self.bot.shard_count or 1
        shard_ids = list(getattr(bot, "shard_ids", None) or range(count))
        # What AutoShardedClient.launch_shards sets before connecting; no servers to wait for.
        state.shard_count, state.shard_ids = count, shard_ids  # type: ignore[attr-defined]
        state.guild_ready_timeout = 0
        ready = [
            asyncio.ensure_future(bot.wait_for("shard_ready", check=lambda s, i=i: s == i))
            for i in shard_ids
        ]
        for shard_id in shard_ids:
            payload = {
                "v": 10,
                "user": self.bot_user.payload(),
                "guilds": [],
                "session_id": f"session-{shard_id}",
                "resume_gateway_url": "wss://gateway.invalid",
                "shard": [shard_id, count],
                "application": {"id": str(self.discord.application_id), "flags": 0},
            }
            self._receive(self._frame("READY", payload))
        await asyncio.gather(*ready)

    def announce(self, guild: FakeGuild) -> None:
        """Send GUILD_CREATE for `guild`: the bot joins it, or it comes back after an outage."""
        self._announced.add(guild.id)
        self._receive(self._frame("GUILD_CREATE", self.discord.guild_create(guild)))

    def remove(self, guild: FakeGuild, *, unavailable: bool = False) -> None:
        """Send GUILD_DELETE for `guild`: the bot was removed from it, or (`unavailable`) it is
        down for an outage and will come back with GUILD_CREATE."""
        self._announced.discard(guild.id)
        payload: Json = {"id": str(guild.id)}
        if unavailable:
            payload["unavailable"] = True
        self._receive(self._frame("GUILD_DELETE", payload))

    def post_message(self, channel: Place, data: Json) -> Json:
        """A message the bot posted in `channel` earlier (e.g. before a restart), stored as
        Discord would (DiscordError if Discord would refuse `data`)."""
        return self.discord.create_message(channel.id, channel.guild_id, data)

    # -- interactions

    def dispatch_slash(
        self, user: FakeUser, channel: Place, name: str = "tictactoe", **options: Any
    ) -> Sent:
        """Feed a /`name` INTERACTION_CREATE and return without waiting for the bot."""
        data = slash_data(self.discord, name, channel.guild_id, options)
        kind = discord.InteractionType.application_command
        return self._dispatch(kind, user, channel, data, message=None, command=name)

    def dispatch_click(
        self,
        user: FakeUser,
        message: Json,
        *,
        custom_id: str | None = None,
        cell: tuple[int, int] | None = None,
        label: str | None = None,
    ) -> Sent:
        """Feed a click on a button of `message` (its payload as shown: see reading.py for
        custom_id / cell / label) without waiting for the bot."""
        data = click_data(message, custom_id=custom_id, cell=cell, label=label)
        channel = self.channel_of(message)
        kind = discord.InteractionType.component
        return self._dispatch(kind, user, channel, data, message=message, command=None)

    async def slash(
        self, user: FakeUser, channel: Place, name: str = "tictactoe", **options: Any
    ) -> Sent:
        return await self.dispatch_slash(user, channel, name, **options).wait()

    async def click(
        self,
        user: FakeUser,
        message: Json,
        *,
        custom_id: str | None = None,
        cell: tuple[int, int] | None = None,
        label: str | None = None,
    ) -> Sent:
        sent = self.dispatch_click(user, message, custom_id=custom_id, cell=cell, label=label)
        return await sent.wait()

    async def gather(self, *sent: Sent) -> list[Sent]:
        """Wait for several dispatched interactions."""
        return [await one.wait() for one in sent]

    async def until_sent(self, *sent: Sent) -> None:
        """Yield to the loop until each interaction has reached the transport (or its handler
        ended without a request), e.g. while FakeDiscord is paused. No clock involved."""
        while not all(one.requests or all(task.done() for task in one.tasks) for one in sent):
            self._progress.clear()
            await self._progress.wait()

    async def race(self, *dispatch: Callable[[], Sent], paused: bool = False) -> list[Sent]:
        """Dispatch several interactions back to back, before the bot answers any of them.

        paused=False: all are parsed before any handler runs, so later ones carry a message
        that is stale by the time they are handled. paused=True: Discord's answers are held
        until every handler has sent its request, so all of them are in flight at once.
        """
        if paused:
            self.discord.pause()
        try:
            sent = [make() for make in dispatch]
            if paused:
                await self.until_sent(*sent)
        finally:
            self.discord.resume()
        return await self.gather(*sent)

    def forget(self, sent: Sent) -> None:
        """Drop the harness's and Discord's records of a finished interaction (load tests)."""
        self._sent.pop(sent.token, None)
        self.discord.interactions.pop(sent.token, None)

    def _dispatch(
        self,
        kind: discord.InteractionType,
        user: FakeUser,
        channel: Place,
        data: Json,
        *,
        message: Json | None,
        command: str | None,
    ) -> Sent:
        payload, record = open_interaction(
            self.discord, kind, user, channel, data, message=message, command=command
        )
        interaction_id, token = record.id, payload["token"]
        sent = Sent(interaction_id, token, kind, user.id, channel.id)
        self._sent[token] = sent
        frame = self._frame("INTERACTION_CREATE", payload)
        tasks: list[asyncio.Task[Any]] = []
        self._capture = tasks
        sent.dispatched_cpu = time.thread_time()
        try:
            self._receive(frame)
        finally:
            sent.parsed_cpu = time.thread_time()
            self._capture = None
        sent.tasks = tasks
        return sent

    def _frame(self, event: str, payload: Json) -> str:
        """The gateway DISPATCH frame as it comes off the wire (JSON text)."""
        self._sequence += 1
        frame = {"op": 0, "t": event, "s": self._sequence, "d": payload}
        return json.dumps(frame, separators=(",", ":"), ensure_ascii=True)

    def _receive(self, frame: str) -> None:
        """What DiscordWebSocket.received_message does with a DISPATCH frame."""
        msg = discord.utils._from_json(frame)  # the gateway's decoding: the bot's work
        self.bot._connection.parsers[msg["t"]](msg["d"])

    def _note_progress(self, _: object = None) -> None:
        self._progress.set()

    def _on_dispatch(self, guild_id: int, event: str, data: Json) -> None:
        """A gateway event from the fake Discord, for the servers this harness announced."""
        if not self.closed and guild_id in self._announced:
            self._receive(self._frame(event, data))

    def _on_request(self, request: Request, token: str | None) -> None:
        self._progress.set()
        sent = None if token is None else self._sent.get(token)
        if sent is not None:
            sent.requests.append(request)


async def answer_raw(
    interaction: discord.Interaction,
    kind: discord.InteractionResponseType,
    data: Json | None = None,
) -> Any:
    """Answer `interaction` with a prebuilt JSON body (`data` as Discord takes it).

    discord.py's InteractionResponse only takes objects (View, Embed); this makes the call its
    methods end in (see InteractionResponse.edit_message): the webhook adapter's
    create_interaction_response, through the session the interaction carries. Returns
    Discord's JSON answer, unparsed.
    """
    payload: Json = {"type": kind.value}
    if data is not None:
        payload["data"] = data
    return await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=interaction._state.http.proxy,
        proxy_auth=interaction._state.http.proxy_auth,
        params=MultipartParameters(payload=payload, multipart=None, files=None),
    )
