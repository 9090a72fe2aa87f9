"""Discord's per-route rate limits, as its answers show them: a bucket per route and major
parameter (for POST /channels/{channel_id}/messages: each channel or thread), `limit` requests
in a window of `per` seconds that opens with the window's first request; the headers every
answer carries (X-RateLimit-*), and 429 with `retry_after` once a window is spent.

The clock is the caller's (time.monotonic by default): a test can pass its own and move it, or
shrink `per` so that discord.py's own waits (it sleeps out X-RateLimit-Reset-After) stay short.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

# Discord's bucket for a channel's messages: 5 per 5 s for each channel or thread.
CHANNEL_MESSAGES_LIMIT = 5
CHANNEL_MESSAGES_PER = 5.0


@dataclass(slots=True)
class Window:
    opened: float
    used: int = 0


@dataclass(eq=False)
class Bucket:
    """One route's limit (`name` as Discord's X-RateLimit-Bucket hashes it), per major id."""

    name: str
    limit: int = CHANNEL_MESSAGES_LIMIT
    per: float = CHANNEL_MESSAGES_PER
    clock: Callable[[], float] = time.monotonic
    wall: Callable[[], float] = time.time  # X-RateLimit-Reset is a Unix time
    windows: dict[int, Window] = field(default_factory=dict)
    refused: Counter[int] = field(default_factory=Counter)  # 429s by major id
    admitted: list[tuple[int, float]] = field(default_factory=list)  # (major id, clock) each

    @property
    def hash(self) -> str:
        return hashlib.sha1(self.name.encode()).hexdigest()[:32]

    @property
    def rate_limited(self) -> int:
        """How many requests were answered 429."""
        return self.refused.total()

    def take(self, major: int) -> tuple[float | None, dict[str, str]]:
        """Spend one request of `major`'s window: (None, headers) if admitted, else
        (retry_after, headers) for the 429."""
        now = self.clock()
        window = self.windows.get(major)
        if window is None or now >= window.opened + self.per:
            window = self.windows[major] = Window(now)
        reset_after = max(window.opened + self.per - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Reset": f"{self.wall() + reset_after:.3f}",
            "X-RateLimit-Bucket": self.hash,
        }
        if window.used >= self.limit:
            self.refused[major] += 1
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"
            headers["Retry-After"] = str(max(1, round(reset_after)))  # whole seconds, as Discord
            # Every Discord answer comes through Google's front end; discord.py takes a 429
            # without Via for a Cloudflare ban and gives up.
            headers["Via"] = "1.1 google"
            return reset_after, headers
        window.used += 1
        self.admitted.append((major, now))
        headers["X-RateLimit-Remaining"] = str(self.limit - window.used)
        return None, headers
