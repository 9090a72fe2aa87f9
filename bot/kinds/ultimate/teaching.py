"""Hints and reviews of ultimate games, in words: the AI's judgement, said as such.

Ultimate Tic-Tac-Toe is not solved: a hint is the move the AI's search prefers and its reason
(tictactoe.ultimate.analyse), a review the moves after which the AI's estimate of the mover's
chances dropped most. Both search, so the kind runs them in a worker process (kind.py); these
functions are module-level and take and return plain values, to be sent there.
"""

from __future__ import annotations

import random

from bot.core.ultimate_game import UltimateGame
from bot.i18n import translations
from bot.kinds.ultimate.view import board_name, place_name
from bot.view.cards import Reply
from bot.view.words import Translate, mention
from tictactoe import ultimate
from tictactoe.ultimate import Analysis, Reason

HINT_LEVEL = "impossible"  # a second of search: the AI's best
# Each position of a review gets this many simulated games (about 15 ms): a whole game's review
# stays within a couple of seconds of a worker's time.
REVIEW_PLAYOUTS = 300
# A drop of the mover's estimated score (0 to 1) smaller than this is the search's noise.
NOTABLE_DROP = 0.15
MOST_MARKED = 3


def render_hint(game: UltimateGame, locale: str) -> Reply:
    _ = translations(locale).gettext
    analysis = ultimate.analyse(game.position, HINT_LEVEL, random.Random())
    move = f"**{place_name(analysis.action, _)}**"
    reason = reason_text(analysis, _)
    chance = _("The AI rates your chances at {percent}% with it.").format(
        percent=round(100 * analysis.value)
    )
    return Reply(
        _("💡 The AI would play {move}: {reason}").format(move=move, reason=reason) + "\n" + chance
    )


def reason_text(analysis: Analysis, _: Translate) -> str:
    """Why, in one sentence ending in a full stop."""
    reason = analysis.reason
    named = "" if analysis.board is None else board_name(analysis.board, _)
    if reason is Reason.WINS_GAME:
        return _("it completes three boards in a row and wins.")
    if reason is Reason.FORCED_WIN:
        return _("its search found a win whatever your opponent does.")
    if reason is Reason.BLOCKS_GAME:
        return _("your opponent would win the game there.")
    if reason is Reason.TAKES_BOARD:
        return _("it wins the {board} board.").format(board=named)
    if reason is Reason.BLOCKS_BOARD:
        return _("it stops your opponent taking the {board} board.").format(board=named)
    if reason is Reason.AVOIDS_GIVING:
        return _(
            "other moves would send your opponent where they can take the {board} board."
        ).format(board=named)
    if reason is Reason.ALL_LOSE:
        return _("every move loses against perfect play; this one holds out longest.")
    return _("no tactic stands out: it is the search's best estimate.")


def render_review(game: UltimateGame, locale: str, bot_id: int) -> Reply:
    _ = translations(locale).gettext
    if game.moves is None:
        return Reply(
            _(
                "The order of this game's moves was lost (the bot restarted during it), so there "
                "is no review of it: only its final position is known."
            )
        )
    drops = move_drops(game.moves)
    marked = sorted(
        (drop for drop in drops if drop[1] >= NOTABLE_DROP), key=lambda d: d[1], reverse=True
    )[:MOST_MARKED]
    lines = [_("📜 **Review** (the AI's judgement: Ultimate Tic-Tac-Toe is not solved)")]
    if not marked:
        lines.append(_("The AI saw no move that clearly threw chances away."))
    for index, drop in sorted(marked):
        move = game.moves[index]
        player = game.x_player if index % 2 == 0 else game.o_player
        lines.append(
            _(
                "Move {number}, {player} at {place}: the AI's estimate fell by {percent} points."
            ).format(
                number=index + 1,
                player=mention(player, bot_id, _),
                place=place_name(divmod(move, 9), _),
                percent=round(100 * drop),
            )
        )
    return Reply("\n".join(lines))


def move_drops(moves: tuple[int, ...]) -> list[tuple[int, float]]:
    """For each move (by its index), how much the mover's estimated score fell with it: the
    search's value of the position before, less its value after from the mover's side."""
    rng = random.Random(0)  # a review reads the same every time
    state = ultimate.initial_state()
    values = []  # the player to move's estimated score, per position before each move
    positions = [state]
    for move in moves:
        state = ultimate.result(state, divmod(move, 9))
        positions.append(state)
    for position in positions:
        if ultimate.terminal(position):
            winner = ultimate.winner(position)
            mover = ultimate.player(position)
            values.append(0.5 if winner is None else float(winner == mover))
        else:
            analysis = ultimate.analyse(position, "hard", rng, playouts=REVIEW_PLAYOUTS)
            values.append(analysis.value)
    return [(index, values[index] - (1 - values[index + 1])) for index in range(len(moves))]
