"""`python -m bot`: read .env and the environment, set up logging, run until stopped.

Exit codes: 0 after a clean shutdown (SIGTERM, Ctrl-C), 1 when Discord rejects the token or
cannot be reached, 2 for a missing or invalid setting.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord
from dotenv import find_dotenv, load_dotenv

from .client import TicTacToeBot
from .settings import Settings, SettingsError

log = logging.getLogger(__name__)


async def run(settings: Settings) -> int:
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        # Hosts send SIGTERM on every deploy: close the gateway cleanly and exit 0.
        loop.add_signal_handler(signum, stopping.set)
    async with TicTacToeBot(settings) as bot:
        closer = asyncio.create_task(close_when_set(stopping, bot))
        try:
            await bot.start(settings.token)
        except discord.LoginFailure:
            log.error("Discord rejected DISCORD_TOKEN: get a new one from the Developer Portal")
            return 1
        except (aiohttp.ClientConnectionError, discord.GatewayNotFound) as error:
            log.error("Could not reach Discord (%s): check the network and try again", error)
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


def main() -> int:
    # .env in the working directory (or above it); real environment variables win over it.
    load_dotenv(find_dotenv(usecwd=True))
    try:
        settings = Settings.from_env(os.environ)
    except SettingsError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    discord.utils.setup_logging(level=settings.logging_level)
    # This bot has no voice features: skip discord.py's start-up warnings about voice libraries.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(main())
