"""Drive the real bot through discord.py's real interaction dispatch, in one process, offline.

    async with await Harness.start(seed=0) as harness:
        guild = harness.create_guild("club", channels=2)
        alice = harness.create_user("alice")
        sent = await harness.slash(alice, guild.channels[0], "tictactoe", play_as="O")
        board = harness.last_message(guild.channels[0])
        sent = await harness.click(alice, board, cell=(1, 1))
        assert sent.response.type == 7

What is real: TicTacToeBot from bot.client with its cog, `Client.login` and `setup_hook` (the
command sync included), the gateway's JSON decoding of each event, ConnectionState's
INTERACTION_CREATE parser, the app command tree and the view store's dynamic items, discord.py's
HTTP layers (HTTPClient for bot routes, the webhook adapter for interaction callbacks) with their
JSON encoding, locks and response parsing.

What is fake: the network. `FakeSession` stands where discord.py keeps its aiohttp ClientSession
(`HTTPClient._HTTPClient__session`, which every Interaction also takes for its callbacks), and
hands each request to `FakeDiscord`, an in-process stub of the Discord REST routes the bot uses.
It keeps messages the way Discord does, answers interaction callbacks (types 4-7, honouring
`with_response`), followups and `@original` edits, refuses a second callback for one interaction
(40060), a callback after 3 seconds (10062) and invalid message bodies (50035), and records every
request. No socket is opened.

`Harness.dispatch_slash` / `dispatch_click` feed one INTERACTION_CREATE and return at once (the
bot's handler is then a scheduled task), so several clicks can race; `Sent.wait()` or
`Harness.slash` / `Harness.click` wait until the bot's handler task has finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlsplit

import discord
from discord.http import Route
from multidict import CIMultiDict

from bot.client import TicTacToeBot
from bot.settings import Settings

TOKEN = "x"
EPHEMERAL = 64
CALLBACK_DEADLINE_SECONDS = 3.0  # Discord drops an interaction not answered within 3 seconds
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
ALL_PERMISSIONS = str((1 << 50) - 1)
_API_PATH = re.compile(r"^/api/v\d+")

Json = dict[str, Any]


# ---------------------------------------------------------------------------------- identities


class Snowflakes:
    """Unique, increasing snowflakes whose timestamp is now, as Discord issues them."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now_ms = int(time.time() * 1000) - discord.utils.DISCORD_EPOCH
        value = max(now_ms << 22, self._last + 1)
        self._last = value
        return value


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "avatar_decoration_data": None,
        }


@dataclass(frozen=True, slots=True)
class FakeChannel:
    id: int
    guild_id: int
    name: str
    position: int = 0

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }


@dataclass(frozen=True, slots=True)
class FakeGuild:
    id: int
    name: str
    channels: tuple[FakeChannel, ...]


def member_payload(user: FakeUser, joined_at: str, *, with_user: bool = True) -> Json:
    member: Json = {
        "roles": [],
        "joined_at": joined_at,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "nick": None,
        "avatar": None,
        "premium_since": None,
        "communication_disabled_until": None,
        "permissions": ALL_PERMISSIONS,
    }
    if with_user:
        member["user"] = user.payload()
    return member


# ---------------------------------------------------------------------------------- records


@dataclass(eq=False, slots=True)
class Request:
    """One REST request as Discord received it, and what Discord did with it."""

    method: str
    path: str
    route: str  # "callback", "followup", "edit_original", "commands", ... or "unknown"
    status: int
    at: float  # time.perf_counter() when discord.py handed it to the transport
    body: Any = field(default=None, repr=False)
    type: int | None = None  # the interaction callback type (4, 5, 6, 7)
    message: Json | None = field(default=None, repr=False)  # as Discord stores it afterwards

    @property
    def content(self) -> str | None:
        return None if self.message is None else self.message.get("content")

    @property
    def components(self) -> list[Json]:
        return [] if self.message is None else self.message.get("components", [])

    @property
    def flags(self) -> int:
        return 0 if self.message is None else self.message.get("flags", 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)


@dataclass(eq=False, slots=True)
class Sent:
    """One INTERACTION_CREATE fed to the bot, and every request made with its token."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    dispatched_at: float  # perf_counter() before the gateway frame was decoded
    tasks: list[asyncio.Task[Any]] = field(default_factory=list, repr=False)
    requests: list[Request] = field(default_factory=list)
    answered_at: float | None = None  # perf_counter() of the first request with this token

    @property
    def latency(self) -> float | None:
        """Seconds from the dispatch to the bot handing its first request to the transport."""
        return None if self.answered_at is None else self.answered_at - self.dispatched_at

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
        if self.tasks:
            await asyncio.gather(*self.tasks)
        self.tasks.clear()
        return self


@dataclass(eq=False, slots=True)
class _InteractionRecord:
    """Discord's side of an interaction: what its token may still do."""

    id: int
    type: int
    channel_id: int
    guild_id: int | None
    user_id: int
    created_at: float  # perf_counter()
    command: str | None = None
    message_id: int | None = None  # the message a component was clicked on
    acknowledged: bool = False
    original_message_id: int | None = None


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def payload(self) -> Json:
        return {"message": self.message, "code": self.code}


# ---------------------------------------------------------------------------------- REST stub


class FakeDiscord:
    """An in-process stub of the Discord REST routes the bot uses. Not a mock of the bot."""

    def __init__(
        self,
        *,
        bot_user: FakeUser,
        snowflake: Callable[[], int],
        record: bool = True,
        callback_deadline: float = CALLBACK_DEADLINE_SECONDS,
    ) -> None:
        self.bot_user = bot_user
        self.application_id = bot_user.id
        self.snowflake = snowflake
        self.record = record  # keep every Request in self.requests (off for load tests)
        self.callback_deadline = callback_deadline
        self.requests: list[Request] = []
        self.commands: dict[int | None, list[Json]] = {}  # guild id (None: global) -> commands
        # Every non-ephemeral message by id, as JSON text: compact, and no load on the GC.
        self.messages: dict[int, str] = {}
        self.last_message_ids: dict[int, int] = {}  # channel id -> last non-ephemeral message
        self.users: dict[int, FakeUser] = {bot_user.id: bot_user}
        self.guild_of_channel: dict[int, int] = {}
        self.joined_at: str = iso_now()
        self.latency = 0.0  # seconds every response takes to come back
        self.busy_seconds = 0.0  # time spent being Discord: applying requests, encoding answers
        self._interactions: dict[str, _InteractionRecord] = {}  # by token
        self._paused: asyncio.Event | None = None

    # -- the harness side

    def register_interaction(self, token: str, record: _InteractionRecord) -> None:
        self._interactions[token] = record

    def forget_interaction(self, token: str) -> None:
        """Let a token lapse (Discord keeps it 15 minutes), e.g. to bound memory in load tests."""
        self._interactions.pop(token, None)

    def pause(self) -> None:
        """Hold every response (requests are still applied) until resume()."""
        if self._paused is None:
            self._paused = asyncio.Event()

    def resume(self) -> None:
        if self._paused is not None:
            self._paused.set()
            self._paused = None

    # -- the transport side

    async def respond(self, request: Request) -> None:
        """Delay a response as configured (latency, pause)."""
        if self.latency:
            await asyncio.sleep(self.latency)
        paused = self._paused
        if paused is not None:
            await paused.wait()

    def handle(
        self, method: str, url: str, headers: dict[str, str], params: dict[str, Any], data: Any
    ) -> tuple[Request, int, Any]:
        """Apply one request; return its record, the HTTP status and the JSON body to answer."""
        at = time.perf_counter()
        path = _API_PATH.sub("", urlsplit(url).path)
        request = Request(method, path, "unknown", 0, at)
        try:
            if data is not None and not isinstance(data, str | bytes):
                raise DiscordError(400, 50035, "Invalid Form Body (only JSON bodies are supported)")
            request.body = json.loads(data) if data else None
            status, body = self._route(request, headers, params)
        except DiscordError as error:
            status, body = error.status, error.payload()
        request.status = status
        if self.record:
            self.requests.append(request)
        return request, status, body

    def _route(
        self, request: Request, headers: dict[str, str], params: dict[str, Any]
    ) -> tuple[int, Any]:
        method, parts = request.method, request.path.strip("/").split("/")
        if parts[0] == "interactions" and len(parts) == 4 and parts[3] == "callback":
            request.route = "callback"
            record = self._interaction(parts[2], int(parts[1]))
            return self._callback(request, record, _flag(params, "with_response"))
        if parts[0] == "webhooks" and len(parts) >= 3 and int(parts[1]) == self.application_id:
            record = self._interaction(parts[2])
            if len(parts) == 3 and method == "POST":
                request.route = "followup"
                return self._followup(request, record, _flag(params, "wait"))
            if len(parts) == 5 and parts[3] == "messages":
                request.route = "edit_original" if parts[4] == "@original" else "edit_followup"
                return self._webhook_message(request, record, parts[4])
        if headers.get("Authorization") != f"Bot {TOKEN}":
            raise DiscordError(401, 0, "401: Unauthorized")
        if method == "GET" and parts == ["users", "@me"]:
            request.route = "me"
            return 200, self.bot_user.payload()
        if method == "GET" and parts == ["oauth2", "applications", "@me"]:
            request.route = "application"
            return 200, self._application()
        if parts[0] == "applications" and parts[-1] == "commands" and len(parts) in (3, 5):
            request.route = "commands"
            guild_id = int(parts[3]) if len(parts) == 5 else None
            if method == "GET":
                return 200, self.commands.get(guild_id, [])
            if method == "PUT":
                return 200, self._put_commands(guild_id, request.body)
        raise DiscordError(404, 0, "404: Not Found")

    def _interaction(self, token: str, interaction_id: int | None = None) -> _InteractionRecord:
        record = self._interactions.get(token)
        if record is None or (interaction_id is not None and record.id != interaction_id):
            raise DiscordError(404, 10062, "Unknown interaction")
        return record

    def _application(self) -> Json:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {**self.bot_user.payload(), "id": "1", "username": "owner", "bot": False},
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
        }

    def _put_commands(self, guild_id: int | None, body: Any) -> list[Json]:
        if not isinstance(body, list):
            raise DiscordError(400, 50035, "Invalid Form Body")
        stored = []
        for command in body:
            stored.append(
                {
                    "id": str(self.snowflake()),
                    "application_id": str(self.application_id),
                    "version": str(self.snowflake()),
                    "default_member_permissions": None,
                    "type": 1,
                    "nsfw": False,
                    **({"guild_id": str(guild_id)} if guild_id else {}),
                    **command,
                }
            )
        self.commands[guild_id] = stored
        return stored

    def command(self, name: str, guild_id: int | None) -> Json:
        """The registered command `name` as a user in `guild_id` would see it."""
        for scope in (guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command
        raise LookupError(f"/{name} is not registered with Discord")

    # -- interaction responses

    def _callback(
        self, request: Request, record: _InteractionRecord, with_response: bool
    ) -> tuple[int, Any]:
        if time.perf_counter() - record.created_at > self.callback_deadline:
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = request.body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        request.type = kind
        if kind == 4:  # CHANNEL_MESSAGE_WITH_SOURCE
            message = self._create_message(record, data, loading=False)
        elif kind == 5:  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            message = self._create_message(record, data, loading=True)
        elif kind in (6, 7) and record.type == 3:  # DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE
            assert record.message_id is not None
            message = self.message(record.message_id)
            if kind == 7:
                message = self._edit_message(message, data)
        else:
            raise DiscordError(400, 50035, f"Invalid interaction callback type {kind!r}")
        record.acknowledged = True
        record.original_message_id = int(message["id"])
        request.message = message
        if not with_response:
            return 204, None
        ephemeral = bool(message.get("flags", 0) & EPHEMERAL)
        return 200, {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_id": message["id"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            },
            "resource": None if kind == 6 else {"type": kind, "message": message},
        }

    def _followup(
        self, request: Request, record: _InteractionRecord, wait: bool
    ) -> tuple[int, Any]:
        if not record.acknowledged:
            raise DiscordError(404, 10015, "Unknown Webhook")
        message = self._create_message(record, request.body or {}, loading=False)
        request.message = message
        return (200, message) if wait else (204, None)

    def _webhook_message(
        self, request: Request, record: _InteractionRecord, which: str
    ) -> tuple[int, Any]:
        message_id = record.original_message_id if which == "@original" else int(which)
        if message_id is None:
            raise DiscordError(404, 10008, "Unknown Message")
        message = self.message(message_id)
        if request.method == "GET":
            return 200, message
        if request.method == "PATCH":
            request.message = self._edit_message(message, request.body or {})
            return 200, request.message
        raise DiscordError(405, 0, "405: Method Not Allowed")

    def _create_message(self, record: _InteractionRecord, data: Json, *, loading: bool) -> Json:
        flags = int(data.get("flags", 0)) | (128 if loading else 0)
        components = _validate_components(data.get("components", []))
        content = data.get("content") or ""
        _validate_content(content, components, loading)
        user = self.users[record.user_id]
        message: Json = {
            "id": str(self.snowflake()),
            "type": 20 if record.type == 2 else 0,
            "channel_id": str(record.channel_id),
            "author": self.bot_user.payload(),
            "content": content,
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": self._mentions(content),
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": components,
            "pinned": False,
            "flags": flags,
            "webhook_id": str(self.application_id),
            "application_id": str(self.application_id),
            "interaction_metadata": {
                "id": str(record.id),
                "type": record.type,
                "user": user.payload(),
                "authorizing_integration_owners": {"0": str(record.guild_id)},
                **({"name": record.command, "command_type": 1} if record.command else {}),
            },
        }
        if record.guild_id is not None:
            message["guild_id"] = str(record.guild_id)
        if not flags & EPHEMERAL:
            self.messages[int(message["id"])] = _dumps(message)
            self.last_message_ids[record.channel_id] = int(message["id"])
        return message

    def _edit_message(self, message: Json, data: Json) -> Json:
        edited = dict(message)
        if "content" in data:
            edited["content"] = data["content"] or ""
            edited["mentions"] = self._mentions(edited["content"])
        if "components" in data:
            edited["components"] = _validate_components(data["components"] or [])
        _validate_content(edited["content"], edited["components"], False)
        edited["edited_timestamp"] = iso_now()
        if int(edited["id"]) in self.messages:
            self.messages[int(edited["id"])] = _dumps(edited)
        return edited

    def message(self, message_id: int) -> Json:
        """A stored message, as Discord would send it."""
        text = self.messages.get(message_id)
        if text is None:
            raise DiscordError(404, 10008, "Unknown Message")
        return json.loads(text)

    def _mentions(self, content: str) -> list[Json]:
        mentioned = []
        for user_id in dict.fromkeys(int(i) for i in re.findall(r"<@!?(\d+)>", content)):
            user = self.users.get(user_id)
            if user is not None:
                mentioned.append(user.payload())
        return mentioned


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _flag(params: dict[str, Any], name: str) -> bool:
    return str(params.get(name, "0")).lower() in ("1", "true")


def _validate_content(content: str, components: list[Json], loading: bool) -> None:
    if len(content) > 2000:
        raise DiscordError(400, 50035, "Invalid Form Body: content is longer than 2000")
    if not content and not components and not loading:
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _validate_components(rows: list[Json]) -> list[Json]:
    """Discord's checks on action rows of buttons; returns them with component ids filled in."""
    if len(rows) > 5:
        raise DiscordError(400, 50035, "Invalid Form Body: more than 5 action rows")
    seen: set[str] = set()
    next_id = 1
    stored = []
    for row in rows:
        if row.get("type") != 1 or not 1 <= len(row.get("components", [])) <= 5:
            raise DiscordError(400, 50035, "Invalid Form Body: an action row holds 1-5 buttons")
        row_out = {**row, "id": row.get("id", next_id), "components": []}
        next_id += 1
        for button in row["components"]:
            custom_id = button.get("custom_id")
            if button.get("type") != 2 or not custom_id or len(custom_id) > 100:
                raise DiscordError(400, 50035, "Invalid Form Body: bad button or custom_id")
            if custom_id in seen:
                raise DiscordError(400, 50035, "Component custom id cannot be duplicated")
            if not button.get("label") and not button.get("emoji"):
                raise DiscordError(400, 50035, "Invalid Form Body: a button needs a label/emoji")
            if len(button.get("label") or "") > 80:
                raise DiscordError(400, 50035, "Invalid Form Body: label is longer than 80")
            seen.add(custom_id)
            row_out["components"].append({**button, "id": button.get("id", next_id)})
            next_id += 1
        stored.append(row_out)
    return stored


# ---------------------------------------------------------------------------------- transport


class FakeResponse:
    """The part of aiohttp.ClientResponse that discord.py reads."""

    def __init__(self, method: str, url: str, status: int, body: Any) -> None:
        self.method, self.url, self.status = method, url, status
        self.reason = {200: "OK", 204: "No Content"}.get(status, "Error")
        self._text = "" if body is None else _dumps(body)
        self.headers: CIMultiDict[str] = CIMultiDict()
        if body is not None:
            self.headers["Content-Type"] = "application/json"

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def json(self, **_: Any) -> Any:
        return json.loads(self._text) if self._text else None


class _RequestContext:
    def __init__(self, session: FakeSession, args: tuple[Any, ...]) -> None:
        self._session, self._args = session, args

    async def __aenter__(self) -> FakeResponse:
        return await self._session.perform(*self._args)

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None


class FakeSession:
    """Stands in for discord.py's aiohttp.ClientSession: requests go to FakeDiscord in-process.

    `on_request(token, at)` is called the moment discord.py hands a request to the transport.
    """

    def __init__(
        self, discord_: FakeDiscord, on_request: Callable[[Request, str | None], None]
    ) -> None:
        self.discord = discord_
        self.closed = False
        self._on_request = on_request

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        if self.closed:
            raise RuntimeError("Session is closed")
        return _RequestContext(self, (method, str(url), kwargs))

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    async def perform(self, method: str, url: str, kwargs: dict[str, Any]) -> FakeResponse:
        request, status, body = self.discord.handle(
            method,
            url,
            dict(kwargs.get("headers") or {}),
            dict(kwargs.get("params") or {}),
            kwargs.get("data"),
        )
        self._on_request(request, _token_of(request.path))
        response = FakeResponse(method, url, status, body)
        self.discord.busy_seconds += time.perf_counter() - request.at
        await self.discord.respond(request)
        return response

    async def ws_connect(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no gateway in the harness")

    async def close(self) -> None:
        self.closed = True


def _token_of(path: str) -> str | None:
    parts = path.strip("/").split("/")
    if parts[0] == "interactions" and len(parts) >= 3:
        return parts[2]
    if parts[0] == "webhooks" and len(parts) >= 3:
        return parts[2]
    return None


# ---------------------------------------------------------------------------------- harness


class Harness:
    """The real bot, logged in to FakeDiscord, fed INTERACTION_CREATE payloads."""

    def __init__(self, bot: TicTacToeBot, fake: FakeDiscord, snowflake: Snowflakes) -> None:
        self.bot = bot
        self.discord = fake
        self._snowflake = snowflake
        self._sent: dict[str, Sent] = {}  # by token, until forget()
        self._channels: dict[int, FakeChannel] = {}
        self._sequence = 0
        self._capture: list[asyncio.Task[Any]] | None = None
        self._progress = asyncio.Event()  # set on every request and finished handler
        self.building_seconds = 0.0  # time spent writing INTERACTION_CREATE frames
        self._previous_factory: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._user_ids = iter(range(100_000_000_000_000_000, 200_000_000_000_000_000))
        self.closed = False

    @classmethod
    async def start(
        cls,
        *,
        seed: int = 0,
        game_timeout_seconds: int = 600,
        record: bool = True,
        bot_factory: Callable[[Settings, random.Random], TicTacToeBot] | None = None,
    ) -> Harness:
        """Build the bot, log it in to FakeDiscord (setup_hook and command sync included)."""
        settings = Settings(token=TOKEN, game_timeout_seconds=game_timeout_seconds)
        rng = random.Random(seed)
        bot = bot_factory(settings, rng) if bot_factory else TicTacToeBot(settings, rng=rng)
        snowflake = Snowflakes()
        fake = FakeDiscord(
            bot_user=FakeUser(snowflake(), "TicTacToe", bot=True),
            snowflake=snowflake,
            record=record,
        )
        harness = cls(bot, fake, snowflake)
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
        self._previous_factory = loop.get_task_factory()
        previous = self._previous_factory

        def factory(
            loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
        ) -> asyncio.Task[Any]:
            if previous is not None:
                task = previous(loop, coro, **kwargs)
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            if self._capture is not None:
                self._capture.append(task)
                task.add_done_callback(self._note_progress)
            return task

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
        if self._loop is not None:
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

    @property
    def bot_user(self) -> FakeUser:
        return self.discord.bot_user

    def create_user(self, name: str) -> FakeUser:
        user = FakeUser(next(self._user_ids), name)
        self.discord.users[user.id] = user
        return user

    def create_guild(self, name: str, *, channels: int = 1) -> FakeGuild:
        """A server with `channels` text channels, announced to the bot with GUILD_CREATE."""
        guild_id = self._snowflake()
        made = tuple(
            FakeChannel(self._snowflake(), guild_id, f"games-{i}", position=i)
            for i in range(channels)
        )
        for channel in made:
            self.discord.guild_of_channel[channel.id] = guild_id
            self._channels[channel.id] = channel
        payload = {
            "id": str(guild_id),
            "name": name,
            "icon": None,
            "owner_id": str(self.bot_user.id + 1),
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": ALL_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": 2,
            "large": False,
            "joined_at": self.discord.joined_at,
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_flags": 0,
            "afk_timeout": 300,
            "channels": [channel.payload() for channel in made],
            "threads": [],
            "members": [member_payload(self.bot_user, self.discord.joined_at)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
        self._gateway_event("GUILD_CREATE", payload)
        return FakeGuild(guild_id, name, made)

    def last_message(self, channel: FakeChannel) -> Json:
        """The newest non-ephemeral message in `channel`, as Discord would send it."""
        return self.discord.message(self.discord.last_message_ids[channel.id])

    # -- interactions

    def dispatch_slash(
        self, user: FakeUser, channel: FakeChannel, name: str = "tictactoe", **options: Any
    ) -> Sent:
        """Feed a /`name` INTERACTION_CREATE and return without waiting for the bot."""
        started = time.perf_counter()
        command = self.discord.command(name, channel.guild_id)
        declared = {option["name"]: option for option in command.get("options", [])}
        data: Json = {"id": command["id"], "name": name, "type": 1}
        resolved: Json = {}
        sent_options = []
        for key, value in options.items():
            if key not in declared:
                raise ValueError(f"/{name} has no option {key!r}")
            kind = declared[key]["type"]
            if kind == 6:  # USER
                target = value if isinstance(value, FakeUser) else self.discord.users[int(value)]
                resolved.setdefault("users", {})[str(target.id)] = target.payload()
                if not target.bot:
                    resolved.setdefault("members", {})[str(target.id)] = member_payload(
                        target, self.discord.joined_at, with_user=False
                    )
                value = str(target.id)
            sent_options.append({"name": key, "type": kind, "value": value})
        if sent_options:
            data["options"] = sent_options
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        return self._dispatch(2, user, channel, data, message=None, command=name, since=started)

    def dispatch_click(
        self,
        user: FakeUser,
        message: Json,
        *,
        custom_id: str | None = None,
        cell: tuple[int, int] | None = None,
        label: str | None = None,
    ) -> Sent:
        """Feed a button click on `message` (its payload as shown) without waiting for the bot."""
        started = time.perf_counter()
        button = find_button(message, custom_id=custom_id, cell=cell, label=label)
        if button.get("disabled"):
            raise ValueError(f"button {button['custom_id']!r} is disabled; Discord won't send it")
        channel = self._channels[int(message["channel_id"])]
        data = {"custom_id": button["custom_id"], "component_type": 2, "id": button.get("id")}
        return self._dispatch(3, user, channel, data, message=message, command=None, since=started)

    async def slash(
        self, user: FakeUser, channel: FakeChannel, name: str = "tictactoe", **options: Any
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
        self.discord.forget_interaction(sent.token)

    def _dispatch(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: Json,
        *,
        message: Json | None,
        command: str | None,
        since: float,
    ) -> Sent:
        interaction_id = self._snowflake()
        token = f"tok{interaction_id}"
        payload: Json = {
            "id": str(interaction_id),
            "application_id": str(self.discord.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(channel.guild_id),
            "guild": {"id": str(channel.guild_id), "locale": "en-US", "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": ALL_PERMISSIONS},
            "member": member_payload(user, self.discord.joined_at),
            "token": token,
            "version": 1,
            "app_permissions": ALL_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(channel.guild_id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if message is not None:
            payload["message"] = message
        record = _InteractionRecord(
            interaction_id,
            kind,
            channel.id,
            channel.guild_id,
            user.id,
            time.perf_counter(),
            command=command,
            message_id=None if message is None else int(message["id"]),
        )
        self.discord.register_interaction(token, record)
        sent = Sent(interaction_id, token, kind, user.id, channel.id, 0.0)
        self._sent[token] = sent
        tasks: list[asyncio.Task[Any]] = []
        frame = self._frame("INTERACTION_CREATE", payload)
        sent.dispatched_at = time.perf_counter()
        self.building_seconds += sent.dispatched_at - since
        self._capture = tasks
        try:
            self._receive(frame)
        finally:
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

    def _gateway_event(self, event: str, payload: Json) -> None:
        self._receive(self._frame(event, payload))

    def _note_progress(self, _: object = None) -> None:
        self._progress.set()

    def _on_request(self, request: Request, token: str | None) -> None:
        self._progress.set()
        sent = None if token is None else self._sent.get(token)
        if sent is None:
            return
        if sent.answered_at is None:
            sent.answered_at = request.at
        sent.requests.append(request)

    # -- introspection for load tests

    @property
    def overhead_seconds(self) -> float:
        """Time the harness itself took: writing gateway frames, playing Discord's REST side."""
        return self.building_seconds + self.discord.busy_seconds

    def storage_bytes(self) -> int:
        """Bytes held by the harness and FakeDiscord themselves (Discord's side of the world)."""
        fake = self.discord
        return deep_sizeof(
            (
                fake.requests,
                fake.commands,
                fake.messages,
                fake.last_message_ids,
                fake.users,
                fake.guild_of_channel,
                fake._interactions,
                self._sent,
            )
        )


# ---------------------------------------------------------------------------------- messages


def find_button(
    message: Json,
    *,
    custom_id: str | None = None,
    cell: tuple[int, int] | None = None,
    label: str | None = None,
) -> Json:
    """The button of `message` with this custom_id, at this board cell (row, column), or label."""
    rows = message.get("components", [])
    if cell is not None:
        i, j = cell
        return rows[i]["components"][j]
    for row in rows:
        for button in row["components"]:
            if custom_id is not None and button.get("custom_id") == custom_id:
                return button
            if label is not None and button.get("label") == label:
                return button
    raise LookupError(f"no button {custom_id or label!r} on message {message.get('id')}")


EMOJI_MARKS = {"❌": "X", "⭕": "O"}


def board(message: Json) -> list[list[str | None]]:
    """The marks shown on a board message's cells: "X", "O" or None, row by row."""
    rows = message["components"][:3]
    return [
        [
            EMOJI_MARKS[button["emoji"]["name"]] if button.get("emoji") else None
            for button in row["components"]
        ]
        for row in rows
    ]


def cells_disabled(message: Json) -> bool:
    return all(
        button.get("disabled") for row in message["components"][:3] for button in row["components"]
    )


def first_empty(message: Json) -> tuple[int, int] | None:
    for i, row in enumerate(board(message)):
        for j, mark in enumerate(row):
            if mark is None:
                return i, j
    return None


# ---------------------------------------------------------------------------------- sizes


def deep_sizeof(root: Any) -> int:
    """sys.getsizeof over a tree of builtins and slotted records (each object counted once)."""
    seen: set[int] = set()
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is None or isinstance(obj, bool | type):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        elif hasattr(obj, "__slots__") and not isinstance(obj, asyncio.Task):
            stack.extend(_slot_values(obj))
    return total


def _slot_values(obj: Any) -> Iterator[Any]:
    for klass in type(obj).__mro__:
        for name in getattr(klass, "__slots__", ()):
            with contextlib.suppress(AttributeError):
                yield getattr(obj, name)
