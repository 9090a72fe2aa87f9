"""A tournament as one immutable value: its format, its players in seed order, its rounds.

Pure: no Discord, no I/O. Players are Discord user ids (ints); their order in `players` is
their seed (pairing number 1 first). Points are kept as half-points in ints, so that no
float ever decides a tie: a win is 2, a draw 1, a loss 0, a bye 2.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

PlayerId = int

WIN, DRAW, LOSS = 2, 1, 0  # half-points


class Format(enum.StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"


class Result(enum.StrEnum):
    """How a game ended, from X's side first. Forfeits are unplayed games for both players."""

    X_WON = "1-0"
    O_WON = "0-1"
    DRAW = "1/2"
    X_WON_BY_FORFEIT = "+-"  # O never played (timed out without a move, or withdrew)
    O_WON_BY_FORFEIT = "-+"
    DOUBLE_FORFEIT = "--"  # neither moved: both lose, both unplayed

    @property
    def played(self) -> bool:
        return self in (Result.X_WON, Result.O_WON, Result.DRAW)

    @property
    def half_points(self) -> tuple[int, int]:
        """(X's, O's) half-points."""
        return _HALF_POINTS[self]


_HALF_POINTS = {
    Result.X_WON: (WIN, LOSS),
    Result.O_WON: (LOSS, WIN),
    Result.DRAW: (DRAW, DRAW),
    Result.X_WON_BY_FORFEIT: (WIN, LOSS),
    Result.O_WON_BY_FORFEIT: (LOSS, WIN),
    Result.DOUBLE_FORFEIT: (LOSS, LOSS),
}


class Colour(enum.StrEnum):
    X = "X"
    O = "O"  # noqa: E741 (the board's own letter)

    @property
    def other(self) -> Colour:
        return Colour.O if self is Colour.X else Colour.X


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: x plays X (moves first), o plays O; result is None while it runs."""

    x: PlayerId
    o: PlayerId
    result: Result | None = None

    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.x, self.o)


@dataclass(frozen=True, slots=True)
class Round:
    """A round's games and its byes (a Swiss round has at most one bye; a round-robin round
    one per odd field, plus one for each player whose scheduled opponent has withdrawn)."""

    pairings: tuple[Pairing, ...]
    byes: tuple[PlayerId, ...] = ()

    @property
    def finished(self) -> bool:
        return all(pairing.result is not None for pairing in self.pairings)


@dataclass(frozen=True, slots=True)
class Game:
    """One player's view of one round: who they met, with which colour, what they scored."""

    round_index: int
    opponent: PlayerId | None  # None: a bye
    colour: Colour | None
    half_points: int | None  # None: the game is still running
    played: bool


@dataclass(frozen=True, slots=True)
class Tournament:
    format: Format
    players: tuple[PlayerId, ...]  # seed order
    rounds: tuple[Round, ...] = ()
    withdrawn: frozenset[PlayerId] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player is seeded twice")

    def with_round(self, round_: Round) -> Tournament:
        return replace(self, rounds=(*self.rounds, round_))

    def with_result(self, round_index: int, x: PlayerId, result: Result) -> Tournament:
        """The tournament with the game of `x` in that round ended by `result`."""
        round_ = self.rounds[round_index]
        pairings = tuple(
            replace(pairing, result=result) if pairing.x == x else pairing
            for pairing in round_.pairings
        )
        if pairings == round_.pairings and all(p.x != x for p in round_.pairings):
            raise KeyError(f"player {x} plays X in no game of round {round_index + 1}")
        rounds = list(self.rounds)
        rounds[round_index] = replace(round_, pairings=pairings)
        return replace(self, rounds=tuple(rounds))

    def with_withdrawal(self, player: PlayerId) -> Tournament:
        return replace(self, withdrawn=self.withdrawn | {player})

    @property
    def active_players(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.players if p not in self.withdrawn)

    def games(self, player: PlayerId) -> Iterator[Game]:
        """The player's rounds in order (rounds they were not in are left out)."""
        for index, round_ in enumerate(self.rounds):
            if player in round_.byes:
                yield Game(index, None, None, WIN, played=False)
                continue
            for pairing in round_.pairings:
                if player in (pairing.x, pairing.o):
                    is_x = player == pairing.x
                    opponent = pairing.o if is_x else pairing.x
                    colour = Colour.X if is_x else Colour.O
                    if pairing.result is None:
                        yield Game(index, opponent, colour, None, played=False)
                    else:
                        half = pairing.result.half_points[0 if is_x else 1]
                        yield Game(index, opponent, colour, half, pairing.result.played)
                    break

    def half_points(self, player: PlayerId) -> int:
        """Points so far, in half-points: finished games and byes (a bye counts once paired)."""
        return sum(game.half_points or 0 for game in self.games(player))

    def opponents(self, player: PlayerId) -> set[PlayerId]:
        """Everyone the player has been paired with, whatever happened in the game."""
        return {game.opponent for game in self.games(player) if game.opponent is not None}

    def had_bye(self, player: PlayerId) -> bool:
        return any(game.opponent is None for game in self.games(player))

    def colours(self, player: PlayerId) -> tuple[Colour, ...]:
        """Colours of the games the player actually played, in order (no forfeits, no byes)."""
        return tuple(
            game.colour
            for game in self.games(player)
            if game.colour is not None and (game.played or game.half_points is None)
        )
