"""What a player reads of an ultimate hint and review: the AI's move named by board and cell with
its reason, a winning move when one exists (found here by brute force), and a review that marks the
move that threw a won game away, worded as the AI's judgement; one line when the moves are lost."""

import random

from bot.core.game import AI
from bot.core.ultimate_game import UltimateGame
from bot.i18n import translations
from bot.kinds.ultimate import teaching
from bot.kinds.ultimate.view import place_name
from tictactoe import ultimate
from tictactoe.ultimate import Analysis, Reason

ALICE, BOB, BOT_ID = 111, 222, 999
_ = translations("en-US").gettext


def winning_moves(state: ultimate.State) -> set[tuple[int, int]]:
    """The moves that end the game with a win for the mover, tried one by one."""
    mover = ultimate.player(state)
    return {
        action
        for action in ultimate.actions(state)
        if ultimate.terminal(ultimate.result(state, action))
        and ultimate.winner(ultimate.result(state, action)) == mover
    }


def games_with_a_missed_win():
    """Random games (as flat moves) in which a player could have won at once, did not, and the
    opponent won with the very next move: the index of the missed win."""
    for seed in range(2000):
        rng = random.Random(seed)
        state = ultimate.initial_state()
        moves: list[int] = []
        missed = None
        while not ultimate.terminal(state):
            wins = winning_moves(state)
            choices = sorted(ultimate.actions(state) - wins) or sorted(wins)
            move = rng.choice(choices)
            if wins and move not in wins:
                missed = len(moves)
            moves.append(9 * move[0] + move[1])
            state = ultimate.result(state, move)
        if missed is not None and missed == len(moves) - 2:
            yield UltimateGame(ALICE, BOB, None, state, moves=tuple(moves)), missed


def test_a_hint_takes_the_win_there_is_and_says_why():
    rng = random.Random(7)
    state = ultimate.initial_state()
    while not winning_moves(state):
        state = ultimate.result(state, rng.choice(sorted(ultimate.actions(state))))
        if ultimate.terminal(state):
            state = ultimate.initial_state()
    game = (
        UltimateGame(ALICE, AI, "hard", state)
        if ultimate.player(state) == "X"
        else (UltimateGame(AI, ALICE, "hard", state))
    )
    text = teaching.render_hint(game, "en-US").text
    assert "it completes three boards in a row and wins." in text
    named = [place_name(move, _) for move in winning_moves(state)]
    assert any(f"**{name}**" in text for name in named)
    assert "The AI rates your chances at 100%" in text


def test_every_reason_has_its_own_sentence_naming_its_board():
    sentences = {teaching.reason_text(Analysis((4, 4), 0.5, reason, 2, 0), _) for reason in Reason}
    assert len(sentences) == len(Reason)
    for reason in (Reason.TAKES_BOARD, Reason.BLOCKS_BOARD, Reason.AVOIDS_GIVING):
        assert "top right" in teaching.reason_text(Analysis((4, 4), 0.5, reason, 2, 0), _)


def test_a_review_marks_the_missed_win_as_the_ais_judgement():
    game, missed = next(games_with_a_missed_win())
    text = teaching.render_review(game, "en-US", BOT_ID).text
    assert "the AI's judgement" in text
    assert "not solved" in text
    marked = [line for line in text.splitlines() if line.startswith("Move ")]
    assert 1 <= len(marked) <= teaching.MOST_MARKED
    player = game.x_player if missed % 2 == 0 else game.o_player
    place = place_name(divmod(game.moves[missed], 9), _)
    assert any(line.startswith(f"Move {missed + 1}, <@{player}> at {place}:") for line in marked)
    assert teaching.render_review(game, "en-US", BOT_ID).text == text  # it reads the same again


def test_a_review_without_the_moves_says_so_in_one_line():
    state = ultimate.result(ultimate.initial_state(), (4, 4))
    game = UltimateGame(ALICE, BOB, None, state, moves=None)
    text = teaching.render_review(game, "en-US", BOT_ID).text
    assert "\n" not in text
    assert "order of this game's moves was lost" in text


def test_the_review_in_another_language():
    state = ultimate.result(ultimate.initial_state(), (4, 4))
    game = UltimateGame(ALICE, BOB, None, state, moves=None)
    french = teaching.render_review(game, "fr", BOT_ID).text
    assert french != teaching.render_review(game, "en-US", BOT_ID).text
    assert french == translations("fr").gettext(
        "The order of this game's moves was lost (the bot restarted during it), so there "
        "is no review of it: only its final position is known."
    )
