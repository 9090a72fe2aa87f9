"""The ultimate board's picture: a palette PNG a player can read, checked pixel by pixel where a
player would look (a cell's middle, a board's background, the gaps between boards)."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.kinds.ultimate import picture
from bot.kinds.ultimate.picture import CELL, TILE, cell_box, draw, origin

ROOT = Path(__file__).resolve().parents[2]
EMPTY: list[str | None] = [None] * 81
OPEN: list[str | None] = [None] * 9
# Small boards as nine cells, row-major.
X_WON = "XXXOOXXOO"
O_WON = "OOOXXOOXX"
FULL_NO_LINE = "XOXXOOOXX"
INK = 60  # darker than the background by this much (lightness 0-255): a mark's stroke


def cells_of(boards: dict[int, str]) -> list[str | None]:
    """81 cells from some boards' nine characters ("X", "O" or "." for empty)."""
    cells = list(EMPTY)
    for board, text in boards.items():
        for cell, char in enumerate(text):
            cells[9 * board + cell] = None if char == "." else char
    return cells


def rendered(cells=EMPTY, won=OPEN, **options) -> Image.Image:
    return Image.open(io.BytesIO(draw(cells, won=won, **options)))


def rgb(image: Image.Image) -> Image.Image:
    return image.convert("RGB")


def pixel(image: Image.Image, point: tuple[int, int]) -> tuple[int, int, int]:
    value = image.getpixel(point)
    assert isinstance(value, tuple)
    r, g, b = value[:3]
    return r, g, b


def grey_at(image: Image.Image, point: tuple[int, int]) -> int:
    value = image.getpixel(point)
    assert isinstance(value, int)
    return value


def lightness(colour: tuple[int, int, int]) -> float:
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b


def background_point(board: int, cell: int = 0) -> tuple[int, int]:
    """A pixel of a cell's background, clear of its mark and of the last move's edge."""
    left, top, _, _ = cell_box(board, cell)
    return left + 4, top + 4


def centre(board: int, cell: int) -> tuple[int, int]:
    left, top, right, bottom = cell_box(board, cell)
    return (left + right) // 2, (top + bottom) // 2


def runs(flags: list[bool]) -> list[tuple[int, int]]:
    """The (start, end) of each run of True, end excluded."""
    found, start = [], None
    for index, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            found.append((start, index))
            start = None
    return found


FINISHED = cells_of(
    {
        0: X_WON,
        1: FULL_NO_LINE,
        2: O_WON,
        3: O_WON,
        4: X_WON,
        5: FULL_NO_LINE,
        6: FULL_NO_LINE,
        7: O_WON,
        8: X_WON,
    }
)
FINISHED_WON = ["X", "draw", "O", "O", "X", "draw", "draw", "O", "X"]


@pytest.mark.parametrize(
    "options",
    [
        {"cells": EMPTY, "won": OPEN, "playable": range(9)},
        {
            "cells": FINISHED,
            "won": FINISHED_WON,
            "last": (8, 2),
            "playable": (),
            "winning_line": (0, 4, 8),
        },
    ],
    ids=["empty board", "finished game"],
)
def test_a_picture_is_a_palette_png_of_at_least_300_pixels(options: dict[str, Any]):
    data = draw(**options)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.mode == "P"
    assert image.width >= 300
    assert image.height >= 300


@pytest.mark.parametrize("mark", ["X", "O"])
def test_a_taken_cell_shows_its_mark(mark):
    empty = rgb(rendered())
    taken = rgb(rendered(cells_of({3: "...." + mark + "...."}), playable={4}))
    box = cell_box(3, 4)
    changed = sum(
        pixel(empty, (x, y)) != pixel(taken, (x, y))
        for x in range(box[0], box[2])
        for y in range(box[1], box[3])
    )
    assert changed > 0.15 * CELL * CELL


def test_x_and_o_differ_by_shape_even_in_grey():
    grey = rendered(cells_of({0: "XO......."})).convert("L")
    background = grey_at(grey, background_point(0))

    def ink_runs_across(cell, horizontal):
        left, top, right, bottom = cell_box(0, cell)
        middle_x, middle_y = centre(0, cell)
        if horizontal:
            line = [grey_at(grey, (x, middle_y)) for x in range(left, right)]
        else:
            line = [grey_at(grey, (middle_x, y)) for y in range(top, bottom)]
        return len(runs([background - value >= INK for value in line]))

    # A cross is crossed once through its middle, a ring twice, in both directions.
    assert ink_runs_across(0, horizontal=True) == 1
    assert ink_runs_across(0, horizontal=False) == 1
    assert ink_runs_across(1, horizontal=True) == 2
    assert ink_runs_across(1, horizontal=False) == 2
    assert background - grey_at(grey, centre(0, 0)) >= INK
    assert background - grey_at(grey, centre(0, 1)) < INK


def mark_runs(image: Image.Image, mark: str, points: list[tuple[int, int]]) -> list[tuple]:
    colour = picture.MARK_COLOUR[mark]
    return runs([pixel(image, point) == colour for point in points])


def test_a_won_x_board_is_one_big_cross_over_the_whole_board():
    # The small marks are all in the top row: the rest of the board shows the big mark only.
    cells = cells_of({4: "XXX......"})
    x0, y0 = origin(4)
    diagonal = [(x0 + k, y0 + k) for k in range(TILE)]
    anti_diagonal = [(x0 + TILE - 1 - k, y0 + k) for k in range(TILE)]
    bottom_row = [(x0 + k, y0 + TILE * 4 // 5) for k in range(TILE)]
    still_open = rgb(rendered(cells, OPEN, playable={4}))
    won = rgb(rendered(cells, ["X" if board == 4 else None for board in range(9)]))

    assert mark_runs(still_open, "X", diagonal[CELL:]) == []  # below the small marks
    assert mark_runs(still_open, "X", bottom_row) == []
    for line in (diagonal, anti_diagonal):
        [(start, end)] = mark_runs(won, "X", line)
        assert start < TILE / 5
        assert end > TILE * 4 / 5
    # The cross's two arms, near the board's left and right edges.
    left_arm, right_arm = mark_runs(won, "X", bottom_row)
    assert left_arm[1] < TILE / 3
    assert right_arm[0] > TILE * 2 / 3
    # The board's background is tinted: it is closed.
    assert pixel(won, background_point(4, 8)) != pixel(still_open, background_point(4, 8))


def test_a_won_o_board_is_one_big_ring_over_the_whole_board():
    cells = cells_of({2: "OOO......"})
    x0, y0 = origin(2)
    middle_row = [(x0 + k, y0 + TILE // 2) for k in range(TILE)]
    middle_column = [(x0 + TILE // 2, y0 + k) for k in range(TILE)]
    won = rgb(rendered(cells, ["O" if board == 2 else None for board in range(9)]))
    for line in (middle_row, middle_column):
        first, second = mark_runs(won, "O", line)
        assert first[0] < TILE / 5
        assert second[1] > TILE * 4 / 5
    # A ring: its middle is empty.
    assert pixel(won, (x0 + TILE // 2, y0 + TILE // 2)) != picture.MARK_COLOUR["O"]


def test_a_drawn_board_is_greyed_with_its_marks_faded():
    cells = cells_of({0: FULL_NO_LINE, 1: "X........"})
    image = rgb(rendered(cells, ["draw", *OPEN[1:]], playable={1}))
    grey, white = pixel(image, background_point(0)), pixel(image, background_point(3))
    assert max(grey) - min(grey) <= 16  # grey
    assert lightness(white) - lightness(grey) >= 30
    # Its X is fainter than an X on an open board.
    faded, plain = pixel(image, centre(0, 0)), pixel(image, centre(1, 0))
    assert plain == picture.MARK_COLOUR["X"]
    assert lightness(faded) - lightness(plain) >= 30


def test_the_last_move_stands_out_from_the_other_marks():
    cells = cells_of({4: "X.O.X.O.."})
    image = rgb(rendered(cells, last=(4, 4), playable={4}))
    ordinary = [pixel(image, background_point(4, cell)) for cell in (0, 2, 6)]
    assert len(set(ordinary)) == 1
    left, top, _, _ = cell_box(4, 4)
    last_edge, last_inside = pixel(image, (left, top)), pixel(image, background_point(4, 4))
    assert last_inside != ordinary[0]
    # Its square's edge is seen without colours.
    assert lightness(ordinary[0]) - lightness(last_edge) >= 80
    # The same cells, the last move elsewhere: the centre cell is ordinary again.
    other = rgb(rendered(cells, last=(4, 6), playable={4}))
    assert pixel(other, background_point(4, 4)) == ordinary[0]


def test_the_last_move_shows_on_the_board_it_won():
    cells = cells_of({4: "XXX......"})
    won = ["X" if board == 4 else None for board in range(9)]
    image = rgb(rendered(cells, won, last=(4, 2), playable=range(4)))
    elsewhere = rgb(rendered(cells, won, last=(4, 0), playable=range(4)))
    left, top, _, _ = cell_box(4, 2)
    assert pixel(image, (left, top)) != pixel(elsewhere, (left, top))


def frame_point(board: int) -> tuple[int, int]:
    """A pixel in the gap just outside a board's top left corner."""
    x0, y0 = origin(board)
    return x0 - 2, y0 + TILE // 2


@pytest.mark.parametrize(
    ("won", "playable"),
    [
        (OPEN, {4}),  # forced
        (OPEN, {1, 3, 5, 7}),
        (["X", "draw", None, None, "O", None, None, None, None], {2, 3, 5, 6, 7, 8}),  # free
        (["X", "draw", None, None, "O", None, None, None, None], set()),  # over
    ],
)
def test_the_playable_boards_and_no_other_are_framed_and_lit(won, playable):
    image = rgb(rendered(EMPTY, won, playable=playable))
    backdrop = lightness(picture.BACKDROP)
    open_boards = [board for board in range(9) if won[board] is None]
    lit = {
        board
        for board in open_boards
        if pixel(image, background_point(board)) != picture.TILES["open"].background
    }
    assert lit == playable
    # The frame is told apart by lightness, not hue.
    framed = {
        board
        for board in range(9)
        if abs(lightness(pixel(image, frame_point(board))) - backdrop) >= 80
    }
    assert framed == playable
    assert {pixel(image, frame_point(board)) for board in set(range(9)) - playable} == {
        picture.BACKDROP
    }


def board_centre(board: int) -> tuple[float, float]:
    x0, y0 = origin(board)
    return x0 + TILE / 2, y0 + TILE / 2


@pytest.mark.parametrize("line", [(0, 4, 8), (6, 4, 2), (3, 4, 5), (2, 5, 8)])
def test_the_winning_line_crosses_the_gaps_between_its_boards(line):
    cells = cells_of({board: X_WON for board in line})
    won = ["X" if board in line else None for board in range(9)]
    with_line = rgb(rendered(cells, won, winning_line=line))
    without = rgb(rendered(cells, won))
    for a, b in itertools.pairwise(line):
        (ax, ay), (bx, by) = board_centre(a), board_centre(b)
        between = (round((ax + bx) / 2), round((ay + by) / 2))  # in the gap
        assert pixel(without, between) == picture.BACKDROP
        assert pixel(with_line, between) == picture.WIN_LINE


def test_the_same_board_gives_the_same_bytes():
    def finished(last):
        return draw(FINISHED, won=FINISHED_WON, last=last, winning_line=(0, 4, 8))

    assert finished((8, 2)) == finished((8, 2))
    assert finished((8, 2)) != finished((8, 1))


@pytest.mark.parametrize(
    "options",
    [
        {"cells": EMPTY[:80], "won": OPEN},
        {"cells": ["x", *EMPTY[1:]], "won": OPEN},
        {"cells": EMPTY, "won": OPEN[:8]},
        {"cells": EMPTY, "won": ["won", *OPEN[1:]]},
        {"cells": EMPTY, "won": OPEN, "last": (0, 0)},  # an empty cell
        {"cells": EMPTY, "won": OPEN, "playable": {9}},
        {"cells": FINISHED, "won": FINISHED_WON, "playable": {0}},  # a closed board
        {"cells": FINISHED, "won": FINISHED_WON, "winning_line": (0, 1, 2)},  # not all won
        {"cells": FINISHED, "won": FINISHED_WON, "winning_line": (0, 4, 7)},  # not a line
        {"cells": EMPTY, "won": ["X", "O", "X", *OPEN[3:]], "winning_line": (0, 1, 2)},
    ],
)
def test_values_that_are_no_board_are_refused(options: dict[str, Any]):
    with pytest.raises(ValueError, match=r"must be|is not"):
        draw(**options)


def test_importing_the_picture_does_not_load_pillow():
    code = (
        "import sys, bot.kinds.ultimate.picture; "
        "print(sorted(m for m in sys.modules if m == 'PIL' or m.startswith('PIL.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
