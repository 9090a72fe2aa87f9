"""Every custom_id a state's message carries, with what each asks for: for the codec's tests."""

from __future__ import annotations

from bot.core import codec
from bot.core.codec import Verb
from bot.core.game import Challenge, Game

GAME_VERBS = (
    Verb.RESIGN,
    Verb.CONFIRM_RESIGN,
    Verb.KEEP_PLAYING,
    Verb.HINT,
    Verb.REMATCH,
    Verb.REVIEW,
)
CHALLENGE_VERBS = (Verb.ACCEPT, Verb.DECLINE)


def ids_of(state: Game | Challenge) -> list[tuple[str, Verb, tuple[int, int] | None]]:
    """(custom_id, verb, cell) of a challenge's two buttons, or of a game's nine cells (row by
    row) and its controls."""
    if isinstance(state, Challenge):
        return [(codec.control_id(state, verb), verb, None) for verb in CHALLENGE_VERBS]
    cells = [(codec.cell_id(state, (i, j)), Verb.CELL, (i, j)) for i in range(3) for j in range(3)]
    return cells + [(codec.control_id(state, verb), verb, None) for verb in GAME_VERBS]
