"""Starting `python -m bot` with bad configuration: one clear line, a non-zero exit, no traceback.

Each run happens in an empty directory (so no developer's .env is picked up) and exits before
any network access.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.settings import MAX_GAME_TIMEOUT_SECONDS, Settings, SettingsError

REPO = Path(__file__).resolve().parent.parent
SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret-token-value"


def run_bot(tmp_path: Path, env: dict[str, str], dotenv: str | None = None):
    if dotenv is not None:
        (tmp_path / ".env").write_text(dotenv)
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GAME_", "LOG_"))}
    clean["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_one_line_error(result, *fragments: str) -> None:
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    for fragment in fragments:
        assert fragment in lines[0]
    assert SECRET not in output


def test_missing_token_explains_where_to_get_one(tmp_path):
    result = run_bot(tmp_path, {})
    assert result.returncode == 2
    assert_one_line_error(result, "DISCORD_TOKEN", "Developer Portal", ".env")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GAME_TIMEOUT_SECONDS", "ten"),
        ("GAME_TIMEOUT_SECONDS", "900"),
        ("DISCORD_GUILD_ID", "my-server"),
        ("LOG_LEVEL", "LOUD"),
    ],
)
def test_an_invalid_setting_is_named(tmp_path, name, value):
    result = run_bot(tmp_path, {"DISCORD_TOKEN": SECRET, name: value})
    assert result.returncode == 2
    assert_one_line_error(result, name, repr(value))


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
    assert settings == Settings(token="abc", guild_id=None, game_timeout_seconds=600)
    assert settings.log_level == "INFO"
    assert "abc" not in repr(settings)


def test_every_setting_is_parsed():
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "abc",
            "DISCORD_GUILD_ID": "123456789012345678",
            "GAME_TIMEOUT_SECONDS": str(MAX_GAME_TIMEOUT_SECONDS),
            "LOG_LEVEL": "debug",
        }
    )
    assert settings.guild_id == 123456789012345678
    assert settings.game_timeout_seconds == MAX_GAME_TIMEOUT_SECONDS
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize("timeout", ["0", "-5", "29", "841", "1e3", "600s"])
def test_timeouts_outside_what_a_token_allows_are_refused(timeout):
    with pytest.raises(SettingsError, match="GAME_TIMEOUT_SECONDS"):
        Settings.from_env({"DISCORD_TOKEN": "abc", "GAME_TIMEOUT_SECONDS": timeout})


def test_env_example_documents_every_setting_with_working_defaults():
    values = dotenv_values(REPO / ".env.example")
    assert set(values) == {"DISCORD_TOKEN", "DISCORD_GUILD_ID", "GAME_TIMEOUT_SECONDS", "LOG_LEVEL"}
    assert values["DISCORD_TOKEN"] == ""
    assert Settings.from_env({**values, "DISCORD_TOKEN": "abc"}) == Settings(token="abc")
