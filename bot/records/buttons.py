"""The custom_ids of the records' buttons: what each click needs travels in it, so a button
works the same after a restart. The game's buttons start with "ttt"; these with "rec:"."""

from __future__ import annotations

import re
from typing import NamedTuple

PREFIX = "rec:"
PATTERN = r"rec:(?P<verb>rv|pg|fg|keep):(?P<args>[0-9a-z:]{0,60})"
_PATTERN = re.compile(PATTERN)

REVIEW, PAGE, FORGET, KEEP = "rv", "pg", "fg", "keep"
KEEP_ID = "rec:keep:"


class RecordsClick(NamedTuple):
    verb: str
    args: tuple[str, ...]


def review_id(game_id: int) -> str:
    return f"rec:{REVIEW}:{game_id}"


def page_id(table: str, page: int) -> str:
    return f"rec:{PAGE}:{table}:{page}"


def forget_id(user_id: int) -> str:
    return f"rec:{FORGET}:{user_id}"


def parse(custom_id: str) -> RecordsClick | None:
    match = _PATTERN.fullmatch(custom_id)
    if match is None:
        return None
    args = match["args"]
    return RecordsClick(match["verb"], tuple(args.split(":")) if args else ())
