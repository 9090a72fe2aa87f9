"""Who may play a game of any kind, and how a game can end off the board: the names every kind
of game shares (bot/core/game.py's classic game, bot/core/ultimate_game.py's)."""

from __future__ import annotations

import re
from enum import StrEnum

import tictactoe as ttt

AI = 0  # the player id that stands for the bot itself
# The ids that stand for players who deleted their data, in a recorded game rebuilt for its
# review (the second when both did). No Discord user has them: snowflakes start far higher.
DELETED_PLAYER = 1
DELETED_PLAYERS = frozenset({DELETED_PLAYER, DELETED_PLAYER + 1})
MAX_SNOWFLAKE = 2**64 - 1
# A tournament's players who deleted their data hold one id per seat of that tournament, so
# that its rows stay apart and its standings add up: negative, as no Discord user's id is.


def forgotten_player(seat: int) -> int:
    """The id that stands for the player of `seat` (0-based) once they deleted their data."""
    if seat < 0:
        raise ValueError(f"no forgotten player's id for seat {seat}")
    return -1 - seat


def is_deleted(user_id: int) -> bool:
    """Whether `user_id` stands for a player who deleted their data (a game's or a tournament's)."""
    return user_id < 0 or user_id in DELETED_PLAYERS


class GameError(ValueError):
    """A value that would be an illegal game, or a move the game's state does not allow."""


class Ending(StrEnum):
    """How a game ended other than on the board."""

    X_RESIGNED = "x"
    O_RESIGNED = "o"
    EXPIRED = "t"


# A tournament game's pairing as its buttons carry it: short, and no separator of a custom_id.
PAIRING = re.compile(r"[0-9A-Za-z.]{1,16}")


def check_players(
    x_player: int, o_player: int, difficulty: str | None, pairing: str | None
) -> None:
    """GameError unless these can play one game (of any kind): two ids, the level set exactly
    when the bot plays, a tournament's pairing between two people."""
    if not (0 <= x_player <= MAX_SNOWFLAKE and 0 <= o_player <= MAX_SNOWFLAKE):
        raise GameError("a player id is out of range")
    if x_player == o_player:
        raise GameError("a player cannot play both marks")
    if (difficulty is None) == (AI in (x_player, o_player)):
        raise GameError("a difficulty is set exactly when the bot plays")
    if difficulty is not None and difficulty not in ttt.DIFFICULTIES:
        raise GameError(f"unknown difficulty {difficulty!r}")
    if pairing is not None:
        check_pairing(pairing, difficulty)


def check_pairing(pairing: str, difficulty: str | None) -> None:
    """GameError unless a game may carry this pairing: a tournament game is between people."""
    if not PAIRING.fullmatch(pairing):
        raise GameError(f"not a pairing: {pairing!r}")
    if difficulty is not None:
        raise GameError("a tournament game is between two people")
