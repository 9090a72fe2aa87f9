"""A lean reader of the bot's .po files for the running bot: the messages gettext looks up,
without Babel.

Babel's ``read_po`` builds a Catalog of Message objects (and imports babel.messages and
babel.dates) only for `compile_catalog` to turn it into a ``.mo`` that gettext parses again: in a
long-running process that garbage stays as fragmented heap. This reads the same files straight
into the dictionary `gettext.GNUTranslations` keeps, with the same entries Babel's ``write_mo``
would give it (fuzzy and untranslated messages left out, empty plural forms shown in English,
obsolete ``#~`` entries ignored); tests/view/test_i18n.py compares the two for every locale.
Message ids are interned, so that the 31 catalogs share one copy of each English text.
"""

from __future__ import annotations

import gettext
import marshal
import re
import sys
import zlib
from pathlib import Path
from typing import Final

__all__ = ["PoSyntaxError", "pack", "read_translations", "unpack"]

_KEYWORD: Final = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$')
_ESCAPE: Final = re.compile(r'\\([\\trn"])')
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}
_PLURAL_FORMS: Final = re.compile(r"^Plural-Forms:\s*(.*)$", re.MULTILINE | re.IGNORECASE)
_PLURAL_EXPRESSION: Final = re.compile(r"plural\s*=\s*([^;]+)")
# English's rule: what gettext uses for a catalog that names none.
_GERMANIC: Final = "n != 1"


class PoSyntaxError(ValueError):
    """The file is not .po syntax, e.g. a msgid without a msgstr."""


def _unquote(text: str, path: Path, number: int) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoSyntaxError(f"{path}:{number}: expected a quoted string, got {text!r}")
    return _ESCAPE.sub(lambda match: _ESCAPES[match.group(1)], text[1:-1])


class _Entry:
    __slots__ = ("context", "field", "fuzzy", "id", "plural", "strings")

    def __init__(self, fuzzy: bool) -> None:
        self.context: str | None = None
        self.id: str | None = None
        self.plural: str | None = None
        self.strings: dict[int, str] = {}
        self.fuzzy = fuzzy
        self.field: tuple[str, int] | None = None  # where continuation lines go

    def append(self, text: str) -> None:
        assert self.field is not None
        keyword, index = self.field
        if keyword == "msgctxt":
            self.context = (self.context or "") + text
        elif keyword == "msgid":
            self.id = (self.id or "") + text
        elif keyword == "msgid_plural":
            self.plural = (self.plural or "") + text
        else:
            self.strings[index] = self.strings.get(index, "") + text


class _Translations(gettext.GNUTranslations):
    """gettext's own lookups (gettext, ngettext, pgettext...) over an already-built catalog."""

    def __init__(self, catalog: dict[object, str], plural_expression: str) -> None:
        gettext.NullTranslations.__init__(self)
        self._catalog = catalog
        self.plural_expression = plural_expression
        self.plural = gettext.c2py(plural_expression)


def pack(translations: gettext.GNUTranslations) -> bytes:
    """`translations` (from read_translations) as compressed bytes: about a fifth of the memory
    of its dictionary and strings."""
    assert isinstance(translations, _Translations)
    data = (translations.plural_expression, translations._catalog)
    return zlib.compress(marshal.dumps(data))


def unpack(packed: bytes) -> gettext.GNUTranslations:
    """The translations `pack` packed (about 0.5 ms for a catalog of the bot's)."""
    plural_expression, packed_catalog = marshal.loads(zlib.decompress(packed))
    catalog: dict[object, str] = {
        (sys.intern(key) if isinstance(key, str) else (sys.intern(key[0]), key[1])): text
        for key, text in packed_catalog.items()
    }
    return _Translations(catalog, plural_expression)


def read_translations(path: Path) -> gettext.GNUTranslations:
    """The translations of the .po file at `path`; raises PoSyntaxError (or OSError)."""
    catalog: dict[object, str] = {}
    plural_expression = _GERMANIC
    entry: _Entry | None = None
    fuzzy = False

    def finish(entry: _Entry | None, number: int) -> None:
        nonlocal plural_expression
        if entry is None or entry.id is None:
            if entry is not None and (entry.context is not None or entry.strings):
                raise PoSyntaxError(f"{path}:{number}: an entry without a msgid")
            return
        if not entry.strings:
            raise PoSyntaxError(f"{path}:{number}: msgid {entry.id!r} has no msgstr")
        if entry.id == "" and entry.context is None:  # the header
            forms = _PLURAL_FORMS.search(entry.strings.get(0, ""))
            expression = forms and _PLURAL_EXPRESSION.search(forms.group(1))
            if expression:
                plural_expression = expression.group(1).strip()
            return
        if entry.fuzzy:
            return
        key = entry.id if entry.context is None else f"{entry.context}\x04{entry.id}"
        key = sys.intern(key)
        if entry.plural is None:
            text = entry.strings.get(0, "")
            if text:
                catalog[key] = text
            return
        count = max(entry.strings) + 1
        strings = [entry.strings.get(index, "") for index in range(count)]
        if not any(strings):
            return  # untranslated: English
        english = (entry.id, entry.plural)
        for index, text in enumerate(strings):
            catalog[(key, index)] = text or english[min(index, 1)]

    with path.open(encoding="utf-8") as file:
        number = 0
        for number, raw in enumerate(file, 1):
            line = raw.strip()
            if not line:
                finish(entry, number)
                entry, fuzzy = None, False
            elif line.startswith("#"):
                if entry is not None and entry.strings:
                    finish(entry, number)
                    entry, fuzzy = None, False
                if line.startswith("#,") and "fuzzy" in line[2:].replace(",", " ").split():
                    fuzzy = True
            elif line.startswith('"'):
                if entry is None or entry.field is None:
                    raise PoSyntaxError(f"{path}:{number}: a string outside an entry")
                entry.append(_unquote(line, path, number))
            else:
                match = _KEYWORD.match(line)
                if match is None:
                    raise PoSyntaxError(f"{path}:{number}: not .po syntax: {line[:40]!r}")
                keyword, index, text = match.groups()
                if keyword in ("msgctxt", "msgid") and entry is not None:
                    if entry.strings or (keyword == "msgctxt" and entry.id is not None):
                        finish(entry, number)
                        entry, fuzzy = None, False
                    elif keyword == "msgid" and entry.id is not None:
                        raise PoSyntaxError(f"{path}:{number}: msgid {entry.id!r} has no msgstr")
                if entry is None:
                    entry = _Entry(fuzzy)
                entry.field = (keyword, int(index or 0))
                entry.append(_unquote(text, path, number))
        finish(entry, number + 1)
    return _Translations(catalog, plural_expression)
