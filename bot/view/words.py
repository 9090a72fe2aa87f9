"""Words every message uses: people, cells, levels, lines, links, command mentions."""

from __future__ import annotations

import gettext
import math
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction

import tictactoe as ttt
from bot.core.game import AI
from bot.core.players import is_deleted
from bot.i18n import ListStyle, babel_locale, format_list, normalize
from tictactoe.review import Outcome
from tictactoe.review import cell_action as numbered_cell

Translate = Callable[[str], str]


def mention(user_id: int, bot_id: int, _: Translate) -> str:
    """A player as a message names them: the bot, a person, or a player who deleted their data."""
    if is_deleted(user_id):
        return _("a deleted player")
    return f"<@{bot_id if user_id == AI else user_id}>"


def link(label: str, url: str | None) -> str:
    return f"[{label}]({url})" if url else label


def N_(message: str) -> str:
    """gettext's deferred translation: marks a message for the catalogs where a table defines
    it; `_()` translates it where it is shown."""
    return message


_DIFFICULTY_NAMES = {
    ttt.EASY: N_("Easy"),
    ttt.MEDIUM: N_("Medium"),
    ttt.HARD: N_("Hard"),
    ttt.IMPOSSIBLE: N_("Impossible"),
}


_CELL_NAMES = (
    (N_("top left"), N_("top middle"), N_("top right")),
    (N_("middle left"), N_("centre"), N_("middle right")),
    (N_("bottom left"), N_("bottom middle"), N_("bottom right")),
)


def difficulty_name(level: str, _: Translate) -> str:
    return _(_DIFFICULTY_NAMES[level])


def cell_name(cell: ttt.Action, _: Translate) -> str:
    return _(_CELL_NAMES[cell[0]][cell[1]])


def command_mention(command_id: int | None, name: str = "tictactoe") -> str:
    """A clickable command mention when Discord gave the command an id, else its name."""
    return f"</{name}:{command_id}>" if command_id else f"`/{name}`"


def line_name(line: tuple[int, int, int], _: Translate) -> str:
    """A line of three cell numbers (1-9) in words."""
    names = {
        (1, 2, 3): _("the top row"),
        (4, 5, 6): _("the middle row"),
        (7, 8, 9): _("the bottom row"),
        (1, 4, 7): _("the left column"),
        (2, 5, 8): _("the middle column"),
        (3, 6, 9): _("the right column"),
        (1, 5, 9): _("the diagonal from the top left"),
        (3, 5, 7): _("the diagonal from the top right"),
    }
    return names[tuple(sorted(line))]  # type: ignore[index]


def cells_named(
    numbers: tuple[int, ...], style: ListStyle, locale: str | None, _: Translate
) -> str:
    """Cells (numbered 1-9) in words, as the language lists them: all of them ("standard":
    "top left, centre and bottom right") or any one of them ("or")."""
    return format_list([cell_name(numbered_cell(number), _) for number in numbers], style, locale)


def percent(share: Fraction, locale: str | None) -> str:
    """A share (0-1) as a percentage the language's way, rounded down to a tenth of a percent
    (never up to a certainty: 99.96% is "99.9%"), and never shown as 0 when it is not."""
    # Imported on first use, as bot.i18n.format_list imports Babel.
    from babel.numbers import format_percent

    tenths = max(math.floor(share * 1000), 1 if share else 0)
    return format_percent(
        Decimal(tenths) / 1000, locale=babel_locale(normalize(locale)), decimal_quantization=False
    )


def outcome_text(outcome: Outcome, own_moves: int, tr: gettext.NullTranslations) -> str:
    if outcome is Outcome.WIN:
        return tr.ngettext("win in {n} move", "win in {n} moves", own_moves).format(n=own_moves)
    if outcome is Outcome.LOSS:
        return tr.ngettext("loss in {n} move", "loss in {n} moves", own_moves).format(n=own_moves)
    return tr.gettext("draw")
