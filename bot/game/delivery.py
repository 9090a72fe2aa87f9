"""Getting a board to Discord, and keeping memory true to what players see when that fails.

A click's answer edits its board in one response (bot/door.py). Other edits (a confirmed resign,
an expiry) go through the last interaction's token. When an edit fails, what Discord did decides
what memory holds next (`Delivery.after_failed_edit`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.live import GameStore, Live, Seat
from bot.door import Editor, Landed, landed
from bot.view.cards import Card

log = logging.getLogger(__name__)


class Delivery:
    """Edits by token, and memory put right after a failed edit."""

    def __init__(self, editor: Editor, store: GameStore, on_unsure: Callable[[], None]) -> None:
        self.editor = editor
        self.store = store
        self._on_unsure = on_unsure  # an unsure entry needs the expiry timer to settle it

    def after_failed_edit(
        self,
        error: BaseException,
        seat: Seat,
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
            log.info("Channel %s: the edit landed despite %s", seat[0], error)
            return False
        if outcome is Landed.NO:
            self.store.compare_and_set(seat, expected, before)
        else:
            log.warning("Channel %s: the edit may or may not have landed: %s", seat[0], error)
            if self.store.compare_and_set(seat, expected, unsure):
                self._on_unsure()
        return True

    async def edit_by_token(self, live: Live, card: Card, channel_id: int | None = None) -> None:
        """Edit the board by its last interaction's token; a board no click has reached (one
        the bot posted itself) with the bot's own token, in `channel_id`."""
        assert live.message_id is not None
        if live.token is None:
            assert channel_id is not None, "a board without a token is the bot's own post"
            await self.editor.edit_in_channel(channel_id, live.message_id, card)
            return
        await self.editor.edit(live.token, live.message_id, card)

    async def shown_custom_id(self, live: Live) -> str:
        """One custom_id of the board as Discord shows it now (StopIteration: none)."""
        assert live.message_id is not None
        assert live.token is not None
        return next(iter(await self.editor.custom_ids(live.token, live.message_id)))
