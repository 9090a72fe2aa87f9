"""Records through SimCord: finished games are stored, and /stats, /leaderboard and /forget-me
answer from a real SQLite database, as the players see them."""

from __future__ import annotations

import gc
import logging
import random
import signal

import pytest
from bot_helpers import (
    GAME_TIMEOUT,
    board_of,
    buttons,
    click_cell,
    click_label,
    command_mention,
    is_over,
    status,
    text,
)

import tictactoe as ttt
from bot.app import TicTacToeBot
from bot.records.cog import RecordsCog
from bot.records.sql.storage import Storage
from bot.records.writer import RecordWriter
from bot.settings import Settings
from fake_discord import Harness
from fake_discord import text as harness_text
from tests.support.records import DRAW, X_WINS, record, recording_bot

UNAVAILABLE = (
    "Stats are unavailable right now: the database is not answering. Your games are still "
    "being recorded; try again in a minute."
)


@pytest.fixture
def storage(request, tmp_path):
    """Records in a fresh SQLite file; parametrized "down": a file that is not a database, so
    that every query fails."""
    path = tmp_path / "records.db"
    if getattr(request, "param", None) == "down":
        path.write_bytes(b"not a database" * 100)
    return Storage(f"sqlite+aiosqlite:///{path}")


@pytest.fixture
async def simcord_bot(storage, tmp_path):
    """The bot recording into `storage` through the real writer and its spool."""
    bot = await recording_bot(storage, tmp_path / "spool.jsonl", turn_timeout=GAME_TIMEOUT)
    yield bot
    await bot.close_records()  # SimCord detaches the bot without closing it


async def flush(env) -> None:
    """Wait until the writer has stored every finished game."""
    assert await env.bot.writer.flush()


async def lose_to_the_bot(channel, player) -> None:
    await player.slash(channel, "tictactoe")
    for _ in range(5):
        if is_over(channel.last_message):
            return
        cell = min(ttt.actions(board_of(channel.last_message)))
        await click_cell(player, channel.last_message, cell)


async def beat(channel, winner, loser) -> None:
    """`winner` challenges `loser` and wins along the top row."""
    await winner.slash(channel, "tictactoe", opponent=loser)
    await click_label(loser, channel.last_message, "Accept")
    for cell, player in (((0, 0), winner), ((1, 0), loser), ((0, 1), winner), ((1, 1), loser)):
        await click_cell(player, channel.last_message, cell)
    await click_cell(winner, channel.last_message, (0, 2))
    assert "wins" in status(channel.last_message)


def labels(message) -> list[str]:
    return [button.get("label") or "" for button in buttons(message)]


@pytest.mark.usefixtures("discord_rules")
async def test_your_stats_answer_privately_with_results_rating_and_games(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await lose_to_the_bot(channel, alice)
    await beat(channel, alice, bob)
    await flush(env)

    result = await alice.slash(channel, "stats")
    assert result.ephemeral
    shown = text(result.response.message)
    assert alice.mention in shown
    assert "**Against people:** 1 win · 0 draws · 0 losses" in shown
    assert "**Against me, Impossible:** 0 wins · 0 draws · 1 loss" in shown
    assert "**Win streak:** 1 now, 1 at best." in shown
    assert "(provisional: a few more games settle it), #1 in this server" in shown
    assert f"1. 🏆 beat {bob.mention} · <t:" in shown
    assert "2. ❌ lost to me (Impossible) · <t:" in shown
    assert labels(result.response.message) == ["Review 1", "Review 2"]


@pytest.mark.usefixtures("discord_rules")
async def test_a_player_who_only_played_me_is_told_what_is_rated(world):
    env, channel, alice = world.env, world.channel, world.alice
    await lose_to_the_bot(channel, alice)
    await flush(env)
    shown = text((await alice.slash(channel, "stats")).response.message)
    assert "**Rating:** none yet. Only games between two people are rated." in shown


@pytest.mark.usefixtures("discord_rules")
async def test_review_from_stats_replays_the_stored_game(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await beat(channel, alice, bob)
    await flush(env)
    stats = (await alice.slash(channel, "stats")).response.message

    review = await click_label(alice, stats, "Review 1")
    assert review.ephemeral
    lines = review.response.content.splitlines()
    assert lines[0] == f"📜 **Review**: 🟥 X {alice.mention} · 🟦 O {bob.mention}"
    # The title, five moves, then a paragraph of its own: the verdict and the result.
    assert len(lines) == 1 + 5 + 1 + 2
    assert lines[6] == ""
    assert lines[-1] == f"🏆 **{alice.mention} wins** with three in a row!"


@pytest.mark.usefixtures("discord_rules")
async def test_stats_shown_publicly_never_ping(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await beat(channel, alice, bob)
    await flush(env)

    result = await alice.slash(channel, "stats", public=True)
    assert not result.ephemeral
    assert bob.mention in text(channel.last_message)
    (callback,) = [r for r in env.http_requests if r.path.endswith("/callback")][-1:]
    assert callback.json["data"]["allowed_mentions"] == {"parse": []}


@pytest.mark.usefixtures("discord_rules")
async def test_someone_elses_stats_leave_out_their_games(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await beat(channel, alice, bob)
    await flush(env)

    result = await carol_asks(world, bob)
    assert result.ephemeral
    shown = text(result.response.message)
    assert "**Against people:** 0 wins · 0 draws · 1 loss" in shown
    assert "Last games" not in shown
    assert alice.mention not in shown  # nor whom they played
    assert labels(result.response.message) == []


async def carol_asks(world, player):
    return await world.carol.slash(world.channel, "stats", player=player)


@pytest.mark.usefixtures("discord_rules")
async def test_a_player_with_no_games_is_told_so(world):
    result = await world.alice.slash(world.channel, "stats")
    assert result.ephemeral
    assert text(result.response.message).endswith("No recorded games yet.")


@pytest.mark.usefixtures("discord_rules")
async def test_the_leaderboard_pages_and_switches_tables(world, storage):
    guild, channel, alice = world.guild, world.channel, world.alice
    # Twelve players of this server, each beaten once by the next, and one game elsewhere.
    players = [10_000 + n for n in range(12)]
    await storage.record(
        [record(n, players[n + 1], players[n], (0, 3, 1, 4, 2), guild=guild.id) for n in range(11)]
    )
    await storage.record([record(50, 777, 778, (0, 3, 1, 4, 2), guild=guild.id + 1)])

    first = await alice.slash(channel, "leaderboard")
    assert first.ephemeral
    page = first.response.message
    shown = text(page)
    assert shown.startswith("## 🏆 Leaderboard: ratings\nPlayers of this server\n**1.** <@")
    assert shown.count("\n**") == 10
    assert "-# Page 1 of 2" in shown
    assert "<@777>" not in shown  # played in another server only
    assert labels(page) == ["Next", "Ultimate", "Against me", "Puzzles"]

    page = (await click_label(alice, page, "Next")).response.message
    shown = text(page)
    assert "-# Page 2 of 2" in shown
    assert shown.count("\n**") == 2
    assert labels(page) == ["Previous", "Ultimate", "Against me", "Puzzles"]

    page = (await click_label(alice, page, "Against me")).response.message
    shown = text(page)
    assert shown.startswith("## 🤖 Leaderboard: against me\nPlayers of this server\n")
    assert "Nobody here has beaten me on Hard or drawn with me on Impossible yet." in shown
    assert labels(page) == ["Ratings", "Ultimate", "Puzzles"]


@pytest.mark.usefixtures("discord_rules")
async def test_an_empty_rating_board_offers_the_clickable_command(world):
    env, channel, alice = world.env, world.channel, world.alice
    shown = text((await alice.slash(channel, "leaderboard")).response.message)
    assert f"Nobody has a rating here yet: play someone with {command_mention(env)}." in shown


@pytest.mark.usefixtures("discord_rules")
async def test_outside_a_server_the_leaderboard_is_everyones(world):
    env, channel, alice = world.env, world.channel, world.alice
    await lose_to_the_bot(channel, alice)
    await flush(env)
    dana = env.create_user("dana")

    result = await dana.slash("leaderboard")
    shown = text(result.response.message)
    assert "All players, everywhere" in shown
    switched = await click_label(dana, result.response.message, "Against me")
    shown = text(switched.response.message)
    # A loss against Impossible is nothing to show.
    assert "Nobody here has beaten me on Hard or drawn with me on Impossible yet." in shown
    assert alice.mention not in shown

    await env.bot.records.record(
        [record(1, 0, alice.id, DRAW, guild=None), record(2, alice.id, 0, X_WINS, level="hard")]
    )
    result = await dana.slash("leaderboard")
    switched = await click_label(dana, result.response.message, "Against me")
    shown = text(switched.response.message)
    assert "Longest unbeaten run against Impossible · wins against Hard" in shown
    assert f"**1.** {alice.mention} · unbeaten vs Impossible: 1 · wins vs Hard: 1" in shown
    # A row names the player and two numbers: not where, nor against whom, they played.
    assert "<#" not in shown
    assert shown.count("<@") == 1


@pytest.mark.usefixtures("discord_rules")
async def test_forget_me_asks_then_deletes_only_your_data(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await beat(channel, alice, bob)
    await beat(channel, bob, alice)
    await flush(env)

    asked = await alice.slash(channel, "forget-me")
    assert asked.ephemeral
    assert asked.response.content.startswith("Delete your stats, rating and name")
    assert labels(asked.response.message) == ["Delete my data", "Cancel"]
    kept = await click_label(alice, asked.response.message, "Cancel")
    assert kept.response.content == "Nothing was deleted."
    assert "1 win" in text((await alice.slash(channel, "stats")).response.message)

    asked = await alice.slash(channel, "forget-me")
    done = await click_label(alice, asked.response.message, "Delete my data")
    assert done.response.content == (
        "Done: your stats and rating are deleted, and 2 recorded games no longer name you."
    )
    assert labels(done.response.message) == []
    await flush(env)
    mine = text((await alice.slash(channel, "stats")).response.message)
    assert mine.endswith("No recorded games yet.")
    theirs = (await bob.slash(channel, "stats")).response.message
    assert "**Against people:** 1 win · 0 draws · 1 loss" in text(theirs)
    assert "a deleted player" in text(theirs)

    # Their review names the seat that is gone in words, not as a raw mention.
    review = (await click_label(bob, theirs, "Review 1")).response.content
    heading, result = review.splitlines()[0], review.splitlines()[-1]
    assert heading == f"📜 **Review**: 🟥 X {bob.mention} · 🟦 O a deleted player"
    assert result == f"🏆 **{bob.mention} wins** with three in a row!"
    review = (await click_label(bob, theirs, "Review 2")).response.content
    assert review.splitlines()[-1] == "🏆 **a deleted player wins** with three in a row!"
    assert "<@1>" not in review
    assert "<@2>" not in review


@pytest.mark.usefixtures("discord_rules")
@pytest.mark.parametrize("storage", ["down"], indirect=True)
async def test_a_database_that_is_down_stops_no_game_and_is_logged_once(world, caplog):
    env, channel, alice = world.env, world.channel, world.alice
    await lose_to_the_bot(channel, alice)
    assert "wins" in status(channel.last_message)

    with caplog.at_level(logging.INFO, logger="bot.records.cog"):
        for _ in range(2):
            result = await alice.slash(channel, "stats")
            assert result.ephemeral
            assert result.response.content == UNAVAILABLE
        result = await alice.slash(channel, "leaderboard")
        assert result.response.content == UNAVAILABLE
    warnings = [r for r in caplog.records if r.name == "bot.records.cog"]
    assert len(warnings) == 1
    assert warnings[0].getMessage().startswith("Stats are unavailable")
    # The finished game waits in the writer (and its spool) for the database.
    assert env.bot.writer.pending == 1


async def test_stats_asked_while_a_game_waits_to_be_written_include_it(tmp_path):
    """A finished game lingers (an hour here) for others to share its transaction: /stats asked
    meanwhile has it written first, and shows it. Through the fake Discord and the real loop
    (SimCord's clock would run the writer's timer)."""
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'records.db'}")
    bot = await recording_bot(storage, tmp_path / "spool.jsonl", linger=3600)
    writer = bot.writer
    assert writer is not None
    async with await Harness.start(bot=bot) as harness:
        channel = harness.create_guild("club").channels[0]
        alice, bob = harness.create_user("alice"), harness.create_user("bob")
        writer.submit(record(1, alice.id, bob.id, X_WINS, guild=None))
        assert writer.pending == 1

        answered = await harness.slash(alice, channel, "stats")
        card = answered.response.message
        assert card is not None
        assert "**Against people:** 1 win · 0 draws · 0 losses" in harness_text(card)
        assert writer.pending == 0
    await bot.close_records()


async def test_stats_answer_in_time_when_the_database_hangs(postgres_server, postgres_url):
    """The server stops answering (SIGSTOP: a hung host): /stats is answered anyway, once the
    read has waited its time (shortened here), through the fake Discord and the real loop."""
    storage = Storage(postgres_url)
    await storage.migrate()
    writer = RecordWriter(storage, None)
    await writer.start()
    settings = Settings(token="not-a-real-token", turn_timeout_seconds=GAME_TIMEOUT, shard_count=1)
    bot = TicTacToeBot(settings, rng=random.Random(0), records=storage, writer=writer)
    async with await Harness.start(bot=bot) as harness:
        cog = bot.get_cog("Records")
        assert isinstance(cog, RecordsCog)
        cog.read_timeout = 0.2
        channel = harness.create_guild("club").channels[0]
        alice = harness.create_user("alice")
        postgres_server.signal_all(signal.SIGSTOP)
        try:
            answered = await harness.slash(alice, channel, "stats")
        finally:
            postgres_server.signal_all(signal.SIGCONT)
        assert answered.ephemeral
        assert answered.response.content == UNAVAILABLE
        # Once the server is back, the next one is the stats card.
        again = await harness.slash(alice, channel, "stats")
        card = again.response.message
        assert card is not None
        assert "No recorded games yet." in harness_text(card)
    await bot.close_records()


async def test_records_clicks_leave_no_garbage_to_collect(tmp_path):
    """The records' buttons are plain JSON routed by custom_id, as the boards are: a click on
    them leaves no reference cycle behind (a discord.py view's items point back at it)."""
    storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'records.db'}")
    writer = RecordWriter(storage, None)
    await writer.start()
    settings = Settings(token="not-a-real-token", turn_timeout_seconds=GAME_TIMEOUT, shard_count=1)
    bot = TicTacToeBot(settings, rng=random.Random(0), records=storage, writer=writer)
    async with await Harness.start(bot=bot) as harness:
        channel = harness.create_guild("club").channels[0]
        alice = harness.create_user("alice")
        await storage.record([record(1, alice.id, 0, DRAW), record(2, alice.id, 555, X_WINS)])
        stats = (await harness.slash(alice, channel, "stats", public=True)).response.message
        board = (await harness.slash(alice, channel, "leaderboard", public=True)).response.message
        assert stats is not None
        assert board is not None
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage
        try:
            shown = []
            for label in ("Against me", "Ratings", "Against me"):
                board = (await harness.click(alice, board, label=label)).response.message
                assert board is not None
                shown.append(harness_text(board))
            review = await harness.click(alice, stats, label="Review 1")
            gc.collect()
            left = [
                type(o).__name__ for o in gc.garbage if type(o).__module__.startswith("discord")
            ]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        assert left == []
        assert "## 🤖 Leaderboard: against me" in shown[0]
        assert "## 🏆 Leaderboard: ratings" in shown[1]
        assert (review.response.content or "").startswith("📜 **Review**")
    await bot.close_records()
