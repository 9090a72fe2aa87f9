"""Puzzles with the records, through SimCord and a real SQLite database: the rating shown on a
solved puzzle is the one /stats and the Puzzles board show, and after a restart it is read back
from the database, the day's puzzle staying rated once."""

from __future__ import annotations

import pytest
from bot_helpers import click_label, text

from bot.records.sql.storage import Storage
from tests.support.puzzles import RATING, rating_change, solve
from tests.support.records import recording_bot

pytestmark = pytest.mark.usefixtures("discord_rules")


@pytest.fixture
def database(tmp_path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'records.db'}"


@pytest.fixture
async def simcord_bot(database, tmp_path):
    bot = await recording_bot(Storage(database), tmp_path / "spool.jsonl")
    yield bot
    await bot.close_records()


async def test_the_puzzle_rating_is_in_stats_and_on_the_puzzles_board(world):
    env, channel, alice = world.env, world.channel, world.alice
    solved = await solve(alice, await alice.slash(channel, "puzzle"))
    _, after, _ = rating_change(solved)
    assert await env.bot.writer.flush()

    stats = text((await alice.slash(channel, "stats")).response.message)
    assert (
        f"**Puzzles:** rating {after:,} (provisional), 1 of 1 solved; solved in a row: 1 now, "
        "1 at best." in stats
    )
    first = await alice.slash(channel, "leaderboard")
    board = (await click_label(alice, first.response.message, "Puzzles")).response.message
    shown = text(board)
    assert shown.startswith("## 🧩 Leaderboard: puzzles\nPlayers of this server\n")
    assert f"**1.** {alice.mention} · {after:,} (provisional)" in shown


async def test_after_a_restart_the_rating_and_the_days_try_come_from_the_database(
    world, database, tmp_path
):
    env, channel, alice = world.env, world.channel, world.alice
    daily = await solve(alice, await alice.slash(channel, "puzzle", daily=True))
    _, after, _ = rating_change(daily)
    await env.bot.close_records()  # a clean stop writes what is pending

    await env.restart_bot(await recording_bot(Storage(database), tmp_path / "spool2.jsonl"))

    again = await solve(alice, await alice.slash(channel, "puzzle", daily=True))
    assert "Not rated: you already tried today's puzzle." in text(again)
    assert RATING.search(text(again)) is None
    picked = await solve(alice, await alice.slash(channel, "puzzle"))
    assert rating_change(picked)[0] == after
