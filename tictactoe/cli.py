"""Play tic-tac-toe against the engine in a terminal: `python -m tictactoe`."""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable
from typing import TextIO

from . import (
    DIFFICULTIES,
    IMPOSSIBLE,
    Action,
    Board,
    O,
    X,
    actions,
    choose_move,
    initial_state,
    player,
    result,
    terminal,
    winner,
    winning_line,
)

EXIT_OK = 0
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells report for Ctrl-C

RANDOM_SIDE = "random"
QUIT_WORDS = frozenset({"q", "quit", "exit"})

INPUT_HELP = 'a cell number 1-9, or a row and column 1-3 such as "2 3" or "2,3"'

_CELL_NUMBER = re.compile(r"[+-]?\d+")
_ROW_AND_COLUMN = re.compile(r"([+-]?\d+)\s*(?:,|\s)\s*([+-]?\d+)")

_ROW_SEPARATOR = "  ---+---+---"


def cell_number(action: Action) -> int:
    """Return the 1-9 number a person uses for the (i, j) action, counting row by row."""
    i, j = action
    return i * 3 + j + 1


def describe_cell(action: Action) -> str:
    """Name a cell both ways a person may type it, e.g. 'cell 6 (row 2, column 3)'."""
    i, j = action
    return f"cell {cell_number(action)} (row {i + 1}, column {j + 1})"


def draw_board(board: Board) -> str:
    """Draw the board with its marks, and each empty cell's number so it can be typed."""
    rows = []
    for i, row in enumerate(board):
        cells = [mark or str(cell_number((i, j))) for j, mark in enumerate(row)]
        rows.append("   " + " | ".join(cells))
    return f"\n{_ROW_SEPARATOR}\n".join(rows)


def parse_cell(text: str, board: Board) -> Action:
    """Turn what a person typed into a free (i, j) cell of `board`.

    Accepts a cell number 1-9 or a row and column 1-3 separated by spaces or a comma.
    Raises ValueError with a reason a person can act on.
    """
    typed = text.strip()
    if not typed:
        raise ValueError(f"Type {INPUT_HELP}.")
    if _CELL_NUMBER.fullmatch(typed):
        number = int(typed)
        if not 1 <= number <= 9:
            raise ValueError(f"There is no cell {number}: cells are numbered 1 to 9.")
        action = divmod(number - 1, 3)
    elif match := _ROW_AND_COLUMN.fullmatch(typed):
        row, column = int(match[1]), int(match[2])
        if not (1 <= row <= 3 and 1 <= column <= 3):
            raise ValueError(
                f"Row {row}, column {column} is off the board: rows and columns go from 1 to 3."
            )
        action = (row - 1, column - 1)
    else:
        raise ValueError(f'"{typed}" is not a cell. Type {INPUT_HELP}.')
    if action not in actions(board):
        i, j = action
        raise ValueError(f"You can't play {describe_cell(action)}: {board[i][j]} is already there.")
    return action


def outcome_message(board: Board, human: str) -> str:
    """Announce the end of a finished game from the human's point of view."""
    won = winner(board)
    line = winning_line(board)
    if won is None or line is None:
        return "Draw: the board is full and nobody has three in a row."
    cells = ", ".join(str(cell_number(action)) for action in line)
    if won == human:
        return f"You win! Three in a row on cells {cells}."
    return f"The AI wins with three in a row on cells {cells}."


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m tictactoe`."""
    parser = argparse.ArgumentParser(
        prog="python -m tictactoe",
        description="Play tic-tac-toe against the computer in this terminal.",
        epilog=(
            "On your turn type a cell number 1-9, or a row and column 1-3\n"
            'such as "2 3" or "2,3". Cells are numbered row by row:\n\n'
            f"{draw_board(initial_state())}\n\n"
            "Type q or quit to leave; end of input (Ctrl-D) or Ctrl-C leave too."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--play-as",
        type=_side,
        choices=(X, O, RANDOM_SIDE),
        default=X,
        help="your mark; X moves first (default: %(default)s)",
    )
    parser.add_argument(
        "--difficulty",
        type=str.lower,
        choices=DIFFICULTIES,
        default=IMPOSSIBLE,
        help="how well the AI plays; impossible never loses (default: %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="seed the random choices (the AI's moves, --play-as random) to replay a game",
    )
    return parser


def _side(text: str) -> str:
    """Let `--play-as x` and `--play-as Random` mean what they obviously mean."""
    return text.upper() if text.upper() in (X, O) else text.lower()


def main(
    argv: list[str] | None = None,
    *,
    input_fn: Callable[[str], str] = input,
    output: TextIO | None = None,
) -> int:
    """Run one game and return the process exit code.

    `input_fn` is called with the prompt and returns a line (raising EOFError at end of input);
    everything else is written to `output`, standard output by default. Bad flags and `--help`
    exit through argparse's SystemExit as usual.
    """
    args = build_parser().parse_args(argv)
    out = sys.stdout if output is None else output
    rng = random.Random(args.seed)
    human = rng.choice((X, O)) if args.play_as == RANDOM_SIDE else args.play_as
    try:
        return play(human, args.difficulty, rng, input_fn=input_fn, output=out)
    except EOFError:
        # The cursor is still on the prompt line, hence the leading newline.
        print("\nEnd of input. Goodbye!", file=out)
        return EXIT_OK
    except KeyboardInterrupt:
        print("\nInterrupted. Goodbye!", file=out)
        return EXIT_INTERRUPTED


def play(
    human: str,
    difficulty: str,
    rng: random.Random,
    *,
    input_fn: Callable[[str], str],
    output: TextIO,
) -> int:
    """Play one game, the human with `human`'s mark, and return the exit code."""
    ai = O if human == X else X
    order = "you move first" if human == X else "the AI moves first"
    print(f"Tic-tac-toe: you are {human}, the AI is {ai} ({difficulty}), {order}.", file=output)
    print(f"On your turn type {INPUT_HELP}; q quits.\n", file=output)
    board = initial_state()
    print(draw_board(board), file=output)
    while not terminal(board):
        if player(board) == human:
            move = ask_for_move(board, human, input_fn=input_fn, output=output)
            if move is None:
                print("You left the game. Goodbye!", file=output)
                return EXIT_OK
            board = result(board, move)
            print(f"\nYou played {describe_cell(move)}.", file=output)
        else:
            move = choose_move(board, difficulty, rng)
            assert move is not None, "the engine has a move on every unfinished board"
            board = result(board, move)
            print(f"\nThe AI ({ai}) played {describe_cell(move)}.", file=output)
        print(draw_board(board), file=output)
    print(f"\n{outcome_message(board, human)}", file=output)
    return EXIT_OK


def ask_for_move(
    board: Board, mark: str, *, input_fn: Callable[[str], str], output: TextIO
) -> Action | None:
    """Prompt until the human types a free cell; None when they ask to quit."""
    prompt = f"\nYour turn ({mark}): "
    while True:
        output.flush()  # the prompt may go to another stream; what came before must show first
        text = input_fn(prompt)
        if text.strip().lower() in QUIT_WORDS:
            return None
        try:
            return parse_cell(text, board)
        except ValueError as reason:
            print(reason, file=output)
            prompt = f"Your turn ({mark}): "
