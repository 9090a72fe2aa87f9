"""The bot's settings, read once from the environment and validated.

`SETTINGS` is the one description of every setting: `python -m bot --help` prints it, and
`.env.example` is rendered from it (`env_example()`; a test keeps the file in step).
"""

from __future__ import annotations

import logging
import textwrap
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from bot.ops.shards import ShardSpecError, check_shards_share_database, parse_shard_ids
from bot.records.sql.url import UnsupportedDatabaseError, parse_url

DEFAULT_TURN_TIMEOUT_SECONDS = 600
# An interaction token lasts 15 minutes; the idle timeout edits the board with the last one.
MAX_TURN_TIMEOUT_SECONDS = 840
MIN_TURN_TIMEOUT_SECONDS = 30
TURN_TIMEOUT = "TURN_TIMEOUT_SECONDS"
# The same setting's name before it was called after /settings' "Turn timeout"; still read.
DEPRECATED_TURN_TIMEOUT = "GAME_TIMEOUT_SECONDS"
# Far above what any bot needs (Discord asks for one shard per 1,000 servers at most).
MAX_SHARD_COUNT = 65535
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_DATA_DIR = "data"
RECORDS_FILE = "records.db"  # the SQLite database's name in DATA_DIR
SPOOL_FILE = "records-spool.jsonl"  # games waiting for the database, in DATA_DIR
DEFAULT_METRICS_HOST = "127.0.0.1"

_T = TypeVar("_T")

MISSING_TOKEN_HELP = (
    "DISCORD_TOKEN is not set. Get a bot token from the Discord Developer Portal "
    "(https://discord.com/developers/applications > your application > Bot > Reset Token) "
    "and put DISCORD_TOKEN=<token> in a .env file in the directory you start the bot from, "
    "or in the environment."
)


@dataclass(frozen=True, slots=True)
class SettingInfo:
    """One environment variable, as documented in --help and .env.example."""

    name: str
    default: str  # as written in .env.example; "" when there is none
    meaning: str
    required: bool = False


SETTINGS: tuple[SettingInfo, ...] = (
    SettingInfo(
        "DISCORD_TOKEN",
        "",
        "The bot's token: Developer Portal > your application > Bot > Reset Token. "
        "Keep it secret; the bot never logs it.",
        required=True,
    ),
    SettingInfo(
        "DISCORD_GUILD_ID",
        "",
        "A development server's ID: the slash command is registered there only, and changes "
        "show up at once (global commands can take a while to reach every server). Leave it "
        "empty to register the command in every server.",
    ),
    SettingInfo(
        TURN_TIMEOUT,
        str(DEFAULT_TURN_TIMEOUT_SECONDS),
        "The turn timeout: seconds a player has for each move before the game ends and frees "
        f"its channel, {MIN_TURN_TIMEOUT_SECONDS} to {MAX_TURN_TIMEOUT_SECONDS} (an interaction "
        "token is valid for 15 minutes). A server can choose its own in /settings. Formerly "
        f"{DEPRECATED_TURN_TIMEOUT}, still read when this is not set.",
    ),
    SettingInfo(
        "LOG_LEVEL",
        DEFAULT_LOG_LEVEL,
        f"{', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}.",
    ),
    SettingInfo(
        "DATA_DIR",
        DEFAULT_DATA_DIR,
        "The directory for the bot's files, relative to where it starts: the SQLite database "
        f"of recorded games ({RECORDS_FILE}, unless DATABASE_URL points elsewhere) and the "
        f"spool of games waiting for the database ({SPOOL_FILE}). Keep it on a disk that "
        "lasts (a Docker volume), and give each bot process its own.",
    ),
    SettingInfo(
        "DATABASE_URL",
        "",
        "Where finished games are recorded, as an SQLAlchemy URL: "
        "sqlite+aiosqlite:///path/to/records.db, or "
        "postgresql+asyncpg://user:password@host:5432/database for a host whose disk is "
        "wiped on deploy or for several bot processes sharing one database. Leave it empty "
        f"for SQLite in DATA_DIR/{RECORDS_FILE}. The bot never logs the password.",
    ),
    SettingInfo(
        "SHARD_COUNT",
        "",
        "How many shards the bot has in all, across every process. Leave it empty to run as "
        "many as Discord recommends, all in this process.",
    ),
    SettingInfo(
        "SHARD_IDS",
        "",
        "The shards this process runs, out of SHARD_COUNT (which it needs): ids and ranges, "
        "e.g. 0-3 or 4,5. Leave it empty to run all of them. Processes that share the shards "
        "need one PostgreSQL database.",
    ),
    SettingInfo(
        "METRICS_PORT",
        "",
        "A port for /metrics (Prometheus) and /healthz (200 when every shard of this process "
        "is ready, 503 with the reason otherwise). Leave it empty to serve neither.",
    ),
    SettingInfo(
        "METRICS_HOST",
        DEFAULT_METRICS_HOST,
        "The address METRICS_PORT listens on; 0.0.0.0 to let other machines scrape it.",
    ),
)


class SettingsError(ValueError):
    """One or more settings are missing or invalid.

    `problems` holds one line per bad setting, each naming the variable and what to do; str()
    of the error is those lines joined by newlines.
    """

    def __init__(self, *problems: str) -> None:
        super().__init__("\n".join(problems))
        self.problems: tuple[str, ...] = problems


class MissingTokenError(SettingsError):
    """DISCORD_TOKEN is not set (other settings may be bad too: see `problems`)."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str = field(repr=False)
    guild_id: int | None = None
    turn_timeout_seconds: int = DEFAULT_TURN_TIMEOUT_SECONDS  # TURN_TIMEOUT_SECONDS
    log_level: str = "INFO"
    data_dir: Path = Path(DEFAULT_DATA_DIR)
    database_url: str = field(
        default="", repr=False
    )  # "" for SQLite in data_dir; may hold a password
    # None: as many shards as Discord recommends. Settings made in code (tests) may set
    # metrics_port 0, for any free port.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None  # None: every shard
    metrics_port: int | None = None
    metrics_host: str = DEFAULT_METRICS_HOST
    # Lines to log once logging is set up: a deprecated name in use, and what to do.
    warnings: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        """Build settings from environment variables.

        Raises SettingsError listing every bad setting at once (MissingTokenError when
        DISCORD_TOKEN is one of them).
        """
        problems: list[str] = []

        def check(parse: Callable[[Mapping[str, str]], _T], fallback: _T) -> _T:
            try:
                return parse(environ)
            except SettingsError as error:
                problems.extend(error.problems)
                return fallback

        token = check(_token, "")
        guild_id = check(_guild_id, None)
        turn_timeout_seconds = check(_turn_timeout_seconds, DEFAULT_TURN_TIMEOUT_SECONDS)
        log_level = check(log_level_from_env, DEFAULT_LOG_LEVEL)
        data_dir = check(_data_dir, Path(DEFAULT_DATA_DIR))
        database_url = check(_database_url, "")
        no_shards: tuple[int | None, tuple[int, ...] | None] = (None, None)
        shard_count, shard_ids = check(_shards, no_shards)
        metrics_port = check(_metrics_port, None)
        metrics_host = environ.get("METRICS_HOST", "").strip() or DEFAULT_METRICS_HOST
        if not problems and (
            reason := check_shards_share_database(shard_ids, shard_count, database_url)
        ):
            problems.append(reason)
        if problems:
            error_type = MissingTokenError if MISSING_TOKEN_HELP in problems else SettingsError
            raise error_type(*problems)
        return cls(
            token=token,
            guild_id=guild_id,
            turn_timeout_seconds=turn_timeout_seconds,
            log_level=log_level,
            data_dir=data_dir,
            database_url=database_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            metrics_port=metrics_port,
            metrics_host=metrics_host,
            warnings=_deprecations(environ),
        )

    @property
    def logging_level(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]

    @property
    def records_url(self) -> str:
        """The records database: DATABASE_URL, or the SQLite file in DATA_DIR."""
        return self.database_url or f"sqlite+aiosqlite:///{self.data_dir / RECORDS_FILE}"

    @property
    def spool_path(self) -> Path:
        return self.data_dir / SPOOL_FILE


def log_level_from_env(environ: Mapping[str, str]) -> str:
    """LOG_LEVEL, upper-cased; INFO when unset. Raises SettingsError if it is not a level."""
    raw = environ.get("LOG_LEVEL", "").strip()
    if not raw:
        return DEFAULT_LOG_LEVEL
    if raw.upper() not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw!r}")
    return raw.upper()


def _token(environ: Mapping[str, str]) -> str:
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(MISSING_TOKEN_HELP)
    flaw = _token_flaw(token)
    if flaw:
        # Never echo the token itself: the message may end up in a log or a bug report.
        raise SettingsError(
            f"DISCORD_TOKEN contains {flaw}, so it cannot be a bot token: copy it again from "
            "the Developer Portal (Bot > Reset Token) as a single line with no spaces"
        )
    return token


def _token_flaw(token: str) -> str | None:
    """What makes this (already stripped) token impossible, described without quoting it."""
    for char in token:
        if char in "\r\n":
            return "a line break"
        if char == "\t":
            return "a tab"
        if char.isspace():
            return "a space"
        if unicodedata.category(char) in ("Cc", "Cf"):
            return f"an invisible control character (U+{ord(char):04X})"
    return None


def _guild_id(environ: Mapping[str, str]) -> int | None:
    raw = environ.get("DISCORD_GUILD_ID", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 15 <= len(raw) <= 20:
        raise SettingsError(
            "DISCORD_GUILD_ID must be a server ID (a number of 15-20 digits: right-click the "
            f"server > Copy Server ID), not {raw!r}"
        )
    return int(raw)


def _turn_timeout_seconds(environ: Mapping[str, str]) -> int:
    """TURN_TIMEOUT_SECONDS, or else the deprecated GAME_TIMEOUT_SECONDS; an error names the
    one that was read."""
    minimum, maximum = MIN_TURN_TIMEOUT_SECONDS, MAX_TURN_TIMEOUT_SECONDS
    name, raw = TURN_TIMEOUT, environ.get(TURN_TIMEOUT, "").strip()
    if not raw:
        name = f"{DEPRECATED_TURN_TIMEOUT} (now {TURN_TIMEOUT})"
        raw = environ.get(DEPRECATED_TURN_TIMEOUT, "").strip()
    if not raw:
        return DEFAULT_TURN_TIMEOUT_SECONDS
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not minimum <= value <= maximum:
        raise SettingsError(
            f"{name} must be a whole number of seconds from {minimum} to {maximum}, not {raw!r}"
        )
    return value


def _deprecations(environ: Mapping[str, str]) -> tuple[str, ...]:
    """A line for each deprecated setting that is set."""
    if not environ.get(DEPRECATED_TURN_TIMEOUT, "").strip():
        return ()
    if environ.get(TURN_TIMEOUT, "").strip():
        return (f"{DEPRECATED_TURN_TIMEOUT} is ignored: {TURN_TIMEOUT} is set; remove it",)
    return (f"{DEPRECATED_TURN_TIMEOUT} is deprecated: rename it {TURN_TIMEOUT}",)


def _data_dir(environ: Mapping[str, str]) -> Path:
    raw = environ.get("DATA_DIR", "").strip()
    path = Path(raw or DEFAULT_DATA_DIR)
    if path.exists() and not path.is_dir():
        raise SettingsError(f"DATA_DIR must be a directory, and {raw!r} is a file")
    return path


def _database_url(environ: Mapping[str, str]) -> str:
    raw = environ.get("DATABASE_URL", "").strip()
    if not raw:
        return ""
    try:
        parse_url(raw)
    except UnsupportedDatabaseError as error:
        # The message names the driver at most, never the URL: it may hold a password.
        raise SettingsError(str(error)) from None
    return raw


def _shards(environ: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    raw_count = environ.get("SHARD_COUNT", "").strip()
    raw_ids = environ.get("SHARD_IDS", "").strip()
    count = None
    if raw_count:
        if not raw_count.isdigit() or not 1 <= int(raw_count) <= MAX_SHARD_COUNT:
            raise SettingsError(
                f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARD_COUNT}, not {raw_count!r}"
            )
        count = int(raw_count)
    if not raw_ids:
        return count, None
    if count is None:
        raise SettingsError(
            "SHARD_IDS needs SHARD_COUNT: set SHARD_COUNT to the number of shards across "
            "every process"
        )
    try:
        return count, parse_shard_ids(raw_ids, count)
    except ShardSpecError as error:
        raise SettingsError(f"SHARD_IDS {error}") from None


def _metrics_port(environ: Mapping[str, str]) -> int | None:
    raw = environ.get("METRICS_PORT", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise SettingsError(f"METRICS_PORT must be a port number from 1 to 65535, not {raw!r}")
    return int(raw)


def describe_settings(width: int = 100) -> str:
    """Every setting with its default and meaning, for `python -m bot --help`."""
    lines = []
    for setting in SETTINGS:
        if setting.required:
            status = "required"
        else:
            status = f"optional, default {setting.default or 'none'}"
        lines.append(f"  {setting.name} ({status})")
        lines += textwrap.wrap(
            setting.meaning, width, initial_indent=" " * 6, subsequent_indent=" " * 6
        )
    return "\n".join(lines)


ENV_EXAMPLE_HEADER = (
    "# Copy this file to .env (in the directory you start the bot from) and fill in "
    "DISCORD_TOKEN.\n# Real environment variables take precedence over this file.\n"
)


def env_example(width: int = 100) -> str:
    """The text of .env.example: every setting, commented, set to its default."""
    blocks = [ENV_EXAMPLE_HEADER]
    for setting in SETTINGS:
        if setting.required:
            text = f"Required. {setting.meaning}"
        elif setting.default:
            text = f"Optional. {setting.meaning} Default {setting.default}."
        else:
            text = f"Optional. {setting.meaning}"
        comment = textwrap.wrap(text, width, initial_indent="# ", subsequent_indent="# ")
        blocks.append("\n".join([*comment, f"{setting.name}={setting.default}"]) + "\n")
    return "\n".join(blocks)
