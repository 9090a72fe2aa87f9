"""Games and challenges that nobody touched in time: one timer for all of them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.core import codec
from bot.core.finished import describe
from bot.core.game import AnyGame, Challenge
from bot.core.live import GameStore, Live, Seat, is_private
from bot.game.delivery import Delivery
from bot.kinds import Kind
from bot.ops.shards import EVENT_SHARD

log = logging.getLogger(__name__)

# Announces a finished game: (message id, game, ended at, where it was played, its kind).
Announce = Callable[[int, AnyGame, float, Live, Kind], None]


class Expiry:
    """Fires at the earliest deadline in the store, frees what lapsed and shows it lapsed."""

    def __init__(
        self,
        store: GameStore,
        delivery: Delivery,
        *,
        clock: Callable[[], float],
        kind_named: Callable[[str], Kind],
        announce: Announce,
        retire_question: Callable[[Live, AnyGame], None] = lambda live, game: None,
        bot_id: Callable[[], int],
        shard_of: Callable[[int | None], int],
        challenge_closed: Callable[[int | None, int], None] = lambda guild_id, user_id: None,
    ) -> None:
        self.store = store
        self.delivery = delivery
        self.clock = clock
        self._kind_named = kind_named
        self._announce = announce
        self._retire_question = retire_question
        self._bot_id = bot_id
        self._shard_of = shard_of
        self._challenge_closed = challenge_closed  # a lapsed challenge starts a cooldown
        self._handle: asyncio.TimerHandle | None = None
        self._due = float("inf")
        self._background: set[asyncio.Task[Any]] = set()

    def schedule(self) -> None:
        """Set the one timer for the earliest deadline, if it moved earlier."""
        due = self.store.next_deadline()
        if due is None or due >= self._due:
            return
        if self._handle is not None:
            self._handle.cancel()
        loop = asyncio.get_running_loop()
        self._due = due
        self._handle = loop.call_later(max(0.0, due - self.clock()), self._on_timer)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        for task in self._background:
            task.cancel()

    def _on_timer(self) -> None:
        self._handle, self._due = None, float("inf")
        task = asyncio.ensure_future(self.expire_lapsed())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def expire_lapsed(self) -> int:
        """Free every game and challenge past its deadline and show it lapsed; how many.

        The timer calls this at the earliest deadline (tests call it after moving the clock).
        Each board is edited through its last interaction's token.
        """
        lapsed = self.store.pop_lapsed(self.clock())
        self.schedule()
        await asyncio.gather(*(self._show_lapsed(seat, live) for seat, live in lapsed))
        return len(lapsed)

    async def _show_lapsed(self, seat: Seat, live: Live) -> None:
        EVENT_SHARD.set(self._shard_of(live.guild_id))
        if live.challenger:
            self._challenge_closed(live.guild_id, live.challenger)
        if live.token is None and (live.message_id is None or is_private(seat)):
            return  # still being posted (the poster sees it lapse), or not the bot's post
        kind = self._kind_named(live.kind)
        try:
            state = kind.decode_key(live.key)
            if live.unsure_of is not None and live.token is not None:
                # The last edit's fate is unknown: redraw only what the message really shows.
                state = kind.decode(await self.delivery.shown_custom_id(live)).state
            # Discord's clock, as every other end time (a snowflake's); a simulated one in tests.
            now = discord.utils.utcnow().timestamp()
            if not isinstance(state, Challenge) and state.is_over:
                # It ended on the board by an edit whose fate was unknown: announced now.
                assert live.message_id is not None
                self._announce(live.message_id, state, now, live, kind)
                return
            try:
                card = kind.render_expired(state, self._bot_id())
                await self.delivery.edit_by_token(live, card, channel_id=seat[0])
            finally:
                # The time is up whether or not the board could be redrawn.
                if not isinstance(state, Challenge) and live.message_id is not None:
                    self._announce(live.message_id, state.expire(), now, live, kind)
                    self._retire_question(live, state.expire())
            log.debug("Channel %s: %s expired", seat[0], describe(state))
        except (discord.HTTPException, codec.CodecError, StopIteration) as error:
            log.warning("Channel %s: could not show the expiry: %s", seat[0], error)
