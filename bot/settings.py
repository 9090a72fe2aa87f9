"""The bot's settings, read once from the environment and validated."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_GAME_TIMEOUT_SECONDS = 600
# An interaction token lasts 15 minutes; the idle timeout edits the board with the last one.
MAX_GAME_TIMEOUT_SECONDS = 840
MIN_GAME_TIMEOUT_SECONDS = 30
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")

MISSING_TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Get a bot token from the Discord Developer Portal "
    "(https://discord.com/developers/applications > your application > Bot > Reset Token) "
    "and put DISCORD_TOKEN=<token> in a .env file in the directory you start the bot from, "
    "or in the environment."
)


class SettingsError(ValueError):
    """A setting is missing or invalid; the message names the variable and what to do."""


class MissingTokenError(SettingsError):
    """DISCORD_TOKEN is not set."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False)
    guild_id: int | None = None
    game_timeout_seconds: int = DEFAULT_GAME_TIMEOUT_SECONDS
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        """Build settings from environment variables; raise SettingsError naming a bad one."""
        token = environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise MissingTokenError(MISSING_TOKEN_HELP)
        return cls(
            token=token,
            guild_id=_optional_snowflake(environ, "DISCORD_GUILD_ID"),
            game_timeout_seconds=_bounded_int(
                environ,
                "GAME_TIMEOUT_SECONDS",
                DEFAULT_GAME_TIMEOUT_SECONDS,
                MIN_GAME_TIMEOUT_SECONDS,
                MAX_GAME_TIMEOUT_SECONDS,
            ),
            log_level=_log_level(environ),
        )

    @property
    def logging_level(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]


def _optional_snowflake(environ: Mapping[str, str], name: str) -> int | None:
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 15 <= len(raw) <= 20:
        raise SettingsError(
            f"{name} must be a server ID (a number of 15-20 digits: right-click the server "
            f"> Copy Server ID), not {raw!r}"
        )
    return int(raw)


def _bounded_int(
    environ: Mapping[str, str], name: str, default: int, minimum: int, maximum: int
) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not minimum <= value <= maximum:
        raise SettingsError(
            f"{name} must be a whole number of seconds from {minimum} to {maximum}, not {raw!r}"
        )
    return value


def _log_level(environ: Mapping[str, str]) -> str:
    raw = environ.get("LOG_LEVEL", "").strip()
    if not raw:
        return "INFO"
    if raw.upper() not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return raw.upper()
