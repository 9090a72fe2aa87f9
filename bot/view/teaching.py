"""The teacher's answers: a hint for the player to move, and a game's review."""

from __future__ import annotations

from fractions import Fraction

import tictactoe as ttt
from bot.core.game import Game, cell_action
from bot.i18n import translations
from bot.view.board import MARK_SWATCH, result_line
from bot.view.cards import Reply
from bot.view.words import (
    Translate,
    cell_name,
    cells_named,
    difficulty_name,
    line_name,
    mention,
    outcome_text,
    percent,
)
from tictactoe.review import (
    MoveReview,
    Outcome,
    Reason,
    ReasonKind,
    Verdict,
    cell_number,
    hint,
    review,
    winning_chances,
)


def render_hint(game: Game, locale: str | None) -> Reply:
    """Every empty cell's outcome for the player to move, the best ones starred, and why."""
    tr = translations(locale)
    _ = tr.gettext
    advice = hint([list(row) for row in game.board])
    if any(cell.outcome is not Outcome.DRAW for cell in advice.cells):
        header = _("💡 **Hint for {mark}**, by perfect play (counted in the winner's moves):")
    else:  # every cell draws: no moves to count
        header = _("💡 **Hint for {mark}**, by perfect play:")
    lines = [header.format(mark=advice.player)]
    for cell in advice.cells:
        star = "⭐ " if cell.action in advice.best else ""
        lines.append(
            f"{star}**{cell_name(cell.action, _)}**: "
            f"{outcome_text(cell.outcome, cell.own_moves, tr)}"
        )
    lines.append(reason_text(advice.reason, locale))
    if game.difficulty is not None and game.difficulty != ttt.IMPOSSIBLE:
        chance_line = _level_chance_line(game, advice.value.outcome, locale)
        if chance_line is not None:
            lines.append(chance_line)
    return Reply("\n".join(lines))


def _level_chance_line(game: Game, outcome: Outcome, locale: str | None) -> str | None:
    """Against a level that can go wrong, the safe moves that win it most often, when any can
    (perfect play, above, only says what a perfect opponent allows)."""
    if outcome is Outcome.WIN:
        return None  # perfect play wins already, whatever the level does
    assert game.difficulty is not None
    chances = winning_chances([list(row) for row in game.board], game.difficulty)
    best = max(chances.values(), default=Fraction(0))
    if not best:
        return None
    _ = translations(locale).gettext
    numbers = tuple(
        sorted(cell_number(action) for action, chance in chances.items() if chance == best)
    )
    if outcome is Outcome.DRAW:
        # Translators: {level} is a difficulty ("Easy"); {cells} a cell or a choice of cells
        # ("top left or centre"); {chance} a percentage ("83.3%").
        text = _(
            "🎯 **Against {level}**, the best chance to win without risking the draw: "
            "{cells} ({chance} of games)."
        )
    else:
        # Translators: {level} is a difficulty ("Easy"); {cells} a cell or a choice of cells
        # ("top left or centre"); {chance} a percentage ("12.5%").
        text = _(
            "🎯 **Against {level}**, the best chance to still win: {cells} ({chance} of games)."
        )
    return text.format(
        level=difficulty_name(game.difficulty, _),
        cells=cells_named(numbers, "or", locale, _),
        chance=percent(best, locale),
    )


# The reasons whose cells are meant all together; in the others each cell is a choice ("or").
_CELLS_ALL_TOGETHER = frozenset({ReasonKind.KEEP_DRAW})


_THEIRS_ALL_TOGETHER = frozenset({ReasonKind.LOST_FORK})


def reason_text(reason: Reason, locale: str | None) -> str:
    _ = translations(locale).gettext
    kind = reason.kind
    cells = cells_named(
        reason.cells, "standard" if kind in _CELLS_ALL_TOGETHER else "or", locale, _
    )
    theirs = cells_named(
        reason.opponent_cells, "standard" if kind in _THEIRS_ALL_TOGETHER else "or", locale, _
    )
    line = line_name(reason.line, _) if reason.line is not None else ""
    kinds = ReasonKind
    texts = {
        kinds.WIN_NOW: _("You can win right now: {cells}."),
        # Translators: {opponent} is a mark, X or O (the other side), not a person; {line} is
        # a line such as "the middle column"; {cells} a cell's name.
        kinds.BLOCK: _("{opponent} threatens {line}: only this cell stops it: {cells}."),
        # Translators: {opponent} is a mark, X or O (the other side), not a person; {theirs} is
        # a list of cells ("top left and centre").
        kinds.LOST_FORK: _("{opponent} threatens two lines at once ({theirs}): you can block one."),
        # Translators: {opponent} is a mark, X or O (the other side), not a person; {cells} is
        # a cell or a choice of cells ("top left or centre").
        kinds.FORK: _("A fork at {cells}: two threats at once, and {opponent} can block only one."),
        # Translators: {opponent} is a mark, X or O (the other side), not a person; {cells} is
        # a cell or a choice of cells ("top left or centre").
        kinds.FORCE_WIN: _("A threat at {cells} forces {opponent} to answer, then you win."),
        # Translators: {opponent} is a mark, X or O (the other side), not a person; {theirs}
        # and {cells} are each a cell or a choice of cells ("top left or centre").
        kinds.BLOCK_FORK: _(
            "{opponent} could make two threats at once next move ({theirs}): "
            "play {cells} to stop it."
        ),
        # Translators: {opponent} is a mark, X or O (the other side), not a person; {theirs} is
        # a cell or a choice of cells ("top left or centre").
        kinds.UNSTOPPABLE_FORK: _(
            "{opponent} can make two threats at once next move ({theirs}), and nothing stops it."
        ),
        kinds.CENTRE: _("Only the centre keeps the draw."),
        # Translators: {cells} is a choice of corners ("top left or bottom right").
        kinds.CORNER: _("Only a corner keeps the draw: {cells}."),
        # Translators: {cells} is a list of every such cell ("top left, centre and bottom right").
        kinds.KEEP_DRAW: _("These keep the draw: {cells}. Other moves lose."),
        kinds.ANY_DRAWS: _("Every move keeps the draw with good play."),
    }
    return texts[kind].format(opponent=reason.opponent, cells=cells, theirs=theirs, line=line)


def render_review(game: Game, locale: str | None, bot_id: int) -> Reply:
    """The game move by move against perfect play, its first mistake, and the result."""
    tr = translations(locale)
    _ = tr.gettext
    if game.moves is None:
        return Reply(_("This board comes from an older version: its move order is unknown."))
    judged = review([cell_action(move) for move in game.moves])
    verdicts = {
        Verdict.BEST: _("✅ best"),
        Verdict.INACCURATE: _("⚠️ inaccurate (slower)"),
        Verdict.MISTAKE: _("❌ mistake"),
    }
    heading = _("📜 **Review**: {x} {x_player} · {o} {o_player}").format(
        x=f"{MARK_SWATCH[ttt.X]} X",
        x_player=mention(game.x_player, bot_id, _),
        o=f"{MARK_SWATCH[ttt.O]} O",
        o_player=mention(game.o_player, bot_id, _),
    )
    numbered_moves = [
        f"{move.ply}. **{move.player}** {cell_name(move.action, _)}: {verdicts[move.verdict]}"
        for move in judged.moves
    ]
    mistake = judged.first_mistake
    if mistake is None:
        verdict = _("No mistakes: every move kept the best result on offer.")
    else:
        verdict = _first_mistake_text(mistake, locale, _)
    summary = f"{verdict}\n{result_line(game, bot_id, None, _)}"
    # A blank line ends the numbered list: a line right under "6. ..." would be drawn as part
    # of move 6 (Markdown's lazy continuation, which Discord follows).
    return Reply("\n".join((heading, *numbered_moves)) + "\n\n" + summary)


def _first_mistake_text(move: MoveReview, locale: str | None, _: Translate) -> str:
    turned = {
        (Outcome.WIN, Outcome.DRAW): _(
            "First mistake: move {ply} ({mark} → {cell}) turned a win into a draw; "
            "moves that kept the win: {held}."
        ),
        (Outcome.WIN, Outcome.LOSS): _(
            "First mistake: move {ply} ({mark} → {cell}) turned a win into a loss; "
            "moves that kept the win: {held}."
        ),
        (Outcome.DRAW, Outcome.LOSS): _(
            "First mistake: move {ply} ({mark} → {cell}) turned a draw into a loss; "
            "moves that kept the draw: {held}."
        ),
    }
    held_by = tuple(sorted(cell_number(action) for action in move.held_by))
    held = cells_named(held_by, "standard", locale, _)
    return turned[(move.before.outcome, move.after.outcome)].format(
        ply=move.ply, mark=move.player, cell=cell_name(move.action, _), held=held
    )
