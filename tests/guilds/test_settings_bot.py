"""/settings through SimCord, with the settings saved in a real SQLite records database: an
admin opens the card and changes each setting (selects, buttons, modals) or sets them with the
command's options; invalid values are refused in one line and change nothing; members without
Manage Server cannot change anything; without a database, or with one that fails, the answer says
so and nothing changes."""

from __future__ import annotations

import random

import discord
import pytest
from bot_helpers import as_json, texts

from bot.app import TicTacToeBot
from bot.core.server import (
    CHALLENGE_COOLDOWN_CHOICES,
    DEFAULT_SETTINGS,
    TURN_TIMEOUT_CHOICES,
    Mark,
    ServerSettings,
)
from bot.ops.metrics import Metrics
from bot.records.sql.storage import Storage, open_records
from bot.settings import Settings
from fake_discord import walk

NOT_ALLOWED = "Only members with the Manage Server permission can change these settings."
NOT_SAVED = "Could not save the settings: the database is not answering. Try again."
NO_DATABASE = "Server settings need a database, and this bot runs without one."
SELECTS = {"difficulty", "variant", "turn_timeout", "challenge_cooldown"}


def make_settings_bot(storage: Storage | None) -> TicTacToeBot:
    settings = Settings(token="not-a-real-token", turn_timeout_seconds=600, shard_count=1)
    return TicTacToeBot(
        settings, rng=random.Random(0), records=storage, metrics=Metrics(exported=True)
    )


@pytest.fixture
async def storage(tmp_path):
    storage = await open_records(f"sqlite+aiosqlite:///{tmp_path / 'records.db'}")
    yield storage
    await storage.close()


@pytest.fixture
def simcord_bot(request, storage):
    """The bot with the records database; parametrized None: without one."""
    return make_settings_bot(getattr(request, "param", storage))


@pytest.fixture
def admin(world):
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    member = world.guild.add_member(world.env.create_user("dana"), roles=[role])
    member.role = role  # for the test that takes it away
    return member


def in_memory(world) -> ServerSettings:
    return world.env.bot.server_settings(world.guild.id)


def changes_counted(world, setting: str) -> float:
    metric = world.env.bot.metrics.settings_changed.labels(setting=setting)
    return metric._value.get()


def card_lines(message) -> dict[str, str]:
    """The card's settings as shown: "Difficulty" -> "Hard"."""
    lines = {}
    for shown in texts(message):
        first = shown.splitlines()[0]
        if first.startswith("**") and ":** " in first:
            name, value = first.removeprefix("**").split(":** ", 1)
            lines[name] = value
    return lines


def notice(message) -> str:
    """The line under the card's heading: what the last change did."""
    return texts(message)[1]


def control_ids(message) -> list[str]:
    """The custom_ids of the card's buttons and menus."""
    return sorted(
        c["custom_id"] for c in walk(as_json(message)["components"]) if c.get("custom_id")
    )


def select_options(message, custom_id: str) -> list[tuple[str, bool]]:
    """A select menu's entries: each label, and whether it shows as chosen."""
    (menu,) = (c for c in walk(as_json(message)["components"]) if c.get("custom_id") == custom_id)
    return [(option["label"], option.get("default", False)) for option in menu["options"]]


async def open_card(world, member):
    result = await member.slash(world.channel, "settings")
    assert result.ephemeral
    return result.response.message


async def through_modal(member, card, setting: str, typed: str):
    """Click the setting's Change, type `typed` in the form, submit: the card as updated."""
    shown = await member.click(card, custom_id=f"set:{setting}:edit")
    assert shown.modal is not None
    done = await member.submit_modal(shown, {"value": typed})
    return done.response.message


# ------------------------------------------------------------------ the command


def registered(world, name: str) -> dict:
    """The command as the bot registered it (the body of its last PUT of the commands)."""
    (put, *_) = [
        r
        for r in reversed(world.env.http_requests)
        if r.method == "PUT" and r.path.endswith("/commands")
    ]
    (command,) = [c for c in put.json if c["name"] == name]
    return command


async def test_the_command_is_registered_for_servers_and_their_managers(world, discord_rules):
    command = registered(world, "settings")
    assert command["contexts"] == [0]  # servers only: no DMs, no group DMs
    assert command["integration_types"] == [0]  # installed to a server, not to a user
    # Manage Server; discord.py sends the number, Discord's API answers it as the string "32".
    assert str(command["default_member_permissions"]) == "32"
    assert registered(world, "tictactoe")["contexts"] == [0, 1, 2]  # the others keep theirs
    options = {option["name"]: option for option in command["options"]}
    assert list(options) == [
        "games_per_channel",
        "difficulty",
        "variant",
        "turn_timeout",
        "x_emoji",
        "o_emoji",
        "challenge_cooldown",
    ]
    assert (
        options["games_per_channel"]["min_value"],
        options["games_per_channel"]["max_value"],
    ) == (1, 10)
    assert [c["value"] for c in options["turn_timeout"]["choices"]] == list(TURN_TIMEOUT_CHOICES)
    assert [c["value"] for c in options["challenge_cooldown"]["choices"]] == list(
        CHALLENGE_COOLDOWN_CHOICES
    )
    assert not any(option.get("required") for option in options.values())


async def test_members_without_manage_server_are_not_offered_the_command(world, admin):
    assert "settings" in admin.available_commands(world.channel)
    assert "settings" not in world.alice.available_commands(world.channel)
    assert "tictactoe" in world.alice.available_commands(world.channel)


async def test_the_card_shows_every_setting_at_its_default(world, admin, discord_rules):
    card = await open_card(world, admin)
    assert texts(card)[0] == "### ⚙️ Tic-tac-toe settings for this server"
    assert card_lines(card) == {
        "Games per channel": "1",
        "Difficulty": "Impossible",
        "Variant": "Classic",
        "Turn timeout": "10 minutes (the default)",
        "X shows": "the letter X",
        "O shows": "the letter O",
        "Challenge cooldown": "Off",
    }
    # A select for each choice, a Change for each typed value; no resets at the defaults.
    assert control_ids(card) == sorted(
        [
            "set:games_per_channel:edit",
            "set:difficulty",
            "set:variant",
            "set:turn_timeout",
            "set:x_emoji:edit",
            "set:o_emoji:edit",
            "set:challenge_cooldown",
        ]
    )


TIMEOUT_ENTRIES = [
    "30 seconds",
    "1 minute",
    "2 minutes",
    "3 minutes",
    "5 minutes",
    "10 minutes (the default)",
    "14 minutes",
]


async def test_the_turn_timeout_select_offers_each_length_once(world, admin, discord_rules):
    card = await open_card(world, admin)
    entries = select_options(card, "set:turn_timeout")
    assert entries == [(label, label == "10 minutes (the default)") for label in TIMEOUT_ENTRIES]

    card = (await admin.select(card, ["120"], custom_id="set:turn_timeout")).response.message
    entries = select_options(card, "set:turn_timeout")
    assert entries == [(label, label == "2 minutes") for label in TIMEOUT_ENTRIES]

    card = (await admin.select(card, ["default"], custom_id="set:turn_timeout")).response.message
    assert notice(card) == "✅ Turn timeout: 2 minutes → 10 minutes (the default)"
    assert in_memory(world).turn_timeout is None


# ------------------------------------------------------------------ the card


async def test_an_admin_changes_each_setting_on_the_card(world, admin, storage, discord_rules):
    party = world.guild.create_emoji("party")
    card = await open_card(world, admin)

    card = (await admin.select(card, ["hard"], custom_id="set:difficulty")).response.message
    assert notice(card) == "✅ Difficulty: Impossible → Hard"
    assert card_lines(card)["Difficulty"] == "Hard"

    card = (await admin.select(card, ["ultimate"], custom_id="set:variant")).response.message
    assert notice(card) == "✅ Variant: Classic → Ultimate Tic-Tac-Toe"

    card = (await admin.select(card, ["120"], custom_id="set:turn_timeout")).response.message
    assert notice(card) == "✅ Turn timeout: 10 minutes (the default) → 2 minutes"

    card = (await admin.select(card, ["300"], custom_id="set:challenge_cooldown")).response.message
    assert notice(card) == "✅ Challenge cooldown: Off → 5 minutes"

    card = await through_modal(admin, card, "games_per_channel", "4")
    assert notice(card) == "✅ Games per channel: 1 → 4"

    card = await through_modal(admin, card, "x_emoji", f"<:party:{party.id}>")
    assert notice(card) == f"✅ X shows: the letter X → <:party:{party.id}>"

    card = await through_modal(admin, card, "o_emoji", "🔥")
    assert notice(card) == "✅ O shows: the letter O → 🔥"

    expected = ServerSettings(
        games_per_channel=4,
        difficulty="hard",
        turn_timeout=120,
        x_emoji=Mark("party", party.id),
        o_emoji=Mark("🔥"),
        challenge_cooldown=300,
        variant="ultimate",
    )
    assert card_lines(card) == {
        "Games per channel": "4",
        "Difficulty": "Hard",
        "Variant": "Ultimate Tic-Tac-Toe",
        "Turn timeout": "2 minutes",
        "X shows": f"<:party:{party.id}>",
        "O shows": "🔥",
        "Challenge cooldown": "5 minutes",
    }
    assert in_memory(world) == expected
    assert await storage.load_settings(world.guild.id) == expected
    for setting in expected.__slots__:
        assert changes_counted(world, setting) == 1
    # Reopened, the card shows what was saved, with a way back to each default.
    again = await open_card(world, admin)
    assert card_lines(again) == card_lines(card)
    assert {"set:games_per_channel:reset", "set:x_emoji:reset", "set:o_emoji:reset"} <= set(
        control_ids(again)
    )


async def test_an_emoji_is_typed_by_its_name_and_each_setting_goes_back_to_its_default(
    world, admin, storage, discord_rules
):
    party = world.guild.create_emoji("party", animated=True)
    card = await open_card(world, admin)
    card = await through_modal(admin, card, "x_emoji", ":party:")
    assert notice(card) == f"✅ X shows: the letter X → <a:party:{party.id}>"
    card = await through_modal(admin, card, "games_per_channel", "10")
    card = (await admin.select(card, ["30"], custom_id="set:turn_timeout")).response.message

    card = (await admin.click(card, label="Use the letter X")).response.message
    assert notice(card) == f"✅ X shows: <a:party:{party.id}> → the letter X"
    card = (await admin.click(card, label="Back to 1")).response.message
    assert notice(card) == "✅ Games per channel: 10 → 1"
    card = (await admin.select(card, ["default"], custom_id="set:turn_timeout")).response.message
    assert notice(card) == "✅ Turn timeout: 30 seconds → 10 minutes (the default)"
    assert in_memory(world) == DEFAULT_SETTINGS
    assert await storage.load_settings(world.guild.id) in (None, DEFAULT_SETTINGS)
    assert "set:x_emoji:reset" not in control_ids(card)


async def test_an_empty_form_puts_the_letter_back(world, admin, discord_rules):
    card = await open_card(world, admin)
    card = await through_modal(admin, card, "o_emoji", "⭐")
    shown = await admin.click(card, custom_id="set:o_emoji:edit")
    field = shown.modal["components"][0]["component"]
    assert field["value"] == "⭐"  # the form opens with the current value
    card = (await admin.submit_modal(shown, {"value": ""})).response.message
    assert notice(card) == "✅ O shows: ⭐ → the letter O"
    assert in_memory(world).o_emoji is None


@pytest.mark.parametrize(
    ("setting", "typed", "refusal"),
    [
        ("games_per_channel", "11", "Games per channel: choose a number from 1 to 10."),
        ("games_per_channel", "0", "Games per channel: choose a number from 1 to 10."),
        ("games_per_channel", "x", "Games per channel: type a whole number from 1 to 10."),
        (
            "x_emoji",
            "cross",
            "X shows: that is not an emoji. Use one of this server's emoji or a standard one.",
        ),
        (
            "x_emoji",
            "❌❌",
            "X shows: that is not an emoji. Use one of this server's emoji or a standard one.",
        ),
        (
            "o_emoji",
            "<:elsewhere:{other}>",
            "O shows: that emoji belongs to another server. Use one of this server's.",
        ),
        ("o_emoji", "🔥", "O shows: X and O cannot show the same emoji."),
        (
            "o_emoji",
            "👩🏽‍❤️‍💋‍👨🏻",
            "O shows: that emoji is too long for a board's buttons. Pick a shorter one.",
        ),
    ],
)
async def test_the_card_refuses_an_invalid_value_and_changes_nothing(
    world, admin, storage, setting, typed, refusal, discord_rules
):
    other_guild = world.env.create_guild()
    elsewhere = other_guild.create_emoji("elsewhere")
    card = await open_card(world, admin)
    card = await through_modal(admin, card, "x_emoji", "🔥")
    before = in_memory(world)
    saved = await storage.load_settings(world.guild.id)

    card = await through_modal(admin, card, setting, typed.format(other=elsewhere.id))
    assert notice(card) == f"⚠️ {refusal} Nothing was changed."
    assert in_memory(world) == before
    assert await storage.load_settings(world.guild.id) == saved
    assert card_lines(card)["X shows"] == "🔥"


# ------------------------------------------------------------------ options


async def test_options_set_values_directly(world, admin, storage, discord_rules):
    party = world.guild.create_emoji("party")
    result = await admin.slash(
        world.channel,
        "settings",
        games_per_channel=3,
        difficulty="medium",
        variant="ultimate",
        turn_timeout=840,
        x_emoji=f"<:party:{party.id}>",
        o_emoji="🌙",
        challenge_cooldown=3600,
    )
    assert result.ephemeral
    assert result.response.content.splitlines() == [
        "✅ Games per channel: 1 → 3",
        "✅ Difficulty: Impossible → Medium",
        "✅ Variant: Classic → Ultimate Tic-Tac-Toe",
        "✅ Turn timeout: 10 minutes (the default) → 14 minutes",
        f"✅ X shows: the letter X → <:party:{party.id}>",
        "✅ O shows: the letter O → 🌙",
        "✅ Challenge cooldown: Off → 1 hour",
    ]
    expected = ServerSettings(
        3, "medium", 840, Mark("party", party.id), Mark("🌙"), 3600, variant="ultimate"
    )
    assert in_memory(world) == expected
    assert await storage.load_settings(world.guild.id) == expected

    again = await admin.slash(world.channel, "settings", difficulty="medium")
    assert again.response.content == "Nothing changed: those are the current settings."
    assert changes_counted(world, "difficulty") == 1


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        (
            {"x_emoji": "not an emoji"},
            "X shows: that is not an emoji. Use one of this server's emoji or a standard one.",
        ),
        (
            {"o_emoji": "<:elsewhere:{other}>"},
            "O shows: that emoji belongs to another server. Use one of this server's.",
        ),
        ({"x_emoji": "🎲", "o_emoji": "🎲"}, "O shows: X and O cannot show the same emoji."),
        # One refused value refuses them all.
        (
            {"difficulty": "easy", "x_emoji": "nope"},
            "X shows: that is not an emoji. Use one of this server's emoji or a standard one.",
        ),
    ],
)
async def test_options_refuse_an_invalid_value_in_one_line_and_change_nothing(
    world, admin, storage, options, refusal, discord_rules
):
    elsewhere = world.env.create_guild().create_emoji("elsewhere")
    given = {
        name: value.format(other=elsewhere.id) if isinstance(value, str) else value
        for name, value in options.items()
    }
    result = await admin.slash(world.channel, "settings", **given)
    assert result.ephemeral
    assert result.response.content == f"⚠️ {refusal} Nothing was changed."
    assert in_memory(world) == DEFAULT_SETTINGS
    assert await storage.load_settings(world.guild.id) is None


# ------------------------------------------------------------------ who may change


async def test_a_member_who_lost_manage_server_cannot_change_from_an_open_card(
    world, admin, storage, discord_rules
):
    card = await open_card(world, admin)
    world.env.backend.remove_member_role(world.guild.id, admin.id, admin.role.id)
    refused = await admin.select(card, ["easy"], custom_id="set:difficulty")
    assert refused.ephemeral
    assert refused.response.content == NOT_ALLOWED
    opened = await admin.click(card, custom_id="set:games_per_channel:edit")
    assert opened.modal is None
    assert opened.response.content == NOT_ALLOWED
    assert in_memory(world) == DEFAULT_SETTINGS
    assert await storage.load_settings(world.guild.id) is None


async def test_a_member_the_server_let_use_the_command_sees_the_settings_but_cannot_change_them(
    world, admin, discord_rules
):
    await admin.slash(world.channel, "settings", difficulty="easy")
    command = world.env.backend.find_command("settings", None)
    world.guild.set_command_permissions(int(command["id"]), {world.alice: True})
    card = await open_card(world, world.alice)
    assert card_lines(card)["Difficulty"] == "Easy"
    assert notice(card) == "Only members with the Manage Server permission can change these."
    assert control_ids(card) == []
    refused = await world.alice.slash(world.channel, "settings", difficulty="hard")
    assert refused.response.content == NOT_ALLOWED
    assert in_memory(world).difficulty == "easy"


# ------------------------------------------------------------------ the database


@pytest.mark.parametrize("simcord_bot", [None], indirect=True)
async def test_without_a_database_the_command_says_settings_need_one(world, admin, discord_rules):
    for options in ({}, {"difficulty": "easy"}):
        result = await admin.slash(world.channel, "settings", **options)
        assert result.ephemeral
        assert result.response.content == NO_DATABASE
    assert in_memory(world) == DEFAULT_SETTINGS


async def through_modal_answer(member, card, setting: str, typed: str):
    """Change, type, submit: the submit's answer."""
    shown = await member.click(card, custom_id=f"set:{setting}:edit")
    return await member.submit_modal(shown, {"value": typed})


async def drop_settings_table(storage: Storage) -> None:
    """The database refuses every save from now on, as a broken or full database would."""
    await storage.database.run(
        lambda connection: connection.exec_driver_sql("DROP TABLE server_settings"), write=True
    )


async def test_a_save_that_fails_changes_nothing_and_says_try_again(
    world, admin, storage, discord_rules, caplog
):
    card = await open_card(world, admin)
    await drop_settings_table(storage)
    for change in (
        admin.select(card, ["easy"], custom_id="set:difficulty"),
        admin.slash(world.channel, "settings", challenge_cooldown=60),
    ):
        result = await change
        assert result.ephemeral
        assert result.response.content == NOT_SAVED
    typed = await through_modal_answer(admin, card, "games_per_channel", "5")
    assert typed.response.content == NOT_SAVED
    assert in_memory(world) == DEFAULT_SETTINGS
    assert changes_counted(world, "difficulty") == 0
    assert "Could not save server" in caplog.text


async def test_a_save_that_takes_too_long_changes_nothing(world, admin, storage, discord_rules):
    world.env.bot.get_cog("Settings").save_timeout = 0  # no database answers in no time
    result = await admin.slash(world.channel, "settings", difficulty="easy")
    assert result.response.content == NOT_SAVED
    assert in_memory(world) == DEFAULT_SETTINGS
    assert await storage.load_settings(world.guild.id) is None
