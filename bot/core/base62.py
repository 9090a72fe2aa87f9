"""Numbers in base 62 (digits, then A-Z, then a-z): the shortest way a custom_id carries a user
id, an emoji's id, a tournament's id or a packed position. One writing per number (no leading
zero), so that a key read back is the key written."""

from __future__ import annotations

import string

DIGITS = string.digits + string.ascii_uppercase + string.ascii_lowercase
VALUE = {digit: value for value, digit in enumerate(DIGITS)}


def encode(number: int) -> str:
    """A non-negative int in base 62."""
    if number < 0:
        raise ValueError("base 62 is for non-negative numbers")
    digits = []
    while True:
        number, digit = divmod(number, 62)
        digits.append(DIGITS[digit])
        if not number:
            return "".join(reversed(digits))


def decode(text: str) -> int:
    """The int `encode` wrote; ValueError on anything else (a leading zero included)."""
    if not text or (len(text) > 1 and text[0] == "0") or any(c not in VALUE for c in text):
        raise ValueError(f"not a base 62 number: {text!r}")
    number = 0
    for char in text:
        number = number * 62 + VALUE[char]
    return number
