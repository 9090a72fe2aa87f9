"""What a message shows, as plain values: no Discord types, no I/O.

A Card is a public Components V2 message (one container); a Reply a private answer. Styles and
colours are Discord's own numbers, so bot/view/components.py writes them into JSON as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

from bot.core.server import Mark


class Style(IntEnum):
    """A button's style, as Discord numbers it."""

    PRIMARY = 1  # blurple
    SECONDARY = 2  # grey
    SUCCESS = 3  # green
    DANGER = 4  # red


# Container accent colours (0xRRGGBB), Discord's named colours.
RED = 0xE74C3C
BLURPLE = 0x5865F2
GREEN = 0x2ECC71
GREY = 0x979C9F


class ButtonSpec(NamedTuple):
    """A button as plain values (a named tuple: a board has a dozen, built on every click).
    The emoji is a standard one's text, or a mark (a custom emoji or a standard one); an empty
    label shows the emoji alone."""

    custom_id: str
    style: Style
    label: str
    emoji: str | Mark | None = None
    disabled: bool = False


class Cells(NamedTuple):
    """A board's nine buttons, row by row, as columns of values: a board is drawn on every
    click, and bot/view/components.py builds its JSON from these directly, without nine
    ButtonSpecs in between. `emojis` is None when no cell shows an emoji (the default look);
    otherwise each cell's mark, or None where it shows its label. `rows` gives the buttons, for
    whoever wants them one by one."""

    custom_ids: tuple[str, ...]
    styles: tuple[Style, ...]
    labels: tuple[str, ...]
    emojis: tuple[Mark | None, ...] | None = None
    # Which buttons cannot be clicked (Discord greys them out); None: all can. The classic
    # board keeps every cell clickable; the ultimate grid greys what it does not offer.
    disabled: tuple[bool, ...] | None = None

    @property
    def rows(self) -> tuple[tuple[ButtonSpec, ...], ...]:
        emojis = self.emojis or (None,) * len(self.custom_ids)
        disabled = self.disabled or (False,) * len(self.custom_ids)
        buttons = tuple(
            map(ButtonSpec, self.custom_ids, self.styles, self.labels, emojis, disabled)
        )
        return buttons[0:3], buttons[3:6], buttons[6:9]


class SelectOption(NamedTuple):
    """One choice of a select menu."""

    label: str
    value: str
    default: bool = False  # shown as chosen when the message is drawn


class SelectSpec(NamedTuple):
    """A select menu (one choice) as plain values: it fills an action row alone."""

    custom_id: str
    options: tuple[SelectOption, ...]
    placeholder: str = ""


class Section(NamedTuple):
    """A line of text and the controls under it: a row of buttons, a select, or none."""

    text: str
    controls: tuple[ButtonSpec, ...] | SelectSpec = ()


# A file name that an `attachment://` reference finds as sent: Discord rewrites other
# characters (spaces, accents) when it stores an upload, and the reference then shows nothing.
_FILENAME = re.compile(r"[A-Za-z0-9_-]{1,64}\.(png|jpg|jpeg|webp|gif)")
MAX_ALT_TEXT = 1024  # Discord's limit on a media item's description


@dataclass(frozen=True, slots=True)
class Picture:
    """An image a card shows under its text, above its buttons: a file sent with the message
    (its name, e.g. "board.png", and its bytes) and its alt text, read aloud by screen readers."""

    filename: str
    data: bytes = field(repr=False)
    description: str = ""

    def __post_init__(self) -> None:
        if not _FILENAME.fullmatch(self.filename):
            raise ValueError(f"not a file name an attachment:// reference finds: {self.filename!r}")
        if len(self.description) > MAX_ALT_TEXT:
            raise ValueError(f"alt text longer than {MAX_ALT_TEXT} characters")


class Card(NamedTuple):
    """A public message: a container with an accent colour, text, a picture, a board's cells,
    buttons, and sections (a line each, with its controls: a settings card)."""

    accent: int
    heading: str
    body: str
    cells: Cells | None = None
    controls: tuple[ButtonSpec, ...] = ()
    pings: tuple[int, ...] = ()
    sections: tuple[Section, ...] = ()
    picture: Picture | None = None

    @property
    def text(self) -> str:
        return f"{self.heading}\n{self.body}"

    @property
    def rows(self) -> tuple[tuple[ButtonSpec, ...], ...]:
        """The board's cells as three rows of buttons; none on a message without a board."""
        return () if self.cells is None else self.cells.rows


@dataclass(frozen=True, slots=True)
class Reply:
    """A private answer: a short text and, at times, a button."""

    text: str
    buttons: tuple[ButtonSpec, ...] = ()


class TextInputSpec(NamedTuple):
    """A one-line text field of a modal."""

    custom_id: str
    label: str
    value: str = ""  # filled in when the modal opens
    placeholder: str = ""
    max_length: int = 100


class ModalSpec(NamedTuple):
    """A modal (a form over the app) as plain values: a title and its text fields."""

    custom_id: str
    title: str
    inputs: tuple[TextInputSpec, ...]
