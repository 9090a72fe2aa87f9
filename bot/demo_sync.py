"""The demo's page and clock kept in step with this computer: SimCord's clock telling the
computer's time (WallClock), the page refreshed after what the bot did on its own (PageSync),
the page always able to open (keep_pages_available), and SimCord's log lines that make no sense
in the demo left out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import simcord
    from simcord.preview import Preview

log = logging.getLogger(__name__)

# How often the demo looks for changes the bot made on its own (a game or challenge that
# expired): SimCord's page shows the channel as last published, and only actions publish.
# See PageSync.
SYNC_INTERVAL_SECONDS = 1.0

# How many browser pages (tabs) the demo serves at once: more than a person keeps open. Beyond
# it, the page idle longest is freed for a new one. See keep_pages_available.
PAGE_LIMIT = 64


class _SimulationNoise(logging.Filter):
    """Drops start-up lines that are wrong or useless inside the simulation."""

    LOGGERS = ("discord.client", "discord.state", "bot.app")
    MESSAGES = (
        # From the throwaway client SimCord makes on import to check discord.py's internals.
        "PyNaCl is not installed",
        "davey is not installed",
        "Guilds intent seems to be disabled",
        # About a login that exists only in the simulation: no token is used, and the bot is
        # renamed from SimCord's "TestBot".
        "logging in using static token",
        "Logged in as",
    )

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.MESSAGES)


@contextlib.contextmanager
def quiet_simulation_logs() -> Iterator[None]:
    """Leave out the log lines that make no sense when the bot runs inside SimCord."""
    noise = _SimulationNoise()
    for name in noise.LOGGERS:
        logging.getLogger(name).addFilter(noise)
    try:
        yield
    finally:
        for name in noise.LOGGERS:
            logging.getLogger(name).removeFilter(noise)


class WallClock:
    """SimCord's clock, reading this computer's time.

    SimCord's own clock starts at 2026-01-01 00:00 UTC and moves only when a test advances it
    or when a timer of the bot fires (then to that timer's instant; the timers themselves run
    in real time). In the demo every message was dated "1/1/26 12:00 AM" and every deadline the
    bot shows (taken from the interactions' ids, which SimCord stamps with this clock) was a
    time in that frozen day, while the games that expired were recorded at the computer's time
    (time.time()).

    This clock keeps SimCord's elapsed time (its timers' time, the bot's time.monotonic) as it
    is, and tells the time as the computer does: ids, messages, the bot's deadlines, its
    records and its timers then agree. It never goes back, and never behind SimCord's own
    elapsed time.
    """

    def __init__(self, simulated: Any) -> None:
        self._simulated = simulated
        simulated_now: datetime = simulated.now()
        self._start = max(datetime.now(UTC), simulated_now)
        self._start_elapsed = simulated.elapsed
        self._start_counter = time.perf_counter()  # never patched, unlike time.monotonic

    @property
    def elapsed(self) -> float:
        return float(self._simulated.elapsed)

    @elapsed.setter
    def elapsed(self, value: float) -> None:
        self._simulated.elapsed = value

    def advance(self, seconds: float) -> None:
        self._simulated.advance(seconds)

    def now(self) -> datetime:
        real = time.perf_counter() - self._start_counter
        simulated = self.elapsed - self._start_elapsed
        return self._start + timedelta(seconds=max(real, simulated))


def follow_wall_clock(env: simcord.Env) -> None:
    """From now on, SimCord tells this computer's time (see WallClock)."""
    backend = env.backend
    backend.clock = WallClock(backend.clock)  # type: ignore[assignment]


class PageSync:
    """Keeps the page in step with the bot and with the clock.

    SimCord's page shows the channel as last published: every click or command from the page
    publishes, and nothing else does. So, once a second:

    - An expiry, run by the bot's own timer, publishes nothing, and the page would keep showing
      a live board until the next action. So the bot's REST calls are counted: new ones with no
      publication since mean the page is behind, and it is refreshed. Refreshing only then
      matters: every refresh bumps the page's revision, and a click sent against the previous
      revision in the half second before the page polls again is refused.
    - While no action runs, the page's presentation time, from which it words every
      `<t:…:R>` ("closes in 1 minute"), is set to now: SimCord moves it only on a refresh, so
      an action's publication worded a new countdown from the last refresh, minutes ago ("in 6
      minutes" on a challenge that closes after one). SimCord's page then keeps a message's
      wording until the message changes (its timeline redraws a message only then).
    """

    def __init__(self, env: simcord.Env, preview: Preview) -> None:
        self.env = env
        self.preview = preview
        self._seen = self._now()

    def _now(self) -> tuple[int, int | None]:
        return len(self.env.http_requests), _published_revisions(self.preview)

    @property
    def supported(self) -> bool:
        return self._seen[1] is not None

    async def check(self) -> bool:
        """Refresh the page if it is behind the bot; True if it did."""
        from simcord import SetupError  # imported by bot.demo already, quietly

        if _busy(self.env):
            return False  # an action is running: it publishes what it changes
        # Before the next action: its countdowns then start from the time it began.
        _set_presentation_time(self.preview, self.env.now())
        (requests, revisions), (seen_requests, seen_revisions) = self._now(), self._seen
        refreshed = False
        if requests != seen_requests and revisions == seen_revisions:
            try:
                await self.preview.refresh()
            except SetupError:
                return False  # an action started meanwhile: look again next time
            refreshed = True
        self._seen = self._now()
        return refreshed

    async def run(self, interval: float = SYNC_INTERVAL_SECONDS) -> None:
        if not self.supported:
            log.debug("This SimCord hides page revisions: an expiry shows on the next action")
            return
        while True:
            await asyncio.sleep(interval)
            if await self.check():
                log.debug("Refreshed the page after a change made by the bot on its own")


def _busy(env: simcord.Env) -> bool:
    # SimCord has no public "idle" flag; its operation guard is what refresh() would trip on.
    return getattr(env, "_operation_task", None) is not None


def _published_revisions(preview: Preview) -> int | None:
    # Every publication of an open page bumps that page's revision. SimCord has no public
    # counter, so this sums the pages' own; None if its internals ever change shape.
    pages = getattr(preview, "_pages", None)
    if not isinstance(pages, dict):
        return None
    return sum(getattr(page, "revision", 0) for page in list(pages.values()))


def _set_presentation_time(preview: Preview, now: datetime) -> None:
    # SimCord has no public way to set an open preview's presentation time; this sets the
    # attribute its refresh sets, and does nothing if its shape ever changes.
    if isinstance(getattr(preview, "capture_time", None), datetime):
        preview.capture_time = now


def keep_pages_available(preview: Preview, limit: int = PAGE_LIMIT) -> bool:
    """Let the page always open: up to `limit` pages at once, and when that many are open, the
    page idle longest (a tab closed or gone long ago) is freed for the new one.

    SimCord keeps 16 pages, each until it has been idle (not polling) for 10 minutes, and
    refuses more: the page then says "The authorized page could not be opened" over an empty
    "Unavailable channel". A tab that goes without saying goodbye (a crashed or killed browser,
    a tab discarded) keeps its page, so about 16 of those made the demo unusable until it was
    restarted. SimCord has no public option for this: this sets the limit it reads and frees a
    page before it would refuse one. A freed page that was in fact still open says "Preview
    session is unavailable. Reload the active Preview URL." on its next poll, and a reload opens
    it again.

    Call it before the preview is served. False (and nothing changed, as logged) if SimCord's
    page registry is not the shape this was written for.
    """
    internals: Any = preview  # SimCord's page registry is private; its shape is checked here
    if not (
        isinstance(getattr(internals, "_pages", None), dict)
        and isinstance(getattr(internals, "_MAX_PAGES", None), int)
        and callable(getattr(internals, "_open_page", None))
        and callable(getattr(internals, "_close_page", None))
    ):
        log.warning("This SimCord's page registry is unknown: it may refuse pages after 16")
        return False
    open_page, close_page = internals._open_page, internals._close_page

    def open_page_freeing_the_idlest(*args: Any, **kwargs: Any) -> Any:
        # As SimCord counts: every page, its own Python presentation included.
        if len(internals._pages) > limit:
            # Neither SimCord's own presentation nor a page whose action is running.
            fixed = (getattr(internals, "_python", None), getattr(internals, "_action_page", None))
            freeable = [page for page in internals._pages.values() if not _among(page, fixed)]
            if freeable:
                idlest = min(freeable, key=_last_activity)
                close_page(idlest.id)
                log.debug("Freed the page idle longest for a new one (%d open)", limit)
        return open_page(*args, **kwargs)

    # Attributes of this preview only; SimCord's class (and any other preview) keeps its own.
    internals._MAX_PAGES = limit
    internals._open_page = open_page_freeing_the_idlest
    return True


def _last_activity(page: object) -> float:
    return float(getattr(page, "last_activity", 0.0))


def _among(page: object, pages: tuple[object, ...]) -> bool:
    # By identity: SimCord's pages compare by value.
    return any(page is other for other in pages)
