"""What a click needs of the puzzle ratings, kept in memory: the click never waits on the
database. The records store the same attempts and work the ratings out again in the write's
transaction, from the stored rows; /puzzle reads a player's stored rating when memory has none
(after a restart, or for a player who played on another process)."""

from __future__ import annotations

from collections import OrderedDict, deque

from bot.core.rating import START, puzzle_start, rate_attempt
from bot.records.api import Rating
from tictactoe.puzzles import Puzzle

PLAYERS_KEPT = 100_000  # the most recent players' ratings; older ones are read again
ATTEMPTS_KEPT = 10_000  # finished attempts remembered, so that a double click rates once


class PuzzleMemory:
    def __init__(self, players_kept: int = PLAYERS_KEPT) -> None:
        self._players: OrderedDict[int, Rating] = OrderedDict()
        self._players_kept = players_kept
        self._puzzles: dict[str, Rating] = {}
        self._daily_day = ""  # the UTC day whose puzzle _daily_tried is about (ISO date)
        self._daily_tried: set[int] = set()
        self._finished: set[int] = set()
        self._finished_order: deque[int] = deque()

    def player(self, user_id: int) -> Rating | None:
        rating = self._players.get(user_id)
        if rating is not None:
            self._players.move_to_end(user_id)
        return rating

    def remember(self, user_id: int, rating: Rating) -> None:
        self._players[user_id] = rating
        self._players.move_to_end(user_id)
        while len(self._players) > self._players_kept:
            self._players.popitem(last=False)

    def puzzle(self, puzzle: Puzzle) -> Rating:
        return self._puzzles.get(puzzle.id) or puzzle_start(puzzle.rating)

    def set_puzzle_ratings(self, ratings: dict[str, Rating]) -> None:
        """The stored puzzle ratings, loaded once at start-up."""
        self._puzzles.update(ratings)

    def tried_daily(self, user_id: int, day: str) -> bool:
        return day == self._daily_day and user_id in self._daily_tried

    def mark_daily(self, user_id: int, day: str) -> None:
        if day > self._daily_day:  # a new day: yesterday's tries no longer matter
            self._daily_day, self._daily_tried = day, set()
        if day == self._daily_day:
            self._daily_tried.add(user_id)

    def finish(self, attempt_id: int) -> bool:
        """True the first time an attempt finishes; False for a second click that finished it
        too (a double click before the board changed)."""
        if attempt_id in self._finished:
            return False
        self._finished.add(attempt_id)
        self._finished_order.append(attempt_id)
        if len(self._finished_order) > ATTEMPTS_KEPT:
            self._finished.discard(self._finished_order.popleft())
        return True

    def settle(
        self, user_id: int, shown: Rating, puzzle: Puzzle, solved: bool
    ) -> tuple[Rating, Rating, Rating]:
        """Rate one attempt: the player's rating before and after, and the puzzle's before.
        `shown` is the rating the puzzle's buttons carry, for a player memory does not hold."""
        before = self.player(user_id) or shown
        puzzle_before = self.puzzle(puzzle)
        after, puzzle_after = rate_attempt(before, puzzle_before, solved)
        self.remember(user_id, after)
        self._puzzles[puzzle.id] = puzzle_after
        return before, after, puzzle_before


def carried(rating: int, deviation: int) -> Rating:
    """A rating as a puzzle's buttons carry it (rounded; the volatility is the usual one)."""
    games = 0 if deviation >= START.deviation else 1
    return Rating(float(rating), float(deviation), START.volatility, games)
