"""Whether recording fails, since when, and when to try again: exponential backoff between a
first and a last delay, and one log line when recording starts failing, one when it works
again (a failing dependency is said once, not on every retry)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.records.sql.url import describe

log = logging.getLogger("bot.records.writer")  # the writer's lines, as hosts know them


class Outage:
    def __init__(self, clock: Callable[[], float], first_retry: float, last_retry: float) -> None:
        self._clock = clock  # for how long it failed, as said when it works again
        self._first_retry = first_retry
        self._last_retry = last_retry
        self._since = 0.0
        self._delay = first_retry
        self.reason: str | None = None  # why writing fails (one line), None while it works
        self.next_attempt = 0.0  # the event loop's time the next write may start at

    def failed(self, error: Exception, now: float, pending: int, spooled: bool) -> None:
        """Writing failed at `now` (the loop's time), with `pending` games waiting."""
        reason = describe(error)
        if self.reason is None:
            self._since = self._clock()
            self._delay = self._first_retry
            log.warning(
                "Cannot record games (%s); %d game(s) wait%s and are written when the database "
                "is back",
                reason,
                pending,
                " in the spool" if spooled else "",
            )
        else:
            log.debug("Recording games still fails: %s", reason)
            self._delay = min(self._delay * 2, self._last_retry)
        self.reason = reason
        self.next_attempt = now + self._delay

    def recovered(self) -> None:
        if self.reason is None:
            return
        log.info("Recording games works again after %.1f s", self._clock() - self._since)
        self.reason = None
        self._delay = self._first_retry

    def failed_unexpectedly(self, now: float) -> None:
        """A bug, not the database: the next write waits the longest delay."""
        self.next_attempt = now + self._last_retry

    def retry_now(self) -> None:
        self.next_attempt = 0.0
