"""An ultimate position rides in a custom_id: packed in 24 characters, unpacked to the same
position, and anything else refused."""

import random

import pytest

from bot.kinds.ultimate.packing import PACKED_LENGTH, PackingError, pack, unpack
from tictactoe import ultimate


def random_positions(games: int, seed: int):
    """Every position of `games` random games, start and end included."""
    rng = random.Random(seed)
    for _ in range(games):
        state = ultimate.initial_state()
        yield state
        while not ultimate.terminal(state):
            state = ultimate.result(state, rng.choice(sorted(ultimate.actions(state))))
            yield state


def test_every_position_of_many_games_comes_back_the_same():
    seen = 0
    for state in random_positions(300, seed=1):
        packed = pack(state)
        assert len(packed) == PACKED_LENGTH
        assert packed.isascii()
        assert ":" not in packed  # a custom_id's separator
        assert unpack(packed) == state
        seen += 1
    assert seen > 300 * 40


def test_the_largest_cells_number_fits_in_22_characters():
    """Every cell O is 3**81 - 1, the largest number the cells can be: it still takes 22
    characters (and is refused as a position no game reaches)."""
    packed = _pack_marks([ultimate.O] * 81, "--")
    assert len(packed) == PACKED_LENGTH
    with pytest.raises(PackingError, match="impossible position"):
        unpack(packed)


def _pack_marks(marks, last):
    from bot.core.base62 import DIGITS as BASE62
    from bot.kinds.ultimate.packing import CELLS_LENGTH

    number = 0
    for mark in reversed(marks):
        number = number * 3 + {None: 0, ultimate.X: 1, ultimate.O: 2}[mark]
    digits = ""
    for _ in range(CELLS_LENGTH):
        number, digit = divmod(number, 62)
        digits = BASE62[digit] + digits
    assert number == 0, "does not fit"
    return digits + last


@pytest.mark.parametrize(
    "text",
    [
        "",
        "0" * 23,  # one short
        "0" * 25,  # one long
        "0" * 22 + "81",  # no such cell
        "0" * 22 + "-1",
        "0" * 21 + "!" + "--",  # not base 62
        "z" * 22 + "--",  # more than 81 cells
        "0" * 22 + "40",  # a last move on an empty board
    ],
)
def test_what_is_not_a_packed_position_is_refused(text):
    with pytest.raises(PackingError):
        unpack(text)


def test_positions_the_rules_cannot_reach_are_refused():
    state = ultimate.result(ultimate.initial_state(), (4, 4))
    marks = list(ultimate.cells(state))
    two_x = marks.copy()
    two_x[0] = ultimate.X  # two X, no O
    with pytest.raises(PackingError):
        unpack(_pack_marks(two_x, "40"))
    with pytest.raises(PackingError):  # the last move must hold the mark that just moved
        unpack(_pack_marks(marks, "00"))
