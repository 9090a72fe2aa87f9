"""A message as a user sees it, from its JSON: text, buttons, and the board the buttons show.

Works on both layouts: classic (content + action rows of buttons) and Components V2 (a container
of text displays, separators and action rows). Components are walked depth-first, in the order
Discord draws them; the first nine buttons are the board's cells, row by row, and the buttons
after them its controls (Hint, Resign, Rematch, ...). Tests on SimCord read a discord.py message
the same way, through its JSON (tests/bot_helpers.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import discord

Json = dict[str, Any]

MARKS = {"X": "X", "O": "O", "❌": "X", "⭕": "O"}  # a cell's mark, from its label or emoji
BUTTON = discord.ComponentType.button.value
TEXT_DISPLAY = discord.ComponentType.text_display.value
CONTAINER = discord.ComponentType.container.value
MEDIA_GALLERY = discord.ComponentType.media_gallery.value
WINNING = discord.ButtonStyle.success.value  # the cells of a winning line are green
COMPONENTS_V2 = discord.MessageFlags(components_v2=True).value


def walk(components: list[Json]) -> Iterator[Json]:
    """Every component, nested ones included (a section's accessory too), depth-first in
    document order."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        if accessory := component.get("accessory"):
            yield from walk([accessory])


def buttons(message: Json) -> list[Json]:
    """Every button of `message`, in document order."""
    return [c for c in walk(message.get("components") or []) if c.get("type") == BUTTON]


def texts(message: Json) -> list[str]:
    """The message's text displays (Components V2), in order."""
    components = message.get("components") or []
    return [c["content"] for c in walk(components) if c.get("type") == TEXT_DISPLAY]


def text(message: Json) -> str:
    """What the message says: its content and every text display, one per line."""
    parts = [message.get("content") or "", *texts(message)]
    return "\n".join(part for part in parts if part)


def heading(message: Json) -> str:
    """A board's first text: the title and one line per player."""
    return texts(message)[0]


def status(message: Json) -> str:
    """A board's second and last text: the last move, whose turn it is or the result."""
    shown = texts(message)
    if len(shown) != 2:
        raise LookupError(f"message {message.get('id')} shows no board's two texts: {shown}")
    return shown[1]


class ShownPicture(NamedTuple):
    """A picture a message shows: its file (name, bytes), alt text and size in pixels."""

    filename: str
    data: bytes
    description: str | None
    width: int | None
    height: int | None


def gallery_items(message: Json) -> list[Json]:
    """The items of the message's media galleries, in order: each has its `media` (as Discord
    answers it: url, width, height, attachment_id, ...) and its `description`."""
    components = message.get("components") or []
    return [
        item
        for component in walk(components)
        if component.get("type") == MEDIA_GALLERY
        for item in component.get("items") or []
    ]


def picture(message: Json, files: Mapping[int, bytes]) -> ShownPicture:
    """The one picture the message shows, with its file's bytes from `files` (the fake
    Discord's, by attachment id: FakeDiscord.files). LookupError if it shows none or several,
    or if its file is no longer Discord's."""
    items = gallery_items(message)
    if len(items) != 1:
        raise LookupError(f"message {message.get('id')} shows {len(items)} pictures, not one")
    item = items[0]
    media = item["media"]
    attachment_id = media.get("attachment_id")
    if attachment_id is None or int(attachment_id) not in files:
        raise LookupError(f"message {message.get('id')} shows no file Discord has: {media}")
    filename = urlsplit(media["url"]).path.rsplit("/", 1)[-1]
    return ShownPicture(
        filename,
        files[int(attachment_id)],
        item.get("description"),
        media.get("width"),
        media.get("height"),
    )


def unshown_files(message: Json) -> list[Json]:
    """The files of a Components V2 message that no component shows: Discord keeps them on
    the message, in its `attachments`, and shows nothing of them."""
    if not message.get("flags", 0) & COMPONENTS_V2:
        return []
    return list(message.get("attachments") or [])


def is_v2(message: Json) -> bool:
    """Whether the message shows the Components V2 layout alone: the flag, and no content
    (Discord refuses content there, so an edit into this layout must clear the old)."""
    return bool(message.get("flags", 0) & COMPONENTS_V2) and not message.get("content")


def accent(message: Json) -> int | None:
    """The colour of the message's container (its left stripe); None without one or without a
    colour. LookupError if the message has several containers."""
    containers = [c for c in message.get("components") or [] if c.get("type") == CONTAINER]
    if len(containers) > 1:
        raise LookupError(f"message {message.get('id')} has {len(containers)} containers")
    return containers[0].get("accent_color") if containers else None


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


def cell_styles(message: Json) -> list[list[int]]:
    """The style (colour) of each cell, row by row: discord.ButtonStyle values."""
    styles = [button["style"] for button in cell_buttons(message)]
    return [styles[0:3], styles[3:6], styles[6:9]]


def green_cells(message: Json) -> set[tuple[int, int]]:
    """The cells shown green: a winning line."""
    return {
        (i, j)
        for i, row in enumerate(cell_styles(message))
        for j, style in enumerate(row)
        if style == WINNING
    }


def all_cells_enabled(message: Json) -> bool:
    return not any(button.get("disabled") for button in cell_buttons(message))


def control_labels(message: Json) -> list[str]:
    """The labels of a board's buttons after its nine cells (Hint, Resign, Rematch, ...)."""
    return [button.get("label") or "" for button in buttons(message)[9:]]


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


def snapshot(message: Json) -> tuple[str, list[tuple[Any, ...]], int | None]:
    """What a user sees of a message, to compare: its text, every button's look and state
    (custom_id, emoji, label, style, disabled), its colour."""
    looks = [
        (b.get("custom_id"), b.get("emoji"), b.get("label"), b["style"], bool(b.get("disabled")))
        for b in buttons(message)
    ]
    return text(message), looks, accent(message)


def emoji_text(emoji: Json) -> str:
    """An emoji as a message's text writes it: a standard one as itself, a server's own as
    <:name:id> (animated: <a:name:id>)."""
    if not emoji.get("id"):
        return str(emoji["name"])
    return f"<{'a' if emoji.get('animated') else ''}:{emoji['name']}:{emoji['id']}>"


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
