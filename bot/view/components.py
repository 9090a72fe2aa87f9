"""Cards and replies -> the JSON of Discord's components (Components V2), as plain dicts.

Built as the JSON Discord takes, with Discord's own numbers for kinds, styles and flags (a test
compares them with discord.py's enums). A click's answer sends this JSON as it is (bot/ui.py):
discord.py's own idiom, a LayoutView of ~20 ui.Items with DynamicItem buttons, cost about 150 µs
to build per board and made discord.py rebuild the clicked message as a View on every click.
"""

from __future__ import annotations

import functools
from typing import Any

from bot.core.server import PLACEHOLDER_EMOJI_NAME, Mark
from bot.view.cards import (
    ButtonSpec,
    Card,
    Cells,
    ModalSpec,
    Picture,
    Reply,
    Section,
    SelectSpec,
)

Component = dict[str, Any]

# Discord's component types, separator spacing and message flag.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
TEXT_DISPLAY = 10
MEDIA_GALLERY = 12
SEPARATOR = 14
CONTAINER = 17
LABEL = 18
SPACING_SMALL = 1
TEXT_INPUT_SHORT = 1
COMPONENTS_V2_FLAG = 1 << 15


def button(spec: ButtonSpec) -> Component:
    payload: Component
    if spec.label:
        payload = {
            "type": BUTTON,
            "style": int(spec.style),
            "label": spec.label,
            "custom_id": spec.custom_id,
        }
    else:  # the emoji alone
        payload = {"type": BUTTON, "style": int(spec.style), "custom_id": spec.custom_id}
    emoji = spec.emoji
    if emoji is not None:
        payload["emoji"] = {"name": emoji} if isinstance(emoji, str) else partial_emoji(emoji)
    if spec.disabled:
        payload["disabled"] = True
    return payload


def partial_emoji(emoji: str | Mark) -> Component:
    """A button's emoji: a standard one by its text, a custom one by its id (Discord needs a
    name too, any name: a board knows only the id)."""
    if isinstance(emoji, str):
        return {"name": emoji}
    return dict(_mark_emoji(emoji))


@functools.lru_cache(maxsize=512)
def _mark_emoji(mark: Mark) -> Component:
    """A mark's emoji object, built once per mark. Shared by every board that shows it:
    payloads are only serialised, never changed."""
    if mark.emoji_id is None:
        return {"name": mark.text}
    return {"id": str(mark.emoji_id), "name": PLACEHOLDER_EMOJI_NAME, "animated": mark.animated}


def row(specs: tuple[ButtonSpec, ...]) -> Component:
    return {"type": ACTION_ROW, "components": list(map(button, specs))}


def select(spec: SelectSpec) -> Component:
    payload: Component = {
        "type": STRING_SELECT,
        "custom_id": spec.custom_id,
        "options": [
            {"label": option.label, "value": option.value, "default": option.default}
            for option in spec.options
        ],
    }
    if spec.placeholder:
        payload["placeholder"] = spec.placeholder
    return payload


def _section(section: Section) -> list[Component]:
    shown = [_text(section.text)]
    if isinstance(section.controls, SelectSpec):
        shown.append({"type": ACTION_ROW, "components": [select(section.controls)]})
    elif section.controls:
        shown.append(row(section.controls))
    return shown


def _cell_rows(cells: Cells) -> list[Component]:
    """A board's three rows of cells: `button`'s dict written out in a comprehension (nine
    function calls fewer on every click), unless cells show emoji."""
    if cells.emojis is None:
        buttons = [
            {"type": BUTTON, "style": int(style), "label": label, "custom_id": custom_id}
            for custom_id, style, label in zip(
                cells.custom_ids, cells.styles, cells.labels, strict=True
            )
        ]
    else:  # a cell shows its mark's emoji alone, or its label
        buttons = [
            {"type": BUTTON, "style": int(style), "label": label, "custom_id": custom_id}
            if emoji is None
            else {
                "type": BUTTON,
                "style": int(style),
                "custom_id": custom_id,
                "emoji": _mark_emoji(emoji),
            }
            for custom_id, style, label, emoji in zip(
                cells.custom_ids, cells.styles, cells.labels, cells.emojis, strict=True
            )
        ]
    if cells.disabled is not None:
        for payload, disabled in zip(buttons, cells.disabled, strict=True):
            if disabled:
                payload["disabled"] = True
    return [
        {"type": ACTION_ROW, "components": buttons[0:3]},
        {"type": ACTION_ROW, "components": buttons[3:6]},
        {"type": ACTION_ROW, "components": buttons[6:9]},
    ]


def _text(content: str) -> Component:
    return {"type": TEXT_DISPLAY, "content": content}


def _separator() -> Component:
    # A fresh dict each time: Discord numbers every component of a message, and so may a library.
    return {"type": SEPARATOR, "divider": True, "spacing": SPACING_SMALL}


def attachment_url(filename: str) -> str:
    """How a component refers to a file sent with its message."""
    return f"attachment://{filename}"


def _gallery(picture: Picture) -> Component:
    """A media gallery of one item: the picture, by the name of the file sent with it."""
    item: Component = {"media": {"url": attachment_url(picture.filename)}}
    if picture.description:
        item["description"] = picture.description
    return {"type": MEDIA_GALLERY, "items": [item]}


def card_components(card: Card) -> list[Component]:
    """The card as a Components V2 message's components: one container. A picture's file is
    sent with the message (bot/ui.py) and shown by a media gallery under the text."""
    children = [_text(card.heading)]
    if card.body:
        children.append(_text(card.body))
    if card.picture is not None:
        children.append(_gallery(card.picture))
    if card.cells:
        children.append(_separator())
        children.extend(_cell_rows(card.cells))
    if card.controls:
        children.append(_separator())
        children.append(row(card.controls))
    if card.sections:
        children.append(_separator())
        for section in card.sections:
            children.extend(_section(section))
    return [{"type": CONTAINER, "accent_color": card.accent, "components": children}]


def reply_rows(reply: Reply) -> list[Component]:
    """The buttons of a private answer, as a row under its text (none without buttons)."""
    return [row(reply.buttons)] if reply.buttons else []


def modal_data(modal: ModalSpec) -> Component:
    """A modal's JSON (an interaction's answer of type MODAL): each text field in a label."""
    return {
        "custom_id": modal.custom_id,
        "title": modal.title,
        "components": [
            {
                "type": LABEL,
                "label": field.label,
                "component": {
                    "type": TEXT_INPUT,
                    "custom_id": field.custom_id,
                    "style": TEXT_INPUT_SHORT,
                    "required": False,
                    "max_length": field.max_length,
                    **({"value": field.value} if field.value else {}),
                    **({"placeholder": field.placeholder} if field.placeholder else {}),
                },
            }
            for field in modal.inputs
        ],
    }
