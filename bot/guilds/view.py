"""/settings in words and controls, as plain values (bot/view/cards.py): the card, its modals,
the answers; and the custom_ids its controls carry. Pure: no Discord.

Every control's custom_id starts with "set:" and names the setting it changes
(bot/guilds/parse.py's names): `set:<setting>` for a select, `set:<setting>:edit` for a button
that opens the setting's modal, `set:<setting>:reset` for one that puts it back to its default,
and `set:<setting>:modal` for the modal itself. Nothing else travels in it: a click applies to
the server's settings as they are now, whatever the card showed.
"""

from __future__ import annotations

import gettext
from typing import Any, NamedTuple

from bot.core.server import (
    CHALLENGE_COOLDOWN_CHOICES,
    DIFFICULTY_CHOICES,
    MAX_GAMES_PER_CHANNEL,
    MIN_GAMES_PER_CHANNEL,
    TURN_TIMEOUT_CHOICES,
    VARIANT_CHOICES,
    Mark,
    ServerSettings,
)
from bot.guilds.parse import (
    CHALLENGE_COOLDOWN,
    DEFAULT_CHOICE,
    DIFFICULTY,
    GAMES_PER_CHANNEL,
    O_EMOJI,
    SETTINGS,
    TURN_TIMEOUT,
    VARIANT,
    X_EMOJI,
    Problem,
    Refused,
)
from bot.i18n import translations
from bot.view.cards import (
    BLURPLE,
    ButtonSpec,
    Card,
    ModalSpec,
    Reply,
    Section,
    SelectOption,
    SelectSpec,
    Style,
    TextInputSpec,
)
from bot.view.words import N_, difficulty_name

PREFIX = "set:"
EDIT, RESET, MODAL = "edit", "reset", "modal"
VALUE_INPUT = "value"  # the modals' one text field
_ACTIONS = (EDIT, RESET, MODAL)
# The settings changed through a modal (typed), and those through a select (chosen).
TYPED = (GAMES_PER_CHANNEL, X_EMOJI, O_EMOJI)
CHOSEN = (DIFFICULTY, VARIANT, TURN_TIMEOUT, CHALLENGE_COOLDOWN)


class SettingsClick(NamedTuple):
    setting: str
    action: str  # "" for a select


def control_id(setting: str, action: str = "") -> str:
    return f"{PREFIX}{setting}:{action}" if action else f"{PREFIX}{setting}"


def parse_control(custom_id: str) -> SettingsClick | None:
    """A control's custom_id read back; None for one this version never wrote."""
    if not custom_id.startswith(PREFIX):
        return None
    setting, _, action = custom_id[len(PREFIX) :].partition(":")
    if setting not in SETTINGS or (action and action not in _ACTIONS):
        return None
    if not action and setting not in CHOSEN:
        return None
    if action in (EDIT, MODAL) and setting not in TYPED:
        return None
    return SettingsClick(setting, action)


_NAMES = {
    GAMES_PER_CHANNEL: N_("Games per channel"),
    DIFFICULTY: N_("Difficulty"),
    VARIANT: N_("Variant"),
    TURN_TIMEOUT: N_("Turn timeout"),
    X_EMOJI: N_("X shows"),
    O_EMOJI: N_("O shows"),
    CHALLENGE_COOLDOWN: N_("Challenge cooldown"),
}
_EXPLAINED = {
    GAMES_PER_CHANNEL: N_("How many games can run at once in one channel."),
    DIFFICULTY: N_("How well I play in /tictactoe when the player names no level."),
    VARIANT: N_("Which board /tictactoe starts when the player names none."),
    TURN_TIMEOUT: N_("How long a player has for each move before the game ends."),
    X_EMOJI: N_("The emoji the board shows for X: one of this server's, or a standard one."),
    O_EMOJI: N_("The emoji the board shows for O: one of this server's, or a standard one."),
    CHALLENGE_COOLDOWN: N_(
        "How long someone whose challenge was declined or expired waits to challenge again."
    ),
}


_VARIANT_NAMES = {"classic": N_("Classic"), "ultimate": N_("Ultimate Tic-Tac-Toe")}


def variant_name(variant: str, _: Any) -> str:
    return str(_(_VARIANT_NAMES[variant]))


def duration(seconds: int, tr: gettext.NullTranslations) -> str:
    """30 seconds, 1 minute, 14 minutes, 1 hour: the durations /settings offers, in words."""
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return tr.ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    if seconds % 60 == 0:
        minutes = seconds // 60
        return tr.ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes)
    return tr.ngettext("{n} second", "{n} seconds", seconds).format(n=seconds)


def _letter(setting: str) -> str:
    return "X" if setting == X_EMOJI else "O"


def value_text(
    setting: str, settings: ServerSettings, tr: gettext.NullTranslations, *, default_timeout: int
) -> str:
    """A setting's value as the card and the answers show it."""
    _ = tr.gettext
    value: Any = getattr(settings, setting)
    if setting == GAMES_PER_CHANNEL:
        return str(value)
    if setting == DIFFICULTY:
        return difficulty_name(value, _)
    if setting == VARIANT:
        return variant_name(value, _)
    if setting == TURN_TIMEOUT:
        if value in (None, default_timeout):
            return _("{duration} (the default)").format(duration=duration(default_timeout, tr))
        return duration(value, tr)
    if setting == CHALLENGE_COOLDOWN:
        return duration(value, tr) if value else _("Off")
    mark: Mark | None = value
    if mark is None:
        return _("the letter {letter}").format(letter=_letter(setting))
    return mark.markdown


def _section(
    setting: str,
    settings: ServerSettings,
    tr: gettext.NullTranslations,
    *,
    default_timeout: int,
    can_change: bool,
) -> Section:
    _ = tr.gettext
    shown = value_text(setting, settings, tr, default_timeout=default_timeout)
    text = f"**{_(_NAMES[setting])}:** {shown}\n-# {_(_EXPLAINED[setting])}"
    if not can_change:
        return Section(text)
    if setting in CHOSEN:
        return Section(text, _select(setting, settings, tr, default_timeout=default_timeout))
    buttons = [ButtonSpec(control_id(setting, EDIT), Style.PRIMARY, _("Change"), "✏️")]
    if getattr(settings, setting) != getattr(ServerSettings(), setting):
        label = (
            _("Back to 1")
            if setting == GAMES_PER_CHANNEL
            else _("Use the letter {letter}").format(letter=_letter(setting))
        )
        buttons.append(ButtonSpec(control_id(setting, RESET), Style.SECONDARY, label))
    return Section(text, tuple(buttons))


def _select(
    setting: str, settings: ServerSettings, tr: gettext.NullTranslations, *, default_timeout: int
) -> SelectSpec:
    _ = tr.gettext
    current = getattr(settings, setting)
    options: list[SelectOption]
    if setting == DIFFICULTY:
        options = [
            SelectOption(difficulty_name(level, _), level, level == current)
            for level in DIFFICULTY_CHOICES
        ]
    elif setting == VARIANT:
        options = [
            SelectOption(variant_name(variant, _), variant, variant == current)
            for variant in VARIANT_CHOICES
        ]
    elif setting == TURN_TIMEOUT:
        # One entry per length: the default's entry stands for its length, chosen or not.
        default = _("{duration} (the default)").format(duration=duration(default_timeout, tr))
        options = [SelectOption(default, DEFAULT_CHOICE, current in (None, default_timeout))]
        options += [
            SelectOption(duration(seconds, tr), str(seconds), seconds == current)
            for seconds in TURN_TIMEOUT_CHOICES
            if seconds != default_timeout
        ]
        options.sort(key=lambda option: _option_seconds(option, default_timeout))
    else:
        options = [
            SelectOption(
                duration(seconds, tr) if seconds else _("Off"), str(seconds), seconds == current
            )
            for seconds in CHALLENGE_COOLDOWN_CHOICES
        ]
    return SelectSpec(control_id(setting), tuple(options), _(_NAMES[setting]))


def _option_seconds(option: SelectOption, default_timeout: int) -> int:
    return default_timeout if option.value == DEFAULT_CHOICE else int(option.value)


def render_settings(
    settings: ServerSettings,
    locale: str | None,
    *,
    default_timeout: int,
    can_change: bool = True,
    notice: str = "",
) -> Card:
    """The /settings card: every setting with its value and, for those who may change them,
    its control. `notice`: what the last change did (a confirmation or a refusal)."""
    tr = translations(locale)
    _ = tr.gettext
    lines = [notice] if notice else []
    if not can_change:
        lines.append(_("Only members with the Manage Server permission can change these."))
    sections = tuple(
        _section(setting, settings, tr, default_timeout=default_timeout, can_change=can_change)
        for setting in SETTINGS
    )
    return Card(
        BLURPLE,
        "### ⚙️ " + _("Tic-tac-toe settings for this server"),
        "\n".join(lines),
        sections=sections,
    )


def render_modal(setting: str, settings: ServerSettings, locale: str | None) -> ModalSpec:
    """The form where a number or an emoji is typed, filled in with the current value."""
    _ = translations(locale).gettext
    current: Any = getattr(settings, setting)
    if setting == GAMES_PER_CHANNEL:
        field = TextInputSpec(
            VALUE_INPUT,
            _("Games at once in one channel ({low}-{high})").format(
                low=MIN_GAMES_PER_CHANNEL, high=MAX_GAMES_PER_CHANNEL
            ),
            str(current),
            _("Leave empty for 1"),
            max_length=2,
        )
    else:
        field = TextInputSpec(
            VALUE_INPUT,
            _("An emoji of this server, or a standard one"),
            "" if current is None else current.markdown,
            _("Leave empty for the letter {letter}").format(letter=_letter(setting)),
            max_length=100,
        )
    return ModalSpec(control_id(setting, MODAL), _(_NAMES[setting]), (field,))


def render_changed(
    old: ServerSettings,
    new: ServerSettings,
    changed: tuple[str, ...],
    locale: str | None,
    *,
    default_timeout: int,
) -> str:
    """What a change did, in one line per setting."""
    tr = translations(locale)
    _ = tr.gettext
    if not changed:
        return _("Nothing changed: those are the current settings.")
    return "\n".join(
        "✅ "
        + _("{setting}: {old} → {new}").format(
            setting=_(_NAMES[setting]),
            old=value_text(setting, old, tr, default_timeout=default_timeout),
            new=value_text(setting, new, tr, default_timeout=default_timeout),
        )
        for setting in changed
    )


def render_refused(refused: Refused, locale: str | None) -> str:
    """Why a value was refused, in one line (nothing changed)."""
    _ = translations(locale).gettext
    name = _(_NAMES[refused.setting])
    texts = {
        Problem.NOT_AN_EMOJI: _(
            "{setting}: that is not an emoji. Use one of this server's emoji or a standard one."
        ),
        Problem.OTHER_SERVER_EMOJI: _(
            "{setting}: that emoji belongs to another server. Use one of this server's."
        ),
        Problem.SAME_EMOJI: _("{setting}: X and O cannot show the same emoji."),
        Problem.EMOJI_TOO_LONG: _(
            "{setting}: that emoji is too long for a board's buttons. Pick a shorter one."
        ),
        Problem.NOT_A_NUMBER: _("{setting}: type a whole number from {low} to {high}."),
        Problem.OUT_OF_RANGE: _("{setting}: choose a number from {low} to {high}."),
        Problem.NOT_A_CHOICE: _("{setting}: that is not one of the choices."),
    }
    text = texts[refused.problem].format(
        setting=name, low=MIN_GAMES_PER_CHANNEL, high=MAX_GAMES_PER_CHANNEL
    )
    return "⚠️ " + text + " " + _("Nothing was changed.")


def render_not_allowed(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Only members with the Manage Server permission can change these settings."))


def render_not_saved(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Could not save the settings: the database is not answering. Try again."))


def render_needs_database(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Server settings need a database, and this bot runs without one."))


def render_server_only(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Settings are for servers: use /settings in a server."))
