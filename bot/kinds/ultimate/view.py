"""What an ultimate board or challenge looks like, in a given language, as plain values.

The card: the heading as the classic board's (both players, their marks, the level), the last move
named by its small board and then its cell, whose turn it is and where they may play, the picture
of the whole board (bot/kinds/ultimate/picture.py), and one 3x3 grid of buttons: the cells of the
small board the move must (or was chosen to) go to, or, when the move is free, the nine small
boards to pick from. What cannot be clicked now is greyed out; at the end nothing in the grid is.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.codec import Verb
from bot.core.finished import expired_winner
from bot.core.game import AI, Challenge
from bot.core.ultimate_game import DRAWN, UltimateGame
from bot.i18n import translations
from bot.kinds.ultimate import codec, drawing
from bot.view import board
from bot.view.board import (
    ACCENT_NEUTRAL,
    ACCENT_OF_MARK,
    ACCENT_WIN,
    EMPTY_LABEL,
    MARK_STYLE,
    MARK_SWATCH,
    mark_texts,
)
from bot.view.cards import ButtonSpec, Card, Cells, Picture, Style
from bot.view.words import Translate, cell_name, difficulty_name, mention

PICTURE_NAME = "ultimate.png"


def render(
    state: UltimateGame | Challenge, bot_id: int, deadline: int | None, *, key: str | None = None
) -> Card:
    """The message of a game or a challenge; `deadline` (unix seconds) is when it lapses if
    idle; `key` is codec.key(state) if the caller has it."""
    if isinstance(state, Challenge):
        return render_challenge(state, deadline)
    return render_game(state, bot_id, None if state.is_over else deadline, key=key)


def render_game(
    game: UltimateGame,
    bot_id: int,
    deadline: int | None = None,
    *,
    retired: bool = False,
    key: str | None = None,
) -> Card:
    _ = translations(game.locale).gettext
    if key is None:
        key = codec.key(game)
    marks = mark_texts(game.look)
    return Card(
        _accent(game),
        _heading(game, bot_id, marks, _),
        _status(game, bot_id, deadline, retired, marks, _),
        _grid(game, key),
        _controls(game, key, retired, _),
        pings=() if game.pairing is None else game.players,
        picture=_picture(game, bot_id, _),
    )


def render_retired(game: UltimateGame, bot_id: int) -> Card:
    """A finished board whose rematch was posted: no Rematch button any more."""
    return render_game(game, bot_id, retired=True)


def render_expired(state: UltimateGame | Challenge, bot_id: int) -> Card:
    if isinstance(state, Challenge):
        return render_challenge_expired(state)
    return render_game(state.expire(), bot_id)


def render_private(card: Card, locale: str) -> Card:
    return board.with_private_notice(card, locale)


# ------------------------------------------------------------------ the game's text


def _accent(game: UltimateGame) -> int:
    if not game.is_over:
        return ACCENT_OF_MARK[game.mark_to_move]
    return ACCENT_WIN if game.winner_mark or expired_winner(game) else ACCENT_NEUTRAL


def _heading(game: UltimateGame, bot_id: int, marks: Mapping[str, str], _: Translate) -> str:
    lines = [_("## Ultimate Tic-Tac-Toe")]
    for mark, player in (("X", game.x_player), ("O", game.o_player)):
        line = f"{MARK_SWATCH[mark]} **{marks[mark]}** {mention(player, bot_id, _)}"
        if player == AI and game.difficulty is not None:
            level = _("Difficulty: {level}").format(level=difficulty_name(game.difficulty, _))
            line = f"{line} · {level}"
        lines.append(line)
    return "\n".join(lines)


def board_name(board: int, _: Translate) -> str:
    """A small board by the name of its place, as the classic board names its cells."""
    return cell_name(divmod(board, 3), _)


def place_name(action: tuple[int, int], _: Translate) -> str:
    """A move as its small board, then its cell: "top left board, centre"."""
    small, cell = action
    return _("{board} board, {cell}").format(
        board=board_name(small, _), cell=cell_name(divmod(cell, 3), _)
    )


def _status(
    game: UltimateGame,
    bot_id: int,
    deadline: int | None,
    retired: bool,
    marks: Mapping[str, str],
    _: Translate,
) -> str:
    lines = []
    last = game.last_move
    if last is not None:
        mark = game.cells[9 * last[0] + last[1]]
        assert mark is not None
        lines.append(
            _("Last move: **{mark}** → {place}.").format(
                mark=marks[mark], place=place_name(last, _)
            )
        )
    if game.is_over:
        lines.append(result_line(game, bot_id, _))
    elif game.bot_to_move:
        lines.append(_("🤔 {bot} is thinking…").format(bot=mention(AI, bot_id, _)))
    else:
        mover = mention(game.player_to_move, bot_id, _)
        turn = _("▶️ {player} to move ({mark}).").format(player=mover, mark=marks[game.mark_to_move])
        if deadline is not None:
            turn = _("{turn} Time runs out <t:{deadline}:R>.").format(turn=turn, deadline=deadline)
        lines.append(turn)
        lines.append(_where(game, _))
    if retired:
        lines.append(_("🔁 A rematch started below."))
    return "\n".join(lines)


def _where(game: UltimateGame, _: Translate) -> str:
    if game.forced_board is not None:
        return _("Play in the **{board}** board.").format(board=board_name(game.forced_board, _))
    if game.picked is not None:
        return _("Pick a cell of the **{board}** board, or go Back to choose another.").format(
            board=board_name(game.picked, _)
        )
    return _("Your move is free: pick a board, then a cell.")


def result_line(game: UltimateGame, bot_id: int, _: Translate) -> str:
    ended = board.ending_line(game, bot_id, _)
    if ended is not None:
        return ended
    winner = game.winner_id
    if winner is not None:
        return _("🏆 **{winner} wins** with three boards in a row!").format(
            winner=mention(winner, bot_id, _)
        )
    return _("🤝 **Draw:** every board is closed and nobody has three in a row.")


# ------------------------------------------------------------------ the picture and the grid


def _picture(game: UltimateGame, bot_id: int, _: Translate) -> Picture:
    data = drawing.picture_of(game.position, game.is_over)
    return Picture(PICTURE_NAME, data, _alt_text(game, game.small_winners, _))


def _alt_text(game: UltimateGame, won: tuple[str | None, ...], _: Translate) -> str:
    """What a screen reader says of the picture: who holds which boards, and the last move."""
    parts = [_("The whole Ultimate Tic-Tac-Toe board.")]
    for mark in ("X", "O"):
        boards = [board_name(b, _) for b, winner in enumerate(won) if winner == mark]
        if boards:
            parts.append(_("{mark} won: {boards}.").format(mark=mark, boards=", ".join(boards)))
    if game.last_move is not None:
        parts.append(_("Last move: {place}.").format(place=place_name(game.last_move, _)))
    return " ".join(parts)


def _grid(game: UltimateGame, key: str) -> Cells:
    shown = game.shown_board
    open_now = not game.is_over and not game.bot_to_move
    if shown is not None:
        marks = game.cells[9 * shown : 9 * shown + 9]
        return Cells(
            tuple(codec.cell_id(key, cell) for cell in range(9)),
            tuple(Style.SECONDARY if mark is None else MARK_STYLE[mark] for mark in marks),
            tuple(EMPTY_LABEL if mark is None else mark for mark in marks),
            disabled=tuple(mark is not None or not open_now for mark in marks),
        )
    # The picker: one button per small board, a closed one showing who holds it.
    won = game.small_winners
    playable = set(game.playable_boards) if open_now else set()
    return Cells(
        tuple(codec.pick_id(key, board) for board in range(9)),
        tuple(_board_style(winner) for winner in won),
        tuple(_board_label(board, winner) for board, winner in enumerate(won)),
        disabled=tuple(board not in playable for board in range(9)),
    )


def _board_style(winner: str | None) -> Style:
    if winner in MARK_STYLE:
        return MARK_STYLE[winner]
    return Style.SECONDARY


def _board_label(board: int, winner: str | None) -> str:
    if winner is None:
        return str(board + 1)  # the terminal game's numbers: 1-9, row by row
    return "=" if winner == DRAWN else winner  # a drawn board: nobody holds it


def _controls(game: UltimateGame, key: str, retired: bool, _: Translate) -> tuple[ButtonSpec, ...]:
    secondary = Style.SECONDARY
    if game.is_over:
        buttons = []
        if not retired and game.pairing is None:
            rematch = codec.control_id(key, Verb.REMATCH)
            buttons.append(ButtonSpec(rematch, Style.PRIMARY, _("Rematch"), "🔁"))
        buttons.append(ButtonSpec(codec.control_id(key, Verb.REVIEW), secondary, _("Review"), "📜"))
        return tuple(buttons)
    buttons = []
    if game.picked is not None:
        buttons.append(ButtonSpec(codec.control_id(key, Verb.BACK), secondary, _("Back"), "↩️"))
    if game.vs_ai and game.pairing is None:
        buttons.append(ButtonSpec(codec.control_id(key, Verb.HINT), secondary, _("Hint"), "💡"))
    buttons.append(ButtonSpec(codec.control_id(key, Verb.RESIGN), secondary, _("Resign"), "🏳️"))
    return tuple(buttons)


# ------------------------------------------------------------------ challenges


def render_challenge(challenge: Challenge, deadline: int | None = None) -> Card:
    """The classic invitation, for an ultimate game, with this kind's buttons."""
    card = board.render_challenge(challenge, deadline)
    _ = translations(challenge.locale).gettext
    key = codec.key(challenge)
    accept, decline = card.controls
    return card._replace(
        heading=_("## ⚔️ Ultimate Tic-Tac-Toe challenge"),
        controls=(
            accept._replace(custom_id=codec.control_id(key, Verb.ACCEPT)),
            decline._replace(custom_id=codec.control_id(key, Verb.DECLINE)),
        ),
    )


def render_declined(challenge: Challenge) -> Card:
    _ = translations(challenge.locale).gettext
    card = board.render_challenge_declined(challenge)
    return card._replace(heading=_("## ⚔️ Ultimate Tic-Tac-Toe challenge"))


def render_challenge_expired(challenge: Challenge) -> Card:
    _ = translations(challenge.locale).gettext
    card = board.render_challenge_expired(challenge)
    return card._replace(heading=_("## ⚔️ Ultimate Tic-Tac-Toe challenge"))
