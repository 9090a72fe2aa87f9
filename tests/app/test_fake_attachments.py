"""The fake Discord's rules for files sent with a message, as Discord's docs give them: a
component shows a file by `attachment://<filename>` and the file must be there; a file over the
upload limit is refused (413/40005); an edit's `attachments` decides which files stay; a file no
component shows stays on a Components V2 message, unshown. Through discord.py's multipart
requests in process, and over HTTP to the loopback."""

import io
import json

import aiohttp
import discord
import pytest

from fake_discord import Harness, picture, unshown_files
from fake_discord.attachments import Upload
from fake_discord.loopback import Loopback
from fake_discord.payloads import ATTACHMENT_SIZE_LIMIT
from fake_discord.rest import TOKEN
from tests.support.pictures import png

V2 = discord.MessageFlags(components_v2=True).value
TEXT, GALLERY = discord.ComponentType.text_display.value, discord.ComponentType.media_gallery.value


def gallery(*filenames: str) -> dict:
    items = [{"media": {"url": f"attachment://{name}"}} for name in filenames]
    return {"type": GALLERY, "items": items}


def body(*components: dict, **extra) -> dict:
    return {"flags": V2, "components": [{"type": TEXT, "content": "Board"}, *components], **extra}


class PictureBot(discord.Client):
    """Answers each click with discord.py's own edit_message: a LayoutView and the files a
    test gives it."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.view = discord.ui.LayoutView()
        self.files: list[discord.File] = []
        self.errors: list[discord.HTTPException] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.edit_message(view=self.view, attachments=self.files)
        except discord.HTTPException as error:
            self.errors.append(error)


def layout(url: str) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("Board"))
    view.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(url, description="alt")))
    view.add_item(discord.ui.ActionRow(discord.ui.Button(label="Go", custom_id="go")))
    return view


@pytest.fixture
async def raw():
    bot = PictureBot()
    harness = await Harness.start(bot=bot)
    try:
        channel = harness.create_guild("club").channels[0]
        button = {"type": 2, "style": 2, "label": "Go", "custom_id": "go"}
        shown = harness.post_message(channel, body({"type": 1, "components": [button]}))
        yield harness, bot, shown, harness.create_user("alice")
    finally:
        await harness.close()


async def test_discord_py_media_gallery_and_file_are_stored_and_shown(raw):
    harness, bot, shown, alice = raw
    bot.view, bot.files = (
        layout("attachment://board.png"),
        [discord.File(io.BytesIO(png(300, 400)), "board.png")],
    )
    sent = await harness.click(alice, shown, custom_id="go")
    assert not bot.errors
    stored = harness.discord.message(int(shown["id"]))
    seen = picture(stored, harness.discord.files)
    assert (seen.filename, seen.width, seen.height, seen.description) == (
        "board.png",
        300,
        400,
        "alt",
    )
    assert stored["attachments"] == []  # Discord lists only the files no component shows
    media = sent.response.message["components"][1]["items"][0]["media"]
    assert media["content_type"] == "image/png"
    assert media["url"].startswith("https://cdn.discordapp.com/attachments/")
    assert harness.discord.spec_problems == []


@pytest.mark.parametrize(
    ("url", "files"),
    [
        pytest.param("attachment://board.png", [], id="no-file"),
        pytest.param("attachment://board.png", [("other.png", b"x")], id="another-file"),
    ],
)
async def test_a_reference_to_a_file_not_sent_is_refused(raw, url, files):
    harness, bot, shown, alice = raw
    bot.view = layout(url)
    bot.files = [discord.File(io.BytesIO(data), name) for name, data in files]
    sent = await harness.click(alice, shown, custom_id="go")
    (error,) = bot.errors
    assert (error.status, error.code) == (400, 50035)
    assert "components.1.items.0.media.url" in error.text
    assert sent.requests[0].status == 400
    assert harness.discord.message(int(shown["id"])) == shown  # unchanged


async def test_a_file_over_the_upload_limit_is_refused_as_request_entity_too_large(raw):
    harness, bot, shown, alice = raw
    bot.view = layout("attachment://board.png")
    bot.files = [discord.File(io.BytesIO(b"\0" * (ATTACHMENT_SIZE_LIMIT + 1)), "board.png")]
    await harness.click(alice, shown, custom_id="go")
    (error,) = bot.errors
    assert (error.status, error.code) == (413, 40005)
    bot.errors.clear()
    bot.files = [discord.File(io.BytesIO(b"\0" * ATTACHMENT_SIZE_LIMIT), "board.png")]  # the limit
    await harness.click(alice, shown, custom_id="go")
    assert not bot.errors


# ----------------------------------------------------------- the REST routes, as Discord sees them


def rest(harness: Harness, method: str, path: str, data: dict, *files: Upload):
    _, status, answer, _ = harness.discord.handle(
        method,
        f"https://discord.com/api/v10{path}",
        {"Authorization": f"Bot {TOKEN}"},
        {},
        json.dumps(data),
        cpu_at=0.0,
        files=files,
    )
    return status, answer


@pytest.fixture
async def channel_harness():
    harness = await Harness.start(bot=discord.Client(intents=discord.Intents(guilds=True)))
    try:
        yield harness, harness.create_guild("club").channels[0]
    finally:
        await harness.close()


async def test_an_edit_keeps_the_files_its_attachments_name_and_drops_the_others(
    channel_harness,
):
    harness, channel = channel_harness
    path = f"/channels/{channel.id}/messages"
    a, b = Upload("files[0]", "a.png", png(2, 2)), Upload("files[1]", "b.png", png(3, 3))
    status, message = rest(harness, "POST", path, body(gallery("a.png", "b.png")), a, b)
    assert status == 200
    ids = [item["media"]["attachment_id"] for item in message["components"][1]["items"]]
    # Keep a, drop b, add c: the gallery shows a and c.
    c = Upload("files[0]", "c.png", png(4, 4))
    edit = body(gallery("a.png", "c.png"), attachments=[{"id": ids[0]}, {"id": 0}])
    status, edited = rest(harness, "PATCH", f"{path}/{message['id']}", edit, c)
    assert status == 200
    files = harness.discord.message_files[int(message["id"])]
    assert [f["filename"] for f in files] == ["a.png", "c.png"]
    assert files[0]["id"] == ids[0]  # the same file, kept
    assert int(ids[1]) not in harness.discord.files  # b is gone
    shown = [item["media"] for item in edited["components"][1]["items"]]
    assert [(m["width"], m["height"]) for m in shown] == [(2, 2), (4, 4)]
    # Without `attachments` an upload is added to what the message has.
    d = Upload("files[0]", "d.png", png(5, 5))
    status, added = rest(harness, "PATCH", f"{path}/{message['id']}", {}, d)
    assert status == 200
    assert [f["filename"] for f in added["attachments"]] == ["d.png"]  # shown by no component
    assert [f["filename"] for f in unshown_files(added)] == ["d.png"]
    assert len(harness.discord.message_files[int(message["id"])]) == 3
    assert harness.discord.spec_problems == []


async def test_attachments_that_name_no_file_and_too_many_files_are_refused(channel_harness):
    harness, channel = channel_harness
    path = f"/channels/{channel.id}/messages"
    status, answer = rest(harness, "POST", path, body(attachments=[{"id": 0}]))
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"]["attachments"]["0"]["_errors"][0]["code"] == "ATTACHMENT_NOT_FOUND"
    eleven = [Upload(f"files[{i}]", f"f{i}.png", png(1, 1)) for i in range(11)]
    status, answer = rest(harness, "POST", path, body(), *eleven)
    assert (status, answer["code"]) == (400, 50035)
    assert "attachments" in answer["errors"]
    assert harness.discord.messages_in(channel) == []


async def test_a_components_v2_message_keeps_a_file_no_component_shows_unshown(channel_harness):
    harness, channel = channel_harness
    upload = Upload("files[0]", "board.png", png(2, 2))
    status, message = rest(harness, "POST", f"/channels/{channel.id}/messages", body(), upload)
    assert status == 200
    assert [f["filename"] for f in unshown_files(message)] == ["board.png"]
    with pytest.raises(LookupError):
        picture(message, harness.discord.files)


# ------------------------------------------------------------------------------------ loopback


async def test_the_loopback_takes_files_over_http():
    async with Loopback(token=TOKEN) as fake:
        channel = fake.create_guild("club").channels[0]
        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", json.dumps(body(gallery("board.png"))))
        data = png(300, 300)
        form.add_field("files[0]", data, filename="board.png", content_type="image/png")
        async with aiohttp.ClientSession() as session:
            url = f"{fake.url}/api/v10/channels/{channel.id}/messages"
            headers = {"Authorization": f"Bot {TOKEN}"}
            async with session.post(url, data=form, headers=headers) as answer:
                assert answer.status == 200
                message = await answer.json()
        assert picture(message, fake.discord.files).data == data
