"""What a game is: a small immutable value and its transitions. Rules come from the engine."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import StrEnum

import tictactoe as ttt

AI = 0  # the player id that stands for the bot itself

Row = tuple[ttt.rules.Cell, ttt.rules.Cell, ttt.rules.Cell]
Rows = tuple[Row, Row, Row]
EMPTY_BOARD: Rows = ((None, None, None), (None, None, None), (None, None, None))


class GameError(ValueError):
    """A move or action that the game's current state does not allow."""


class Ending(StrEnum):
    """How a game ended other than on the board."""

    X_RESIGNED = "x"
    O_RESIGNED = "o"
    EXPIRED = "t"


@dataclass(frozen=True, slots=True)
class Game:
    """One game: who plays which mark, the board, and how it ended if not on the board.

    `difficulty` is None when two people play each other.
    """

    x_player: int
    o_player: int
    difficulty: str | None = None
    board: Rows = EMPTY_BOARD
    ending: Ending | None = None
    # Derived from the board once: every click and every render asks for these several times.
    _lines: tuple[tuple[ttt.Action, ...], ...] = field(init=False, repr=False, compare=False)
    _board_over: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_lines", tuple(ttt.winning_lines(self.board)))
        object.__setattr__(self, "_board_over", ttt.terminal(self.board))

    @classmethod
    def start(
        cls, x_player: int, o_player: int, difficulty: str | None, rng: random.Random
    ) -> Game:
        """A new game; when the bot plays X its first mark is already on the board."""
        return cls(x_player, o_player, difficulty).with_ai_reply(rng)

    @property
    def vs_ai(self) -> bool:
        return AI in (self.x_player, self.o_player)

    @property
    def players(self) -> tuple[int, int]:
        return self.x_player, self.o_player

    @property
    def mark_to_move(self) -> str:
        return ttt.player(self.board)

    @property
    def player_to_move(self) -> int:
        return self.x_player if self.mark_to_move == ttt.X else self.o_player

    @property
    def is_over(self) -> bool:
        return self.ending is not None or self._board_over

    @property
    def winner_mark(self) -> str | None:
        """The mark that won, by three in a row or by the other side resigning."""
        if self.ending is Ending.X_RESIGNED:
            return ttt.O
        if self.ending is Ending.O_RESIGNED:
            return ttt.X
        if not self._lines:
            return None
        i, j = self._lines[0][0]
        return self.board[i][j]

    @property
    def winner_id(self) -> int | None:
        mark = self.winner_mark
        return None if mark is None else self.player_of(mark)

    @property
    def winning_cells(self) -> frozenset[ttt.Action]:
        return frozenset(cell for line in self._lines for cell in line)

    def player_of(self, mark: str) -> int:
        return self.x_player if mark == ttt.X else self.o_player

    def mark_of(self, user_id: int) -> str | None:
        if user_id == self.x_player:
            return ttt.X
        if user_id == self.o_player:
            return ttt.O
        return None

    def play(self, action: ttt.Action) -> Game:
        """The game after the player to move plays `action`."""
        if self.is_over:
            raise GameError("this game is already over")
        board = ttt.result(self.board, action)  # raises ValueError on an illegal action
        return replace(self, board=freeze_board(board))

    def with_ai_reply(self, rng: random.Random) -> Game:
        """The game after the bot's move, if it is the bot's turn; otherwise unchanged."""
        if self.is_over or self.player_to_move != AI:
            return self
        assert self.difficulty is not None
        move = ttt.choose_move(self.board, self.difficulty, rng)
        assert move is not None
        return self.play(move)

    def resign(self, user_id: int) -> Game:
        mark = self.mark_of(user_id)
        if mark is None or self.is_over:
            raise GameError("only a player can resign, and only while the game is on")
        return replace(self, ending=Ending.X_RESIGNED if mark == ttt.X else Ending.O_RESIGNED)

    def expire(self) -> Game:
        return self if self.is_over else replace(self, ending=Ending.EXPIRED)

    def rematch(self, rng: random.Random) -> Game:
        """A new game between the same players, marks swapped so the other side moves first."""
        return Game.start(self.o_player, self.x_player, self.difficulty, rng)


@dataclass(frozen=True, slots=True)
class Challenge:
    """An open invitation from one user to another, before the board exists."""

    challenger: int
    opponent: int
    challenger_mark: str  # X or O

    def accept(self) -> Game:
        if self.challenger_mark == ttt.X:
            return Game(self.challenger, self.opponent)
        return Game(self.opponent, self.challenger)


def freeze_board(board: ttt.Board) -> Rows:
    """An immutable copy of an engine board."""
    first, second, third = (tuple(row) for row in board)
    return first, second, third  # type: ignore[return-value]
