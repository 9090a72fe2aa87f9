"""The Discord side of the translations: localizes slash commands from the bot's catalogs."""

from __future__ import annotations

import gettext
import logging
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any, Final

import discord
from discord import app_commands

from bot.i18n import LOCALES, SOURCE_LOCALE, read_translations

log = logging.getLogger(__name__)


# Discord's limits for localized names (lowercase, no spaces, 1-32) and other texts (1-100).
_NAME_LOCATIONS: Final = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


def _acceptable(text: str, location: app_commands.TranslationContextLocation) -> bool:
    if location not in _NAME_LOCATIONS:
        return 1 <= len(text) <= 100
    return (
        1 <= len(text) <= 32
        and text == text.lower()
        and all(char in "-_" or unicodedata.category(char)[0] in "LNM" for char in text)
    )


Command = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


def _look_up(catalog: gettext.NullTranslations, msgctxt: str | None, message: str) -> str | None:
    """The translation of `message`, None if the catalog has none."""
    text = catalog.gettext(message) if msgctxt is None else catalog.pgettext(msgctxt, message)
    return None if text == message else text


def _key(string: app_commands.locale_str) -> tuple[str | None, str]:
    """(msgctxt, message): how a catalog knows the string."""
    msgctxt = string.extras.get("context")
    return msgctxt if isinstance(msgctxt, str) else None, string.message


class _Recorder(app_commands.Translator):
    """Notes every string a payload asks to translate, and translates none."""

    def __init__(self) -> None:
        self.strings: dict[tuple[str | None, str], None] = {}  # in order, once each

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.strings[_key(string)] = None
        return None


class CommandTranslator(app_commands.Translator):
    """Localizes slash commands (names, descriptions, parameters, choices) from the same catalogs.

    The locale_str's English text is the msgid; ``locale_str("...", context="...")`` looks the
    message up with pgettext. Returns None (Discord then shows the English default) when the
    catalog has no translation, or when a name breaks Discord's rules (lowercase, no spaces,
    at most 32 characters), which would make Discord refuse the whole command.
    Install it in setup_hook, before syncing; then `prepare` the commands' strings, so that the
    sync holds one locale's catalog at a time, not every one (about 1.4 MB)::

        await bot.tree.set_translator(translator := CommandTranslator())
        ...
        await translator.prepare(bot.tree, bot.tree.get_commands())
    """

    def __init__(
        self, catalogs: Callable[[str], gettext.NullTranslations] = read_translations
    ) -> None:
        self._catalogs = catalogs
        # The prepared strings' texts, by locale then (msgctxt, message); None: untranslated.
        self._prepared: dict[str, dict[tuple[str | None, str], str | None]] = {}

    async def load(self) -> None:
        """Read every catalog once at start-up, so that a broken one shows in the log at once."""
        for code in LOCALES:
            self._catalogs(code)

    async def prepare(
        self, tree: app_commands.CommandTree[discord.Client], commands: Iterable[Command]
    ) -> None:
        """Look up every string the payloads of `commands` ask for, one locale at a time."""
        recorder = _Recorder()
        for command in commands:
            await command.get_translated_payload(tree, recorder)
        for code in LOCALES:
            if code == SOURCE_LOCALE:
                continue
            catalog = self._catalogs(code)
            self._prepared[code] = {key: _look_up(catalog, *key) for key in recorder.strings}

    def forget(self) -> None:
        """Drop the prepared texts once synced (a later payload reads the catalogs again)."""
        self._prepared.clear()

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = locale.value
        if code == SOURCE_LOCALE or code not in LOCALES:
            return None
        key = _key(string)
        prepared = self._prepared.get(code)
        if prepared is not None and key in prepared:
            text = prepared[key]
        else:
            text = _look_up(self._catalogs(code), *key)
        if text is None:
            return None
        # A context menu's name is shown as written: any case, spaces allowed.
        location = context.location
        if isinstance(context.data, app_commands.ContextMenu):
            location = app_commands.TranslationContextLocation.other
        if not _acceptable(text, location):
            log.warning(
                "Ignoring the %s translation %r of %r: Discord does not accept it as a %s",
                code,
                text,
                string.message,
                context.location.name,
            )
            return None
        return text
