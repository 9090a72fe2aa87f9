"""Starting `python -m bot`: bad configuration gets one clear line per problem, a non-zero exit
and no traceback; `--help` documents every setting; `--demo` and its options; log formatting.

Each run happens in an empty directory (so no developer's .env is picked up) and exits before
any network access.
"""

import importlib.abc
import importlib.machinery
import io
import logging
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import discord
import pytest
from dotenv import dotenv_values

import bot.__main__ as entry
from bot.settings import (
    DEPRECATED_TURN_TIMEOUT,
    MAX_TURN_TIMEOUT_SECONDS,
    MISSING_TOKEN_HELP,
    SETTINGS,
    MissingTokenError,
    Settings,
    SettingsError,
    env_example,
)

REPO = Path(__file__).resolve().parents[2]
SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret-token-value"


SETTING_NAMES = [
    "DISCORD_TOKEN",
    "DISCORD_GUILD_ID",
    "TURN_TIMEOUT_SECONDS",
    "LOG_LEVEL",
    "DATA_DIR",
    "DATABASE_URL",
    "SHARD_COUNT",
    "SHARD_IDS",
    "METRICS_PORT",
    "METRICS_HOST",
]
# Every setting's prefix: the tests' child processes start without any of them.
SETTING_PREFIXES = (
    "DISCORD_",
    "TURN_",
    "GAME_",
    "LOG_",
    "DATA_DIR",
    "DATABASE_",
    "SHARD_",
    "METRICS_",
)
ANSI = "\x1b["


def run_bot(tmp_path: Path, env: dict[str, str], dotenv: str | None = None, args: tuple = ()):
    if dotenv is not None:
        (tmp_path / ".env").write_text(dotenv)
    clean = {k: v for k, v in os.environ.items() if not k.startswith(SETTING_PREFIXES)}
    clean["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_error_lines(result, *expected: tuple[str, ...]) -> None:
    """Exit 2, nothing on stdout, and on stderr one line per problem, in order, each containing
    its fragments; no traceback and never the token."""
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    assert result.stdout == ""
    assert "Traceback" not in output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == len(expected), output
    for line, fragments in zip(lines, expected, strict=True):
        assert line.startswith("error: ")
        for fragment in fragments:
            assert fragment in line
    assert SECRET not in output


def assert_one_line_error(result, *fragments: str) -> None:
    assert_error_lines(result, fragments)


def test_missing_token_explains_where_to_get_one(tmp_path):
    result = run_bot(tmp_path, {})
    assert result.returncode == 2
    assert_one_line_error(result, "DISCORD_TOKEN", "Developer Portal", ".env")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TURN_TIMEOUT_SECONDS", "ten"),
        ("TURN_TIMEOUT_SECONDS", "900"),
        ("DISCORD_GUILD_ID", "my-server"),
        ("LOG_LEVEL", "LOUD"),
    ],
)
def test_an_invalid_setting_is_named(tmp_path, name, value):
    result = run_bot(tmp_path, {"DISCORD_TOKEN": SECRET, name: value})
    assert result.returncode == 2
    assert_one_line_error(result, name, repr(value))


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("sqlite:///games.db", "start it with sqlite+aiosqlite://"),
        ("postgresql://bot:hunter2@db.example/games", "start it with postgresql+asyncpg://"),
        ("postgres://bot:hunter2@db.example/games", "start it with postgresql+asyncpg://"),
        ("postgresql+psycopg2://bot:hunter2@db/games", "start it with postgresql+asyncpg://"),
        ("mysql+aiomysql://bot:hunter2@db/games", "SQLite or PostgreSQL"),
        ("games.db", "not a database URL"),
    ],
)
def test_an_unusable_database_url_says_what_to_write_and_never_shows_it(tmp_path, value, fragment):
    result = run_bot(tmp_path, {"DISCORD_TOKEN": SECRET, "DATABASE_URL": value})
    assert_one_line_error(result, "DATABASE_URL", fragment)
    assert "hunter2" not in result.stderr


def test_a_data_dir_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "data").write_text("not a directory")
    result = run_bot(tmp_path, {"DISCORD_TOKEN": SECRET, "DATA_DIR": "data"})
    assert_one_line_error(result, "DATA_DIR", "'data'", "directory")


def test_records_go_to_sqlite_in_the_data_dir_unless_database_url_says_otherwise():
    default = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert default.records_url == "sqlite+aiosqlite:///data/records.db"
    assert default.spool_path == Path("data/records-spool.jsonl")
    moved = Settings.from_env({"DISCORD_TOKEN": "abc", "DATA_DIR": "/var/lib/tictactoe"})
    assert moved.records_url == "sqlite+aiosqlite:////var/lib/tictactoe/records.db"
    assert moved.spool_path == Path("/var/lib/tictactoe/records-spool.jsonl")
    url = "postgresql+asyncpg://bot:hunter2@db.example:5432/games"
    shared = Settings.from_env({"DISCORD_TOKEN": "abc", "DATABASE_URL": f" {url} "})
    assert shared.records_url == url
    assert shared.spool_path == Path("data/records-spool.jsonl")
    assert "hunter2" not in repr(shared)


def test_settings_are_read_from_a_dotenv_file(tmp_path):
    result = run_bot(tmp_path, {}, dotenv=f"DISCORD_TOKEN={SECRET}\nLOG_LEVEL=chatty\n")
    assert result.returncode == 2
    assert_one_line_error(result, "LOG_LEVEL", "'chatty'")


def test_the_environment_wins_over_the_dotenv_file(tmp_path):
    result = run_bot(tmp_path, {"LOG_LEVEL": "LOUD"}, dotenv=f"DISCORD_TOKEN={SECRET}\n")
    assert result.returncode == 2
    assert_one_line_error(result, "LOG_LEVEL", "'LOUD'")


def test_defaults():
    settings = Settings.from_env({"DISCORD_TOKEN": " abc "})
    assert settings == Settings(token="abc", guild_id=None, turn_timeout_seconds=600)
    assert settings.log_level == "INFO"
    assert "abc" not in repr(settings)


def test_every_setting_is_parsed():
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "abc",
            "DISCORD_GUILD_ID": "123456789012345678",
            "TURN_TIMEOUT_SECONDS": str(MAX_TURN_TIMEOUT_SECONDS),
            "LOG_LEVEL": "debug",
        }
    )
    assert settings.guild_id == 123456789012345678
    assert settings.turn_timeout_seconds == MAX_TURN_TIMEOUT_SECONDS
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize("timeout", ["0", "-5", "29", "841", "1e3", "600s"])
def test_timeouts_outside_what_a_token_allows_are_refused(timeout):
    with pytest.raises(SettingsError, match="TURN_TIMEOUT_SECONDS"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "TURN_TIMEOUT_SECONDS": timeout})


def test_the_former_timeout_name_is_read_when_the_new_one_is_not_set():
    settings = Settings.from_env({"DISCORD_TOKEN": "abc", "GAME_TIMEOUT_SECONDS": "120"})
    assert settings.turn_timeout_seconds == 120
    assert settings.warnings == (
        "GAME_TIMEOUT_SECONDS is deprecated: rename it TURN_TIMEOUT_SECONDS",
    )


def test_the_new_timeout_name_wins_over_the_former_one():
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "abc", "TURN_TIMEOUT_SECONDS": "60", "GAME_TIMEOUT_SECONDS": "nonsense"}
    )
    assert settings.turn_timeout_seconds == 60
    assert settings.warnings == (
        "GAME_TIMEOUT_SECONDS is ignored: TURN_TIMEOUT_SECONDS is set; remove it",
    )
    assert Settings.from_env({"DISCORD_TOKEN": "abc", "TURN_TIMEOUT_SECONDS": "60"}).warnings == ()


def test_a_bad_value_under_the_former_timeout_name_names_both_names():
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"DISCORD_TOKEN": "abc", "GAME_TIMEOUT_SECONDS": "900"})
    assert caught.value.problems == (
        "GAME_TIMEOUT_SECONDS (now TURN_TIMEOUT_SECONDS) must be a whole number of seconds "
        "from 30 to 840, not '900'",
    )


@pytest.mark.parametrize(
    ("flaw", "described"),
    [
        ("\n", "a line break"),
        ("\r\n", "a line break"),
        ("\t", "a tab"),
        (" ", "a space"),
        ("\u00a0", "a space"),
        ("\x1b", "control character"),
        ("\x7f", "control character"),
        ("\u200b", "control character"),
    ],
)
def test_a_token_with_a_line_break_tab_or_inner_space_is_refused_without_echoing_it(
    tmp_path, flaw, described
):
    head, tail = SECRET[:24], SECRET[24:]
    result = run_bot(tmp_path, {"DISCORD_TOKEN": f" {head}{flaw}{tail}\n"})
    assert_one_line_error(result, "DISCORD_TOKEN", described, "Developer Portal")
    output = result.stdout + result.stderr
    assert head not in output
    assert tail not in output


def test_a_token_broken_over_two_lines_in_dotenv_is_refused(tmp_path):
    head, tail = SECRET[:24], SECRET[24:]
    result = run_bot(tmp_path, {}, dotenv=f'DISCORD_TOKEN="{head}\n{tail}"\n')
    assert_one_line_error(result, "DISCORD_TOKEN", "a line break")
    assert head not in result.stderr
    assert tail not in result.stderr


@pytest.mark.parametrize("flaw", ["\x00", "\x01", "\ufeff", "\u2028"])
def test_tokens_with_nul_or_invisible_characters_are_refused(flaw):
    with pytest.raises(SettingsError, match=r"^DISCORD_TOKEN contains") as caught:
        Settings.from_env({"DISCORD_TOKEN": f"abc{flaw}def"})
    assert "abc" not in str(caught.value)
    assert "def" not in str(caught.value)


def test_every_invalid_setting_is_named_at_once(tmp_path):
    env = {"DISCORD_TOKEN": SECRET, "TURN_TIMEOUT_SECONDS": "ten", "LOG_LEVEL": "LOUD"}
    result = run_bot(tmp_path, env)
    assert_error_lines(result, ("TURN_TIMEOUT_SECONDS", "'ten'"), ("LOG_LEVEL", "'LOUD'"))


def test_all_four_settings_bad_gives_four_lines(tmp_path):
    env = {
        "DISCORD_TOKEN": SECRET.replace(".", "\t"),
        "DISCORD_GUILD_ID": "my-server",
        "TURN_TIMEOUT_SECONDS": "900",
        "LOG_LEVEL": "LOUD",
    }
    result = run_bot(tmp_path, env)
    assert_error_lines(
        result,
        ("DISCORD_TOKEN", "a tab"),
        ("DISCORD_GUILD_ID", "'my-server'"),
        ("TURN_TIMEOUT_SECONDS", "'900'"),
        ("LOG_LEVEL", "'LOUD'"),
    )
    assert SECRET.split(".")[1] not in result.stderr


def test_a_missing_token_keeps_its_help_next_to_other_problems(tmp_path):
    result = run_bot(tmp_path, {"LOG_LEVEL": "LOUD"})
    assert_error_lines(result, ("DISCORD_TOKEN", "Developer Portal", ".env"), ("LOG_LEVEL",))


def test_settings_error_lists_problems():
    with pytest.raises(MissingTokenError) as caught:
        Settings.from_env({"TURN_TIMEOUT_SECONDS": "1", "LOG_LEVEL": "x"})
    problems = caught.value.problems
    assert problems[0] == MISSING_TOKEN_HELP
    assert [p.split()[0] for p in problems] == [
        "DISCORD_TOKEN",
        "TURN_TIMEOUT_SECONDS",
        "LOG_LEVEL",
    ]
    assert str(caught.value) == "\n".join(problems)


def test_help_lists_every_setting_and_needs_no_token(tmp_path):
    # Even with a bad setting in the environment: --help does not read the settings.
    result = run_bot(tmp_path, {"LOG_LEVEL": "LOUD"}, args=("--help",))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.startswith("usage: python -m bot")
    for setting in SETTINGS:
        assert setting.name in result.stdout
        assert setting.meaning.split()[0] in result.stdout
    assert "default 600" in result.stdout
    assert "default INFO" in result.stdout
    assert "--demo" in result.stdout
    assert "--port" in result.stdout
    assert "--no-browser" in result.stdout
    assert "Logged in" not in result.stdout


def test_settings_table_covers_every_setting():
    assert [setting.name for setting in SETTINGS] == SETTING_NAMES


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--demo", "--port", "0"), "argument --port: must be a port number from 1 to 65535"),
        (("--demo", "--port", "65536"), "argument --port: must be a port number"),
        (("--demo", "--port", "http"), "argument --port: must be a port number"),
        (("--demo", "--port"), "argument --port: expected one argument"),
        (("--port", "0"), "argument --port: must be a port number"),
        (("--port", "8765"), "--port: only allowed with --demo"),
        (("--no-browser",), "--no-browser: only allowed with --demo"),
        (("--no-browser", "--port", "80"), "--port, --no-browser: only allowed with --demo"),
        (("--token", SECRET), "unrecognized arguments: --token, 1 other argument(s)"),
        ((f"--token={SECRET}",), "unrecognized arguments: --token (settings"),
        ((SECRET,), "unrecognized arguments: 1 other argument(s)"),
    ],
)
def test_bad_options_are_a_usage_error(tmp_path, args, fragment):
    result = run_bot(tmp_path, {"DISCORD_TOKEN": SECRET}, args=args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    usage, error = result.stderr.splitlines()
    assert usage.startswith("usage: python -m bot")
    assert error.startswith("python -m bot: error: ")
    assert fragment in error
    assert SECRET not in result.stderr  # not even when pasted on the command line


def test_the_normal_path_never_imports_simcord(tmp_path):
    # The bad setting stops start-up after every module the bot needs is imported.
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['bot']\n"
        "try:\n"
        "    runpy.run_module('bot', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    assert stop.code == 2, stop.code\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('simcord', 'bot'))\n"
        "print(' '.join(loaded))\n"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith(SETTING_PREFIXES)}
    env = {**clean, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": SECRET, "LOG_LEVEL": "LOUD"}
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    loaded = result.stdout.split()
    assert "bot.app" in loaded
    assert "bot.demo" not in loaded
    assert not [name for name in loaded if name.startswith("simcord")]


@pytest.fixture
def in_empty_dir(tmp_path, monkeypatch):
    """main() in-process: no .env to find, settings from a clean environment, no logging set up."""
    monkeypatch.chdir(tmp_path)
    for name in (*SETTING_NAMES, DEPRECATED_TURN_TIMEOUT):
        monkeypatch.delenv(name, raising=False)
    levels: list[int] = []
    monkeypatch.setattr(entry, "setup_logging", levels.append)
    return levels


def fake_demo_module(calls: list[dict], exit_code: int = 0) -> types.ModuleType:
    module = types.ModuleType("bot.demo")

    def run_demo(**kwargs) -> int:
        calls.append(kwargs)
        return exit_code

    module.run_demo = run_demo  # type: ignore[attr-defined]
    return module


def test_the_bot_logs_one_warning_for_the_former_timeout_name(in_empty_dir, monkeypatch, caplog):
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    monkeypatch.setenv("GAME_TIMEOUT_SECONDS", "120")
    started: list[Settings] = []

    async def run(settings: Settings) -> int:  # instead of connecting to Discord
        started.append(settings)
        return 0

    monkeypatch.setattr(entry, "run", run)
    with caplog.at_level(logging.WARNING):
        assert entry.main([]) == 0
    assert [settings.turn_timeout_seconds for settings in started] == [120]
    assert [record.getMessage() for record in caplog.records] == [
        "GAME_TIMEOUT_SECONDS is deprecated: rename it TURN_TIMEOUT_SECONDS"
    ]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--demo"], {"host": "127.0.0.1", "port": 8765, "open_browser": True}),
        (["--demo", "--port", "9000"], {"host": "127.0.0.1", "port": 9000, "open_browser": True}),
        (["--demo", "--no-browser"], {"host": "127.0.0.1", "port": 8765, "open_browser": False}),
        (
            ["--no-browser", "--port", "1", "--demo"],
            {"host": "127.0.0.1", "port": 1, "open_browser": False},
        ),
    ],
)
def test_demo_calls_run_demo_without_a_token(in_empty_dir, monkeypatch, args, expected):
    calls: list[dict] = []
    monkeypatch.setitem(sys.modules, "bot.demo", fake_demo_module(calls, exit_code=3))
    assert entry.main(args) == 3
    assert calls == [expected]
    assert in_empty_dir == [logging.INFO]


def test_demo_honours_log_level(in_empty_dir, monkeypatch):
    calls: list[dict] = []
    monkeypatch.setitem(sys.modules, "bot.demo", fake_demo_module(calls))
    monkeypatch.setenv("LOG_LEVEL", "debug")
    assert entry.main(["--demo"]) == 0
    assert in_empty_dir == [logging.DEBUG]


def test_demo_with_a_bad_log_level_is_one_line(in_empty_dir, monkeypatch, capsys):
    calls: list[dict] = []
    monkeypatch.setitem(sys.modules, "bot.demo", fake_demo_module(calls))
    monkeypatch.setenv("LOG_LEVEL", "LOUD")
    assert entry.main(["--demo"]) == 2
    assert calls == []
    assert capsys.readouterr().err == (
        "error: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'\n"
    )


class _MissingSimCord(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes `import bot.demo` fail as it does when SimCord is not installed."""

    def find_spec(self, name, path, target=None):
        if name == "bot.demo":
            return importlib.machinery.ModuleSpec(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        raise ModuleNotFoundError("No module named 'simcord'", name="simcord")


def test_demo_without_simcord_installed_says_what_to_install(in_empty_dir, monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "bot.demo", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_MissingSimCord(), *sys.meta_path])
    assert entry.main(["--demo"]) == 1
    assert capsys.readouterr().err == (
        "error: --demo needs the simcord package: python -m pip install -r requirements.txt\n"
    )


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def log_record(level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("bot.test", level, __file__, 1, "hello %s", ("world",), None)


def test_logs_are_coloured_only_on_a_terminal_even_in_docker(monkeypatch):
    # discord.utils.setup_logging colours whenever it believes it runs in Docker.
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)
    coloured = entry.log_formatter(FakeTerminal()).format(log_record())
    assert ANSI in coloured  # discord.py's colour formatter (tests/app/test_discord_internals.py)
    for stream in (io.StringIO(), open(os.devnull, "w")):  # noqa: SIM115
        with stream:
            plain = entry.log_formatter(stream).format(log_record())
        assert ANSI not in plain
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO     bot\.test hello world", plain)


def test_plain_and_coloured_logs_have_the_same_layout():
    for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
        record = log_record(level)
        plain = entry.log_formatter(io.StringIO()).format(record)
        coloured = entry.log_formatter(FakeTerminal()).format(record)
        assert ANSI in coloured
        assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain


@pytest.fixture
def root_logger():
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield root
    root.handlers[:] = handlers
    root.setLevel(level)


def test_setup_logging_writes_plain_lines_at_the_chosen_level(root_logger):
    stream = io.StringIO()
    entry.setup_logging(logging.WARNING, stream)
    logging.getLogger("bot.test").info("not shown")
    logging.getLogger("discord.client").warning("shown %d", 1)
    assert root_logger.level == logging.WARNING
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].endswith(" WARNING  discord.client shown 1")
    assert ANSI not in stream.getvalue()


def test_env_example_is_rendered_from_the_settings_table():
    assert (REPO / ".env.example").read_text() == env_example()


def test_readme_settings_section_matches_the_settings_table():
    readme = (REPO / "README.md").read_text()
    section = readme.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == SETTING_NAMES
    for row, setting in zip(rows, SETTINGS, strict=True):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[1] == ("yes" if setting.required else "no")
        if not setting.required:
            assert cells[2] == (f"`{setting.default}`" if setting.default else "(none)")
        assert cells[3] == setting.meaning


def test_env_example_documents_every_setting_with_working_defaults():
    values = dotenv_values(REPO / ".env.example")
    assert list(values) == SETTING_NAMES
    assert values["DISCORD_TOKEN"] == ""
    environ = {name: value or "" for name, value in values.items()}
    assert Settings.from_env({**environ, "DISCORD_TOKEN": "abc"}) == Settings(token="abc")
