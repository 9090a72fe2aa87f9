"""`python -m bot` with the records database down, or ahead of the code, at start-up: the first
starts anyway (games are kept until the database answers), the second stops with one line."""

import asyncio
import signal
import socket
import sqlite3

from tests.support.bot_process import GOOD_TOKEN, fake_discord, read_until, start_bot

PASSWORD = "s3cret-password"


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens there once the socket is closed


async def test_a_database_down_at_start_up_does_not_stop_the_bot(tmp_path):
    url = f"postgresql+asyncpg://bot:{PASSWORD}@127.0.0.1:{closed_port()}/records"
    (tmp_path / ".env").write_text(f"DATABASE_URL={url}\n")
    async with fake_discord() as fake:
        process = await start_bot(fake, tmp_path, GOOD_TOKEN)
        started = await read_until(process, "Logged in as TicTacToe")
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    text = started + output.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text
    (warning,) = [line for line in text.splitlines() if "WARNING" in line]
    assert "cannot be reached" in warning
    assert "bot:***@127.0.0.1" in warning
    assert PASSWORD not in text


async def test_a_database_ahead_of_the_code_is_refused_with_one_line(tmp_path):
    (tmp_path / "data").mkdir()
    with sqlite3.connect(tmp_path / "data" / "records.db") as database:
        database.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
        database.execute("INSERT INTO alembic_version VALUES ('f00dfeedbeef')")
    async with fake_discord() as fake:
        process = await start_bot(fake, tmp_path, GOOD_TOKEN)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    text = output.decode()
    assert process.returncode == 2, text
    assert "Traceback" not in text
    (error,) = [line for line in text.splitlines() if "ERROR" in line]
    assert "newer" in error or "ahead" in error, error
    assert not fake.connected.is_set()
