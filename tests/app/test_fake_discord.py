"""The fake Discord's own checks: message bodies Discord would refuse are refused (400/50035),
in the classic layout and in Components V2, and through discord.py's HTTP stack as well."""

import discord
import pytest

from fake_discord import DiscordError, Harness, answer_raw, validate_message
from fake_discord.limits import modal_problems

V2 = discord.MessageFlags(components_v2=True).value
ROW, BUTTON = discord.ComponentType.action_row.value, discord.ComponentType.button.value
TEXT, SEPARATOR = discord.ComponentType.text_display.value, discord.ComponentType.separator.value
CONTAINER = discord.ComponentType.container.value
GREY = discord.ButtonStyle.secondary.value
SELECT, TEXT_INPUT = (
    discord.ComponentType.string_select.value,
    discord.ComponentType.text_input.value,
)
LABEL = discord.ComponentType.label.value


def button(custom_id: str, **extra) -> dict:
    return {"type": BUTTON, "style": GREY, "custom_id": custom_id, "label": "x", **extra}


def select(custom_id: str, *values: str, defaults: int = 0) -> dict:
    options = [{"label": v, "value": v, "default": i < defaults} for i, v in enumerate(values)]
    return {
        "type": SELECT,
        "custom_id": custom_id,
        "options": options or [{"label": "a", "value": "a"}],
    }


def text_input_modal(title: str = "Title", label: str = "Label", **field) -> dict:
    text_input = {"type": TEXT_INPUT, "custom_id": "value", "style": 1, **field}
    return {
        "custom_id": "modal",
        "title": title,
        "components": [{"type": LABEL, "label": label, "component": text_input}],
    }


def row(*buttons) -> dict:
    return {"type": ROW, "components": list(buttons)}


def v2_board() -> list[dict]:
    """A container with a heading, a status, separators, 3 rows of 3 cells and 2 controls."""
    cells = [row(*(button(f"c{3 * i + j}") for j in range(3))) for i in range(3)]
    return [
        {
            "type": CONTAINER,
            "accent_color": 0x5865F2,
            "components": [
                {"type": TEXT, "content": "## Tic-tac-toe"},
                {"type": TEXT, "content": "<@1> to move"},
                {"type": SEPARATOR},
                *cells,
                {"type": SEPARATOR, "divider": False, "spacing": 2},
                row(button("resign"), button("help")),
            ],
        }
    ]


def classic_board() -> list[dict]:
    cells = [row(*(button(f"c{3 * i + j}") for j in range(3))) for i in range(3)]
    return [*cells, row(button("resign"))]


def test_both_layouts_of_a_board_are_accepted_and_get_component_ids():
    stored = validate_message({"flags": V2, "components": v2_board()})
    container = stored[0]
    assert container["id"] == 1
    assert [c["id"] for c in container["components"][:3]] == [2, 3, 4]
    classic = validate_message({"content": "<@1> to move", "components": classic_board()})
    assert [r["id"] for r in classic] == [1, 5, 9, 13]


def too_many_components() -> dict:
    rows = [row(*(button(f"b{r}-{i}") for i in range(4))) for r in range(8)]  # 8 + 32 = 40
    return {"flags": V2, "components": [{"type": CONTAINER, "components": rows}]}  # 41


def too_much_text() -> dict:
    texts = [{"type": TEXT, "content": "x" * 2000} for _ in range(2)]
    return {"flags": V2, "components": [*texts, {"type": TEXT, "content": "!"}]}


@pytest.mark.parametrize(
    ("message", "where"),
    [
        pytest.param(
            {"flags": V2, "content": "hi", "components": v2_board()}, "content", id="content+V2"
        ),
        pytest.param(
            {"flags": V2, "embeds": [{"title": "t"}], "components": v2_board()},
            "embeds",
            id="embeds+V2",
        ),
        pytest.param(too_many_components(), "components", id="41-components"),
        pytest.param(too_much_text(), "components", id="4001-characters-of-text"),
        pytest.param(
            {"flags": V2, "components": [row(button("x" * 101))]},
            "components.0.components.0.custom_id",
            id="custom_id-101-chars",
        ),
        pytest.param(
            {"flags": V2, "components": [row(*(button(f"b{i}") for i in range(6)))]},
            "components.0.components",
            id="6-buttons-in-a-row",
        ),
        pytest.param(
            {"flags": V2, "components": [row(button("a")), row(button("a"))]},
            "components.1.components.0.custom_id",
            id="duplicate-custom_id",
        ),
        pytest.param(
            {"flags": V2, "components": [{"type": CONTAINER, "components": v2_board()}]},
            "components.0.components.0.type",
            id="container-in-container",
        ),
        pytest.param(
            {"flags": V2, "components": [button("a")]}, "components.0.type", id="top-level-button"
        ),
        pytest.param(
            {"content": "hi", "components": [row(button("a", emoji={"id": "123"}))]},
            "components.0.components.0.emoji.name",
            id="emoji-without-name",
        ),
        pytest.param(
            {"content": "hi", "components": [row(button("a", emoji={"name": "e" * 33}))]},
            "components.0.components.0.emoji.name",
            id="emoji-name-33",
        ),
        pytest.param(
            {"content": "hi", "components": [row(button("a", emoji={"id": "x1", "name": "_"}))]},
            "components.0.components.0.emoji.id",
            id="emoji-id-not-a-snowflake",
        ),
        pytest.param(
            {"content": "hi", "components": [row(button("a", emoji="🙂"))]},
            "components.0.components.0.emoji",
            id="emoji-not-an-object",
        ),
        pytest.param(
            {"content": "hi", "components": v2_board()},
            "components.0.type",
            id="V2-components-no-flag",
        ),
        pytest.param(
            {"content": "hi", "components": [row(button(f"b{i}")) for i in range(6)]},
            "components",
            id="classic-6-rows",
        ),
        pytest.param(
            {"flags": V2, "components": [row(select("s"), button("b"))]},
            "components.0.components",
            id="select-beside-a-button",
        ),
        pytest.param(
            {"flags": V2, "components": [row(select("s", "a", "a"))]},
            "components.0.components.0.options",
            id="select-duplicate-values",
        ),
        pytest.param(
            {"flags": V2, "components": [row(select("s", *map(str, range(26))))]},
            "components.0.components.0.options",
            id="select-26-options",
        ),
        pytest.param(
            {"flags": V2, "components": [row(select("s", "a", "b", defaults=2))]},
            "components.0.components.0.options",
            id="select-two-defaults",
        ),
    ],
)
def test_messages_discord_would_refuse_are_refused(message, where):
    with pytest.raises(DiscordError) as refused:
        validate_message(message)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert refused.value.message.startswith(f"Invalid Form Body: In {where}: ")


def test_the_limits_themselves_are_allowed():
    rows = [row(*(button(f"b{r}-{i}") for i in range(4))) for r in range(7)]  # 7 + 28 = 35
    texts = [{"type": TEXT, "content": "x" * 1000} for _ in range(4)]  # 4,000 characters
    message = {"flags": V2, "components": [{"type": CONTAINER, "components": [*texts, *rows]}]}
    assert validate_message(message)  # 40 components
    assert validate_message({"flags": V2, "components": [row(button("x" * 100))]})
    options = [str(i) for i in range(25)]
    assert validate_message({"flags": V2, "components": [row(select("s", *options, defaults=1))]})
    assert not modal_problems(text_input_modal("t" * 45, "l" * 45, max_length=4000))


@pytest.mark.parametrize(
    ("modal", "where"),
    [
        (text_input_modal("t" * 46), "title"),
        (text_input_modal(label="l" * 46), "components.0.label"),
        (text_input_modal(max_length=2, value="abc"), "components.0.component.value"),
        (text_input_modal(placeholder="p" * 101), "components.0.component.placeholder"),
        ({**text_input_modal(), "components": []}, "components"),
    ],
)
def test_modals_discord_would_refuse_are_refused(modal, where):
    (problem,) = modal_problems(modal)
    assert problem.startswith(f"Invalid Form Body: In {where}: ")

    custom = {"id": str(2**64 - 1), "name": "_", "animated": True}  # any name does for an id
    emoji_only = [
        {"type": BUTTON, "style": GREY, "custom_id": "c", "emoji": custom},
        {"type": BUTTON, "style": GREY, "custom_id": "s", "emoji": {"name": "🧑🏽‍🤝‍🧑🏻"}},
        button("n", emoji={"id": 5, "name": "e" * 32}),  # discord.py writes ids as numbers
    ]
    assert validate_message({"content": "hi", "components": [row(*emoji_only)]})


class RawBot(discord.Client):
    """Answers every click with what a test gives it (a JSON body, or a discord.py view),
    and keeps what happened."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.answer: dict | discord.ui.LayoutView = {}
        self.errors: list[discord.HTTPException] = []
        self.shown: list[discord.InteractionMessage] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        try:
            if isinstance(self.answer, discord.ui.LayoutView):
                response = await interaction.response.edit_message(view=self.answer)
                assert response is not None
                assert isinstance(response.resource, discord.InteractionMessage)
                self.shown.append(response.resource)
            else:
                kind = discord.InteractionResponseType.message_update
                await answer_raw(interaction, kind, self.answer)
        except discord.HTTPException as error:
            self.errors.append(error)


@pytest.fixture
async def raw():
    bot = RawBot()
    harness = await Harness.start(bot=bot)
    try:
        channel = harness.create_guild("club").channels[0]
        yield harness, bot, channel, harness.create_user("alice")
    finally:
        await harness.close()


async def test_a_v2_update_with_content_is_refused_through_discord_py(raw):
    harness, bot, channel, alice = raw
    shown = harness.post_message(channel, {"flags": V2, "components": v2_board()})
    bot.answer = {"flags": V2, "content": "hi", "components": v2_board()}
    sent = await harness.click(alice, shown, cell=(0, 0))
    assert [request.status for request in sent.requests] == [400]
    (error,) = bot.errors
    assert error.code == 50035
    assert "content" in error.text
    assert harness.last_message(channel) == shown


async def test_upgrading_a_classic_message_to_v2_must_clear_its_content(raw):
    harness, bot, channel, alice = raw
    shown = harness.post_message(
        channel, {"content": "<@1> to move", "components": classic_board()}
    )
    bot.answer = {"flags": V2, "components": v2_board()}  # the old content would stay
    refused = await harness.click(alice, shown, cell=(1, 1))
    assert refused.requests[0].status == 400
    bot.answer = {"flags": V2, "content": None, "components": v2_board()}
    accepted = await harness.click(alice, shown, cell=(1, 1))
    assert accepted.response.status == 200
    upgraded = harness.last_message(channel)
    assert upgraded["flags"] & V2
    assert upgraded["content"] == ""


async def test_a_layout_view_from_discord_py_is_stored_and_read_back(raw):
    harness, bot, channel, alice = raw
    shown = harness.post_message(channel, {"flags": V2, "components": v2_board()})
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        discord.ui.TextDisplay("## Tic-tac-toe")
    )
    container.add_item(discord.ui.Separator())
    for i in range(3):
        cells: list[discord.ui.Button[discord.ui.LayoutView]] = [
            discord.ui.Button(label="\u200b", custom_id=f"n{3 * i + j}") for j in range(3)
        ]
        container.add_item(discord.ui.ActionRow(*cells))
    view.add_item(container)
    bot.answer = view
    sent = await harness.click(alice, shown, cell=(2, 2))
    assert sent.response.status == 200
    assert not bot.errors
    (message,) = bot.shown  # discord.py parsed Discord's copy of the message
    assert message.flags.components_v2
    assert [c.type for c in message.components] == [discord.ComponentType.container]
    assert harness.last_message(channel)["components"] == sent.response.message["components"]


async def test_what_goes_through_is_checked_against_discords_openapi_spec(raw):
    harness, bot, channel, alice = raw
    shown = harness.post_message(channel, {"flags": V2, "components": v2_board()})
    bot.answer = {"flags": V2, "components": v2_board()}
    await harness.click(alice, shown, cell=(0, 0))
    assert harness.discord.spec_problems == []  # the bot's body and the fake's answer
    mentions = {"parse": ["everyone", "nobody"]}  # the fake itself lets it by
    bot.answer = {"flags": V2, "components": v2_board(), "allowed_mentions": mentions}
    sent = await harness.click(alice, shown, cell=(0, 1))
    assert sent.response.status == 200
    (problem,) = harness.discord.spec_problems
    assert "callback sent: data.allowed_mentions.parse.1: " in problem
