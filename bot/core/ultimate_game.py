"""An Ultimate Tic-Tac-Toe game as the table seats it: an immutable value that refuses to be
illegal, with the names the classic `Game` has wherever they mean the same (the policy, the
table and the records read both alike). The rules are the engine's (tictactoe/ultimate.py).

Its message carries the position (the 81 cells and the last move), the players, the level, how
it ended, its language and look, and which small board the player to move has opened in the
board picker. The order of the moves is not on the message (81 moves do not fit in a custom_id
beside the rest): `moves` holds it while the process that watched the game knows it, and is None
for a game rebuilt from its message alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from bot.core.players import AI, Ending, GameError, check_players
from bot.core.server import DEFAULT_LOOK, Look
from bot.i18n import SOURCE_LOCALE
from tictactoe import ultimate

ULTIMATE = "ultimate"  # the kind's name: records, settings and metrics say it
DRAWN = "draw"  # a small board full without a line

Action = tuple[int, int]  # (small board, cell), each 0-8 row by row


@dataclass(frozen=True, slots=True)
class UltimateGame:
    """One ultimate game: who plays which mark, the position, how it ended if not on the board,
    and the small board its picker shows opened (only while the move is free)."""

    x_player: int
    o_player: int
    difficulty: str | None = None
    position: ultimate.State = field(default_factory=ultimate.initial_state)
    ending: Ending | None = None
    locale: str = SOURCE_LOCALE
    look: Look = DEFAULT_LOOK
    picked: int | None = None
    # The tournament game this is (bot/tournaments names it), or None for any other game.
    pairing: str | None = None
    # 9 * board + cell in the order played; None when unknown. Not part of the game's identity:
    # two games in the same position with the same players are the same board.
    moves: tuple[int, ...] | None = field(default=None, compare=False)
    is_over: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_players(self.x_player, self.o_player, self.difficulty, self.pairing)
        over_on_board = ultimate.terminal(self.position)
        if self.ending is not None and over_on_board:
            raise GameError("a game that ended on the board cannot also be resigned or expired")
        over = self.ending is not None or over_on_board
        if self.picked is not None and (
            over
            or ultimate.forced_board(self.position) is not None
            or self.picked not in ultimate.open_boards(self.position)
        ):
            raise GameError("only an open board of a free move can be picked")
        if self.moves is not None and len(self.moves) != _marks_on(self.position):
            raise GameError("the moves do not make this position")
        object.__setattr__(self, "is_over", over)

    @classmethod
    def start(
        cls,
        x_player: int,
        o_player: int,
        difficulty: str | None,
        locale: str = SOURCE_LOCALE,
        look: Look = DEFAULT_LOOK,
    ) -> UltimateGame:
        """A new game. The bot thinks its moves after the click's answer, so even when it plays
        X the game starts on an empty board (`bot_to_move`)."""
        return cls(x_player, o_player, difficulty, locale=locale, look=look, moves=())

    # ------------------------------------------------------------------ who

    @property
    def vs_ai(self) -> bool:
        return AI in (self.x_player, self.o_player)

    @property
    def players(self) -> tuple[int, int]:
        return self.x_player, self.o_player

    @property
    def mark_to_move(self) -> str:
        return ultimate.player(self.position)

    @property
    def player_to_move(self) -> int:
        return self.player_of(self.mark_to_move)

    @property
    def bot_to_move(self) -> bool:
        """The bot must move before anybody may click a cell."""
        return not self.is_over and self.vs_ai and self.player_to_move == AI

    def player_of(self, mark: str) -> int:
        return self.x_player if mark == ultimate.X else self.o_player

    def mark_of(self, user_id: int) -> str | None:
        if user_id == self.x_player:
            return ultimate.X
        if user_id == self.o_player:
            return ultimate.O
        return None

    @property
    def winner_mark(self) -> str | None:
        """The mark that won, by three small boards in a line or by the other side resigning."""
        if self.ending is Ending.X_RESIGNED:
            return ultimate.O
        if self.ending is Ending.O_RESIGNED:
            return ultimate.X
        return ultimate.winner(self.position)

    @property
    def winner_id(self) -> int | None:
        mark = self.winner_mark
        return None if mark is None else self.player_of(mark)

    # ------------------------------------------------------------------ the position

    @property
    def last_move(self) -> Action | None:
        return self.position.last

    @property
    def cells(self) -> tuple[str | None, ...]:
        """The 81 cells (index 9 * board + cell): "X", "O" or None."""
        return ultimate.cells(self.position)

    @property
    def small_winners(self) -> tuple[str | None, ...]:
        """Each small board's state: "X" or "O" when won, DRAWN when full, None while open."""
        return board_states(self.position)

    @property
    def forced_board(self) -> int | None:
        """The small board the next move must go to; None when it may go to any open one (or
        the game is over)."""
        return None if self.is_over else ultimate.forced_board(self.position)

    @property
    def playable_boards(self) -> tuple[int, ...]:
        return () if self.is_over else ultimate.open_boards(self.position)

    @property
    def shown_board(self) -> int | None:
        """The small board whose cells the grid shows; None: the board picker (or the end)."""
        return self.forced_board if self.picked is None else self.picked

    @property
    def winning_line(self) -> tuple[int, int, int] | None:
        return ultimate.winning_line(self.position)

    @property
    def both_moved(self) -> bool:
        """Both sides have a mark on the board (whether a resignation or a timeout counts)."""
        return _marks_on(self.position) >= 2

    def is_free(self, action: Action) -> bool:
        """`action` is a legal move now."""
        return not self.is_over and action in ultimate.actions(self.position)

    # ------------------------------------------------------------------ changes

    def play(self, action: Action, ai_rng: random.Random | None = None) -> UltimateGame:
        """The game after the player to move plays `action`. The bot's reply is never made here
        (`ai_rng` is for the classic game's signature): it is thought out off the event loop."""
        if self.is_over:
            raise GameError("this game is already over")
        try:
            position = ultimate.result(self.position, action)
        except ValueError as error:
            raise GameError(str(error)) from error
        moves = None if self.moves is None else (*self.moves, 9 * action[0] + action[1])
        return replace(self, position=position, picked=None, moves=moves)

    def with_bot_move(self, action: Action) -> UltimateGame:
        if not self.bot_to_move:
            raise GameError("it is not the bot's turn")
        return self.play(action)

    def picking(self, board: int | None) -> UltimateGame:
        """The same game with small board `board` opened in the picker (None: back to the
        picker)."""
        if self.is_over:
            raise GameError("this game is already over")
        return replace(self, picked=board)

    def resign(self, user_id: int) -> UltimateGame:
        mark = self.mark_of(user_id)
        if mark is None or self.is_over:
            raise GameError("only a player can resign, and only while the game is on")
        ending = Ending.X_RESIGNED if mark == ultimate.X else Ending.O_RESIGNED
        return replace(self, ending=ending, picked=None)

    def expire(self) -> UltimateGame:
        return self if self.is_over else replace(self, ending=Ending.EXPIRED, picked=None)

    def rematch(self, rng: random.Random) -> UltimateGame:
        """A new game between the same players, marks swapped so the other side moves first."""
        return UltimateGame.start(
            self.o_player, self.x_player, self.difficulty, self.locale, self.look
        )


def board_states(position: ultimate.State) -> tuple[str | None, ...]:
    """Each small board of `position`: "X" or "O" when won, DRAWN when full, None while open."""
    return tuple(
        winner if winner is not None else (DRAWN if ultimate.is_closed(position, board) else None)
        for board, winner in enumerate(ultimate.small_winners(position))
    )


def _marks_on(position: ultimate.State) -> int:
    return sum(bin(mask).count("1") for mask in (*position.x, *position.o))
