"""Live games in memory, one entry per board: the cache, the lock and the idle deadlines.

The message's buttons are the source of truth (see core/codec.py). Memory holds, for each board
with a game or challenge on, the key of the state its message shows, so racing clicks are
serialised by compare-and-set. A board is named by where it is played (its channel, or for a
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

# (scope, one player, the other player): the lower id first. The scope is a channel's id, or a
# player's id negated for the board only that player sees.
Board = tuple[int, int, int]


def board_of(scope: int, players: tuple[int, int]) -> Board:
    first, second = players
    return (scope, first, second) if first < second else (scope, second, first)


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

    @property
    def where(self) -> tuple[int | None, str, bool]:
        """Server, place and install, as the game's end is announced with them."""
        return self.guild_id, self.place, self.user_installed


_CHALLENGER, _GUILD = Live._fields.index("challenger"), Live._fields.index("guild_id")


class GameStore:
    """At most one entry per board, one board per player and scope; each entry has a deadline
    after which it lapses."""

    def __init__(self) -> None:
        self._entries: dict[Board, tuple[Any, ...]] = {}  # Live's fields
        # (deadline, board) once per entry; an entry whose deadline moved later is pushed
        # again when its old record comes up, so the heap never holds more than the entries.
        self._deadlines: list[tuple[float, Board]] = []
        # Each board's earliest record in _deadlines; later records for it are stale.
        self._scheduled: dict[Board, float] = {}
        # The message whose game or challenge ended last on each board.
        self._ended: dict[Board, int] = {}
        # The live boards of each scope (a dict as an ordered set), and each player's one.
        self._in_scope: dict[int, dict[Board, None]] = {}
        self._of_player: dict[tuple[int, int], Board] = {}
        # Each challenger's pending challenge, per server.
        self._challenge_of: dict[tuple[int, int], Board] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, board: Board) -> Live | None:
        entry = self._entries.get(board)
        return None if entry is None else Live._make(entry)

    def count(self, scope: int) -> int:
        """How many boards have a game or challenge on in this scope."""
        boards = self._in_scope.get(scope)
        return 0 if boards is None else len(boards)

    def any_in(self, scope: int) -> Live | None:
        """One live board of the scope (the oldest), for a link."""
        boards = self._in_scope.get(scope)
        return None if not boards else self.get(next(iter(boards)))

    def board_of_player(self, scope: int, user_id: int) -> Board | None:
        """The board where this person has a game or challenge on in this scope."""
        return self._of_player.get((scope, user_id))

    def challenge_of(self, guild_id: int, user_id: int) -> Board | None:
        """The board of this person's pending challenge in this server."""
        return self._challenge_of.get((guild_id, user_id))

    def compare_and_set(self, board: Board, expected: Live | None, new: Live | None) -> bool:
        """Replace the board's entry with `new` (None frees it) if it is still `expected`.

        `expected` None claims a free board; this is the only way entries change, so two
        handlers can never both act on the same state. Whether a scope has room for another
        board is the caller's question (policy.refuse_start), asked just before.
        """
        current = self._entries.get(board)
        if current != expected:  # a Live is a tuple: equal entries compare equal
            return False
        if new is None:
            if current is None:
                return True  # nothing held: nothing to free
            del self._entries[board]
            self._unindex(board, Live._make(current))
            if current[0] is not None:
                self._ended[board] = current[0]
            return True
        if current is None:
            self._index(board, new)
        elif current[_CHALLENGER] != new.challenger or current[_GUILD] != new.guild_id:
            self._unindex(board, Live._make(current))
            self._index(board, new)
        self._entries[board] = tuple(new)
        if new.deadline < self._scheduled.get(board, math.inf):
            self._schedule(board, new.deadline)
        return True

    def _index(self, board: Board, live: Live) -> None:
        scope, first, second = board
        self._in_scope.setdefault(scope, {})[board] = None
        for player in (first, second):
            if player != AI:
                self._of_player[scope, player] = board
        if live.challenger and live.guild_id is not None:
            self._challenge_of[live.guild_id, live.challenger] = board

    def _unindex(self, board: Board, live: Live) -> None:
        scope, first, second = board
        boards = self._in_scope.get(scope)
        if boards is not None:
            boards.pop(board, None)
            if not boards:
                del self._in_scope[scope]
        for player in (first, second):
            if self._of_player.get((scope, player)) == board:
                del self._of_player[scope, player]
        if live.challenger and live.guild_id is not None:
            pending = (live.guild_id, live.challenger)
            if self._challenge_of.get(pending) == board:
                del self._challenge_of[pending]

    def _schedule(self, board: Board, deadline: float) -> None:
        self._scheduled[board] = deadline
        heapq.heappush(self._deadlines, (deadline, board))

    def end_unclaimed(self, board: Board, message_id: int) -> bool:
        """Record that the game of `message_id`, which memory did not hold (a board from before
        a restart), has ended; False if a game is live on the board or that one ended already.
        Clicks still in flight on it then see it as ended (Seen.has_ended)."""
        if board in self._entries or self._ended.get(board) == message_id:
            return False
        self._ended[board] = message_id
        return True

    def reopen(self, board: Board, message_id: int) -> None:
        """Undo end_unclaimed: the edit that ended that game was refused, so its board still
        shows it on."""
        if self._ended.get(board) == message_id:
            del self._ended[board]

    def has_ended(self, board: Board, message_id: int) -> bool:
        return self._ended.get(board) == message_id

    def next_deadline(self) -> float | None:
        return self._deadlines[0][0] if self._deadlines else None

    def pop_lapsed(self, now: float) -> list[tuple[Board, Live]]:
        """Remove and return every entry whose deadline has passed."""
        lapsed: list[tuple[Board, Live]] = []
        while self._deadlines and self._deadlines[0][0] <= now:
            deadline, board = heapq.heappop(self._deadlines)
            if self._scheduled.get(board) != deadline:
                continue  # superseded by an earlier record
            del self._scheduled[board]
            live = self.get(board)
            if live is None:
                continue  # ended before its deadline
            if live.deadline > now:  # moved later by activity since
                self._schedule(board, live.deadline)
                continue
            self.compare_and_set(board, live, None)
            lapsed.append((board, live))
        return lapsed

    def clear(self) -> None:
        self._entries.clear()
        self._deadlines.clear()
        self._scheduled.clear()
        self._in_scope.clear()
        self._of_player.clear()
        self._challenge_of.clear()


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
