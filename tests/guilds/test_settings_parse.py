"""/settings' pure parts: what an admin types or picks becomes a setting or one refusal; the card
and its forms stay within Discord's limits in every language; the controls' custom_ids read back;
and the emoji list is only loaded when someone types an emoji."""

from __future__ import annotations

import pytest

from bot.core.server import DEFAULT_SETTINGS, Mark, ServerSettings
from bot.guilds import view
from bot.guilds.parse import (
    Problem,
    Refused,
    ServerEmoji,
    change,
    changed,
    parse_choice,
    parse_emoji,
    parse_games_per_channel,
)
from bot.i18n import LOCALES
from bot.view.components import CONTAINER, card_components, modal_data
from fake_discord.limits import COMPONENTS_V2, modal_problems, problems
from tests.support.probe import run_python

PARTY = ServerEmoji(1_100_000_000_000_000_001, "party")
SPIN = ServerEmoji(1_100_000_000_000_000_002, "Spin", animated=True)
OURS = (PARTY, SPIN)
ELSEWHERE = 1_200_000_000_000_000_003


@pytest.mark.parametrize(
    "typed",
    [
        "🔥",
        "❤️",  # with its presentation selector
        "👍🏽",  # with a skin tone
        "👨‍👩‍👧‍👦",  # a family: four emoji joined
        "🇫🇷",  # a flag
        "1️⃣",  # a keycap
    ],
)
def test_a_standard_emoji_is_taken_as_typed(typed):
    assert parse_emoji(typed, OURS) == Mark(typed)
    assert parse_emoji(f"  {typed} ", OURS) == Mark(typed)


def test_a_custom_emoji_of_this_server_is_taken_by_its_text_or_its_name():
    party = Mark("party", PARTY.id)
    spin = Mark("Spin", SPIN.id, animated=True)
    assert parse_emoji(f"<:party:{PARTY.id}>", OURS) == party
    assert parse_emoji(f"<a:Spin:{SPIN.id}>", OURS) == spin
    # Renamed since the text was copied: the server's current name.
    assert parse_emoji(f"<:old_name:{PARTY.id}>", OURS) == party
    assert parse_emoji(":party:", OURS) == party
    assert parse_emoji("party", OURS) == party
    assert parse_emoji("spin", OURS) == spin  # case ignored when one emoji has that name


@pytest.mark.parametrize(
    ("typed", "problem"),
    [
        ("X", Problem.NOT_AN_EMOJI),
        ("cross", Problem.NOT_AN_EMOJI),
        (":fire:", Problem.NOT_AN_EMOJI),  # a name, but none of this server's
        ("🔥🔥", Problem.NOT_AN_EMOJI),  # two emoji
        ("🔥 x", Problem.NOT_AN_EMOJI),
        ("<:party:12>", Problem.NOT_AN_EMOJI),  # not an id Discord gives
        # A kiss with skin tones: 15 UTF-16 units, more than a board's custom_ids have room for.
        ("👩🏽‍❤️‍💋‍👨🏻", Problem.EMOJI_TOO_LONG),
        (f"<:elsewhere:{ELSEWHERE}>", Problem.OTHER_SERVER_EMOJI),
        (f"<a:party:{ELSEWHERE}>", Problem.OTHER_SERVER_EMOJI),
    ],
)
def test_anything_else_is_refused(typed, problem):
    assert parse_emoji(typed, OURS) is problem


def test_nothing_typed_is_the_letter():
    assert parse_emoji("", OURS) is None
    assert parse_emoji("   ", OURS) is None


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("1", 1),
        ("10", 10),
        (" 7 ", 7),
        ("", None),
        ("0", Problem.OUT_OF_RANGE),
        ("11", Problem.OUT_OF_RANGE),
        ("-3", Problem.OUT_OF_RANGE),
        ("x", Problem.NOT_A_NUMBER),
        ("2.5", Problem.NOT_A_NUMBER),
    ],
)
def test_games_per_channel_as_typed(typed, expected):
    assert parse_games_per_channel(typed) == expected


@pytest.mark.parametrize(
    ("setting", "value", "expected"),
    [
        ("difficulty", "hard", "hard"),
        ("difficulty", "godlike", Problem.NOT_A_CHOICE),
        ("variant", "ultimate", "ultimate"),
        ("variant", "classic", "classic"),
        ("variant", "hexagonal", Problem.NOT_A_CHOICE),  # a forged value
        ("variant", "Ultimate", Problem.NOT_A_CHOICE),
        ("turn_timeout", "default", None),
        ("turn_timeout", "840", 840),
        ("turn_timeout", "45", Problem.NOT_A_CHOICE),
        ("turn_timeout", "-30", Problem.NOT_A_CHOICE),
        ("challenge_cooldown", "0", 0),
        ("challenge_cooldown", "default", Problem.NOT_A_CHOICE),
        ("games_per_channel", "3", Problem.NOT_A_CHOICE),  # not a select's
    ],
)
def test_a_select_offers_only_its_choices(setting, value, expected):
    assert parse_choice(setting, value) == expected


def test_a_change_applies_whole_or_not_at_all():
    fire = Mark("🔥")
    settings = change(DEFAULT_SETTINGS, {"x_emoji": fire, "difficulty": "easy"})
    assert settings == ServerSettings(difficulty="easy", x_emoji=fire)
    assert changed(DEFAULT_SETTINGS, settings) == ("difficulty", "x_emoji")
    assert change(settings, {"o_emoji": fire}) == Refused("o_emoji", Problem.SAME_EMOJI)
    assert change(settings, {"difficulty": "hard", "o_emoji": Problem.NOT_AN_EMOJI}) == Refused(
        "o_emoji", Problem.NOT_AN_EMOJI
    )
    assert change(settings, {"games_per_channel": 11}) == Refused(
        "games_per_channel", Problem.OUT_OF_RANGE
    )
    assert change(settings, {"difficulty": "easy"}) == settings  # the same: nothing changes


# ------------------------------------------------------------------ the card's custom_ids


def test_every_control_reads_back_and_nothing_else_does():
    card = view.render_settings(FULLEST, None, default_timeout=600)
    ids = [
        control.custom_id
        for section in card.sections
        for control in (
            (section.controls,)
            if isinstance(section.controls, view.SelectSpec)
            else section.controls
        )
    ]
    assert len(ids) == 10  # 4 selects, 3 Change, 3 resets (every typed setting is set)
    assert all(view.parse_control(custom_id) is not None for custom_id in ids)
    for setting in ("games_per_channel", "x_emoji", "o_emoji"):
        modal = view.render_modal(setting, FULLEST, None)
        assert view.parse_control(modal.custom_id) == view.SettingsClick(setting, view.MODAL)
    for forged in (
        "set:",
        "set:owner",
        "set:difficulty:edit",  # a select has no form
        "set:x_emoji",  # a typed setting has no select
        "set:games_per_channel:drop",
        "ttt2:whatever",
    ):
        assert view.parse_control(forged) is None, forged


# ------------------------------------------------------------------ Discord's limits

FULLEST = ServerSettings(
    games_per_channel=10,
    difficulty="medium",
    turn_timeout=840,
    x_emoji=Mark("a" * 32, 2**63 - 1, animated=True),
    o_emoji=Mark("👨‍👩‍👧‍👦"),
    challenge_cooldown=3600,
    variant="ultimate",
)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("settings", [DEFAULT_SETTINGS, FULLEST])
def test_the_card_and_its_forms_fit_discords_limits_in_every_language(locale, settings):
    notice = view.render_changed(
        DEFAULT_SETTINGS, settings, changed(DEFAULT_SETTINGS, settings), locale, default_timeout=600
    )
    for can_change in (True, False):
        card = view.render_settings(
            settings, locale, default_timeout=600, can_change=can_change, notice=notice
        )
        components = card_components(card)
        assert [c["type"] for c in components] == [CONTAINER]
        body = {"flags": COMPONENTS_V2, "components": components}
        assert not problems(body), problems(body)
    for setting in ("games_per_channel", "x_emoji", "o_emoji"):
        modal = modal_data(view.render_modal(setting, settings, locale))
        assert not modal_problems(modal), modal_problems(modal)


def test_the_emoji_list_is_loaded_only_when_an_emoji_is_typed():
    """The bot's memory: `emoji`'s tables load on the first emoji typed into /settings."""
    code = (
        "import sys, bot.app, bot.guilds.parse as p;"
        "print('emoji' in sys.modules);"
        "p.parse_emoji('🔥', ());"
        "print('emoji' in sys.modules)"
    )
    shown = run_python(code).stdout.split()
    assert shown == ["False", "True"]
