"""`python -m bot` against a fake Discord on loopback: a rejected token, and SIGTERM on deploy.

The child process runs the real entry point through fake_discord/launch.py, which points
discord.py at the loopback fake Discord (fake_discord/loopback.py) in this test.
"""

import asyncio
import re
import signal
import socket

from tests.support.bot_process import (
    APP_ID,
    BAD_TOKEN,
    GOOD_TOKEN,
    fake_discord,
    read_until,
    start_bot,
)


async def test_a_rejected_token_is_one_line_and_exit_1(tmp_path):
    async with fake_discord() as fake:
        process = await start_bot(fake, tmp_path, BAD_TOKEN)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    text = output.decode()
    assert process.returncode == 1
    assert "Traceback" not in text
    errors = [line for line in text.splitlines() if "ERROR" in line]
    assert len(errors) == 1
    assert "rejected DISCORD_TOKEN" in errors[0]
    assert BAD_TOKEN not in text


async def test_logs_into_a_pipe_have_no_colour_codes_even_in_docker(tmp_path):
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={BAD_TOKEN}\n")
    async with fake_discord() as fake:
        process = await start_bot(fake, tmp_path, None, docker=True)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    text = output.decode()
    assert process.returncode == 1, text
    assert "rejected DISCORD_TOKEN" in text
    assert "\x1b[" not in text
    # discord.py's layout, uncoloured: "2026-01-31 12:00:00 ERROR    __main__ Discord rejected ..."
    error = next(line for line in text.splitlines() if "rejected DISCORD_TOKEN" in line)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ERROR    __main__ Discord rejected", error)
    assert BAD_TOKEN not in text


async def test_sigterm_closes_the_bot_cleanly_with_exit_0(tmp_path):
    async with fake_discord() as fake:
        process = await start_bot(fake, tmp_path, GOOD_TOKEN)
        started = await read_until(process, "Logged in as TicTacToe")
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
        uploads = [r for r in fake.discord.requests if r.route == "commands" and r.method == "PUT"]
    text = started + output.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text
    # /tictactoe, /puzzle, /stats, /leaderboard, /forget-me and the member menu's "Challenge to
    # Tic-Tac-Toe"
    assert "Synced 8 command(s) to all servers" in text  # /tournament too: SQLite records
    assert "Running shards 0 of 1" in text  # as many as Discord recommends (the fake: 1)
    assert "Shard 0 connected" in text
    assert f"client_id={APP_ID}" in text
    # both install links: to a server (bot + commands) and to a user's account
    assert "scope=bot+applications.commands" in text
    assert "integration_type=0" in text
    assert "integration_type=1" in text
    assert "Shutting down" in text
    assert "voice will NOT be supported" not in text
    assert len(uploads) == 1
    assert GOOD_TOKEN not in text


async def test_sigterm_during_the_gateway_handshake_is_still_a_clean_exit(tmp_path):
    async with fake_discord(answer_gateway=False) as fake:
        process = await start_bot(fake, tmp_path, GOOD_TOKEN)
        await asyncio.wait_for(fake.connected.wait(), timeout=60)
        process.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 0, output.decode()
    assert "Traceback" not in output.decode()


async def test_a_metrics_port_in_use_is_one_line_and_exit_1(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        (tmp_path / ".env").write_text(f"DISCORD_TOKEN={GOOD_TOKEN}\nMETRICS_PORT={port}\n")
        async with fake_discord() as fake:
            process = await start_bot(fake, tmp_path, None)
            output, _ = await asyncio.wait_for(process.communicate(), timeout=60)
    finally:
        taken.close()
    text = output.decode()
    assert process.returncode == 1, text
    assert "Traceback" not in text
    (error,) = [line for line in text.splitlines() if "ERROR" in line]
    assert f"cannot listen on 127.0.0.1:{port}" in error
    assert "set another METRICS_PORT" in error
