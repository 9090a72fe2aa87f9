"""What Discord sends about the world: users, channels, servers, members, INTERACTION_CREATE.

Plain JSON payloads in the shape discord.py's parsers read, built from a few frozen records.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

Json = dict[str, Any]

ALL_PERMISSIONS = str((1 << 50) - 1)
# The permission bits the fake checks (Discord's values).
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
# What the bot holds in a server: every permission but Administrator (which would override
# every channel's overwrites), less what a channel denies it (FakeDiscord.deny).
BOT_PERMISSIONS = int(ALL_PERMISSIONS) & ~ADMINISTRATOR
PUBLIC_THREAD = discord.ChannelType.public_thread.value
THREAD_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
GUILD_INSTALL = "0"  # authorizing_integration_owners key: the app was installed to a server
GUILD_CONTEXT = 0  # interaction context type: in a server
BOT_DM_CONTEXT = 1  # interaction context type: in the bot's DM with the user
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


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
            "flags": 0,
            "avatar_decoration_data": None,
            "primary_guild": None,
        }


@dataclass(frozen=True, slots=True)
class FakeChannel:
    """A text channel of a server, or (guild_id None) a DM with `recipient`."""

    id: int
    guild_id: int | None
    name: str
    position: int = 0
    recipient: FakeUser | None = None

    @property
    def parent_id(self) -> None:
        return None

    def payload(self, overwrites: tuple[Json, ...] = ()) -> Json:
        """As Discord sends the channel; `overwrites`: its permission overwrites."""
        if self.guild_id is None:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": discord.ChannelType.private.value,
                "recipients": [self.recipient.payload()],
                "last_message_id": None,
            }
        return {
            "id": str(self.id),
            "type": discord.ChannelType.text.value,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": list(overwrites),
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }


@dataclass(eq=False, slots=True)
class FakeThread:
    """A public thread started from a message of a server's text channel: its id is the
    message's. Mutable, as Discord's copy is: counts, name, archived."""

    id: int
    guild_id: int
    parent_id: int
    owner_id: int
    name: str
    auto_archive_duration: int = 4320
    rate_limit_per_user: int = 0
    created_at: str = field(default_factory=lambda: iso_now())
    message_count: int = 0  # Discord's count leaves out the starting message
    total_message_sent: int = 0
    member_count: int = 1  # the bot, which started it
    last_message_id: int | None = None
    archived: bool = False
    locked: bool = False
    archived_at: str | None = None

    @property
    def recipient(self) -> None:
        return None

    def payload(self) -> Json:
        """The thread channel object (Discord's ThreadResponse)."""
        return {
            "id": str(self.id),
            "type": PUBLIC_THREAD,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None if self.last_message_id is None else str(self.last_message_id),
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
            "message_count": self.message_count,
            "member_count": self.member_count,
            "total_message_sent": self.total_message_sent,
            "thread_metadata": {
                "archived": self.archived,
                "archive_timestamp": self.archived_at or self.created_at,
                "auto_archive_duration": self.auto_archive_duration,
                "locked": self.locked,
                "create_timestamp": self.created_at,
            },
        }


Place = FakeChannel | FakeThread  # where a message can be: a channel, a DM or a thread


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


def guild_create_payload(
    guild: FakeGuild,
    bot_user: FakeUser,
    joined_at: str,
    *,
    channels: list[Json] | None = None,
    threads: list[Json] | None = None,
) -> Json:
    """GUILD_CREATE for a server whose only member the gateway sends is the bot; `channels`
    (default: the guild's, without overwrites) and its active `threads` as Discord sends them."""
    everyone = {
        "id": str(guild.id),
        "name": "@everyone",
        "permissions": str(BOT_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "owner_id": str(bot_user.id + 1),
        "roles": [everyone],
        "emojis": [],
        "stickers": [],
        "features": [],
        "member_count": 2,
        "large": False,
        "joined_at": joined_at,
        "preferred_locale": "en-US",
        "premium_tier": 0,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "system_channel_flags": 0,
        "afk_timeout": 300,
        "channels": (
            [channel.payload() for channel in guild.channels] if channels is None else channels
        ),
        "threads": threads or [],
        "members": [member_payload(bot_user, joined_at)],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def interaction_payload(
    *,
    interaction_id: int,
    token: str,
    application_id: int,
    kind: discord.InteractionType,
    data: Json,
    user: FakeUser,
    channel: Place,
    joined_at: str,
    message: Json | None = None,
    app_permissions: int = BOT_PERMISSIONS,
) -> Json:
    """INTERACTION_CREATE for `user` in a server channel, a thread or a DM with the bot;
    `message` is the one clicked on; `app_permissions` the bot's in that channel."""
    if channel.guild_id is None:
        dm = _dm_interaction_payload(interaction_id, token, application_id, kind, data, user)
        dm["channel"] = channel.payload()
        dm["channel_id"] = str(channel.id)
        if message is not None:
            dm["message"] = message
        return dm
    payload: Json = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind.value,
        "data": data,
        "guild_id": str(channel.guild_id),
        "guild": {"id": str(channel.guild_id), "locale": "en-US", "features": []},
        "channel_id": str(channel.id),
        "channel": {**channel.payload(), "permissions": ALL_PERMISSIONS},
        "member": member_payload(user, joined_at),
        "token": token,
        "version": 1,
        "app_permissions": str(app_permissions),
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {GUILD_INSTALL: str(channel.guild_id)},
        "context": GUILD_CONTEXT,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if message is not None:
        payload["message"] = message
    return payload


def _dm_interaction_payload(
    interaction_id: int,
    token: str,
    application_id: int,
    kind: discord.InteractionType,
    data: Json,
    user: FakeUser,
) -> Json:
    """What a DM interaction has instead of a server's: a user, no member, no guild."""
    return {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind.value,
        "data": data,
        "user": user.payload(),
        "token": token,
        "version": 1,
        "app_permissions": ALL_PERMISSIONS,
        "locale": "en-US",
        "entitlements": [],
        # Installed to a server: Discord names no server (0) for a DM with the bot.
        "authorizing_integration_owners": {GUILD_INSTALL: "0"},
        "context": BOT_DM_CONTEXT,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
