"""What a game or a challenge looks like: message content and buttons, as plain values.

Pure functions, so the look of every state can be tested without Discord; the cog turns a Screen
into a discord.py View.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

import tictactoe as ttt

from . import codec
from .game import AI, Challenge, Ending, Game

MARK_EMOJI = {ttt.X: "❌", ttt.O: "⭕"}
EMPTY_LABEL = "\u200b"  # Discord needs a label or an emoji; an invisible label keeps cells square
CHALLENGE_SECONDS = 60


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    custom_id: str
    style: discord.ButtonStyle
    label: str | None = None
    emoji: str | None = None
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Screen:
    """A message: its content, its rows of buttons, and the users it may ping."""

    content: str
    rows: tuple[tuple[ButtonSpec, ...], ...] = ()
    pings: tuple[int, ...] = ()


def mention(user_id: int, bot_id: int) -> str:
    return f"<@{bot_id if user_id == AI else user_id}>"


def render_game(game: Game, bot_id: int) -> Screen:
    """The board message of `game`: a status line, three rows of cells, and a control row."""
    return Screen(_status(game, bot_id), (*_board_rows(game), _control_row(game)))


def _status(game: Game, bot_id: int) -> str:
    x_name, o_name = mention(game.x_player, bot_id), mention(game.o_player, bot_id)
    level = f" · {game.difficulty}" if game.difficulty else ""
    players = f"{MARK_EMOJI[ttt.X]} {x_name} vs {MARK_EMOJI[ttt.O]} {o_name}{level}"
    return f"{players} — {_state_text(game, bot_id)}"


def _state_text(game: Game, bot_id: int) -> str:
    if game.ending is Ending.EXPIRED:
        return "⏱️ expired: no move in time."
    winner = game.winner_id
    if winner is not None and game.ending is not None:
        loser = game.x_player if game.ending is Ending.X_RESIGNED else game.o_player
        return f"🏳️ {mention(loser, bot_id)} resigned, **{mention(winner, bot_id)} wins**."
    if winner is not None:
        return f"🏆 **{mention(winner, bot_id)} wins!**"
    if game.is_over:
        return "🤝 **Draw!**"
    mover = game.player_to_move
    return f"{mention(mover, bot_id)} to move ({MARK_EMOJI[game.mark_to_move]})."


def _board_rows(game: Game) -> tuple[tuple[ButtonSpec, ...], ...]:
    highlighted = game.winning_cells
    over = game.is_over
    return tuple(
        tuple(_cell_button(game, (i, j), (i, j) in highlighted, over) for j in range(3))
        for i in range(3)
    )


def _cell_button(game: Game, cell: ttt.Action, highlighted: bool, over: bool) -> ButtonSpec:
    mark = game.board[cell[0]][cell[1]]
    style = discord.ButtonStyle.success if highlighted else discord.ButtonStyle.secondary
    if mark is None:
        return ButtonSpec(codec.cell_id(game, cell), style, label=EMPTY_LABEL, disabled=over)
    return ButtonSpec(codec.cell_id(game, cell), style, emoji=MARK_EMOJI[mark], disabled=True)


def _control_row(game: Game) -> tuple[ButtonSpec, ...]:
    if game.is_over:
        rematch = codec.control_id(game, codec.Verb.REMATCH)
        return (ButtonSpec(rematch, discord.ButtonStyle.primary, label="Rematch", emoji="🔁"),)
    resign = codec.control_id(game, codec.Verb.RESIGN)
    return (ButtonSpec(resign, discord.ButtonStyle.danger, label="Resign", emoji="🏳️"),)


def render_challenge(challenge: Challenge) -> Screen:
    """The invitation, with Accept / Decline for the challenged user; it pings them."""
    challenger, opponent = f"<@{challenge.challenger}>", f"<@{challenge.opponent}>"
    opponent_mark = ttt.O if challenge.challenger_mark == ttt.X else ttt.X
    first = challenger if challenge.challenger_mark == ttt.X else opponent
    content = (
        f"{opponent}, {challenger} challenges you to tic-tac-toe! "
        f"{challenger} plays {MARK_EMOJI[challenge.challenger_mark]}, you play "
        f"{MARK_EMOJI[opponent_mark]}; {first} moves first. "
        f"Accept within {CHALLENGE_SECONDS} seconds."
    )
    row = (
        ButtonSpec(
            codec.challenge_id(challenge, codec.Verb.ACCEPT),
            discord.ButtonStyle.success,
            label="Accept",
        ),
        ButtonSpec(
            codec.challenge_id(challenge, codec.Verb.DECLINE),
            discord.ButtonStyle.danger,
            label="Decline",
        ),
    )
    return Screen(content, (row,), pings=(challenge.opponent,))


def render_challenge_declined(challenge: Challenge) -> Screen:
    return Screen(f"<@{challenge.opponent}> declined <@{challenge.challenger}>'s challenge.")


def render_challenge_expired(challenge: Challenge) -> Screen:
    return Screen(
        f"<@{challenge.challenger}>'s challenge to <@{challenge.opponent}> expired unanswered."
    )
