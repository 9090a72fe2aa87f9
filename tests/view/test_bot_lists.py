"""Lists of cells in the reader's language, and the Review's layout, as a player reads them.

A hint or a review that names several cells joins them as the language does (CLDR's list
patterns, through Babel): "a, b, and c" in American English, "a, b und c" in German, "a、b和c" in
Chinese, "aまたはb" in Japanese; "or" where the sentence offers a choice. The Review's first
mistake and result come after its numbered moves, not inside the last one.
"""

# Chinese and Japanese texts, as they are read, use full-width punctuation.
# ruff: noqa: RUF001

from __future__ import annotations

import babel.lists
import pytest
from bot_helpers import board_of, click_cell, click_label, make_bot
from markdown_it import MarkdownIt

from bot.core.game import AI, Game
from bot.i18n import LOCALES, ListStyle, babel_locale, translations
from bot.view.teaching import render_hint, render_review
from bot.view.words import cell_name

ALICE, BOB, BOT_ID = 101, 202, 999


def label(locale: str, text: str) -> str:
    """A button's label as a player of `locale` sees it."""
    return translations(locale).gettext(text)


# ------------------------------------------------------------------ a hint: a choice ("or")

# The bot (seed 5) opens in the centre; against that, only a corner keeps the draw.
CORNER_HINT = {
    "en-US": "Only a corner keeps the draw: top left, top right, bottom left, or bottom right.",
    "de": "Nur eine Ecke sichert das Unentschieden: "
    "oben links, oben rechts, unten links oder unten rechts.",
    "ja": "引き分けに持ち込めるのは角だけです：左上、右上、左下、または右下。",
    "zh-CN": "只有角落能保住平局：左上、右上、左下或右下。",
}


@pytest.fixture
def simcord_bot():
    return make_bot(seed=5)


@pytest.mark.parametrize("locale", sorted(CORNER_HINT))
async def test_a_hint_offers_its_cells_as_a_choice_in_the_players_language(
    world, payload_fields, locale
):
    channel, alice = world.channel, world.alice
    payload_fields[alice.id] = {"locale": locale}
    await alice.slash(channel, "tictactoe", play_as="O")
    assert board_of(channel.last_message) == [[None] * 3, [None, "X", None], [None] * 3]

    hint = await click_label(alice, channel.last_message, label(locale, "Hint"))

    assert hint.ephemeral
    assert hint.response.content.splitlines()[-1] == CORNER_HINT[locale]


# ------------------------------------------------------------------ a review: all of them ("and")

# Between friends: O's reply on an edge (move 2) loses; each corner would have kept the draw.
FRIEND_GAME = ((1, 1), (0, 1), (0, 0), (2, 2), (2, 0), (1, 0), (0, 2))
FIRST_MISTAKE = {
    "en-US": "First mistake: move 2 (O → top middle) turned a draw into a loss; moves that kept "
    "the draw: top left, top right, bottom left, and bottom right.",
    "de": "Erster Fehler: Zug 2 (O → oben Mitte) machte aus einem Unentschieden eine Niederlage; "
    "Züge, die das Unentschieden gesichert hätten: "
    "oben links, oben rechts, unten links und unten rechts.",
    "ja": "最初のミス：2手目（O → 上中央）で引き分けが負けになりました。"
    "引き分けを保てた手：左上、右上、左下、右下。",
    "zh-CN": "第一个失误：第 2 步（O → 中上）把平局变成了败局；"
    "能保住平局的走法：左上、右上、左下和右下。",
}


async def play_friend_game(world, payload_fields, locale: str):
    """alice (X) and bob (O), both reading `locale`, play FRIEND_GAME; alice's Review."""
    channel, alice, bob = world.channel, world.alice, world.bob
    payload_fields[alice.id] = payload_fields[bob.id] = {"locale": locale}
    await alice.slash(channel, "tictactoe", opponent=bob)
    await click_label(bob, channel.last_message, label(locale, "Accept"))
    for ply, cell in enumerate(FRIEND_GAME):
        await click_cell(alice if ply % 2 == 0 else bob, channel.last_message, cell)
    return await click_label(alice, channel.last_message, label(locale, "Review"))


@pytest.mark.parametrize("locale", sorted(FIRST_MISTAKE))
async def test_a_review_lists_every_move_that_held_in_the_players_language(
    world, payload_fields, locale
):
    review = await play_friend_game(world, payload_fields, locale)

    assert review.ephemeral
    lines = review.response.content.splitlines()
    assert lines[-2] == FIRST_MISTAKE[locale]


def blocks(markdown: str) -> list[tuple[str, list[str]]]:
    """The top-level blocks of a message as Markdown reads it, each with its texts: a
    paragraph's one text, or a list's items."""
    found: list[tuple[str, list[str]]] = []
    depth = 0
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.nesting == 1 and depth == 0:
            found.append((token.type.removesuffix("_open"), []))
        depth += token.nesting
        if token.type == "inline":
            found[-1][1].append(token.content)
    return found


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_the_first_mistake_and_the_result_come_after_the_numbered_moves(
    world, payload_fields, locale
):
    review = await play_friend_game(world, payload_fields, locale)

    content = review.response.content
    numbered = [line for line in content.splitlines() if line[:1].isdigit()]
    assert len(numbered) == len(FRIEND_GAME)
    *_, (list_kind, items), (summary_kind, (summary,)) = blocks(content)
    # Each move is one item, its own line only: nothing else is drawn under the last move.
    assert list_kind == "ordered_list"
    assert items == [line.partition(". ")[2] for line in numbered]
    assert summary_kind == "paragraph"
    alice = world.alice.mention
    result = {
        "en-US": f"🏆 **{alice} wins** with three in a row!",
        "ja": f"🏆 3つそろって **{alice} の勝ち**です！",
    }[locale]
    assert summary == f"{FIRST_MISTAKE[locale]}\n{result}"


# ------------------------------------------------------------------ every language

CORNERS = (0, 2, 6, 8)  # cells 0-8: the four corners


def cell_names(locale: str, cells: tuple[int, ...]) -> list[str]:
    _ = translations(locale).gettext
    return [cell_name(divmod(cell, 3), _) for cell in cells]


def cldr_list(locale: str, items: list[str], style: ListStyle) -> str:
    return babel.lists.format_list(items, style=style, locale=babel_locale(locale))


@pytest.mark.parametrize("locale", LOCALES)
def test_every_language_lists_cells_with_its_own_pattern(locale):
    # A choice: O's hint after X's centre (only a corner keeps the draw).
    centre = Game.from_moves(AI, ALICE, "impossible", (4,), locale=locale)
    corners = cell_names(locale, CORNERS)
    hint = render_hint(centre, locale).text.splitlines()[-1]
    # All of them: O's hint after X's edge (these four keep the draw, the others lose).
    edge = Game.from_moves(AI, ALICE, "impossible", (1,), locale=locale)
    keeping = cell_names(locale, (0, 2, 4, 7))
    all_four = render_hint(edge, locale).text.splitlines()[-1]
    # All of them again: the moves that would have held, in a review.
    game = Game.from_moves(ALICE, BOB, None, tuple(3 * i + j for i, j in FRIEND_GAME))
    review = render_review(game, locale, BOT_ID).text

    cases: list[tuple[str, list[str], ListStyle]] = [
        (hint, corners, "or"),
        (all_four, keeping, "standard"),
        (review, corners, "standard"),
    ]
    for text, names, style in cases:
        assert all(name in text for name in names), (text, names)
        assert cldr_list(locale, names, style) in text, (text, style)
        assert ", ".join(names) not in text, text  # no list joined by hand
