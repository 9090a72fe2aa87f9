"""Games and challenges in and out of button custom_ids, validated both ways.

Every button carries the whole state of its message, so a click after a restart can rebuild the
game from the message alone. Layout (at most 61 characters, Discord allows 100):

    ttt:<verb>:<board>:<x id>:<o id>:<level>:<ending>    verbs 0-8 (a cell), r (resign), m (rematch)
    ttt:<verb>:<challenger id>:<opponent id>:<mark>      verbs a (accept), d (decline)

<board> is 9 characters of X, O and - row by row; the bot's id is 0; <level> is e, m, h, i, or - for
two people; <ending> is - while the game is on, x / o when X / O resigned, t when it expired.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

import tictactoe as ttt

from .game import AI, Challenge, Ending, Game, freeze_board

PREFIX = "ttt:"
MAX_CUSTOM_ID_LENGTH = 100
_MAX_SNOWFLAKE = 2**64 - 1

_LEVELS = {"e": ttt.EASY, "m": ttt.MEDIUM, "h": ttt.HARD, "i": ttt.IMPOSSIBLE}
_LEVEL_CODES = {level: code for code, level in _LEVELS.items()}
_ENDINGS = {"-": None, **{ending.value: ending for ending in Ending}}
_CELL_CODES = {ttt.X: "X", ttt.O: "O", ttt.EMPTY: "-"}
_CELLS = {code: cell for cell, code in _CELL_CODES.items()}

_GAME_ID = re.compile(
    r"ttt:(?P<verb>[0-8rm]):(?P<board>[XO-]{9}):(?P<x>\d{1,20}):(?P<o>\d{1,20})"
    r":(?P<level>[emhi-]):(?P<ending>[xot-])"
)
_CHALLENGE_ID = re.compile(
    r"ttt:(?P<verb>[ad]):(?P<challenger>\d{1,20}):(?P<opponent>\d{1,20}):(?P<mark>[XO])"
)


class Verb(StrEnum):
    RESIGN = "r"
    REMATCH = "m"
    ACCEPT = "a"
    DECLINE = "d"


class CodecError(ValueError):
    """A custom_id that is not one this bot wrote, or that describes an impossible game."""


@dataclass(frozen=True, slots=True)
class GameClick:
    game: Game
    cell: ttt.Action | None  # the clicked cell, or None for a control button
    verb: Verb | None  # RESIGN or REMATCH for a control button


@dataclass(frozen=True, slots=True)
class ChallengeClick:
    challenge: Challenge
    verb: Verb  # ACCEPT or DECLINE


def cell_id(game: Game, cell: ttt.Action) -> str:
    i, j = cell
    return f"{PREFIX}{i * 3 + j}:{game_state(game)}"


def control_id(game: Game, verb: Verb) -> str:
    return f"{PREFIX}{verb.value}:{game_state(game)}"


def challenge_id(challenge: Challenge, verb: Verb) -> str:
    parts = (verb.value, challenge.challenger, challenge.opponent, challenge.challenger_mark)
    return PREFIX + ":".join(map(str, parts))


@lru_cache(maxsize=256)  # a render asks for the same game's ids ten times in a row
def game_state(game: Game) -> str:
    """The part of a board's custom_ids after the verb: the whole game."""
    board = "".join(_CELL_CODES[cell] for row in game.board for cell in row)
    level = "-" if game.difficulty is None else _LEVEL_CODES[game.difficulty]
    ending = "-" if game.ending is None else game.ending.value
    return f"{board}:{game.x_player}:{game.o_player}:{level}:{ending}"


def decode(custom_id: str) -> GameClick | ChallengeClick:
    """Parse a custom_id written by this bot; CodecError if it is malformed or impossible."""
    if len(custom_id) > MAX_CUSTOM_ID_LENGTH:
        raise CodecError("custom_id is too long")
    if match := _GAME_ID.fullmatch(custom_id):
        return _decode_game(match)
    if match := _CHALLENGE_ID.fullmatch(custom_id):
        return _decode_challenge(match)
    raise CodecError(f"not a tic-tac-toe button: {custom_id!r}")


def _decode_game(match: re.Match[str]) -> GameClick:
    x_player, o_player = _snowflake(match["x"]), _snowflake(match["o"])
    level = match["level"]
    if x_player == o_player:
        raise CodecError("a player cannot play both marks")
    if (level == "-") == (AI in (x_player, o_player)):
        raise CodecError("a difficulty is set exactly when the bot plays")
    flat = [_CELLS[code] for code in match["board"]]
    try:
        rows = ttt.validate_board([flat[0:3], flat[3:6], flat[6:9]])
    except ValueError as error:
        raise CodecError(f"impossible board: {error}") from None
    ending = _ENDINGS[match["ending"]]
    if ending is not None and ttt.terminal(rows):
        raise CodecError("a game that ended on the board cannot also be resigned or expired")
    game = Game(
        x_player,
        o_player,
        None if level == "-" else _LEVELS[level],
        freeze_board(rows),
        ending,
    )
    verb = match["verb"]
    if verb.isdigit():
        return GameClick(game, divmod(int(verb), 3), None)
    return GameClick(game, None, Verb(verb))


def _decode_challenge(match: re.Match[str]) -> ChallengeClick:
    challenger, opponent = _snowflake(match["challenger"]), _snowflake(match["opponent"])
    if AI in (challenger, opponent) or challenger == opponent:
        raise CodecError("a challenge is between two different people")
    return ChallengeClick(Challenge(challenger, opponent, match["mark"]), Verb(match["verb"]))


def _snowflake(digits: str) -> int:
    value = int(digits)
    if value > _MAX_SNOWFLAKE:
        raise CodecError("user id out of range")
    return value
