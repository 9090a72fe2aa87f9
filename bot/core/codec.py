"""Games and challenges in and out of button custom_ids, validated both ways.

Every button carries the whole state of its message, so a click after a restart rebuilds the
game from the message alone. Layout (at most 69 characters; Discord allows 100):

    ttt2:<verb>:<play>:<x id>:<o id>:<level>:<ending>:<locale>      a board's buttons
    ttt2:<verb>:<challenger id>:<opponent id>:<mark>:<locale>       a challenge's buttons

<verb> is 0-8 (a cell, row by row), r (resign: ask), y (resign: confirmed), k (resign:
cancelled), h (hint), m (rematch), v (review); a (accept) or d (decline) on a challenge. <play>
is `m` and the cells played in order (`m048`), or `b` and the 9 cells row by row (`bX-O------`)
when the order is unknown. The bot's id is 0; <level> is e, m, h, i, or - for two people;
<ending> is - while the game is on, x / o when X / O resigned, t when it expired.

Boards posted before move lists were kept (`ttt:<verb>:<board>:<x>:<o>:<level>:<ending>`) still
decode: their move order is unknown and they speak English.
"""

from __future__ import annotations

import itertools
import operator
import re
from enum import StrEnum
from typing import NamedTuple

import tictactoe as ttt
from bot.core.game import (
    AI,
    SOURCE_LOCALE,
    Challenge,
    Ending,
    Game,
    GameError,
    Rows,
    State,
    cell_action,
    freeze_board,
)

PREFIX = "ttt2:"
LEGACY_PREFIX = "ttt:"
PREFIXES = (PREFIX, LEGACY_PREFIX)  # every button this bot has ever posted
MAX_CUSTOM_ID_LENGTH = 100

_LEVELS = {"e": ttt.EASY, "m": ttt.MEDIUM, "h": ttt.HARD, "i": ttt.IMPOSSIBLE}
_LEVEL_CODES = {level: code for code, level in _LEVELS.items()}
_ENDINGS = {"-": None, **{ending.value: ending for ending in Ending}}
_MOVE_CODES = "012345678"  # a move list's cells, one character each
_CELL_CODES = {ttt.X: "X", ttt.O: "O", ttt.EMPTY: "-"}
_CELLS = {code: cell for cell, code in _CELL_CODES.items()}

# A user id as str() writes it (ASCII digits, no leading zero), so that a decoded button's key
# is the state's own key, character for character.
_ID = r"(?:0|[1-9][0-9]{0,19})"
_LOCALE = r"[A-Za-z]{2}(?:-[A-Za-z0-9]{2,3})?"
_GAME_STATE = re.compile(
    rf"(?P<play>m[0-8]{{0,9}}|b[XO-]{{9}}):(?P<x>{_ID}):(?P<o>{_ID}):(?P<level>[emhi-])"
    rf":(?P<ending>[xot-]):(?P<locale>{_LOCALE})"
)
_GAME_ID = re.compile(rf"ttt2:(?P<verb>[0-8rykmhv]):(?P<state>{_GAME_STATE.pattern})")
_CHALLENGE_ID = re.compile(
    rf"ttt2:(?P<verb>[ad]):(?P<state>(?P<challenger>{_ID}):(?P<opponent>{_ID}):(?P<mark>[XO])"
    rf":(?P<locale>{_LOCALE}))"
)
_LEGACY_GAME_ID = re.compile(
    rf"ttt:(?P<verb>[0-8rm]):(?P<board>[XO-]{{9}}):(?P<x>{_ID}):(?P<o>{_ID})"
    r":(?P<level>[emhi-]):(?P<ending>[xot-])"
)
_LEGACY_CHALLENGE_ID = re.compile(
    rf"ttt:(?P<verb>[ad]):(?P<challenger>{_ID}):(?P<opponent>{_ID}):(?P<mark>[XO])"
)


class Verb(StrEnum):
    """What a button asks for; cells are their own verbs (0-8)."""

    RESIGN = "r"
    CONFIRM_RESIGN = "y"
    KEEP_PLAYING = "k"  # the resign question's Cancel
    HINT = "h"
    REMATCH = "m"
    REVIEW = "v"
    ACCEPT = "a"
    DECLINE = "d"
    CELL = "c"  # never written: a cell's verb is its digit


class CodecError(ValueError):
    """A custom_id that is not one this bot wrote, or that describes an impossible game."""


class Click(NamedTuple):
    """A decoded button: the state its message showed, and what the button asks for."""

    state: State
    key: str  # state_key(state), as the button carries it: memory compares it on every click
    verb: Verb
    cell: ttt.Action | None = None


_CELL_ID_PREFIXES = tuple(f"{PREFIX}{index}:" for index in range(9))


def cell_ids(key: str) -> tuple[str, ...]:
    """The custom_ids of the nine cells of the board whose state has this key, row by row."""
    return tuple(map(operator.add, _CELL_ID_PREFIXES, itertools.repeat(key)))


def cell_id(game: Game, cell: ttt.Action) -> str:
    return cell_ids(state_key(game))[cell[0] * 3 + cell[1]]


def control_id(state: State, verb: Verb) -> str:
    return id_of(verb, state_key(state))


def id_of(verb: Verb, key: str) -> str:
    """A control button's custom_id from its verb and the state's key (cells: cell_ids)."""
    assert verb is not Verb.CELL, "a cell's verb is its digit: see cell_ids"
    return f"{PREFIX}{verb}:{key}"  # a StrEnum formats as its value


def state_key(state: State) -> str:
    """The whole state as the part of a custom_id after the verb; also its key in memory."""
    if isinstance(state, Challenge):
        parts = (state.challenger, state.opponent, state.challenger_mark, state.locale)
        return ":".join(map(str, parts))
    if state.moves is None:
        play = "b" + "".join(_CELL_CODES[cell] for row in state.board for cell in row)
    else:
        play = "m" + "".join(map(_MOVE_CODES.__getitem__, state.moves))
    level = "-" if state.difficulty is None else _LEVEL_CODES[state.difficulty]
    ending = "-" if state.ending is None else state.ending.value
    return f"{play}:{state.x_player}:{state.o_player}:{level}:{ending}:{state.locale}"


def decode(custom_id: str) -> Click:
    """Parse a custom_id written by this bot; CodecError if it is malformed or impossible."""
    if len(custom_id) > MAX_CUSTOM_ID_LENGTH:
        raise CodecError("custom_id is too long")
    try:
        if match := _GAME_ID.fullmatch(custom_id):
            return _click(match["verb"], _game(match), match["state"])
        if match := _CHALLENGE_ID.fullmatch(custom_id):
            key = match["state"]
            return _click(match["verb"], _decode_challenge_state(key), key)
        if match := _LEGACY_GAME_ID.fullmatch(custom_id):
            game = _decode_legacy_game(match)
            return _click(match["verb"], game, state_key(game))
        if match := _LEGACY_CHALLENGE_ID.fullmatch(custom_id):
            challenge = _challenge(match["challenger"], match["opponent"], match["mark"], None)
            return _click(match["verb"], challenge, state_key(challenge))
    except GameError as error:
        raise CodecError(f"impossible state: {error}") from None
    raise CodecError(f"not a tic-tac-toe button: {custom_id!r}")


def decode_state(key: str) -> State:
    """The state behind a key that memory holds (see state_key)."""
    try:
        if match := _GAME_STATE.fullmatch(key):
            return _game(match)
        if _CHALLENGE_ID.fullmatch(f"{PREFIX}a:{key}"):
            return _decode_challenge_state(key)
    except GameError as error:
        raise CodecError(f"impossible state: {error}") from None
    raise CodecError(f"not a state key: {key!r}")


_VERBS = {verb.value: verb for verb in Verb}
_CELL_VERBS = {str(index): cell_action(index) for index in range(9)}  # "4" -> (1, 1)


def _click(verb: str, state: State, key: str) -> Click:
    cell = _CELL_VERBS.get(verb)
    if cell is not None:
        return Click(state, key, Verb.CELL, cell)
    return Click(state, key, _VERBS[verb])


def _game(match: re.Match[str]) -> Game:
    """The game in a match of _GAME_STATE (or of _GAME_ID, which contains it)."""
    play, x_player, o_player, level, ending, locale = match.group(
        "play", "x", "o", "level", "ending", "locale"
    )
    difficulty = None if level == "-" else _LEVELS[level]
    # Game checks the ids' range, and the regex that the locale is there.
    players = int(x_player), int(o_player)
    if play[0] == "m":
        moves = tuple(map(int, play[1:]))
        return Game.from_moves(*players, difficulty, moves, _ENDINGS[ending], locale)
    return Game(*players, difficulty, _board(play[1:]), None, _ENDINGS[ending], locale)


def _decode_challenge_state(key: str) -> Challenge:
    challenger, opponent, mark, locale = key.split(":")
    return _challenge(challenger, opponent, mark, locale)


def _decode_legacy_game(match: re.Match[str]) -> Game:
    level = match["level"]
    return Game(
        _snowflake(match["x"]),
        _snowflake(match["o"]),
        None if level == "-" else _LEVELS[level],
        _board(match["board"]),
        None,
        _ENDINGS[match["ending"]],
    )


def _challenge(challenger: str, opponent: str, mark: str, locale: str | None) -> Challenge:
    return Challenge(_snowflake(challenger), _snowflake(opponent), mark, _locale(locale))


def _board(codes: str) -> Rows:
    flat = [_CELLS[code] for code in codes]
    return freeze_board([flat[0:3], flat[3:6], flat[6:9]])


def _snowflake(digits: str) -> int:
    value = int(digits)
    if value > 2**64 - 1:
        raise GameError("user id out of range")
    return value


def _locale(code: str | None) -> str:
    # A language the catalogs lack is rendered in English (see i18n), not refused.
    return code or SOURCE_LOCALE


__all__ = [
    "AI",
    "Click",
    "CodecError",
    "Verb",
    "cell_id",
    "cell_ids",
    "control_id",
    "decode",
    "decode_state",
    "id_of",
    "state_key",
]
