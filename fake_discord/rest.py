"""FakeDiscord: an in-process stub of the Discord REST routes a bot uses, and the transport that
stands where discord.py keeps its aiohttp session. Not a mock of the bot: it keeps messages the
way Discord does and checks what it is sent the way Discord does.

Routes: interaction callbacks (channel_message, deferred_channel_message, deferred_message_update,
message_update; `with_response` honoured), followups, GET/PATCH of "@original" and of followups,
the bot's user and application, command registration, and (once `gateway_url` is set, as the
loopback does) GET /gateway/bot. Requests other than interaction callbacks and webhooks need the
bot's token (401 otherwise). Refused like Discord: a second callback for one interaction
(400/40060), a callback after 3 seconds (404/10062), an empty message (400/50006), and an
invalid body (400/50035, with the offending field in `errors`).

Message bodies are checked in both layouts:
  * classic: `content` (at most 2,000 characters) and at most 5 action rows of 1-5 buttons;
  * Components V2 (flag IS_COMPONENTS_V2): no `content` or `embeds`; top-level text displays,
    separators, action rows and containers (a container holds the same, minus containers);
    at most 40 components counting nested ones, at most 4,000 characters over all text
    displays. A message keeps the flag once set; an edit that adds it must clear `content`
    (Discord checks the message as it would be after the edit).
  * Both: buttons with a custom_id of 1-100 characters, unique in the message, a label of at
    most 80 characters or an emoji; component ids unique, filled in (1, 2, ...) when left out.

Faults, for tests of how a bot copes (see Fault): a status for the next matching request(s),
applied first or not, 429 with a retry_after; `latency` delays every answer; `pause()` holds
every answer (requests are still applied, in arrival order) until `resume()`.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import discord
from multidict import CIMultiDict

from fake_discord.limits import (
    COMPONENTS_V2,
    LOADING,
    DiscordError,
    invalid_form,
    validate_message,
)
from fake_discord.payloads import GUILD_INSTALL, FakeUser, Json, Snowflakes, iso_now

TOKEN = "x"
CALLBACK_DEADLINE_SECONDS = 3.0  # Discord drops an interaction not answered within 3 seconds

Response = discord.InteractionResponseType
Component = discord.ComponentType
EPHEMERAL = discord.MessageFlags(ephemeral=True).value

_API_PATH = re.compile(r"^/api/v\d+")


# ---------------------------------------------------------------------------------- records


@dataclass(eq=False, slots=True)
class Request:
    """One REST request as Discord received it, and what Discord did with it."""

    method: str
    path: str
    route: str  # "callback", "followup", "edit_original", "edit_followup", "commands", ...
    status: int
    cpu_at: float  # time.thread_time() when discord.py handed it to the transport
    body: Any = field(default=None, repr=False)
    type: discord.InteractionResponseType | None = None  # of an interaction callback
    message: Json | None = field(default=None, repr=False)  # as Discord stores it afterwards
    fault: Fault | None = None  # the injected fault that answered it

    @property
    def succeeded(self) -> bool:
        """Discord did it: 200 with a body, or 204 (e.g. a callback without with_response)."""
        return 200 <= self.status < 300

    @property
    def content(self) -> str | None:
        return None if self.message is None else self.message.get("content")

    @property
    def flags(self) -> int:
        return 0 if self.message is None else self.message.get("flags", 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)


@dataclass(eq=False, slots=True)
class InteractionRecord:
    """Discord's side of an interaction: what its token may still do."""

    id: int
    type: discord.InteractionType
    channel_id: int
    guild_id: int | None
    user_id: int
    created_at: float  # perf_counter()
    command: str | None = None
    message_id: int | None = None  # the message a component was clicked on
    acknowledged: bool = False
    original_message_id: int | None = None


@dataclass(eq=False, slots=True)
class Fault:
    """Answer the next `times` requests on `route` (that `match`, if given) with `status`.

    applied=True: Discord did the work, the answer was lost (e.g. an edit shown, then a 500).
    applied=False: nothing happened. status=429 answers "rate limited" with `retry_after`
    seconds, which discord.py sleeps before retrying; it retries a 500 after 1 s (then 3 s).
    """

    route: str
    status: int = 500
    applied: bool = False
    retry_after: float = 0.0
    times: int = 1
    match: Callable[[Request], bool] | None = field(default=None, repr=False)
    scope: str = "user"  # a 429's X-RateLimit-Scope: "user", "global" or "shared"

    def answer(self) -> tuple[Json, dict[str, str]]:
        if self.status == 429:
            body: Json = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": False,
            }
            # discord.py takes a 429 without Via for a Cloudflare ban and gives up.
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(self.retry_after),
                "X-RateLimit-Scope": self.scope,
            }
            return body, headers
        return {"message": f"{self.status}: injected fault", "code": 0}, {}


# ---------------------------------------------------------------------------------- REST stub


def route_of(method: str, path: str) -> str:
    """The name of the route a request (path without /api/vN) is for."""
    parts = path.strip("/").split("/")
    if parts[0] == "interactions" and len(parts) == 4 and parts[3] == "callback":
        return "callback"
    if parts[0] == "webhooks" and len(parts) == 3 and method == "POST":
        return "followup"
    if parts[0] == "webhooks" and len(parts) == 5 and parts[3] == "messages":
        return "edit_original" if parts[4] == "@original" else "edit_followup"
    if parts == ["users", "@me"]:
        return "me"
    if parts == ["oauth2", "applications", "@me"]:
        return "application"
    if parts[0] == "applications" and parts[-1] == "commands" and len(parts) in (3, 5):
        return "commands"
    if parts == ["gateway", "bot"]:
        return "gateway"
    return "unknown"


class FakeDiscord:
    """An in-process stub of the Discord REST routes the bot uses. Not a mock of the bot."""

    def __init__(
        self,
        *,
        bot_user: FakeUser,
        snowflake: Snowflakes,
        record: bool = True,
        callback_deadline: float = CALLBACK_DEADLINE_SECONDS,
        token: str = TOKEN,
    ) -> None:
        self.bot_user = bot_user
        self.token = token  # the bot's token: any other is refused (401)
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
        self.joined_at: str = iso_now()
        self.interactions: dict[str, InteractionRecord] = {}  # by token
        self.faults: list[Fault] = []
        # Where GET /gateway/bot sends the bot (None: no gateway, 404), and how many shards.
        self.gateway_url: str | None = None
        self.shard_count = 1
        self.latency = 0.0  # seconds every answer takes to come back
        self.cpu_seconds = 0.0  # thread CPU time spent being Discord (and the harness's hooks)
        self._paused: asyncio.Event | None = None

    # -- the test side

    def inject(self, fault: Fault) -> Fault:
        """Answer the next matching request(s) with `fault` (see Fault)."""
        self.faults.append(fault)
        return fault

    def pause(self) -> None:
        """Hold every answer (requests are still applied) until resume()."""
        if self._paused is None:
            self._paused = asyncio.Event()

    def resume(self) -> None:
        if self._paused is not None:
            self._paused.set()
            self._paused = None

    def message(self, message_id: int) -> Json:
        """A stored message, as Discord would send it."""
        text = self.messages.get(message_id)
        if text is None:
            raise DiscordError(404, 10008, "Unknown Message")
        return json.loads(text)

    def command(self, name: str, guild_id: int | None) -> Json:
        """The registered command `name` as a user in `guild_id` would see it."""
        for scope in (guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command
        raise LookupError(f"/{name} is not registered with Discord")

    def create_message(
        self,
        channel_id: int,
        guild_id: int | None,
        data: Json,
        *,
        interaction: InteractionRecord | None = None,
        loading: bool = False,
    ) -> Json:
        """Validate and store a message the bot posts (DiscordError if Discord would refuse)."""
        flags = int(data.get("flags") or 0) | (LOADING if loading else 0)
        message: Json = {
            "id": str(self.snowflake()),
            "type": (
                discord.MessageType.chat_input_command.value
                if interaction is not None and interaction.command
                else discord.MessageType.default.value
            ),
            "channel_id": str(channel_id),
            "author": self.bot_user.payload(),
            "content": data.get("content") or "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "pinned": False,
            "flags": flags,
        }
        message["components"] = validate_message(message)
        message["mentions"] = self._mentions(message["content"])
        if interaction is not None:
            user = self.users[interaction.user_id]
            message["webhook_id"] = str(self.application_id)
            message["application_id"] = str(self.application_id)
            metadata: Json = {
                "id": str(interaction.id),
                "type": interaction.type.value,
                "user": user.payload(),
                "authorizing_integration_owners": {GUILD_INSTALL: str(interaction.guild_id or 0)},
            }
            if interaction.command:
                metadata["name"] = interaction.command
                metadata["command_type"] = discord.AppCommandType.chat_input.value
            message["interaction_metadata"] = metadata
        if guild_id is not None:
            message["guild_id"] = str(guild_id)
        if not flags & EPHEMERAL:
            self.messages[int(message["id"])] = _dumps(message)
            self.last_message_ids[channel_id] = int(message["id"])
        return message

    # -- the transport side

    async def respond(self) -> None:
        """Delay an answer as configured (latency, pause)."""
        if self.latency:
            await asyncio.sleep(self.latency)
        paused = self._paused
        if paused is not None:
            await paused.wait()

    def handle(
        self,
        method: str,
        url: str,
        headers: dict[str, str],
        params: dict[str, Any],
        data: Any,
        *,
        cpu_at: float,
    ) -> tuple[Request, int, Any, dict[str, str]]:
        """Apply one request; its record, the HTTP status, JSON body and headers to answer."""
        path = _API_PATH.sub("", urlsplit(url).path)
        request = Request(method, path, route_of(method, path), 0, cpu_at)
        answer_headers: dict[str, str] = {}
        try:
            if data is not None and not isinstance(data, str | bytes):
                raise DiscordError(400, 50035, "Invalid Form Body (only JSON bodies are supported)")
            request.body = json.loads(data) if data else None
            fault = self._take_fault(request)
            if fault is None or fault.applied:
                status, body = self._route(request, headers, params)
            if fault is not None:
                request.fault = fault
                status = fault.status
                body, answer_headers = fault.answer()
        except DiscordError as error:
            status, body = error.status, error.payload()
        request.status = status
        if self.record:
            self.requests.append(request)
        return request, status, body, answer_headers

    def _take_fault(self, request: Request) -> Fault | None:
        for fault in self.faults:
            if fault.route == request.route and (fault.match is None or fault.match(request)):
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                return fault
        return None

    def _route(
        self, request: Request, headers: dict[str, str], params: dict[str, Any]
    ) -> tuple[int, Any]:
        method, route, parts = request.method, request.route, request.path.strip("/").split("/")
        if route == "callback":
            record = self._interaction(parts[2], int(parts[1]))
            return self._callback(request, record, _flag(params, "with_response"))
        if route in ("followup", "edit_original", "edit_followup"):
            if int(parts[1]) != self.application_id:
                raise DiscordError(404, 10015, "Unknown Webhook")
            record = self._interaction(parts[2])
            if route == "followup":
                return self._followup(request, record, _flag(params, "wait"))
            return self._webhook_message(request, record, parts[4])
        if headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordError(401, 0, "401: Unauthorized")
        if method == "GET" and route == "gateway" and self.gateway_url is not None:
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return 200, {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": limit,
            }
        if method == "GET" and route == "me":
            return 200, self.bot_user.payload()
        if method == "GET" and route == "application":
            return 200, self._application()
        if route == "commands":
            guild_id = int(parts[3]) if len(parts) == 5 else None
            if method == "GET":
                return 200, self.commands.get(guild_id, [])
            if method == "PUT":
                return 200, self._put_commands(guild_id, request.body)
        raise DiscordError(404, 0, "404: Not Found")

    def _interaction(self, token: str, interaction_id: int | None = None) -> InteractionRecord:
        record = self.interactions.get(token)
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
                    "type": discord.AppCommandType.chat_input.value,
                    "description": "",  # Discord's answer for context menus
                    "nsfw": False,
                    **({"guild_id": str(guild_id)} if guild_id else {}),
                    **command,
                }
            )
        self.commands[guild_id] = stored
        return stored

    # -- interaction responses

    def _callback(
        self, request: Request, record: InteractionRecord, with_response: bool
    ) -> tuple[int, Any]:
        if time.perf_counter() - record.created_at > self.callback_deadline:
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = request.body or {}
        kind = discord.enums.try_enum(Response, body.get("type"))
        data = body.get("data") or {}
        clicked = record.type is discord.InteractionType.component
        if kind in (Response.channel_message, Response.deferred_channel_message):
            loading = kind is Response.deferred_channel_message
            message = self.create_message(
                record.channel_id, record.guild_id, data, interaction=record, loading=loading
            )
        elif kind in (Response.deferred_message_update, Response.message_update) and clicked:
            assert record.message_id is not None
            message = self.message(record.message_id)
            if kind is Response.message_update:
                message = self._edit_message(message, data)
        else:
            raise invalid_form("type", "BASE_TYPE_CHOICES", f"Invalid callback type {kind!r}")
        request.type = kind
        record.acknowledged = True
        record.original_message_id = int(message["id"])
        request.message = message
        if not with_response:
            return 204, None
        return 200, {
            "interaction": {
                "id": str(record.id),
                "type": record.type.value,
                "response_message_id": message["id"],
                "response_message_loading": kind is Response.deferred_channel_message,
                "response_message_ephemeral": bool(message["flags"] & EPHEMERAL),
            },
            "resource": (
                None
                if kind is Response.deferred_message_update
                else {"type": kind.value, "message": message}
            ),
        }

    def _followup(self, request: Request, record: InteractionRecord, wait: bool) -> tuple[int, Any]:
        if not record.acknowledged:
            raise DiscordError(404, 10015, "Unknown Webhook")
        message = self.create_message(
            record.channel_id, record.guild_id, request.body or {}, interaction=record
        )
        request.message = message
        return (200, message) if wait else (204, None)

    def _webhook_message(
        self, request: Request, record: InteractionRecord, which: str
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

    def _edit_message(self, message: Json, data: Json) -> Json:
        edited = dict(message)
        for key in ("content", "components", "embeds"):
            if key in data:
                edited[key] = data[key] or ("" if key == "content" else [])
        # Editing a deferred answer shows it; IS_COMPONENTS_V2 can be added, never removed.
        edited["flags"] = (edited["flags"] & ~LOADING) | (
            int(data.get("flags") or 0) & COMPONENTS_V2
        )
        edited["components"] = validate_message(edited)
        edited["mentions"] = self._mentions(edited["content"])
        edited["edited_timestamp"] = iso_now()
        if int(edited["id"]) in self.messages:
            self.messages[int(edited["id"])] = _dumps(edited)
        return edited

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


# ---------------------------------------------------------------------------------- transport


class FakeResponse:
    """The part of aiohttp.ClientResponse that discord.py reads."""

    def __init__(
        self, method: str, url: str, status: int, body: Any, headers: dict[str, str]
    ) -> None:
        self.method, self.url, self.status = method, url, status
        self.reason = {200: "OK", 204: "No Content"}.get(status, "Error")
        self._text = "" if body is None else _dumps(body)
        self.headers: CIMultiDict[str] = CIMultiDict(headers)
        if body is not None:
            self.headers["Content-Type"] = "application/json"

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def json(self, **_: Any) -> Any:
        return json.loads(self._text) if self._text else None


class _RequestContext:
    def __init__(self, session: FakeSession, args: tuple[str, str, dict[str, Any]]) -> None:
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
    """Stands where discord.py keeps its aiohttp.ClientSession: requests go to FakeDiscord.

    `on_request(request, token)` is called once the request is applied, with the interaction
    token in its path, if any.
    """

    def __init__(
        self, fake: FakeDiscord, on_request: Callable[[Request, str | None], None]
    ) -> None:
        self.discord = fake
        self.closed = False
        self._on_request = on_request

    def request(self, method: str, url: str, **kwargs: Any) -> _RequestContext:
        if self.closed:
            raise RuntimeError("Session is closed")
        return _RequestContext(self, (method, str(url), kwargs))

    def get(self, url: str, **kwargs: Any) -> _RequestContext:
        return self.request("GET", url, **kwargs)

    async def perform(self, method: str, url: str, kwargs: dict[str, Any]) -> FakeResponse:
        cpu_at = time.thread_time()  # discord.py has handed the request to the transport
        request, status, body, headers = self.discord.handle(
            method,
            url,
            dict(kwargs.get("headers") or {}),
            dict(kwargs.get("params") or {}),
            kwargs.get("data"),
            cpu_at=cpu_at,
        )
        self._on_request(request, token_of(request.path))
        response = FakeResponse(method, url, status, body, headers)
        self.discord.cpu_seconds += time.thread_time() - cpu_at
        await self.discord.respond()
        return response

    async def ws_connect(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("no gateway in the harness")

    async def close(self) -> None:
        self.closed = True


def token_of(path: str) -> str | None:
    parts = path.strip("/").split("/")
    if parts[0] in ("interactions", "webhooks") and len(parts) >= 3:
        return parts[2]
    return None
