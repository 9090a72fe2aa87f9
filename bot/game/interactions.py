"""Facts about an interaction that the game needs, read off discord.py's objects."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TypeAlias

import discord

from bot.core.finished import Place, snowflake_time

if TYPE_CHECKING:
    from bot.app import TicTacToeBot

Interaction: TypeAlias = "discord.Interaction[TicTacToeBot]"


def sent_at(interaction: Interaction) -> float:
    """When Discord received the interaction, in unix seconds."""
    return snowflake_time(interaction.id)


def where(interaction: Interaction) -> tuple[str, bool]:
    """Where a game is played, as Live keeps it: a Place's value, and whether the bot was
    reached through a user's install rather than the server's."""
    user_installed = not interaction.is_guild_integration() and interaction.is_user_integration()
    if interaction.guild_id is not None:
        return Place.SERVER.value, user_installed
    channel_type = getattr(interaction.channel, "type", None)
    place = Place.GROUP_DM if channel_type is discord.ChannelType.group else Place.DM
    return place.value, user_installed


def channel_id(interaction: Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


def scope_id(interaction: Interaction, private: bool = False) -> int:
    """Where a game lives in memory: its channel, or for a board only its player sees (an
    ephemeral message), that player, under a negative number so it never meets a channel."""
    message = interaction.message
    if private or (message is not None and message.flags.ephemeral and is_board(message)):
        return -interaction.user.id
    return channel_id(interaction)


def is_board(message: discord.Message) -> bool:
    return message.flags.components_v2


def custom_ids(components: Sequence[discord.Component]) -> Iterator[str]:
    """Every custom_id on a message as Discord has it now. The bot's messages keep their
    buttons in action rows, at the top level or in a container."""
    for component in components:
        rows = component.children if isinstance(component, discord.Container) else (component,)
        for row in rows:
            if isinstance(row, discord.ActionRow):
                for item in row.children:
                    if custom_id := getattr(item, "custom_id", None):
                        yield custom_id


def jump_url(guild_id: int | None, channel: int, message_id: int | None) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel}/{message_id}"
