"""Languages and reach, through SimCord: each user's Discord language, user installs.

SimCord always sends `locale: en-US` and no install context: the `payload_fields` fixture
(conftest.py) sets the fields Discord would send for a given user.
"""

import json

import discord
import pytest
from bot_helpers import (
    buttons,
    cell_buttons,
    click_cell,
    click_control,
    click_label,
    control_labels,
    text,
)

from bot import i18n
from bot.i18n.translator import CommandTranslator

# Known translations, as a German, Japanese or Brazilian user would read them.
GERMAN = {"hint": "Tipp", "resign": "Aufgeben", "turn": "ist am Zug", "taken": "schon belegt"}
JAPANESE = {"hint": "ヒント", "resign": "投了", "heading": "## 三目並べ", "turn": "の番です"}
BRAZILIAN = {"hint": "Dica", "resign": "Desistir", "heading": "## Jogo da velha", "turn": "Vez de"}

USE_EXTERNAL_APPS = discord.Permissions(use_external_apps=True).value
GUILD_INSTALL, USER_INSTALL = "0", "1"


async def test_a_german_game_stays_german_and_answers_speak_the_clickers_language(
    world, payload_fields
):
    channel, alice, bob, carol = world.channel, world.alice, world.bob, world.carol
    payload_fields[alice.id] = {"locale": "de"}
    payload_fields[bob.id] = {"locale": "ja"}
    payload_fields[carol.id] = {"locale": "pt-BR"}
    await alice.slash(channel, "tictactoe", opponent=bob)
    await click_label(bob, channel.last_message, "Annehmen")  # Accept, in German
    board = channel.last_message
    assert control_labels(board) == [GERMAN["resign"]]
    assert f"{alice.mention} {GERMAN['turn']}" in text(board)
    # bob (Japanese) plays out of turn: he is answered in Japanese, the board stays German.
    refused = await click_cell(bob, board, (1, 1))
    assert refused.ephemeral
    assert refused.response.content == f"今は {alice.mention} の番です。"
    # carol (Brazilian) is a stranger: answered in Portuguese.
    stranger = await click_cell(carol, board, (1, 1))
    assert stranger.ephemeral
    assert stranger.response.content.startswith("Esta partida é entre")
    # bob moves after alice: the board is still German, whoever clicked.
    await click_cell(alice, board, (0, 0))
    await click_cell(bob, channel.last_message, (1, 1))
    assert f"{alice.mention} {GERMAN['turn']}" in text(channel.last_message)
    taken = await click_cell(alice, channel.last_message, (1, 1))
    assert GERMAN["taken"] in taken.response.content


@pytest.mark.parametrize(("locale", "words"), [("ja", JAPANESE), ("pt-BR", BRAZILIAN)])
async def test_a_game_against_the_bot_in_the_starters_language(
    world, payload_fields, locale, words
):
    channel, alice = world.channel, world.alice
    payload_fields[alice.id] = {"locale": locale}
    await alice.slash(channel, "tictactoe")
    board = channel.last_message
    assert text(board).startswith(words["heading"])
    assert words["turn"] in text(board)
    assert control_labels(board) == [words["hint"], words["resign"]]
    hint = await click_control(alice, board, words["hint"])
    assert hint.ephemeral
    assert hint.response.content.startswith("💡")
    assert "Hint" not in hint.response.content


async def test_the_language_survives_a_restart(world, payload_fields):
    from bot_helpers import make_bot

    env, channel, alice = world.env, world.channel, world.alice
    payload_fields[alice.id] = {"locale": "ja"}
    await alice.slash(channel, "tictactoe")
    await env.restart_bot(make_bot(seed=1))
    payload_fields[alice.id] = {"locale": "en-US"}  # alice switched her Discord to English
    await click_cell(alice, channel.last_message, (0, 0))
    assert text(channel.last_message).startswith(JAPANESE["heading"])


async def test_commands_are_uploaded_with_every_language(world):
    puts = [
        r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    ]
    commands = {command["name"]: command for command in puts[-1].json}
    slash = commands["tictactoe"]
    assert (
        slash["description_localizations"]["de"]
        == "Spiel Tic-Tac-Toe gegen mich oder gegen Freunde"
    )
    assert set(slash["description_localizations"]) == {
        locale.value for locale in discord.Locale if locale is not discord.Locale.american_english
    }
    menu = commands["Challenge to Tic-Tac-Toe"]
    assert menu["type"] == discord.AppCommandType.user.value
    assert menu["name_localizations"]["fr"] == "Défier au morpion"
    assert slash["integration_types"] == [0, 1]
    assert slash["contexts"] == [0, 1, 2]


async def test_the_uploaded_commands_are_what_every_catalog_says(world):
    """The sync looks the commands' strings up one locale at a time (CommandTranslator.prepare):
    the same payloads as looking each string up in every catalog as it is asked for."""
    puts = [
        r for r in world.env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    ]
    tree = world.env.bot.tree
    direct = CommandTranslator(i18n.translations)
    expected = [
        await command.get_translated_payload(tree, direct) for command in tree.get_commands()
    ]
    assert puts[-1].json == json.loads(json.dumps(expected))


async def test_the_member_menu_opens_the_same_challenge(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    result = await alice.context_menu(channel, "Challenge to Tic-Tac-Toe", target=bob)
    assert not result.ephemeral
    message = channel.last_message
    assert f"{bob.mention}, {alice.mention} challenges you!" in text(message)
    assert [b["label"] for b in buttons(message)] == ["Accept", "Decline"]


async def test_a_user_install_where_apps_must_stay_private(world, payload_fields):
    """Installed to alice's account only, in a server that denies "Use External Apps": Discord
    would make every answer private, so the bot offers a game only alice sees."""
    channel, alice, bob = world.channel, world.alice, world.bob
    payload_fields[alice.id] = {
        "authorizing_integration_owners": {USER_INSTALL: str(alice.id)},
        "_deny": USE_EXTERNAL_APPS,  # the server's choice
    }
    result = await alice.slash(channel, "tictactoe", opponent=bob)
    assert result.ephemeral
    private_board = result.response.message
    assert (
        text(private_board)
        .splitlines()[3]
        .startswith("🔒 This server keeps apps' messages private")
    )
    assert len(cell_buttons(private_board)) == 9
    # The private board plays, and does not hold the channel for anyone else.
    moved = await click_cell(alice, private_board, (0, 0))
    assert not moved.ephemeral or moved.response.id == private_board.id
    assert not (await bob.slash(channel, "tictactoe")).ephemeral


async def test_a_private_board_can_be_resigned(world, payload_fields):
    """The confirmation is pressed on another private message: it must still find the board,
    which lives in alice's own slot, not the channel's."""
    channel, alice = world.channel, world.alice
    payload_fields[alice.id] = {
        "authorizing_integration_owners": {USER_INSTALL: str(alice.id)},
        "_deny": USE_EXTERNAL_APPS,
    }
    private_board = (await alice.slash(channel, "tictactoe")).response.message
    asked = await click_control(alice, private_board, "Resign")
    confirmed = await click_label(alice, asked.followups[0].message, "Yes, resign")
    assert confirmed.response.content.startswith("You resigned.")
    (board,) = [m for m in channel.history(viewer=alice) if m.id == private_board.id]
    assert "resigned" in text(board)
    assert control_labels(board) == ["Rematch", "Review"]


async def test_a_user_install_where_public_answers_are_allowed(world, payload_fields):
    channel, alice = world.channel, world.alice
    payload_fields[alice.id] = {
        "authorizing_integration_owners": {USER_INSTALL: str(alice.id)},
        "_allow": USE_EXTERNAL_APPS,
    }
    result = await alice.slash(channel, "tictactoe")
    assert not result.ephemeral
