"""The terminal game, checked through what a person sees: scripted games through `main`, the
pure helpers, and `python -m tictactoe` run as a real process."""

from __future__ import annotations

import datetime as dt
import importlib.util
import io
import os
import pty
import re
import selectors
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from brute_force import (
    best_moves,
    empties,
    is_over,
    move_outcome,
    mover,
    reachable_positions,
    solve,
    to_board,
    winner_of,
)
from brute_force import (
    play as play_cell,
)

from tictactoe import Board, O, X, cell_action, hint, initial_state, result, review
from tictactoe import puzzles as pz
from tictactoe import ultimate as ut
from tictactoe import ultimate_cli as uc
from tictactoe.cli import (
    Screen,
    cell_number,
    describe_cell,
    describe_hint,
    describe_review,
    draw_board,
    main,
    outcome_message,
    parse_cell,
    reason_sentence,
    refutation_sentences,
    task_sentence,
)

REPO_ROOT = Path(__file__).resolve().parents[2]

ALL_CELLS = [str(number) for number in range(1, 10)]
# The human tries the cells in this order each turn, skipping the ones already taken.
# Against impossible, every AI reply leads to an AI win (checked over the whole game tree).
LOSING_LINE = ALL_CELLS
# As X, every optimal AI reply to this line leads to a draw.
DRAWING_LINE = ["1", "5", "3", "2", "8", "4", "6", "9", "7"]


class Terminal:
    """Types scripted lines into `main` and keeps the screen a person would see."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.screen = io.StringIO()

    def input(self, prompt: str) -> str:
        self.screen.write(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.screen.write(line + "\n")
        return line

    @property
    def text(self) -> str:
        return self.screen.getvalue()


def play(*lines: str, args: tuple[str, ...] = ()) -> tuple[int, str]:
    terminal = Terminal(*lines)
    code = main(list(args), input_fn=terminal.input, output=terminal.screen)
    return code, terminal.text


PLAY_AGAIN = "\nPlay again, with the marks swapped"


def split_review(text: str) -> tuple[str, str]:
    """The first game as played, and the review printed after it ("" when there is none), up
    to the offer of another game."""
    first_game = text.partition(PLAY_AGAIN)[0]
    game, marker, rest = first_game.partition("\nReview of the game")
    return game, (marker.lstrip("\n") + rest)


BOARD_ROW = re.compile(r"^  [ \[][XO1-9][ \]]\|")


def last_board(text: str) -> list[str]:
    """The last board drawn on screen, as its five lines."""
    lines = text.splitlines()
    last_row = max(index for index, line in enumerate(lines) if BOARD_ROW.match(line))
    return lines[last_row - 4 : last_row + 1]


# --- the board drawing ---------------------------------------------------------------------------


def test_empty_board_shows_every_cell_number_row_by_row() -> None:
    assert draw_board(initial_state()).splitlines() == [
        "   1 | 2 | 3",
        "  ---+---+---",
        "   4 | 5 | 6",
        "  ---+---+---",
        "   7 | 8 | 9",
    ]


def test_board_shows_marks_in_taken_cells_and_numbers_in_empty_ones() -> None:
    board = result(result(result(initial_state(), (1, 1)), (0, 0)), (2, 1))
    assert draw_board(board).splitlines() == [
        "   O | 2 | 3",
        "  ---+---+---",
        "   4 | X | 6",
        "  ---+---+---",
        "   7 | X | 9",
    ]


def test_a_won_board_shows_the_winning_line_in_brackets() -> None:
    board = initial_state()
    for cell in [(0, 0), (0, 1), (1, 1), (0, 2), (2, 2)]:  # X: 1, 5, 9
        board = result(board, cell)
    assert draw_board(board).splitlines() == [
        "  [X]| O | O",
        "  ---+---+---",
        "   4 |[X]| 6",
        "  ---+---+---",
        "   7 | 8 |[X]",
    ]


# --- reading a move --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("1", (0, 0)),
        ("5", (1, 1)),
        (" 9 ", (2, 2)),
        ("2 3", (1, 2)),
        ("2,3", (1, 2)),
        ("2, 3", (1, 2)),
        ("3  1", (2, 0)),
        ("1 ,1", (0, 0)),
    ],
)
def test_parse_cell_reads_cell_numbers_and_row_column_pairs(
    typed: str, expected: tuple[int, int]
) -> None:
    assert parse_cell(typed, initial_state()) == expected


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("abc", '"abc" is not a cell'),
        ("", "Type a cell number 1-9"),
        ("1 2 3", '"1 2 3" is not a cell'),
        ("2.5", '"2.5" is not a cell'),
        ("0", "There is no cell 0"),
        ("10", "There is no cell 10"),
        ("-1", "There is no cell -1"),
        ("4 4", "Row 4, column 4 is off the board"),
        ("0,2", "Row 0, column 2 is off the board"),
        ("5", "You can't play cell 5 (row 2, column 2): X is already there."),
        ("1 1", "You can't play cell 1 (row 1, column 1): O is already there."),
    ],
)
def test_parse_cell_explains_what_is_wrong(typed: str, reason: str) -> None:
    board = result(result(initial_state(), (1, 1)), (0, 0))
    with pytest.raises(ValueError, match="^" + reason.replace("(", r"\(").replace(")", r"\)")):
        parse_cell(typed, board)


def test_numbers_and_descriptions_agree_with_what_can_be_typed() -> None:
    for i in range(3):
        for j in range(3):
            number = cell_number((i, j))
            assert parse_cell(str(number), initial_state()) == (i, j)
            assert parse_cell(f"{i + 1} {j + 1}", initial_state()) == (i, j)
            assert describe_cell((i, j)) == f"cell {number} (row {i + 1}, column {j + 1})"


def test_outcome_message_speaks_from_the_humans_side() -> None:
    board = initial_state()
    for action in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        board = result(board, action)
    assert outcome_message(board, X) == "You win! Three in a row on cells 1, 2, 3 ([X] above)."
    assert (
        outcome_message(board, O) == "The AI wins with three in a row on cells 1, 2, 3 ([X] above)."
    )


# --- whole games through main ----------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("side", [X, O])
def test_a_losing_line_against_impossible_ends_with_the_ai_winning(side: str, seed: int) -> None:
    code, text = play(*LOSING_LINE, args=("--play-as", side, "--seed", str(seed)))
    game, game_review = split_review(text)

    assert code == 0
    assert re.search(
        r"\nThe AI wins with three in a row on cells \d, \d, \d \(\[[XO]\] above\)\.\n$", game
    )
    assert "You win" not in text
    assert "Goodbye" not in game + game_review  # the game was played to its end
    # The final board is shown just before the result, and the review comes after it.
    lines = game.rstrip().splitlines()
    assert lines[-2] == ""
    assert lines[-7:-2] == last_board(game)
    ai = O if side == X else X
    assert game_review.startswith(f"Review of the game (you are {side}):\n  Move 1, X at cell ")
    assert game_review.endswith(f"\nResult: {ai} won.\n")


@pytest.mark.parametrize("seed", range(5))
def test_a_careful_line_against_impossible_ends_in_a_draw(seed: int) -> None:
    code, text = play(*DRAWING_LINE, args=("--seed", str(seed)))
    game, game_review = split_review(text)

    assert code == 0
    assert game.rstrip().endswith("Draw: the board is full and nobody has three in a row.")
    # A draw fills the board: no cell number is left.
    assert not any(char.isdigit() for char in "".join(last_board(game)))
    # Nine moves, every one of them best, and no mistake to name.
    assert game_review.count(": best\n") == 9
    assert game_review.endswith("\nNo mistakes.\nResult: draw.\n")


@pytest.mark.parametrize(
    "line",
    [
        ["5", "1", "9", "3", "7", "2", "4", "6", "8"],
        ["9", "8", "7", "6", "5", "4", "3", "2", "1"],
        ["2", "4", "6", "8", "1", "3", "5", "7", "9"],
        ["5", "2", "8", "4", "6", "1", "3", "7", "9"],
    ],
)
@pytest.mark.parametrize("side", [X, O])
@pytest.mark.parametrize("seed", range(3))
def test_impossible_never_lets_the_human_win(line: list[str], side: str, seed: int) -> None:
    code, text = play(*line, args=("--play-as", side, "--seed", str(seed)))
    game, game_review = split_review(text)

    assert code == 0
    assert "You win" not in text
    final = game.rstrip().splitlines()[-1]
    assert final.startswith(("The AI wins", "Draw"))
    # Impossible plays perfectly: the review never faults the AI's moves.
    ai = O if side == X else X
    assert not re.search(rf"Move \d, {ai} at cell \d: (mistake|inaccurate)", game_review)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "impossible"])
@pytest.mark.parametrize("side", [X, O])
def test_every_difficulty_plays_a_game_to_the_end(difficulty: str, side: str) -> None:
    code, text = play(*LOSING_LINE, args=("--play-as", side, "--difficulty", difficulty))
    game, game_review = split_review(text)

    assert code == 0
    assert f"({difficulty})" in text
    final = game.rstrip().splitlines()[-1]
    assert final.startswith(("You win", "The AI wins", "Draw"))
    assert re.search(r"\nResult: (X won|O won|draw)\.\n$", game_review)


def test_playing_o_shows_the_ais_first_mark_before_the_first_prompt() -> None:
    code, text = play(args=("--play-as", "O", "--seed", "4"))

    before_prompt, prompt, _ = text.partition("Your turn (O): ")
    assert prompt
    assert "you are O, the AI is X (impossible), the AI moves first." in before_prompt
    assert "The AI (X) played cell " in before_prompt
    assert sum(row.count(X) for row in last_board(before_prompt)) == 1
    assert code == 0


def test_each_bad_input_is_explained_and_the_game_goes_on() -> None:
    # After the human's 5, impossible answers in a corner, so edge 2 is still free.
    code, text = play("5", "abc", "0", "10", "4 4", "5", "2")

    assert code == 0
    after_first_move = text.split("You played cell 5 (row 2, column 2).", 1)[1]
    assert (
        'Your turn (X): abc\n"abc" is not a cell. Type a cell number 1-9, or a row and column 1-3'
        in after_first_move
    )
    assert "Your turn (X): 0\nThere is no cell 0: cells are numbered 1 to 9.\n" in text
    assert "Your turn (X): 10\nThere is no cell 10: cells are numbered 1 to 9.\n" in text
    assert (
        "Your turn (X): 4 4\nRow 4, column 4 is off the board: rows and columns go from 1 to 3.\n"
        in text
    )
    assert (
        "Your turn (X): 5\nYou can't play cell 5 (row 2, column 2): X is already there.\n" in text
    )
    assert "Your turn (X): 2\n\nYou played cell 2 (row 1, column 2).\n" in text
    assert last_board(text)[0].split("|")[1] == " X "


def test_row_column_and_comma_forms_play_the_right_cells() -> None:
    # The AI answers the centre in a corner, so the edge at row 1, column 2 is free.
    code, text = play("2 2", "1,2", args=("--seed", "2"))

    assert code == 0
    assert "Your turn (X): 2 2\n\nYou played cell 5 (row 2, column 2).\n" in text
    assert "Your turn (X): 1,2\n\nYou played cell 2 (row 1, column 2).\n" in text
    assert last_board(text)[0].split("|")[1] == " X "
    assert last_board(text)[2].split("|")[1] == " X "


def test_the_same_seed_replays_the_same_game() -> None:
    first = play(*LOSING_LINE, args=("--play-as", "random", "--difficulty", "easy", "--seed", "9"))
    second = play(*LOSING_LINE, args=("--play-as", "random", "--difficulty", "easy", "--seed", "9"))
    assert first == second


@pytest.mark.parametrize(("flag", "side"), [("x", X), ("o", O), ("O", O)])
def test_play_as_ignores_case(flag: str, side: str) -> None:
    _, text = play("q", args=("--play-as", flag, "--difficulty", "Medium"))
    assert f"you are {side}" in text
    assert "(medium)" in text


def test_play_as_random_picks_a_side() -> None:
    sides = set()
    for seed in range(20):
        _, text = play("q", args=("--play-as", "random", "--seed", str(seed)))
        sides.update(re.findall(r"^Tic-tac-toe: you are ([XO]),", text))
    assert sides == {X, O}


# --- hints -----------------------------------------------------------------------------------

# The AI's replies here are forced (the only best move), whatever the seed: 1 is answered in the
# centre, then X's threat on 3 is blocked, which threatens the diagonal 3-5-7.
BLOCK_HINT = """\
Hint for X:
  cell 4: loss in 1
  cell 6: loss in 1
  cell 7: draw (best)
  cell 8: loss in 1
  cell 9: loss in 1
O threatens the diagonal 3-5-7: only cell 7 stops it."""


@pytest.mark.parametrize("word", ["hint", "Hint", " HINT ", "h", "?"])
def test_hint_at_the_prompt_shows_every_free_cell_and_the_game_goes_on(word: str) -> None:
    code, text = play(word, "5")

    assert code == 0
    assert (
        f"Your turn (X): {word}\nHint for X:\n"
        + "".join(f"  cell {number}: draw (best)\n" for number in range(1, 10))
        + "Every move keeps the draw with best play.\n\nYour turn (X): 5\n\nYou played cell 5"
    ) in text


@pytest.mark.parametrize("seed", range(3))
def test_hint_names_the_threat_and_the_only_cell_that_stops_it(seed: int) -> None:
    code, text = play("1", "2", "hint", args=("--seed", str(seed)))

    assert code == 0
    assert f"Your turn (X): hint\n{BLOCK_HINT}\n\nYour turn (X): " in text


def test_hint_speaks_to_the_player_as_o() -> None:
    # As O the AI opens; the hint is for O and the reason names X as the opponent.
    _, text = play("hint", args=("--play-as", "O", "--seed", "0"))
    assert "Your turn (O): hint\nHint for O:\n" in text


def test_describe_hint_marks_every_best_cell() -> None:
    board: Board = [[X, X, None], [O, O, None], [None, None, None]]
    assert describe_hint(hint(board)).splitlines() == [
        "Hint for X:",
        "  cell 3: win in 1 of your moves (best)",
        "  cell 6: draw",
        "  cell 7: loss in 1",
        "  cell 8: loss in 1",
        "  cell 9: loss in 1",
        "You win at once with cell 3: it completes the row 1-2-3.",
    ]


@pytest.mark.parametrize(
    ("cells", "sentence"),
    [
        ((), "Every move keeps the draw with best play."),
        ((1,), "Take the centre, cell 5: every other move loses."),
        ((5,), "Take a corner, cell 1, 3, 7 or 9: every other move loses."),
        ((2,), "Only cell 1, 3, 5 or 8 keeps the draw: every other move loses."),
        (
            (1, 2),
            "You can force a win: playing cell 4, 5 or 7 makes a threat O must block, "
            "and the attack goes on until you win.",
        ),
        (
            (1, 5, 9),
            "X could make two threats at once next move with cell 3 or 7: "
            "playing cell 2, 4, 6 or 8 stops that.",
        ),
        ((1, 5, 9, 3), "O threatens the diagonal 3-5-7: only cell 7 stops it."),
        ((1, 2, 5, 9), "Playing cell 4 or 7 makes two threats at once: O can block only one."),
        (
            (1, 2, 5, 9, 4),
            "X threatens to complete a line at cells 6 and 7: you can block only one.",
        ),
        ((1, 2, 5, 9, 4, 6), "You win at once with cell 7: it completes the column 1-4-7."),
        ((1, 2, 5, 9, 4, 3), "You win at once with cell 6 or 7: cell 6 completes the row 4-5-6."),
    ],
)
def test_reason_sentences(cells: tuple[int, ...], sentence: str) -> None:
    board = initial_state()
    for number in cells:
        board = result(board, cell_action(number))
    assert reason_sentence(hint(board).reason) == sentence


def test_the_unstoppable_fork_sentence() -> None:
    board = [[None, None, X], [X, None, O], [None, X, O]]
    assert reason_sentence(hint(board).reason) == (
        "X can make two threats at once next move with cell 1, 2, 5 or 7, and no move stops it."
    )


def test_every_reachable_position_has_a_plain_sentence() -> None:
    for cells in reachable_positions():
        if is_over(cells):
            continue
        sentence = reason_sentence(hint(to_board(cells)).reason)
        assert sentence.endswith("."), cells
        assert sentence[0].isupper(), cells
        assert "None" not in sentence, cells
        assert "  " not in sentence, cells


# --- the review at the end of a game ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_the_review_names_the_first_mistake_and_what_would_have_held(seed: int) -> None:
    # X 1, O 5, X 2, O 3 (forced), X 8 ignores the diagonal 3-5-7: O completes it at once.
    code, text = play("1", "2", "8", args=("--seed", str(seed)))
    game, game_review = split_review(text)

    assert code == 0
    assert game.rstrip().endswith("The AI wins with three in a row on cells 3, 5, 7 ([O] above).")
    assert game_review == (
        "Review of the game (you are X):\n"
        "  Move 1, X at cell 1: best\n"
        "  Move 2, O at cell 5: best\n"
        "  Move 3, X at cell 2: best\n"
        "  Move 4, O at cell 3: best\n"
        "  Move 5, X at cell 8: mistake, turned a draw into a loss\n"
        "  Move 6, O at cell 7: best\n"
        "First mistake: Move 5, X at cell 8, turned a draw into a loss.\n"
        "Cell 7 kept the draw.\n"
        "Result: O won.\n"
    )


def test_describe_review_words_every_verdict() -> None:
    # X 9, O 8 (only the centre answers a corner), X 6; O 7 ignores X's threat on 3, losing
    # sooner; X 5 makes two threats rather than winning at once on 3; then X wins on 1.
    moves = [cell_action(n) for n in (9, 8, 6, 7, 5, 3, 1)]
    assert describe_review(review(moves), O).splitlines() == [
        "Review of the game (you are O):",
        "  Move 1, X at cell 9: best",
        "  Move 2, O at cell 8: mistake, turned a draw into a loss",
        "  Move 3, X at cell 6: best",
        "  Move 4, O at cell 7: inaccurate, a loss in 1 move instead of 2",
        "  Move 5, X at cell 5: inaccurate, a win in 2 moves instead of 1",
        "  Move 6, O at cell 3: best",
        "  Move 7, X at cell 1: best",
        "First mistake: Move 2, O at cell 8, turned a draw into a loss.",
        "Cell 5 kept the draw.",
        "Result: X won.",
    ]


def test_describe_review_of_an_unfinished_game() -> None:
    # X 5, O 2: an edge against the centre loses; any corner would have held.
    text = describe_review(review([cell_action(5), cell_action(2)]), X)
    assert text.splitlines() == [
        "Review of the game so far (you are X):",
        "  Move 1, X at cell 5: best",
        "  Move 2, O at cell 2: mistake, turned a draw into a loss",
        "First mistake: Move 2, O at cell 2, turned a draw into a loss.",
        "Cell 1, 3, 7 or 9 kept the draw.",
        "Result: unfinished.",
    ]
    assert describe_review(review([]), X).splitlines() == [
        "Review of the game so far (you are X):",
        "No mistakes.",
        "Result: unfinished.",
    ]


# --- another game ----------------------------------------------------------------------------


class Player:
    """Plays the first free cell on every turn (by trying 1 to 9: taken ones are refused) and
    answers each offer of another game with the next of `answers`; then input ends."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.cells = iter(ALL_CELLS)
        self.screen = io.StringIO()

    def input(self, prompt: str) -> str:
        self.screen.write(prompt)
        if prompt.startswith("Your turn") or prompt.startswith("\nYour turn"):
            line = next(self.cells)
        elif self.answers:
            line = self.answers.pop(0)
            self.cells = iter(ALL_CELLS)  # a new game
        else:
            raise EOFError
        self.screen.write(line + "\n")
        return line


def play_games(*answers: str, args: tuple[str, ...] = ("--seed", "3")) -> tuple[int, str]:
    player = Player(*answers)
    code = main(list(args), input_fn=player.input, output=player.screen)
    return code, player.screen.getvalue()


def headers(text: str) -> list[str]:
    return re.findall(r"^Tic-tac-toe: .*$", text, flags=re.MULTILINE)


@pytest.mark.parametrize("yes", ["y", "", "YES"])
def test_another_game_swaps_the_marks_and_keeps_the_difficulty(yes: str) -> None:
    code, text = play_games(yes, "n", args=("--difficulty", "easy", "--seed", "3"))

    assert code == 0
    assert headers(text) == [
        "Tic-tac-toe: you are X, the AI is O (easy), you move first.",
        "Tic-tac-toe: you are O, the AI is X (easy), the AI moves first.",
    ]
    first, second = text.split(f"? [Y/n] {yes}\n")
    assert first.endswith("\nPlay again, with the marks swapped (you are O, the AI moves first)")
    # The second game is played to its end and reviewed; then the offer is for X again.
    assert "Review of the game (you are O):" in second
    assert second.endswith(
        "\nPlay again, with the marks swapped (you are X, you move first)? [Y/n] n\nGoodbye!\n"
    )


def test_an_unclear_answer_is_explained_and_asked_again() -> None:
    code, text = play_games("maybe", "no")

    assert code == 0
    assert text.endswith(
        "? [Y/n] maybe\nType y (or just Enter) for another game, n to stop.\n"
        "Play again? [Y/n] no\nGoodbye!\n"
    )
    assert len(headers(text)) == 1


def test_end_of_input_at_the_offer_says_goodbye_and_exits_0() -> None:
    code, text = play_games()

    assert code == 0
    assert text.endswith("(you are O, the AI moves first)? [Y/n] \nEnd of input. Goodbye!\n")
    assert "Traceback" not in text


def test_ctrl_c_at_the_offer_says_goodbye_and_exits_130() -> None:
    player = Player()

    def answer(prompt: str) -> str:
        if "Play again" in prompt:
            player.screen.write(prompt)
            raise KeyboardInterrupt
        return player.input(prompt)

    assert main(["--seed", "3"], input_fn=answer, output=player.screen) == 130
    assert player.screen.getvalue().endswith("? [Y/n] \nInterrupted. Goodbye!\n")


# --- leaving ---------------------------------------------------------------------------------


def test_end_of_input_mid_game_says_goodbye_and_exits_0() -> None:
    code, text = play("5")

    assert code == 0
    assert "You played cell 5" in text
    assert text.endswith("Your turn (X): \nEnd of input. Goodbye!\n")
    assert "Traceback" not in text


@pytest.mark.parametrize("word", ["q", "quit", "Q", " QUIT "])
def test_quit_leaves_with_exit_code_0(word: str) -> None:
    code, text = play("5", word)

    assert code == 0
    # The moves played so far are reviewed before leaving.
    assert f"Your turn (X): {word}\n\nReview of the game so far (you are X):\n" in text
    assert text.endswith("\nResult: unfinished.\n\nYou left the game. Goodbye!\n")


def test_quit_before_any_move_leaves_without_a_review() -> None:
    code, text = play("q")

    assert code == 0
    assert text.endswith("Your turn (X): q\nYou left the game. Goodbye!\n")
    assert "Review" not in text


def test_ctrl_c_says_goodbye_and_exits_130() -> None:
    def press_ctrl_c(prompt: str) -> str:
        raise KeyboardInterrupt

    screen = io.StringIO()
    assert main([], input_fn=press_ctrl_c, output=screen) == 130
    assert screen.getvalue().endswith("\nInterrupted. Goodbye!\n")


def test_output_goes_to_standard_output_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([], input_fn=lambda prompt: "quit") == 0
    assert "You left the game. Goodbye!" in capsys.readouterr().out


def test_help_and_bad_flags_go_through_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as help_exit:
        main(["--help"])
    assert help_exit.value.code == 0
    assert "--play-as {X,O,random}" in capsys.readouterr().out

    with pytest.raises(SystemExit) as bad_exit:
        main(["--difficulty", "godlike"])
    assert bad_exit.value.code == 2
    assert "invalid choice: 'godlike'" in capsys.readouterr().err


# --- python -m tictactoe as a real process ---------------------------------------------------


def run_module(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tictactoe", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


def test_module_plays_a_full_game_from_stdin() -> None:
    process = run_module("--seed", "1", stdin="\n".join(LOSING_LINE) + "\n")

    assert process.returncode == 0
    assert process.stderr == ""
    assert "The AI (O) played cell " in process.stdout
    game, game_review = split_review(process.stdout)
    assert game.rstrip().splitlines()[-1].startswith("The AI wins with three in a row")
    assert game_review.rstrip().endswith("Result: O won.")


def test_module_exits_cleanly_when_stdin_closes_early() -> None:
    process = run_module("--play-as", "O", stdin="5\n")

    assert process.returncode == 0
    assert process.stderr == ""
    assert process.stdout.endswith("End of input. Goodbye!\n")


def test_module_help_describes_the_flags_and_the_input_format() -> None:
    process = run_module("--help")

    assert process.returncode == 0
    for text in ("--play-as", "--difficulty", "--seed", "impossible", "cell number 1-9", '"2,3"'):
        assert text in process.stdout
    assert "Type hint" in process.stdout
    assert "reviewed" in process.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is a POSIX signal")
def test_module_exits_130_on_a_real_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tictactoe"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        seen = b""
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            while b"Your turn (X): " not in seen:
                assert selector.select(timeout=30), f"no prompt, only {seen!r}"
                chunk = os.read(process.stdout.fileno(), 4096)
                assert chunk, f"output closed before the prompt: {seen!r}"
                seen += chunk
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()

    assert process.returncode == 130
    assert stderr == b""
    assert stdout.endswith(b"\nInterrupted. Goodbye!\n")


@pytest.mark.skipif(
    sys.platform == "win32" or importlib.util.find_spec("readline") is None,
    reason="needs a pseudo-terminal and readline",
)
def test_at_a_terminal_the_prompt_edits_lines() -> None:
    """Typed at a real terminal, an arrow key moves the cursor (readline) instead of landing
    in the line as "^[[D": "5", the left arrow and Enter read as cell 5."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "tictactoe", "--seed", "1"],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TERM": "xterm"},
        start_new_session=True,
    )
    os.close(terminal)
    seen, read_up_to = b"", 0

    def read_until(text: bytes) -> None:
        """Read the screen until `text` shows after what was read up to now."""
        nonlocal seen, read_up_to
        with selectors.DefaultSelector() as selector:
            selector.register(controller, selectors.EVENT_READ)
            while (found := seen.find(text, read_up_to)) < 0:
                assert selector.select(timeout=30), f"no {text!r}, only {seen!r}"
                try:
                    chunk = os.read(controller, 4096)
                except OSError:  # the terminal closed: the program ended
                    chunk = b""
                assert chunk, f"output closed before {text!r}: {seen!r}"
                seen += chunk
        read_up_to = found + len(text)

    try:
        read_until(b"Your turn (X): ")
        os.write(controller, b"5\x1b[D\r")  # "5", the left arrow key, Enter
        read_until(b"You played cell 5 (row 2, column 2).")
        read_until(b"Your turn (X): ")
        os.write(controller, b"\x04")  # Ctrl-D
        read_until(b"End of input. Goodbye!")
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.wait()
        os.close(controller)
    assert b"^[[D" not in seen
    assert b"Traceback" not in seen


# --- puzzles -----------------------------------------------------------------------------------


def board_on_screen(text: str) -> tuple[str | None, ...]:
    """The cells of the last board drawn, as a person reads them."""
    cells: list[str | None] = []
    for row in last_board(text)[::2]:
        for cell in row[2:].split("|"):
            mark = cell.strip(" []")
            cells.append(mark if mark in (X, O) else None)
    return tuple(cells)


class PuzzleSolver:
    """Reads each puzzle off the screen and answers with a best move of the brute force
    ("right") or a move it says is wrong ("wrong"), as `plan` says, one entry per puzzle; each
    "Next puzzle?" is answered with the next of `answers`, then input ends."""

    def __init__(self, plan: list[str], answers: list[str]) -> None:
        self.plan = list(plan)
        self.answers = list(answers)
        self.screen = io.StringIO()
        self.played: list[tuple[tuple[str | None, ...], int]] = []

    def input(self, prompt: str) -> str:
        self.screen.write(prompt)
        if "Your turn" in prompt and not self.plan:
            raise EOFError
        if "Your turn" in prompt:
            cells = board_on_screen(self.screen.getvalue())
            best = best_moves(cells)
            move = min(best) if self.plan[0] == "right" else min(set(empties(cells)) - best)
            self.played.append((cells, move))
            line = str(move + 1)
        elif self.answers:
            self.plan.pop(0)
            line = self.answers.pop(0)
        else:
            raise EOFError
        self.screen.write(line + "\n")
        return line


def solve_puzzles(plan: list[str], answers: list[str], *args: str) -> tuple[int, str, PuzzleSolver]:
    solver = PuzzleSolver(plan, answers)
    code = main(["--puzzle", *args], input_fn=solver.input, output=solver.screen)
    return code, solver.screen.getvalue(), solver


def puzzle_blocks(text: str) -> list[str]:
    """Each puzzle's part of the screen, from its title to its end."""
    return re.split(r"\n(?=(?:Today's puzzle .*: )?Puzzle [0-9a-z]{3}, rating )", text)[1:]


def test_puzzles_solved_through_the_screen() -> None:
    code, text, _ = solve_puzzles(["right"] * 4, ["y", "", "yes", "n"], "--seed", "7")

    assert code == 0
    assert text.startswith("Puzzles: find the move that keeps the win or the draw.\n")
    assert text.endswith("Next puzzle? [Y/n] n\nGoodbye!\n")
    blocks = puzzle_blocks(text)
    assert len(blocks) == 4
    ids = [re.match(r"Puzzle ([0-9a-z]{3}), rating (\d+)", block) for block in blocks]
    assert len({match[1] for match in ids if match}) == 4, "no puzzle comes twice"
    for block, match in zip(blocks, ids, strict=True):
        assert match is not None
        found = pz.puzzle(match[1])
        assert int(match[2]) == found.rating
        assert "Wrong" not in block
        first_board = board_on_screen(block.split("Your turn")[0])
        shown = pz.find(to_board(first_board))
        assert shown is not None
        assert shown[0] == found
        final = board_on_screen(block)
        if "Solved! Three in a row." in block:
            assert winner_of(final) == found.player
        else:
            assert "Solved! The draw is secured: whatever you play now, you cannot lose." in block
            assert winner_of(final) is None
    ratings = [int(r) for r in re.findall(r"Your puzzle rating this session: (\d+)\.", text)]
    assert ratings == sorted(ratings)
    assert ratings[0] > 1200


def test_each_reply_on_the_screen_is_perfect() -> None:
    _, text, solver = solve_puzzles(["right"] * 8, ["y"] * 7 + ["n"], "--seed", "11")

    # What follows each move, up to the next prompt.
    after_each_move = re.split(r"\nYour turn \([XO]\): ", text)[1:]
    assert len(after_each_move) == len(solver.played)
    replies = 0
    for (cells, move), following in zip(solver.played, after_each_move, strict=True):
        shown = following.partition("\nYour puzzle rating")[0]  # not the next puzzle's board
        after = play_cell(cells, move)
        match = re.search(r"\nCorrect\. ([XO]) replies at cell (\d) ", shown)
        if match is None:
            assert "\nSolved! " in shown
            assert board_on_screen(shown) == after
            continue
        replies += 1
        reply = int(match[2]) - 1
        assert match[1] == mover(after)
        assert reply in best_moves(after)
        assert board_on_screen(shown) == play_cell(after, reply)
    assert replies > 0


def test_a_wrong_move_is_refuted_and_the_right_cells_named() -> None:
    code, text, solver = solve_puzzles(["wrong"] * 3, ["y", "y", "n"], "--seed", "3")

    assert code == 0
    blocks = puzzle_blocks(text)
    assert len(blocks) == 3
    wrong_moves = [(cells, move) for cells, move in solver.played]
    assert len(wrong_moves) == 3
    for block, (cells, move) in zip(blocks, wrong_moves, strict=True):
        best = sorted(best_moves(cells))
        score = solve(cells)[0]
        after_score = move_outcome(cells, move)[0]
        words = {1: "win", 0: "draw", -1: "loss"}
        if after_score == score:
            assert f"Wrong: cell {move + 1} still wins, but in " in block
        else:
            assert f"Wrong: cell {move + 1} turns a {words[score]} into a {words[after_score]}."
        if len(best) == 1:
            assert f"\nThe right move was cell {best[0] + 1}.\n" in block
        else:
            numbers = [str(index + 1) for index in best]
            assert f"\nThe right moves were cells {', '.join(numbers[:-1])} and {numbers[-1]}."
        # The board after shows the wrong move and a best reply to it.
        after = play_cell(cells, move)
        final = board_on_screen(block)
        (reply,) = [i for i in range(9) if after[i] is None and final[i] is not None]
        assert reply in best_moves(after)
        assert re.search(rf"\n{mover(after)} answers at cell {reply + 1}[ ,]", block)
        assert "Solved" not in block
    ratings = [int(r) for r in re.findall(r"Your puzzle rating this session: (\d+)\.", text)]
    assert ratings == sorted(ratings, reverse=True)
    assert ratings[0] < 1200


def test_a_refuted_win_names_the_completed_line() -> None:
    # Puzzle 0n6 as stored: X (3, 5) must block at 9, O threatening 7-8-9; X 1 lets O complete it.
    found = pz.puzzle("0n6")
    attempt = pz.start(found, 0)
    assert attempt.board == ((None, None, X), (None, X, None), (O, O, None))
    step = pz.answer(attempt, (0, 0))
    assert step.attempt.refutation is not None
    wrong, answer, right = refutation_sentences(
        step.attempt.refutation, [list(row) for row in step.attempt.board]
    )
    assert wrong == "Wrong: cell 1 turns a win into a loss."
    assert answer == "O answers at cell 9 and wins: it completes the row 7-8-9."
    assert right == "The right move was cell 9."


@pytest.mark.parametrize(
    ("theme", "sentence"),
    [
        ("win_now", r"[XO] to move: win at once\."),
        ("fork", r"[XO] to move: make a fork and win in [23] moves\."),
        ("force_win", r"[XO] to move: force a win in [23] moves\."),
        ("block", r"[XO] to move: stop [XO]'s threat (and win in \d moves|to keep the draw)\."),
        ("block_fork", r"[XO] to move: stop [XO]'s fork to keep the draw\."),
        ("keep_draw", r"[XO] to move: keep the draw; some moves lose\."),
        ("centre", r"[XO] to move: keep the draw; some moves lose\."),
        ("corner", r"[XO] to move: keep the draw; some moves lose\."),
    ],
)
def test_each_theme_has_its_task_sentence(theme: str, sentence: str) -> None:
    for found in pz.puzzles():
        if found.theme != theme:
            continue
        task = pz.start(found, 0).task
        assert task is not None
        only = " Only one move works." if len(found.correct) == 1 else ""
        assert re.fullmatch(sentence + re.escape(only), task_sentence(task)), found.id


def test_no_hint_in_a_puzzle() -> None:
    screen = io.StringIO()
    lines = iter(["hint", "q"])

    def typed(prompt: str) -> str:
        screen.write(prompt)
        return next(lines)

    assert main(["--puzzle", "--seed", "1"], input_fn=typed, output=screen) == 0
    text = screen.getvalue()
    assert "No hints in a puzzle: finding the move is the puzzle.\n" in text
    assert text.endswith("Your turn (X): Your turn (X): You left the puzzle. Goodbye!\n") or (
        text.endswith("You left the puzzle. Goodbye!\n")
    )
    assert "Hint for" not in text


def test_leaving_a_puzzle_with_end_of_input_or_ctrl_c() -> None:
    code, text, _ = solve_puzzles([], [], "--seed", "2")
    assert code == 0
    assert text.endswith("Your turn (X): \nEnd of input. Goodbye!\n") or text.endswith(
        "Your turn (O): \nEnd of input. Goodbye!\n"
    )

    def press_ctrl_c(prompt: str) -> str:
        raise KeyboardInterrupt

    screen = io.StringIO()
    assert main(["--puzzle"], input_fn=press_ctrl_c, output=screen) == 130
    assert screen.getvalue().endswith("\nInterrupted. Goodbye!\n")


def test_the_daily_puzzle_comes_first_with_daily() -> None:
    _, text, _ = solve_puzzles(["right"], [], "--daily")

    match = re.search(
        r"^Today's puzzle \((\d{4}-\d\d-\d\d) UTC\): Puzzle ([0-9a-z]{3}),", text, re.M
    )
    assert match is not None
    day = dt.date.fromisoformat(match[1])
    assert abs(day - dt.datetime.now(dt.UTC).date()) <= dt.timedelta(days=1)
    daily = pz.daily(day)
    assert match[2] == daily.puzzle.id
    assert board_on_screen(text.split("Your turn")[0]) == tuple(
        cell for row in daily.board for cell in row
    )


def test_daily_needs_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as bad_exit:
        main(["--daily"])
    assert bad_exit.value.code == 2
    assert "--daily goes with --puzzle" in capsys.readouterr().err


def test_module_offers_puzzles() -> None:
    process = run_module("--puzzle", "--seed", "5", stdin="q\n")

    assert process.returncode == 0
    assert process.stderr == ""
    assert process.stdout.startswith("Puzzles: find the move")
    assert process.stdout.endswith("You left the puzzle. Goodbye!\n")


# --- 80 columns -------------------------------------------------------------------------------


def test_a_long_line_breaks_at_spaces_and_keeps_quoted_examples_whole() -> None:
    target = io.StringIO()
    screen = Screen(target)
    # A plain break at the last space that fits would split "2 3" between its 2 and its 3.
    long = "x" * 66 + ' such as "2 3" or "2,3" and more words to go past the edge'
    screen.write(f"{long}\n  indented {'item ' * 20}\nshort\n")
    screen.flush()
    lines = target.getvalue().splitlines()
    assert all(len(line) <= 79 for line in lines)
    assert lines[0] == "x" * 66 + " such as"
    assert lines[1].startswith('"2 3" or "2,3" and more')
    indented = [line for line in lines if "item" in line]
    assert indented[0].startswith("  indented item")
    assert all(line.startswith("    item") for line in indented[1:])
    assert lines[-1] == "short"
    assert " ".join(" ".join(lines).split()) == " ".join(
        f"{long} indented {'item ' * 20} short".split()
    )


def typical_sessions() -> list[str]:
    """What a person sees in typical sessions: games won, lost and drawn at every level, hints,
    bad input, reviews, quitting, and puzzles solved and failed."""
    screens = []
    for side in (X, O):
        for difficulty in ("easy", "medium", "hard", "impossible"):
            screens.append(
                play(*LOSING_LINE, args=("--play-as", side, "--difficulty", difficulty))[1]
            )
    screens.append(play(*DRAWING_LINE, args=("--seed", "1"))[1])
    screens.append(play("5", "abc", "0", "10", "4 4", "5", "hint", "2", "q")[1])
    screens.append(play("1", "2", "hint", "8", args=("--seed", "0"))[1])
    for side in (X, O):  # a hint before every move: every kind of reason gets said
        hinted = [word for cell in LOSING_LINE for word in ("hint", cell)]
        screens.append(play(*hinted, args=("--play-as", side, "--difficulty", "easy"))[1])
    screens.append(play_games("y", "maybe", "n")[1])
    screens.append(solve_puzzles(["right"] * 8, ["y"] * 7 + ["n"], "--seed", "4")[1])
    screens.append(solve_puzzles(["wrong"] * 8, ["y"] * 7 + ["n"], "--seed", "4")[1])
    screens.append(solve_puzzles(["right", "wrong"], ["y"], "--daily")[1])
    return screens


def test_every_line_of_typical_sessions_fits_80_columns() -> None:
    for screen in typical_sessions():
        too_long = [line for line in screen.splitlines() if len(line) > 80]
        assert not too_long, too_long


def test_the_help_fits_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "--puzzle" in text
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert not too_long, too_long


# --- Ultimate Tic-Tac-Toe (--ultimate) ---------------------------------------------------------

ULTIMATE = ("--ultimate", "--playouts", "20")  # a fixed amount of thinking: reproducible games


def test_ultimate_empty_board_numbers_every_cell_of_every_board() -> None:
    assert uc.draw(ut.initial_state()).splitlines() == [
        "  +--- 1 ---+--- 2 ---+--- 3 ---+",
        *[
            "  | 1  2  3 | 1  2  3 | 1  2  3 |",
            "  | 4  5  6 | 4  5  6 | 4  5  6 |",
            "  | 7  8  9 | 7  8  9 | 7  8  9 |",
        ],
        "  +--- 4 ---+--- 5 ---+--- 6 ---+",
        *[
            "  | 1  2  3 | 1  2  3 | 1  2  3 |",
            "  | 4  5  6 | 4  5  6 | 4  5  6 |",
            "  | 7  8  9 | 7  8  9 | 7  8  9 |",
        ],
        "  +--- 7 ---+--- 8 ---+--- 9 ---+",
        *[
            "  | 1  2  3 | 1  2  3 | 1  2  3 |",
            "  | 4  5  6 | 4  5  6 | 4  5  6 |",
            "  | 7  8  9 | 7  8  9 | 7  8  9 |",
        ],
        "  +---------+---------+---------+",
    ]


def ultimate_position(xs: list[tuple[int, int]], os: list[tuple[int, int]], last) -> ut.State:
    grid: list[str | None] = [None] * 81
    for board, cell in xs:
        grid[9 * board + cell] = "X"
    for board, cell in os:
        grid[9 * board + cell] = "O"
    return ut.from_cells(grid, last)


# X owns board 1 (its top row); O's last move, in board 4's first cell, sends X to board 1,
# which is closed: X may play in any open board.
X_OWNS_BOARD_1 = ultimate_position([(0, 0), (0, 1), (0, 2)], [(1, 0), (2, 0), (3, 0)], (3, 0))


def test_ultimate_board_shows_marks_the_last_move_won_boards_and_where_to_play() -> None:
    lines = uc.draw(X_OWNS_BOARD_1).splitlines()
    assert lines[0] == "  +-- 1 X --+--- 2 ---+--- 3 ---+"
    # Board 1 is closed: its empty cells are dots; the others show the numbers one may type.
    assert lines[1] == "  | X  X  X | O  2  3 | O  2  3 |"
    assert lines[2] == "  | .  .  . | 4  5  6 | 4  5  6 |"
    assert lines[5] == "  |[O] 2  3 | 1  2  3 | 1  2  3 |"
    assert uc.where_to_play(X_OWNS_BOARD_1) == (
        "Board 1 is closed, so X may play in any open board: "
        'type a board and a cell, such as "5 3".'
    )
    forced = ut.result(X_OWNS_BOARD_1, (4, 4))
    assert uc.where_to_play(forced) == "O must play in board 5: type a cell 1-9."
    drawn = uc.draw(forced).splitlines()
    assert drawn[5] == "  | O  .  . | 1  2  3 | .  .  . |"
    assert drawn[6] == "  | .  .  . | 4 [X] 6 | .  .  . |"
    assert drawn[1] == "  | X  X  X | O  .  . | O  .  . |"
    assert all(len(line) <= 79 for line in drawn)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("5 3", (4, 2)), ("5,3", (4, 2)), (" 9 , 9 ", (8, 8)), ("2  5", (1, 4))],
)
def test_ultimate_reads_a_board_and_a_cell(typed: str, expected: tuple[int, int]) -> None:
    assert uc.parse_move(typed, X_OWNS_BOARD_1) == expected


def test_ultimate_reads_the_cell_alone_when_the_board_is_forced() -> None:
    forced = ut.result(X_OWNS_BOARD_1, (4, 4))  # O is sent to board 5
    assert uc.parse_move("3", forced) == (4, 2)
    assert uc.parse_move("5 3", forced) == (4, 2)


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "Type a board and a cell, each 1-9"),
        ("abc", '"abc" is not a move. Type a board and a cell'),
        ("1 2 3", '"1 2 3" is not a move'),
        (
            "5",
            "The move is not forced into one board: "
            'type a board and a cell, each 1-9, such as "5 3".',
        ),
        ("0 3", "There is no board 0: boards are numbered 1 to 9."),
        ("10 3", "There is no board 10: boards are numbered 1 to 9."),
        ("5 0", "There is no cell 0: cells are numbered 1 to 9."),
        ("1 9", "Board 1 is closed: X won it. Pick an open board."),
        ("2 1", "You can't play board 2, cell 1: O is already there."),
    ],
)
def test_ultimate_explains_what_is_wrong(typed: str, reason: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(reason)):
        uc.parse_move(typed, X_OWNS_BOARD_1)


def test_ultimate_names_the_forced_board_when_another_is_typed() -> None:
    forced = ut.result(X_OWNS_BOARD_1, (4, 4))
    with pytest.raises(
        ValueError, match=r"^You must play in board 5: the last move was in its cell 5\."
    ):
        uc.parse_move("6 1", forced)
    with pytest.raises(ValueError, match=r"^There is no cell 10"):
        uc.parse_move("10", forced)


class UltimateRobot:
    """Plays through the screen as a person would: follows the moves announced on it and types
    the first legal move (board and cell, or the cell alone when the board is forced)."""

    MOVE = re.compile(r"(?:You|The AI \([XO]\)) played board (\d), cell (\d)\.")

    def __init__(self, *extra: str) -> None:
        self.terminal = Terminal()
        self.extra = list(extra)
        self.seen = 0

    def input(self, prompt: str) -> str:
        self.terminal.screen.write(prompt)
        if self.extra:
            line = self.extra.pop(0)
        else:
            text = self.terminal.text
            if "Play again" in prompt:
                raise EOFError
            state = ut.initial_state()
            for board, cell in self.MOVE.findall(text.rpartition("Ultimate tic-tac-toe: ")[2]):
                state = ut.result(state, (int(board) - 1, int(cell) - 1))
            board, cell = min(ut.actions(state))
            line = (
                f"{cell + 1}" if ut.forced_board(state) is not None else f"{board + 1} {cell + 1}"
            )
        self.terminal.screen.write(line + "\n")
        return line


def play_ultimate(*extra: str, args: tuple[str, ...] = ()) -> tuple[int, str]:
    robot = UltimateRobot(*extra)
    code = main([*ULTIMATE, *args], input_fn=robot.input, output=robot.terminal.screen)
    return code, robot.terminal.text


@pytest.mark.parametrize("side", [X, O])
@pytest.mark.parametrize("difficulty", ["easy", "impossible"])
def test_ultimate_plays_a_whole_game_to_its_result(side: str, difficulty: str) -> None:
    code, text = play_ultimate(args=("--play-as", side, "--difficulty", difficulty, "--seed", "3"))

    assert code == 0
    ai = O if side == X else X
    assert f"Ultimate tic-tac-toe: you are {side}, the AI is {ai} ({difficulty})" in text
    game = text.partition("\nPlay again")[0]
    result = game.rstrip().splitlines()[-1]
    assert re.fullmatch(
        r"You win! Three small boards in a line: boards \d, \d, \d\."
        r"|The AI wins with three small boards in a line: boards \d, \d, \d\."
        r"|Draw: every small board is closed and nobody has three in a line\.",
        result,
    )
    assert "The AI (" + ai + ") played board " in text
    assert all(len(line) <= 79 for line in text.splitlines())


def test_ultimate_against_impossible_the_first_legal_move_robot_loses() -> None:
    _, text = play_ultimate(args=("--difficulty", "impossible", "--seed", "1", "--playouts", "200"))
    assert "The AI wins with three small boards in a line" in text


def test_ultimate_the_same_seed_replays_the_same_game() -> None:
    args = ("--play-as", "random", "--difficulty", "medium", "--seed", "5")
    assert play_ultimate(args=args) == play_ultimate(args=args)


def test_ultimate_bad_input_is_explained_and_the_game_goes_on() -> None:
    code, text = play_ultimate("5", "0 1", "5 5", "9", "q")

    assert code == 0
    assert "Your turn (X): 5\nThe move is not forced into one board: type a board" in text
    assert "Your turn (X): 0 1\nThere is no board 0: boards are numbered 1 to 9.\n" in text
    assert "Your turn (X): 5 5\n\nYou played board 5, cell 5.\n" in text
    assert "O must play" not in text  # the AI's turn is not announced as an instruction
    assert text.rstrip().endswith("You left the game. Goodbye!")


def test_ultimate_hint_gives_a_move_its_reason_and_the_ais_estimate() -> None:
    _, text = play_ultimate("hint", "q", args=("--seed", "2"))
    match = re.search(
        r"Your turn \(X\): hint\nHint for X: board (\d), cell (\d)\.\n(.+)\n"
        r"The AI's estimate: (\d+)% for X \(win 100, draw 50, loss 0\)\.\n",
        text,
    )
    assert match, text
    assert match[3] in {
        sentence.format(them=O, board=match[1]) for sentence in uc.REASON_SENTENCES.values()
    }
    assert 0 <= int(match[4]) <= 100


def test_describe_hint_words_each_reason() -> None:
    analysis = ut.Analysis((4, 2), 0.62, ut.Reason.TAKES_BOARD, 4, 100)
    assert uc.describe_hint(analysis, X) == (
        "Hint for X: board 5, cell 3.\nIt takes board 5.\n"
        "The AI's estimate: 62% for X (win 100, draw 50, loss 0)."
    )
    for reason in ut.Reason:
        sentence = uc.describe_hint(ut.Analysis((0, 0), 0.5, reason, 2, 1), O)
        assert "{" not in sentence


def test_ultimate_flags_that_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as puzzle_exit:
        main(["--ultimate", "--puzzle"])
    assert puzzle_exit.value.code == 2
    assert "--puzzle and --ultimate do not go together" in capsys.readouterr().err
    with pytest.raises(SystemExit) as playouts_exit:
        main(["--playouts", "10"])
    assert playouts_exit.value.code == 2
    assert "--playouts goes with --ultimate" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--ultimate", "--playouts", "0"])
    assert "must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--ultimate", "--playouts", "many"])
    assert "must be a whole number, not 'many'" in capsys.readouterr().err


def test_help_tells_how_to_play_ultimate(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert "--ultimate" in text
    assert "--playouts N" in text
    assert 'type a board\nand a cell, each 1-9, such as "5 3"' in text


def test_module_plays_ultimate_from_stdin() -> None:
    process = run_module(*ULTIMATE, "--seed", "1", stdin="5 5\n3\nq\n")

    assert process.returncode == 0
    assert process.stderr == ""
    assert "You played board 5, cell 5." in process.stdout
    assert "The AI (O) played board 5, cell " in process.stdout
    assert process.stdout.endswith("You left the game. Goodbye!\n")
