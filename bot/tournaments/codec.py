"""The custom_ids of the tournaments' buttons: "tour1:" then a verb, the tournament's id in
base 62 and, for a standings page, its number ("tour1:t.1Az.2"); a round card's Withdraw
carries its round's number, by which a restart finds the card in the thread. Everything a
click needs travels in it, so a button works the same after a restart. Pure: no Discord.
"""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from bot.core.base62 import decode as from_base62
from bot.core.base62 import encode as base62

PREFIX = "tour1:"
MAX_CUSTOM_ID = 100  # Discord's limit


class Verb(enum.StrEnum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "c"
    STANDINGS = "t"
    WITHDRAW = "w"  # asks first
    WITHDRAW_CONFIRM = "wy"
    WITHDRAW_KEEP = "wn"


_PATTERN = re.compile(
    rf"{re.escape(PREFIX)}(?P<verb>{'|'.join(v.value for v in Verb)})"
    r"\.(?P<id>[0-9A-Za-z]{1,40})(?:\.(?P<number>[0-9]{1,4}))?"
)


class TourClick(NamedTuple):
    verb: Verb
    tournament_id: int
    number: int = 0  # the standings page, or a round card's round; 0 if none


def custom_id(verb: Verb, tournament_id: int, number: int = 0) -> str:
    text = f"{PREFIX}{verb.value}.{base62(tournament_id)}"
    if number:
        text += f".{number}"
    if len(text) > MAX_CUSTOM_ID or not _PATTERN.fullmatch(text):
        raise ValueError(f"no custom_id for {verb!r}, {tournament_id}, number {number}")
    return text


def parse(text: str) -> TourClick | None:
    """The click a custom_id carries; None if it is not one of ours as `custom_id` writes them."""
    match = _PATTERN.fullmatch(text)
    if match is None:
        return None
    try:
        tournament_id = from_base62(match["id"])
    except ValueError:
        return None
    number = int(match["number"]) if match["number"] else 0
    if custom_id(Verb(match["verb"]), tournament_id, number) != text:
        return None  # one click, one spelling (no ".0", no leading zeros)
    return TourClick(Verb(match["verb"]), tournament_id, number)
