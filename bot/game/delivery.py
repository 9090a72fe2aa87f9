"""Getting a board to Discord, and keeping memory true to what players see when that fails.

A click's answer edits its board in one response (bot/ui.py). Other edits (a confirmed resign,
an expiry) go through the last interaction's token. When an edit fails, what Discord did decides
what memory holds next (`Delivery.after_failed_edit`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from enum import Enum, auto
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.core import codec
from bot.core.game import State
from bot.core.live import Board, GameStore, Live
from bot.game.interactions import custom_ids
from bot.ui import card_view
from bot.view.cards import Card

if TYPE_CHECKING:
    from bot.app import TicTacToeBot

log = logging.getLogger(__name__)

ALREADY_ACKNOWLEDGED = 40060  # Discord's code when an interaction was answered already


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


class Delivery:
    """Edits by token, and memory put right after a failed edit."""

    def __init__(self, bot: TicTacToeBot, store: GameStore, on_unsure: Callable[[], None]) -> None:
        self.bot = bot
        self.store = store
        self._on_unsure = on_unsure  # an unsure entry needs the expiry timer to settle it

    def after_failed_edit(
        self,
        error: BaseException,
        board: Board,
        expected: Live | None,
        before: Live | None,
        unsure: Live,
    ) -> bool:
        """Put memory back in line with what players may see after a failed edit; True if
        the user needs an apology (False: it landed after all).

        Refused: memory goes back to `before`. Unknown (a 5xx or a timeout, which Discord may
        have applied): memory holds `unsure`, naming both states, so the next click on either
        settles it, and the expiry reads the message back before redrawing anything.
        """
        outcome = landed(error)
        if outcome is Landed.YES:
            log.info("Channel %s: the edit landed despite %s", board[0], error)
            return False
        if outcome is Landed.NO:
            self.store.compare_and_set(board, expected, before)
        else:
            log.warning("Channel %s: the edit may or may not have landed: %s", board[0], error)
            if self.store.compare_and_set(board, expected, unsure):
                self._on_unsure()
        return True

    def webhook(self, live: Live) -> discord.Webhook:
        assert self.bot.application_id is not None
        assert live.token is not None
        return discord.Webhook.partial(self.bot.application_id, live.token, client=self.bot)

    async def edit_by_token(self, live: Live, card: Card) -> None:
        # discord.py's public webhook API edits a message that an interaction posted or
        # updated by the message's id and the interaction's token: memory keeps two plain
        # values per game instead of an Interaction (about 8 KB and a reference cycle).
        assert live.message_id is not None
        await self.webhook(live).edit_message(live.message_id, view=card_view(card))

    async def shown_state(self, live: Live) -> State:
        """The state the board really shows, read back from Discord."""
        assert live.message_id is not None
        shown = await self.webhook(live).fetch_message(live.message_id)
        return codec.decode(next(custom_ids(shown.components))).state
