"""What an admin typed or chose in /settings, as a server's settings or the reason it is refused:
pure, no Discord.

Every change goes through `change`, so that the slash command's options, the card's selects
and buttons and its modals refuse the same values the same way, and nothing is half applied.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from bot.core import codec
from bot.core.server import (
    CHALLENGE_COOLDOWN_CHOICES,
    DIFFICULTY_CHOICES,
    MAX_GAMES_PER_CHANNEL,
    MIN_GAMES_PER_CHANNEL,
    TURN_TIMEOUT_CHOICES,
    VARIANT_CHOICES,
    Mark,
    ServerSettings,
    SettingError,
)

# The settings by their field names in ServerSettings, which are also /settings' option names
# and the metric's label: one spelling everywhere.
GAMES_PER_CHANNEL = "games_per_channel"
DIFFICULTY = "difficulty"
VARIANT = "variant"
TURN_TIMEOUT = "turn_timeout"
X_EMOJI = "x_emoji"
O_EMOJI = "o_emoji"
CHALLENGE_COOLDOWN = "challenge_cooldown"
SETTINGS = (
    GAMES_PER_CHANNEL,
    DIFFICULTY,
    VARIANT,
    TURN_TIMEOUT,
    X_EMOJI,
    O_EMOJI,
    CHALLENGE_COOLDOWN,
)
EMOJI_SETTINGS = (X_EMOJI, O_EMOJI)

# A custom emoji as message text writes it: <:name:id>, or <a:name:id> when animated.
_CUSTOM_EMOJI = re.compile(r"<(a?):([A-Za-z0-9_~]{1,32}):([0-9]{15,21})>")
# A custom emoji by its name alone, as a modal's text field lets one type it: name or :name:.
_EMOJI_NAME = re.compile(r":?([A-Za-z0-9_~]{2,32}):?")


class Problem(enum.Enum):
    """Why a value is refused (bot/guilds/view.py says it in one line)."""

    NOT_AN_EMOJI = enum.auto()
    OTHER_SERVER_EMOJI = enum.auto()
    SAME_EMOJI = enum.auto()
    EMOJI_TOO_LONG = enum.auto()
    NOT_A_NUMBER = enum.auto()
    OUT_OF_RANGE = enum.auto()
    NOT_A_CHOICE = enum.auto()


class Refused(NamedTuple):
    setting: str
    problem: Problem


class ServerEmoji(NamedTuple):
    """A custom emoji of the server, as its emoji list shows it."""

    id: int
    name: str
    animated: bool = False


def is_standard_emoji(text: str) -> bool:
    """One standard (Unicode) emoji, as Discord shows it: the `emoji` package's list of them,
    imported on first use (it is a few MB of tables that only /settings needs)."""
    import emoji

    return bool(emoji.is_emoji(text))


def parse_emoji(text: str, server_emoji: Iterable[ServerEmoji]) -> Mark | Problem | None:
    """A mark's emoji from what an admin typed: a standard emoji, a custom emoji of this server
    (`<:name:id>`, or its name), or nothing (the letter)."""
    text = text.strip()
    if not text:
        return None
    own = {found.id: found for found in server_emoji}
    custom = _CUSTOM_EMOJI.fullmatch(text)
    if custom is not None:
        emoji_id = int(custom.group(3))
        if emoji_id not in own:
            return Problem.OTHER_SERVER_EMOJI
        found = own[emoji_id]
        return Mark(found.name, found.id, found.animated)
    if is_standard_emoji(text):
        mark = Mark(text)
        # A board carries its marks in its buttons' custom_ids, which have room for so much.
        return mark if codec.mark_fits(mark) else Problem.EMOJI_TOO_LONG
    by_name = _EMOJI_NAME.fullmatch(text)
    if by_name is not None:
        named = _by_name(by_name.group(1), own.values())
        if named is not None:
            return Mark(named.name, named.id, named.animated)
    return Problem.NOT_AN_EMOJI


def _by_name(name: str, server_emoji: Iterable[ServerEmoji]) -> ServerEmoji | None:
    """The server's emoji of that name; ignoring case only when that names exactly one."""
    candidates = list(server_emoji)
    exact = [found for found in candidates if found.name == name]
    if exact:
        return exact[0]
    folded = [found for found in candidates if found.name.casefold() == name.casefold()]
    return folded[0] if len(folded) == 1 else None


def parse_games_per_channel(text: str) -> int | Problem | None:
    """A number typed in the card's modal; nothing typed: the default."""
    text = text.strip()
    if not text:
        return None
    try:
        number = int(text)
    except ValueError:
        return Problem.NOT_A_NUMBER
    if not MIN_GAMES_PER_CHANNEL <= number <= MAX_GAMES_PER_CHANNEL:
        return Problem.OUT_OF_RANGE
    return number


DEFAULT_CHOICE = "default"  # the select's value for "the bot's default" (turn timeout)


def parse_choice(setting: str, value: str) -> Any:
    """A select's value as the setting's value (Problem.NOT_A_CHOICE for anything it did not
    offer: a forged or outdated click)."""
    if setting == DIFFICULTY:
        return value if value in DIFFICULTY_CHOICES else Problem.NOT_A_CHOICE
    if setting == VARIANT:
        return value if value in VARIANT_CHOICES else Problem.NOT_A_CHOICE
    if setting == TURN_TIMEOUT and value == DEFAULT_CHOICE:
        return None
    choices = {TURN_TIMEOUT: TURN_TIMEOUT_CHOICES, CHALLENGE_COOLDOWN: CHALLENGE_COOLDOWN_CHOICES}
    if setting not in choices or not value.isdecimal() or int(value) not in choices[setting]:
        return Problem.NOT_A_CHOICE
    return int(value)


def default_of(setting: str) -> Any:
    """What a setting is where nobody set it."""
    return _DEFAULTS[setting]


_DEFAULTS: Mapping[str, Any] = {
    field.name: field.default for field in dataclasses.fields(ServerSettings)
}


def change(settings: ServerSettings, changes: Mapping[str, Any]) -> ServerSettings | Refused:
    """`settings` with `changes` (setting -> value, None for an emoji: the letter) applied, or
    why one of them is refused (then none is applied)."""
    for setting, value in changes.items():
        if isinstance(value, Problem):
            return Refused(setting, value)
    try:
        return dataclasses.replace(settings, **changes)
    except SettingError:
        new = {**_fields(settings), **changes}
        if new[X_EMOJI] is not None and new[X_EMOJI] == new[O_EMOJI]:
            setting = O_EMOJI if O_EMOJI in changes else X_EMOJI
            return Refused(setting, Problem.SAME_EMOJI)
        return Refused(next(iter(changes)), Problem.OUT_OF_RANGE)


def changed(old: ServerSettings, new: ServerSettings) -> tuple[str, ...]:
    """The settings that differ, in the card's order."""
    return tuple(name for name in SETTINGS if getattr(old, name) != getattr(new, name))


def _fields(settings: ServerSettings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in SETTINGS}
