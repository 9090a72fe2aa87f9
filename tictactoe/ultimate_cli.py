"""Ultimate Tic-Tac-Toe in a terminal: `python -m tictactoe --ultimate`.

Boards and cells are numbered 1-9 row by row, as on a phone's keypad turned upside down (the
classic game's numbering); the engine's 0-8 stay inside.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import TextIO

from . import ultimate as ut

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HINT_WORDS = frozenset({"hint", "h", "?"})
PLAY_AGAIN_WORDS = frozenset({"", "y", "yes"})
STOP_WORDS = frozenset({"n", "no"}) | QUIT_WORDS

# How long the hint thinks (seconds), and the AI at impossible.
HINT_BUDGET = 1.0

_NUMBER = re.compile(r"[+-]?\d+")
_TWO_NUMBERS = re.compile(r"([+-]?\d+)\s*(?:,|\s)\s*([+-]?\d+)")

INPUT_HELP = 'a board and a cell, each 1-9, such as "5 3" (the cell alone when the board is forced)'

LEGEND = (
    "Digits show where the next move may go (the cell's number in its board); "
    "[X] is the last move; a won board's label shows its winner, a full one's =."
)


def describe_move(action: ut.Action) -> str:
    """'board 5, cell 3', numbered as a person types them."""
    board, cell = action
    return f"board {board + 1}, cell {cell + 1}"


def draw(state: ut.State) -> str:
    """The 9x9 board: each small board framed and labelled with its number (and its winner, or
    = when full), marks in place, the last move in brackets, and the number of every cell where
    the next move may go."""
    marks = ut.cells(state)
    playable = ut.actions(state)
    lines = []
    for band in range(3):
        labels = []
        for board in range(3 * band, 3 * band + 3):
            owner = ut.small_winner(state, board)
            full = owner is None and ut.is_closed(state, board)
            suffix = f" {owner}" if owner else " =" if full else ""
            label = f" {board + 1}{suffix} "
            labels.append(label.center(9, "-"))
        lines.append("  +" + "+".join(labels) + "+")
        for row in range(3):
            groups = []
            for board in range(3 * band, 3 * band + 3):
                group = ""
                for cell in range(3 * row, 3 * row + 3):
                    mark = marks[9 * board + cell]
                    if mark is not None:
                        group += f"[{mark}]" if state.last == (board, cell) else f" {mark} "
                    elif (board, cell) in playable:
                        group += f" {cell + 1} "
                    else:
                        group += " . "
                groups.append(group)
            lines.append("  |" + "|".join(groups) + "|")
    lines.append("  +" + "+".join(["-" * 9] * 3) + "+")
    return "\n".join(lines)


def where_to_play(state: ut.State) -> str:
    """Where the player to move may play, in one sentence."""
    forced = ut.forced_board(state)
    mover = ut.player(state)
    if forced is not None:
        return f"{mover} must play in board {forced + 1}: type a cell 1-9."
    if state.last is None:
        return f'{mover} may play in any board: type a board and a cell, such as "5 3".'
    return (
        f"Board {state.last[1] + 1} is closed, so {mover} may play in any open board: "
        'type a board and a cell, such as "5 3".'
    )


def parse_move(text: str, state: ut.State) -> ut.Action:
    """Turn what a person typed into a legal (board, cell) of `state`, 0-based.

    Raises ValueError with a reason a person can act on.
    """
    typed = text.strip()
    forced = ut.forced_board(state)
    if not typed:
        raise ValueError(f"Type {INPUT_HELP}.")
    if _NUMBER.fullmatch(typed):
        if forced is None:
            raise ValueError(
                f"The move is not forced into one board: type {INPUT_HELP.split(' (')[0]}."
            )
        board, cell = forced + 1, int(typed)
        if not 1 <= cell <= 9:
            raise ValueError(f"There is no cell {cell}: cells are numbered 1 to 9.")
    elif match := _TWO_NUMBERS.fullmatch(typed):
        board, cell = int(match[1]), int(match[2])
        if not 1 <= board <= 9:
            raise ValueError(f"There is no board {board}: boards are numbered 1 to 9.")
        if not 1 <= cell <= 9:
            raise ValueError(f"There is no cell {cell}: cells are numbered 1 to 9.")
    else:
        raise ValueError(f'"{typed}" is not a move. Type {INPUT_HELP}.')
    action = (board - 1, cell - 1)
    if action in ut.actions(state):
        return action
    if forced is not None and action[0] != forced:
        raise ValueError(
            f"You must play in board {forced + 1}: the last move was in its cell {forced + 1}."
        )
    if ut.is_closed(state, action[0]):
        owner = ut.small_winner(state, action[0])
        why = f"{owner} won it" if owner else "it is full"
        raise ValueError(f"Board {board} is closed: {why}. Pick an open board.")
    taken = ut.cells(state)[9 * action[0] + action[1]]
    raise ValueError(f"You can't play {describe_move(action)}: {taken} is already there.")


def outcome_message(state: ut.State, human: str) -> str:
    """The end of a finished game, from the human's side."""
    won = ut.winner(state)
    line = ut.winning_line(state)
    if won is None or line is None:
        return "Draw: every small board is closed and nobody has three in a line."
    boards = ", ".join(str(board + 1) for board in line)
    if won == human:
        return f"You win! Three small boards in a line: boards {boards}."
    return f"The AI wins with three small boards in a line: boards {boards}."


REASON_SENTENCES = {
    ut.Reason.WINS_GAME: "It wins the game at once.",
    ut.Reason.FORCED_WIN: "The search found a win against any defence.",
    ut.Reason.BLOCKS_GAME: "It stops {them} taking board {board}, which would win {them} the game.",
    ut.Reason.TAKES_BOARD: "It takes board {board}.",
    ut.Reason.BLOCKS_BOARD: "It stops {them} taking board {board}.",
    ut.Reason.AVOIDS_GIVING: "It does not send {them} where {them} could take board {board}.",
    ut.Reason.ALL_LOSE: "Every move loses against best play; this one resists longest.",
    ut.Reason.BEST_ESTIMATE: "No tactic decides here: it is the search's best estimate.",
}


def describe_hint(analysis: ut.Analysis, mover: str) -> str:
    """The AI's move for the player to move, its estimate and why (the AI's judgement: the
    game is not solved)."""
    them = ut.O if mover == ut.X else ut.X
    board = "" if analysis.board is None else str(analysis.board + 1)
    reason = REASON_SENTENCES[analysis.reason].format(them=them, board=board)
    chance = round(100 * analysis.value)
    return (
        f"Hint for {mover}: {describe_move(analysis.action)}.\n{reason}\n"
        f"The AI's estimate: {chance}% for {mover} (win 100, draw 50, loss 0)."
    )


def play_games(
    human: str,
    difficulty: str,
    rng: random.Random,
    *,
    playouts: int | None,
    input_fn: Callable[[str], str],
    output: TextIO,
) -> None:
    """A game, then another with the marks swapped, until the human stops."""
    while play(human, difficulty, rng, playouts=playouts, input_fn=input_fn, output=output):
        human = ut.O if human == ut.X else ut.X
        order = "you move first" if human == ut.X else "the AI moves first"
        prompt = f"\nPlay again, with the marks swapped (you are {human}, {order})? [Y/n] "
        while True:
            output.flush()
            word = input_fn(prompt).strip().lower()
            if word in PLAY_AGAIN_WORDS:
                break
            if word in STOP_WORDS:
                print("Goodbye!", file=output)
                return
            print("Type y (or just Enter) for another game, n to stop.", file=output)
            prompt = "Play again? [Y/n] "
        print(file=output)


def play(
    human: str,
    difficulty: str,
    rng: random.Random,
    *,
    playouts: int | None,
    input_fn: Callable[[str], str],
    output: TextIO,
) -> bool:
    """One game: True if played to the end, False if the human left."""
    ai = ut.O if human == ut.X else ut.X
    order = "you move first" if human == ut.X else "the AI moves first"
    print(
        f"Ultimate tic-tac-toe: you are {human}, the AI is {ai} ({difficulty}), {order}.",
        file=output,
    )
    print(
        "Win three small boards in a line. The cell you play sends your opponent to the board "
        "of the same number; when that board is closed (won or full), they may play in any "
        "open board.",
        file=output,
    )
    print(f"On your turn type {INPUT_HELP}.", file=output)
    print("Type hint for the AI's advice, q to quit.", file=output)
    print(LEGEND + "\n", file=output)
    state = ut.initial_state()
    print(draw(state), file=output)
    while not ut.terminal(state):
        if ut.player(state) == human:
            print(where_to_play(state), file=output)
            move = ask_for_move(state, human, playouts, rng, input_fn=input_fn, output=output)
            if move is None:
                print("You left the game. Goodbye!", file=output)
                return False
            state = ut.result(state, move)
            print(f"\nYou played {describe_move(move)}.", file=output)
        else:
            output.flush()
            move = ut.choose(state, difficulty, rng, playouts=playouts)
            state = ut.result(state, move)
            print(f"\nThe AI ({ai}) played {describe_move(move)}.", file=output)
        print(draw(state), file=output)
    print(f"\n{outcome_message(state, human)}", file=output)
    return True


def ask_for_move(
    state: ut.State,
    mark: str,
    playouts: int | None,
    rng: random.Random,
    *,
    input_fn: Callable[[str], str],
    output: TextIO,
) -> ut.Action | None:
    """Prompt until the human types a legal move, showing a hint when asked; None to quit."""
    prompt = f"\nYour turn ({mark}): "
    while True:
        output.flush()
        text = input_fn(prompt)
        word = text.strip().lower()
        if word in QUIT_WORDS:
            return None
        if word in HINT_WORDS:
            budget = None if playouts is not None else HINT_BUDGET
            advice = ut.analyse(state, ut.IMPOSSIBLE, rng, budget=budget, playouts=playouts)
            print(describe_hint(advice, mark), file=output)
            prompt = f"\nYour turn ({mark}): "
            continue
        try:
            return parse_move(text, state)
        except ValueError as reason:
            print(reason, file=output)
            prompt = f"Your turn ({mark}): "
