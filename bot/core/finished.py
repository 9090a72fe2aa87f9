"""What the game announces when a game ends: one value, no I/O.

The game cog dispatches it as a discord.py custom event once the click's answer is on its way
(`bot.dispatch("game_finished", finished)`, listened to as `on_game_finished`); whatever wants
to remember games listens for it. The game itself never learns who listens.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import tictactoe as ttt
from bot.core.game import AnyGame, Challenge, Ending, State
from bot.core.ultimate_game import UltimateGame

# Discord's epoch: a snowflake (a message's or an interaction's id) holds the milliseconds since.
DISCORD_EPOCH_MS = 1_420_070_400_000


class Place(StrEnum):
    """Where a game was played."""

    SERVER = "server"
    DM = "dm"  # a direct message with the bot
    GROUP_DM = "group_dm"  # a group DM, through a user install


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game that has just ended (on the board, by resigning, or by expiring).

    `game_id` is the id of the board's message: one message per game (a rematch posts a new
    one), known to every process that receives a click on it, so it identifies the game
    everywhere and for good. When the game started follows from it (a snowflake's time).
    """

    game_id: int
    game: AnyGame  # is_over
    ended_at: float  # unix seconds
    guild_id: int | None  # the server, or None in a DM or group DM
    place: Place
    user_installed: bool  # reached through a user install rather than the server's
    kind: str = "classic"  # the kind of board: "classic" Tic-Tac-Toe or "ultimate"


def snowflake_time(snowflake: int) -> float:
    """When Discord made this id, in unix seconds (what discord.py's `created_at` gives,
    without building a datetime)."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


class Finish(StrEnum):
    """How a finished game ended: the one place that says it, for the records, the metrics and
    the logs alike."""

    LINE = "line"  # three in a row
    FULL = "full"  # the board filled with no line: a draw
    RESIGNED = "resigned"
    EXPIRED = "expired"  # the player to move ran out of time

    @classmethod
    def of(cls, game: AnyGame) -> Finish:
        if not game.is_over:
            raise ValueError("the game is not over")
        if game.ending is Ending.EXPIRED:
            return cls.EXPIRED
        if game.ending is not None:
            return cls.RESIGNED
        return cls.LINE if game.winner_mark is not None else cls.FULL

    @property
    def label(self) -> str:
        """As the metrics label a result: won, draw, resigned, expired."""
        return _LABELS[self]


_LABELS = {
    Finish.LINE: "won",
    Finish.FULL: "draw",
    Finish.RESIGNED: "resigned",
    Finish.EXPIRED: "expired",
}


def winner_of(game: AnyGame, finish: Finish) -> str | None:
    """The winning mark: three in a row or a resignation as the game says; on expiry, the side
    that was not to move."""
    if finish is Finish.EXPIRED:
        return ttt.O if game.mark_to_move == ttt.X else ttt.X
    return game.winner_mark


def counts(game: AnyGame) -> bool:
    """Whether a finished game counts for its players (tallies, streaks, ratings): it ended on
    the board, or it was resigned or ran out of time once both sides had moved."""
    if game.ending is None:
        return True
    if isinstance(game, UltimateGame):
        return game.both_moved
    flat = (*game.board[0], *game.board[1], *game.board[2])
    return ttt.X in flat and ttt.O in flat


def expired_winner(game: AnyGame) -> str | None:
    """The mark that wins a game that ran out of time and counts (see `counts`); None for any
    other game."""
    if game.ending is not Ending.EXPIRED or not counts(game):
        return None
    return winner_of(game, Finish.EXPIRED)


def ending_of(finish: Finish, winner: str | None) -> Ending | None:
    """The Game ending that gives `finish` (the inverse of Finish.of, for a stored game)."""
    if finish is Finish.RESIGNED:
        return Ending.O_RESIGNED if winner == ttt.X else Ending.X_RESIGNED
    if finish is Finish.EXPIRED:
        return Ending.EXPIRED
    return None


def opponent_kind(game: AnyGame) -> str:
    """Whom the game was against, as the metrics label it ("ai" or "friend")."""
    return "ai" if game.vs_ai else "friend"


def describe(state: State) -> str:
    """A state in a log line."""
    if isinstance(state, Challenge):
        return f"challenge {state.challenger} -> {state.opponent}"
    if not state.is_over:
        outcome = "in progress"
    elif state.ending is not None:
        outcome = state.ending.name.lower()
    else:
        outcome = f"won by {state.winner_mark}" if state.winner_mark else "draw"
    return f"game X={state.x_player} O={state.o_player} level={state.difficulty}: {outcome}"
