"""An Ultimate Tic-Tac-Toe position in a few characters of a custom_id, and back.

A position is its 81 cells and its last move (which decides the forced board): the cells as one
base-3 number of 81 digits (X 1, O 2, empty 0; cell 9 * board + cell the lowest digit first),
written in base 62 on exactly 22 characters (62**22 > 3**81), then the last move as two decimal
digits (9 * board + cell), or `--` before the first move. 24 characters in all, whatever the
position: the players, the level, the look and the buttons' verbs fit beside them in Discord's
100. Unpacking validates everything the engine validates (`tictactoe.ultimate.from_cells`).
"""

from __future__ import annotations

from bot.core import base62
from tictactoe import ultimate

CELLS_LENGTH = 22
PACKED_LENGTH = CELLS_LENGTH + 2
_DIGIT_OF = {ultimate.X: 1, ultimate.O: 2, None: 0}
_MARK_OF = (None, ultimate.X, ultimate.O)
_NO_MOVE = "--"


class PackingError(ValueError):
    """Text that is not a packed position, or one the rules cannot reach."""


def pack(state: ultimate.State) -> str:
    number = 0
    for mark in reversed(ultimate.cells(state)):
        number = number * 3 + _DIGIT_OF[mark]
    digits = []
    for _ in range(CELLS_LENGTH):
        number, digit = divmod(number, 62)
        digits.append(base62.DIGITS[digit])
    last = _NO_MOVE if state.last is None else f"{9 * state.last[0] + state.last[1]:02d}"
    return "".join(reversed(digits)) + last


def unpack(text: str) -> ultimate.State:
    if len(text) != PACKED_LENGTH:
        raise PackingError(f"a packed position has {PACKED_LENGTH} characters, not {len(text)}")
    number = 0
    for character in text[:CELLS_LENGTH]:
        value = base62.VALUE.get(character)
        if value is None:
            raise PackingError(f"{character!r} is not a base-62 digit")
        number = number * 62 + value
    marks: list[str | None] = []
    for _ in range(81):
        number, digit = divmod(number, 3)
        marks.append(_MARK_OF[digit])
    if number:
        raise PackingError("more than 81 cells")
    last_text = text[CELLS_LENGTH:]
    last = None
    if last_text != _NO_MOVE:
        if not last_text.isdigit() or not last_text.isascii() or int(last_text) > 80:
            raise PackingError(f"not a move: {last_text!r}")
        last = divmod(int(last_text), 9)
    try:
        return ultimate.from_cells(marks, last)
    except ValueError as error:
        raise PackingError(f"impossible position: {error}") from None
