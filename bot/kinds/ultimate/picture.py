"""The picture of an ultimate board: the whole 9x9 as a small palette PNG, from plain values.

    draw(cells, won=won, last=(4, 0), playable={0}) -> PNG bytes

Nine light tiles (the small boards) on a dark frame whose gaps are the thick lines, thin lines
between cells. X is a cross and O a ring, red and blurple as on the classic board's buttons, so
shape alone tells them apart. A won board is one big mark on a tint of its winner's colour (its
small marks no longer matter); a drawn board is grey, its marks faded. The last move's cell is a
cyan square with a dark edge (only the edge, over a big mark); the boards the next move may go
to are pale yellow inside a thick gold frame (lightness and a frame, not red against green); the
line that won the game is drawn through its three boards.

Pillow is imported on the first picture, not with this module: a bot that never draws one does
not load it. Every picture is pasted together, in a fixed palette, from pieces made on the first
one: the tiles of each kind of board (a won one with its big mark), each mark's cell on each
background, and each winning line (on first use) with the boards under it. The marks and the
line are anti-aliased (drawn 4x larger, then shrunk) once, in those pieces; the grid's straight
lines are drawn at the picture's own size, sharp. Nothing is blended per picture, so nothing
needs to be mapped onto the palette per picture.
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

X = "X"
O = "O"  # noqa: E741 - the second player's mark
DRAW = "draw"
MARKS = (X, O)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

# Geometry, in pixels.
CELL = 40
TILE = 3 * CELL  # one small board
GAP = 12  # the thick line between small boards
MARGIN = 12
SIZE = 2 * MARGIN + 3 * TILE + 2 * GAP  # 408
THIN = 2  # the lines between cells
EDGE = 2  # the square around the last move
FRAME_WIDTH = 4  # the frame of a playable board, inside the gap
SUPERSAMPLE = 4  # the marks are drawn this much larger, then shrunk: smooth edges
# The shrunk masks keep this many levels of coverage, so that an edge pixel is one of a few
# blends of its mark and its background, all of them in the palette.
LEVELS = 8
COVERAGE = tuple(round(k * 255 / (LEVELS - 1)) for k in range(LEVELS))  # mask values, 0-255
# zlib's default: Pillow's optimize (level 9) takes four times the CPU on these pictures for
# 15% fewer bytes, level 3 half of it for 40% more (docs/performance.md).
COMPRESS_LEVEL = 6

Colour = tuple[int, int, int]


def _rgb(value: int) -> Colour:
    return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)


def _blend(front: Colour, back: Colour, alpha: float) -> Colour:
    r, g, b = (round(f * alpha + k * (1 - alpha)) for f, k in zip(front, back, strict=True))
    return (r, g, b)


def _pasted(front: Colour, back: Colour, coverage: int) -> Colour:
    """`front` pasted over `back` through a mask of value `coverage`, rounded as Pillow does."""

    def channel(f: int, k: int) -> int:
        blend = (f - k) * coverage + 128
        return k + ((blend >> 8) + blend >> 8)

    r, g, b = (channel(f, k) for f, k in zip(front, back, strict=True))
    return (r, g, b)


WHITE: Colour = (0xFF, 0xFF, 0xFF)
BACKDROP: Colour = (0x2B, 0x2D, 0x31)  # the frame and thick lines (Discord's dark grey)
LINE: Colour = (0xC4, 0xC9, 0xD0)
PLAYABLE: Colour = (0xFF, 0xF0, 0xB3)
PLAYABLE_FRAME: Colour = (0xF5, 0xB7, 0x00)
LAST: Colour = (0x9F, 0xE2, 0xEC)
LAST_EDGE: Colour = (0x1B, 0x8A, 0x9C)  # a square around the last move: seen without colour
DRAWN: Colour = (0xB9, 0xBD, 0xC4)
WIN_LINE: Colour = (0x1E, 0x1F, 0x22)
MARK_COLOUR: dict[str, Colour] = {X: _rgb(RED), O: _rgb(BLURPLE)}
WON: dict[str, Colour] = {mark: _blend(MARK_COLOUR[mark], WHITE, 0.18) for mark in MARKS}
GHOST_ALPHA = 0.3  # small marks on a drawn board


@dataclass(frozen=True, slots=True)
class _Tile:
    """A small board's look: its background, its thin lines and its small marks' colours."""

    background: Colour
    line: Colour
    marks: dict[str, Colour]


TILES = {
    "open": _Tile(WHITE, LINE, MARK_COLOUR),
    "playable": _Tile(PLAYABLE, _blend(LINE, PLAYABLE, 0.8), MARK_COLOUR),
    "drawn": _Tile(
        DRAWN,
        _blend(WHITE, DRAWN, 0.4),
        {mark: _blend(MARK_COLOUR[mark], DRAWN, GHOST_ALPHA) for mark in MARKS},
    ),
    # A won board's small marks are not drawn: its big mark says all that matters.
    **{f"won {mark}": _Tile(WON[mark], _blend(WHITE, WON[mark], 0.6), {}) for mark in MARKS},
}


def _palette_colours() -> list[Colour]:
    """The colours of the pictures: the plain ones and the blends of the anti-aliased edges."""
    pairs: list[tuple[Colour, Colour]] = []  # (front, back)
    for tile in TILES.values():
        pairs += [(colour, tile.background) for colour in tile.marks.values()]
    pairs += [(colour, LAST) for colour in MARK_COLOUR.values()]
    for mark in MARKS:  # a big mark over its board and its lines, the win line's halo over them
        won = TILES[f"won {mark}"]
        pairs += [(MARK_COLOUR[mark], won.background), (MARK_COLOUR[mark], won.line)]
        pairs += [(WHITE, won.background), (WHITE, won.line), (WHITE, MARK_COLOUR[mark])]
    pairs += [(WHITE, BACKDROP), (WIN_LINE, WHITE)]
    colours = [BACKDROP, WHITE, LINE, PLAYABLE_FRAME, LAST, LAST_EDGE, WIN_LINE]
    colours += [tile.background for tile in TILES.values()] + [t.line for t in TILES.values()]
    for front, back in pairs:
        colours += [_pasted(front, back, coverage) for coverage in COVERAGE[1:]]
    return list(dict.fromkeys(colours))


PALETTE = _palette_colours()
INDEX = {colour: index for index, colour in enumerate(PALETTE)}


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


def _shrunk(mask: Image.Image, size: tuple[int, int]) -> Image.Image:
    from PIL import Image

    top = LEVELS - 1
    nearest = [COVERAGE[round(value * top / 255)] for value in range(256)]
    return mask.resize(size, Image.Resampling.BOX).point(nearest)


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
    return _shrunk(mask, (size, size))


def _nearest(colour: Colour) -> int:
    return min(
        range(len(PALETTE)),
        key=lambda index: sum((a - b) ** 2 for a, b in zip(PALETTE[index], colour, strict=True)),
    )


def _indexed(image: Image.Image) -> Image.Image:
    """An RGB image in the palette: each colour its own entry (the nearest for the few pixels
    where two edges cross). For the cached pieces only (a few ms each)."""
    from PIL import Image

    # Pillow's median cut keeps every colour of an image that has no more than it is asked
    # for; its entries are then renumbered as the palette's.
    own = image.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    channels = own.getpalette() or []
    entries = zip(channels[0::3], channels[1::3], channels[2::3], strict=True)
    renumber = bytes(INDEX[colour] if colour in INDEX else _nearest(colour) for colour in entries)
    indexed = Image.frombytes("P", image.size, own.tobytes().translate(renumber.ljust(256, b"\0")))
    indexed.putpalette([channel for colour in PALETTE for channel in colour])
    return indexed


def _tile_rgb(name: str) -> Image.Image:
    """A small board with no small mark: its background, its thin lines, a won one's big mark."""
    from PIL import Image, ImageDraw

    look = TILES[name]
    tile = Image.new("RGB", (TILE, TILE), look.background)
    pen = ImageDraw.Draw(tile)
    for k in (1, 2):
        at = k * CELL - THIN // 2
        pen.rectangle([at, 0, at + THIN - 1, TILE - 1], fill=look.line)
        pen.rectangle([0, at, TILE - 1, at + THIN - 1], fill=look.line)
    if name.startswith("won "):
        mark = name.removeprefix("won ")
        big = _mark_mask(mark, TILE, stroke=0.12, padding=0.13)
        tile.paste(MARK_COLOUR[mark], (0, 0, TILE, TILE), big)
    return tile


def _cell(mark: str, colour: Colour, background: Colour, last: bool) -> Image.Image:
    """A cell inside its thin lines with its mark; the last move's inside a dark square."""
    from PIL import Image

    inside = CELL - THIN
    cell = Image.new("RGB", (inside, inside), LAST_EDGE if last else background)
    if last:
        cell.paste(LAST, (EDGE, EDGE, inside - EDGE, inside - EDGE))
    half = THIN // 2
    mask = _mark_mask(mark, CELL, stroke=0.12, padding=0.24).crop(
        (half, half, CELL - half, CELL - half)
    )
    cell.paste(colour, (0, 0, inside, inside), mask)
    return cell


@dataclass(frozen=True, slots=True)
class _Pieces:
    """What every picture is pasted together from, in the palette."""

    backdrop: Image.Image
    tiles: dict[str, Image.Image]  # by TILES' names
    cells: dict[tuple[str, str], Image.Image]  # by (tile name or "last", mark)


@functools.cache
def _pieces() -> _Pieces:
    from PIL import Image

    backdrop = Image.new("P", (SIZE, SIZE), INDEX[BACKDROP])
    backdrop.putpalette([channel for colour in PALETTE for channel in colour])
    cells = {
        (name, mark): _indexed(_cell(mark, look.marks[mark], look.background, last=False))
        for name, look in TILES.items()
        for mark in look.marks
    }
    for mark in MARKS:
        cells["last", mark] = _indexed(_cell(mark, MARK_COLOUR[mark], LAST, last=True))
    return _Pieces(backdrop, {name: _indexed(_tile_rgb(name)) for name in TILES}, cells)


@functools.cache
def _line_overlay(
    line: tuple[int, int, int], mark: str
) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """The line through three boards won by `mark` with what lies under it, the mask of its
    pixels (mode "1"), and where both go."""
    from PIL import Image, ImageDraw

    picture = Image.new("RGB", (SIZE, SIZE), BACKDROP)
    tile = _tile_rgb(f"won {mark}")
    for board in line:
        picture.paste(tile, origin(board))
    (x1, y1), (x2, y2) = origin(line[0]), origin(line[2])
    # From a bit before the first board's centre to a bit after the last one's.
    dx, dy = (x2 - x1) / 2, (y2 - y1) / 2
    reach = 0.42 * TILE / (dx * dx + dy * dy) ** 0.5
    middle = TILE / 2
    ends = [
        (x1 + middle - dx * reach, y1 + middle - dy * reach),
        (x2 + middle + dx * reach, y2 + middle + dy * reach),
    ]
    masks = []
    for width in (0.16 * TILE, 0.08 * TILE):  # the halo, then the stroke
        big = Image.new("L", (SIZE * SUPERSAMPLE, SIZE * SUPERSAMPLE), 0)
        pen = ImageDraw.Draw(big)
        points = [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in ends]
        pixels = round(width * SUPERSAMPLE)
        pen.line(points, fill=255, width=pixels)
        for x, y in points:
            r = pixels / 2
            pen.ellipse([x - r, y - r, x + r, y + r], fill=255)
        masks.append(_shrunk(big, (SIZE, SIZE)))
    halo, stroke = masks
    picture.paste(WHITE, (0, 0, SIZE, SIZE), halo)
    picture.paste(WIN_LINE, (0, 0, SIZE, SIZE), stroke)
    box = halo.getbbox()
    assert box is not None
    overlay = _indexed(picture.crop(box))
    return overlay, halo.crop(box).point(lambda value: 255 if value else 0, "1"), box[:2]


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
        tuple(sorted(winning_line)) not in LINES
        or any(won[board] not in MARKS for board in winning_line)
        or len({won[board] for board in winning_line}) != 1
    ):
        raise ValueError(
            f"the winning line must be three boards won by one player: {winning_line!r}"
        )


def _tile_name(state: str | None, playable: bool) -> str:
    if state is None:
        return "playable" if playable else "open"
    return "drawn" if state == DRAW else f"won {state}"


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
    from PIL import ImageDraw

    pieces = _pieces()
    canvas = pieces.backdrop.copy()
    for board in range(9):
        name = _tile_name(won[board], board in playable)
        canvas.paste(pieces.tiles[name], origin(board))
        if name.startswith("won "):
            continue  # its small marks lie under its big mark
        for cell in range(9):
            mark = cells[9 * board + cell]
            if mark is not None:
                look = "last" if last == (board, cell) else name
                canvas.paste(pieces.cells[look, mark], cell_box(board, cell)[:2])
    pen = ImageDraw.Draw(canvas)
    for board in playable:
        x0, y0 = origin(board)
        left, top = x0 - FRAME_WIDTH, y0 - FRAME_WIDTH
        right, bottom = x0 + TILE + FRAME_WIDTH - 1, y0 + TILE + FRAME_WIDTH - 1
        pen.rectangle([left, top, right, bottom], outline=INDEX[PLAYABLE_FRAME], width=FRAME_WIDTH)
    if winning_line is not None:
        first, middle, end = sorted(winning_line)
        mark = won[first]
        assert mark is not None
        overlay, mask, at = _line_overlay((first, middle, end), mark)
        canvas.paste(overlay, at, mask)
    if last is not None and won[last[0]] in MARKS:
        # The move that won a board: its cell's square, over the big mark.
        left, top, right, bottom = cell_box(*last)
        pen.rectangle([left, top, right - 1, bottom - 1], outline=INDEX[LAST_EDGE], width=EDGE + 1)
    out = io.BytesIO()
    canvas.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
