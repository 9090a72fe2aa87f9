"""Finished ultimate games for the records tests, built the way the bot builds them: an
UltimateGame played out move by move, announced as a FinishedGame (kind "ultimate"), turned
into a GameRecord. The move lists are random playouts of the engine's rules, seeded, that end
the way a test asks."""

from __future__ import annotations

import functools
import random

from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Ending
from bot.core.ultimate_game import ULTIMATE, UltimateGame
from bot.records.api import GameRecord
from tests.support.records import GUILD, T0, game_id
from tictactoe import ultimate

DRAWN = "draw"


@functools.cache
def playout(outcome: str) -> tuple[int, ...]:
    """The moves (9 * board + cell) of the first seeded random game that ends with `outcome`:
    "X" or "O" winning three boards in a line, or DRAWN."""
    for seed in range(10_000):
        rng = random.Random(seed)
        state, moves = ultimate.initial_state(), []
        while not ultimate.terminal(state):
            board, cell = rng.choice(sorted(ultimate.actions(state)))
            state = ultimate.result(state, (board, cell))
            moves.append(9 * board + cell)
        if (ultimate.winner(state) or DRAWN) == outcome:
            return tuple(moves)
    raise AssertionError(f"no playout ends in {outcome}")


def played(x: int, o: int, moves: tuple[int, ...], *, level: str | None = None) -> UltimateGame:
    game = UltimateGame.start(x, o, level)
    for move in moves:
        game = game.play(divmod(move, 9))
    return game


def ultimate_record(
    n: int,
    x: int,
    o: int,
    moves: tuple[int, ...],
    *,
    level: str | None = None,
    ending: Ending | None = None,
    guild: int | None = GUILD,
    known_moves: bool = True,
) -> GameRecord:
    """Ultimate game number `n` (its id and end time follow from n, as tests.support.records'
    classic games'). `known_moves` False: a game rebuilt from its message, moves unknown."""
    if AI in (x, o) and level is None:
        level = "impossible"
    game = played(x, o, moves, level=level)
    if ending is Ending.EXPIRED:
        game = game.expire()
    elif ending is not None:
        game = game.resign(x if ending is Ending.X_RESIGNED else o)
    if not known_moves:
        game = UltimateGame(
            game.x_player,
            game.o_player,
            game.difficulty,
            game.position,
            game.ending,
            game.locale,
        )
    place = Place.SERVER if guild is not None else Place.DM
    finished = FinishedGame(
        game_id(n), game, T0 + n, guild, place, user_installed=False, kind=ULTIMATE
    )
    return GameRecord.from_finished(finished)
