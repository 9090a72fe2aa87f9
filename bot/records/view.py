"""What stats, leaderboards and the delete-my-data question look like, as plain values.

Pure functions of recorded values and a language (no I/O, no Discord): bot/ui.py turns the
Cards and Replies into messages, with the same look as the board. Numbers are written the
language's way (Babel); times are Discord timestamps, which every client shows in its own
language and time zone.
"""

from __future__ import annotations

import gettext
from typing import Any

import tictactoe as ttt
from bot.core.game import AI
from bot.core.ultimate_game import ULTIMATE
from bot.i18n import babel_locale, normalize, translations
from bot.records.api import (
    CLASSIC,
    BotRow,
    Finish,
    GameRecord,
    Page,
    PlayerStats,
    PuzzleStats,
    Rating,
    RatingRow,
    Tally,
    VariantStats,
)
from bot.records.buttons import KEEP_ID, forget_id, page_id, review_id
from bot.view.board import ACCENT_NEUTRAL, ACCENT_OF_MARK, ACCENT_WIN
from bot.view.cards import ButtonSpec, Card, Reply, Style
from bot.view.words import Translate, difficulty_name

RATINGS, VS_BOT, PUZZLES = "r", "b", "p"  # the leaderboard tables, as their buttons name them
ULTIMATE_RATINGS = "u"  # the ratings of ultimate games (bot.core.ultimate_game.ULTIMATE)
# Each kind's rating board (classic's is RATINGS), and the other way round.
RATING_TABLES = {CLASSIC: RATINGS, ULTIMATE: ULTIMATE_RATINGS}
KIND_OF_TABLE = {table: kind for kind, table in RATING_TABLES.items()}
PER_PAGE = 10


def number(value: float, locale: str | None) -> str:
    """A whole number the language's way: 1,623 in English, 1.623 in German, 1 623 in French."""
    # Imported on first use, as bot.i18n.format_list imports Babel: not in every bot's memory.
    from babel.numbers import format_decimal

    return format_decimal(round(value), locale=babel_locale(normalize(locale)))


def tally_text(tally: Tally, tr: gettext.NullTranslations) -> str:
    wins = tr.ngettext("{n} win", "{n} wins", tally.wins).format(n=tally.wins)
    draws = tr.ngettext("{n} draw", "{n} draws", tally.draws).format(n=tally.draws)
    losses = tr.ngettext("{n} loss", "{n} losses", tally.losses).format(n=tally.losses)
    return f"{wins} · {draws} · {losses}"


def rating_text(rating: Rating, locale: str | None) -> str:
    """The rating, said to be provisional while it is (in words: Discord has no tooltip to
    explain a mark such as lichess's "1500?", which reads as a question)."""
    shown = number(rating.value, locale)
    if not rating.provisional:
        return shown
    return translations(locale).gettext("{rating} (provisional)").format(rating=shown)


# ------------------------------------------------------------------------------ /stats


def render_stats(
    stats: PlayerStats,
    locale: str | None,
    *,
    in_server: bool,
    with_games: bool,
) -> Card:
    """A player's record. `with_games`: list the last games, each with a Review button (a
    player's own stats only: someone else's never say where or against whom they played)."""
    tr = translations(locale)
    _ = tr.gettext
    player = f"<@{stats.user_id}>"
    lines = [player]
    played = stats.vs_people.games + sum(tally.games for tally in stats.vs_bot.values())
    if not played and not stats.recent and not stats.variants:
        lines.append(_("No recorded games yet."))
        if stats.puzzles is not None:
            lines.append(_puzzle_line(stats.puzzles, locale, _))
        return Card(ACCENT_NEUTRAL, _("## 📊 Tic-Tac-Toe stats"), "\n".join(lines))
    if played or not stats.variants:
        lines.append(_rating_line(stats.rating, stats.rank, locale, in_server, _))
        lines += _results_lines(
            stats.vs_people, stats.vs_bot, stats.current_streak, stats.best_streak, locale, tr
        )
    if stats.puzzles is not None:
        lines.append(_puzzle_line(stats.puzzles, locale, _))
    for variant in stats.variants:
        lines += _variant_lines(variant, locale, in_server, tr)
    controls: tuple[ButtonSpec, ...] = ()
    if with_games and stats.recent:
        lines.append(_("**Last games:**"))
        for index, record in enumerate(stats.recent, start=1):
            lines.append(f"{index}. {_game_line(record, stats.user_id, _)}")
        controls = tuple(
            ButtonSpec(
                review_id(record.game_id),
                Style.SECONDARY,
                _("Review {n}").format(n=index),
                "📜",
            )
            for index, record in enumerate(stats.recent[:5], start=1)
            if record.moves is not None and record.kind == CLASSIC  # the others have no review
        )
    return Card(
        ACCENT_OF_MARK[ttt.O], _("## 📊 Tic-Tac-Toe stats"), "\n".join(lines), None, controls
    )


def _results_lines(
    vs_people: Tally,
    vs_bot: dict[str, Tally],
    current_streak: int,
    best_streak: int,
    locale: str | None,
    tr: gettext.NullTranslations,
) -> list[str]:
    """Results against people and each level of the bot, and the win streak."""
    _ = tr.gettext
    lines = [_("**Against people:** {tally}").format(tally=tally_text(vs_people, tr))]
    for level in ttt.DIFFICULTIES:
        if level in vs_bot:
            lines.append(
                _("**Against me, {level}:** {tally}").format(
                    level=difficulty_name(level, _), tally=tally_text(vs_bot[level], tr)
                )
            )
    lines.append(
        _("**Win streak:** {current} now, {best} at best.").format(
            current=number(current_streak, locale), best=number(best_streak, locale)
        )
    )
    return lines


def _variant_lines(
    variant: VariantStats, locale: str | None, in_server: bool, tr: gettext.NullTranslations
) -> list[str]:
    """Another kind's numbers, quoted under its name: apart from classic's."""
    _ = tr.gettext
    lines = [
        _variant_title(variant.kind, _),
        _rating_line(variant.rating, variant.rank, locale, in_server, _),
        *_results_lines(
            variant.vs_people,
            variant.vs_bot,
            variant.current_streak,
            variant.best_streak,
            locale,
            tr,
        ),
    ]
    return [f"> {line}" for line in lines]


def _variant_title(kind: str, _: Translate) -> str:
    if kind != ULTIMATE:  # every kind of records.api.VARIANTS has its title here
        raise ValueError(f"no title for the kind {kind!r}")
    return _("**Ultimate Tic-Tac-Toe**")


def _rating_line(
    rating: Rating | None, rank: int | None, locale: str | None, in_server: bool, _: Translate
) -> str:
    if rating is None:
        return _("**Rating:** none yet. Only games between two people are rated.")
    shown = number(rating.value, locale)
    if rating.provisional:
        shown = _("{rating} (provisional: a few more games settle it)").format(rating=shown)
    if rank is None:
        return _("**Rating:** {rating}").format(rating=shown)
    place = number(rank, locale)
    if in_server:
        return _("**Rating:** {rating}, #{rank} in this server").format(rating=shown, rank=place)
    return _("**Rating:** {rating}, #{rank} of all players").format(rating=shown, rank=place)


def _puzzle_line(puzzles: PuzzleStats, locale: str | None, _: Translate) -> str:
    return _(
        "**Puzzles:** rating {rating}, {solved} of {attempts} solved; solved in a row: "
        "{current} now, {best} at best."
    ).format(
        rating=rating_text(puzzles.rating, locale),
        solved=number(puzzles.solved, locale),
        attempts=number(puzzles.attempts, locale),
        current=number(puzzles.streak, locale),
        best=number(puzzles.best_streak, locale),
    )


def _game_line(record: GameRecord, user_id: int, _: Translate) -> str:
    mine = ttt.X if record.x_player == user_id else ttt.O
    theirs_id = record.o_player if mine == ttt.X else record.x_player
    if theirs_id == AI and record.level is not None:
        opponent = _("me ({level})").format(level=difficulty_name(record.level, _))
    elif theirs_id is None:
        opponent = _("a deleted player")
    else:
        opponent = f"<@{theirs_id}>"
    if record.winner is None:
        line = _("🤝 drew with {opponent}") if record.counted else _("💤 abandoned with {opponent}")
    elif record.winner == mine:
        line = _("🏆 beat {opponent}")
    else:
        line = _("❌ lost to {opponent}")
    line = line.format(opponent=opponent)
    if record.counted and record.finish is Finish.RESIGNED:
        line = _("{result} (resigned)").format(result=line)
    elif record.counted and record.finish is Finish.EXPIRED:
        line = _("{result} (out of time)").format(result=line)
    if record.kind == ULTIMATE:
        line = _("{result} (Ultimate)").format(result=line)
    return f"{line} · <t:{int(record.ended_at)}:R>"


# ------------------------------------------------------------------------------ /leaderboard


def render_rating_board(
    page: Page[RatingRow],
    locale: str | None,
    *,
    in_server: bool,
    command: str,
    kind: str = CLASSIC,
) -> Card:
    """`command`: /tictactoe as the message shows it (see bot.view.words.command_mention);
    `kind`: whose ratings, classic's or another kind's (RATING_TABLES)."""
    tr = translations(locale)
    _ = tr.gettext
    lines = [_scope_line(in_server, _)]
    if not page.rows and kind == CLASSIC:
        lines.append(
            _("Nobody has a rating here yet: play someone with {command}.").format(command=command)
        )
    elif not page.rows:
        lines.append(
            _(
                "Nobody has an Ultimate rating here yet: play someone at Ultimate with {command}."
            ).format(command=command)
        )
    for row in page.rows:
        lines.append(
            f"**{number(row.rank, locale)}.** <@{row.user_id}> · {rating_text(row.rating, locale)}"
        )
    if any(row.rating.provisional for row in page.rows):
        lines.append(_("-# Provisional: too few games to be sure yet."))
    lines.append(page_line(page, locale))
    heading = (
        _("## 🏆 Leaderboard: ratings")
        if kind == CLASSIC
        else _("## 🏆 Leaderboard: Ultimate ratings")
    )
    return Card(
        ACCENT_WIN, heading, "\n".join(lines), None, _page_buttons(page, RATING_TABLES[kind], _)
    )


def render_puzzle_board(page: Page[RatingRow], locale: str | None, *, in_server: bool) -> Card:
    tr = translations(locale)
    _ = tr.gettext
    lines = [_scope_line(in_server, _)]
    if not page.rows:
        lines.append(_("Nobody has a puzzle rating here yet: try /puzzle."))
    for row in page.rows:
        lines.append(
            f"**{number(row.rank, locale)}.** <@{row.user_id}> · {rating_text(row.rating, locale)}"
        )
    if any(row.rating.provisional for row in page.rows):
        lines.append(_("-# Provisional: too few puzzles to be sure yet."))
    lines.append(page_line(page, locale))
    return Card(
        ACCENT_OF_MARK[ttt.O],
        _("## 🧩 Leaderboard: puzzles"),
        "\n".join(lines),
        None,
        _page_buttons(page, PUZZLES, _),
    )


def render_bot_board(page: Page[BotRow], locale: str | None, *, in_server: bool) -> Card:
    tr = translations(locale)
    _ = tr.gettext
    lines = [_scope_line(in_server, _)]
    impossible, hard = difficulty_name(ttt.IMPOSSIBLE, _), difficulty_name(ttt.HARD, _)
    if not page.rows:
        lines.append(
            _("Nobody here has beaten me on {hard} or drawn with me on {impossible} yet.").format(
                hard=hard, impossible=impossible
            )
        )
    else:
        lines.append(
            _("Longest unbeaten run against {impossible} · wins against {hard}").format(
                impossible=impossible, hard=hard
            )
        )
    for row in page.rows:
        # Translators: a row of the bot board, under the line that explains both numbers.
        numbers = _("unbeaten vs {impossible}: {unbeaten} · wins vs {hard}: {wins}").format(
            impossible=impossible,
            unbeaten=number(row.best_unbeaten_impossible, locale),
            hard=hard,
            wins=number(row.wins_hard, locale),
        )
        lines.append(f"**{number(row.rank, locale)}.** <@{row.user_id}> · {numbers}")
    lines.append(page_line(page, locale))
    return Card(
        ACCENT_OF_MARK[ttt.X],
        _("## 🤖 Leaderboard: against me"),
        "\n".join(lines),
        None,
        _page_buttons(page, VS_BOT, _),
    )


def _scope_line(in_server: bool, _: Translate) -> str:
    return _("Players of this server") if in_server else _("All players, everywhere")


def _page_buttons(page: Page[Any], table: str, _: Translate) -> tuple[ButtonSpec, ...]:
    """Previous and Next (when there is such a page), and the other table."""
    grey = Style.SECONDARY
    buttons = []
    if page.page > 0:
        buttons.append(ButtonSpec(page_id(table, page.page - 1), grey, _("Previous"), "◀️"))
    if page.page + 1 < page.pages:
        buttons.append(ButtonSpec(page_id(table, page.page + 1), grey, _("Next"), "▶️"))
    others = (
        (RATINGS, _("Ratings"), "🏆"),
        (ULTIMATE_RATINGS, _("Ultimate"), "🌌"),
        (VS_BOT, _("Against me"), "🤖"),
        (PUZZLES, _("Puzzles"), "🧩"),
    )
    for other, label, emoji in others:
        if other != table:
            buttons.append(ButtonSpec(page_id(other, 0), Style.PRIMARY, label, emoji))
    return tuple(buttons)


def page_line(page: Page[Any], locale: str | None) -> str:
    _ = translations(locale).gettext
    shown = page.pages * PER_PAGE
    if page.total > shown:  # the board stops at its top rows (see bot.records.sql.reading)
        return _("-# Page {page} of {pages}: the top {shown} of {total} players").format(
            page=number(page.page + 1, locale),
            pages=number(page.pages, locale),
            shown=number(shown, locale),
            total=number(page.total, locale),
        )
    return _("-# Page {page} of {pages}").format(
        page=number(page.page + 1, locale), pages=number(page.pages, locale)
    )


# ------------------------------------------------------------------------------ delete my data


def render_forget_question(user_id: int, locale: str | None) -> Reply:
    _ = translations(locale).gettext
    confirm = ButtonSpec(forget_id(user_id), Style.DANGER, _("Delete my data"), "🗑️")
    cancel = ButtonSpec(KEEP_ID, Style.SECONDARY, _("Cancel"))
    return Reply(
        _(
            "Delete your stats, rating and name from every recorded game? Your opponents "
            "keep their own counts. This cannot be undone."
        ),
        (confirm, cancel),
    )


def render_kept(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Nothing was deleted."))


def render_forgotten(games: int, locale: str | None) -> Reply:
    tr = translations(locale)
    text = tr.ngettext(
        "Done: your stats and rating are deleted, and {n} recorded game no longer names you.",
        "Done: your stats and rating are deleted, and {n} recorded games no longer name you.",
        games,
    )
    return Reply(text.format(n=number(games, locale)))


# ------------------------------------------------------------------------------ trouble


def render_unavailable(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(
        _(
            "Stats are unavailable right now: the database is not answering. Your games are "
            "still being recorded; try again in a minute."
        )
    )


def render_game_gone(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("That game is no longer recorded."))


def render_not_your_game(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Only the players of that game can review it."))


def render_no_review(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Ultimate games have no review here yet."))


def render_no_bot_stats(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Bots don't play, so they have no stats."))


__all__ = [
    "PER_PAGE",
    "render_bot_board",
    "render_forget_question",
    "render_forgotten",
    "render_game_gone",
    "render_kept",
    "render_no_bot_stats",
    "render_no_review",
    "render_not_your_game",
    "render_puzzle_board",
    "render_rating_board",
    "render_stats",
    "render_unavailable",
]
