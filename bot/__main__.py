"""`python -m bot`: read .env and the environment, set up logging, run until stopped.

`python -m bot --demo` instead runs the bot, with no token, in SimCord's local preview page.

Exit codes: 0 after a clean shutdown (SIGTERM, Ctrl-C), 1 when Discord rejects the token or
cannot be reached or METRICS_PORT cannot be listened on (or, for --demo, a package is
missing), 2 for a missing or invalid setting or command-line option.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import signal
import sys
import textwrap
from collections.abc import Sequence
from typing import TextIO

import aiohttp
import discord
from dotenv import find_dotenv, load_dotenv

from bot.app import TicTacToeBot
from bot.discord_internals import colour_log_formatter
from bot.ops.memory import share_one_heap
from bot.ops.metrics import Metrics
from bot.ops.shards import ShardLogFilter
from bot.ops.status_server import StatusServerError
from bot.records.startup import RecordsStartError, start_records
from bot.settings import Settings, SettingsError, describe_settings, log_level_from_env

log = logging.getLogger(__name__)

HELP_WIDTH = 78
DEMO_HOST = "127.0.0.1"
DEFAULT_DEMO_PORT = 8765
# An unknown option that is safe to repeat in an error message (a token has upper-case letters).
OPTION_NAME = re.compile(r"--?[a-z][a-z0-9-]*(=.*)?")
# The layout of discord.py's colour formatter, without its colour codes.
LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s %(message)s"
LOG_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


async def run(settings: Settings) -> int:
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        # Hosts send SIGTERM on every deploy: close the gateway cleanly and exit 0.
        loop.add_signal_handler(signum, stopping.set)
    try:
        records, writer = await start_records(settings.records_url, settings.spool_path)
    except RecordsStartError as error:
        log.error("%s", error)
        return 2
    metrics = Metrics(exported=settings.metrics_port is not None)  # else no prometheus_client
    async with TicTacToeBot(settings, records=records, writer=writer, metrics=metrics) as bot:
        closer = asyncio.create_task(close_when_set(stopping, bot))
        try:
            await bot.start(settings.token)
        except discord.LoginFailure:
            log.error("Discord rejected DISCORD_TOKEN: get a new one from the Developer Portal")
            return 1
        except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as error:
            log.error("Could not reach Discord (%s): check the network and try again", error)
            return 1
        except StatusServerError as error:
            log.error("/metrics and /healthz: %s: set another METRICS_PORT or METRICS_HOST", error)
            return 1
        except discord.PrivilegedIntentsRequired:
            log.error("Discord refused the gateway intents; this bot needs no privileged intent")
            return 1
        except Exception:
            if not stopping.is_set():
                raise
            # Closing during the gateway handshake trips discord.py's reconnect path; we asked
            # to stop, so that is a clean stop.
            log.debug("Error while stopping", exc_info=True)
        finally:
            if stopping.is_set():
                await closer  # let a signal's close finish
            else:
                closer.cancel()
    return 0


async def close_when_set(stopping: asyncio.Event, bot: TicTacToeBot) -> None:
    await stopping.wait()
    await bot.close()


def log_formatter(stream: TextIO) -> logging.Formatter:
    """discord.py's colour formatter on a terminal; the same layout, uncoloured, elsewhere.

    discord.utils.setup_logging also colours when it thinks it runs in Docker, which puts ANSI
    codes into log files and hosts' log viewers: only a real terminal gets colour here.
    """
    isatty = getattr(stream, "isatty", None)
    if callable(isatty) and isatty():
        return colour_log_formatter()
    return logging.Formatter(LOG_FORMAT, LOG_DATE_FORMAT)


def setup_logging(level: int, stream: TextIO | None = None) -> None:
    """Log everything at `level` and above (discord.py's records too) to `stream` (stderr)."""
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.setFormatter(log_formatter(handler.stream))
    handler.addFilter(ShardLogFilter())  # "shard 3: ..." in the lines of a shard's events
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(handler)


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {text!r}")
    return port


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description=textwrap.fill(
            "Run the Tic-Tac-Toe Discord bot until it is stopped (SIGTERM or Ctrl-C). Settings "
            "come from the environment, or from a .env file in the directory you start the bot "
            "from (the environment wins).",
            HELP_WIDTH,
        ),
        epilog=f"settings:\n{describe_settings(HELP_WIDTH)}\n\nexit codes:\n"
        + textwrap.fill(
            "0 after a clean shutdown, 1 when Discord rejects the token or cannot be reached, "
            "2 for a missing or invalid setting or option.",
            HELP_WIDTH,
            initial_indent="  ",
            subsequent_indent="  ",
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    demo = parser.add_argument_group("demo (no Discord account or token needed)")
    demo.add_argument(
        "--demo",
        action="store_true",
        help="run the bot in SimCord's local preview page in a web browser instead of on Discord",
    )
    demo.add_argument(
        "--port",
        type=port_number,
        metavar="N",
        help=f"with --demo: serve the preview page on http://{DEMO_HOST}:N "
        f"(default {DEFAULT_DEMO_PORT})",
    )
    demo.add_argument(
        "--no-browser",
        action="store_true",
        help="with --demo: do not open a web browser on the preview page",
    )
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        # Named, not echoed: someone may have pasted the token on the command line.
        options = [arg.partition("=")[0] for arg in unknown if OPTION_NAME.fullmatch(arg)]
        others = len(unknown) - len(options)
        listed = ", ".join([*options, f"{others} other argument(s)"] if others else options)
        parser.error(
            f"unrecognized arguments: {listed} (settings such as DISCORD_TOKEN go in "
            "the environment or a .env file: see --help)"
        )
    if not args.demo:
        given = [
            option
            for option, used in [
                ("--port", args.port is not None),
                ("--no-browser", args.no_browser),
            ]
            if used
        ]
        if given:
            parser.error(f"{', '.join(given)}: only allowed with --demo")
    return args


def demo(port: int, open_browser: bool) -> int:
    try:
        log_level = log_level_from_env(os.environ)
    except SettingsError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    setup_logging(logging.getLevelNamesMapping()[log_level])
    try:
        # Imported here so that running the real bot never imports SimCord.
        from bot.demo import run_demo
    except ModuleNotFoundError as error:
        if not error.name or error.name.partition(".")[0] == __package__:
            raise  # a bug in this project, not a missing package
        package = error.name.partition(".")[0]
        hint = "python -m pip install -r requirements.txt"
        sys.stderr.write(f"error: --demo needs the {package} package: {hint}\n")
        return 1
    return run_demo(host=DEMO_HOST, port=port, open_browser=open_browser)


def main(argv: Sequence[str] | None = None) -> int:
    share_one_heap()  # before any thread starts
    args = parse_args(argv)
    # .env in the working directory (or above it); real environment variables win over it.
    load_dotenv(find_dotenv(usecwd=True))
    if args.demo:
        port = DEFAULT_DEMO_PORT if args.port is None else args.port
        return demo(port, open_browser=not args.no_browser)
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as error:
        for problem in error.problems:
            sys.stderr.write(f"error: {problem}\n")
        return 2
    setup_logging(settings.logging_level)
    for warning in settings.warnings:
        log.warning("%s", warning)
    # This bot has no voice features: skip discord.py's start-up warnings about voice libraries.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(main())
