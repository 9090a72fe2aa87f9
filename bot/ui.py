"""The Discord side of the views: a card's JSON (bot/view/components.py) sent as a click's
answer (update_message) or handed to discord.py in a view that only carries it; private answers,
the apology, and freeing a handled interaction.

Clicks reach the capability that posted their button by their custom_id's prefix (`Routes`),
before and after a restart alike, rather than discord.py's DynamicItem buttons
(View.from_message on every click was most of a click's CPU time: see docs/performance.md).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, NotRequired, TypeAlias, TypedDict

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.discord_internals import forget_response, mark_answered, post_interaction_callback
from bot.view.cards import Card, ModalSpec, Picture, Reply
from bot.view.components import (
    COMPONENTS_V2_FLAG,
    Component,
    card_components,
    modal_data,
    reply_rows,
)
from bot.view.replies import render_apology

# An interaction as the views' Discord side needs it: of any client (this layer knows nothing
# of the bot above it).
Interaction: TypeAlias = discord.Interaction[Any]

log = logging.getLogger(__name__)

# The levels as /tictactoe and /settings offer them (one list: the same words in the catalogs).
DIFFICULTY_CHOICES = [
    app_commands.Choice(name=locale_str("Easy — makes plenty of mistakes"), value="easy"),
    app_commands.Choice(name=locale_str("Medium — sees two moves ahead"), value="medium"),
    app_commands.Choice(name=locale_str("Hard — slips now and then"), value="hard"),
    app_commands.Choice(name=locale_str("Impossible — never loses"), value="impossible"),
]
# The kinds of board as /tictactoe and /settings offer them.
VARIANT_CHOICES = [
    app_commands.Choice(name=locale_str("Classic — one board"), value="classic"),
    app_commands.Choice(name=locale_str("Ultimate — nine boards in one"), value="ultimate"),
]


class Answered(Exception):
    """A failure its handler has already answered and logged: raised to end the handling, and
    let pass quietly by the bot's error handling (bot/errors.py), uncounted."""


# A capability's handler of its own components: the interaction and its custom_id.
ComponentHandler: TypeAlias = Callable[["discord.Interaction[Any]", str], Awaitable[None]]
_COMPONENT = discord.InteractionType.component
_MODAL_SUBMIT = discord.InteractionType.modal_submit


class Routes:
    """Which capability's handler a component interaction (a button, a select, a modal's
    submit) goes to, by its custom_id's prefix ("ttt2:", "rec:", ...: each ends in a colon).

    The bot has one `on_interaction` for all of them (TicTacToeBot.on_interaction):
    discord.py runs every `on_interaction` listener as a task of its own, so one listener per
    capability cost every click a task per capability, all but one of which only looked.
    """

    def __init__(self) -> None:
        self._handlers: dict[str, tuple[ComponentHandler, bool]] = {}

    def add(
        self, prefixes: Iterable[str], handler: ComponentHandler, *, modals: bool = False
    ) -> None:
        """`handler` takes the components whose custom_id starts with one of `prefixes`, and
        with `modals` the submits of its modals too."""
        for prefix in prefixes:
            if not prefix.endswith(":") or prefix.count(":") != 1:
                raise ValueError(f"a route's prefix ends in its only colon: {prefix!r}")
            if prefix in self._handlers:
                raise ValueError(f"two capabilities route {prefix!r}")
            self._handlers[prefix] = (handler, modals)

    def remove(self, prefixes: Iterable[str]) -> None:
        for prefix in prefixes:
            self._handlers.pop(prefix, None)

    def find(self, interaction: discord.Interaction[Any]) -> tuple[ComponentHandler, str] | None:
        """The handler of this interaction and its custom_id; None if no capability owns it
        (a slash command, another bot's version's button...)."""
        kind = interaction.type
        if (kind is not _COMPONENT and kind is not _MODAL_SUBMIT) or interaction.data is None:
            return None
        custom_id = str(interaction.data.get("custom_id", ""))
        route = self._handlers.get(custom_id[: custom_id.find(":") + 1])
        if route is None or (kind is _MODAL_SUBMIT and not route[1]):
            return None
        return route[0], custom_id


class _Prebuilt:
    """A message body already in Discord's JSON: discord.py sends it as it is.

    discord.py never listens to it (clicks go to the cog's listener), so it skips what
    discord.py's view constructor sets up for views it listens to: items, a timeout, a future
    and a random id, a click's costliest discord.py call after the JSON encoding (measured with
    benchmarks/bot_load.py: docs/performance.md). What discord.py asks of a view it only sends
    is answered here and below.
    """

    def __init__(self, components: list[Component]) -> None:
        self._components = components

    @property
    def timeout(self) -> float | None:
        return None  # not listened to: nothing to time out

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        pass

    def to_components(self) -> list[Component]:
        return self._components

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False


class LayoutComponents(_Prebuilt, discord.ui.LayoutView):
    """A Components V2 body: no message content beside it."""

    def has_components_v2(self) -> bool:
        return True


class RowComponents(_Prebuilt, discord.ui.View):
    """Rows of buttons under a message's content."""

    def has_components_v2(self) -> bool:
        return False


def card_view(card: Card) -> LayoutComponents:
    """A Components V2 message: one container with the card's accent, text and buttons."""
    return LayoutComponents(card_components(card))


class NewCard(TypedDict):
    """discord.py's arguments that post a card as a new message (send_message, followup)."""

    view: LayoutComponents
    file: NotRequired[discord.File]


class CardEdit(TypedDict):
    """discord.py's arguments that make a message show a card (edit_message)."""

    view: LayoutComponents
    attachments: NotRequired[list[discord.File]]


def new_card(card: Card) -> NewCard:
    """A card to post: its view, and its picture's file if it has one."""
    if card.picture is None:
        return {"view": card_view(card)}
    return {"view": card_view(card), "file": picture_file(card.picture)}


def card_edit(card: Card) -> CardEdit:
    """A card to show on a message already posted. Its picture replaces every file the
    message had: an edit's `attachments` names the files the message keeps, and a message
    would otherwise pile up one hidden file per move (Components V2 shows a file only where a
    component refers to it). Without a picture the message keeps its files."""
    if card.picture is None:
        return {"view": card_view(card)}
    return {"view": card_view(card), "attachments": [picture_file(card.picture)]}


def picture_file(picture: Picture) -> discord.File:
    """The picture as discord.py uploads it: a file part of a multipart request, under the
    name the card's media gallery refers to."""
    return discord.File(
        io.BytesIO(picture.data),
        filename=picture.filename,
        description=picture.description or None,
    )


def reply_view(reply: Reply) -> RowComponents | None:
    """The buttons of a private answer, if any, as a row under its text."""
    rows = reply_rows(reply)
    return RowComponents(rows) if rows else None


def pings_only(user_ids: tuple[int, ...]) -> discord.AllowedMentions:
    users = [discord.Object(user_id) for user_id in user_ids]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


async def update_message(interaction: Interaction, card: Card) -> None:
    """Answer a click by editing its message to show `card` (Components V2).

    Sent straight to the interaction's callback endpoint with the body already in Discord's
    JSON (see `_answer`): it skips discord.py's view and parameter handling (the CPU it saves a
    click: benchmarks/bot_load.py, paired runs, in docs/performance.md).
    `interaction.response.is_done()` is true afterwards, as after edit_message.

    A card with a picture is sent by discord.py's edit_message instead: a multipart request
    with the file, which replaces the message's files (see `card_edit`).
    """
    if card.picture is not None:
        await interaction.response.edit_message(
            content=None, allowed_mentions=_NO_PINGS, **card_edit(card)
        )
        return
    data: dict[str, Any] = {
        # A board posted by the previous version had text content, which a Components V2
        # message may not keep.
        "content": None,
        "components": card_components(card),
        "flags": COMPONENTS_V2_FLAG,
        "allowed_mentions": {"parse": []},
    }
    await _answer(interaction, discord.InteractionResponseType.message_update, data)


_NO_PINGS = discord.AllowedMentions.none()


async def show_modal(interaction: Interaction, modal: ModalSpec) -> None:
    """Answer a click with a modal, sent as its JSON: discord.py's send_modal would keep a
    Modal object listening for the submit until it times out, and the submit reaches its
    capability by its custom_id anyway (`Routes`)."""
    await _answer(interaction, discord.InteractionResponseType.modal, modal_data(modal))


async def _answer(
    interaction: discord.Interaction[Any],
    kind: discord.InteractionResponseType,
    data: dict[str, Any],
) -> None:
    """POST the interaction's callback through discord.py's webhook adapter (its rate limits,
    retries and errors), without `with_response`: Discord then answers 204 with no body, where
    discord.py's own calls ask for the edited message back and decode it (ours would be
    thrown away). discord.py's internals (bot/discord_internals.py); every click test goes
    through here."""
    await post_interaction_callback(interaction, kind, data)
    # What discord.py leaves behind: `interaction.response.is_done()` is true, so an error
    # after this apologises with a followup.
    mark_answered(interaction, kind)


async def tell(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """A short answer only the user who acted sees."""
    view = reply_view(reply)
    if view is None:
        await interaction.response.send_message(reply.text, ephemeral=True)
    else:
        await interaction.response.send_message(reply.text, view=view, ephemeral=True)


async def apologise(interaction: discord.Interaction[Any]) -> None:
    """Tell the user privately that something failed, whether or not the interaction was
    answered already (every cog's error handler ends here)."""
    text = render_apology(str(interaction.locale)).text
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not send the apology in channel %s", interaction.channel_id)


def release(interaction: discord.Interaction[Any]) -> None:
    """Break the reference cycle between a handled interaction and its `response`.

    discord.py caches `interaction.response` on the interaction, and the InteractionResponse
    refers back to it, so each answered interaction (with its message, components, user and
    member: about 60 objects) would outlive its handler as cyclic garbage that only the
    collector frees. benchmarks/bot_load.py counts the collections during play (figures in
    docs/performance.md).
    """
    forget_response(interaction)
