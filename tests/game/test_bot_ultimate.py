"""Ultimate Tic-Tac-Toe through SimCord, as a user plays it: /tictactoe variant:ultimate, the
picture of the whole board with the message, the picker, a move answered at once and the bot's
reply a moment later on the same message (a new picture), a challenge accepted into an ultimate
game, and the workers gone when the bot closes."""

import asyncio

import pytest
from bot_helpers import buttons, heading, text

from bot.app import TicTacToeBot
from bot.core.server import ServerSettings
from bot.kinds.ultimate import codec
from fake_discord import as_json, reading

pytestmark = pytest.mark.usefixtures("discord_rules")


def is_grid(button: dict) -> bool:
    return button["custom_id"].split(":")[1][0] in "p012345678"


def grid(message) -> list[dict]:
    return [b for b in buttons(message) if is_grid(b)]


def last_answer(env) -> dict:
    """The message body of the last interaction's answer, as the bot sent it."""
    (*_, request) = (
        r for r in env.http_requests if r.method == "POST" and r.path.endswith("/callback")
    )
    return request.json["data"]


def enabled(message) -> list[dict]:
    return [b for b in grid(message) if not b.get("disabled")]


async def bot_has_moved(env) -> None:
    bot = env.bot
    assert isinstance(bot, TicTacToeBot)
    while bot.table._background:
        await asyncio.gather(*list(bot.table._background))
    await env.settle()


async def test_a_game_against_the_bot_shows_the_whole_board_and_the_bot_replies(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="easy")
    board = channel.last_message
    assert "Ultimate Tic-Tac-Toe" in heading(board)
    assert "pick a board, then a cell" in text(board)
    (item,) = reading.gallery_items(as_json(board))
    assert item["description"].startswith("The whole Ultimate Tic-Tac-Toe board")
    (attachment,) = board.attachments
    assert attachment.filename == "ultimate.png"
    first_picture = await attachment.read()
    assert first_picture.startswith(b"\x89PNG")
    picks = enabled(board)
    assert [b["label"] for b in picks] == [str(n) for n in range(1, 10)]
    await alice.click(board, custom_id=picks[4]["custom_id"])  # the centre board
    board = channel.last_message
    cells = enabled(board)
    assert len(cells) == 9
    assert "Back" in [b.get("label") for b in buttons(board)]
    await alice.click(board, custom_id=cells[0]["custom_id"])  # its top left cell
    answer = last_answer(env)  # the click's own answer, before the bot thought
    assert "Last move: **X** → centre board, top left." in reading.text(answer)
    assert "is thinking" in reading.text(answer)
    assert not [b for b in reading.buttons(answer) if is_grid(b) and not b.get("disabled")]
    await bot_has_moved(env)  # then shown by editing the message
    board = channel.last_message
    assert "Last move: **O** → top left board," in text(board)
    assert "to move (X)" in text(board)
    (attachment,) = board.attachments
    assert (await attachment.read()) != first_picture
    assert enabled(board)


async def test_a_challenge_accepted_becomes_an_ultimate_game_between_people(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    await alice.slash(channel, "tictactoe", opponent=bob, variant="ultimate")
    challenge = channel.last_message
    assert "Ultimate Tic-Tac-Toe challenge" in heading(challenge)
    (accept,) = [b for b in buttons(challenge) if b.get("label") == "Accept"]
    assert accept["custom_id"].startswith(codec.PREFIX)
    await bob.click(challenge, custom_id=accept["custom_id"])
    board = channel.last_message
    assert "Ultimate Tic-Tac-Toe" in heading(board)
    assert len(enabled(board)) == 9
    assert "Hint" not in [b.get("label") for b in buttons(board)]  # between people


async def test_the_workers_stop_with_the_bot(world):
    env, channel, alice = world.env, world.channel, world.alice
    await alice.slash(channel, "tictactoe", variant="ultimate", difficulty="easy", play_as="O")
    await bot_has_moved(env)
    bot = env.bot
    assert bot.thinkers is not None
    assert bot.thinkers.pids  # a worker thought the bot's opening move
    await bot.thinkers.close()
    assert not bot.thinkers.pids


async def test_a_server_whose_default_is_ultimate_starts_it_when_no_variant_is_named(world):
    env, channel, alice = world.env, world.channel, world.alice
    env.bot.server_settings.put(
        world.guild.id, ServerSettings(games_per_channel=2, variant="ultimate")
    )
    await alice.slash(channel, "tictactoe")
    assert "Ultimate Tic-Tac-Toe" in heading(channel.last_message)
    await world.bob.slash(channel, "tictactoe", variant="classic")  # named: the classic board
    assert heading(channel.last_message).startswith("## Tic-Tac-Toe")
