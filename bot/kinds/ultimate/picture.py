"""The picture of an ultimate board: the whole 9x9 as a small palette PNG, from plain values.

    draw(cells, won=won, last=(4, 0), playable={0}) -> PNG bytes

Nine light tiles (the small boards) on a dark frame whose gaps are the thick lines, thin lines
between cells. X is a cross and O a ring, red and blurple as on the classic board's buttons, so
shape alone tells them apart. A won board is tinted with its winner's colour under one big mark
(its small marks faded); a drawn board is grey. The last move's cell is filled with a cyan
square; the boards the next move may go to are pale yellow inside a thick gold frame (lightness
and a frame, not red against green); the line that won the game is drawn over its three boards.

Pillow is imported on the first picture, not with this module: a bot that never draws one does
not load it. The tiles, the marks' anti-aliased masks (drawn 4x larger, then shrunk) and the
palette are made once, on that first picture; each picture is then pasted together at 1x and
mapped onto the fixed palette, whose every colour the drawing can produce.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.view.cards import BLURPLE, RED

if TYPE_CHECKING:
    from PIL import Image

X, O, DRAW = "X", "O", "draw"
MARKS = (X, O)

# Geometry, in pixels.
CELL = 40
TILE = 3 * CELL  # one small board
GAP = 12  # the thick line between small boards
MARGIN = 12
SIZE = 2 * MARGIN + 3 * TILE + 2 * GAP  # 408
THIN = 2  # the lines between cells
FRAME_WIDTH = 4  # the frame of a playable board, inside the gap
SUPERSAMPLE = 4  # the marks are drawn this much larger, then shrunk: smooth edges
# The shrunk masks keep this many levels of coverage, so that an edge pixel is one of a few
# blends of its mark and its background, all of them in the palette.
LEVELS = 8

Colour = tuple[int, int, int]


def _rgb(value: int) -> Colour:
    return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)


def _blend(front: Colour, back: Colour, alpha: float) -> Colour:
    r, g, b = (round(f * alpha + k * (1 - alpha)) for f, k in zip(front, back, strict=True))
    return (r, g, b)


WHITE: Colour = (0xFF, 0xFF, 0xFF)
BACKDROP: Colour = (0x2B, 0x2D, 0x31)  # the frame and thick lines (Discord's dark grey)
LINE: Colour = (0xC4, 0xC9, 0xD0)
PLAYABLE: Colour = (0xFF, 0xF0, 0xB3)
PLAYABLE_FRAME: Colour = (0xF5, 0xB7, 0x00)
LAST: Colour = (0x9F, 0xE2, 0xEC)
DRAWN: Colour = (0xB9, 0xBD, 0xC4)
WIN_LINE: Colour = (0x1E, 0x1F, 0x22)
MARK_COLOUR: dict[str, Colour] = {X: _rgb(RED), O: _rgb(BLURPLE)}
WON: dict[str, Colour] = {mark: _blend(MARK_COLOUR[mark], WHITE, 0.18) for mark in MARKS}
GHOST_ALPHA = 0.4  # small marks on a closed board


@dataclass(frozen=True, slots=True)
class _Tile:
    """A small board's look: its background, its thin lines and the colour of its small marks."""

    background: Colour
    line: Colour
    marks: dict[str, Colour]


def _ghosts(background: Colour) -> dict[str, Colour]:
    return {mark: _blend(MARK_COLOUR[mark], background, GHOST_ALPHA) for mark in MARKS}


TILES = {
    "open": _Tile(WHITE, LINE, MARK_COLOUR),
    "playable": _Tile(PLAYABLE, _blend(LINE, PLAYABLE, 0.8), MARK_COLOUR),
    "drawn": _Tile(DRAWN, _blend(WHITE, DRAWN, 0.4), _ghosts(DRAWN)),
    **{
        f"won {mark}": _Tile(WON[mark], _blend(WHITE, WON[mark], 0.6), _ghosts(WON[mark]))
        for mark in MARKS
    },
}


def _palette_colours() -> list[Colour]:
    """Every colour a picture can hold: the plain ones and the blends of the anti-aliased edges."""
    pairs: list[tuple[Colour, Colour]] = []  # (mark, background)
    for tile in TILES.values():
        pairs += [(colour, tile.background) for colour in tile.marks.values()]
    pairs += [(colour, LAST) for colour in MARK_COLOUR.values()]
    pairs += [(MARK_COLOUR[mark], TILES[f"won {mark}"].background) for mark in MARKS]
    pairs += [(WHITE, tile.background) for tile in TILES.values()]  # the win line's halo
    pairs += [(WHITE, BACKDROP), (WIN_LINE, WHITE)]
    colours = [BACKDROP, WHITE, LINE, PLAYABLE_FRAME, LAST, WIN_LINE]
    colours += [tile.background for tile in TILES.values()] + [t.line for t in TILES.values()]
    for front, back in pairs:
        colours += [front] + [_blend(front, back, k / (LEVELS - 1)) for k in range(1, LEVELS - 1)]
    unique = list(dict.fromkeys(colours))
    assert len(unique) <= 256, len(unique)
    return unique


def origin(board: int) -> tuple[int, int]:
    """The top left pixel of small board `board` (0-8, row-major)."""
    row, column = divmod(board, 3)
    return MARGIN + column * (TILE + GAP), MARGIN + row * (TILE + GAP)


def cell_box(board: int, cell: int) -> tuple[int, int, int, int]:
    """The pixels of a cell inside its thin lines: (left, top, right, bottom), right and bottom
    excluded."""
    x0, y0 = origin(board)
    row, column = divmod(cell, 3)
    left, top = x0 + column * CELL, y0 + row * CELL
    half = THIN // 2
    return left + half, top + half, left + CELL - half, top + CELL - half


@dataclass(frozen=True, slots=True)
class _Assets:
    backdrop: Image.Image
    tiles: dict[str, Image.Image]
    small: dict[str, Image.Image]  # masks, CELL x CELL
    big: dict[str, Image.Image]  # masks, TILE x TILE
    palette: Image.Image


def _shrunk(mask: Image.Image, size: int) -> Image.Image:
    from PIL import Image

    top = LEVELS - 1
    levels = [round(round(v * top / 255) * 255 / top) for v in range(256)]
    return mask.resize((size, size), Image.Resampling.BOX).point(levels)


def _mark_mask(mark: str, size: int, stroke: float, padding: float) -> Image.Image:
    """A mark's coverage (mode "L") in a size x size square: a cross with round ends, or a ring."""
    from PIL import Image, ImageDraw

    big = size * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    pen = ImageDraw.Draw(mask)
    width = round(stroke * big)
    if mark == X:
        low, high = padding * big, big - padding * big
        for start, end in (((low, low), (high, high)), ((high, low), (low, high))):
            pen.line([start, end], fill=255, width=width)
            for x, y in (start, end):
                r = width / 2
                pen.ellipse([x - r, y - r, x + r, y + r], fill=255)
    else:
        # A ring looks smaller than a cross of the same box: it gets less padding.
        low, high = padding * 0.8 * big, big - padding * 0.8 * big
        pen.ellipse([low, low, high, high], outline=255, width=width)
    return _shrunk(mask, size)


def _tile(look: _Tile) -> Image.Image:
    from PIL import Image, ImageDraw

    tile = Image.new("RGB", (TILE, TILE), look.background)
    pen = ImageDraw.Draw(tile)
    for k in (1, 2):
        at = k * CELL - THIN // 2
        pen.rectangle([at, 0, at + THIN - 1, TILE - 1], fill=look.line)
        pen.rectangle([0, at, TILE - 1, at + THIN - 1], fill=look.line)
    return tile


@functools.cache
def _assets() -> _Assets:
    from PIL import Image

    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in _palette_colours() for channel in colour])
    return _Assets(
        backdrop=Image.new("RGB", (SIZE, SIZE), BACKDROP),
        tiles={name: _tile(look) for name, look in TILES.items()},
        small={mark: _mark_mask(mark, CELL, stroke=0.12, padding=0.24) for mark in MARKS},
        big={mark: _mark_mask(mark, TILE, stroke=0.1, padding=0.12) for mark in MARKS},
        palette=palette,
    )


@functools.cache
def _line_masks(line: tuple[int, int, int]) -> tuple[Image.Image, Image.Image]:
    """The halo and the stroke of the line through three boards' centres, whole-picture masks."""
    from PIL import Image, ImageDraw

    (x1, y1), (x2, y2) = (origin(line[0]), origin(line[2]))
    # From a bit before the first board's centre to a bit after the last one's.
    dx, dy = (x2 - x1) / 2, (y2 - y1) / 2
    length = (dx * dx + dy * dy) ** 0.5
    reach = 0.42 * TILE / length
    middle = TILE / 2
    ends = [
        (x1 + middle - dx * reach, y1 + middle - dy * reach),
        (x2 + middle + dx * reach, y2 + middle + dy * reach),
    ]
    masks = []
    for width in (0.16 * TILE, 0.08 * TILE):  # halo, then stroke
        big = SIZE * SUPERSAMPLE
        mask = Image.new("L", (big, big), 0)
        pen = ImageDraw.Draw(mask)
        points = [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in ends]
        pixels = round(width * SUPERSAMPLE)
        pen.line(points, fill=255, width=pixels)
        for x, y in points:
            r = pixels / 2
            pen.ellipse([x - r, y - r, x + r, y + r], fill=255)
        masks.append(_shrunk(mask, SIZE))
    return masks[0], masks[1]


def _check(
    cells: Sequence[str | None],
    won: Sequence[str | None],
    last: tuple[int, int] | None,
    playable: Collection[int],
    winning_line: Sequence[int] | None,
) -> None:
    if len(cells) != 81 or any(value not in (X, O, None) for value in cells):
        raise ValueError(f"cells must be 81 values X, O or None: {cells!r}")
    if len(won) != 9 or any(value not in (X, O, DRAW, None) for value in won):
        raise ValueError(f"won must be 9 values X, O, draw or None: {won!r}")
    if last is not None:
        board, cell = last
        if not (0 <= board < 9 and 0 <= cell < 9) or cells[9 * board + cell] is None:
            raise ValueError(f"the last move {last!r} is not a taken cell")
    if any(board not in range(9) or won[board] is not None for board in playable):
        raise ValueError(f"playable boards must be open boards: {playable!r}")
    if winning_line is not None and (
        len(winning_line) != 3 or any(won[board] not in MARKS for board in winning_line)
    ):
        raise ValueError(f"the winning line must be three won boards: {winning_line!r}")


def draw(
    cells: Sequence[str | None],
    *,
    won: Sequence[str | None],
    last: tuple[int, int] | None = None,
    playable: Collection[int] = (),
    winning_line: Sequence[int] | None = None,
) -> bytes:
    """The PNG of an ultimate board (SIZE x SIZE pixels, palette mode).

    `cells`: 81 values "X", "O" or None, index 9 * board + cell (each 0-8, row-major);
    `won`: per small board "X", "O", "draw" (full without a line) or None (open);
    `last`: the last move as (board, cell); `playable`: the boards the next move may go to
    (none when the game is over); `winning_line`: the three boards that won the game.
    ValueError on values that are none of these.
    """
    _check(cells, won, last, playable, winning_line)
    from PIL import Image

    assets = _assets()
    canvas = assets.backdrop.copy()
    for board in range(9):
        state = won[board]
        name = (
            "open"
            if state is None and board not in playable
            else "playable"
            if state is None
            else "drawn"
            if state == DRAW
            else f"won {state}"
        )
        look = TILES[name]
        x0, y0 = origin(board)
        canvas.paste(assets.tiles[name], (x0, y0))
        for cell in range(9):
            mark = cells[9 * board + cell]
            if mark is None:
                continue
            box = cell_box(board, cell)
            colour = look.marks[mark]
            if last == (board, cell):
                canvas.paste(LAST, box)
                colour = MARK_COLOUR[mark]
            row, column = divmod(cell, 3)
            at = (x0 + column * CELL, y0 + row * CELL)
            canvas.paste(colour, (*at, at[0] + CELL, at[1] + CELL), assets.small[mark])
        if state in MARKS:
            canvas.paste(MARK_COLOUR[state], (x0, y0, x0 + TILE, y0 + TILE), assets.big[state])
    if playable:
        from PIL import ImageDraw

        pen = ImageDraw.Draw(canvas)
        for board in playable:
            x0, y0 = origin(board)
            pen.rectangle(
                [x0 - FRAME_WIDTH, y0 - FRAME_WIDTH, x0 + TILE + FRAME_WIDTH - 1, y0 + TILE + FRAME_WIDTH - 1],
                outline=PLAYABLE_FRAME,
                width=FRAME_WIDTH,
            )
    if winning_line is not None:
        first, middle, end = winning_line
        halo, stroke = _line_masks((first, middle, end))
        canvas.paste(WHITE, (0, 0, SIZE, SIZE), halo)
        canvas.paste(WIN_LINE, (0, 0, SIZE, SIZE), stroke)
    picture = canvas.quantize(palette=assets.palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()
