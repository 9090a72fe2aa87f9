"""What a game is: small immutable values that refuse to be illegal. Rules come from the engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple

import tictactoe as ttt
from bot.core.players import (
    AI,
    DELETED_PLAYER,
    DELETED_PLAYERS,
    MAX_SNOWFLAKE,
    PAIRING,
    Ending,
    GameError,
    check_pairing,
    check_players,
)
from bot.core.server import DEFAULT_LOOK, VARIANT_CHOICES, Look
from bot.core.ultimate_game import ULTIMATE, UltimateGame
from bot.i18n import SOURCE_LOCALE

Cell = str | None
Row = tuple[Cell, Cell, Cell]
Rows = tuple[Row, Row, Row]
EMPTY_BOARD: Rows = ((None, None, None), (None, None, None), (None, None, None))


def cell_index(action: ttt.Action) -> int:
    """0-8, row by row: the compact form of a cell in move lists."""
    return action[0] * 3 + action[1]


def cell_action(index: int) -> ttt.Action:
    row, column = divmod(index, 3)
    return row, column


# The engine's lines as cell indices.
LINE_CELLS: tuple[tuple[int, int, int], ...] = tuple(
    (a[0] * 3 + a[1], b[0] * 3 + b[1], c[0] * 3 + c[1]) for a, b, c in ttt.LINES
)


@dataclass(frozen=True, slots=True)
class Game:
    """One game: who plays which mark, the moves, and how it ended if not on the board.

    `difficulty` is set exactly when the bot plays. `moves` lists the cells played (0-8) in
    order; it is None for boards posted before move lists were kept, whose order is unknown.
    `locale` is the language the public board speaks for the whole game; `look` what it
    carries of its server's settings (its marks' emoji, its turn timeout).
    """

    x_player: int
    o_player: int
    difficulty: str | None = None
    board: Rows = EMPTY_BOARD
    moves: tuple[int, ...] | None = None
    ending: Ending | None = None
    locale: str = SOURCE_LOCALE
    look: Look = DEFAULT_LOOK
    # The tournament game this is (bot/tournaments names it), or None for any other game.
    pairing: str | None = None
    # What the board implies, shared by every game in the same position (see _Position).
    _position: _Position = field(init=False, repr=False, compare=False)
    # Resigned, expired, or ended on the board: a click asks several times.
    is_over: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_players(self.x_player, self.o_player, self.difficulty, self.pairing)
        if self.moves is not None:
            # A move list that plays out is legal by construction: it only has to match.
            position = _position_of_moves(self.moves)
            if position.board != self.board:
                raise GameError("the moves do not make this board")
        else:
            position = _position_of_board(self.board)
        if self.ending is not None and position.over:
            raise GameError("a game that ended on the board cannot also be resigned or expired")
        object.__setattr__(self, "_position", position)
        object.__setattr__(self, "is_over", self.ending is not None or position.over)

    @classmethod
    def start(
        cls,
        x_player: int,
        o_player: int,
        difficulty: str | None,
        rng: random.Random,
        locale: str = SOURCE_LOCALE,
        look: Look = DEFAULT_LOOK,
    ) -> Game:
        """A new game; when the bot plays X its first mark is already on the board."""
        game = cls(x_player, o_player, difficulty, moves=(), locale=locale, look=look)
        return game.with_ai_reply(rng)

    @classmethod
    def from_moves(
        cls,
        x_player: int,
        o_player: int,
        difficulty: str | None,
        moves: tuple[int, ...],
        ending: Ending | None = None,
        locale: str = SOURCE_LOCALE,
        look: Look = DEFAULT_LOOK,
        pairing: str | None = None,
    ) -> Game:
        board = _position_of_moves(moves).board
        return cls(x_player, o_player, difficulty, board, moves, ending, locale, look, pairing)

    @property
    def vs_ai(self) -> bool:
        return AI in (self.x_player, self.o_player)

    @property
    def players(self) -> tuple[int, int]:
        return self.x_player, self.o_player

    @property
    def mark_to_move(self) -> str:
        return self._position.mark_to_move

    @property
    def player_to_move(self) -> int:
        return self.player_of(self._position.mark_to_move)

    @property
    def last_move(self) -> ttt.Action | None:
        """The cell played last, when the move order is known."""
        return cell_action(self.moves[-1]) if self.moves else None

    @property
    def winner_mark(self) -> str | None:
        """The mark that won, by three in a row or by the other side resigning."""
        if self.ending is Ending.X_RESIGNED:
            return ttt.O
        if self.ending is Ending.O_RESIGNED:
            return ttt.X
        return self._position.line_mark

    @property
    def winner_id(self) -> int | None:
        mark = self.winner_mark
        return None if mark is None else self.player_of(mark)

    @property
    def winning_cells(self) -> frozenset[ttt.Action]:
        return self._position.winning_cells

    def player_of(self, mark: str) -> int:
        return self.x_player if mark == ttt.X else self.o_player

    def mark_of(self, user_id: int) -> str | None:
        if user_id == self.x_player:
            return ttt.X
        if user_id == self.o_player:
            return ttt.O
        return None

    def is_free(self, action: ttt.Action) -> bool:
        return self.board[action[0]][action[1]] is None

    def play(self, action: ttt.Action, ai_rng: random.Random | None = None) -> Game:
        """The game after the player to move plays `action`; given `ai_rng`, also after the
        bot's reply when the bot moves next (one Game built instead of two: a click asks for
        both)."""
        if self.is_over:
            raise GameError("this game is already over")
        if not self.is_free(action):
            raise GameError("that cell is taken")
        if self.moves is None:
            board = _with_mark(self.board, action, self.mark_to_move)
            played = Game(
                self.x_player,
                self.o_player,
                self.difficulty,
                board,
                None,
                None,
                self.locale,
                self.look,
                self.pairing,
            )
            return played if ai_rng is None else played.with_ai_reply(ai_rng)
        moves = (*self.moves, cell_index(action))
        position = _position_of_moves(moves)
        bot_to_move = not position.over and self.player_of(position.mark_to_move) == AI
        if ai_rng is not None and bot_to_move:
            moves = (*moves, cell_index(self._bot_move(position.board, ai_rng)))
            position = _position_of_moves(moves)
        return Game(
            self.x_player,
            self.o_player,
            self.difficulty,
            position.board,
            moves,
            None,
            self.locale,
            self.look,
            self.pairing,
        )

    def with_ai_reply(self, rng: random.Random) -> Game:
        """The game after the bot's move, if it is the bot's turn; otherwise unchanged."""
        if self.is_over or self.player_to_move != AI:
            return self
        return self.play(self._bot_move(self.board, rng))

    def _bot_move(self, board: Rows, rng: random.Random) -> ttt.Action:
        """The cell the bot plays on `board` (this game's, or one move on) at its level."""
        assert self.difficulty is not None
        move = ttt.choose_move(board, self.difficulty, rng)  # type: ignore[arg-type]
        assert move is not None
        return move

    def resign(self, user_id: int) -> Game:
        mark = self.mark_of(user_id)
        if mark is None or self.is_over:
            raise GameError("only a player can resign, and only while the game is on")
        return replace(self, ending=Ending.X_RESIGNED if mark == ttt.X else Ending.O_RESIGNED)

    def expire(self) -> Game:
        return self if self.is_over else replace(self, ending=Ending.EXPIRED)

    def rematch(self, rng: random.Random) -> Game:
        """A new game between the same players, marks swapped so the other side moves first."""
        return Game.start(
            self.o_player, self.x_player, self.difficulty, rng, self.locale, self.look
        )


@dataclass(frozen=True, slots=True)
class Challenge:
    """An open invitation from one user to another, before the board exists."""

    challenger: int
    opponent: int
    challenger_mark: str  # X or O
    locale: str = SOURCE_LOCALE
    look: Look = DEFAULT_LOOK  # the game's, once accepted
    variant: str = "classic"  # the kind of board the game will be played on

    def __post_init__(self) -> None:
        if self.variant not in VARIANT_CHOICES:
            raise GameError(f"unknown variant {self.variant!r}")
        if AI in (self.challenger, self.opponent) or self.challenger == self.opponent:
            raise GameError("a challenge is between two different people")
        if not (0 < self.challenger <= MAX_SNOWFLAKE and 0 < self.opponent <= MAX_SNOWFLAKE):
            raise GameError("a user id is out of range")
        if self.challenger_mark not in (ttt.X, ttt.O):
            raise GameError("the challenger plays X or O")

    @property
    def players(self) -> tuple[int, int]:
        return self.challenger, self.opponent

    def accept(self) -> AnyGame:
        x_player, o_player = (
            (self.challenger, self.opponent)
            if self.challenger_mark == ttt.X
            else (self.opponent, self.challenger)
        )
        if self.variant == ULTIMATE:
            return UltimateGame.start(x_player, o_player, None, self.locale, self.look)
        return Game(x_player, o_player, moves=(), locale=self.locale, look=self.look)


AnyGame = Game | UltimateGame
State = Game | UltimateGame | Challenge


def freeze_board(board: ttt.Board) -> Rows:
    """An immutable copy of an engine board."""
    first, second, third = (tuple(row) for row in board)
    return first, second, third  # type: ignore[return-value]


def board_of_moves(moves: tuple[int, ...]) -> Rows:
    """The board after `moves` from the empty board, X first; GameError if a cell repeats,
    names no cell, or comes after a win."""
    return _position_of_moves(moves).board


def _with_mark(board: Rows, action: ttt.Action, mark: str) -> Rows:
    i, j = action
    row = board[i]
    changed: Row = (
        (mark, row[1], row[2])
        if j == 0
        else ((row[0], mark, row[2]) if j == 1 else (row[0], row[1], mark))
    )
    return (
        changed if i == 0 else board[0],
        changed if i == 1 else board[1],
        changed if i == 2 else board[2],
    )


NO_CELLS: frozenset[ttt.Action] = frozenset()  # shared: most positions have no winning line


class _Position(NamedTuple):
    """What a board implies, worked out once: every click and render asks several times, and
    games share their positions (5,478 are reachable), so these are cached."""

    board: Rows
    over: bool  # three in a row, or no empty cell left
    line_mark: str | None  # the mark with three in a row
    winning_cells: frozenset[ttt.Action]
    mark_to_move: str


# Games share their openings: most move lists come again. A click needs the position of its
# move list less one, cached by the game's previous click: 1,024 entries keep that for about as
# many games played at once (4,096 grew to about 2 MB; docs/performance.md, issue 31).
@lru_cache(maxsize=1024)
def _position_of_moves(moves: tuple[int, ...]) -> _Position:
    """One move on from the position before it, itself usually cached: a click's board is
    the previous click's plus one move, so a click works out one position, not a replay."""
    if not moves:
        return _EMPTY_POSITION
    before = _position_of_moves(moves[:-1])
    move = moves[-1]
    if before.line_mark is not None:
        raise GameError("a move list goes on after the game was won")
    if not (0 <= move <= 8) or before.board[move // 3][move % 3] is not None:
        raise GameError("a move list repeats a cell or names no cell")
    return _position(_with_mark(before.board, (move // 3, move % 3), before.mark_to_move))


@lru_cache(maxsize=1024)  # boards posted before move lists were kept
def _position_of_board(board: Rows) -> _Position:
    try:
        ttt.validate_board([list(row) for row in board])
    except ValueError as error:
        raise GameError(f"impossible board: {error}") from None
    return _position(board)


def _position(board: Rows) -> _Position:
    flat = (*board[0], *board[1], *board[2])
    lines = [line for line in LINE_CELLS if _complete(flat, line)]
    return _Position(
        board=board,
        over=bool(lines) or None not in flat,
        line_mark=flat[lines[0][0]] if lines else None,
        winning_cells=(
            frozenset(cell_action(cell) for line in lines for cell in line) if lines else NO_CELLS
        ),
        mark_to_move=ttt.X if flat.count(ttt.X) == flat.count(ttt.O) else ttt.O,
    )


def _complete(flat: Sequence[Cell], line: tuple[int, int, int]) -> bool:
    first, second, third = line
    return flat[first] is not None and flat[first] == flat[second] == flat[third]


_EMPTY_POSITION = _position(EMPTY_BOARD)


__all__ = [
    "AI",
    "DELETED_PLAYER",
    "DELETED_PLAYERS",
    "MAX_SNOWFLAKE",
    "PAIRING",
    "AnyGame",
    "Challenge",
    "Ending",
    "Game",
    "GameError",
    "State",
    "UltimateGame",
    "check_pairing",
    "check_players",
]
