"""Stub until the catalogs land (replaced by the i18n package)."""

import gettext

SOURCE_LOCALE = "en-US"


def translations(locale: str | None) -> gettext.NullTranslations:
    return gettext.NullTranslations()
