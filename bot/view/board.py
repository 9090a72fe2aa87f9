"""What a game or a challenge looks like, in a given language, as plain values.

Pure functions, so the look of every state can be tested without Discord; bot/ui.py turns a
Card into a discord.py LayoutView and a Reply into a private message.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import discord

import tictactoe as ttt
from bot.core import codec
from bot.core.codec import Verb
from bot.core.game import AI, Challenge, Ending, Game, Rows, State, cell_action
from bot.core.policy import CHALLENGE_SECONDS, Refusal
from bot.i18n import ListStyle, format_list, translations
from tictactoe.review import (
    MoveReview,
    Outcome,
    Reason,
    ReasonKind,
    Verdict,
    cell_number,
    hint,
    review,
)
from tictactoe.review import cell_action as numbered_cell

# The cells are buttons of one size: a one-character label each (Discord gives every button the
# same minimum width), marks at full strength (taken cells stay enabled: Discord draws disabled
# buttons at half opacity), X red and O blurple so shape and colour both tell them apart.
MARK_STYLE = {ttt.X: discord.ButtonStyle.danger, ttt.O: discord.ButtonStyle.primary}
MARK_SWATCH = {ttt.X: "🟥", ttt.O: "🟦"}  # the same colours in text
EMPTY_LABEL = "\u2800"  # a blank that still takes a character's width
WIN_STYLE = discord.ButtonStyle.success

ACCENT_OF_MARK = {ttt.X: discord.Colour.red(), ttt.O: discord.Colour.blurple()}
ACCENT_WIN = discord.Colour.green()
ACCENT_NEUTRAL = discord.Colour.light_grey()

Translate = Callable[[str], str]


class ButtonSpec(NamedTuple):
    """A button as plain values (a named tuple: a board has a dozen, built on every click)."""

    custom_id: str
    style: discord.ButtonStyle
    label: str
    emoji: str | None = None


class Cells(NamedTuple):
    """A board's nine buttons, row by row, as three columns of values: a board is drawn on
    every click, and bot/ui.py builds its JSON from these directly, without nine ButtonSpecs
    in between. `rows` gives the buttons, for whoever wants them one by one."""

    custom_ids: tuple[str, ...]
    styles: tuple[discord.ButtonStyle, ...]
    labels: tuple[str, ...]

    @property
    def rows(self) -> tuple[tuple[ButtonSpec, ...], ...]:
        buttons = tuple(map(ButtonSpec, self.custom_ids, self.styles, self.labels))
        return buttons[0:3], buttons[3:6], buttons[6:9]


class Card(NamedTuple):
    """A public message: a container with an accent colour, text, a board's cells, buttons."""

    accent: discord.Colour
    heading: str
    body: str
    cells: Cells | None = None
    controls: tuple[ButtonSpec, ...] = ()
    pings: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        return f"{self.heading}\n{self.body}"

    @property
    def rows(self) -> tuple[tuple[ButtonSpec, ...], ...]:
        """The board's cells as three rows of buttons; none on a message without a board."""
        return () if self.cells is None else self.cells.rows


@dataclass(frozen=True, slots=True)
class Reply:
    """A private answer: a short text and, at times, a button."""

    text: str
    buttons: tuple[ButtonSpec, ...] = ()


def mention(user_id: int, bot_id: int) -> str:
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


# ------------------------------------------------------------------------------ the board


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
    return Card(
        _accent(game),
        _game_heading(game, bot_id, _),
        _game_status(game, bot_id, deadline, retired, _),
        _cells(game, key),
        _controls(game, key, retired, _),
    )


def _accent(game: Game) -> discord.Colour:
    if not game.is_over:
        return ACCENT_OF_MARK[game.mark_to_move]
    return ACCENT_WIN if game.winner_mark and game.ending is not Ending.EXPIRED else ACCENT_NEUTRAL


def _game_heading(game: Game, bot_id: int, _: Translate) -> str:
    x_line = f"{MARK_SWATCH[ttt.X]} **X** {mention(game.x_player, bot_id)}"
    o_line = f"{MARK_SWATCH[ttt.O]} **O** {mention(game.o_player, bot_id)}"
    if game.difficulty is not None:
        level = _level_label(game.locale, game.difficulty)
        bot_line_is_x = game.x_player == AI
        x_line, o_line = (
            (f"{x_line} · {level}", o_line) if bot_line_is_x else (x_line, f"{o_line} · {level}")
        )
    return "\n".join((_("## Tic-Tac-Toe"), x_line, o_line))


# Lines that depend on the language and a few values only, worked out once: a board is drawn
# on every click.


@lru_cache(maxsize=256)
def _level_label(locale: str, level: str) -> str:
    _ = translations(locale).gettext
    return _("Difficulty: {level}").format(level=difficulty_name(level, _))


@lru_cache(maxsize=1024)
def _last_move_line(locale: str, mark: str, cell: ttt.Action) -> str:
    _ = translations(locale).gettext
    return _("Last move: **{mark}** → {cell}.").format(mark=mark, cell=cell_name(cell, _))


def _game_status(game: Game, bot_id: int, deadline: int | None, retired: bool, _: Translate) -> str:
    lines = []
    last_move = game.last_move
    if last_move is not None:
        i, j = last_move
        mark = game.board[i][j]
        assert mark is not None
        lines.append(_last_move_line(game.locale, mark, last_move))
    lines.append(_result_line(game, bot_id, deadline, _))
    if retired:
        lines.append(_("🔁 A rematch started below."))
    return "\n".join(lines)


def _result_line(game: Game, bot_id: int, deadline: int | None, _: Translate) -> str:
    if not game.is_over:
        mover = mention(game.player_to_move, bot_id)
        turn = _("▶️ {player} to move ({mark}).").format(player=mover, mark=game.mark_to_move)
        if deadline is None:
            return turn
        return _("{turn} Time runs out <t:{deadline}:R>.").format(turn=turn, deadline=deadline)
    if game.ending is Ending.EXPIRED:
        late = mention(game.player_to_move, bot_id)
        return _("⏱️ {player} ran out of time: the game is over.").format(player=late)
    winner = game.winner_id
    if winner is not None and game.ending is not None:
        loser = game.x_player if game.ending is Ending.X_RESIGNED else game.o_player
        return _("🏳️ {loser} resigned: **{winner} wins.**").format(
            loser=mention(loser, bot_id), winner=mention(winner, bot_id)
        )
    if winner is not None:
        return _("🏆 **{winner} wins** with three in a row!").format(winner=mention(winner, bot_id))
    return _("🤝 **Draw:** nobody can win any more.")


def _cells(game: Game, key: str) -> Cells:
    return Cells(codec.cell_ids(key), *_cell_looks(game.board, game.winning_cells))


@lru_cache(maxsize=1024)  # per position, and thousands of games share a few hundred
def _cell_looks(
    board: Rows, winning: frozenset[ttt.Action]
) -> tuple[tuple[discord.ButtonStyle, ...], tuple[str, ...]]:
    """Each cell's style, and each cell's label, row by row."""
    styles, labels = [], []
    for i, row in enumerate(board):
        for j, mark in enumerate(row):
            if mark is None:
                styles.append(discord.ButtonStyle.secondary)
                labels.append(EMPTY_LABEL)
            else:
                styles.append(WIN_STYLE if (i, j) in winning else MARK_STYLE[mark])
                labels.append(mark)
    return tuple(styles), tuple(labels)


def _controls(game: Game, key: str, retired: bool, _: Translate) -> tuple[ButtonSpec, ...]:
    secondary = discord.ButtonStyle.secondary
    if game.is_over:
        # A retired board has had its rematch; a board from before move lists were kept
        # cannot be reviewed.
        buttons = []
        if not retired:
            rematch_id = codec.id_of(Verb.REMATCH, key)
            buttons.append(ButtonSpec(rematch_id, discord.ButtonStyle.primary, _("Rematch"), "🔁"))
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


# ------------------------------------------------------------------------------ challenges


def render_challenge(challenge: Challenge, deadline: int | None = None) -> Card:
    """The invitation, with Accept / Decline for the challenged user; it pings them."""
    _ = translations(challenge.locale).gettext
    challenger, opponent = f"<@{challenge.challenger}>", f"<@{challenge.opponent}>"
    opponent_mark = ttt.O if challenge.challenger_mark == ttt.X else ttt.X
    body = _(
        "{opponent}, {challenger} challenges you! {challenger} plays **{their_mark}**, "
        "you play **{your_mark}**. X moves first."
    ).format(
        opponent=opponent,
        challenger=challenger,
        their_mark=challenge.challenger_mark,
        your_mark=opponent_mark,
    )
    if deadline is not None:
        body += "\n" + _("⏳ The challenge closes <t:{deadline}:R>.").format(deadline=deadline)
    buttons = (
        ButtonSpec(
            codec.control_id(challenge, Verb.ACCEPT), discord.ButtonStyle.success, _("Accept")
        ),
        ButtonSpec(
            codec.control_id(challenge, Verb.DECLINE), discord.ButtonStyle.danger, _("Decline")
        ),
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


def render_expired(state: State, bot_id: int) -> Card:
    if isinstance(state, Challenge):
        return render_challenge_expired(state)
    return render_game(state.expire(), bot_id)


def render_state(
    state: State, bot_id: int, deadline: int | None, *, key: str | None = None
) -> Card:
    """The message of a game or challenge (`key`: as in render_game)."""
    if isinstance(state, Challenge):
        return render_challenge(state, deadline)
    return render_game(state, bot_id, None if state.is_over else deadline, key=key)


# ------------------------------------------------------------------------------ private answers


def render_refusal(
    reason: Refusal,
    state: State | None,
    locale: str | None,
    *,
    bot_id: int,
    command: str,
    live_url: str | None = None,
) -> Reply:
    """One short sentence for a click or command that cannot be carried out."""
    _ = translations(locale).gettext
    if reason is Refusal.NOT_ACTIVE:
        return Reply(
            _("This board is no longer active: here is {link}.").format(
                link=link(_("the current game"), live_url)
            )
        )
    if reason is Refusal.BUSY:
        return Reply(
            _("This channel already has a game on: {link}. One game per channel at a time.").format(
                link=link(_("see it here"), live_url)
            )
        )
    if reason is Refusal.NOT_PLAYER and isinstance(state, Game):
        x_name, o_name = mention(state.x_player, bot_id), mention(state.o_player, bot_id)
        return Reply(
            _(
                "This game is between {x} and {o}. Start your own with {command} once it ends."
            ).format(x=x_name, o=o_name, command=command)
        )
    if reason is Refusal.NOT_YOUR_TURN and isinstance(state, Game):
        return Reply(
            _("It's {player}'s turn.").format(player=mention(state.player_to_move, bot_id))
        )
    if reason is Refusal.ONLY_OPPONENT and isinstance(state, Challenge):
        return Reply(
            _("Only {opponent} can answer this challenge.").format(opponent=f"<@{state.opponent}>")
        )
    texts = {
        Refusal.INVALID: _("This button is not valid. Start a game with {command}."),
        Refusal.GAME_OVER: _("This game is over. Start a new one with {command}."),
        Refusal.CHALLENGE_CLOSED: _("This challenge is closed."),
        Refusal.STALE: _("The board changed before your click landed. Look again."),
        Refusal.NOT_PLAYER: _("Only the players can use this board."),
        Refusal.NOT_YOUR_TURN: _("It's not your turn."),
        Refusal.CELL_TAKEN: _("That cell is taken. Pick an empty one."),
        Refusal.ONLY_OPPONENT: _("Only the challenged player can answer."),
        Refusal.SELF_CHALLENGE: _("You can't challenge yourself. Leave out `opponent` to play me."),
        Refusal.BOT_OPPONENT: _("Bots can't play. Leave out `opponent` to play me instead."),
        Refusal.HINT_VS_BOT_ONLY: _("Hints are for games against me."),
    }
    return Reply(texts[reason].format(command=command))


def render_raced(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Someone else's click got there first. Look again."))


def render_apology(locale: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("Sorry, something went wrong on my side. Please try again."))


def render_resign_question(game: Game, locale: str | None) -> Reply:
    _ = translations(locale).gettext
    confirm = ButtonSpec(
        codec.control_id(game, Verb.CONFIRM_RESIGN),
        discord.ButtonStyle.danger,
        _("Yes, resign"),
        "🏳️",
    )
    return Reply(_("Resign this game? Your opponent wins."), (confirm,))


def render_resigned(locale: str | None, board_url: str | None) -> Reply:
    _ = translations(locale).gettext
    return Reply(_("You resigned. {link}").format(link=link(_("See the board"), board_url)))


def command_mention(command_id: int | None, name: str = "tictactoe") -> str:
    """A clickable command mention when Discord gave the command an id, else its name."""
    return f"</{name}:{command_id}>" if command_id else f"`/{name}`"


__all__ = [
    "CHALLENGE_SECONDS",
    "ButtonSpec",
    "Card",
    "Cells",
    "Reply",
    "command_mention",
    "mention",
    "render_apology",
    "render_challenge",
    "render_challenge_declined",
    "render_expired",
    "render_game",
    "render_raced",
    "render_refusal",
    "render_resign_question",
    "render_resigned",
    "render_state",
]


# ------------------------------------------------------------------------------ teaching


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


def outcome_text(outcome: Outcome, own_moves: int, tr: gettext.NullTranslations) -> str:
    if outcome is Outcome.WIN:
        return tr.ngettext("win in {n} move", "win in {n} moves", own_moves).format(n=own_moves)
    if outcome is Outcome.LOSS:
        return tr.ngettext("loss in {n} move", "loss in {n} moves", own_moves).format(n=own_moves)
    return tr.gettext("draw")


def render_hint(game: Game, locale: str | None) -> Reply:
    """Every empty cell's outcome for the player to move, the best ones starred, and why."""
    tr = translations(locale)
    _ = tr.gettext
    advice = hint([list(row) for row in game.board])
    lines = [
        _("💡 **Hint for {mark}**, by perfect play (counted in the winner's moves):").format(
            mark=advice.player
        )
    ]
    for cell in advice.cells:
        star = "⭐ " if cell.action in advice.best else ""
        lines.append(
            f"{star}**{cell_name(cell.action, _)}**: "
            f"{outcome_text(cell.outcome, cell.own_moves, tr)}"
        )
    lines.append(reason_text(advice.reason, locale))
    return Reply("\n".join(lines))


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
        x_player=mention(game.x_player, bot_id),
        o=f"{MARK_SWATCH[ttt.O]} O",
        o_player=mention(game.o_player, bot_id),
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
    summary = f"{verdict}\n{_result_line(game, bot_id, None, _)}"
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
