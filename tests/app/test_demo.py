"""`python -m bot --demo` without a browser: its world, its refusals, a clean stop, and how it
keeps the page up to date. tests/app/test_demo_browser.py plays it in Chromium."""

from __future__ import annotations

import logging
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import discord
import pytest
from bot_helpers import buttons, click_cell, click_label, message_by_id, resign, text

from bot.core.policy import CHALLENGE_SECONDS
from bot.demo import (
    BOT_NAME,
    CHANNEL_NAME,
    RUN_FOR_REAL,
    make_recording_demo_bot,
    open_preview,
    run_demo,
)
from bot.demo import setup_world as setup_demo_world
from bot.demo_sync import PageSync, follow_wall_clock
from tests.support.demo import REPO_ROOT, START_TIMEOUT, running_demo


@pytest.fixture
async def simcord_bot(tmp_path):
    """The demo's bot, recording into a SQLite file in a temporary directory as the demo does."""
    bot = await make_recording_demo_bot(tmp_path, random.Random(0))
    yield bot
    await bot.close_records()


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.levelno >= logging.ERROR]


async def test_the_demo_world_has_the_bot_a_channel_and_three_people(simcord_env):
    world = await setup_demo_world(simcord_env)

    assert simcord_env.bot.user.name == BOT_NAME
    assert world.channel.name == CHANNEL_NAME
    # Names, not roles: the bot writes "@Sam, @Alex challenges you!", "It's @Alex's turn".
    shown = [simcord_env.backend.users[viewer.id].global_name for viewer in world.viewers]
    assert shown == ["Alex", "Sam", "Robin"]
    for member in world.viewers:
        commands = member.available_commands(world.channel)
        assert {"tictactoe", "stats", "leaderboard", "forget-me"} <= set(commands)


async def test_every_user_picker_offers_the_three_people_and_the_bot_only(simcord_env):
    world = await setup_demo_world(simcord_env)

    # SimCord's pickers (the opponent option's too) list the server's members: no made-up
    # owner among them. The bot stays, as on Discord: a server's bots are its members.
    users = simcord_env.backend.users
    members = {users[id].global_name or users[id].name for id in world.guild.member_ids()}
    assert members == {"Alex", "Sam", "Robin", BOT_NAME}
    # You own the server: /settings (Manage Server only) is yours to try, not the others'.
    assert world.guild.owner.id == world.you.id
    offered = [member.available_commands(world.channel) for member in world.viewers]
    assert ["settings" in commands for commands in offered] == [True, False, False]


async def test_the_topic_introduces_everyone_and_says_how_to_run_a_command(simcord_env):
    world = await setup_demo_world(simcord_env)
    async with open_preview(world) as preview:
        topic = (await preview.snapshot())["channel"]["topic"]

    # One topic for every viewer (SimCord has one per channel): it names them all, tells
    # nobody who they are, and points at the page's "Viewing as" picker.
    assert [name for name in ("Alex", "Sam", "Robin") if name not in topic] == []
    assert "you are" not in topic.lower()
    assert "“Viewing as”" in topic
    # Typed out ("/tictactoe difficulty:easy", Enter), a command is posted as plain text: the
    # command is picked from the pop-up, then its options, then the Send button.
    assert re.search(r"/tictactoe in the pop-up\b.* option.* then Send\b", topic), topic


async def test_the_demo_records_games_for_stats_and_the_leaderboard(simcord_env, tmp_path):
    world = await setup_demo_world(simcord_env)
    you, friend, channel = world.you, world.friend, world.channel

    def last() -> discord.Message:
        message = channel.last_message
        assert message is not None
        return message

    await you.slash(channel, "tictactoe", opponent=friend)
    await click_label(friend, last(), "Accept")
    await click_cell(you, last(), (1, 1))
    await click_cell(friend, last(), (0, 0))
    await resign(friend, last())
    assert await simcord_env.bot.writer.flush()

    stats = await you.slash(channel, "stats")
    assert stats.response is not None
    assert "**Against people:** 1 win · 0 draws · 0 losses" in text(stats.response.message)
    board = await friend.slash(channel, "leaderboard", public=True)
    assert not board.ephemeral
    # (how a provisional rating is marked is the leaderboard's own tests' business)
    assert f"**1.** {you.mention} · 1,662" in text(last())
    assert (tmp_path / "records.db").stat().st_size > 0


async def test_page_sync_refreshes_only_for_changes_no_action_published(simcord_env):
    world = await setup_demo_world(simcord_env)
    async with open_preview(world) as preview:
        sync = PageSync(simcord_env, preview)
        assert sync.supported
        assert not await sync.check(), "nothing happened yet"

        # Driven from Python, the command publishes nothing: the page is behind the bot.
        await world.you.slash(world.channel, "tictactoe")
        assert await sync.check()
        assert not await sync.check(), "up to date after one refresh"

        # A publication after the change (as every action from the page makes): no refresh.
        await world.you.slash(world.channel, "tictactoe")
        await preview.refresh()
        assert not await sync.check()

        # The bot's own timer expires the game: only the sync can show it.
        await simcord_env.advance_time(simcord_env.bot.settings.turn_timeout_seconds + 1)
        assert await sync.check()


def countdown(message: discord.Message) -> int:
    """The unix time of the message's `<t:…:R>` countdown."""
    found = re.search(r"<t:(\d+):R>", text(message))
    assert found, text(message)
    return int(found.group(1))


async def test_a_countdown_is_worded_from_the_time_it_is_published(simcord_env):
    world = await setup_demo_world(simcord_env)
    async with open_preview(world) as preview:
        sync = PageSync(simcord_env, preview)
        # The page has been open for five minutes, with no refresh (none was needed).
        await simcord_env.advance_time(300)
        assert not await sync.check()

        await world.you.slash(world.channel, "tictactoe", opponent=world.friend)
        published = await preview.snapshot()  # what a publication by an action shows

    # The page words <t:…:R> from its presentation time: "in 1 minute", not "in 6 minutes".
    presented = datetime.fromisoformat(published["profile"]["presentationTime"])
    assert presented == simcord_env.now()
    assert world.channel.last_message is not None
    assert countdown(world.channel.last_message) - presented.timestamp() == CHALLENGE_SECONDS


async def test_the_demo_tells_the_computers_time_and_keeps_its_deadlines(simcord_env):
    follow_wall_clock(simcord_env)
    world = await setup_demo_world(simcord_env)
    before = time.time()
    await world.you.slash(world.channel, "tictactoe", opponent=world.friend)
    after = time.time()

    challenge = world.channel.last_message
    assert challenge is not None
    # Shown at the computer's time (not SimCord's 2026-01-01 00:00), and closing 60 s later.
    assert before - 1 <= challenge.created_at.timestamp() <= after
    # (the deadline is rounded up to the second)
    assert before + CHALLENGE_SECONDS - 1 <= countdown(challenge) <= after + CHALLENGE_SECONDS + 1
    # The bot's timer closes it when its countdown says.
    await simcord_env.advance_time(CHALLENGE_SECONDS - 2)
    assert "Accept" in [
        button.get("label") for button in buttons(message_by_id(world.channel, challenge.id))
    ]
    await simcord_env.advance_time(3)
    assert "did not answer" in text(message_by_id(world.channel, challenge.id))
    assert simcord_env.now().timestamp() >= countdown(challenge)


def test_refuses_to_serve_beyond_this_computer(caplog: pytest.LogCaptureFixture) -> None:
    assert run_demo(host="0.0.0.0", open_browser=False) == 1

    (error,) = errors(caplog)
    assert "127.0.0.1" in error.getMessage()
    assert error.exc_info is None


@pytest.mark.parametrize("port", [-1, 65536, "8765", True])
def test_refuses_an_invalid_port(port: object, caplog: pytest.LogCaptureFixture) -> None:
    assert run_demo(port=port, open_browser=False) == 1  # type: ignore[arg-type]

    (error,) = errors(caplog)
    assert "port" in error.getMessage()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_port_in_use_is_the_only_line_and_names_a_free_port_to_use(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert run_demo(port=port, open_browser=False, environ={}) == 1

        # Before anything started (no shard, no database): the one line says what to do.
        (only,) = caplog.records
        assert only.levelno == logging.ERROR
        assert only.exc_info is None
        said = re.fullmatch(
            rf"Cannot serve the demo: port {port} is already in use: use --port (\d+)",
            only.getMessage(),
        )
        assert said, only.getMessage()
        with socket.socket() as suggested:
            suggested.bind(("127.0.0.1", int(said.group(1))))  # free indeed


def test_python_m_bot_demo_on_a_taken_port_says_which_port_to_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "bot", "--demo", "--no-browser", "--port", str(port)],
            capture_output=True,
            text=True,
            cwd=tmp_path,  # no .env here
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
            timeout=START_TIMEOUT,
        )

    assert done.returncode == 1
    (line,) = done.stderr.splitlines()  # the reason, before any start-up line
    assert f"Cannot serve the demo: port {port} is already in use: use --port " in line


def test_a_metrics_port_in_use_is_the_only_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert run_demo(port=0, open_browser=False, environ={"METRICS_PORT": str(port)}) == 1

    assert [record.getMessage() for record in caplog.records] == [
        f"/metrics and /healthz: cannot listen on 127.0.0.1:{port} (Address already in use): "
        "set another METRICS_PORT or METRICS_HOST"
    ]


def test_an_invalid_metrics_port_is_refused_as_the_bot_refuses_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert run_demo(open_browser=False, environ={"METRICS_PORT": "ninety"}) == 2

    (error,) = errors(caplog)
    assert error.getMessage() == (
        "METRICS_PORT must be a port number from 1 to 65535, not 'ninety'"
    )


def test_the_demo_serves_metrics_and_health_on_metrics_port(tmp_path: Path) -> None:
    metrics_port = free_port()
    with running_demo(tmp_path, env={"METRICS_PORT": str(metrics_port)}) as (_, _url, seen):
        base = f"http://127.0.0.1:{metrics_port}"
        with urllib.request.urlopen(f"{base}/healthz", timeout=START_TIMEOUT) as response:
            assert (response.status, response.read()) == (200, b"ok\n")
        with urllib.request.urlopen(f"{base}/metrics", timeout=START_TIMEOUT) as response:
            assert b"\ntictactoe_games_live 0.0\n" in response.read()

    assert f"Serving /metrics and /healthz on {base}".encode() in seen


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")
def test_serves_the_page_then_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    with running_demo(tmp_path) as (process, url, seen):
        # The page itself, from loopback; the part after # is the session's key, never sent.
        with urllib.request.urlopen(url.partition("#")[0], timeout=START_TIMEOUT) as response:
            assert response.status == 200
            assert b"<html" in response.read()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=START_TIMEOUT)

    assert process.returncode == 0, stderr.decode()
    assert b"Demo stopped" in stderr
    # The page without its #part shows an empty "Unavailable channel": the log says so.
    assert b"all of it: the part after # is the page's key" in seen
    assert b"Traceback" not in seen + stderr


def test_the_demo_says_how_to_run_the_bot_for_real_instead_of_links_to_no_app(
    tmp_path: Path,
) -> None:
    with running_demo(tmp_path) as (_process, _url, seen):
        pass

    log = seen.decode()
    assert log.count(RUN_FOR_REAL) == 1
    assert RUN_FOR_REAL.endswith('see README.md, section "Set up and run".')
    assert "\n## Set up and run\n" in (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "Add me" not in log
    assert "discord.com/oauth2" not in log
