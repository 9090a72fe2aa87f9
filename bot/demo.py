"""`python -m bot --demo`: play the real bot in a browser, with no token and no network.

The bot (same cog, same engine, same code path as on Discord) runs inside SimCord, an in-memory
Discord. SimCord's preview page shows the #tic-tac-toe channel with a working composer (type
/tictactoe and pick its options), clickable buttons, and a "Viewing as" picker that switches
between you, a friend to challenge, and a stranger who is in neither game.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import random
import signal
import sys
import tempfile
import webbrowser
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.app import TicTacToeBot
from bot.records.api import GameWriter, Records
from bot.records.startup import start_records
from bot.settings import DEFAULT_GAME_TIMEOUT_SECONDS, Settings

if TYPE_CHECKING:
    from simcord.preview import Preview

log = logging.getLogger(__name__)


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


# The demo's own dependency (`python -m bot` imports this module only for --demo), imported
# quietly: on import it builds a throwaway discord.Client, which logs warnings about itself.
with quiet_simulation_logs():
    import simcord

BOT_NAME = "Tic-Tac-Toe"
CHANNEL_NAME = "tic-tac-toe"
CHANNEL_TOPIC = (
    "Type /tictactoe to play, /stats and /leaderboard to see the scores. "
    "Switch “Viewing as” to play as your friend."
)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")
DEMO_TOKEN = "demo-no-token"  # SimCord never checks it; it only has to be non-empty
# How often the demo looks for changes the bot made on its own (a game or challenge that
# expired): SimCord's page shows the channel as last published, and only actions publish.
# See PageSync.
SYNC_INTERVAL_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class DemoWorld:
    """The simulated server: one channel and the people on the page."""

    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    you: simcord.MemberActor
    friend: simcord.MemberActor
    stranger: simcord.MemberActor

    @property
    def viewers(self) -> tuple[simcord.MemberActor, ...]:
        """Who the page can show the channel as; the first one is the page's default."""
        return (self.you, self.friend, self.stranger)


RUN_FOR_REAL = 'To run the bot on Discord for real, see README.md, section "Set up and run".'


class DemoBot(TicTacToeBot):
    """The real bot, in the simulation. Its application exists only there, so links that add
    it to a server or an account would lead nowhere: it says how to run the bot for real."""

    def log_install_links(self) -> None:
        log.info(RUN_FOR_REAL)


def make_demo_bot(
    rng: random.Random | None = None,
    *,
    game_timeout_seconds: int = DEFAULT_GAME_TIMEOUT_SECONDS,
    records: Records | None = None,
    writer: GameWriter | None = None,
) -> TicTacToeBot:
    """The real bot with demo settings (recording games when given `records` and `writer`)."""
    settings = Settings(token=DEMO_TOKEN, game_timeout_seconds=game_timeout_seconds, shard_count=1)
    return DemoBot(settings, rng=rng, records=records, writer=writer)


async def make_recording_demo_bot(scratch: Path, rng: random.Random | None = None) -> TicTacToeBot:
    """The demo bot, recording games into a SQLite file in `scratch` (a temporary directory),
    so that /stats and /leaderboard can be tried."""
    records, writer = await start_records(
        f"sqlite+aiosqlite:///{scratch / 'records.db'}", scratch / "records-spool.jsonl"
    )
    return make_demo_bot(rng, records=records, writer=writer)


async def setup_world(env: simcord.Env) -> DemoWorld:
    """A server with #tic-tac-toe and three members: you, a friend and a stranger."""
    # SimCord calls every bot "TestBot"; renaming goes through the bot's own REST call. Before
    # the server exists, so that the bot's member there gets the name too.
    assert env.bot.user is not None
    await env.bot.user.edit(username=BOT_NAME)
    guild = env.create_guild("Tic-Tac-Toe demo")
    channel = guild.create_text_channel(CHANNEL_NAME, topic=CHANNEL_TOPIC)
    you = guild.add_member(env.create_user("you", global_name="You"))
    friend = guild.add_member(env.create_user("friend", global_name="Friend"))
    stranger = guild.add_member(env.create_user("stranger", global_name="Stranger"))
    return DemoWorld(env, guild, channel, you, friend, stranger)


def open_preview(world: DemoWorld, *, port: int = 0) -> Preview:
    """SimCord's page of the channel, as any of the world's members (enter it to serve it)."""
    return world.env.preview(world.channel, viewers=world.viewers, layout="channel", port=port)


def run_demo(*, host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True) -> int:
    """Serve the demo on http://127.0.0.1:port until Ctrl-C or SIGTERM; return the exit code.

    0 after a clean stop (also when the page's "End preview session" is used), 1 when the
    address cannot be used, with one line on the log saying why. Port 0 picks a free port.
    """
    _ensure_visible_logging()
    if host not in LOOPBACK_HOSTS:
        log.error("The demo serves on this computer only (127.0.0.1), not on %r", host)
        return 1
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        log.error("The port must be a number from 1 to 65535 (0: any free port), not %r", port)
        return 1
    try:
        with quiet_simulation_logs():
            return asyncio.run(_serve(port, open_browser))
    except KeyboardInterrupt:  # a Ctrl-C before the signal handlers were in place
        return 0


def _ensure_visible_logging() -> None:
    # The URL is logged at INFO: `python -m bot` sets logging up; a bare call may not have.
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if log.getEffectiveLevel() > logging.INFO:
        log.setLevel(logging.INFO)


async def _serve(port: int, open_browser: bool) -> int:
    stopping = asyncio.Event()
    with _stop_on_signals(stopping), _scratch_temp_dir() as scratch:
        bot = await make_recording_demo_bot(scratch)
        try:
            code = await _serve_bot(bot, stopping, port, open_browser)
        finally:
            # SimCord detaches the bot without closing it: its records are closed here.
            await bot.close_records()
    if code == 0:
        log.info("Demo stopped")
    return code


async def _serve_bot(
    bot: TicTacToeBot, stopping: asyncio.Event, port: int, open_browser: bool
) -> int:
    # check_errors=False: the bot logs its own errors, and one must not end the demo.
    async with simcord.run(bot, check_errors=False) as env:
        world = await setup_world(env)
        preview = open_preview(world, port=port)
        try:
            await preview.__aenter__()
        except simcord.SetupError as error:
            log.error("Cannot serve the demo: %s", _bind_failure(error, port))
            return 1
        try:
            log.info("Demo running: open %s in a browser (Ctrl-C stops it)", preview.url)
            if open_browser:
                _open_in_browser(preview.url)
            sync = asyncio.create_task(PageSync(env, preview).run())
            try:
                await _wait_for_stop(stopping, preview)
            finally:
                sync.cancel()
                await asyncio.gather(sync, return_exceptions=True)
        finally:
            await preview.close()
    return 0


def _bind_failure(error: BaseException, port: int) -> str:
    """Why the page could not be served, in words that say what to do."""
    cause = error.__cause__
    if isinstance(cause, OSError) and cause.errno == errno.EADDRINUSE:
        return f"port {port} is already in use; pick another one"
    if isinstance(cause, OSError) and cause.errno == errno.EACCES:
        return f"no permission to use port {port}; pick one above 1023"
    if isinstance(cause, OSError):
        return f"cannot use port {port} ({cause.strerror or cause})"
    return str(error)


@contextlib.contextmanager
def _stop_on_signals(stopping: asyncio.Event) -> Iterator[None]:
    loop = asyncio.get_running_loop()
    signals = (signal.SIGINT, signal.SIGTERM)
    for signum in signals:
        loop.add_signal_handler(signum, stopping.set)
    try:
        yield
    finally:
        for signum in signals:
            loop.remove_signal_handler(signum)


@contextlib.contextmanager
def _scratch_temp_dir() -> Iterator[Path]:
    # SimCord keeps the world in memory; whatever it or a library spools to disk (media
    # conversion, captures), and the demo's records, land in a directory of our own, removed
    # when the demo ends.
    previous = tempfile.tempdir
    with tempfile.TemporaryDirectory(prefix="tictactoe-demo-") as scratch:
        tempfile.tempdir = scratch
        try:
            yield Path(scratch)
        finally:
            tempfile.tempdir = previous


def _open_in_browser(url: str) -> None:
    if not _may_open_a_browser():
        log.info("No display for a browser: open the URL above in one")
        return
    try:
        opened = webbrowser.open(url)
    except Exception as error:
        log.info("Could not open a browser (%s): open the URL above yourself", error)
        return
    if not opened:
        log.info("No browser found: open the URL above yourself")


def _may_open_a_browser() -> bool:
    # Without a display, webbrowser falls back to text browsers (lynx, w3m) that would take over
    # this terminal and block the demo; a browser the user named in $BROWSER is their choice.
    if os.environ.get("BROWSER") or not sys.platform.startswith(("linux", "freebsd", "openbsd")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


async def _wait_for_stop(stopping: asyncio.Event, preview: Preview) -> None:
    """Return on a signal, or when the page's "End preview session" closed the preview."""
    waiters = [asyncio.ensure_future(stopping.wait()), asyncio.ensure_future(preview.wait_closed())]
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()
        await asyncio.gather(*waiters, return_exceptions=True)


class PageSync:
    """Refreshes the page after the bot changed the channel outside any click or command.

    A click or command from the page republishes the page itself; an expiry, run by the bot's own
    timer, does not, and the page would keep showing a live board until the next action. So the
    bot's REST calls are counted: new ones with no publication since mean the page is behind.
    Refreshing only then matters: every refresh bumps the page's revision, and a click sent
    against the previous revision in the half second before the page polls again is refused.
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
        if _busy(self.env):
            return False  # an action is running: it publishes what it changes
        (requests, revisions), (seen_requests, seen_revisions) = self._now(), self._seen
        refreshed = False
        if requests != seen_requests and revisions == seen_revisions:
            try:
                await self.preview.refresh()
            except simcord.SetupError:
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
