"""Ultimate games and challenges in and out of button custom_ids, validated both ways.

Every button carries the whole state of its message, as the classic board's do (at most 100
characters for any look):

    ut1:<verb>:[t<pairing>:]<position><picked>:<x>:<o>:<level>:<ending>:<locale>[<look>]   a board's
    ut1:<verb>:c:<challenger>:<opponent>:<mark>:<locale>[<look>]              a challenge's

A tournament game's pairing comes first (its look then has no emoji: there is no room for both).
<position> is packing.pack's 24 characters (the 81 cells and the last move); <picked> the small
board the picker opened (0-8) or `-`. Players are user ids in base 62 (the bot is 0), so two
20-digit ids, a position, the longest locale and the longest look fit. <level> and <ending> and
<look> are written as on the classic board (bot/core/codec.py). <verb> is a cell of the board
the grid shows (0-8), `p` and a small board (the picker), `b` (back to the picker), or a
control: r, y, k, h, m, v; a or d on a challenge.

The order of the moves is not carried (it does not fit): a decoded game's `moves` is None.
"""

from __future__ import annotations

import re

from bot.core import base62, codec
from bot.core.codec import Click, CodecError, Verb
from bot.core.game import Challenge, Ending, GameError
from bot.core.server import DEFAULT_LOOK, Look, SettingError
from bot.core.ultimate_game import ULTIMATE, UltimateGame
from bot.kinds.ultimate.packing import PackingError, pack, unpack

PREFIX = "ut1:"
PREFIXES = (PREFIX,)

UltimateState = UltimateGame | Challenge

_LEVELS = {"e": "easy", "m": "medium", "h": "hard", "i": "impossible"}
_LEVEL_CODES = {level: code for code, level in _LEVELS.items()}
_ENDINGS = {"-": None, **{ending.value: ending for ending in Ending}}
_ID = r"(?:0|[1-9A-Za-z][0-9A-Za-z]{0,10})"  # base 62, no leading zero
_GAME = (
    r"(?:t(?P<pairing>[0-9A-Za-z.]{1,16}):)?"
    rf"(?P<position>[0-9A-Za-z]{{22}}(?:--|[0-8][0-9]))(?P<picked>[0-8-])"
    rf":(?P<x>{_ID}):(?P<o>{_ID}):(?P<level>[emhi-]):(?P<ending>[xot-])"
    rf":(?P<locale>{codec.LOCALE_PATTERN})(?:{codec.LOOK_PATTERN})?"
)
_CHALLENGE = (
    rf"c:(?P<challenger>{_ID}):(?P<opponent>{_ID}):(?P<mark>[XO])"
    rf":(?P<locale>{codec.LOCALE_PATTERN})(?:{codec.LOOK_PATTERN})?"
)
_GAME_ID = re.compile(rf"ut1:(?P<verb>[0-8rykhmvb]|p[0-8]):(?P<state>{_GAME})")
_CHALLENGE_ID = re.compile(rf"ut1:(?P<verb>[ad]):(?P<state>{_CHALLENGE})")
_GAME_KEY = re.compile(_GAME)
_CHALLENGE_KEY = re.compile(_CHALLENGE)
_VERBS = {verb.value: verb for verb in Verb}
_GAME_VERBS = frozenset("rykhmvb")


def key(state: UltimateState) -> str:
    """The whole state as the part of a custom_id after the verb; also its key in memory."""
    look = state.look
    suffix = "" if look is DEFAULT_LOOK else codec.look_suffix(look)
    if isinstance(state, Challenge):
        return (
            f"c:{base62.encode(state.challenger)}:{base62.encode(state.opponent)}"
            f":{state.challenger_mark}:{state.locale}{suffix}"
        )
    picked = "-" if state.picked is None else str(state.picked)
    level = "-" if state.difficulty is None else _LEVEL_CODES[state.difficulty]
    ending = "-" if state.ending is None else state.ending.value
    pairing = ""
    if state.pairing is not None:
        # A tournament board shows letters: its pairing takes the room of the marks' emoji.
        if look.x is not None or look.o is not None:
            raise CodecError("a tournament board carries no emoji marks")
        pairing = f"t{state.pairing}:"
    return (
        f"{pairing}{pack(state.position)}{picked}:{base62.encode(state.x_player)}"
        f":{base62.encode(state.o_player)}:{level}:{ending}:{state.locale}{suffix}"
    )


def cell_id(key: str, cell: int) -> str:
    """A cell (0-8) of the small board the grid shows."""
    return f"{PREFIX}{cell}:{key}"


def pick_id(key: str, board: int) -> str:
    """The picker's button that opens small board `board`."""
    return f"{PREFIX}p{board}:{key}"


def control_id(key: str, verb: Verb) -> str:
    assert verb not in (Verb.CELL, Verb.PICK), "cells and the picker: cell_id, pick_id"
    return f"{PREFIX}{verb}:{key}"


def decode(custom_id: str) -> Click:
    """Parse a custom_id written by this codec; CodecError if it is malformed or impossible."""
    if len(custom_id) > codec.MAX_CUSTOM_ID_LENGTH:
        raise CodecError("custom_id is too long")
    try:
        if match := _GAME_ID.fullmatch(custom_id):
            game = _game(match)
            return _click(match["verb"], game, match["state"])
        if match := _CHALLENGE_ID.fullmatch(custom_id):
            return Click(_challenge(match), match["state"], _VERBS[match["verb"]])
    except (GameError, SettingError, PackingError) as error:
        raise CodecError(f"impossible state: {error}") from None
    raise CodecError(f"not an ultimate button: {custom_id!r}")


def decode_key(text: str) -> UltimateState:
    """The state behind a key that memory holds (see key)."""
    try:
        if match := _GAME_KEY.fullmatch(text):
            return _game(match)
        if match := _CHALLENGE_KEY.fullmatch(text):
            return _challenge(match)
    except (GameError, SettingError, PackingError) as error:
        raise CodecError(f"impossible state: {error}") from None
    raise CodecError(f"not an ultimate state key: {text!r}")


def _click(verb: str, game: UltimateGame, state_key: str) -> Click:
    if verb in _GAME_VERBS:
        return Click(game, state_key, _VERBS[verb])
    if verb[0] == "p":
        return Click(game, state_key, Verb.PICK, board=int(verb[1]))
    board = game.shown_board
    if board is None:
        raise CodecError("a cell button on the board picker")
    return Click(game, state_key, Verb.CELL, (board, int(verb)))


def _look(match: re.Match[str]) -> Look:
    if match["timeout"] is None:
        return DEFAULT_LOOK
    return codec.look_of(match)


def _game(match: re.Match[str]) -> UltimateGame:
    level = match["level"]
    picked = match["picked"]
    return UltimateGame(
        _id(match["x"]),
        _id(match["o"]),
        None if level == "-" else _LEVELS[level],
        unpack(match["position"]),
        _ENDINGS[match["ending"]],
        codec.locale_of(match["locale"]),
        _look(match),
        None if picked == "-" else int(picked),
        match["pairing"],
    )


def _challenge(match: re.Match[str]) -> Challenge:
    return Challenge(
        _id(match["challenger"]),
        _id(match["opponent"]),
        match["mark"],
        codec.locale_of(match["locale"]),
        _look(match),
        variant=ULTIMATE,
    )


def _id(digits: str) -> int:
    return base62.decode(digits)  # the game checks the range of its players' ids
