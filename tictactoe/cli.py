"""Play tic-tac-toe against the engine in a terminal: `python -m tictactoe`."""

from __future__ import annotations

import argparse
import contextlib
import random
import re
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from tictactoe import (
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
from tictactoe.review import (
    GameResult,
    Hint,
    LineShape,
    MoveReview,
    Outcome,
    Reason,
    ReasonKind,
    Review,
    Value,
    Verdict,
    cell_number,
    hint,
    line_shape,
    review,
)

EXIT_OK = 0
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what shells report for Ctrl-C

RANDOM_SIDE = "random"
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HINT_WORDS = frozenset({"hint", "h", "?"})
PLAY_AGAIN_WORDS = frozenset({"", "y", "yes"})
STOP_WORDS = frozenset({"n", "no"}) | QUIT_WORDS

INPUT_HELP = 'a cell number 1-9, or a row and column 1-3 such as "2 3" or "2,3"'

_CELL_NUMBER = re.compile(r"[+-]?\d+")
_ROW_AND_COLUMN = re.compile(r"([+-]?\d+)\s*(?:,|\s)\s*([+-]?\d+)")

_ROW_SEPARATOR = "  ---+---+---"


def describe_cell(action: Action) -> str:
    """Name a cell both ways a person may type it, e.g. 'cell 6 (row 2, column 3)'."""
    i, j = action
    return f"cell {cell_number(action)} (row {i + 1}, column {j + 1})"


def draw_board(board: Board) -> str:
    """Draw the board with its marks, and each empty cell's number so it can be typed. A
    winning line's marks are drawn in brackets, [X], so that it shows without colour."""
    line = winning_line(board) or ()
    rows = []
    for i, row in enumerate(board):
        cells = [
            f"[{mark}]" if (i, j) in line else f" {mark or cell_number((i, j))} "
            for j, mark in enumerate(row)
        ]
        rows.append(("  " + "|".join(cells)).rstrip())
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
        return f"You win! Three in a row on cells {cells} ([{won}] above)."
    return f"The AI wins with three in a row on cells {cells} ([{won}] above)."


# --- hints and reviews in English (the engine gives data; the bot words it in its own languages)

_OUTCOME_WORDS = {Outcome.WIN: "win", Outcome.DRAW: "draw", Outcome.LOSS: "loss"}
_RESULT_WORDS = {
    GameResult.X_WON: "X won",
    GameResult.O_WON: "O won",
    GameResult.DRAW: "draw",
    GameResult.UNFINISHED: "unfinished",
}
_LINE_WORDS = {LineShape.ROW: "row", LineShape.COLUMN: "column", LineShape.DIAGONAL: "diagonal"}


def describe_hint(advice: Hint) -> str:
    """Every free cell's outcome for the player to move, the best ones marked, and why."""
    lines = [f"Hint for {advice.player}:"]
    for cell in advice.cells:
        best = " (best)" if cell.action in advice.best else ""
        lines.append(f"  cell {cell.number}: {_outcome_phrase(cell.value)}{best}")
    lines.append(reason_sentence(advice.reason))
    return "\n".join(lines)


def reason_sentence(reason: Reason) -> str:
    """One plain sentence saying why the best moves are best."""
    them = reason.opponent
    cells, theirs = reason.cells, reason.opponent_cells
    line = _line_phrase(reason.line) if reason.line is not None else ""
    match reason.kind:
        case ReasonKind.WIN_NOW:
            first = "it" if len(cells) == 1 else f"cell {cells[0]}"
            return f"You win at once with {_cells(cells)}: {first} completes {line}."
        case ReasonKind.BLOCK:
            return f"{them} threatens {line}: only cell {cells[0]} stops it."
        case ReasonKind.LOST_FORK:
            return (
                f"{them} threatens to complete a line at {_cells(theirs, 'and')}: "
                "you can block only one."
            )
        case ReasonKind.FORK:
            return f"Playing {_cells(cells)} makes two threats at once: {them} can block only one."
        case ReasonKind.FORCE_WIN:
            return (
                f"You can force a win: playing {_cells(cells)} makes a threat {them} must block, "
                "and the attack goes on until you win."
            )
        case ReasonKind.BLOCK_FORK:
            return (
                f"{them} could make two threats at once next move with {_cells(theirs)}: "
                f"playing {_cells(cells)} stops that."
            )
        case ReasonKind.UNSTOPPABLE_FORK:
            return (
                f"{them} can make two threats at once next move with {_cells(theirs)}, "
                "and no move stops it."
            )
        case ReasonKind.CENTRE:
            return "Take the centre, cell 5: every other move loses."
        case ReasonKind.CORNER:
            return f"Take a corner, {_cells(cells)}: every other move loses."
        case ReasonKind.KEEP_DRAW:
            return f"Only {_cells(cells)} keeps the draw: every other move loses."
        case ReasonKind.ANY_DRAWS:
            return "Every move keeps the draw with best play."


def describe_review(game: Review, human: str) -> str:
    """The game move by move, the first mistake with what would have held, and the result."""
    so_far = "" if game.result is not GameResult.UNFINISHED else " so far"
    lines = [f"Review of the game{so_far} (you are {human}):"]
    lines += [
        f"  Move {move.ply}, {move.player} at cell {move.number}: {_verdict_phrase(move)}"
        for move in game.moves
    ]
    mistake = game.first_mistake
    if mistake is None:
        lines.append("No mistakes.")
    else:
        held = sorted(cell_number(action) for action in mistake.held_by)
        lines.append(
            f"First mistake: Move {mistake.ply}, {mistake.player} at cell {mistake.number}, "
            f"{_turned(mistake)}; {_cells(held)} kept the {_OUTCOME_WORDS[mistake.before.outcome]}."
        )
    lines.append(f"Result: {_RESULT_WORDS[game.result]}.")
    return "\n".join(lines)


def _outcome_phrase(value: Value) -> str:
    if value.outcome is Outcome.WIN:
        return f"win in {value.own_moves} of your moves"
    if value.outcome is Outcome.LOSS:
        return f"loss in {value.own_moves}"
    return "draw"


def _verdict_phrase(move: MoveReview) -> str:
    if move.verdict is Verdict.BEST:
        return "best"
    if move.verdict is Verdict.MISTAKE:
        return f"mistake, {_turned(move)}"
    # Inaccurate: the same outcome, only a slower win or a quicker loss.
    after, before = move.after, move.before
    return (
        f"inaccurate, a {_OUTCOME_WORDS[after.outcome]} in {_moves(after.own_moves)} "
        f"instead of {before.own_moves}"
    )


def _turned(move: MoveReview) -> str:
    before, after = _OUTCOME_WORDS[move.before.outcome], _OUTCOME_WORDS[move.after.outcome]
    return f"turned a {before} into a {after}"


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _cells(numbers: Sequence[int], conjunction: str = "or") -> str:
    """'cell 7', a choice 'cell 2, 4, 6 or 8', or together 'cells 3 and 7'."""
    if len(numbers) == 1:
        return f"cell {numbers[0]}"
    *rest, last = (str(number) for number in numbers)
    noun = "cells" if conjunction == "and" else "cell"
    return f"{noun} {', '.join(rest)} {conjunction} {last}"


def _line_phrase(line: tuple[int, int, int]) -> str:
    """'the diagonal 3-5-7'."""
    return f"the {_LINE_WORDS[line_shape(line)]} {'-'.join(map(str, line))}"


def build_parser() -> argparse.ArgumentParser:
    """The command line of `python -m tictactoe`."""
    parser = argparse.ArgumentParser(
        prog="python -m tictactoe",
        description="Play tic-tac-toe against the computer in this terminal.",
        epilog=(
            "On your turn type a cell number 1-9, or a row and column 1-3\n"
            'such as "2 3" or "2,3". Cells are numbered row by row:\n\n'
            f"{draw_board(initial_state())}\n\n"
            "Type hint for every free cell's outcome under perfect play and the best moves.\n"
            "At the end of the game each move is reviewed: best, inaccurate or mistake,\n"
            "and another game is offered with the marks swapped.\n"
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
    """Play games until the human stops, and return the process exit code.

    `input_fn` is called with the prompt and returns a line (raising EOFError at end of input);
    everything else is written to `output`, standard output by default. Bad flags and `--help`
    exit through argparse's SystemExit as usual.
    """
    args = build_parser().parse_args(argv)
    out = sys.stdout if output is None else output
    rng = random.Random(args.seed)
    human = rng.choice((X, O)) if args.play_as == RANDOM_SIDE else args.play_as
    if input_fn is input:
        enable_line_editing()
    try:
        play_games(human, args.difficulty, rng, input_fn=input_fn, output=out)
        return EXIT_OK
    except EOFError:
        # The cursor is still on the prompt line, hence the leading newline.
        print("\nEnd of input. Goodbye!", file=out)
        return EXIT_OK
    except KeyboardInterrupt:
        print("\nInterrupted. Goodbye!", file=out)
        return EXIT_INTERRUPTED


def enable_line_editing() -> None:
    """Arrow keys, history and the usual editing keys at the prompts of `input()`, where the
    platform has `readline` (not on Windows, whose console edits lines itself) and a person
    types at a terminal: piped input is read as it is."""
    if not sys.stdin.isatty():
        return
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 - importing it is what turns line editing on


def play_games(
    human: str,
    difficulty: str,
    rng: random.Random,
    *,
    input_fn: Callable[[str], str],
    output: TextIO,
) -> None:
    """Play a game, then offer another with the marks swapped (as the bot's Rematch does, so
    that the other side moves first), at the same difficulty, until the human stops."""
    while play(human, difficulty, rng, input_fn=input_fn, output=output):
        human = O if human == X else X
        if not ask_to_play_again(human, input_fn=input_fn, output=output):
            print("Goodbye!", file=output)
            return
        print(file=output)


def ask_to_play_again(next_mark: str, *, input_fn: Callable[[str], str], output: TextIO) -> bool:
    """Whether the human wants another game, in which they would play `next_mark`."""
    order = "you move first" if next_mark == X else "the AI moves first"
    prompt = f"\nPlay again, with the marks swapped (you are {next_mark}, {order})? [Y/n] "
    while True:
        output.flush()
        word = input_fn(prompt).strip().lower()
        if word in PLAY_AGAIN_WORDS:
            return True
        if word in STOP_WORDS:
            return False
        print("Type y (or just Enter) for another game, n to stop.", file=output)
        prompt = "Play again? [Y/n] "


def play(
    human: str,
    difficulty: str,
    rng: random.Random,
    *,
    input_fn: Callable[[str], str],
    output: TextIO,
) -> bool:
    """Play one game, the human with `human`'s mark: True if it was played to the end, False
    if the human left it."""
    ai = O if human == X else X
    order = "you move first" if human == X else "the AI moves first"
    print(f"Tic-tac-toe: you are {human}, the AI is {ai} ({difficulty}), {order}.", file=output)
    print(f"On your turn type {INPUT_HELP}; hint asks for advice; q quits.\n", file=output)
    board = initial_state()
    moves: list[Action] = []
    print(draw_board(board), file=output)
    while not terminal(board):
        if player(board) == human:
            move = ask_for_move(board, human, input_fn=input_fn, output=output)
            if move is None:
                if moves:
                    print(f"\n{describe_review(review(moves), human)}\n", file=output)
                print("You left the game. Goodbye!", file=output)
                return False
            board = result(board, move)
            print(f"\nYou played {describe_cell(move)}.", file=output)
        else:
            move = choose_move(board, difficulty, rng)
            assert move is not None, "the engine has a move on every unfinished board"
            board = result(board, move)
            print(f"\nThe AI ({ai}) played {describe_cell(move)}.", file=output)
        moves.append(move)
        print(draw_board(board), file=output)
    print(f"\n{outcome_message(board, human)}", file=output)
    print(f"\n{describe_review(review(moves), human)}", file=output)
    return True


def ask_for_move(
    board: Board, mark: str, *, input_fn: Callable[[str], str], output: TextIO
) -> Action | None:
    """Prompt until the human types a free cell, showing a hint when asked; None to quit."""
    prompt = f"\nYour turn ({mark}): "
    while True:
        output.flush()  # the prompt may go to another stream; what came before must show first
        text = input_fn(prompt)
        word = text.strip().lower()
        if word in QUIT_WORDS:
            return None
        if word in HINT_WORDS:
            print(describe_hint(hint(board)), file=output)
            prompt = f"\nYour turn ({mark}): "
            continue
        try:
            return parse_cell(text, board)
        except ValueError as reason:
            print(reason, file=output)
            prompt = f"Your turn ({mark}): "
