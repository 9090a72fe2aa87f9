"""FakeDiscord: an in-process stub of the Discord REST routes a bot uses, and the transport that
stands where discord.py keeps its aiohttp session. Not a mock of the bot: it keeps messages the
way Discord does and checks what it is sent the way Discord does.

Routes: interaction callbacks (channel_message, deferred_channel_message, deferred_message_update,
message_update; `with_response` honoured), followups, GET/PATCH of "@original" and of followups,
the bot's user and application, command registration, and (once `gateway_url` is set, as the
loopback does) GET /gateway/bot. Channels and threads: POST/GET a channel's messages (a page of
history, newest first), GET/PATCH one, Start Thread from Message (a public thread with the
message's id; THREAD_CREATE with newly_created), GET a channel or thread, PATCH a thread
(THREAD_UPDATE), DELETE it (THREAD_DELETE); the gateway hears of these through `listeners`.
Requests other than interaction callbacks and webhooks need the bot's token (401 otherwise).
Refused like Discord: a second callback for one interaction (400/40060), a callback after 3
seconds (404/10062), an empty message (400/50006), and an invalid body (400/50035, with the
offending field in `errors`).

Files: every route that takes a message takes it as multipart/form-data too (`payload_json`
and `files[n]`, as discord.py sends a File). The fake keeps each message's files
(`message_files`, their bytes in `files`), answers them as Discord does, and refuses what
Discord refuses: see attachments.py (the `attachments` array of a create or an edit, the upload
limit) and limits.py (a media gallery's `attachment://<filename>` must name one of the
message's files).

Message bodies are checked in both layouts:
  * classic: `content` (at most 2,000 characters) and at most 5 action rows of 1-5 buttons;
  * Components V2 (flag IS_COMPONENTS_V2): no `content` or `embeds`; top-level text displays,
    separators, action rows, media galleries (1-10 items, each a file of the message) and
    containers (a container holds the same, minus containers);
    at most 40 components counting nested ones, at most 4,000 characters over all text
    displays. A message keeps the flag once set; an edit that adds it must clear `content`
    (Discord checks the message as it would be after the edit).
  * Both: buttons with a custom_id of 1-100 characters, unique in the message, a label of at
    most 80 characters or an emoji; component ids unique, filled in (1, 2, ...) when left out.

Refused like Discord in channels: an unknown channel (404/10003) or message (404/10008), a
second thread from one message (400/160004), a thread from a thread (400/50024), and without
the permission (403/50013): View Channel and Send Messages to post in a channel, Send Messages
in Threads (the parent's) in a thread, Create Public Threads to start one, Manage Threads to
lock or delete one. `deny(channel, bits)` takes permissions from the bot, as a member overwrite
(the bot holds every permission but Administrator, so that overwrites count). POST messages is
held to Discord's per-channel bucket (ratelimits.Bucket: 5 per 5 s, X-RateLimit-* headers on
every answer, 429 with retry_after and global false beyond; `message_bucket.rate_limited`
counts them). With `record` (not in load tests) request bodies of the routes Discord's OpenAPI
spec describes are checked against it (400/50035, as Discord), and what the fake answers or
sends on the gateway is checked too: its own mismatches are listed in `spec_problems`.

Faults, for tests of how a bot copes (see Fault): a status for the next matching request(s),
applied first or not, 429 with a retry_after; `latency` delays every answer; `pause()` holds
every answer (requests are still applied, in arrival order) until `resume()`.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord
from multidict import CIMultiDict

from fake_discord.attachments import Upload, files_after, read_form, unreferenced
from fake_discord.limits import (
    COMPONENTS_V2,
    LOADING,
    DiscordError,
    invalid_form,
    rate_limited,
    validate_message,
)
from fake_discord.openapi import spec
from fake_discord.payloads import (
    BOT_PERMISSIONS,
    CREATE_PUBLIC_THREADS,
    GUILD_INSTALL,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeThread,
    FakeUser,
    Json,
    Place,
    Snowflakes,
    guild_create_payload,
    iso_now,
)
from fake_discord.ratelimits import Bucket

TOKEN = "x"
CALLBACK_DEADLINE_SECONDS = 3.0  # Discord drops an interaction not answered within 3 seconds

Response = discord.InteractionResponseType
Component = discord.ComponentType
EPHEMERAL = discord.MessageFlags(ephemeral=True).value

_API_PATH = re.compile(r"^/api/v\d+")
HAS_THREAD = discord.MessageFlags(has_thread=True).value
MAX_MESSAGES_PAGE = 100  # GET /channels/{id}/messages: at most 100 a page (50 by default)


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
    files: tuple[Upload, ...] = field(default=(), repr=False)  # a multipart request's files
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
    if parts[0] == "channels" and len(parts) == 2:
        return "channel"
    if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages":
        return "channel_messages"
    if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages":
        return "channel_message"
    if parts[0] == "channels" and len(parts) == 5 and parts[2:5:2] == ["messages", "threads"]:
        return "thread_from_message"
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
        # The files of each message that has any (its `attachments` lists only those no
        # component shows), and every file's bytes by attachment id: see attachments.py.
        self.message_files: dict[int, list[Json]] = {}
        self.files: dict[int, bytes] = {}
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
        # The places messages go (channels, DMs, threads) by id, and each one's messages.
        self.channels: dict[int, Place] = {}
        self.channel_message_ids: dict[int, list[int]] = {}
        self.denied: dict[int, int] = {}  # channel id -> permission bits the bot is denied
        # POST /channels/{channel_id}/messages: 5 per 5 s in each channel or thread.
        self.message_bucket = Bucket("POST /channels/{channel_id}/messages")
        # Who hears of a change on the gateway: (guild id, event, data) for each harness or
        # loopback on this fake (each passes on what its bot's shards should hear).
        self.listeners: list[Callable[[int, str, Json], None]] = []
        # Bodies and answers checked against Discord's OpenAPI spec (off for load tests): see
        # spec_problems. Kept as sent and checked when asked, off the bot's path: a check of
        # a board's JSON takes milliseconds, and interactions have 3 seconds.
        self.check_spec = record
        self._unchecked: list[tuple[str, str, Any]] = []  # (where, schema or request, value)
        self._spec_problems: list[str] = []

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

    def deny(self, channel: FakeChannel, permissions: int) -> None:
        """Deny the bot `permissions` in `channel` (and its threads), as a server's admin does
        with a member overwrite; 0 gives them back. Discord sends CHANNEL_UPDATE."""
        self.denied[channel.id] = permissions
        if channel.guild_id is not None:
            self.dispatch(channel.guild_id, "CHANNEL_UPDATE", self.channel_payload(channel))

    def bot_permissions(self, place: Place) -> int:
        """The bot's permissions in a channel or thread (a thread has its parent's)."""
        channel_id = place.parent_id or place.id
        return BOT_PERMISSIONS & ~self.denied.get(channel_id, 0)

    def channel_payload(self, place: Place) -> Json:
        """A channel or thread as Discord sends it (a channel with the bot's overwrite)."""
        if isinstance(place, FakeThread):
            return place.payload()
        denied = self.denied.get(place.id, 0)
        overwrite = {"id": str(self.bot_user.id), "type": 1, "allow": "0", "deny": str(denied)}
        return place.payload((overwrite,) if denied else ())

    def guild_create(self, guild: FakeGuild) -> Json:
        """GUILD_CREATE for `guild`: its channels as they stand, its active threads."""
        threads = [
            thread.payload()
            for thread in self.channels.values()
            if isinstance(thread, FakeThread)
            and thread.guild_id == guild.id
            and not thread.archived
        ]
        for thread in threads:
            self._check_schema("GUILD_CREATE threads", "ThreadResponse", thread)
        channels = [self.channel_payload(channel) for channel in guild.channels]
        return guild_create_payload(
            guild, self.bot_user, self.joined_at, channels=channels, threads=threads
        )

    def messages_in(self, place: Place) -> list[Json]:
        """Every non-ephemeral message of a channel or thread, oldest first."""
        return [self.message(i) for i in self.channel_message_ids.get(place.id, [])]

    @property
    def spec_problems(self) -> list[str]:
        """Where Discord's OpenAPI spec disagrees with what went through the fake so far: its
        answers and gateway events, and the bodies a bot sent on routes where the fake's own
        checks stand in for Discord's (the channel routes refuse a body the spec refuses,
        400/50035, as Discord does). Empty when all agree."""
        checker = spec()
        for where, what, value in self._unchecked:
            if what.startswith("request "):
                method, path = what.removeprefix("request ").split(" ", 1)
                found = checker.request_problems(method, path, value)
            elif what.startswith("response "):
                method, path, status = what.removeprefix("response ").split(" ", 2)
                found = checker.response_problems(method, path, int(status), value)
            else:
                found = checker.schema_problems(what, value)
            self._spec_problems += [f"{where}: {problem}" for problem in found]
        self._unchecked.clear()
        return self._spec_problems

    def dispatch(self, guild_id: int, event: str, data: Json) -> None:
        """Send a gateway event to the bot's shard for `guild_id` (through the listeners)."""
        if event.startswith("THREAD_") and event != "THREAD_DELETE":
            self._check_schema(event, "ThreadResponse", data)
        for listener in self.listeners:
            listener(guild_id, event, data)

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
        uploads: tuple[Upload, ...] = (),
    ) -> Json:
        """Validate and store a message the bot posts, with the files of a multipart request
        (DiscordError if Discord would refuse)."""
        flags = int(data.get("flags") or 0) | (LOADING if loading else 0)
        files, stored = self._files(data, uploads, (), channel_id)
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
        message["components"] = validate_message(message, files)
        message["mentions"] = self._mentions(message["content"])
        if files:
            message["attachments"] = unreferenced(files, message["components"])
            self.message_files[int(message["id"])] = files
            self.files.update(stored)
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
            if interaction.message_id is not None:  # a click: the message clicked on
                metadata["interacted_message_id"] = str(interaction.message_id)
            message["interaction_metadata"] = metadata
        if guild_id is not None:
            message["guild_id"] = str(guild_id)
        if not flags & EPHEMERAL:
            message_id = int(message["id"])
            self.messages[message_id] = _dumps(message)
            self.last_message_ids[channel_id] = message_id
            self.channel_message_ids.setdefault(channel_id, []).append(message_id)
            thread = self.channels.get(channel_id)
            if isinstance(thread, FakeThread):
                thread.message_count += 1
                thread.total_message_sent += 1
                thread.last_message_id = message_id
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
        files: tuple[Upload, ...] = (),
    ) -> tuple[Request, int, Any, dict[str, str]]:
        """Apply one request (`data` its JSON body, or a multipart request's payload_json, with
        the request's `files`); its record, the HTTP status, JSON body and headers to answer."""
        path = _API_PATH.sub("", urlsplit(url).path)
        request = Request(method, path, route_of(method, path), 0, cpu_at, files=files)
        answer_headers: dict[str, str] = {}
        try:
            if data is not None and not isinstance(data, str | bytes):
                raise DiscordError(400, 50035, "Invalid Form Body (only JSON bodies are supported)")
            request.body = json.loads(data) if data else None
            fault = self._take_fault(request)
            if fault is None or fault.applied:
                status, body = self._route(request, headers, params, answer_headers)
            if fault is not None:
                request.fault = fault
                status = fault.status
                body, answer_headers = fault.answer()
        except DiscordError as error:
            status, body = error.status, error.payload()
            answer_headers.update(error.headers)
        request.status = status
        if self.check_spec and request.fault is None:
            if request.body is not None and not request.route.startswith(("channel", "thread")):
                self._unchecked.append(
                    (f"{method} {path} sent", f"request {method} {path}", request.body)
                )
            where = f"{method} {path} answered {status}"
            self._unchecked.append((where, f"response {method} {path} {status}", body))
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
        self,
        request: Request,
        headers: dict[str, str],
        params: dict[str, Any],
        answer_headers: dict[str, str],
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
            return 200, {**self.bot_user.payload(), "mfa_enabled": False, "locale": "en-US"}
        if method == "GET" and route == "application":
            return 200, self._application()
        if route == "commands":
            guild_id = int(parts[3]) if len(parts) == 5 else None
            if method == "GET":
                return 200, self.commands.get(guild_id, [])
            if method == "PUT":
                return 200, self._put_commands(guild_id, request.body)
        if route in ("channel", "channel_messages", "channel_message", "thread_from_message"):
            return self._channel_route(request, params, answer_headers)
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
            "flags_new": "0",
            "team": None,
            "type": None,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "approximate_guild_count": 1,
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": [],
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
            # Left unset, Discord answers the app's default: installed in servers.
            if stored[-1].get("integration_types") is None:
                stored[-1]["integration_types"] = [0]
            permissions = stored[-1]["default_member_permissions"]
            if permissions is not None:  # Discord answers the bits as a string
                stored[-1]["default_member_permissions"] = str(permissions)
        self.commands[guild_id] = stored
        return stored

    # -- channels, their messages and threads

    def _channel_route(
        self, request: Request, params: dict[str, Any], answer_headers: dict[str, str]
    ) -> tuple[int, Any]:
        method, route, parts = request.method, request.route, request.path.strip("/").split("/")
        place = self.channels.get(int(parts[1])) if parts[1].isdigit() else None
        if route == "channel_messages" and method == "POST":
            # Discord counts a request against the bucket before it looks at it.
            retry_after, headers = self.message_bucket.take(int(parts[1]))
            answer_headers.update(headers)
            if retry_after is not None:
                raise rate_limited(retry_after, headers)
        if place is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if self.check_spec and request.body is not None:
            found = spec().request_problems(method, request.path, request.body)
            if found:
                where, _, problem = found[0].partition(": ")
                raise invalid_form(where, "SPEC_MISMATCH", problem)
        if route == "channel":
            return self._channel(request, place)
        if route == "channel_messages":
            if method == "POST":
                self._require_send(place)
                message = self.create_message(
                    place.id, place.guild_id, request.body or {}, uploads=request.files
                )
                request.message = message
                return 200, message
            if method == "GET":
                return 200, self._history(place, params)
            raise DiscordError(405, 0, "405: Method Not Allowed")
        message = self._message_in(place, int(parts[3]))
        if route == "thread_from_message" and method == "POST":
            return 201, self._start_thread(place, message, request.body or {})
        if route == "channel_message" and method == "GET":
            return 200, message
        if route == "channel_message" and method == "PATCH":
            request.message = self._edit_message(message, request.body or {}, request.files)
            return 200, request.message
        raise DiscordError(405, 0, "405: Method Not Allowed")

    def _require(self, place: Place, permissions: int) -> None:
        if place.guild_id is not None and self.bot_permissions(place) & permissions != permissions:
            raise DiscordError(403, 50013, "Missing Permissions")

    def _require_send(self, place: Place) -> None:
        in_thread = isinstance(place, FakeThread)
        self._require(
            place, VIEW_CHANNEL | (SEND_MESSAGES_IN_THREADS if in_thread else SEND_MESSAGES)
        )
        if isinstance(place, FakeThread) and place.archived:
            if place.locked:
                raise DiscordError(400, 50083, "Thread is archived")
            # A message from a member who may send in threads unarchives the thread.
            place.archived, place.archived_at = False, iso_now()
            self.dispatch(place.guild_id, "THREAD_UPDATE", place.payload())

    def _message_in(self, place: Place, message_id: int) -> Json:
        message = self.message(message_id)
        if int(message["channel_id"]) != place.id:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    def _history(self, place: Place, params: dict[str, Any]) -> list[Json]:
        """GET /channels/{id}/messages: newest first, `limit` (1-100, 50) before/after an id."""
        limit = int(params.get("limit", 50))
        if not 1 <= limit <= MAX_MESSAGES_PAGE:
            raise invalid_form("limit", "NUMBER_TYPE_MAX", "Must be between 1 and 100.")
        ids = self.channel_message_ids.get(place.id, [])
        if "after" in params:
            after = int(params["after"])
            chosen = [i for i in ids if i > after][:limit]
        else:
            before = int(params.get("before") or 2**64)
            chosen = [i for i in ids if i < before][-limit:]
        return [self.message(i) for i in reversed(chosen)]

    def _start_thread(self, parent: Place, message: Json, body: Json) -> Json:
        """Start Thread from Message: a public thread whose id is the message's."""
        if isinstance(parent, FakeThread) or parent.guild_id is None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._require(parent, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        message_id = int(message["id"])
        if message_id in self.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = FakeThread(
            message_id,
            parent.guild_id,
            parent.id,
            self.bot_user.id,
            body["name"],
            auto_archive_duration=body.get("auto_archive_duration") or 4320,
            rate_limit_per_user=body.get("rate_limit_per_user") or 0,
        )
        self.channels[thread.id] = thread
        # The starting message now links to its thread (Discord: HAS_THREAD, `thread`).
        message["flags"] = int(message.get("flags") or 0) | HAS_THREAD
        message["thread"] = thread.payload()
        self.messages[message_id] = _dumps(message)
        self.dispatch(parent.guild_id, "THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread.payload()

    def _channel(self, request: Request, place: Place) -> tuple[int, Any]:
        """GET a channel or thread; PATCH a thread (name, archived, locked, archive after);
        DELETE a thread (Manage Threads)."""
        if request.method == "GET":
            return 200, self.channel_payload(place)
        if not isinstance(place, FakeThread):
            raise DiscordError(403, 50013, "Missing Permissions")  # the fake edits threads only
        if request.method == "PATCH":
            body = request.body or {}
            if "name" in body:
                place.name = body["name"]
            if "auto_archive_duration" in body:
                place.auto_archive_duration = body["auto_archive_duration"]
            if "locked" in body:
                self._require(place, MANAGE_THREADS)
                place.locked = bool(body["locked"])
            if "archived" in body and bool(body["archived"]) != place.archived:
                place.archived, place.archived_at = bool(body["archived"]), iso_now()
            self.dispatch(place.guild_id, "THREAD_UPDATE", place.payload())
            return 200, place.payload()
        if request.method == "DELETE":
            self._require(place, MANAGE_THREADS)
            del self.channels[place.id]
            gone = {
                "id": str(place.id),
                "guild_id": str(place.guild_id),
                "parent_id": str(place.parent_id),
                "type": place.payload()["type"],
            }
            self.dispatch(place.guild_id, "THREAD_DELETE", gone)
            return 200, place.payload()
        raise DiscordError(405, 0, "405: Method Not Allowed")

    def _check_schema(self, where: str, schema: str, value: Json) -> None:
        if self.check_spec:
            self._unchecked.append((where, schema, value))

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
                record.channel_id,
                record.guild_id,
                data,
                interaction=record,
                loading=loading,
                uploads=request.files,
            )
        elif kind in (Response.deferred_message_update, Response.message_update) and clicked:
            assert record.message_id is not None
            message = self.message(record.message_id)
            if kind is Response.message_update:
                message = self._edit_message(message, data, request.files)
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
            record.channel_id,
            record.guild_id,
            request.body or {},
            interaction=record,
            uploads=request.files,
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
            request.message = self._edit_message(message, request.body or {}, request.files)
            return 200, request.message
        raise DiscordError(405, 0, "405: Method Not Allowed")

    def _edit_message(self, message: Json, data: Json, uploads: tuple[Upload, ...] = ()) -> Json:
        message_id = int(message["id"])
        had = self.message_files.get(message_id, [])
        files, stored = self._files(data, uploads, had, int(message["channel_id"]))
        edited = dict(message)
        for key in ("content", "components", "embeds"):
            if key in data:
                edited[key] = data[key] or ("" if key == "content" else [])
        # Editing a deferred answer shows it; IS_COMPONENTS_V2 can be added, never removed.
        edited["flags"] = (edited["flags"] & ~LOADING) | (
            int(data.get("flags") or 0) & COMPONENTS_V2
        )
        edited["components"] = validate_message(edited, files)
        edited["mentions"] = self._mentions(edited["content"])
        edited["edited_timestamp"] = iso_now()
        if files or had:
            edited["attachments"] = unreferenced(files, edited["components"])
            kept = {attachment["id"] for attachment in files}
            for dropped in had:
                if dropped["id"] not in kept:
                    self.files.pop(int(dropped["id"]), None)
            self.files.update(stored)
            self.message_files[message_id] = files
        if message_id in self.messages:
            self.messages[message_id] = _dumps(edited)
        return edited

    def _files(
        self, data: Json, uploads: tuple[Upload, ...], had: Sequence[Json], channel_id: int
    ) -> tuple[list[Json], dict[int, bytes]]:
        """A message's files after a request (see attachments.files_after), refused as Discord
        refuses them (DiscordError)."""
        if not uploads and not had and "attachments" not in data:
            return [], {}  # the common case: a message without files
        return files_after(data, uploads, had, new_id=self.snowflake, channel_id=channel_id)

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
        data = kwargs.get("data")
        files: tuple[Upload, ...] = ()
        if isinstance(data, aiohttp.FormData):  # a request with files: multipart/form-data
            data, uploads = await read_form(data)
            files = tuple(uploads)
        request, status, body, headers = self.discord.handle(
            method,
            url,
            dict(kwargs.get("headers") or {}),
            dict(kwargs.get("params") or {}),
            data,
            cpu_at=cpu_at,
            files=files,
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
