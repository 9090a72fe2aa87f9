"""Message catalogs: the committed ones pass the checks, every locale loads, and the checks and
the translator reject what they should."""

import gettext

import discord
import pytest
from babel.messages.catalog import Catalog
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

from bot import i18n
from bot.i18n.translator import CommandTranslator
from tests.support.probe import run_python
from tools import i18n as tools

# --- the committed catalogs --------------------------------------------------------------------


def test_committed_catalogs_pass_every_check():
    assert tools.check() == []


def test_cli_check_exits_0(capsys):
    assert tools.main(["check"]) == 0
    assert "OK" in capsys.readouterr().out


def test_locales_are_discords_in_enum_order():
    assert tuple(locale.value for locale in discord.Locale) == i18n.LOCALES
    assert len(i18n.LOCALES) == 32
    assert i18n.SOURCE_LOCALE == "en-US"


@pytest.mark.parametrize("code", i18n.LOCALES)
def test_every_locale_loads(code):
    catalog = i18n.translations(code)
    if code == i18n.SOURCE_LOCALE:
        assert type(catalog) is gettext.NullTranslations
    else:
        assert i18n.catalog_path(code).is_file()
        assert i18n.compiled_path(code).is_file()
        assert isinstance(catalog, gettext.GNUTranslations)  # its .mo, not the fallback
    assert catalog is i18n.translations(code)  # cached
    assert catalog.gettext("Not a message") == "Not a message"
    assert catalog.ngettext("{n} game", "{n} games", 1) == "{n} game"


@pytest.mark.parametrize("code", tools.target_locales())
def test_plural_forms_follow_cldr(code):
    nplurals, expression = tools.plural_forms(code)  # raises when no expression matches CLDR
    catalog = i18n.read_catalog(i18n.catalog_path(code))
    assert catalog.num_plurals == nplurals
    assert tools._same_rule(catalog.plural_expr, expression)


@pytest.mark.parametrize("code", tools.target_locales())
def test_the_bot_shows_what_its_po_file_says(code):
    """The running bot reads the committed .mo files, without Babel: every message, plural form
    and context as Babel compiles them from the .po files the translators edit."""
    ours = i18n.translations(code)
    babels = i18n.compile_catalog(i18n.read_catalog(i18n.catalog_path(code)))
    assert isinstance(ours, gettext.GNUTranslations)
    assert ours._catalog == babels._catalog  # type: ignore[attr-defined]
    assert [ours.ngettext("a", "b", n) for n in range(200)] == [
        babels.ngettext("a", "b", n) for n in range(200)
    ]


def test_plural_forms_where_babels_table_disagrees_with_cldr():
    assert tools.plural_forms("ru")[0] == 3
    assert tools.plural_forms("ja") == (1, "0")
    assert tools.plural_forms("id") == (1, "0")
    assert tools.plural_forms("hu") == (2, "(n != 1)")
    assert tools.plural_forms("tr") == (2, "(n != 1)")
    assert tools.plural_forms("hi") == (2, "(n > 1)")  # 0 takes the singular, as in French
    assert tools.plural_forms("fr") == (2, "(n > 1)")


# --- looking catalogs up -----------------------------------------------------------------------


def test_unknown_or_missing_locale_is_english():
    english = i18n.translations(None)
    assert type(english) is gettext.NullTranslations
    assert i18n.translations("xx") is english
    assert i18n.translations("") is english
    assert i18n.translations(i18n.SOURCE_LOCALE) is english
    assert english.gettext("{player} to move") == "{player} to move"
    assert english.ngettext("{n} second", "{n} seconds", 2) == "{n} seconds"
    assert english.pgettext("button", "Resign") == "Resign"


def test_discord_locale_objects_are_accepted():
    assert i18n.translations(discord.Locale.brazil_portuguese) is i18n.translations("pt-BR")


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("pt-BR", "pt-BR"),
        ("pt_br", "pt-BR"),
        ("ZH-tw", "zh-TW"),
        ("es-419", "es-419"),
        ("es-ES", "es-ES"),
        ("es-MX", "es-419"),
        ("es", "es-ES"),
        ("de-AT", "de"),
        ("en", "en-US"),
        ("en-GB", "en-GB"),
        ("en-AU", "en-US"),
        ("zh", "zh-CN"),
        ("zh-Hant-HK", "zh-TW"),
        ("nb", "no"),
        ("sv", "sv-SE"),
        ("xx", "en-US"),
        ("", "en-US"),
        (None, "en-US"),
        (discord.Locale.japanese, "ja"),
    ],
)
def test_normalize(tag, code):
    assert i18n.normalize(tag) == code


@pytest.mark.parametrize("code", i18n.LOCALES)
def test_babel_knows_every_locale(code):
    from babel import Locale

    assert Locale.parse(i18n.babel_locale(code))


def test_babel_ids_of_the_codes_that_differ():
    assert i18n.babel_locale("zh-CN") == "zh_Hans_CN"
    assert i18n.babel_locale("zh-TW") == "zh_Hant_TW"
    assert i18n.babel_locale("no") == "nb"
    assert i18n.babel_locale("es-419") == "es_419"
    assert i18n.babel_locale("pt-BR") == "pt_BR"


# --- the slash-command translator --------------------------------------------------------------


def _german() -> gettext.GNUTranslations:
    catalog = tools.new_catalog("de")
    catalog.add("Play tic-tac-toe", "Tic-Tac-Toe spielen")
    catalog.add("opponent", "gegner")
    catalog.add("play", "spielen", context="command name")
    catalog.add("board", "Spiel Brett")  # not a valid command name
    catalog.add("Untranslated", "")
    return i18n.compile_catalog(catalog)


def _context(location: TranslationContextLocation) -> TranslationContext:
    # The stubs tie each location to the type of its data: a bare context (no data) fits none.
    return TranslationContext(location=location, data=None)  # type: ignore[call-overload]


@pytest.fixture
def translator():
    german = _german()
    return CommandTranslator(lambda code: german if code == "de" else i18n.translations(code))


async def test_command_translator_translates_known_strings(translator):
    description = _context(TranslationContextLocation.command_description)
    name = _context(TranslationContextLocation.command_name)
    german = discord.Locale.german
    translate = translator.translate
    assert await translate(locale_str("Play tic-tac-toe"), german, description) == (
        "Tic-Tac-Toe spielen"
    )
    parameter = _context(TranslationContextLocation.parameter_name)
    assert await translate(locale_str("opponent"), german, parameter) == "gegner"
    assert await translate(locale_str("play", context="command name"), german, name) == "spielen"


async def test_command_translator_returns_none_without_a_translation(translator):
    description = _context(TranslationContextLocation.command_description)
    name = _context(TranslationContextLocation.command_name)
    german = discord.Locale.german
    translate = translator.translate
    assert await translate(locale_str("Unknown text"), german, description) is None
    assert await translate(locale_str("Untranslated"), german, description) is None
    assert await translate(locale_str("play"), german, name) is None  # no context, no match
    assert await translate(locale_str("board"), german, name) is None  # Discord would refuse it
    english = discord.Locale.american_english
    assert await translate(locale_str("Play tic-tac-toe"), english, description) is None
    japanese = discord.Locale.japanese  # the committed catalogs
    assert await CommandTranslator().translate(locale_str("Zzz"), japanese, name) is None


async def test_command_translator_loads_every_catalog():
    loaded: list[str] = []

    def catalogs(code: str) -> gettext.NullTranslations:
        loaded.append(code)
        return i18n.translations(code)

    await CommandTranslator(catalogs).load()
    assert loaded == list(i18n.LOCALES)


# --- extraction --------------------------------------------------------------------------------

SAMPLE_SOURCE = """
from discord import app_commands
from discord.app_commands import locale_str

from bot.i18n import translations


def screen(tr, locale, player, n, self):
    _ = tr.gettext
    # Translators: the status line under the board
    a = _("{player} to move").format(player=player)
    b = tr.gettext("Draw!")
    c = translations(locale).ngettext("{n} second", "{n} seconds", n).format(n=n)
    d = tr.pgettext("button", "Resign")
    e = tr.npgettext("score", "{n} win", "{n} wins", n).format(n=n)
    f = locale_str("Play tic-tac-toe")
    g = app_commands.locale_str("play", context="command name")
    h = self._("Method call")
    i = _("Implicit " "concatenation")
    j = _(f"An f-string {n}")
    k = _(player)
    return a, b, c, d, e, f, g, h, i, j, k
"""


def test_babel_extracts_every_call_form(tmp_path):
    sources = tmp_path / "bot"
    sources.mkdir()
    (sources / "screen.py").write_text(SAMPLE_SOURCE, encoding="utf-8")
    template = tools.extract_template(sources)
    found = {(message.context, message.id) for message in template if message.id}
    assert found == {
        (None, "{player} to move"),
        (None, "Draw!"),
        (None, ("{n} second", "{n} seconds")),
        ("button", "Resign"),
        ("score", ("{n} win", "{n} wins")),
        (None, "Play tic-tac-toe"),
        ("command name", "play"),
        (None, "Method call"),
        (None, "Implicit concatenation"),
    }  # not the f-string nor the variable
    status = template.get("{player} to move")
    assert status is not None
    assert status.auto_comments == ["the status line under the board"]
    assert status.locations == [("bot/screen.py", 11)]
    assert "python-brace-format" in status.flags
    assert tools.check_sources(sources) == [
        "bot/screen.py:20: _() of an f-string is not extracted: use .format"
    ]


def test_check_sources_rejects_other_locale_str_extras(tmp_path):
    (tmp_path / "cog.py").write_text('locale_str("x", description="y")\n', encoding="utf-8")
    assert tools.check_sources(tmp_path) == [
        f"{tmp_path.name}/cog.py:1: locale_str() takes only context=, not ['description']"
    ]


def test_out_of_date_template_is_reported():
    committed = Catalog()
    extracted = Catalog()
    extracted.add("{player} to move")
    extracted.add("Bad {")
    extracted.add("Positional {}")
    problems = tools.check_template(committed, extracted)
    assert len(problems) == 3
    assert "out of date" in problems[0]
    assert "not a valid format string" in problems[1]
    assert "positional placeholder" in problems[2]
    assert tools.check_template(extracted, extracted) == problems[1:]


# --- the checks reject broken catalogs ---------------------------------------------------------

STATUS = "{player} to move"
WIN = "🏆 **<@{winner}> wins!** Next game <t:{deadline}:R>, or </tictactoe:123>."
SECONDS = ("{n} second left", "{n} seconds left")
GAMES = ("one game", "{n} games")
RESIGN = "Resign"


def _template() -> Catalog:
    template = Catalog()
    for message in (STATUS, WIN, SECONDS, GAMES):
        template.add(message)
    template.add(RESIGN, context="button")
    return template


# msgid -> translation: a string for a string, the plural forms for a (singular, plural) pair.
Translations = dict[str | tuple[str, ...], str | tuple[str, ...]]

GOOD: dict[str, Translations] = {
    "de": {
        STATUS: "{player} ist am Zug",
        WIN: "🏆 **<@{winner}> gewinnt!** Nächstes Spiel <t:{deadline}:R>, oder </tictactoe:123>.",
        SECONDS: ("noch eine Sekunde", "noch {n} Sekunden"),  # "one" is n=1 only: {n} may go
        GAMES: ("ein Spiel", "{n} Spiele"),
        RESIGN: "Aufgeben",
    },
    "ru": {
        STATUS: "Ходит {player}",
        WIN: "🏆 **<@{winner}> побеждает!** Следующая игра <t:{deadline}:R>, или </tictactoe:123>.",
        SECONDS: ("осталась {n} секунда", "осталось {n} секунды", "осталось {n} секунд"),
        GAMES: ("{n} игра", "{n} игры", "{n} игр"),  # form 0 is 1, 21, 31...: keeps {n}
        RESIGN: "Сдаться",
    },
    "ja": {
        STATUS: "{player} の番です",
        WIN: "🏆 **<@{winner}> の勝ち!** 次のゲーム <t:{deadline}:R>、または </tictactoe:123>。",
        SECONDS: ("残り {n} 秒",),
        GAMES: ("{n} ゲーム",),
        RESIGN: "投了",
    },
}


def _catalog(code: str, strings: dict, *, fuzzy: tuple = ()) -> Catalog:
    catalog = tools.new_catalog(code)
    catalog.update(_template())
    for message in catalog:
        if message.id:
            key = message.id if isinstance(message.id, str) else tuple(message.id)
            message.string = strings[key]
            if message.id in fuzzy:
                message.flags.add("fuzzy")
    return catalog


def _problems(code: str, catalog: Catalog) -> list[str]:
    return tools.check_catalog(code, catalog, _template())


@pytest.mark.parametrize("code", GOOD)
def test_good_catalogs_pass(code):
    catalog = _catalog(code, GOOD[code])
    assert _problems(code, catalog) == []
    compiled = i18n.compile_catalog(catalog)
    status = GOOD[code][STATUS]
    assert isinstance(status, str)
    assert compiled.gettext(STATUS).format(player="X") == status.format(player="X")
    assert compiled.pgettext("button", RESIGN) == GOOD[code][RESIGN]


def test_plural_forms_follow_the_language():
    russian = i18n.compile_catalog(_catalog("ru", GOOD["ru"]))
    forms = [russian.ngettext(*GAMES, n).format(n=n) for n in (1, 3, 5, 11, 21)]
    assert forms == ["1 игра", "3 игры", "5 игр", "11 игр", "21 игра"]


def _broken(code: str, key, text) -> list[str]:
    return _problems(code, _catalog(code, {**GOOD[code], key: text}))


@pytest.mark.parametrize(
    ("code", "key", "text", "problem"),
    [
        ("de", STATUS, "Am Zug", "placeholder {player} missing"),
        ("de", STATUS, "{spieler} ist am Zug", "unknown placeholder {spieler}"),
        ("de", STATUS, "{player} ist am Zug {n}", "unknown placeholder {n}"),
        ("de", STATUS, "{player ist am Zug", "not a valid format string"),
        ("de", STATUS, "", "untranslated"),
        ("de", WIN, WIN.replace("<@{winner}>", "{winner}"), "markup <@{winner}> missing"),
        ("de", WIN, WIN.replace("<@{winner}>", "<@!{winner}>"), "markup <@!{winner}> added"),
        ("de", WIN, WIN.replace(":R>", ":F>"), "markup <t:{deadline}:R> missing"),
        ("de", WIN, WIN.replace("</tictactoe:123>", "/tictactoe"), "markup </tictactoe:123>"),
        ("de", WIN, WIN.replace("**", ""), "2 '**' (bold) in the English, 0 here"),
        ("de", WIN, WIN.replace("🏆 ", ""), "emoji 🏆 missing"),
        ("de", SECONDS, ("noch eine Sekunde", "noch Sekunden"), "msgstr[1]: placeholder {n}"),
        ("de", SECONDS, ("noch eine Sekunde", ""), "msgstr[1] untranslated"),
        ("ru", GAMES, ("игра", "{n} игры", "{n} игр"), "msgstr[0]: placeholder {n} missing"),
        ("ru", GAMES, ("{n} игра", "{n} игры"), "2 plural forms, the language has 3"),
        ("ja", SECONDS, ("残り秒",), "msgstr[0]: placeholder {n} missing"),
    ],
)
def test_check_rejects_broken_translations(code, key, text, problem):
    problems = _broken(code, key, text)
    assert any(problem in reported for reported in problems), problems
    assert len(problems) <= 2, problems  # a changed mention is one missing and one added


def test_check_rejects_fuzzy_missing_stale_and_wrong_plural_forms():
    catalog = _catalog("de", GOOD["de"], fuzzy=(STATUS,))
    catalog.delete(RESIGN, context="button")
    catalog.add("Gone from the sources", "Nicht mehr da")
    catalog.mime_headers = [("Plural-Forms", "nplurals=1; plural=0;")]
    problems = "\n".join(_problems("de", catalog))
    assert f"de: {STATUS!r}: fuzzy" in problems
    assert "de: [button] 'Resign': missing" in problems
    assert "de: 'Gone from the sources': not in the template" in problems
    assert "de: Plural-Forms is 'nplurals=1; plural=0;'" in problems


def test_check_reports_a_catalog_that_does_not_compile():
    catalog = _catalog("de", GOOD["de"])
    catalog.mime_headers = [("Plural-Forms", "nplurals=2; plural=(n !!! 1);")]
    problems = _problems("de", catalog)
    assert any("Plural-Forms" in problem for problem in problems)
    assert any(problem.startswith("de: does not compile") for problem in problems)


def test_check_reports_missing_catalog_files(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    missing = [problem for problem in tools.check() if "is missing" in problem]
    assert len(missing) == len(tools.target_locales())


def test_check_reports_unreadable_catalog_files(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    tools.update_catalogs(_template())
    path = i18n.catalog_path("fr")
    path.write_text(path.read_text(encoding="utf-8") + "\nnot po syntax\n", encoding="utf-8")
    problems = tools.check()
    assert any(problem.startswith("fr: ") and "cannot be read" in problem for problem in problems)


def test_update_creates_merges_and_keeps_translations(monkeypatch, tmp_path):
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    outcome = tools.update_catalogs(_template())
    assert set(outcome.values()) == {"created"}
    assert set(outcome) == set(tools.target_locales())
    assert not (tmp_path / "en-US").exists()
    assert tools.update_catalogs(_template()) == dict.fromkeys(outcome, "unchanged")

    path = i18n.catalog_path("de")
    catalog = i18n.read_catalog(path)
    status = catalog.get(STATUS)
    assert status is not None
    status.string = GOOD["de"][STATUS]
    tools.write_catalog(path, catalog)
    changed = Catalog()
    changed.add("{player} to move now")
    assert tools.update_catalogs(changed)["de"] == "updated"
    merged = i18n.read_catalog(path).get("{player} to move now")
    assert merged is not None
    assert isinstance(merged.id, str)
    assert merged.string == GOOD["de"][STATUS]
    assert merged.fuzzy  # kept for review, not shown until then
    assert i18n.compile_catalog(i18n.read_catalog(path)).gettext(merged.id) == merged.id
    text = path.read_text(encoding="utf-8")
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in text
    assert "Language: de" in text


@pytest.fixture
def own_locales_dir(monkeypatch, tmp_path):
    """LOCALES_DIR in a temporary directory, with no catalog loaded from anywhere else."""
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    i18n._load.cache_clear()
    yield tmp_path
    i18n._load.cache_clear()


def test_compile_writes_what_the_bot_reads_and_check_reports_a_stale_or_missing_mo(
    own_locales_dir, capsys
):
    tools.update_catalogs(_template())  # creates, and compiles, every catalog
    assert all(i18n.compiled_path(code).is_file() for code in tools.target_locales())
    path, compiled = i18n.catalog_path("de"), i18n.compiled_path("de")
    assert tools.check_compiled("de", i18n.read_catalog(path)) == []

    tools.write_catalog(path, _catalog("de", GOOD["de"]))  # a translator's edit
    translated = i18n.read_catalog(path)
    stale = f"de: {compiled} is not what its bot.po compiles to: run `python -m tools.i18n compile`"
    assert tools.check_compiled("de", translated) == [stale]
    assert [problem for problem in tools.check() if "bot.mo" in problem] == [stale]

    assert tools.main(["compile"]) == 0
    others = " ".join(code for code in tools.target_locales() if code != "de")
    assert capsys.readouterr().out == f"written: de\nunchanged: {others}\n"
    assert tools.check_compiled("de", translated) == []
    german = i18n.translations("de")
    assert german.gettext(STATUS) == GOOD["de"][STATUS]
    assert german.ngettext(*GAMES, 3) == "{n} Spiele"

    compiled.unlink()
    assert tools.check_compiled("de", translated) == [
        f"de: {compiled} is missing: run `python -m tools.i18n compile`"
    ]


@pytest.mark.parametrize("code", ["de", "ru", "ja"])
def test_packed_catalogs_answer_alike_without_their_files(code, own_locales_dir):
    """After the start-up's sync (pack_catalogs), a language's first message comes from memory:
    no file read on a click's path, the same texts and plural forms."""
    compiled = i18n.compiled_path(code)
    compiled.parent.mkdir(parents=True)
    committed = i18n.PACKAGE_DIR / "locales" / compiled.relative_to(own_locales_dir)
    compiled.write_bytes(committed.read_bytes())

    def shown(catalog: gettext.NullTranslations) -> list[str]:
        return [
            catalog.gettext("Challenge to Tic-Tac-Toe"),
            catalog.pgettext("button", "Resign"),
            *(catalog.ngettext("{n} game", "{n} games", n) for n in range(30)),
        ]

    loaded = i18n.translations(code)
    before = shown(loaded)
    i18n.pack_catalogs()
    compiled.unlink()
    unpacked = i18n.translations(code)
    assert unpacked is not loaded
    assert unpacked._catalog == loaded._catalog  # type: ignore[attr-defined]
    assert shown(unpacked) == before
    assert before[0] != "Challenge to Tic-Tac-Toe"


@pytest.mark.parametrize("content", [b"not a .mo file", None])
def test_broken_or_missing_catalog_falls_back_to_english(content, own_locales_dir, caplog):
    path = i18n.compiled_path("de")
    if content is not None:
        path.parent.mkdir(parents=True)
        path.write_bytes(content)
    assert i18n.read_translations("de") is i18n.translations(None)
    assert i18n.translations("de") is i18n.translations(None)
    assert [record.message for record in caplog.records] == [
        f"Cannot load {path}: showing English instead"
    ]  # once


BABEL_PROBE = """
import sys
import bot.__main__
from bot import i18n
for code in i18n.LOCALES:
    i18n.translations(code).ngettext("{n} game", "{n} games", 2)
print(sorted(name for name in sys.modules if name.partition(".")[0] == "babel"))
print(i18n.format_list(["a", "b", "c"], "or", "de"))
"""


def test_a_running_bot_loads_babel_only_to_join_a_list():
    """Reading the catalogs needs no Babel (about 2 MB of a host's memory with its data)."""
    result = run_python(BABEL_PROBE)
    assert result.stdout.splitlines() == ["[]", "a, b oder c"], result.stderr
