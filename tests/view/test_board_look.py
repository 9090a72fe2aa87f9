"""A board with its server's look: the marks' emoji on the cells and wherever the text names a
mark, in the JSON Discord gets (a partial emoji, no label), within Discord's rules."""

import itertools
from typing import TYPE_CHECKING, cast

import discord
from bot_helpers import (
    BLANK,
    cell_buttons,
    check_limits,
    click_cell,
    heading,
    payload_problems,
)
from brute_force import reachable_positions, to_board

import tictactoe as ttt
from bot.core import codec
from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Challenge, Game, freeze_board
from bot.core.server import Look, Mark
from bot.records.api import GameRecord
from bot.ui import card_view
from bot.view import components
from bot.view.board import ACCENT_NEUTRAL, ACCENT_WIN, render_challenge, render_game
from fake_discord import emoji_text, validate_message

if TYPE_CHECKING:
    from discord.types.components import ButtonComponent

ALICE, BOB, BOT_ID = 111111111111111111, 222222222222222222, 999999999999999999
BOARD_MESSAGE = 1_456_074_443_980_800_012  # a game's id: its board message's
DEADLINE = 1767225600
CROSS = Mark("cross", 1180000000000000000)  # a server's custom emoji
SPINNER = Mark("spinner", 1190000000000000000, animated=True)
SMILE = Mark("🙂")
CUSTOM_X = Look(120, CROSS, SMILE)  # X a custom emoji, O a standard one
ANIMATED_O = Look(None, None, SPINNER)  # X the letter
DANGER, PRIMARY = discord.ButtonStyle.danger.value, discord.ButtonStyle.primary.value
SECONDARY, SUCCESS = discord.ButtonStyle.secondary.value, discord.ButtonStyle.success.value


def with_look(game: Game, look: Look) -> Game:
    return Game(
        game.x_player,
        game.o_player,
        game.difficulty,
        game.board,
        game.moves,
        game.ending,
        game.locale,
        look,
    )


# Digits of base 62, as the codec's layout writes a custom emoji's id (bot/core/codec.py).
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def base62(number: int) -> str:
    digits = ""
    while number:
        number, digit = divmod(number, 62)
        digits = BASE62[digit] + digits
    return digits or "0"


# What each look adds to a custom_id after the locale: `:<timeout>:<x>:<o>`, `-` the default,
# `c` a custom emoji and `a` an animated one by its id, a standard emoji as itself.
LOOK_SUFFIXES = {
    CUSTOM_X: f":120:c{base62(CROSS.emoji_id or 0)}:🙂",
    ANIMATED_O: f":-:-:a{base62(SPINNER.emoji_id or 0)}",
}


def cell_ids(cells, look: Look) -> list[str]:
    """The custom_ids of a two-person board's cells (its move order unknown: `b` and the nine
    cells), in the codec's documented layout: `ttt2:<cell>:<play>:<x>:<o>:<level>:<ending>:
    <locale><look>`."""
    play = "b" + "".join(mark or "-" for mark in cells)
    return [f"ttt2:{cell}:{play}:{ALICE}:{BOB}:-:-:en-US{LOOK_SUFFIXES[look]}" for cell in range(9)]


def cell_json(card) -> list[dict]:
    (container,) = components.card_components(card)
    rows = [c for c in container["components"] if c["type"] == components.ACTION_ROW][:3]
    return [button for row in rows for button in row["components"]]


def test_cells_show_the_marks_emoji_alone_on_every_position():
    """Every reachable position, in both looks: a marked cell shows its mark's emoji and no
    label (the letter where the look has none), styles as without a look, JSON as the spec."""
    custom = {"id": str(CROSS.emoji_id), "name": "mark", "animated": False}
    animated = {"id": str(SPINNER.emoji_id), "name": "mark", "animated": True}
    for cells in reachable_positions():
        game = Game(ALICE, BOB, None, freeze_board(to_board(cells)))
        plain = render_game(game, BOT_ID, DEADLINE)
        for look, shown in ((CUSTOM_X, (custom, {"name": "🙂"})), (ANIMATED_O, (None, animated))):
            card = render_game(with_look(game, look), BOT_ID, DEADLINE)
            buttons = cell_json(card)
            for index, (mark, button, before, custom_id) in enumerate(
                zip(cells, buttons, cell_json(plain), cell_ids(cells, look), strict=True)
            ):
                emoji = None if mark is None else shown[mark == ttt.O]
                expected = {"type": 2, "style": before["style"], "custom_id": custom_id}
                if emoji is None:
                    expected["label"] = mark or BLANK
                else:
                    expected["emoji"] = emoji
                assert button == expected, (cells, index)
                assert button["custom_id"].startswith(before["custom_id"])  # plus the look


def test_cell_json_is_the_buttons_the_card_describes():
    """The JSON of a board's cells, built from its Cells at once, is `button` of each of
    `card.rows`, with a look as without one."""
    game = Game.from_moves(ALICE, AI, "hard", (4, 0, 8), look=CUSTOM_X)
    card = render_game(game, BOT_ID, DEADLINE)
    assert cell_json(card) == [components.button(spec) for row in card.rows for spec in row]
    assert [spec.emoji for row in card.rows for spec in row] == [
        SMILE,
        None,
        None,
        None,
        CROSS,
        None,
        None,
        None,
        CROSS,
    ]


def test_the_text_names_marks_by_their_emoji():
    game = Game.from_moves(ALICE, BOB, None, (4, 0), look=CUSTOM_X)
    card = render_game(game, BOT_ID, DEADLINE)
    assert card.heading == (
        f"## Tic-Tac-Toe\n🟥 **<:mark:{CROSS.emoji_id}>** <@{ALICE}>\n🟦 **🙂** <@{BOB}>"
    )
    assert card.body == (
        "Last move: **🙂** → top left.\n"
        f"▶️ <@{ALICE}> to move (<:mark:{CROSS.emoji_id}>). Time runs out <t:{DEADLINE}:R>."
    )
    against_bot = Game.from_moves(AI, ALICE, "easy", (4,), look=ANIMATED_O)
    card = render_game(against_bot, BOT_ID, DEADLINE)
    assert card.heading == (
        f"## Tic-Tac-Toe\n🟥 **X** <@{BOT_ID}> · Difficulty: Easy\n"
        f"🟦 **<a:mark:{SPINNER.emoji_id}>** <@{ALICE}>"
    )
    assert card.body.split("\n") == [
        "Last move: **X** → centre.",
        f"▶️ <@{ALICE}> to move (<a:mark:{SPINNER.emoji_id}>). Time runs out <t:{DEADLINE}:R>.",
    ]


def test_a_timeout_alone_changes_no_look():
    game = Game.from_moves(ALICE, BOB, None, (4, 0))
    timed = render_game(with_look(game, Look(600)), BOT_ID, DEADLINE)
    plain = render_game(game, BOT_ID, DEADLINE)
    assert (timed.heading, timed.body, timed.accent) == (plain.heading, plain.body, plain.accent)
    assert timed.cells is not None
    assert plain.cells is not None
    assert timed.cells.emojis is None
    assert (timed.cells.styles, timed.cells.labels) == (plain.cells.styles, plain.cells.labels)


def test_a_challenge_names_the_marks_by_their_emoji():
    card = render_challenge(Challenge(ALICE, BOB, ttt.O, look=CUSTOM_X), DEADLINE)
    assert card.body.split("\n")[0] == (
        f"<@{BOB}>, <@{ALICE}> challenges you! <@{ALICE}> plays **🙂**, "
        f"you play **<:mark:{CROSS.emoji_id}>**. **<:mark:{CROSS.emoji_id}>** moves first."
    )
    assert all(len(button.custom_id) <= 100 for button in card.controls)


def test_a_challenge_with_letters_says_x_moves_first():
    card = render_challenge(Challenge(ALICE, BOB, ttt.X), DEADLINE)
    assert card.body.split("\n")[0] == (
        f"<@{BOB}>, <@{ALICE}> challenges you! <@{ALICE}> plays **X**, you play **O**. "
        "**X** moves first."
    )


def test_a_game_that_ran_out_of_time_names_the_winner_once_both_sides_moved():
    both_moved = Game.from_moves(ALICE, BOB, None, (4, 0, 8)).expire()  # O to move
    card = render_game(both_moved, BOT_ID)
    assert card.body.split("\n")[-1] == (f"⏱️ <@{BOB}> ran out of time: **<@{ALICE}> wins.**")
    assert card.accent == ACCENT_WIN
    against_bot = Game.from_moves(AI, ALICE, "easy", (4, 0, 8)).expire()  # O: Alice to move
    assert render_game(against_bot, BOT_ID).body.split("\n")[-1] == (
        f"⏱️ <@{ALICE}> ran out of time: **<@{BOT_ID}> wins.**"
    )
    # Abandoned before both sides moved: nobody wins, as the records count it.
    for moves in ((), (4,)):
        abandoned = Game.from_moves(ALICE, BOB, None, moves).expire()
        late = ALICE if len(moves) % 2 == 0 else BOB
        card = render_game(abandoned, BOT_ID)
        assert card.body.split("\n")[-1] == f"⏱️ <@{late}> ran out of time: the game is over."
        assert card.accent == ACCENT_NEUTRAL


def test_an_expired_board_names_the_winner_the_records_count():
    for length in range(5):
        for moves in itertools.permutations(range(9), length):
            game = Game.from_moves(ALICE, BOB, None, moves)
            if game.is_over:
                continue
            expired = game.expire()
            record = GameRecord.from_finished(
                FinishedGame(BOARD_MESSAGE, expired, 1.0e9, None, Place.DM, False)
            )
            status = render_game(expired, BOT_ID).body.split("\n")[-1]
            if record.winner is None:
                assert status.endswith("ran out of time: the game is over."), moves
            else:
                winner = ALICE if record.winner == ttt.X else BOB
                assert status.endswith(f"ran out of time: **<@{winner}> wins.**"), moves


def test_boards_with_emoji_are_messages_discord_takes():
    """Through discord.py (as the bot sends it) and Discord's rules (fake_discord), and the
    cells read back by discord.py show the emoji."""
    games = [
        Game.from_moves(ALICE, BOB, None, (4, 0, 8, 2, 6), look=CUSTOM_X),  # on
        Game.from_moves(ALICE, AI, "hard", (0, 3, 1, 4, 2), look=ANIMATED_O),  # won
        Game.from_moves(BOB, ALICE, None, (0, 4, 8, 1, 7, 6, 2, 5, 3), look=CUSTOM_X),  # drawn
    ]
    for game in games:
        card = render_game(game, BOT_ID, DEADLINE)
        payload = {"components": card_view(card).to_components()}
        assert payload_problems(payload) == []
        flags = components.COMPONENTS_V2_FLAG
        assert validate_message({"flags": flags, "components": components.card_components(card)})
    cells = cell_json(render_game(games[0], BOT_ID))
    read = [discord.Button(cast("ButtonComponent", button)) for button in cells]
    assert read[4].emoji == discord.PartialEmoji(name="mark", id=CROSS.emoji_id)
    assert read[0].emoji == discord.PartialEmoji(name="🙂")
    assert str(read[4].emoji) == f"<:mark:{CROSS.emoji_id}>"
    assert read[1].label == BLANK
    assert read[4].label is None


async def test_a_board_with_a_look_plays_on_through_the_bot_and_keeps_it(world):
    """A board the bot posted with its server's look (found as a restart finds it): a click
    is played by the real bot, and the board it draws shows and carries the same look."""
    env, channel, alice = world.env, world.channel, world.alice
    cross = Mark("mark", world.guild.create_emoji("mark").id)  # the server's own emoji
    look = Look(None, cross, SMILE)
    game = Game.from_moves(alice.id, AI, "impossible", (), look=look)
    bot = env.bot
    board = render_game(game, bot.user.id)
    await bot.get_channel(channel.id).send(view=card_view(board))

    result = await click_cell(alice, channel.last_message, (0, 0))
    assert not result.ephemeral
    message = channel.last_message
    cells = cell_buttons(message)
    shown = [emoji_text(cell["emoji"]) if cell.get("emoji") else cell["label"] for cell in cells]
    assert shown.count(f"<:mark:{cross.emoji_id}>") == 1
    assert shown.count("🙂") == 1  # the bot's reply, in the look's O
    assert shown[0] == f"<:mark:{cross.emoji_id}>"
    assert shown.count(BLANK) == 7
    assert heading(message).split("\n")[1:] == [
        f"🟥 **<:mark:{cross.emoji_id}>** {alice.mention}",
        f"🟦 **🙂** {bot.user.mention} · Difficulty: Impossible",
    ]
    assert all(codec.decode(cell["custom_id"]).state.look == look for cell in cells)
    check_limits(message)
