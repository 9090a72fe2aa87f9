"""Play tic-tac-toe against the engine in a terminal: `python -m tictactoe`."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import random
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TextIO, cast

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
    puzzles,
    result,
    terminal,
    winner,
    winning_line,
)
from .puzzles import Attempt, Goal, Refutation, Status, Task
from .review import (
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

SCREEN_WIDTH = 79  # every line printed fits an 80-column terminal, the cursor included
FIRST_PUZZLE_RATING = 1200.0  # where a terminal session's puzzles start
PUZZLE_K_FACTOR = 64.0  # how far one puzzle moves the session's rating (Elo's K)
NEXT_WORDS = PLAY_AGAIN_WORDS

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
            f"{_turned(mistake)}."
        )
        lines.append(
            f"{_cells(held).capitalize()} kept the {_OUTCOME_WORDS[mistake.before.outcome]}."
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
            "With --puzzle, find the move that keeps the win or the draw; a wrong move\n"
            "is answered with what it allows.\n"
            "With --ultimate, play Ultimate Tic-Tac-Toe, nine boards in one: type a board\n"
            'and a cell, each 1-9, such as "5 3" (the cell alone when the board is forced).\n'
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
        help="seed the random choices (the AI's moves, --play-as random, the puzzles)",
    )
    parser.add_argument(
        "--puzzle",
        action="store_true",
        help="solve puzzles instead: positions where one move keeps the win or the draw",
    )
    parser.add_argument(
        "--daily",
        action="store_true",
        help="with --puzzle: start with the day's puzzle (UTC), the same for everyone",
    )
    parser.add_argument(
        "--ultimate",
        action="store_true",
        help="play Ultimate Tic-Tac-Toe: nine small boards in a 3x3, against a searching AI",
    )
    parser.add_argument(
        "--playouts",
        type=_playout_count,
        metavar="N",
        help=(
            "with --ultimate: the AI simulates N games per move instead of thinking for a set "
            "time (with --seed, the same game every time)"
        ),
    )
    return parser


def _playout_count(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


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
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.daily and not args.puzzle:
        parser.error("--daily goes with --puzzle")
    if args.ultimate and args.puzzle:
        parser.error("--puzzle and --ultimate do not go together: the puzzles are classic ones")
    if args.playouts is not None and not args.ultimate:
        parser.error("--playouts goes with --ultimate")
    out = cast(TextIO, Screen(sys.stdout if output is None else output))
    rng = random.Random(args.seed)
    if input_fn is input:
        enable_line_editing()
    try:
        if args.ultimate:
            from . import ultimate_cli  # only a game of ultimate needs its engine

            human = rng.choice((X, O)) if args.play_as == RANDOM_SIDE else args.play_as
            ultimate_cli.play_games(
                human,
                args.difficulty,
                rng,
                playouts=args.playouts,
                input_fn=input_fn,
                output=out,
            )
        elif args.puzzle:
            today = dt.datetime.now(dt.UTC).date() if args.daily else None
            play_puzzles(rng, today, input_fn=input_fn, output=out)
        else:
            human = rng.choice((X, O)) if args.play_as == RANDOM_SIDE else args.play_as
            play_games(human, args.difficulty, rng, input_fn=input_fn, output=out)
        return EXIT_OK
    except EOFError:
        # The cursor is still on the prompt line, hence the leading newline.
        print("\nEnd of input. Goodbye!", file=out)
        return EXIT_OK
    except KeyboardInterrupt:
        print("\nInterrupted. Goodbye!", file=out)
        return EXIT_INTERRUPTED
    finally:
        out.flush()


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
    print(
        'On your turn type a cell 1-9, or a row and column 1-3 such as "2 3" or "2,3".',
        file=output,
    )
    print("Type hint for advice, q to quit.\n", file=output)
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
    board: Board,
    mark: str,
    *,
    input_fn: Callable[[str], str],
    output: TextIO,
    hints: bool = True,
) -> Action | None:
    """Prompt until the human types a free cell, showing a hint when asked (if `hints`); None
    to quit."""
    prompt = f"\nYour turn ({mark}): "
    while True:
        output.flush()  # the prompt may go to another stream; what came before must show first
        text = input_fn(prompt)
        word = text.strip().lower()
        if word in QUIT_WORDS:
            return None
        if word in HINT_WORDS and not hints:
            print("No hints in a puzzle: finding the move is the puzzle.", file=output)
            prompt = f"Your turn ({mark}): "
            continue
        if word in HINT_WORDS:
            print(describe_hint(hint(board)), file=output)
            prompt = f"\nYour turn ({mark}): "
            continue
        try:
            return parse_cell(text, board)
        except ValueError as reason:
            print(reason, file=output)
            prompt = f"Your turn ({mark}): "


# --- puzzles --------------------------------------------------------------------------------


def task_sentence(task: Task) -> str:
    """What a puzzle's player to move is asked, without giving the cells away."""
    mover, them, moves = task.player, task.opponent, _moves(task.win_in)
    match task.kind:
        case ReasonKind.WIN_NOW:
            sentence = f"{mover} to move: win at once."
        case ReasonKind.FORK:
            sentence = f"{mover} to move: make a fork and win in {moves}."
        case ReasonKind.FORCE_WIN:
            sentence = f"{mover} to move: force a win in {moves}."
        case ReasonKind.BLOCK if task.goal is Goal.WIN:
            sentence = f"{mover} to move: stop {them}'s threat and win in {moves}."
        case ReasonKind.BLOCK:
            sentence = f"{mover} to move: stop {them}'s threat to keep the draw."
        case ReasonKind.BLOCK_FORK:
            sentence = f"{mover} to move: stop {them}'s fork to keep the draw."
        case ReasonKind.ANY_DRAWS:
            sentence = f"{mover} to move: keep the draw."
        case _:  # CENTRE, CORNER, KEEP_DRAW: naming them would give the answer away
            sentence = f"{mover} to move: keep the draw; some moves lose."
    return f"{sentence} Only one move works." if task.only_move else sentence


def refutation_sentences(refutation: Refutation, board_after: Board) -> list[str]:
    """Why a wrong move was wrong: what it turned the position into, the opponent's answer and
    why, and the correct cells."""
    move = cell_number(refutation.move)
    before, after = refutation.before, refutation.after
    if refutation.verdict is Verdict.INACCURATE:
        turned = f"still wins, but in {_moves(after.own_moves)} instead of {before.own_moves}"
    else:
        turned = f"turns a {_OUTCOME_WORDS[before.outcome]} into a {_OUTCOME_WORDS[after.outcome]}"
    them, reply = refutation.opponent, cell_number(refutation.reply)
    reason = refutation.reason
    match reason.kind:
        case ReasonKind.WIN_NOW:
            line = winning_line(board_after)
            assert line is not None, "the reply completes a line"
            first, second, third = (cell_number(action) for action in line)
            numbers = (first, second, third)
            answer = (
                f"{them} answers at cell {reply} and wins: it completes {_line_phrase(numbers)}."
            )
        case ReasonKind.FORK:
            answer = (
                f"{them} answers at cell {reply}, making two threats at once: "
                "you can block only one."
            )
        case ReasonKind.FORCE_WIN:
            answer = (
                f"{them} answers at cell {reply} with a threat you must block, "
                f"and the attack goes on until {them} wins."
            )
        case ReasonKind.BLOCK:
            answer = f"{them} answers at cell {reply}, blocking your threat."
        case ReasonKind.LOST_FORK:
            answer = f"{them} answers at cell {reply}, but can block only one of your threats."
        case ReasonKind.BLOCK_FORK:
            answer = f"{them} answers at cell {reply}, stopping your fork."
        case ReasonKind.UNSTOPPABLE_FORK:
            answer = f"{them} answers at cell {reply}, but cannot stop your fork."
        case _:  # CENTRE, CORNER, KEEP_DRAW, ANY_DRAWS
            answer = f"{them} answers at cell {reply} and holds the draw."
    correct = sorted(cell_number(action) for action in refutation.correct)
    right = (
        f"The right move was cell {correct[0]}."
        if len(correct) == 1
        else (f"The right moves were {_cells(correct, 'and')}.")
    )
    return [f"Wrong: cell {move} {turned}.", answer, right]


def solved_sentence(attempt: Attempt) -> str:
    if attempt.status is Status.WON:
        return "Solved! Three in a row."
    return "Solved! The draw is secured: whatever you play now, you cannot lose."


def play_puzzles(
    rng: random.Random,
    today: dt.date | None,
    *,
    input_fn: Callable[[str], str],
    output: TextIO,
) -> None:
    """Puzzles one after another, each picked near the session's rating (or the day's puzzle
    first when `today` is given), until the human stops."""
    print(
        "Puzzles: find the move that keeps the win or the draw.\n"
        'Type a cell 1-9, or a row and column 1-3 such as "2 3"; q quits.',
        file=output,
    )
    rating, seen = FIRST_PUZZLE_RATING, list[str]()
    attempt = puzzles.daily(today) if today is not None else None
    while True:
        if attempt is None:
            attempt = puzzles.start(puzzles.pick(rating, rng, exclude=seen), rng=rng)
        chosen = attempt.puzzle
        seen.append(chosen.id)
        title = f"Puzzle {chosen.id}, rating {chosen.rating}"
        if today is not None:
            title = f"Today's puzzle ({today.isoformat()} UTC): {title}"
        print(f"\n{title}", file=output)
        solved = play_puzzle(attempt, input_fn=input_fn, output=output)
        if solved is None:
            print("You left the puzzle. Goodbye!", file=output)
            return
        rating += PUZZLE_K_FACTOR * (solved - puzzles.expected_score(rating, chosen.rating))
        print(f"Your puzzle rating this session: {round(rating)}.", file=output)
        if not ask_for_next_puzzle(input_fn=input_fn, output=output):
            print("Goodbye!", file=output)
            return
        attempt, today = None, None


def play_puzzle(attempt: Attempt, *, input_fn: Callable[[str], str], output: TextIO) -> bool | None:
    """One puzzle to its end: True if solved, False if failed, None if the human left."""
    while (task := attempt.task) is not None:
        print(draw_board([list(row) for row in attempt.board]), file=output)
        print(task_sentence(task), file=output)
        board = [list(row) for row in attempt.board]
        move = ask_for_move(board, task.player, input_fn=input_fn, output=output, hints=False)
        if move is None:
            return None
        step = puzzles.answer(attempt, move)
        attempt = step.attempt
        if attempt.refutation is not None:
            after = [list(row) for row in attempt.board]
            wrong, answer, right = refutation_sentences(attempt.refutation, after)
            print(f"\n{wrong}\n{answer}", file=output)
            print(draw_board(after), file=output)
            print(right, file=output)
            return False
        if step.reply is not None:
            print(
                f"\nCorrect. {task.opponent} replies at {describe_cell(step.reply)}.", file=output
            )
        if attempt.solved:
            print(draw_board([list(row) for row in attempt.board]), file=output)
            print(solved_sentence(attempt), file=output)
            return True
    raise AssertionError("an attempt ends solved or failed")


def ask_for_next_puzzle(*, input_fn: Callable[[str], str], output: TextIO) -> bool:
    prompt = "\nNext puzzle? [Y/n] "
    while True:
        output.flush()
        word = input_fn(prompt).strip().lower()
        if word in NEXT_WORDS:
            return True
        if word in STOP_WORDS:
            return False
        print("Type y (or just Enter) for another puzzle, n to stop.", file=output)
        prompt = "Next puzzle? [Y/n] "


# --- the screen -------------------------------------------------------------------------------


class _Wrapper(textwrap.TextWrapper):
    """Breaks only at spaces outside double quotes, so that an example such as "2 3" stays
    whole."""

    wordsep_simple_re = re.compile(r'(\s+)(?=(?:[^"]*"[^"]*")*[^"]*$)')


class Screen(io.TextIOBase):
    """Writes to `target` with every line within SCREEN_WIDTH columns: a longer line is broken
    at spaces, its continuation indented as the line is (two more when it is indented)."""

    def __init__(self, target: TextIO, width: int = SCREEN_WIDTH) -> None:
        super().__init__()
        self._target = target
        self._width = width
        self._pending = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        *lines, self._pending = (self._pending + text).split("\n")
        for line in lines:
            self._target.write(self._wrap(line) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self._target.write(self._wrap(self._pending))
            self._pending = ""
        self._target.flush()

    def _wrap(self, line: str) -> str:
        if len(line) <= self._width:
            return line
        indent = line[: len(line) - len(line.lstrip())]
        wrapper = _Wrapper(
            width=self._width,
            subsequent_indent=indent + "  " if indent else "",
            break_long_words=False,
            break_on_hyphens=False,
        )
        return "\n".join(wrapper.wrap(line))
