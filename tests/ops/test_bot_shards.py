"""Shards: one process running several (SimCord's AutoShardedClient support), and several
processes, each with some of the shards, against one fake Discord (fake_discord/).

Games need no shared store: a server's interactions reach the one shard that holds it, DMs
reach shard 0, and every board carries its game, so whichever process gets a click can play
it. What these tests do not cover yet: stats and leaderboards (they need the database).
"""

import logging
import re

import pytest
from bot_helpers import board_of, click_cell, make_bot
from bot_helpers import is_over as is_over_message

from bot.app import TicTacToeBot
from bot.game.cog import TicTacToeCog
from bot.ops.shards import ShardLogFilter, shard_of
from fake_discord import (
    FakeChannel,
    FakeUser,
    Harness,
    Json,
    first_empty,
    is_over,
    marks,
    text,
    walk,
)
from tests.support.cluster import SHARDS, TIMEOUT, Cluster

# ------------------------------------------------------------------ one process, four shards


@pytest.fixture
def simcord_bot():
    return make_bot(shard_count=SHARDS)


@pytest.fixture
def shard_logs(caplog):
    """The bot's log lines as a host reads them: each event's lines name its shard."""
    caplog.handler.addFilter(ShardLogFilter())
    # A game's own lines ("new game", "game over") are DEBUG: two INFO lines per game would
    # be noise at any scale (the metrics count games).
    caplog.set_level(logging.DEBUG, logger="bot")
    return caplog


def shard_lines(caplog, fragment: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if fragment in r.getMessage()]


async def test_one_process_runs_every_shard_and_each_server_plays_on_its_own(
    simcord_env, shard_logs
):
    env, bot = simcord_env, simcord_env.bot
    assert isinstance(bot, TicTacToeBot)
    assert bot.running_shards() == [0, 1, 2, 3]
    assert bot.health.problem() is None  # every shard connected and ready
    players = []
    for shard in range(SHARDS):
        guild = env.create_guild(f"server {shard}", shard_id=shard)
        assert shard_of(guild.id, SHARDS) == shard
        channel = guild.create_text_channel("games")
        player = guild.add_member(env.create_user(f"player{shard}"))
        players.append((shard, channel, player))
    dm_player = env.create_user("dm player")
    players.append((0, dm_player.dm_channel, dm_player))  # DMs: shard 0

    for _, channel, player in players:
        if channel.guild is None:  # the player's DM with the bot
            started = await player.slash("tictactoe", difficulty="easy")
        else:
            started = await player.slash(channel, "tictactoe", difficulty="easy")
        assert not started.ephemeral
    for _, channel, player in players:
        for _ in range(5):
            message = channel.last_message
            if is_over_message(message):
                break
            free = next(
                (i, j) for i in range(3) for j in range(3) if board_of(message)[i][j] is None
            )
            clicked = await click_cell(player, message, free)
            assert not clicked.ephemeral
        assert is_over_message(channel.last_message)

    for shard, channel, _ in players:
        (line,) = shard_lines(shard_logs, f"Channel {channel.id}: new game")
        assert line.startswith(f"shard {shard}: ")
        (over,) = shard_lines(shard_logs, f"Channel {channel.id}: game over")
        assert over.startswith(f"shard {shard}: ")
    per_game = [r for r in shard_logs.records if ": game over" in r.getMessage()]
    per_game += [r for r in shard_logs.records if ": new game" in r.getMessage()]
    assert len(per_game) == 2 * len(players)
    assert {r.levelno for r in per_game} == {logging.DEBUG}


# ------------------------------------------------------------------ several processes


def cog(harness: Harness) -> TicTacToeCog:
    found = harness.bot.get_cog("TicTacToe")  # type: ignore[attr-defined]
    assert isinstance(found, TicTacToeCog)
    return found


@pytest.fixture
async def cluster():
    async with Cluster() as cluster:
        yield cluster


async def start_game(cluster: Cluster, channel: FakeChannel, user: FakeUser) -> int:
    """/tictactoe against the bot; the board's message id."""
    sent = await cluster.serving(channel).slash(user, channel, "tictactoe", difficulty="easy")
    assert sent.response.succeeded
    assert not sent.ephemeral
    assert sent.response.message is not None
    return int(sent.response.message["id"])


async def play(cluster: Cluster, channel: FakeChannel, user: FakeUser, message_id: int) -> Json:
    """One move on the board as Discord shows it, through whichever process serves it; the
    board afterwards."""
    assert cluster.discord is not None
    shown = cluster.discord.message(message_id)
    cell = first_empty(shown)
    assert cell is not None
    sent = await cluster.serving(channel).click(user, shown, cell=cell)
    assert sent.response.succeeded
    assert not sent.ephemeral, sent.response.content
    after = cluster.discord.message(message_id)
    assert marks(after)[cell] == "X"  # the player's move is on the board
    return after


async def play_out(cluster: Cluster, channel: FakeChannel, user: FakeUser, message_id: int) -> Json:
    for _ in range(5):
        board = await play(cluster, channel, user, message_id)
        if is_over(board):
            return board
    raise AssertionError("a game has at most five moves of X")


async def test_processes_split_the_shards_and_a_new_one_continues_a_dead_ones_boards(cluster):
    first = await cluster.start((0, 1))  # holds shard 0: DMs, and registers the commands
    second = await cluster.start((2, 3))
    fake = cluster.discord
    assert {command["name"] for command in fake.commands[None]} == {
        "tictactoe",
        "puzzle",
        "settings",
        "Challenge to Tic-Tac-Toe",
    }
    uploads = [r for r in fake.requests if r.route == "commands" and r.method == "PUT"]
    assert len(uploads) == 1  # the second process left them as they were
    assert second.bot.command_ids == first.bot.command_ids != {}  # for its mentions
    assert first.bot.health.problem() is second.bot.health.problem() is None

    channels = [cluster.create_guild(shard, f"server {shard}") for shard in (1, 2, 3)]
    alice = first.create_user("alice")
    channels.append(cluster.create_dm(alice))
    boards = {channel.id: await start_game(cluster, channel, alice) for channel in channels}
    assert [cluster.serving(channel) for channel in channels] == [first, second, second, first]
    for channel in channels:
        await play(cluster, channel, alice, boards[channel.id])
    # Each process holds the games of its own shards, and no other.
    assert [len(cog(harness).table.store) for harness in (first, second)] == [2, 2]

    # The second process dies mid-game; a new one runs its shards and gets the next clicks.
    await second.close()
    third = await cluster.start((2, 3))
    assert len(cog(third).table.store) == 0
    for channel in channels:
        assert is_over(await play_out(cluster, channel, alice, boards[channel.id]))
    assert [len(cog(harness).table.store) for harness in (first, third)] == [0, 0]
    unanswered = [r for r in fake.interactions.values() if not r.acknowledged]
    assert not unanswered


async def test_boards_posted_before_resharding_play_on_in_the_process_now_holding_them(cluster):
    alone = await cluster.start(None, shard_count=1)  # one process, one shard
    alice = alone.create_user("alice")
    channels = [cluster.create_guild(shard, f"server {shard}") for shard in range(SHARDS)]
    channels.append(cluster.create_dm(alice))
    boards = {channel.id: await start_game(cluster, channel, alice) for channel in channels}
    for channel in channels:
        await play(cluster, channel, alice, boards[channel.id])
    await alone.close()

    low, high = await cluster.start((0, 1)), await cluster.start((2, 3))
    for channel in channels:
        assert is_over(await play_out(cluster, channel, alice, boards[channel.id]))
    assert {cluster.serving(channel) for channel in channels} == {low, high}


async def test_idle_games_expire_in_the_process_that_holds_them(cluster):
    first, second = await cluster.start((0, 1)), await cluster.start((2, 3))
    alice = first.create_user("alice")
    channels = [cluster.create_guild(shard, f"server {shard}") for shard in range(SHARDS)]
    boards = {channel.id: await start_game(cluster, channel, alice) for channel in channels}
    cluster.clock.now += TIMEOUT + 1

    assert await cog(first).table.expire_lapsed() == 2  # its two games; the others are not its own
    assert cluster.discord is not None
    expired = [
        channel.shard
        for channel in [Shown(c, cluster.discord.message(boards[c.id])) for c in channels]
        if channel.expired
    ]
    assert expired == [0, 1]
    assert await cog(second).table.expire_lapsed() == 2
    assert all(Shown(c, cluster.discord.message(boards[c.id])).expired for c in channels)


class Shown:
    """A board as Discord shows it: the shard of its server, and whether it shows an expiry."""

    def __init__(self, channel: FakeChannel, message: Json) -> None:
        self.shard = shard_of(channel.guild_id, SHARDS)
        self.expired = "ran out of time: the game is over." in text(message)


async def test_processes_on_one_postgresql_record_every_game_once_and_agree_on_the_scores(
    cluster, postgres_url, tmp_path
):
    """Two processes, each with half of the shards, on one real PostgreSQL: games in servers on
    both and in a DM, one process dying mid-game and a new one finishing its boards; then
    /stats and /leaderboard read the same whichever process answers."""
    first = await cluster.start((0, 1), database_url=postgres_url, data_dir=tmp_path / "first")
    second = await cluster.start((2, 3), database_url=postgres_url, data_dir=tmp_path / "second")
    channels = [cluster.create_guild(shard, f"server {shard}") for shard in (1, 2)]
    alice = first.create_user("alice")
    channels.append(cluster.create_dm(alice))
    boards = {channel.id: await start_game(cluster, channel, alice) for channel in channels}
    for channel in channels:
        await play(cluster, channel, alice, boards[channel.id])

    await second.close()  # its pending games are written on the way out
    third = await cluster.start((2, 3), database_url=postgres_url, data_dir=tmp_path / "third")
    for channel in channels:
        assert is_over(await play_out(cluster, channel, alice, boards[channel.id]))
    for harness in (first, third):
        assert await harness.bot.writer.flush()
    recorded = first.bot.writer.written + third.bot.writer.written
    assert recorded == len(channels)  # every game once, by whichever process ended it

    server_one, server_two = channels[0], channels[1]
    assert cluster.serving(server_one) is first
    assert cluster.serving(server_two) is third
    answers = []
    for channel in (server_one, server_two):
        harness = cluster.serving(channel)
        stats = await harness.slash(alice, channel, "stats")
        ratings = await harness.slash(alice, channel, "leaderboard", public=True)
        assert stats.response.message is not None
        assert ratings.response.message is not None
        against_me = await harness.click(
            alice,
            ratings.response.message,
            custom_id=button_id(ratings.response.message, "Against me"),
        )
        assert against_me.response.message is not None
        answers.append(
            (
                text(stats.response.message),
                text(ratings.response.message),
                text(against_me.response.message),
            )
        )
    stats_text, _, bot_table = answers[0]
    tally = re.search(
        r"\*\*Against me, Easy:\*\* (\d+) wins? · (\d+) draws? · (\d+) loss", stats_text
    )
    assert tally is not None, stats_text
    assert sum(map(int, tally.groups())) == len(channels)  # every game counted once
    # Games against Easy are counted in the stats but put nobody on the bot board.
    assert "Nobody here has beaten me on Hard or drawn with me on Impossible yet." in bot_table
    assert answers[0] == answers[1]  # whichever process answers


def button_id(message: Json, label: str) -> str:
    found = [
        component["custom_id"]
        for component in walk(message.get("components", []))
        if component.get("type") == 2 and label in component.get("label", "")
    ]
    assert len(found) == 1, found
    return found[0]
