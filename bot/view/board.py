"""What a game or a challenge looks like, in a given language, as plain values.

Pure functions, so the look of every state can be tested without Discord; bot/view/components.py
turns a Card into Components V2 JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import tictactoe as ttt
from bot.core import codec
from bot.core.codec import Verb
from bot.core.finished import expired_winner
from bot.core.game import AI, AnyGame, Challenge, Ending, Game, Rows
from bot.core.server import Look, Mark
from bot.i18n import translations
from bot.view.cards import BLURPLE, GREEN, GREY, RED, ButtonSpec, Card, Cells, Style
from bot.view.words import Translate, cell_name, difficulty_name, mention

# The cells are buttons of one size: a one-character label each (Discord gives every button the
# same minimum width), marks at full strength (taken cells stay enabled: Discord draws disabled
# buttons at half opacity), X red and O blurple so shape and colour both tell them apart.
MARK_STYLE = {ttt.X: Style.DANGER, ttt.O: Style.PRIMARY}
WIN_STYLE = Style.SUCCESS


MARK_SWATCH = {ttt.X: "🟥", ttt.O: "🟦"}  # the same colours in text


EMPTY_LABEL = "\u2800"  # a blank that still takes a character's width


ACCENT_OF_MARK = {ttt.X: RED, ttt.O: BLURPLE}


ACCENT_WIN = GREEN


ACCENT_NEUTRAL = GREY


def render_game(
    game: Game,
    bot_id: int,
    deadline: int | None = None,
    *,
    retired: bool = False,
    key: str | None = None,
) -> Card:
    """The board message of `game`; `deadline` (unix seconds) is when it lapses if idle.
    `key` is codec.state_key(game), which every button carries, if the caller has it."""
    _ = translations(game.locale).gettext
    if key is None:
        key = codec.state_key(game)
    marks = mark_texts(game.look)
    return Card(
        _accent(game),
        _game_heading(game, bot_id, marks, _),
        _game_status(game, bot_id, deadline, retired, marks, _),
        _cells(game, key),
        _controls(game, key, retired, _),
        # A board the bot posts itself (a tournament's) calls its two players to it.
        pings=() if game.pairing is None else game.players,
    )


def _accent(game: Game) -> int:
    if not game.is_over:
        return ACCENT_OF_MARK[game.mark_to_move]
    return ACCENT_WIN if game.winner_mark or expired_winner(game) else ACCENT_NEUTRAL


LETTERS: Mapping[str, str] = {ttt.X: ttt.X, ttt.O: ttt.O}  # read only


def mark_texts(look: Look) -> Mapping[str, str]:
    """X and O as a board's text names them: a mark's emoji when the look has one, else the
    letter."""
    x, o = look.x, look.o
    if x is None and o is None:
        return LETTERS
    return {
        ttt.X: ttt.X if x is None else x.board_markdown,
        ttt.O: ttt.O if o is None else o.board_markdown,
    }


_X_SWATCH, _O_SWATCH = MARK_SWATCH[ttt.X], MARK_SWATCH[ttt.O]


def _game_heading(game: Game, bot_id: int, marks: Mapping[str, str], _: Translate) -> str:
    x_line = f"{_X_SWATCH} **{marks[ttt.X]}** {mention(game.x_player, bot_id, _)}"
    o_line = f"{_O_SWATCH} **{marks[ttt.O]}** {mention(game.o_player, bot_id, _)}"
    if game.difficulty is not None:
        level = _level_label(game.locale, game.difficulty)
        bot_line_is_x = game.x_player == AI
        x_line, o_line = (
            (f"{x_line} · {level}", o_line) if bot_line_is_x else (x_line, f"{o_line} · {level}")
        )
    return "\n".join((_("## Tic-Tac-Toe"), x_line, o_line))


@lru_cache(maxsize=256)
def _level_label(locale: str, level: str) -> str:
    _ = translations(locale).gettext
    return _("Difficulty: {level}").format(level=difficulty_name(level, _))


@lru_cache(maxsize=1024)
def _last_move_line(locale: str, mark: str, cell: ttt.Action) -> str:
    """`mark` as mark_texts gives it."""
    _ = translations(locale).gettext
    return _("Last move: **{mark}** → {cell}.").format(mark=mark, cell=cell_name(cell, _))


def _game_status(
    game: Game,
    bot_id: int,
    deadline: int | None,
    retired: bool,
    marks: Mapping[str, str],
    _: Translate,
) -> str:
    lines = []
    last_move = game.last_move
    if last_move is not None:
        i, j = last_move
        mark = game.board[i][j]
        assert mark is not None
        lines.append(_last_move_line(game.locale, marks[mark], last_move))
    lines.append(result_line(game, bot_id, deadline, _, marks))
    if retired:
        lines.append(_("🔁 A rematch started below."))
    return "\n".join(lines)


def result_line(
    game: Game,
    bot_id: int,
    deadline: int | None,
    _: Translate,
    marks: Mapping[str, str] | None = None,
) -> str:
    """`marks`: mark_texts(game.look), if the caller has it."""
    if not game.is_over:
        mover = mention(game.player_to_move, bot_id, _)
        if marks is None:
            marks = mark_texts(game.look)
        turn = _("▶️ {player} to move ({mark}).").format(player=mover, mark=marks[game.mark_to_move])
        if deadline is None:
            return turn
        return _("{turn} Time runs out <t:{deadline}:R>.").format(turn=turn, deadline=deadline)
    ended = ending_line(game, bot_id, _)
    if ended is not None:
        return ended
    winner = game.winner_id
    if winner is not None:
        winner_name = mention(winner, bot_id, _)
        return _("🏆 **{winner} wins** with three in a row!").format(winner=winner_name)
    return _("🤝 **Draw:** nobody can win any more.")


def ending_line(game: AnyGame, bot_id: int, _: Translate) -> str | None:
    """How a game of any kind ended off the board (a timeout, a resignation); None otherwise."""
    if game.ending is Ending.EXPIRED:
        late = mention(game.player_to_move, bot_id, _)
        timed_out_winner = expired_winner(game)
        if timed_out_winner is None:  # abandoned before both sides moved: nobody wins
            return _("⏱️ {player} ran out of time: the game is over.").format(player=late)
        return _("⏱️ {player} ran out of time: **{winner} wins.**").format(
            player=late, winner=mention(game.player_of(timed_out_winner), bot_id, _)
        )
    winner = game.winner_id
    if winner is not None and game.ending is not None:
        loser = game.x_player if game.ending is Ending.X_RESIGNED else game.o_player
        return _("🏳️ {loser} resigned: **{winner} wins.**").format(
            loser=mention(loser, bot_id, _), winner=mention(winner, bot_id, _)
        )
    return None


def _cells(game: Game, key: str) -> Cells:
    look = game.look
    if look.x is None and look.o is None:  # the letters: most boards, drawn as they always were
        return Cells(codec.cell_ids(key), *cell_looks(game.board, game.winning_cells))
    return Cells(codec.cell_ids(key), *marked_cell_looks(game.board, game.winning_cells, look))


@lru_cache(maxsize=1024)  # per position, and thousands of games share a few hundred
def cell_looks(
    board: Rows, winning: frozenset[ttt.Action]
) -> tuple[tuple[Style, ...], tuple[str, ...]]:
    """Each cell's style, and each cell's label, row by row."""
    styles, labels = [], []
    for i, row in enumerate(board):
        for j, mark in enumerate(row):
            if mark is None:
                styles.append(Style.SECONDARY)
                labels.append(EMPTY_LABEL)
            else:
                styles.append(WIN_STYLE if (i, j) in winning else MARK_STYLE[mark])
                labels.append(mark)
    return tuple(styles), tuple(labels)


@lru_cache(maxsize=1024)  # per position and look: a server's boards share theirs
def marked_cell_looks(
    board: Rows, winning: frozenset[ttt.Action], look: Look
) -> tuple[tuple[Style, ...], tuple[str, ...], tuple[Mark | None, ...]]:
    """Each cell's style, label and emoji, row by row, for a look whose marks show emoji: a
    cell whose mark has one shows it alone (no label)."""
    styles, labels = cell_looks(board, winning)
    emojis = tuple(None if mark is None else look.mark(mark) for row in board for mark in row)
    labels = tuple(
        label if emoji is None else "" for label, emoji in zip(labels, emojis, strict=True)
    )
    return styles, labels, emojis


def _controls(game: Game, key: str, retired: bool, _: Translate) -> tuple[ButtonSpec, ...]:
    secondary = Style.SECONDARY
    if game.is_over:
        # A retired board has had its rematch; a board from before move lists were kept
        # cannot be reviewed.
        buttons = []
        if not retired and game.pairing is None:  # a tournament pairs its own games
            rematch_id = codec.id_of(Verb.REMATCH, key)
            buttons.append(ButtonSpec(rematch_id, Style.PRIMARY, _("Rematch"), "🔁"))
        if game.moves is not None:
            buttons.append(ButtonSpec(codec.id_of(Verb.REVIEW, key), secondary, _("Review"), "📜"))
        return tuple(buttons)
    resign = ButtonSpec(codec.id_of(Verb.RESIGN, key), secondary, _("Resign"), "🏳️")
    if game.vs_ai:
        return (ButtonSpec(codec.id_of(Verb.HINT, key), secondary, _("Hint"), "💡"), resign)
    return (resign,)


def with_private_notice(card: Card, locale: str | None) -> Card:
    """A board only its player sees, saying why."""
    _ = translations(locale).gettext
    notice = _(
        "🔒 This server keeps apps' messages private, so only you can see this game against me."
    )
    return card._replace(body=f"{notice}\n{card.body}")


def render_challenge(challenge: Challenge, deadline: int | None = None) -> Card:
    """The invitation, with Accept / Decline for the challenged user; it pings them."""
    _ = translations(challenge.locale).gettext
    challenger, opponent = f"<@{challenge.challenger}>", f"<@{challenge.opponent}>"
    opponent_mark = ttt.O if challenge.challenger_mark == ttt.X else ttt.X
    marks = mark_texts(challenge.look)
    body = _(
        "{opponent}, {challenger} challenges you! {challenger} plays **{their_mark}**, "
        "you play **{your_mark}**. **{first_mark}** moves first."
    ).format(
        opponent=opponent,
        challenger=challenger,
        their_mark=marks[challenge.challenger_mark],
        your_mark=marks[opponent_mark],
        first_mark=marks[ttt.X],
    )
    if deadline is not None:
        body += "\n" + _("⏳ The challenge closes <t:{deadline}:R>.").format(deadline=deadline)
    buttons = (
        ButtonSpec(codec.control_id(challenge, Verb.ACCEPT), Style.SUCCESS, _("Accept")),
        ButtonSpec(codec.control_id(challenge, Verb.DECLINE), Style.DANGER, _("Decline")),
    )
    return Card(
        ACCENT_OF_MARK[ttt.X],
        _("## ⚔️ Tic-Tac-Toe challenge"),
        body,
        controls=buttons,
        pings=(challenge.opponent,),
    )


def render_challenge_declined(challenge: Challenge) -> Card:
    _ = translations(challenge.locale).gettext
    text = _("{opponent} declined {challenger}'s challenge.").format(
        opponent=f"<@{challenge.opponent}>", challenger=f"<@{challenge.challenger}>"
    )
    return Card(ACCENT_NEUTRAL, _("## ⚔️ Tic-Tac-Toe challenge"), text)


def render_challenge_expired(challenge: Challenge) -> Card:
    _ = translations(challenge.locale).gettext
    text = _("⏱️ {opponent} did not answer {challenger}'s challenge in time.").format(
        opponent=f"<@{challenge.opponent}>", challenger=f"<@{challenge.challenger}>"
    )
    return Card(ACCENT_NEUTRAL, _("## ⚔️ Tic-Tac-Toe challenge"), text)


def render_expired(state: Game | Challenge, bot_id: int) -> Card:
    if isinstance(state, Challenge):
        return render_challenge_expired(state)
    return render_game(state.expire(), bot_id)


def render_state(
    state: Game | Challenge, bot_id: int, deadline: int | None, *, key: str | None = None
) -> Card:
    """The message of a game or challenge (`key`: as in render_game)."""
    if isinstance(state, Challenge):
        return render_challenge(state, deadline)
    return render_game(state, bot_id, None if state.is_over else deadline, key=key)
