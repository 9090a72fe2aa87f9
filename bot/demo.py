"""`python -m bot --demo`: play the real bot in a browser, with no token and no network.

The bot (same cog, same engine, same code path as on Discord) runs inside SimCord, an in-memory
Discord. SimCord's preview page shows the #tic-tac-toe channel with a working composer (type
/tictactoe and pick its options), clickable buttons, and a "Viewing as" picker that switches
between you (Alex), a friend to challenge (Sam), and a stranger who is in neither game (Robin).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import random
import signal
import socket
import sys
import tempfile
import webbrowser
import zoneinfo
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.app import TicTacToeBot
from bot.demo_sync import (
    PageSync,
    follow_wall_clock,
    keep_pages_available,
    quiet_simulation_logs,
)
from bot.ops.status_server import StatusServerError
from bot.records.api import GameWriter, Records
from bot.records.startup import start_records
from bot.settings import Settings, SettingsError

if TYPE_CHECKING:
    from simcord.preview import Preview

log = logging.getLogger(__name__)


# The demo's own dependency (`python -m bot` imports this module only for --demo), imported
# quietly: on import it builds a throwaway discord.Client, which logs warnings about itself.
with quiet_simulation_logs():
    import simcord

BOT_NAME = "Tic-Tac-Toe"
CHANNEL_NAME = "tic-tac-toe"
# The people on the page. Names, not roles: the bot speaks of players by name ("@Sam, @Alex
# challenges you!"), which reads wrong with a user called "You".
YOU, FRIEND, STRANGER = "Alex", "Sam", "Robin"
# The same for every person viewing (SimCord has one topic per channel), and short enough to
# show whole on one line of a 1100-pixel-wide page. The composer runs a command only when it
# is picked from its pop-up: "/tictactoe difficulty:easy" typed out is posted as plain text.
CHANNEL_TOPIC = (
    f"{YOU}, {FRIEND} and {STRANGER} are here (switch with “Viewing as”). "
    "Pick /tictactoe in the pop-up, each option, then Send."
)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")
DEMO_TOKEN = "demo-no-token"  # SimCord never checks it; it only has to be non-empty
# The bot's settings that the demo honours; the rest make no sense in the simulation.
METRICS_SETTINGS = ("METRICS_PORT", "METRICS_HOST")


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


def demo_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The demo's settings: no token, one shard, and METRICS_PORT and METRICS_HOST from
    `environ`, read as the bot reads them (raises SettingsError as the bot would)."""
    environ = environ or {}
    given = {name: environ[name] for name in METRICS_SETTINGS if name in environ}
    read = Settings.from_env({"DISCORD_TOKEN": DEMO_TOKEN, **given})
    return Settings(
        token=DEMO_TOKEN,
        shard_count=1,
        metrics_port=read.metrics_port,
        metrics_host=read.metrics_host,
    )


def make_demo_bot(
    rng: random.Random | None = None,
    *,
    settings: Settings | None = None,
    records: Records | None = None,
    writer: GameWriter | None = None,
) -> TicTacToeBot:
    """The real bot with demo settings (recording games when given `records` and `writer`)."""
    return DemoBot(settings or demo_settings(), rng=rng, records=records, writer=writer)


async def make_recording_demo_bot(
    scratch: Path, rng: random.Random | None = None, *, settings: Settings | None = None
) -> TicTacToeBot:
    """The demo bot, recording games into a SQLite file in `scratch` (a temporary directory),
    so that /stats and /leaderboard can be tried."""
    records, writer = await start_records(
        f"sqlite+aiosqlite:///{scratch / 'records.db'}", scratch / "records-spool.jsonl"
    )
    return make_demo_bot(rng, settings=settings, records=records, writer=writer)


async def setup_world(env: simcord.Env) -> DemoWorld:
    """A server with #tic-tac-toe and three members: you, a friend and a stranger (YOU,
    FRIEND and STRANGER), and the bot. You own it."""
    # SimCord calls every bot "TestBot"; renaming goes through the bot's own REST call. Before
    # the server exists, so that the bot's member there gets the name too.
    assert env.bot.user is not None
    await env.bot.user.edit(username=BOT_NAME)
    you_user, friend_user, stranger_user = (
        env.create_user(name.lower(), global_name=name) for name in (YOU, FRIEND, STRANGER)
    )
    # You run the server: /settings (Manage Server only) is yours to try. Without an owner
    # SimCord makes one up ("Tic-Tac-Toe demo Owner"), a member every user picker would offer.
    guild = env.create_guild("Tic-Tac-Toe demo", owner=you_user)
    channel = guild.create_text_channel(CHANNEL_NAME, topic=CHANNEL_TOPIC)
    you = simcord.MemberActor(env, guild, you_user)  # the owner is a member already
    friend, stranger = guild.add_member(friend_user), guild.add_member(stranger_user)
    return DemoWorld(env, guild, channel, you, friend, stranger)


def open_preview(world: DemoWorld, *, port: int = 0, timezone: str = "UTC") -> Preview:
    """SimCord's page of the channel, as any of the world's members (enter it to serve it),
    showing times in `timezone` (an IANA name); it always opens, however many tabs were
    closed without a goodbye (see keep_pages_available)."""
    preview = world.env.preview(
        world.channel, viewers=world.viewers, layout="channel", port=port, timezone=timezone
    )
    keep_pages_available(preview)
    return preview


def local_timezone() -> str:
    """This computer's time zone as an IANA name (TZ, or where /etc/localtime points), for the
    page to show times as the computer's clock does; UTC when it cannot tell."""
    name = os.environ.get("TZ", "").removeprefix(":")
    if not name:
        with contextlib.suppress(OSError):
            name = os.path.realpath("/etc/localtime").partition("/zoneinfo/")[2]
    try:
        zoneinfo.ZoneInfo(name)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return "UTC"
    return name


def run_demo(
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = True,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Serve the demo on http://127.0.0.1:port until Ctrl-C or SIGTERM; return the exit code.

    0 after a clean stop (also when the page's "End preview session" is used), 1 when the
    address (or METRICS_PORT's) cannot be used, 2 for an invalid METRICS_PORT, each with one
    line on the log saying why, before anything starts. Port 0 picks a free port. `environ`
    (os.environ by default) gives METRICS_PORT and METRICS_HOST, as for the bot.
    """
    _ensure_visible_logging()
    if host not in LOOPBACK_HOSTS:
        log.error("The demo serves on this computer only (127.0.0.1), not on %r", host)
        return 1
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        log.error("The port must be a number from 1 to 65535 (0: any free port), not %r", port)
        return 1
    try:
        settings = demo_settings(os.environ if environ is None else environ)
    except SettingsError as error:
        for problem in error.problems:
            log.error("%s", problem)
        return 2
    # Checked before anything starts, so that the reason is the only thing on the log.
    if taken := _bind_error(LOOPBACK_HOSTS[0], port):
        log.error("Cannot serve the demo: %s", _page_port_problem(taken, port))
        return 1
    if settings.metrics_port is not None and (
        taken := _bind_error(settings.metrics_host, settings.metrics_port)
    ):
        log.error("%s", _metrics_port_problem(taken, settings))
        return 1
    try:
        with quiet_simulation_logs():
            return asyncio.run(_serve(settings, port, open_browser))
    except KeyboardInterrupt:  # a Ctrl-C before the signal handlers were in place
        return 0


def _bind_error(host: str, port: int) -> OSError | None:
    """Why a server could not listen on host:port now, or None if it could."""
    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            if os.name == "posix":  # as aiohttp listens: a port in TIME_WAIT is free
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        return error
    return None


def _free_port_after(port: int) -> int | None:
    """A port above `port` that is free now, to suggest instead."""
    first = max(port + 1, 1024)  # no special permission needed from 1024 on
    candidates = range(first, min(first + 100, 65536))
    return next((free for free in candidates if _bind_error(LOOPBACK_HOSTS[0], free) is None), None)


def _page_port_problem(error: OSError, port: int) -> str:
    """Why the page cannot be served on `port`, and which --port to use instead."""
    if error.errno == errno.EADDRINUSE:
        reason = f"port {port} is already in use"
    elif error.errno == errno.EACCES:
        reason = f"no permission to use port {port}"
    else:
        reason = f"cannot use port {port} ({error.strerror or error})"
    free = _free_port_after(port)
    return f"{reason}: use --port {free}" if free else f"{reason}: use --port N with a free port N"


def _metrics_port_problem(error: OSError, settings: Settings) -> str:
    where = f"{settings.metrics_host}:{settings.metrics_port}"
    return (
        f"/metrics and /healthz: cannot listen on {where} ({error.strerror or error}): "
        "set another METRICS_PORT or METRICS_HOST"
    )


def _ensure_visible_logging() -> None:
    # The URL is logged at INFO: `python -m bot` sets logging up; a bare call may not have.
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if log.getEffectiveLevel() > logging.INFO:
        log.setLevel(logging.INFO)


async def _serve(settings: Settings, port: int, open_browser: bool) -> int:
    stopping = asyncio.Event()
    with _stop_on_signals(stopping), _scratch_temp_dir() as scratch:
        bot = await make_recording_demo_bot(scratch, settings=settings)
        try:
            code = await _serve_bot(bot, stopping, port, open_browser)
        except StatusServerError as error:  # METRICS_PORT, taken since run_demo checked it
            log.error("/metrics and /healthz: %s: set another METRICS_PORT or METRICS_HOST", error)
            code = 1
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
        follow_wall_clock(env)
        world = await setup_world(env)
        preview = open_preview(world, port=port, timezone=local_timezone())
        try:
            await preview.__aenter__()
        except simcord.SetupError as error:
            # Taken since run_demo checked it.
            cause = error.__cause__
            reason = _page_port_problem(cause, port) if isinstance(cause, OSError) else error
            log.error("Cannot serve the demo: %s", reason)
            return 1
        try:
            # Without its #part (the session's key) the page shows an empty "Unavailable
            # channel", and SimCord's page cannot be told to say more: the log line does.
            log.info(
                "Demo running: open %s in a browser, all of it: the part after # is the page's "
                "key (Ctrl-C stops it)",
                preview.url,
            )
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
