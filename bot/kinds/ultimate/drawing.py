"""The picture of an ultimate position, drawn once: by the worker that thought the bot's move,
or on the event loop for a player's own move, and kept for the clicks that show it again (the
picker opening a board and going back, a resignation, an expiry).

A picture depends on the position alone and on whether the game is over (then no board is
playable), so that pair keys it. `reply_with_picture` runs in a worker process (kind.py): the
bot's move and the picture of the position it makes, so that showing the bot's reply costs the
event loop no drawing.
"""

from __future__ import annotations

import random
from collections import OrderedDict

from bot.core.ultimate_game import board_states
from bot.kinds.ultimate import picture
from tictactoe import ultimate

# Pictures kept: a few per live game is plenty (each is about 5 KB).
KEPT = 512

_kept: OrderedDict[tuple[ultimate.State, bool], bytes] = OrderedDict()


def picture_of(position: ultimate.State, over: bool) -> bytes:
    """The PNG of `position` (`over`: the game has ended, on the board or off it)."""
    key = (position, over)
    png = _kept.get(key)
    if png is None:
        png = draw(position, over)
        keep(position, over, png)
    return png


def keep(position: ultimate.State, over: bool, png: bytes) -> None:
    """Remember a picture drawn elsewhere (a worker's)."""
    _kept[position, over] = png
    _kept.move_to_end((position, over))
    if len(_kept) > KEPT:
        _kept.popitem(last=False)


def draw(position: ultimate.State, over: bool) -> bytes:
    return picture.draw(
        ultimate.cells(position),
        won=board_states(position),
        last=position.last,
        playable=() if over else ultimate.open_boards(position),
        winning_line=ultimate.winning_line(position),
    )


def reply_with_picture(
    position: ultimate.State, level: str, rng: random.Random
) -> tuple[tuple[int, int], bytes]:
    """The AI's move at `level` and the picture of the position after it (for a worker)."""
    action = ultimate.choose(position, level, rng)
    after = ultimate.result(position, action)
    return action, draw(after, ultimate.terminal(after))
