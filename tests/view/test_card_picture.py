"""A card's picture: its media gallery in the card's JSON, and the file that goes with it
through discord.py to the fake Discord, on a new message, a click's answer, a followup and an
edit by token; an edit replaces the message's file rather than adding one."""

import discord
import pytest

from bot.door import InteractionDoor, TokenEditor
from bot.view.cards import (
    BLURPLE,
    ButtonSpec,
    Card,
    Cells,
    Picture,
    Section,
    SelectOption,
    SelectSpec,
    Style,
)
from bot.view.components import card_components
from fake_discord import Harness, buttons, picture, unshown_files, walk
from tests.support.pictures import png

V2 = discord.MessageFlags(components_v2=True).value
GALLERY = discord.ComponentType.media_gallery.value


def board_card(shade: int = 0, alt: str = "The whole board") -> Card:
    cells = Cells(tuple(f"t:{i}" for i in range(9)), (Style.SECONDARY,) * 9, ("\u2800",) * 9)
    return Card(
        BLURPLE,
        "## Ultimate",
        "X to move",
        cells,
        (ButtonSpec("t:resign", Style.DANGER, "Resign"),),
        picture=Picture("board.png", png(300, 300, shade), alt),
    )


def without_galleries(components: list[dict]) -> list[dict]:
    return [
        {**c, "components": without_galleries(c["components"])} if "components" in c else c
        for c in components
        if c["type"] != GALLERY
    ]


# -------------------------------------------------------------------------- the card's JSON


def test_a_picture_is_a_gallery_after_the_text_and_before_the_buttons():
    card = board_card()
    (container,) = card_components(card)
    kinds = [c["type"] for c in container["components"]]
    assert kinds[:3] == [10, 10, GALLERY]  # heading, body, picture
    assert kinds[3:] == [14, 1, 1, 1, 14, 1]  # then the cells and the controls
    assert container["components"][2]["items"] == [
        {"media": {"url": "attachment://board.png"}, "description": "The whole board"}
    ]


@pytest.mark.parametrize(
    "card",
    [
        pytest.param(board_card()._replace(picture=None), id="board"),
        pytest.param(Card(0x5865F2, "## Stats", ""), id="heading-only"),
        pytest.param(
            Card(
                0x5865F2,
                "## Settings",
                "Pick",
                sections=(
                    Section("Level", SelectSpec("s:l", (SelectOption("Easy", "e", True),))),
                    Section("Buttons", (ButtonSpec("s:b", Style.PRIMARY, "B"),)),
                ),
            ),
            id="sections",
        ),
    ],
)
def test_a_picture_adds_its_gallery_and_changes_nothing_else(card):
    pictured = card._replace(picture=Picture("board.png", png(300, 300), "alt"))
    assert without_galleries(card_components(pictured)) == card_components(card)
    assert not [c for c in walk(card_components(card)) if c["type"] == GALLERY]


def test_a_picture_without_alt_text_sends_none():
    card = board_card(alt="")
    (gallery,) = [c for c in walk(card_components(card)) if c["type"] == GALLERY]
    assert gallery["items"] == [{"media": {"url": "attachment://board.png"}}]


@pytest.mark.parametrize(
    "filename", ["board", "my board.png", "plateau-é.png", "board.svg", "../board.png"]
)
def test_a_file_name_an_attachment_reference_would_not_find_is_refused(filename):
    with pytest.raises(ValueError, match="attachment:// reference"):
        Picture(filename, png(1, 1))


def test_alt_text_over_discords_limit_is_refused():
    Picture("board.png", png(1, 1), "a" * 1024)
    with pytest.raises(ValueError, match="alt text"):
        Picture("board.png", png(1, 1), "a" * 1025)


# ----------------------------------------------------- through discord.py to the fake Discord


class CardBot(discord.Client):
    """Answers each click through the game table's Door with the card a test gives it."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.card = board_card()
        self.answer = "update"  # or "post", "update+follow_up"
        self.posted: list[int | None] = []
        self.errors: list[discord.HTTPException] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        door = InteractionDoor(interaction)
        try:
            if self.answer == "post":
                self.posted.append(await door.post(self.card, private=False))
            else:
                await door.update(self.card)
                if self.answer == "update+follow_up":
                    self.posted.append(await door.follow_up(self.card, private=False))
        except discord.HTTPException as error:
            self.errors.append(error)


@pytest.fixture
async def table():
    bot = CardBot()
    harness = await Harness.start(bot=bot)
    try:
        channel = harness.create_guild("club").channels[0]
        shown = harness.post_message(channel, {"flags": V2, "components": [row("t:go")]})
        yield harness, bot, channel, shown, harness.create_user("alice")
    finally:
        await harness.close()


def row(*custom_ids: str) -> dict:
    buttons = [{"type": 2, "style": 2, "label": "Go", "custom_id": c} for c in custom_ids]
    return {"type": 1, "components": buttons}


def files_of(request) -> list[tuple[str, str, bytes]]:
    return [(upload.name, upload.filename, upload.data) for upload in request.files]


async def test_a_click_answered_with_a_picture_uploads_it_and_shows_it(table):
    harness, bot, channel, shown, alice = table
    sent = await harness.click(alice, shown, custom_id="t:go")
    assert not bot.errors
    request = sent.response
    assert request.status == 200
    assert files_of(request) == [("files[0]", "board.png", bot.card.picture.data)]
    assert request.body["data"]["attachments"] == [
        {"id": 0, "filename": "board.png", "description": "The whole board"}
    ]
    message = harness.last_message(channel)
    seen = picture(message, harness.discord.files)
    assert seen == ("board.png", bot.card.picture.data, "The whole board", 300, 300)
    assert unshown_files(message) == []
    assert [b["custom_id"] for b in buttons(message)] == [*(f"t:{i}" for i in range(9)), "t:resign"]
    assert harness.discord.spec_problems == []


async def test_each_update_replaces_the_picture_rather_than_adding_one(table):
    harness, bot, channel, shown, alice = table
    await harness.click(alice, shown, custom_id="t:go")
    for shade in (80, 160):
        bot.card = board_card(shade)
        await harness.click(alice, harness.last_message(channel), custom_id="t:0")
    assert not bot.errors
    message = harness.last_message(channel)
    assert picture(message, harness.discord.files).data == png(300, 300, 160)
    assert len(harness.discord.message_files[int(message["id"])]) == 1
    assert len(harness.discord.files) == 1  # the replaced files are gone from Discord
    assert unshown_files(message) == []


async def test_an_edit_by_token_replaces_the_picture(table):
    harness, bot, channel, shown, alice = table
    sent = await harness.click(alice, shown, custom_id="t:go")
    message_id = int(harness.last_message(channel)["id"])
    await TokenEditor(bot).edit(sent.token, message_id, board_card(200, "After the AI's move"))
    edit = harness.discord.requests[-1]
    assert (edit.route, edit.status) == ("edit_followup", 200)
    assert files_of(edit) == [("files[0]", "board.png", png(300, 300, 200))]
    message = harness.discord.message(message_id)
    seen = picture(message, harness.discord.files)
    assert (seen.data, seen.description) == (png(300, 300, 200), "After the AI's move")
    assert len(harness.discord.message_files[message_id]) == 1
    assert harness.discord.spec_problems == []


async def test_an_edit_without_a_picture_leaves_the_file_where_it_was(table):
    """A card without a picture sends what it always sent: no `attachments`, so Discord keeps
    the message's file; no component shows it any more (Components V2 hides it)."""
    harness, bot, channel, shown, alice = table
    sent = await harness.click(alice, shown, custom_id="t:go")
    message_id = int(harness.last_message(channel)["id"])
    await TokenEditor(bot).edit(sent.token, message_id, board_card()._replace(picture=None))
    assert "attachments" not in harness.discord.requests[-1].body
    message = harness.discord.message(message_id)
    assert [f["filename"] for f in unshown_files(message)] == ["board.png"]


async def test_a_new_message_and_a_followup_carry_their_pictures(table):
    harness, bot, _, shown, alice = table
    bot.answer = "post"
    sent = await harness.click(alice, shown, custom_id="t:go")
    assert not bot.errors
    assert sent.response.type is discord.InteractionResponseType.channel_message
    assert files_of(sent.response) == [("files[0]", "board.png", bot.card.picture.data)]
    posted = harness.discord.message(bot.posted[0])
    assert picture(posted, harness.discord.files).data == bot.card.picture.data

    bot.answer, bot.card = "update+follow_up", board_card(99)
    sent = await harness.click(alice, posted, custom_id="t:0")
    assert not bot.errors
    follow_up = harness.discord.message(bot.posted[-1])
    assert picture(follow_up, harness.discord.files).data == png(300, 300, 99)
    assert picture(harness.discord.message(bot.posted[0]), harness.discord.files).data == png(
        300, 300, 99
    )
    assert harness.discord.spec_problems == []
