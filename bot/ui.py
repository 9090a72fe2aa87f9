"""Plain render values -> discord.py components, and the one button class this bot posts."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias

import discord

from .domain.render import ButtonSpec, Card, Reply

if TYPE_CHECKING:
    from .client import TicTacToeBot

Interaction: TypeAlias = "discord.Interaction[TicTacToeBot]"
ClickHandler = Callable[[Interaction, str], Awaitable[None]]

# Each component kind once per Card, plus the buttons; asserted against Discord's limits.
MAX_COMPONENTS = 40
MAX_TEXT = 4000


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ttt2?:.+"):
    """Every button this bot posts. Its custom_id holds the whole state of its message, so a
    click is handled the same way before and after a restart (boards posted by the previous
    version, `ttt:...`, included)."""

    # Set by the cog when it loads: where clicks go. A class attribute because discord.py
    # builds these items itself from the clicked message.
    on_click: ClickHandler | None = None

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    # discord.py types these two for any client (Interaction[ClientT]); ours is TicTacToeBot.
    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)  # decoding happens in the cog, where errors can be answered

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert BoardButton.on_click is not None, "the cog sets this when it loads"
        await BoardButton.on_click(interaction, self.custom_id)


def button(spec: ButtonSpec) -> BoardButton:
    return BoardButton(
        discord.ui.Button(
            style=spec.style, label=spec.label, emoji=spec.emoji, custom_id=spec.custom_id
        )
    )


def card_view(card: Card) -> discord.ui.LayoutView:
    """A Components V2 message: one container with the card's accent, text and buttons."""
    children: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(card.heading)]
    if card.body:
        children.append(discord.ui.TextDisplay(card.body))
    if card.rows:
        children.append(discord.ui.Separator())
        children.extend(discord.ui.ActionRow(*map(button, row)) for row in card.rows)
    if card.controls:
        children.append(discord.ui.Separator())
        children.append(discord.ui.ActionRow(*map(button, card.controls)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*children, accent_colour=card.accent))
    return view


def reply_view(reply: Reply) -> discord.ui.View | None:
    """The buttons of a private answer, if any, as a classic row under its text."""
    if not reply.buttons:
        return None
    view = discord.ui.View(timeout=None)
    for spec in reply.buttons:
        view.add_item(button(spec))
    return view


def pings_only(user_ids: tuple[int, ...]) -> discord.AllowedMentions:
    users = [discord.Object(user_id) for user_id in user_ids]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)
