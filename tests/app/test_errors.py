"""A command or a button of any capability that fails: the user gets one private apology, the
log one error with its traceback, and /metrics one more error, where it happened (a command or
a click). A failure its capability has answered already (the records' database being down)
passes quietly: its own answer only, nothing counted, no error logged.

The game's failures are tested with the game (tests/game/test_bot_faults.py and others).
Driven through the harness: the real bot, discord.py's real dispatch, Discord faked.
"""

from __future__ import annotations

import logging
import random
from traceback import format_exception

import pytest
from bot_helpers import APOLOGY

from bot.app import TicTacToeBot
from bot.guilds import view as settings_view
from bot.ops.metrics import Metrics
from bot.records import buttons
from bot.records.api import RecordsError
from bot.records.startup import start_records
from bot.records.view import RATINGS
from bot.settings import Settings
from fake_discord import Harness, find_button, first_empty
from fake_discord.rest import TOKEN

UNAVAILABLE = (
    "Stats are unavailable right now: the database is not answering. Your games are still "
    "being recorded; try again in a minute."
)


class Broken(Exception):
    """What the tests make a capability raise."""


def broken(*args, **kwargs):
    raise Broken("broken by the test")


@pytest.fixture
async def harness(tmp_path):
    records, writer = await start_records(
        f"sqlite+aiosqlite:///{tmp_path / 'records.db'}", tmp_path / "spool.jsonl"
    )
    settings = Settings(token=TOKEN, shard_count=1)
    bot = TicTacToeBot(
        settings, rng=random.Random(0), records=records, writer=writer, metrics=Metrics()
    )
    async with await Harness.start(bot=bot) as harness:
        yield harness


def errors(harness, where: str) -> float:
    return harness.bot.metrics.errors.labels(where=where).value


def private_texts(sent) -> list[str]:
    """What the user was told privately, in order: answers and followups."""
    return [
        request.content or ""
        for request in sent.requests
        if request.route in ("callback", "followup") and request.ephemeral
    ]


def error_logs(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.levelno >= logging.ERROR]


async def fails_once(harness, caplog, where: str, act, expected_log: str) -> None:
    """`act()` (an interaction) fails: one apology, one error logged with its traceback, one
    more error counted `where`."""
    before = errors(harness, where)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        sent = await act()
    assert private_texts(sent) == [APOLOGY]
    (logged,) = error_logs(caplog)
    assert logged.getMessage().startswith(expected_log), logged.getMessage()
    assert logged.exc_info is not None
    traceback = "".join(format_exception(*logged.exc_info))
    assert "Broken: broken by the test" in traceback
    assert errors(harness, where) == before + 1


def post_button(harness, channel, custom_id: str) -> dict:
    """A message the bot posted with one button, `custom_id` (as a card of an earlier run)."""
    button = {"type": 2, "style": 2, "label": "press", "custom_id": custom_id}
    return harness.post_message(
        channel, {"content": "a card", "components": [{"type": 1, "components": [button]}]}
    )


# ------------------------------------------------------------------ /settings


async def test_a_failing_settings_command_is_apologised_for_counted_and_logged(
    harness, caplog, monkeypatch
):
    channel = harness.create_guild("club").channels[0]
    dana = harness.create_user("dana")
    monkeypatch.setattr(settings_view, "render_settings", broken)
    await fails_once(
        harness,
        caplog,
        "command",
        lambda: harness.slash(dana, channel, "settings"),
        f"/settings failed in channel {channel.id}",
    )


async def test_a_failing_settings_control_is_apologised_for_counted_and_logged(
    harness, caplog, monkeypatch
):
    channel = harness.create_guild("club").channels[0]
    dana = harness.create_user("dana")
    custom_id = settings_view.control_id("difficulty", settings_view.RESET)
    card = post_button(harness, channel, custom_id)
    monkeypatch.setattr(settings_view, "parse_control", broken)
    await fails_once(
        harness,
        caplog,
        "click",
        lambda: harness.click(dana, card, custom_id=custom_id),
        f"Component {custom_id!r} failed in channel {channel.id}",
    )


# ------------------------------------------------------------------ records


async def test_a_failing_records_command_is_apologised_for_counted_and_logged(
    harness, caplog, monkeypatch
):
    channel = harness.create_guild("club").channels[0]
    alice = harness.create_user("alice")
    monkeypatch.setattr(harness.bot.records, "stats", broken)
    await fails_once(
        harness,
        caplog,
        "command",
        lambda: harness.slash(alice, channel, "stats"),
        f"/stats failed in channel {channel.id}",
    )


async def test_a_failing_records_button_is_apologised_for_counted_and_logged(
    harness, caplog, monkeypatch
):
    channel = harness.create_guild("club").channels[0]
    alice = harness.create_user("alice")
    custom_id = buttons.page_id(RATINGS, 1)
    board = post_button(harness, channel, custom_id)
    monkeypatch.setattr(harness.bot.records, "rating_board", broken)
    await fails_once(
        harness,
        caplog,
        "click",
        lambda: harness.click(alice, board, custom_id=custom_id),
        f"Component {custom_id!r} failed in channel {channel.id}",
    )


async def test_a_database_that_fails_is_answered_once_and_not_counted_as_a_bug(
    harness, caplog, monkeypatch
):
    channel = harness.create_guild("club").channels[0]
    alice = harness.create_user("alice")
    custom_id = buttons.page_id(RATINGS, 1)
    board = post_button(harness, channel, custom_id)

    async def database_down(*args, **kwargs):
        raise RecordsError("the database is down")

    monkeypatch.setattr(harness.bot.records, "stats", database_down)
    monkeypatch.setattr(harness.bot.records, "rating_board", database_down)
    with caplog.at_level(logging.WARNING):
        asked = await harness.slash(alice, channel, "stats")
        clicked = await harness.click(alice, board, custom_id=custom_id)
    assert private_texts(asked) == [UNAVAILABLE]
    assert private_texts(clicked) == [UNAVAILABLE]
    assert not error_logs(caplog)
    (warned,) = caplog.records  # logged once until reads work again
    assert "the database read failed" in warned.getMessage()
    assert errors(harness, "command") == errors(harness, "click") == 0


# ------------------------------------------------------------------ puzzles


async def test_a_failing_puzzle_command_is_apologised_for_counted_and_logged(
    harness, caplog, monkeypatch
):
    channel = harness.create_guild("club").channels[0]
    alice = harness.create_user("alice")
    monkeypatch.setattr("bot.puzzles.cog.render_puzzle", broken)
    await fails_once(
        harness,
        caplog,
        "command",
        lambda: harness.slash(alice, channel, "puzzle"),
        f"/puzzle failed in channel {channel.id}",
    )


async def test_a_failing_puzzle_button_is_apologised_for_counted_and_logged(
    harness, caplog, monkeypatch
):
    channel = harness.create_guild("club").channels[0]
    alice = harness.create_user("alice")
    shown = (await harness.slash(alice, channel, "puzzle")).response.message
    assert shown is not None
    cell = first_empty(shown)
    assert cell is not None
    custom_id = find_button(shown, cell=cell)["custom_id"]
    monkeypatch.setattr("bot.puzzles.cog.puzzles.answer", broken)
    await fails_once(
        harness,
        caplog,
        "click",
        lambda: harness.click(alice, shown, cell=cell),
        f"Component {custom_id!r} failed in channel {channel.id}",
    )
