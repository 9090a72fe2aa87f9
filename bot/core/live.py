"""Live games in memory, one entry per board: the cache, the lock and the idle deadlines.

The message's buttons are the source of truth (see core/codec.py). Memory holds, for each board
with a game or challenge on, the key of the state its message shows, so racing clicks are
serialised by compare-and-set. A board's seat is where it is played (its channel, or for a
board only its player sees, minus that player's id) and its two players, which every click
carries: a channel holds several boards (a server's games_per_channel), a player one per
channel. Entries are plain tuples of ints and strings, which CPython's garbage collector stops
tracking: ten thousand idle games add nothing to a full collection.
"""

from __future__ import annotations

import heapq
import math
from typing import Any, NamedTuple

from bot.core.finished import Place
from bot.core.game import AI

# Where a game sits in memory: (scope, one player, the other player), the lower id first. The
# scope is a channel's id, or a player's id negated for the board only that player sees. A plain
# tuple of ints, which the garbage collector stops tracking.
Seat = tuple[int, int, int]


def seat_of(scope: int, players: tuple[int, int]) -> Seat:
    first, second = players
    return (scope, first, second) if first < second else (scope, second, first)


def is_private(seat: Seat) -> bool:
    """The seat of a board only its player sees (an ephemeral message)."""
    return seat[0] < 0


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
    challenger: int = 0  # who sent it, while the entry is a challenge (one each per server)
    kind: str = "classic"  # the kind of board (bot/kinds): how `key` decodes
    # The private resign question open on this game, if any: its message and the token that
    # posted it, so that it loses its buttons when the game ends another way.
    question: int | None = None
    question_token: str | None = None

    @property
    def where(self) -> tuple[int | None, str, bool]:
        """Server, place and install, as the game's end is announced with them."""
        return self.guild_id, self.place, self.user_installed


_CHALLENGER, _GUILD = Live._fields.index("challenger"), Live._fields.index("guild_id")
_MESSAGE = Live._fields.index("message_id")


class GameStore:
    """At most one entry per seat, one seat per player and scope; each entry has a deadline
    after which it lapses."""

    def __init__(self) -> None:
        self._entries: dict[Seat, tuple[Any, ...]] = {}  # Live's fields
        # (deadline, seat) once per entry; an entry whose deadline moved later is pushed
        # again when its old record comes up, so the heap never holds more than the entries.
        self._deadlines: list[tuple[float, Seat]] = []
        # Each seat's earliest record in _deadlines; later records for it are stale.
        self._scheduled: dict[Seat, float] = {}
        # The message whose game or challenge ended last on each seat.
        self._ended: dict[Seat, int] = {}
        # The live seats of each scope (a dict as an ordered set), and each player's one.
        self._in_scope: dict[int, dict[Seat, None]] = {}
        self._of_player: dict[tuple[int, int], Seat] = {}
        # Each challenger's pending challenge, per server.
        self._challenge_of: dict[tuple[int, int], Seat] = {}
        # The seat whose live game or challenge each posted message shows.
        self._of_message: dict[int, Seat] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, seat: Seat) -> Live | None:
        entry = self._entries.get(seat)
        return None if entry is None else Live._make(entry)

    def count(self, scope: int) -> int:
        """How many seats have a game or challenge on in this scope."""
        seats = self._in_scope.get(scope)
        return 0 if seats is None else len(seats)

    def any_in(self, scope: int) -> Live | None:
        """One live seat of the scope (the oldest), for a link."""
        seats = self._in_scope.get(scope)
        return None if not seats else self.get(next(iter(seats)))

    def seat_of_player(self, scope: int, user_id: int) -> Seat | None:
        """The seat where this person has a game or challenge on in this scope."""
        return self._of_player.get((scope, user_id))

    def seat_showing(self, message_id: int) -> Seat | None:
        """The seat whose live game or challenge this message shows, if memory holds one."""
        return self._of_message.get(message_id)

    def challenge_of(self, guild_id: int, user_id: int) -> Seat | None:
        """The seat of this person's pending challenge in this server."""
        return self._challenge_of.get((guild_id, user_id))

    def compare_and_set(self, seat: Seat, expected: Live | None, new: Live | None) -> bool:
        """Replace the seat's entry with `new` (None frees it) if it is still `expected`.

        `expected` None claims a free seat; this is the only way entries change, so two
        handlers can never both act on the same state. Whether a scope has room for another
        seat is the caller's question (policy.refuse_start), asked just before.
        """
        current = self._entries.get(seat)
        if current != expected:  # a Live is a tuple: equal entries compare equal
            return False
        if new is None:
            if current is None:
                return True  # nothing held: nothing to free
            del self._entries[seat]
            self._unindex(seat, Live._make(current))
            if current[0] is not None:
                self._ended[seat] = current[0]
            return True
        if current is None:
            self._index(seat, new)
        elif (
            current[_CHALLENGER] != new.challenger
            or current[_GUILD] != new.guild_id
            or current[_MESSAGE] != new.message_id
        ):
            self._unindex(seat, Live._make(current))
            self._index(seat, new)
        self._entries[seat] = tuple(new)
        if new.deadline < self._scheduled.get(seat, math.inf):
            self._schedule(seat, new.deadline)
        return True

    def _index(self, seat: Seat, live: Live) -> None:
        scope, first, second = seat
        self._in_scope.setdefault(scope, {})[seat] = None
        for player in (first, second):
            if player != AI:
                self._of_player[scope, player] = seat
        if live.challenger and live.guild_id is not None:
            self._challenge_of[live.guild_id, live.challenger] = seat
        if live.message_id is not None:
            self._of_message[live.message_id] = seat

    def _unindex(self, seat: Seat, live: Live) -> None:
        scope, first, second = seat
        seats = self._in_scope.get(scope)
        if seats is not None:
            seats.pop(seat, None)
            if not seats:
                del self._in_scope[scope]
        for player in (first, second):
            if self._of_player.get((scope, player)) == seat:
                del self._of_player[scope, player]
        if live.challenger and live.guild_id is not None:
            pending = (live.guild_id, live.challenger)
            if self._challenge_of.get(pending) == seat:
                del self._challenge_of[pending]
        if live.message_id is not None and self._of_message.get(live.message_id) == seat:
            del self._of_message[live.message_id]

    def _schedule(self, seat: Seat, deadline: float) -> None:
        self._scheduled[seat] = deadline
        heapq.heappush(self._deadlines, (deadline, seat))

    def end_unclaimed(self, seat: Seat, message_id: int) -> bool:
        """Record that the game of `message_id`, which memory did not hold (a seat from before
        a restart), has ended; False if a game is live on the seat or that one ended already.
        Clicks still in flight on it then see it as ended (Seen.has_ended)."""
        if seat in self._entries or self._ended.get(seat) == message_id:
            return False
        self._ended[seat] = message_id
        return True

    def reopen(self, seat: Seat, message_id: int) -> None:
        """Undo end_unclaimed: the edit that ended that game was refused, so its seat still
        shows it on."""
        if self._ended.get(seat) == message_id:
            del self._ended[seat]

    def has_ended(self, seat: Seat, message_id: int) -> bool:
        return self._ended.get(seat) == message_id

    def ended_on(self, seat: Seat) -> bool:
        """A game or challenge on this seat has ended, and none is on there now."""
        return seat in self._ended and seat not in self._entries

    def next_deadline(self) -> float | None:
        return self._deadlines[0][0] if self._deadlines else None

    def pop_lapsed(self, now: float) -> list[tuple[Seat, Live]]:
        """Remove and return every entry whose deadline has passed."""
        lapsed: list[tuple[Seat, Live]] = []
        while self._deadlines and self._deadlines[0][0] <= now:
            deadline, seat = heapq.heappop(self._deadlines)
            if self._scheduled.get(seat) != deadline:
                continue  # superseded by an earlier record
            del self._scheduled[seat]
            live = self.get(seat)
            if live is None:
                continue  # ended before its deadline
            if live.deadline > now:  # moved later by activity since
                self._schedule(seat, live.deadline)
                continue
            self.compare_and_set(seat, live, None)
            lapsed.append((seat, live))
        return lapsed

    def clear(self) -> None:
        self._entries.clear()
        self._deadlines.clear()
        self._scheduled.clear()
        self._in_scope.clear()
        self._of_player.clear()
        self._challenge_of.clear()
        self._of_message.clear()


class Cooldowns:
    """When each challenger may challenge again in a server (a server's challenge_cooldown,
    after a challenge was declined or expired): monotonic seconds, forgotten once passed."""

    def __init__(self) -> None:
        self._until: dict[tuple[int, int], float] = {}

    def __len__(self) -> int:
        return len(self._until)

    def start(self, guild_id: int, user_id: int, until: float, now: float) -> None:
        if len(self._until) > 1024:  # forget the passed ones now and then
            self._until = {key: end for key, end in self._until.items() if end > now}
        if until > now:
            self._until[guild_id, user_id] = until

    def until(self, guild_id: int, user_id: int, now: float) -> float | None:
        """When this person may challenge again here, if not yet."""
        end = self._until.get((guild_id, user_id))
        if end is None:
            return None
        if end <= now:
            del self._until[guild_id, user_id]
            return None
        return end

    def clear(self) -> None:
        self._until.clear()
