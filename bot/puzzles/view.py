"""What a puzzle looks like, in a given language, as plain values (no Discord, no I/O).

The board is the game's: the same buttons, marks and colours (bot/view/board.py); the words are
the hint's and the review's where they fit (bot/view/teaching.py, bot/view/words.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import tictactoe as ttt
from bot.i18n import translations
from bot.puzzles.ids import Mode, Shown, cell_ids, next_id
from bot.view.board import ACCENT_NEUTRAL, ACCENT_OF_MARK, ACCENT_WIN, MARK_SWATCH, cell_looks
from bot.view.cards import ButtonSpec, Card, Cells, Reply, Style
from bot.view.teaching import reason_text
from bot.view.words import Translate, cell_name, cells_named, line_name
from tictactoe.puzzles import Answer, Attempt, Goal, Refutation, Status, Task, encode
from tictactoe.review import Outcome, ReasonKind, Rows, Verdict, cell_number


class RatingChange(NamedTuple):
    """A finished attempt's effect on the player's puzzle rating (None: not rated)."""

    before: int
    after: int
    puzzle: int  # the puzzle's rating


def render_puzzle(
    attempt: Attempt,
    shown: Shown,
    *,
    step: Answer | None = None,
    change: RatingChange | None = None,
) -> Card:
    """The puzzle's message: the board, whose move it is and the task; after a move, what it
    did; once over, the result and a button for the next puzzle."""
    tr = translations(shown.locale)
    _ = tr.gettext
    daily = shown.mode is not Mode.RATED
    heading = _("## 🧩 Daily puzzle") if daily else _("## 🧩 Tic-Tac-Toe puzzle")
    player = attempt.puzzle.player
    lines = [_("{swatch} You play **{mark}**.").format(swatch=MARK_SWATCH[player], mark=player)]
    if step is not None:
        lines.append(_step_text(step, shown.locale, _))
    task = attempt.task
    if task is not None:
        lines.append(task_text(task, tr.ngettext, _))
    else:
        lines.extend(_rating_lines(shown, change, _))
    board = attempt.board
    winning = _winning_cells(board) if attempt.status is Status.WON else frozenset()
    styles, labels = cell_looks(board, winning)
    cells = Cells(cell_ids(encode(attempt), shown), styles, labels)
    controls: tuple[ButtonSpec, ...] = ()
    if task is None:
        following = next_id(attempt.puzzle.id, *_next_rating(shown, change), shown.locale)
        controls = (ButtonSpec(following, Style.PRIMARY, _("Next puzzle"), "🧩"),)
    return Card(_accent(attempt), heading, "\n".join(lines), cells, controls)


def _accent(attempt: Attempt) -> int:
    if attempt.status is Status.PLAYING:
        return ACCENT_OF_MARK[attempt.puzzle.player]
    return ACCENT_WIN if attempt.solved else ACCENT_NEUTRAL


def _next_rating(shown: Shown, change: RatingChange | None) -> tuple[int, int]:
    if change is None:
        return shown.rating, shown.deviation
    return change.after, shown.deviation


def task_text(task: Task, ngettext: Callable[[str, str, int], str], _: Translate) -> str:
    """The task in words: what the player to move must do, from the position's hint."""
    player, opponent = f"**{task.player}**", f"**{task.opponent}**"
    moves = task.win_in
    if task.goal is Goal.WIN:
        if moves == 1:
            text = _("{player} to move: win at once.")
        elif task.kind is ReasonKind.FORK:
            text = ngettext(
                "{player} to move: make a fork and win in {moves} move.",
                "{player} to move: make a fork and win in {moves} moves.",
                moves,
            )
        elif task.kind is ReasonKind.BLOCK:
            # Translators: {player} and {opponent} are marks, X or O.
            text = ngettext(
                "{player} to move: stop {opponent}'s threat and win in {moves} move.",
                "{player} to move: stop {opponent}'s threat and win in {moves} moves.",
                moves,
            )
        else:
            text = ngettext(
                "{player} to move: force a win in {moves} move.",
                "{player} to move: force a win in {moves} moves.",
                moves,
            )
    elif task.kind is ReasonKind.BLOCK:
        # Translators: {player} and {opponent} are marks, X or O.
        text = _("{player} to move: stop {opponent}'s threat to keep the draw.")
    elif task.kind in (ReasonKind.BLOCK_FORK, ReasonKind.LOST_FORK):
        # Translators: {player} and {opponent} are marks, X or O.
        text = _("{player} to move: stop {opponent}'s fork to keep the draw.")
    else:
        text = _("{player} to move: keep the draw; some moves lose.")
    text = "🎯 " + text.format(player=player, opponent=opponent, moves=moves)
    if task.only_move:
        text += " " + _("Only one move works.")
    return text


def _step_text(step: Answer, locale: str, _: Translate) -> str:
    attempt = step.attempt
    opponent = ttt.O if attempt.puzzle.player == ttt.X else ttt.X
    if attempt.status is Status.FAILED:
        assert attempt.refutation is not None
        return _failure_text(attempt.refutation, locale, _)
    lines = []
    if step.reply is not None:
        lines.append(
            _("✅ Correct. **{opponent}** replies at {cell}.").format(
                opponent=opponent, cell=cell_name(step.reply, _)
            )
        )
    if attempt.status is Status.WON:
        lines.append(_("🏆 **Solved!** Three in a row."))
    elif attempt.status is Status.SECURED:
        lines.append(
            _("🤝 **Solved!** The draw is secured: whatever you play now, you cannot lose.")
        )
    return "\n".join(lines)


def _failure_text(refutation: Refutation, locale: str, _: Translate) -> str:
    cell = cell_name(refutation.move, _)
    before, after = refutation.before.outcome, refutation.after.outcome
    if refutation.verdict is Verdict.INACCURATE:
        wrong = _("❌ **Wrong:** {cell} still wins, but more slowly.")
    elif (before, after) == (Outcome.WIN, Outcome.DRAW):
        wrong = _("❌ **Wrong:** {cell} turns a win into a draw.")
    elif (before, after) == (Outcome.WIN, Outcome.LOSS):
        wrong = _("❌ **Wrong:** {cell} turns a win into a loss.")
    else:
        wrong = _("❌ **Wrong:** {cell} turns a draw into a loss.")
    reply = _("**{opponent}** replies at {cell}.").format(
        opponent=refutation.opponent, cell=cell_name(refutation.reply, _)
    )
    lost = after is Outcome.LOSS
    lines = [
        f"{wrong.format(cell=cell)} {reply}",
        "💡 " + _why_text(refutation, locale, _),
        _right_moves_text(sorted(refutation.correct), lost, locale, _),
    ]
    return "\n".join(lines)


def _why_text(refutation: Refutation, locale: str, _: Translate) -> str:
    """What the wrong move let the opponent do, said to the player about the board they see
    (the reply on it): what the opponent threatens now, or what their reply stopped."""
    opponent, now, answer = f"**{refutation.opponent}**", refutation.now, refutation.reason
    if refutation.verdict is Verdict.INACCURATE and now is not None:
        return reason_text(now, locale)  # still a win: the player's own hint says how
    if now is None and answer.kind is ReasonKind.WIN_NOW:
        assert answer.line is not None
        # Translators: {opponent} is a mark, X or O; {line} a line ("the middle column").
        text = _("{opponent} was threatening {line}, and your move did not block it.")
        return text.format(opponent=opponent, line=line_name(answer.line, _))
    if refutation.after.outcome is Outcome.LOSS and now is not None:
        theirs = cells_named(now.opponent_cells, "standard", locale, _)
        if now.kind is ReasonKind.LOST_FORK:
            # Translators: {opponent} is a mark, X or O; {theirs} a list of cells.
            text = _(
                "Now {opponent} threatens two lines at once ({theirs}): you can block only one."
            )
        elif now.kind is ReasonKind.BLOCK:
            assert now.line is not None
            # Translators: {opponent} is a mark, X or O; {line} a line ("the middle column");
            # {cells} the cell that blocks it.
            text = _(
                "Now {opponent} threatens {line}: blocking it at {cells} does not save the game."
            )
        else:  # UNSTOPPABLE_FORK: with no threat on the board, a fork is coming
            theirs = cells_named(now.opponent_cells, "or", locale, _)
            # Translators: {opponent} is a mark, X or O; {theirs} a cell or a choice of cells.
            text = _(
                "Now {opponent} can make two threats at once next move ({theirs}), "
                "and nothing stops it."
            )
        return text.format(
            opponent=opponent,
            theirs=theirs,
            line="" if now.line is None else line_name(now.line, _),
            cells=cells_named(now.cells, "or", locale, _),
        )
    # The win is gone: the reply stopped it.
    if answer.kind is ReasonKind.BLOCK:
        assert answer.line is not None
        # Translators: {opponent} is a mark, X or O; {line} the player's line ("the top row").
        text = _("{opponent} blocks your threat on {line}, and the win is gone.")
        return text.format(opponent=opponent, line=line_name(answer.line, _))
    if answer.kind is ReasonKind.BLOCK_FORK:
        # Translators: {opponent} is a mark, X or O; {theirs} where the player could have made
        # two threats at once.
        text = _("{opponent} stops the fork you were threatening ({theirs}), and the win is gone.")
        return text.format(
            opponent=opponent, theirs=cells_named(answer.opponent_cells, "or", locale, _)
        )
    # Translators: {opponent} is a mark, X or O.
    return _("{opponent} can hold the draw from here.").format(opponent=opponent)


def _right_moves_text(correct: list[ttt.Action], lost: bool, locale: str, _: Translate) -> str:
    """The moves that were correct; after a lost game, that they would have prevented it."""
    if len(correct) == 1:
        if lost:
            text = _("The right move was {cell}: it would have prevented this.")
        else:
            text = _("The right move was {cell}.")
        return text.format(cell=cell_name(correct[0], _))
    if lost:
        text = _("The right moves were {cells}: any of them would have prevented this.")
    else:
        text = _("The right moves were {cells}.")
    numbers = tuple(cell_number(action) for action in correct)
    return text.format(cells=cells_named(numbers, "or", locale, _))


def _rating_lines(shown: Shown, change: RatingChange | None, _: Translate) -> list[str]:
    if shown.mode is Mode.UNRATED:
        return [_("Not rated: you already tried today's puzzle.")]
    if change is None:
        return []
    difference = change.after - change.before
    return [
        _("📈 Puzzle rating: {before} → **{after}** ({change}). This puzzle: {puzzle}.").format(
            before=change.before,
            after=change.after,
            change=f"{difference:+d}",
            puzzle=change.puzzle,
        )
    ]


def _winning_cells(board: Rows) -> frozenset[ttt.Action]:
    cells: set[ttt.Action] = set()
    for line in ttt.LINES:
        marks = {board[i][j] for i, j in line}
        if len(marks) == 1 and None not in marks:
            cells.update(line)
    return frozenset(cells)


def render_over(locale: str) -> Reply:
    """A click on a finished puzzle's board."""
    _ = translations(locale).gettext
    return Reply(_("This puzzle is over. Press **Next puzzle** for another one."))


def render_invalid(locale: str) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("This puzzle button is not valid. Start one with /puzzle."))


def render_taken(locale: str) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("That cell is taken. Pick an empty one."))
