"""A tournament game's pairing text, carried by its board (Game.pairing, in every custom_id):
"<tournament id in base 62>.<round>.<board>". Pure: no Discord."""

from __future__ import annotations

import re

from bot.core.finished import Finish, winner_of
from bot.core.game import Game
from bot.core.ultimate_game import UltimateGame
from bot.tournaments.codec import base62, from_base62
from bot.tournaments.core import Colour, Result
from bot.tournaments.running import PairingKey, result_of_game

# What Game.pairing admits: [0-9A-Za-z.]{1,16}.
_PAIRING = re.compile(
    r"(?P<id>[0-9A-Za-z]{1,12})\.(?P<round>[1-9][0-9]{0,3})\.(?P<board>[1-9][0-9]{0,3})"
)
MAX_PAIRING = 16


def pairing_text(key: PairingKey) -> str:
    text = f"{base62(key.tournament_id)}.{key.round_number}.{key.board}"
    if len(text) > MAX_PAIRING or not _PAIRING.fullmatch(text):
        raise ValueError(f"no pairing text for {key!r}")
    return text


def pairing_key(text: str | None) -> PairingKey | None:
    """The key `pairing_text` wrote; None for anything else (no pairing, another spelling)."""
    if text is None:
        return None
    match = _PAIRING.fullmatch(text)
    if match is None:
        return None
    try:
        key = PairingKey(from_base62(match["id"]), int(match["round"]), int(match["board"]))
    except ValueError:
        return None
    return key if pairing_text(key) == text else None


def marks_placed(game: Game | UltimateGame) -> tuple[int, int]:
    """How many X and O marks the board holds (X moved iff it holds an X)."""
    if isinstance(game, UltimateGame):
        state = game.position
        return sum(m.bit_count() for m in state.x), sum(m.bit_count() for m in state.o)
    cells = [cell for row in game.board for cell in row]
    return cells.count("X"), cells.count("O")


def result_of_board(game: Game | UltimateGame) -> Result:
    """A finished tournament board as the tournament's result (on expiry, the side that was
    not to move won, as the records count it)."""
    finish = Finish.of(game)
    x_marks, o_marks = marks_placed(game)
    mark = winner_of(game, finish)
    winner = None if mark is None else Colour(mark)
    return result_of_game(winner, x_marks > 0, o_marks > 0, finish is Finish.EXPIRED)
