"""A message as a user sees it, from its JSON: text, buttons, and the board the buttons show.

Works on both layouts: classic (content + action rows of buttons) and Components V2 (a container
of text displays, separators and action rows). Components are walked depth-first, in the order
Discord draws them; the first nine buttons are the board's cells, row by row.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord

Json = dict[str, Any]

MARKS = {"X": "X", "O": "O", "❌": "X", "⭕": "O"}  # a cell's mark, from its label or emoji
BUTTON = discord.ComponentType.button.value
TEXT_DISPLAY = discord.ComponentType.text_display.value
COMPONENTS_V2 = discord.MessageFlags(components_v2=True).value


def walk(components: list[Json]) -> Iterator[Json]:
    """Every component, nested ones included, depth-first in document order."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])


def buttons(message: Json) -> list[Json]:
    """Every button of `message`, in document order."""
    return [c for c in walk(message.get("components") or []) if c.get("type") == BUTTON]


def text(message: Json) -> str:
    """What the message says: its content and every text display, one per line."""
    parts = [message.get("content") or ""]
    components = message.get("components") or []
    parts.extend(c["content"] for c in walk(components) if c.get("type") == TEXT_DISPLAY)
    return "\n".join(part for part in parts if part)


def is_v2(message: Json) -> bool:
    return bool(message.get("flags", 0) & COMPONENTS_V2)


def cell_buttons(message: Json) -> list[Json]:
    """The board's nine cell buttons, row by row (the first nine buttons of the message)."""
    cells = buttons(message)[:9]
    if len(cells) != 9:
        raise LookupError(f"message {message.get('id')} shows no board: {len(cells)} buttons")
    return cells


def mark(button: Json) -> str | None:
    """The mark a cell button shows, by its label or its emoji: "X", "O" or None."""
    emoji = button.get("emoji")
    if emoji and (found := MARKS.get(emoji.get("name", ""))):
        return found
    return MARKS.get((button.get("label") or "").strip())


def board(message: Json) -> list[list[str | None]]:
    """The marks on a board message's cells: "X", "O" or None, row by row."""
    cells = [mark(button) for button in cell_buttons(message)]
    return [cells[0:3], cells[3:6], cells[6:9]]


def marks(message: Json) -> dict[tuple[int, int], str]:
    """The occupied cells of a board message: {(row, column): mark}."""
    return {
        (i, j): cell for i, row in enumerate(board(message)) for j, cell in enumerate(row) if cell
    }


def is_over(message: Json) -> bool:
    """Whether a board shows a finished game: it offers no Resign (its cells stay enabled)."""
    return "Resign" not in [button.get("label") for button in buttons(message)]


def first_empty(message: Json) -> tuple[int, int] | None:
    for i, row in enumerate(board(message)):
        for j, cell in enumerate(row):
            if cell is None:
                return i, j
    return None


def find_button(
    message: Json,
    *,
    custom_id: str | None = None,
    cell: tuple[int, int] | None = None,
    label: str | None = None,
) -> Json:
    """The button of `message` with this custom_id, at this board cell (row, column), or with
    this label; LookupError if there is none."""
    if cell is not None:
        i, j = cell
        return cell_buttons(message)[3 * i + j]
    for button in buttons(message):
        if custom_id is not None and button.get("custom_id") == custom_id:
            return button
        if label is not None and button.get("label") == label:
            return button
    raise LookupError(f"no button {custom_id or label!r} on message {message.get('id')}")
