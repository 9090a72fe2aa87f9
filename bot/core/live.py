"""Per-channel live games in memory: the cache, the lock and the idle deadlines.

The message's buttons are the source of truth (see core/codec.py). Memory holds, for the one
game or challenge of each channel, the key of the state its message shows, so racing clicks are
serialised by compare-and-set. Entries are plain tuples of ints and strings, which CPython's
garbage collector stops tracking: ten thousand idle games add nothing to a full collection.
"""

from __future__ import annotations

import heapq
import math
from typing import Any, NamedTuple

from bot.core.finished import Place


class Live(NamedTuple):
    """What memory holds for a channel's one game or challenge (all plain values)."""

    message_id: int | None  # None while the message is being posted
    key: str  # codec.state_key of the state the message shows
    # While an edit's outcome is unknown (Discord errored, it may have applied it), the key
    # the message showed before it: a click on either is a click on what players see.
    unsure_of: str | None
    # The latest interaction that posted or updated the message: it can edit it for 15 minutes.
    token: str | None
    deadline: float  # monotonic seconds when the game or challenge lapses
    guild_id: int | None  # for links to the message
    # Where the game is played, for announcing its end when no click ends it (an expiry):
    # a Place's plain string value, so that the garbage collector does not track the entry.
    place: str = Place.SERVER.value
    user_installed: bool = False

    @property
    def where(self) -> tuple[int | None, str, bool]:
        """Server, place and install, as the game's end is announced with them."""
        return self.guild_id, self.place, self.user_installed


class GameStore:
    """At most one entry per channel; each has a deadline after which it lapses."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Any, ...]] = {}  # Live's fields
        # (deadline, channel) once per entry; an entry whose deadline moved later is pushed
        # again when its old record comes up, so the heap never holds more than the entries.
        self._deadlines: list[tuple[float, int]] = []
        # Each channel's earliest record in _deadlines; later records for it are stale.
        self._scheduled: dict[int, float] = {}
        # The message whose game or challenge ended last in each channel.
        self._ended: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, channel_id: int) -> Live | None:
        entry = self._entries.get(channel_id)
        return None if entry is None else Live._make(entry)

    def compare_and_set(self, channel_id: int, expected: Live | None, new: Live | None) -> bool:
        """Replace the channel's entry with `new` (None frees it) if it is still `expected`.

        `expected` None claims a free channel; this is the only way entries change, so two
        handlers can never both act on the same state.
        """
        current = self._entries.get(channel_id)
        if current != expected:  # a Live is a tuple: equal entries compare equal
            return False
        if new is None:
            if current is None:
                return True  # nothing held: nothing to free
            del self._entries[channel_id]
            if current[0] is not None:
                self._ended[channel_id] = current[0]
            return True
        self._entries[channel_id] = tuple(new)
        if new.deadline < self._scheduled.get(channel_id, math.inf):
            self._schedule(channel_id, new.deadline)
        return True

    def _schedule(self, channel_id: int, deadline: float) -> None:
        self._scheduled[channel_id] = deadline
        heapq.heappush(self._deadlines, (deadline, channel_id))

    def end_unclaimed(self, channel_id: int, message_id: int) -> bool:
        """Record that the game of `message_id`, which memory did not hold (a board from before
        a restart), has ended; False if a game is live in the channel or that one ended already.
        Clicks still in flight on it then see it as ended (Seen.has_ended)."""
        if channel_id in self._entries or self._ended.get(channel_id) == message_id:
            return False
        self._ended[channel_id] = message_id
        return True

    def reopen(self, channel_id: int, message_id: int) -> None:
        """Undo end_unclaimed: the edit that ended that game was refused, so its board still
        shows it on."""
        if self._ended.get(channel_id) == message_id:
            del self._ended[channel_id]

    def has_ended(self, channel_id: int, message_id: int) -> bool:
        return self._ended.get(channel_id) == message_id

    def next_deadline(self) -> float | None:
        return self._deadlines[0][0] if self._deadlines else None

    def pop_lapsed(self, now: float) -> list[tuple[int, Live]]:
        """Remove and return every entry whose deadline has passed."""
        lapsed: list[tuple[int, Live]] = []
        while self._deadlines and self._deadlines[0][0] <= now:
            deadline, channel_id = heapq.heappop(self._deadlines)
            if self._scheduled.get(channel_id) != deadline:
                continue  # superseded by an earlier record
            del self._scheduled[channel_id]
            live = self.get(channel_id)
            if live is None:
                continue  # ended before its deadline
            if live.deadline > now:  # moved later by activity since
                self._schedule(channel_id, live.deadline)
                continue
            self.compare_and_set(channel_id, live, None)
            lapsed.append((channel_id, live))
        return lapsed

    def clear(self) -> None:
        self._entries.clear()
        self._deadlines.clear()
        self._scheduled.clear()
