"""The Discord side of the translations: localizes slash commands from the bot's catalogs."""

from __future__ import annotations

import gettext
import logging
import unicodedata
from collections.abc import Callable
from typing import Final

import discord
from discord import app_commands

from bot.i18n import LOCALES, SOURCE_LOCALE, translations

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


class CommandTranslator(app_commands.Translator):
    """Localizes slash commands (names, descriptions, parameters, choices) from the same catalogs.

    The locale_str's English text is the msgid; ``locale_str("...", context="...")`` looks the
    message up with pgettext. Returns None (Discord then shows the English default) when the
    catalog has no translation, or when a name breaks Discord's rules (lowercase, no spaces,
    at most 32 characters), which would make Discord refuse the whole command.
    Install it in setup_hook, before syncing::

        await bot.tree.set_translator(CommandTranslator())
    """

    def __init__(self, catalogs: Callable[[str], gettext.NullTranslations] = translations) -> None:
        self._catalogs = catalogs

    async def load(self) -> None:
        """Load every catalog once at start-up, so that a broken one shows in the log at once."""
        for code in LOCALES:
            self._catalogs(code)

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = locale.value
        if code == SOURCE_LOCALE or code not in LOCALES:
            return None
        catalog = self._catalogs(code)
        message = string.message
        msgctxt = string.extras.get("context")
        if isinstance(msgctxt, str):
            text = catalog.pgettext(msgctxt, message)
        else:
            text = catalog.gettext(message)
        if text == message:
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
                message,
                context.location.name,
            )
            return None
        return text
