"""The game table's one way to Discord: what an interaction brings (a `Request`, plain values),
the answers the table can give it (`Door`), and the edits it makes later by token (`Editor`).

The table (bot/game/table.py) knows these protocols only; `InteractionDoor` and `TokenEditor`
carry them out with discord.py, and tests drive the table through fakes of them. Which
failures of an answer may still have reached players (`landed`) is Discord's knowledge too, so
it is said here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum, auto
from typing import Any, Protocol

import aiohttp
import discord

from bot.core.finished import Place, snowflake_time
from bot.core.policy import responses_forced_private
from bot.ui import card_edit, new_card, pings_only, reply_view, tell, update_message
from bot.view.cards import Card, Reply

ALREADY_ACKNOWLEDGED = 40060  # Discord's code when an interaction was answered already


@dataclass(frozen=True, slots=True)
class Shown:
    """The message a click was made on, as Discord delivered it with the click."""

    id: int
    # The clicked custom_id is one of the message's components now (Discord's copy).
    holds_click: bool
    last_change: float  # unix seconds: when it was posted or last edited
    private: bool  # a board only its player sees (an ephemeral Components V2 message)


@dataclass(frozen=True, slots=True)
class Request:
    """What the table needs of an interaction: plain values, read once off discord.py's."""

    user_id: int
    locale: str
    # The interaction's token: it can edit the message it posts or updates for 15 minutes.
    token: str
    sent_at: float  # unix seconds: when Discord received it (its id's time)
    guild_id: int | None
    channel_id: int
    place: str  # a Place's value
    user_installed: bool  # reached through a user's install rather than the server's
    message: Shown | None = None  # a click's message; None for a command
    # A command only: Discord would show every answer to the user alone (user install only,
    # in a server that denies "Use External Apps").
    forced_private: bool = False

    @property
    def scope(self) -> int:
        """Where the game of this request lives in memory: its channel, or, for a board only
        its player sees, that player's id negated (no channel has a negative id)."""
        if self.message is not None and self.message.private:
            return -self.user_id
        return self.channel_id


class Door(Protocol):
    """One interaction's answers: exactly one of post, update, tell or rewrite answers it;
    follow_up comes after."""

    async def post(self, card: Card, *, private: bool) -> int | None:
        """Answer with a new message; its id, if Discord said it."""

    async def update(self, card: Card) -> None:
        """Answer by editing the clicked message."""

    async def tell(self, reply: Reply) -> None:
        """Answer with a message only the user sees."""

    async def rewrite(self, reply: Reply) -> None:
        """Answer by editing the clicked private message to `reply`'s text, without buttons."""

    async def think_privately(self) -> None:
        """Answer "thinking..." only the user sees, for a private answer that may take longer
        than Discord's 3 seconds: follow_up_privately brings it."""

    async def follow_up(self, card: Card, *, private: bool) -> int:
        """After the answer, post another message; its id."""

    async def follow_up_privately(self, reply: Reply) -> int | None:
        """After the answer, a message only the user sees; its id, if Discord said it."""


class Editor(Protocol):
    """Edits of a message by the token of the last interaction that posted or updated it."""

    async def edit(self, token: str, message_id: int, card: Card) -> None: ...

    async def edit_text(self, token: str, message_id: int, text: str) -> None:
        """Make a plain message (a private answer) say `text`, without buttons."""

    async def custom_ids(self, token: str, message_id: int) -> list[str]:
        """The message's custom_ids as Discord has it now."""

    async def post_in_channel(self, channel_id: int, card: Card) -> int:
        """Post a card the bot starts itself (no interaction: a tournament's board), pinging
        its `pings`; the message's id."""

    async def edit_in_channel(self, channel_id: int, message_id: int, card: Card) -> None:
        """Edit the bot's own message with the bot's token: a board no click has reached."""


class Landed(Enum):
    """What a failed request to Discord did, as far as we can know."""

    YES = auto()  # e.g. a retry that Discord answered "already acknowledged"
    NO = auto()  # Discord refused it
    UNKNOWN = auto()  # a server error or a timeout: it may or may not have been applied


def landed(error: BaseException) -> Landed:
    if isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED:
        return Landed.YES
    if isinstance(error, discord.DiscordServerError | asyncio.TimeoutError | aiohttp.ClientError):
        return Landed.UNKNOWN
    return Landed.NO


# ------------------------------------------------------------------ discord.py's side


def request_of(interaction: discord.Interaction[Any], custom_id: str | None = None) -> Request:
    """The table's view of `interaction`; `custom_id`: the clicked component's, for a click."""
    message = interaction.message
    shown = None
    if message is not None and custom_id is not None:
        edited = message.edited_at
        shown = Shown(
            message.id,
            holds_click=custom_id in custom_ids(message.components),
            last_change=edited.timestamp() if edited else snowflake_time(message.id),
            private=message.flags.ephemeral and message.flags.components_v2,
        )
    user_installed = not interaction.is_guild_integration() and interaction.is_user_integration()
    guild_id = interaction.guild_id
    if guild_id is not None:
        place = Place.SERVER
    elif getattr(interaction.channel, "type", None) is discord.ChannelType.group:
        place = Place.GROUP_DM
    else:
        place = Place.DM
    assert interaction.channel_id is not None
    forced_private = custom_id is None and responses_forced_private(
        in_server=guild_id is not None,
        installed_in_server=interaction.is_guild_integration(),
        installed_by_user=interaction.is_user_integration(),
        may_post_publicly=interaction.permissions.use_external_apps,
    )
    return Request(
        interaction.user.id,
        str(interaction.locale),
        interaction.token,
        snowflake_time(interaction.id),
        guild_id,
        interaction.channel_id,
        place.value,
        user_installed,
        shown,
        forced_private,
    )


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


class InteractionDoor:
    """The Door of one discord.py interaction."""

    __slots__ = ("interaction",)

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction

    async def post(self, card: Card, *, private: bool) -> int | None:
        response = await self.interaction.response.send_message(
            allowed_mentions=pings_only(card.pings), ephemeral=private, **new_card(card)
        )
        message = response.resource
        return message.id if isinstance(message, discord.InteractionMessage) else None

    async def update(self, card: Card) -> None:
        await update_message(self.interaction, card)

    async def tell(self, reply: Reply) -> None:
        await tell(self.interaction, reply)

    async def rewrite(self, reply: Reply) -> None:
        await self.interaction.response.edit_message(content=reply.text, view=None)

    async def think_privately(self) -> None:
        await self.interaction.response.defer(ephemeral=True, thinking=True)

    async def follow_up(self, card: Card, *, private: bool) -> int:
        message = await self.interaction.followup.send(
            ephemeral=private, wait=True, **new_card(card)
        )
        return message.id

    async def follow_up_privately(self, reply: Reply) -> int | None:
        view = reply_view(reply)
        followup = self.interaction.followup
        if view is None:
            message = await followup.send(reply.text, ephemeral=True, wait=True)
        else:
            message = await followup.send(reply.text, view=view, ephemeral=True, wait=True)
        return message.id


class TokenEditor:
    """Edits by token through discord.py's public webhook API: memory keeps two plain values per
    game (the message's id and the interaction's token) instead of an Interaction (about 8 KB
    and a reference cycle)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def _webhook(self, token: str) -> discord.Webhook:
        assert self.client.application_id is not None
        return discord.Webhook.partial(self.client.application_id, token, client=self.client)

    async def edit(self, token: str, message_id: int, card: Card) -> None:
        await self._webhook(token).edit_message(message_id, **card_edit(card))

    async def edit_text(self, token: str, message_id: int, text: str) -> None:
        await self._webhook(token).edit_message(message_id, content=text, view=None)

    async def custom_ids(self, token: str, message_id: int) -> list[str]:
        shown = await self._webhook(token).fetch_message(message_id)
        return list(custom_ids(shown.components))

    async def post_in_channel(self, channel_id: int, card: Card) -> int:
        channel = self.client.get_partial_messageable(channel_id)
        message = await channel.send(allowed_mentions=pings_only(card.pings), **new_card(card))
        return message.id

    async def edit_in_channel(self, channel_id: int, message_id: int, card: Card) -> None:
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        await message.edit(**card_edit(card))
