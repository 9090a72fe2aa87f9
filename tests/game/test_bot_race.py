"""Clicks racing for one game, through discord.py's real interaction dispatch.

The harness (fake_discord/) feeds INTERACTION_CREATE payloads to the real bot and answers its
REST calls in-process. `race(..., paused=False)` parses every click before any handler runs, so
the later ones are stale when handled; `paused=True` holds Discord's answers until every handler
has sent its request, so all the clicks are in flight at once.
"""

import gc

import discord
import pytest
from bot_helpers import APOLOGY

import tictactoe as ttt
from bot.app import TicTacToeBot
from bot.game.cog import TicTacToeCog
from fake_discord import Harness, board, first_empty, is_over, marks, text

BOARD_CHANGED = "The board changed before your click landed. Look again."
RACED = "Someone else's click got there first. Look again."
UPDATE_MESSAGE = discord.InteractionResponseType.message_update
CHANNEL_MESSAGE = discord.InteractionResponseType.channel_message


@pytest.fixture
async def harness():
    harness = await Harness.start(seed=0)
    try:
        yield harness
    finally:
        await harness.close()


@pytest.fixture
def world(harness):
    guild = harness.create_guild("club", channels=1)
    alice, bob = harness.create_user("alice"), harness.create_user("bob")
    return harness, guild.channels[0], alice, bob


def live_games(harness) -> int:
    """The bot's count of live games and challenges."""
    return len(harness.bot.table.store)


def assert_one_answer_each(*sent) -> None:
    for one in sent:
        assert len(one.requests) == 1, [(r.route, r.type, r.status) for r in one.requests]
        (request,) = one.requests
        assert request.route == "callback"
        assert request.succeeded


def split_winner(sent):
    """(the click that updated the board, the other one); asserts there is exactly one."""
    updates = [one for one in sent if one.response.type == UPDATE_MESSAGE]
    others = [one for one in sent if one.response.type != UPDATE_MESSAGE]
    assert len(updates) == 1, [(one.response.type, one.response.message) for one in sent]
    return updates[0], others


def assert_private(sent, *texts) -> None:
    response = sent.response
    assert response.type == CHANNEL_MESSAGE
    assert response.ephemeral
    assert text(response.message) in texts


async def start_vs_bot(harness, channel, user, *moves):
    """A game against the bot with `moves` already played; its board message."""
    started = await harness.slash(user, channel, "tictactoe")
    assert started.response.type == CHANNEL_MESSAGE
    assert not started.ephemeral
    for cell in moves:
        result = await harness.click(user, harness.last_message(channel), cell=cell)
        assert result.response.type == UPDATE_MESSAGE
    return harness.last_message(channel)


@pytest.mark.parametrize("paused", [False, True], ids=["stale", "in-flight"])
@pytest.mark.parametrize(
    "cells", [((0, 0), (2, 2)), ((0, 0), (0, 0))], ids=["two-cells", "same-cell"]
)
async def test_a_double_click_against_the_bot_lands_once(world, paused, cells):
    harness, channel, alice, _ = world
    shown = await start_vs_bot(harness, channel, alice)
    sent = await harness.race(
        *(lambda cell=cell: harness.dispatch_click(alice, shown, cell=cell) for cell in cells),
        paused=paused,
    )
    assert_one_answer_each(*sent)
    winner, (loser,) = split_winner(sent)
    assert_private(loser, BOARD_CHANGED, RACED)
    winning_cell = cells[sent.index(winner)]
    final = harness.last_message(channel)
    assert final["id"] == shown["id"]
    assert winner.response.message["id"] == shown["id"]
    placed = marks(final)
    assert [cell for cell, mark in placed.items() if mark == ttt.X] == [winning_cell]
    assert list(placed.values()).count(ttt.O) == 1  # the bot's one reply
    # The game goes on from the board that won the race.
    follow_up = await harness.click(alice, final, cell=first_empty(final))
    assert follow_up.response.type == UPDATE_MESSAGE


@pytest.mark.parametrize(
    ("paused", "second"),
    [
        pytest.param(
            False,
            {"cell": (1, 2)},
            id="stale-cell",
        ),
        pytest.param(True, {"cell": (1, 2)}, id="in-flight-cell"),
        pytest.param(
            False,
            {"label": "Hint"},
            id="stale-hint",
        ),
        pytest.param(
            True,
            {"label": "Hint"},
            id="in-flight-hint",
        ),
        pytest.param(False, {"label": "Resign"}, id="stale-resign"),
        pytest.param(True, {"label": "Resign"}, id="in-flight-resign"),
    ],
)
async def test_a_click_racing_the_final_move_does_not_reopen_the_game(world, paused, second):
    harness, channel, alice, _ = world
    # X (0,0) -> O (1,1); X (0,1) -> O (0,2); now X (1,0) lets the bot win on (2,0).
    shown = await start_vs_bot(harness, channel, alice, (0, 0), (0, 1))
    sent = await harness.race(
        lambda: harness.dispatch_click(alice, shown, cell=(1, 0)),
        lambda: harness.dispatch_click(alice, shown, **second),
        paused=paused,
    )
    assert_one_answer_each(*sent)
    winner, (loser,) = split_winner(sent)
    assert winner is sent[0]
    assert loser.response.type == CHANNEL_MESSAGE
    assert loser.response.ephemeral
    assert text(loser.response.message) != APOLOGY
    final = harness.last_message(channel)
    assert board(final) == [[ttt.X, ttt.X, ttt.O], [ttt.X, ttt.O, None], [ttt.O, None, None]]
    assert is_over(final)
    assert live_games(harness) == 0


@pytest.mark.parametrize("paused", [False, True], ids=["stale", "in-flight"])
@pytest.mark.parametrize("bob_first", [False, True], ids=["alice-first", "bob-first"])
async def test_both_players_clicking_the_same_board_land_once(world, paused, bob_first):
    harness, channel, alice, bob = world
    challenged = await harness.slash(alice, channel, "tictactoe", opponent=bob)
    assert not challenged.ephemeral
    accepted = await harness.click(bob, harness.last_message(channel), label="Accept")
    assert accepted.response.type == UPDATE_MESSAGE
    shown = harness.last_message(channel)  # alice plays X and moves first
    clicks = [
        lambda: harness.dispatch_click(alice, shown, cell=(0, 0)),
        lambda: harness.dispatch_click(bob, shown, cell=(1, 1)),
    ]
    if bob_first:
        clicks.reverse()
    sent = await harness.race(*clicks, paused=paused)
    assert_one_answer_each(*sent)
    winner, (loser,) = split_winner(sent)
    assert winner.user_id == alice.id
    assert_private(loser, BOARD_CHANGED, RACED, f"It's {alice.mention}'s turn.")
    final = harness.last_message(channel)
    assert marks(final) == {(0, 0): ttt.X}
    assert f"{bob.mention} to move (O)." in text(final)


@pytest.mark.parametrize("paused", [False, True], ids=["stale", "in-flight"])
async def test_decline_and_accept_racing_land_once(world, paused):
    harness, channel, alice, bob = world
    await harness.slash(alice, channel, "tictactoe", opponent=bob)
    shown = harness.last_message(channel)
    sent = await harness.race(
        lambda: harness.dispatch_click(bob, shown, label="Decline"),
        lambda: harness.dispatch_click(bob, shown, label="Accept"),
        paused=paused,
    )
    assert_one_answer_each(*sent)
    winner, (loser,) = split_winner(sent)
    assert winner is sent[0]
    assert loser.response.type == CHANNEL_MESSAGE
    assert loser.response.ephemeral
    assert text(harness.last_message(channel)).endswith(
        f"{bob.mention} declined {alice.mention}'s challenge."
    )
    assert live_games(harness) == 0


async def test_a_hundred_games_in_a_hundred_channels_progress_independently(harness):
    guilds = [harness.create_guild(f"server {n}", channels=50) for n in range(2)]
    channels = [channel for guild in guilds for channel in guild.channels]
    players = [harness.create_user(f"player{n}") for n in range(len(channels))]
    levels = ["easy", "medium", "hard", "impossible"]
    options = [
        {"play_as": "X" if n % 2 == 0 else "O", "difficulty": levels[n % 4]}
        for n in range(len(channels))
    ]

    # Every game is started before any start is answered.
    started = await harness.race(
        *(
            lambda n=n: harness.dispatch_slash(players[n], channels[n], "tictactoe", **options[n])
            for n in range(len(channels))
        )
    )
    assert_one_answer_each(*started)
    messages = {}
    for n, (sent, channel, player) in enumerate(zip(started, channels, players, strict=True)):
        assert sent.response.type == CHANNEL_MESSAGE
        assert not sent.ephemeral
        message = harness.last_message(channel)
        assert message["id"] == sent.response.message["id"]
        assert player.mention in text(message)
        expected_marks = 0 if options[n]["play_as"] == "X" else 1
        assert len(marks(message)) == expected_marks
        messages[n] = message
    assert len({message["id"] for message in messages.values()}) == len(channels)
    assert live_games(harness) == len(channels)

    def pick(n: int, message) -> tuple[int, int]:
        empty = [
            (i, j) for i, row in enumerate(board(message)) for j, mark in enumerate(row) if not mark
        ]
        return empty[0] if n % 3 else empty[-1]

    live = set(messages)
    rounds = 0
    while live:
        rounds += 1
        order = sorted(live)
        chosen = {n: pick(n, messages[n]) for n in order}
        sent = await harness.race(
            *(
                lambda n=n, cell=chosen[n]: harness.dispatch_click(
                    players[n], messages[n], cell=cell
                )
                for n in order
            )
        )
        assert_one_answer_each(*sent)
        for n, one in zip(order, sent, strict=True):
            before, after = marks(messages[n]), harness.last_message(channels[n])
            assert one.response.type == UPDATE_MESSAGE
            assert after["id"] == messages[n]["id"]
            now = marks(after)
            assert before.items() <= now.items()
            mine = ttt.X if options[n]["play_as"] == "X" else ttt.O
            assert now[chosen[n]] == mine
            added = set(now) - set(before)
            over = is_over(after)
            # the player's mark, plus the bot's reply unless the player's mark ended the game
            assert len(added) in ((1, 2) if over else (2,))
            assert players[n].mention in text(after)
            messages[n] = after
            if over:
                live.discard(n)
    assert rounds <= 5
    assert live_games(harness) == 0
    for n in messages:
        shown = board(messages[n])
        assert ttt.terminal(shown)
        if options[n]["difficulty"] == "impossible":
            assert ttt.winner(shown) != (ttt.X if options[n]["play_as"] == "X" else ttt.O)


async def test_the_harness_shuts_down_cleanly():
    harness = await Harness.start(seed=1)
    channel = harness.create_guild("club").channels[0]
    alice = harness.create_user("alice")
    await start_vs_bot(harness, channel, alice, (0, 0))
    bot = harness.bot
    assert isinstance(bot, TicTacToeBot)
    cog = bot.get_cog("TicTacToe")
    assert isinstance(cog, TicTacToeCog)
    assert cog.table.store.count(channel.id) == 1
    assert cog.table.store.next_deadline() is not None
    await harness.close()
    assert harness.bot.is_closed()
    assert len(cog.table.store) == 0  # cleared when the cog was unloaded
    assert cog.table.store.next_deadline() is None
    assert bot.get_cog("TicTacToe") is None


async def test_handled_interactions_leave_no_garbage_to_collect(world):
    """A command or click is freed as soon as its handler ends, not left in a reference cycle
    for the garbage collector, whose full collections are what pause a busy bot."""
    harness, channel, alice, _ = world
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage
    try:
        await harness.slash(alice, channel)
        for _ in range(3):
            shown = harness.last_message(channel)
            await harness.click(alice, shown, cell=first_empty(shown))
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if type(o).__module__.startswith("discord")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []
