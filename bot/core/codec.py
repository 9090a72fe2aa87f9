"""Games and challenges in and out of button custom_ids, validated both ways.

Every button carries the whole state of its message, so a click after a restart rebuilds the
game from the message alone. Layout (at most 100 characters, Discord's limit, for any look):

    ttt2:<verb>:<play>:<x id>:<o id>:<level>:<ending>:<locale>[<look>]   a board's buttons
    ttt2:<verb>:<challenger id>:<opponent id>:<mark>:<locale>[<look>]    a challenge's buttons

<verb> is 0-8 (a cell, row by row), r (resign: ask), y (resign: confirmed), k (resign:
cancelled), h (hint), m (rematch), v (review); a (accept) or d (decline) on a challenge. <play>
is `m` and the cells played in order (`m048`), or `b` and the 9 cells row by row (`bX-O------`)
when the order is unknown. The bot's id is 0; <level> is e, m, h, i, or - for two people;
<ending> is - while the game is on, x / o when X / O resigned, t when it expired.

<look> (what the board carries of its server's settings, bot/core/server.py) is absent for the
default look, so such boards keep the ids they always had; otherwise `:<timeout>:<x>:<o>`, each
part `-` when it is the default: the turn timeout in seconds, and each mark as `c` (a custom
emoji) or `a` (an animated one) and its id in base 62, or a standard emoji as its own
characters (at most MAX_MARK_LENGTH of them, so the longest id fits: see mark_fits).

Boards posted before move lists were kept (`ttt:<verb>:<board>:<x>:<o>:<level>:<ending>`) still
decode: their move order is unknown and they speak English.
"""

from __future__ import annotations

import itertools
import operator
import re
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

import tictactoe as ttt
from bot.core import base62
from bot.core.game import (
    AI,
    Challenge,
    Ending,
    Game,
    GameError,
    Rows,
    State,
    cell_action,
    freeze_board,
)
from bot.core.server import DEFAULT_LOOK, PLACEHOLDER_EMOJI_NAME, Look, Mark, SettingError
from bot.i18n import SOURCE_LOCALE

PREFIX = "ttt2:"
LEGACY_PREFIX = "ttt:"
PREFIXES = (PREFIX, LEGACY_PREFIX)  # every button this bot has ever posted
MAX_CUSTOM_ID_LENGTH = 100
# The most characters a mark takes in a custom_id (in UTF-16 code units, never fewer than code
# points): the longest id (two 20-digit user ids, a full move list, the longest locale, the
# longest timeout, two such marks) then still fits in 100. A custom emoji takes at most 12 (`a`
# and 11 base-62 digits).
MAX_MARK_LENGTH = 12

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
_CUSTOM_MARK = re.compile(r"([ca])([1-9A-Za-z][0-9A-Za-z]{0,10})")  # base 62, no leading 0
# A standard emoji: no `:` (the separator) nor white space, and not ASCII only (which `-` and
# the custom marks are); mark_fits checks the same on the way in.
_STANDARD_MARK = rf"(?=[^:]*[^\x00-\x7f])[^:\s]{{1,{MAX_MARK_LENGTH}}}"
_MARK = rf"-|{_CUSTOM_MARK.pattern}|{_STANDARD_MARK}"
_LOOK = rf":(?P<timeout>-|[1-9][0-9]{{0,3}}):(?P<x_mark>{_MARK}):(?P<o_mark>{_MARK})"
# Each state twice: with the default look, and with a look (tried second: a look's groups cost
# every click on a default board about 1.5 µs of matching when optional).
_GAME_STATE = re.compile(
    rf"(?P<play>m[0-8]{{0,9}}|b[XO-]{{9}}):(?P<x>{_ID}):(?P<o>{_ID}):(?P<level>[emhi-])"
    rf":(?P<ending>[xot-]):(?P<locale>{_LOCALE})"
)
_GAME_LOOK_STATE = re.compile(_GAME_STATE.pattern + _LOOK)
_GAME_ID = re.compile(rf"ttt2:(?P<verb>[0-8rykmhv]):(?P<state>{_GAME_STATE.pattern})")
_GAME_LOOK_ID = re.compile(rf"ttt2:(?P<verb>[0-8rykmhv]):(?P<state>{_GAME_LOOK_STATE.pattern})")
# A tournament game (`t` and its pairing first): between two people, so no level, and its
# players in base 62, which leaves room for the pairing beside the longest look.
_ID62 = r"(?:0|[1-9A-Za-z][0-9A-Za-z]{0,10})"
_TOURNAMENT_STATE = re.compile(
    rf"t(?P<pairing>[0-9A-Za-z.]{{1,16}}):(?P<play>m[0-8]{{0,9}}|b[XO-]{{9}})"
    rf":(?P<x>{_ID62}):(?P<o>{_ID62}):(?P<ending>[xot-]):(?P<locale>{_LOCALE})(?:{_LOOK})?"
)
_TOURNAMENT_ID = re.compile(rf"ttt2:(?P<verb>[0-8rykv]):(?P<state>{_TOURNAMENT_STATE.pattern})")
_CHALLENGE_STATE = re.compile(
    rf"(?P<challenger>{_ID}):(?P<opponent>{_ID}):(?P<mark>[XO]):(?P<locale>{_LOCALE})"
)
_CHALLENGE_LOOK_STATE = re.compile(_CHALLENGE_STATE.pattern + _LOOK)
_CHALLENGE_ID = re.compile(rf"ttt2:(?P<verb>[ad]):(?P<state>{_CHALLENGE_STATE.pattern})")
_CHALLENGE_LOOK_ID = re.compile(rf"ttt2:(?P<verb>[ad]):(?P<state>{_CHALLENGE_LOOK_STATE.pattern})")
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
    PICK = "p"  # the ultimate board's picker: open a small board (its digit follows)
    BACK = "b"  # the ultimate board's picker: back to the nine boards


class CodecError(ValueError):
    """A custom_id that is not one this bot wrote, or that describes an impossible game."""


class Click(NamedTuple):
    """A decoded button: the state its message showed, and what the button asks for."""

    state: State
    key: str  # state_key(state), as the button carries it: memory compares it on every click
    verb: Verb
    cell: ttt.Action | None = None  # a classic (row, column); an ultimate (board, cell)
    board: int | None = None  # the small board a PICK opens


ClassicState = Game | Challenge  # what this codec writes (an ultimate game: bot/kinds)

_CELL_ID_PREFIXES = tuple(f"{PREFIX}{index}:" for index in range(9))


def cell_ids(key: str) -> tuple[str, ...]:
    """The custom_ids of the nine cells of the board whose state has this key, row by row."""
    return tuple(map(operator.add, _CELL_ID_PREFIXES, itertools.repeat(key)))


def cell_id(game: Game, cell: ttt.Action) -> str:
    return cell_ids(state_key(game))[cell[0] * 3 + cell[1]]


def control_id(state: ClassicState, verb: Verb) -> str:
    return id_of(verb, state_key(state))


def id_of(verb: Verb, key: str) -> str:
    """A control button's custom_id from its verb and the state's key (cells: cell_ids)."""
    assert verb is not Verb.CELL, "a cell's verb is its digit: see cell_ids"
    return f"{PREFIX}{verb}:{key}"  # a StrEnum formats as its value


def state_key(state: ClassicState) -> str:
    """The whole state as the part of a custom_id after the verb; also its key in memory."""
    look = state.look
    if isinstance(state, Challenge):
        parts = (state.challenger, state.opponent, state.challenger_mark, state.locale)
        key = ":".join(map(str, parts))
        return key if look is DEFAULT_LOOK else key + look_suffix(look)
    if state.moves is None:
        play = "b" + "".join(_CELL_CODES[cell] for row in state.board for cell in row)
    else:
        play = "m" + "".join(map(_MOVE_CODES.__getitem__, state.moves))
    if state.pairing is not None:
        ending = "-" if state.ending is None else state.ending.value
        players = f"{base62.encode(state.x_player)}:{base62.encode(state.o_player)}"
        key = f"t{state.pairing}:{play}:{players}:{ending}:{state.locale}"
        return key if look is DEFAULT_LOOK else key + look_suffix(look)
    level = "-" if state.difficulty is None else _LEVEL_CODES[state.difficulty]
    ending = "-" if state.ending is None else state.ending.value
    key = f"{play}:{state.x_player}:{state.o_player}:{level}:{ending}:{state.locale}"
    # Most boards share the one default look; an equal one is written the same, by look_suffix.
    return key if look is DEFAULT_LOOK else key + look_suffix(look)


@lru_cache(maxsize=256)  # a server's boards share their look
def look_suffix(look: Look) -> str:
    """What a key carries of a look after the locale: `:<timeout>:<x>:<o>`, or nothing for the
    default look. CodecError if a standard emoji is too long to carry (see mark_fits)."""
    if look.is_default:
        return ""
    timeout = "-" if look.timeout is None else str(look.timeout)
    return f":{timeout}:{_mark_code(look.x)}:{_mark_code(look.o)}"


def mark_fits(mark: Mark) -> bool:
    """Whether a board can carry this mark in its custom_ids (a custom emoji always can; a
    standard one when it is at most MAX_MARK_LENGTH characters, counted as UTF-16 counts them so
    the id fits however Discord counts, not ASCII only, without `:` or white space). For
    /settings, before it keeps an emoji."""
    if mark.emoji_id is not None:
        return True
    return _standard_mark_fits(mark.text)


def _standard_mark_fits(text: str) -> bool:
    utf16_length = len(text.encode("utf-16-le")) // 2
    return utf16_length <= MAX_MARK_LENGTH and re.fullmatch(_STANDARD_MARK, text) is not None


def _mark_code(mark: Mark | None) -> str:
    if mark is None:
        return "-"
    if mark.emoji_id is None:
        if not mark_fits(mark):
            raise CodecError(f"a board cannot carry the emoji {mark.text!r}")
        return mark.text
    return ("a" if mark.animated else "c") + base62.encode(mark.emoji_id)


def decode(custom_id: str) -> Click:
    """Parse a custom_id written by this bot; CodecError if it is malformed or impossible."""
    if len(custom_id) > MAX_CUSTOM_ID_LENGTH:
        raise CodecError("custom_id is too long")
    try:
        if custom_id.startswith("t", 7):  # after `ttt2:` and a verb: a tournament game
            if match := _TOURNAMENT_ID.fullmatch(custom_id):
                return _click(match["verb"], _tournament_game(match), match["state"])
            raise CodecError(f"not a tic-tac-toe button: {custom_id!r}")
        # A look adds three parts: ids with 8 colons or more carry one (a game's have 10, a
        # challenge's 8; without a look 7 and 5; the oldest 6 and 4), so each id is matched
        # against the patterns it can fit only.
        if custom_id.count(":") >= 8:
            if match := _GAME_LOOK_ID.fullmatch(custom_id):
                return _click(match["verb"], _game(match, _look(match)), match["state"])
            if match := _CHALLENGE_LOOK_ID.fullmatch(custom_id):
                return _click(match["verb"], _challenge_of(match, _look(match)), match["state"])
            raise CodecError(f"not a tic-tac-toe button: {custom_id!r}")
        if match := _GAME_ID.fullmatch(custom_id):
            return _click(match["verb"], _game(match, DEFAULT_LOOK), match["state"])
        if match := _CHALLENGE_ID.fullmatch(custom_id):
            return _click(match["verb"], _challenge_of(match, DEFAULT_LOOK), match["state"])
        if match := _LEGACY_GAME_ID.fullmatch(custom_id):
            game = _decode_legacy_game(match)
            return _click(match["verb"], game, state_key(game))
        if match := _LEGACY_CHALLENGE_ID.fullmatch(custom_id):
            challenge = _challenge(match["challenger"], match["opponent"], match["mark"], None)
            return _click(match["verb"], challenge, state_key(challenge))
    except (GameError, SettingError) as error:
        raise CodecError(f"impossible state: {error}") from None
    raise CodecError(f"not a tic-tac-toe button: {custom_id!r}")


def decode_state(key: str) -> ClassicState:
    """The state behind a key that memory holds (see state_key)."""
    try:
        if match := _TOURNAMENT_STATE.fullmatch(key):
            return _tournament_game(match)
        if match := _GAME_STATE.fullmatch(key):
            return _game(match, DEFAULT_LOOK)
        if match := _GAME_LOOK_STATE.fullmatch(key):
            return _game(match, _look(match))
        if match := _CHALLENGE_STATE.fullmatch(key):
            return _challenge_of(match, DEFAULT_LOOK)
        if match := _CHALLENGE_LOOK_STATE.fullmatch(key):
            return _challenge_of(match, _look(match))
    except (GameError, SettingError) as error:
        raise CodecError(f"impossible state: {error}") from None
    raise CodecError(f"not a state key: {key!r}")


_VERBS = {verb.value: verb for verb in Verb}
_CELL_VERBS = {str(index): cell_action(index) for index in range(9)}  # "4" -> (1, 1)


def _click(verb: str, state: ClassicState, key: str) -> Click:
    cell = _CELL_VERBS.get(verb)
    if cell is not None:
        return Click(state, key, Verb.CELL, cell)
    return Click(state, key, _VERBS[verb])


def _game(match: re.Match[str], look: Look) -> Game:
    """The game in a match of _GAME_STATE or _GAME_LOOK_STATE (or of an id, which contains
    one), with the look that match carries."""
    play, x_player, o_player, level, ending, locale = match.group(
        "play", "x", "o", "level", "ending", "locale"
    )
    difficulty = None if level == "-" else _LEVELS[level]
    # Game checks the ids' range, and the regex that the locale is there.
    players = int(x_player), int(o_player)
    if play[0] == "m":
        moves = tuple(map(int, play[1:]))
        return Game.from_moves(*players, difficulty, moves, _ENDINGS[ending], locale, look)
    return Game(*players, difficulty, _board(play[1:]), None, _ENDINGS[ending], locale, look)


def _tournament_game(match: re.Match[str]) -> Game:
    """The game in a match of _TOURNAMENT_STATE (or of an id, which contains one)."""
    play, ending, locale = match.group("play", "ending", "locale")
    look = DEFAULT_LOOK if match["timeout"] is None else _look(match)
    players = base62.decode(match["x"]), base62.decode(match["o"])
    pairing = match["pairing"]
    if play[0] == "m":
        moves = tuple(map(int, play[1:]))
        return Game.from_moves(*players, None, moves, _ENDINGS[ending], locale, look, pairing)
    return Game(*players, None, _board(play[1:]), None, _ENDINGS[ending], locale, look, pairing)


def _challenge_of(match: re.Match[str], look: Look) -> Challenge:
    """The challenge in a match of _CHALLENGE_STATE or _CHALLENGE_LOOK_STATE (or of an id)."""
    challenger, opponent, mark, locale = match.group("challenger", "opponent", "mark", "locale")
    return _challenge(challenger, opponent, mark, locale, look)


def _look(match: re.Match[str]) -> Look:
    """The look in a match of a state or id with a look."""
    return _decode_look(*match.group("timeout", "x_mark", "o_mark"))


@lru_cache(maxsize=256)
def _decode_look(timeout: str, x_mark: str, o_mark: str) -> Look:
    look = Look(None if timeout == "-" else int(timeout), _mark(x_mark), _mark(o_mark))
    if look.is_default:
        # The default look is written without its part: one state, one key.
        raise SettingError("the default look written out")
    return look


def _mark(code: str) -> Mark | None:
    if code == "-":
        return None
    if custom := _CUSTOM_MARK.fullmatch(code):
        kind, digits = custom.groups()
        return Mark(PLACEHOLDER_EMOJI_NAME, base62.decode(digits), animated=kind == "a")
    if not _standard_mark_fits(code):
        raise SettingError("a standard emoji longer than a board carries")
    return Mark(code)


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


def _challenge(
    challenger: str, opponent: str, mark: str, locale: str | None, look: Look = DEFAULT_LOOK
) -> Challenge:
    return Challenge(_snowflake(challenger), _snowflake(opponent), mark, _locale(locale), look)


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
    "look_suffix",
    "mark_fits",
    "state_key",
]


# What another kind's codec shares with this one (bot/kinds): a look and a locale are written
# the same on every board.
LOCALE_PATTERN = _LOCALE
LOOK_PATTERN = _LOOK  # `:<timeout>:<x>:<o>` after the locale, or nothing for the default look
look_of = _look  # the look in a match of LOOK_PATTERN
locale_of = _locale
