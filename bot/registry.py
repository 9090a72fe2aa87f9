"""Per-channel games in memory: the cache, the lock and the idle timeout.

The message's buttons are the source of truth for a game (see codec.py); this registry remembers
the latest state of the one game (or challenge) in each channel so that clicks are checked against
it, racing clicks are serialised by a compare-and-set, and a game nobody touches is expired.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .game import Challenge, Game

log = logging.getLogger(__name__)

State = Game | Challenge


@dataclass(eq=False, slots=True)
class Entry:
    """The live game or challenge of one channel."""

    channel_id: int
    state: State
    message_id: int | None = None  # None while the message is being posted
    jump_url: str | None = None
    # The token of the latest interaction on the message (valid 15 minutes) edits it on expiry.
    # Only the token is kept: a whole Interaction holds its parsed message (~8 KB of objects).
    token: str | None = None
    timer: asyncio.TimerHandle | None = None


ExpireCallback = Callable[[Entry], Awaitable[None]]


class Registry:
    """At most one entry per channel; entries expire after a period without activity."""

    def __init__(self, on_expire: ExpireCallback) -> None:
        self._entries: dict[int, Entry] = {}
        # The message whose game or challenge ended last in each channel: a click still in
        # flight on it must not look like a click after a restart and bring the game back.
        self._ended: dict[int, int] = {}
        self._on_expire = on_expire
        self._expiring: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, channel_id: int) -> Entry | None:
        return self._entries.get(channel_id)

    def claim(self, channel_id: int, state: State) -> Entry | None:
        """Reserve a free channel for `state`; None if the channel already has an entry."""
        if channel_id in self._entries:
            return None
        entry = self._entries[channel_id] = Entry(channel_id, state)
        return entry

    def attach(self, entry: Entry, message_id: int, jump_url: str, token: str) -> None:
        """Record the message that shows `entry`, and the interaction token that can edit it."""
        entry.message_id = message_id
        entry.jump_url = jump_url
        entry.token = token

    def has_ended(self, channel_id: int, message_id: int) -> bool:
        """Whether `message_id` shows the game or challenge that ended last in the channel."""
        return self._ended.get(channel_id) == message_id

    def swap(self, entry: Entry, expected: State, new: State) -> bool:
        """Compare-and-set: replace the state only if it is still `expected` and `entry` is live."""
        if self._entries.get(entry.channel_id) is not entry or entry.state != expected:
            return False
        entry.state = new
        return True

    def touch(self, entry: Entry, token: str, timeout: float) -> None:
        """Note activity: remember the latest interaction token and restart the idle timer."""
        entry.token = token
        if entry.timer is not None:
            entry.timer.cancel()
        loop = asyncio.get_running_loop()
        entry.timer = loop.call_later(timeout, self._expire, entry)

    def release(self, entry: Entry) -> None:
        """Free the channel of `entry` (if it still holds it) and stop its timer."""
        if entry.timer is not None:
            entry.timer.cancel()
            entry.timer = None
        if self._entries.get(entry.channel_id) is entry:
            del self._entries[entry.channel_id]
            if entry.message_id is not None:
                self._ended[entry.channel_id] = entry.message_id

    def close(self) -> None:
        """Stop every timer and pending expiry, e.g. when the bot shuts down."""
        for entry in list(self._entries.values()):
            self.release(entry)
        for task in self._expiring:
            task.cancel()

    def _expire(self, entry: Entry) -> None:
        if self._entries.get(entry.channel_id) is not entry:
            return
        self.release(entry)
        log.info("Channel %s: %s expired", entry.channel_id, type(entry.state).__name__.lower())
        task = asyncio.create_task(self._on_expire(entry), name=f"expire-{entry.channel_id}")
        self._expiring.add(task)
        task.add_done_callback(self._expiring.discard)
