"""The game announces every finished game once (`on_game_finished`), after the click's answer:
on the board, by resigning, by expiring, after a restart too. What listens is not the game's
business; here a listener collects what was announced."""

from collections.abc import Callable
from dataclasses import dataclass, field

import discord
import pytest
import simcord.interactions
from bot_helpers import (
    APOLOGY,
    GAME_TIMEOUT,
    board_of,
    buttons,
    click_cell,
    click_control,
    click_label,
    is_over,
    make_bot,
    resign,
    status,
)

import tictactoe as ttt
from bot.app import TicTacToeBot
from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Ending, Game
from bot.game.cog import TicTacToeCog
from fake_discord import Fault, Harness, text


@dataclass
class Heard:
    """What a listener of on_game_finished got, and how many requests the bot had sent to
    Discord by then (the click's answer goes first)."""

    games: list[FinishedGame] = field(default_factory=list)
    requests_before: list[int] = field(default_factory=list)


def listen(env) -> Heard:
    return listen_to(env.bot, lambda: len(env.http_requests))


def listen_to(bot, requests_sent: Callable[[], int]) -> Heard:
    heard = Heard()

    async def on_game_finished(finished: FinishedGame) -> None:
        heard.games.append(finished)
        heard.requests_before.append(requests_sent())

    bot.add_listener(on_game_finished)
    return heard


async def play_out(channel, player) -> None:
    for _ in range(5):
        if is_over(channel.last_message):
            return
        await click_cell(
            player, channel.last_message, min(ttt.actions(board_of(channel.last_message)))
        )
    assert is_over(channel.last_message)


@pytest.mark.usefixtures("discord_rules")
async def test_a_game_won_on_the_board_is_announced_once_after_the_answer(world):
    env, guild, channel, alice = world.env, world.guild, world.channel, world.alice
    heard = listen(env)
    await alice.slash(channel, "tictactoe", difficulty="hard")
    board = channel.last_message
    await play_out(channel, alice)
    answered = len(env.http_requests)

    (finished,) = heard.games
    assert finished.game_id == board.id
    assert finished.guild_id == guild.id
    assert finished.place is Place.SERVER
    assert not finished.user_installed
    game = finished.game
    assert game.is_over
    assert game.ending is None
    assert game.players == (alice.id, AI)
    assert game.difficulty == "hard"
    assert isinstance(game, Game)
    assert [list(row) for row in game.board] == board_of(channel.last_message)
    assert finished.ended_at == pytest.approx(env.now().timestamp(), abs=2)
    # The listener ran once the board's last edit had gone to Discord.
    assert heard.requests_before == [answered]

    # Clicks on the finished board (a cell, Review) announce nothing more.
    late = await click_cell(alice, channel.last_message, (0, 0))
    assert late.ephemeral
    await click_control(alice, channel.last_message, "Review")
    assert len(heard.games) == 1


@pytest.mark.usefixtures("discord_rules")
async def test_a_confirmed_resignation_is_announced_once(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    heard = listen(env)
    await alice.slash(channel, "tictactoe", opponent=bob)
    await click_label(bob, channel.last_message, "Accept")
    board = channel.last_message
    await click_cell(alice, board, (1, 1))
    first = await click_control(bob, channel.last_message, "Resign")
    second = await click_control(bob, channel.last_message, "Resign")
    assert heard.games == []  # a question is not an answer
    await click_label(bob, first.followups[0].message, "Yes, resign")
    assert not buttons(second.followups[0].message)  # the other question closed with the game

    (finished,) = heard.games
    assert finished.game_id == board.id
    assert finished.game.ending is Ending.O_RESIGNED
    assert finished.game.winner_id == alice.id
    assert finished.game.moves == (4,)


@pytest.mark.usefixtures("discord_rules")
async def test_an_idle_game_is_announced_as_expired(world):
    env, guild, channel, alice = world.env, world.guild, world.channel, world.alice
    heard = listen(env)
    await alice.slash(channel, "tictactoe")
    board = channel.last_message
    await click_cell(alice, board, (0, 0))
    await env.advance_time(GAME_TIMEOUT + 1)
    assert "ran out of time" in status(channel.last_message)

    (finished,) = heard.games
    assert (finished.game_id, finished.guild_id, finished.place) == (
        board.id,
        guild.id,
        Place.SERVER,
    )
    assert finished.game.ending is Ending.EXPIRED
    assert finished.game.player_to_move == alice.id
    assert len(finished.game.moves or ()) == 2


@pytest.mark.usefixtures("discord_rules")
async def test_a_challenge_nobody_answered_is_not_a_game(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    heard = listen(env)
    await alice.slash(channel, "tictactoe", opponent=bob)
    await env.advance_time(GAME_TIMEOUT + 1)
    await alice.slash(channel, "tictactoe", opponent=bob)
    await click_label(bob, channel.last_message, "Decline")
    assert heard.games == []


@pytest.mark.usefixtures("discord_rules")
async def test_a_game_finished_after_a_restart_is_announced_once(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    board = channel.last_message
    await click_cell(alice, board, (0, 0))
    await env.restart_bot(make_bot(seed=1))
    heard = listen(env)

    await play_out(channel, alice)
    (finished,) = heard.games
    assert finished.game_id == board.id
    assert finished.game.is_over
    assert isinstance(finished.game, Game)
    assert [list(row) for row in finished.game.board] == board_of(channel.last_message)


@pytest.mark.parametrize("paused", [False, True], ids=["stale", "in-flight"])
async def test_two_racing_clicks_that_end_a_restored_game_announce_it_once(paused):
    """Both clicks were sent on a board memory had lost (as in a restart): the first ends the
    game, the second finds it over. Through the fake Discord, which lets clicks race."""
    async with await Harness.start(seed=0) as harness:
        channel = harness.create_guild("club").channels[0]
        alice, bob = harness.create_user("alice"), harness.create_user("bob")
        await harness.slash(alice, channel, "tictactoe", opponent=bob)
        await harness.click(bob, harness.last_message(channel), label="Accept")
        for cell, player in (((0, 0), alice), ((1, 0), bob), ((0, 1), alice), ((1, 1), bob)):
            await harness.click(player, harness.last_message(channel), cell=cell)
        shown = harness.last_message(channel)
        bot = harness.bot
        assert isinstance(bot, TicTacToeBot)
        cog = bot.get_cog("TicTacToe")
        assert isinstance(cog, TicTacToeCog)
        cog.table.store.clear()  # what a restart loses
        heard = listen_to(harness.bot, lambda: len(harness.discord.requests))

        sent = await harness.race(
            *(lambda: harness.dispatch_click(alice, shown, cell=(0, 2)) for _ in range(2)),
            paused=paused,
        )

    assert [one.ephemeral for one in sent] == [False, True]
    (finished,) = heard.games
    assert finished.game_id == int(shown["id"])
    assert finished.game.winner_id == alice.id


@pytest.mark.usefixtures("discord_rules")
async def test_a_restored_board_that_lapsed_is_announced_as_expired_on_click(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    board = channel.last_message
    await env.restart_bot(make_bot(seed=1))
    heard = listen(env)
    await env.advance_time(GAME_TIMEOUT + 1)
    await click_cell(alice, board, (1, 1))
    late = await click_cell(alice, channel.last_message, (2, 2))
    assert late.ephemeral

    (finished,) = heard.games
    assert finished.game_id == board.id
    assert finished.game.ending is Ending.EXPIRED


@pytest.mark.usefixtures("discord_rules")
async def test_a_restored_game_that_goes_idle_is_announced_by_the_timer(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe")
    await env.restart_bot(make_bot(seed=1))
    heard = listen(env)
    await click_cell(alice, channel.last_message, (0, 0))  # memory holds it again
    await env.advance_time(GAME_TIMEOUT + 1)

    (finished,) = heard.games
    assert finished.game.ending is Ending.EXPIRED
    assert finished.place is Place.SERVER


@pytest.mark.usefixtures("discord_rules")
async def test_a_game_in_a_dm_is_announced_as_a_dm(world):
    env, alice = world.env, world.alice
    heard = listen(env)
    user = env.create_user("dana")
    await user.slash("tictactoe")
    dm = user.dm_channel
    await resign(user, dm.last_message)

    (finished,) = heard.games
    assert finished.place is Place.DM
    assert finished.guild_id is None
    assert finished.game.ending is not None
    assert alice.id not in finished.game.players


@pytest.fixture
def as_group_dm(monkeypatch):
    """Users whose interactions come from a group DM, through their own install of the app
    (SimCord plays DMs with the bot only: the payload says where Discord would say)."""
    users: set[int] = set()
    build = simcord.interactions.base_payload

    def in_group_dm(*args, **kwargs):
        record, payload = build(*args, **kwargs)
        if kwargs["user_id"] in users:
            channel = dict(payload["channel"], type=discord.ChannelType.group.value)
            channel.setdefault("recipients", [])
            payload.update(
                channel=channel,
                context=2,  # a private channel
                authorizing_integration_owners={"1": str(kwargs["user_id"])},
            )
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", in_group_dm)
    return users


@pytest.mark.usefixtures("discord_rules")
async def test_a_game_in_a_group_dm_is_announced_as_such_and_user_installed(world, as_group_dm):
    env = world.env
    heard = listen(env)
    user = env.create_user("erin")
    as_group_dm.add(user.id)
    await user.slash("tictactoe")
    await resign(user, user.dm_channel.last_message)

    (finished,) = heard.games
    assert finished.place is Place.GROUP_DM
    assert finished.user_installed
    assert finished.guild_id is None


async def test_a_refused_final_edit_on_a_restored_board_is_announced_only_when_it_lands():
    """Memory lost the game (a restart); the click that ends it is refused by Discord (a 400):
    the player is told, the board still plays, and the game is announced when it ends for real."""
    async with await Harness.start(seed=0) as harness:
        channel = harness.create_guild("club").channels[0]
        alice, bob = harness.create_user("alice"), harness.create_user("bob")
        await harness.slash(alice, channel, "tictactoe", opponent=bob)
        await harness.click(bob, harness.last_message(channel), label="Accept")
        for cell, player in (((0, 0), alice), ((1, 0), bob), ((0, 1), alice), ((1, 1), bob)):
            await harness.click(player, harness.last_message(channel), cell=cell)
        shown = harness.last_message(channel)
        bot = harness.bot
        assert isinstance(bot, TicTacToeBot)
        cog = bot.get_cog("TicTacToe")
        assert isinstance(cog, TicTacToeCog)
        cog.table.store.clear()  # what a restart loses
        heard = listen_to(bot, lambda: len(harness.discord.requests))
        harness.discord.inject(Fault("callback", status=400, match=is_board_update))

        refused = await harness.click(alice, shown, cell=(0, 2))
        assert heard.games == []
        assert "wins" not in text(harness.last_message(channel))
        apology = refused.callbacks[-1].message
        assert apology is not None
        assert text(apology) == APOLOGY

        won = await harness.click(alice, harness.last_message(channel), cell=(0, 2))
        assert not won.ephemeral
    (finished,) = heard.games
    assert finished.game.winner_id == alice.id


def is_board_update(request) -> bool:
    return request.body["type"] == discord.InteractionResponseType.message_update.value
