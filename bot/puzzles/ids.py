"""The custom_ids of the puzzle's buttons: everything a click needs travels in them, so an
unfinished puzzle goes on after a restart with nothing read from a database.

- A cell: ``pz1:<cell>:<state>:<attempt>:<mode><rating>-<deviation>:<locale>``, where <state> is
  `tictactoe.puzzles.encode` of the attempt as shown, <attempt> the attempt's id (the snowflake
  of the interaction that showed the puzzle, base 36), <mode> whether the attempt is rated and
  whether it is the day's puzzle, and the rating is the player's when the puzzle was shown (what
  picks the next one when memory has no newer one, after a restart).
- Next puzzle: ``pz1:n:<puzzle id>:<rating>-<deviation>:<locale>``: the puzzle just played is
  left out of the pick.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

from tictactoe.puzzles import ID_PATTERN, STATE_PATTERN

PREFIX = "pz1:"
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_LOCALE = r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,4})?"
_RATING = r"(?P<rating>[0-9]{1,4})-(?P<deviation>[0-9]{1,3})"
_CELL = re.compile(
    rf"pz1:(?P<cell>[0-8]):(?P<state>{STATE_PATTERN}):(?P<attempt>[0-9a-z]{{1,13}}):"
    rf"(?P<mode>[rdu]){_RATING}:(?P<locale>{_LOCALE})"
)
_NEXT = re.compile(rf"pz1:n:(?P<last>{ID_PATTERN}):{_RATING}:(?P<locale>{_LOCALE})")


class Mode(StrEnum):
    """How an attempt counts."""

    RATED = "r"  # a puzzle picked for the player
    DAILY = "d"  # the day's puzzle, rated: the player's first try at it today
    UNRATED = "u"  # the day's puzzle again: not rated twice


class Shown(NamedTuple):
    """What every button of a puzzle carries."""

    attempt_id: int
    mode: Mode
    rating: int  # the player's rating when the puzzle was shown, rounded
    deviation: int
    locale: str


class CellClick(NamedTuple):
    cell: int  # 0-8, row by row
    state: str
    shown: Shown


class NextClick(NamedTuple):
    last: str  # the id of the puzzle just played
    rating: int
    deviation: int
    locale: str


def base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = _DIGITS[digit] + digits
        if not number:
            return digits


def cell_ids(state: str, shown: Shown) -> tuple[str, ...]:
    tail = (
        f"{base36(shown.attempt_id)}:{shown.mode.value}{shown.rating}-{shown.deviation}:"
        f"{shown.locale}"
    )
    return tuple(f"{PREFIX}{cell}:{state}:{tail}" for cell in range(9))


def next_id(last: str, rating: int, deviation: int, locale: str) -> str:
    return f"{PREFIX}n:{last}:{rating}-{deviation}:{locale}"


def parse(custom_id: str) -> CellClick | NextClick | None:
    """The click a custom_id stands for; None for anything the puzzles did not write."""
    if (match := _CELL.fullmatch(custom_id)) is not None:
        shown = Shown(
            int(match["attempt"], 36),
            Mode(match["mode"]),
            int(match["rating"]),
            int(match["deviation"]),
            match["locale"],
        )
        return CellClick(int(match["cell"]), match["state"], shown)
    if (match := _NEXT.fullmatch(custom_id)) is not None:
        return NextClick(
            match["last"], int(match["rating"]), int(match["deviation"]), match["locale"]
        )
    return None
