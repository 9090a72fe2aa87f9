"""Every user-facing string of the bot, in the 32 languages Discord supports.

gettext catalogs handled with Babel, rather than Fluent: the runtime is the standard library's
`gettext`; Babel brings each locale's plural rules from CLDR and the extract/merge tooling; and
translators edit standard ``.po`` files that their tools (Weblate, Poedit) already know.

The source language is English (en-US): the English text is the message id, so en-US needs no
catalog. Placeholders are named ``str.format`` fields, filled in after translation::

    from bot.i18n import translations

    tr = translations(interaction.locale)  # "de", "pt-BR", a discord.Locale, None...
    tr.gettext("{player} to move").format(player=mention)
    tr.ngettext("{n} second", "{n} seconds", n).format(n=n)
    tr.pgettext("button", "Resign")
    format_list(["top left", "centre"], "or", interaction.locale)  # "top left or centre"

This package is pure (no Discord): the views use it. bot/i18n/translator.py is the Discord
side, the app_commands Translator that localizes the slash commands from the same catalogs.

Each other locale has ``locales/<code>/LC_MESSAGES/bot.po`` (template: ``bot.pot``), which
translators edit, and next to it ``bot.mo``, the same catalog compiled by Babel, which the bot
reads with the standard library's `gettext.GNUTranslations`. The compiled files are committed
so that the running bot needs no Babel to read its messages (Babel's catalog parser and its
data would cost the bot's process about 2 MB); ``python -m tools.i18n check``, run by the tests
in CI, keeps each one byte for byte what Babel compiles from its ``.po``. A catalog is read on
first use and kept, and its bytes kept compressed: after the start-up's command sync
(`pack_catalogs`), a language's catalog lives only packed in memory until a message is asked in
it. ``python -m tools.i18n`` extracts, merges, compiles and checks the catalogs with Babel
(`read_catalog`, `compile_mo`).
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

__all__ = [
    "DOMAIN",
    "LOCALES",
    "SOURCE_LOCALE",
    "ListStyle",
    "babel_locale",
    "catalog_path",
    "compile_catalog",
    "compile_mo",
    "compiled_path",
    "format_list",
    "normalize",
    "pack_catalogs",
    "read_catalog",
    "read_translations",
    "translations",
]

log = logging.getLogger(__name__)

SOURCE_LOCALE: Final[str] = "en-US"
# Discord's locales (discord.Locale's values, in its order; a test keeps them equal).
LOCALES: Final[tuple[str, ...]] = (
    "en-US", "en-GB", "bg", "zh-CN", "zh-TW", "hr", "cs", "id", "da", "nl", "fi", "fr", "de",
    "el", "hi", "hu", "it", "ja", "ko", "es-419", "lt", "no", "pl", "pt-BR", "ro", "ru", "es-ES",
    "sv-SE", "th", "tr", "uk", "vi",
)  # fmt: skip

DOMAIN: Final = "bot"
PACKAGE_DIR: Final = Path(__file__).resolve().parent
LOCALES_DIR: Final = PACKAGE_DIR / "locales"
TEMPLATE_PATH: Final = PACKAGE_DIR / f"{DOMAIN}.pot"

# Discord's codes are BCP 47 tags; Babel (CLDR) names three of them differently.
_BABEL_IDS: Final = {"zh-CN": "zh_Hans_CN", "zh-TW": "zh_Hant_TW", "no": "nb"}
# For tags Discord does not send itself: the code that stands for a bare language.
_LANGUAGE_DEFAULTS: Final = {
    "en": "en-US",
    "es": "es-ES",
    "nb": "no",
    "nn": "no",
    "pt": "pt-BR",
    "sv": "sv-SE",
    "zh": "zh-CN",
}
_BY_KEY: Final = {code.lower(): code for code in LOCALES}
_SOURCE: Final = gettext.NullTranslations()


@functools.lru_cache(maxsize=256)  # asked on every render, with a few locales
def normalize(locale: object) -> str:
    """The supported Discord locale code for `locale`, or SOURCE_LOCALE.

    Case and ``_``/``-`` do not matter ("pt_br" is "pt-BR"). Other tags fall back to their
    language: "de-AT" is "de", "es-MX" is "es-419", "zh-Hant-HK" is "zh-TW", "pt" is "pt-BR";
    anything unknown is English.
    """
    if locale is None:
        return SOURCE_LOCALE
    key = str(locale).strip().replace("_", "-").lower()
    if key in _BY_KEY:
        return _BY_KEY[key]
    language, *rest = key.split("-")
    if language == "zh" and {"hant", "tw", "hk", "mo"} & set(rest):
        return "zh-TW"
    if language == "es" and rest:
        return "es-419"  # es-ES matched exactly above; other regions are Latin American
    return _BY_KEY.get(language) or _LANGUAGE_DEFAULTS.get(language, SOURCE_LOCALE)


def babel_locale(code: str) -> str:
    """Babel's (CLDR's) identifier for a Discord locale code: "pt-BR" -> "pt_BR", "no" -> "nb"."""
    return _BABEL_IDS.get(code, code.replace("-", "_"))


# The list patterns a sentence can mean: every item ("a, b and c") or any one of them ("a, b or c").
ListStyle = Literal["standard", "or"]


def format_list(items: Sequence[str], style: ListStyle, locale: object) -> str:
    """Items joined as the language joins them (CLDR's list patterns, through Babel): "standard"
    for all of them, "or" for one of them. English "a, b, and c", German "a, b und c", Chinese
    "a、b和c", Japanese "aまたはb"."""
    # Imported on first use: Babel and its CLDR data (several MB) stay out of a bot whose
    # players never see a list (hints, puzzles), as with the locales' data Babel loads lazily.
    from babel import lists

    return lists.format_list(items, style=style, locale=babel_locale(normalize(locale)))


def catalog_path(code: str) -> Path:
    """Where the catalog of a Discord locale code lives (en-US has none: it is the source)."""
    return LOCALES_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled_path(code: str) -> Path:
    """Where the compiled catalog (.mo) of a Discord locale code lives, next to its .po."""
    return catalog_path(code).with_suffix(".mo")


def read_catalog(path: Path) -> Catalog:
    """Parse a .po file with Babel (the tools'); raises babel's PoFileError on a syntax error."""
    from babel.messages.pofile import read_po

    with path.open("rb") as file:
        return read_po(file, abort_invalid=True)


def compile_mo(catalog: Catalog) -> bytes:
    """The .mo file of a catalog, as Babel compiles it (the same bytes for the same catalog).
    Fuzzy and untranslated entries are left out, so gettext falls back to the English msgid for
    them."""
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_catalog(catalog: Catalog) -> gettext.GNUTranslations:
    """Compile to an in-memory .mo and load it with gettext."""
    return gettext.GNUTranslations(io.BytesIO(compile_mo(catalog)))


def translations(locale: object) -> gettext.NullTranslations:
    """The catalog for a Discord locale ("pt-BR", "es-419", "zh-CN", a discord.Locale: its
    str() is the code...), cached; unknown or None gives the source (English)
    NullTranslations. Use its .gettext,
    .ngettext and .pgettext."""
    return _load(normalize(locale))


# Each catalog read, its .mo's bytes compressed: what a language's messages come from once
# pack_catalogs() has let the catalogs go, without reading its file again. By path, not by code:
# tests point LOCALES_DIR elsewhere. None: the file could not be read.
_PACKED: dict[Path, bytes | None] = {}


def pack_catalogs() -> None:
    """Keep the catalogs loaded so far only packed, each unpacked again (in memory: gettext
    parses the .mo, about 1 ms) by the first message asked in its language: the command sync at
    start-up needs every locale's, while players use a few languages (en-US needs none)."""
    _load.cache_clear()


def read_translations(locale: object) -> gettext.NullTranslations:
    """As `translations`, but read anew (from memory once packed) and not kept: for the command
    sync, which needs each locale's catalog once, one at a time."""
    return _read(normalize(locale))


@functools.cache
def _load(code: str) -> gettext.NullTranslations:
    return _read(code)


def _read(code: str) -> gettext.NullTranslations:
    if code == SOURCE_LOCALE:
        return _SOURCE
    path = compiled_path(code)
    if path in _PACKED:
        packed = _PACKED[path]
        return _SOURCE if packed is None else _parse(zlib.decompress(packed))
    try:
        compiled = path.read_bytes()
        loaded = _parse(compiled)
    except Exception:
        # `python -m tools.i18n check` and the tests catch this before a release; at run time a
        # missing or broken catalog must not break the game, so that language shows English.
        log.exception("Cannot load %s: showing English instead", path)
        _PACKED[path] = None
        return _SOURCE
    _PACKED[path] = zlib.compress(compiled)
    return loaded


def _parse(compiled: bytes) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(compiled))
