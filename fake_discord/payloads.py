"""What Discord sends about the world: users, channels, servers, members, INTERACTION_CREATE.

Plain JSON payloads in the shape discord.py's parsers read, built from a few frozen records.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

Json = dict[str, Any]

ALL_PERMISSIONS = str((1 << 50) - 1)
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
            "avatar_decoration_data": None,
        }


@dataclass(frozen=True, slots=True)
class FakeChannel:
    """A text channel of a server, or (guild_id None) a DM with `recipient`."""

    id: int
    guild_id: int | None
    name: str
    position: int = 0
    recipient: FakeUser | None = None

    def payload(self) -> Json:
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


def guild_create_payload(guild: FakeGuild, bot_user: FakeUser, joined_at: str) -> Json:
    """GUILD_CREATE for a server whose only member the gateway sends is the bot."""
    everyone = {
        "id": str(guild.id),
        "name": "@everyone",
        "permissions": ALL_PERMISSIONS,
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
        "channels": [channel.payload() for channel in guild.channels],
        "threads": [],
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
    channel: FakeChannel,
    joined_at: str,
    message: Json | None = None,
) -> Json:
    """INTERACTION_CREATE for `user` in a server channel or a DM with the bot; `message` is
    the one clicked on."""
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
        "app_permissions": ALL_PERMISSIONS,
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
