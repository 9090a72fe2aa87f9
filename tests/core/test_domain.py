"""The bot's pure parts, over every reachable game: Game, the custom_id codec, render."""

import random

import discord
import pytest
from bot_helpers import BLANK, CELL_NAMES, last_move, payload_problems
from brute_force import (
    EMPTY_POSITION,
    WIN_LINES,
    Cells,
    all_grids,
    empties,
    is_over,
    mover,
    play,
    reachable_positions,
    to_board,
    winner_of,
)

import tictactoe as ttt
from bot import i18n
from bot.core import codec
from bot.core.codec import Verb
from bot.core.game import (
    AI,
    Challenge,
    Ending,
    Game,
    GameError,
    board_of_moves,
    freeze_board,
)
from bot.ui import card_view
from bot.view import components
from bot.view.board import (
    render_challenge,
    render_challenge_declined,
    render_challenge_expired,
    render_expired,
    render_game,
)
from bot.view.cards import Style
from tests.support.custom_ids import GAME_VERBS, ids_of

BIGGEST_ID = 2**64 - 1  # the largest snowflake Discord can hand out
ALICE, BOB = 111111111111111111, 222222222222222222
BOT_ID = 999999999999999999
DEADLINE = 1767225600

RED = discord.Colour.red().value
BLURPLE = discord.Colour.blurple().value
GREEN = discord.Colour.green().value
GREY = discord.Colour.light_grey().value
CELL_STYLE = {
    "X": discord.ButtonStyle.danger.value,
    "O": discord.ButtonStyle.primary.value,
    None: discord.ButtonStyle.secondary.value,
}


def game_orders():
    """Every reachable position with every last move it can be reached by, as the move list of
    one game that gets there that way: a depth-first walk of the game tree that expands each
    (position, last move) once."""
    found: dict[tuple[Cells, int | None], tuple[int, ...]] = {(EMPTY_POSITION, None): ()}
    stack: list[tuple[Cells, int | None, tuple[int, ...]]] = [(EMPTY_POSITION, None, ())]
    while stack:
        cells, _, moves = stack.pop()
        if is_over(cells):
            continue
        for index in empties(cells):
            child = (play(cells, index), index)
            if child not in found:
                found[child] = (*moves, index)
                stack.append((*child, (*moves, index)))
    return found


@pytest.fixture(scope="module")
def orders():
    return game_orders()


@pytest.fixture(scope="module")
def one_order_each(orders):
    """One move list per reachable position."""
    chosen: dict[Cells, tuple[int, ...]] = {}
    for (cells, _), moves in orders.items():
        chosen.setdefault(cells, moves)
    return chosen


def cells_of(game: Game) -> tuple:
    return tuple(cell for row in game.board for cell in row)


def test_the_walk_reaches_every_position_by_every_last_move(orders, one_order_each):
    assert set(one_order_each) == set(reachable_positions())
    for (cells, last), moves in orders.items():
        assert tuple(c for row in board_of_moves(moves) for c in row) == cells
        assert (moves[-1] if moves else None) == last
    # e.g. the centre alone was reached one way; X in two corners and O between, by either X
    assert sum(cells == (None,) * 4 + ("X",) + (None,) * 4 for cells, _ in orders) == 1
    assert {last for cells, last in orders if cells == ("X", "O", "X") + (None,) * 6} == {0, 2}


# ------------------------------------------------------------------------------ Game


def test_game_refuses_illegal_players_and_levels():
    with pytest.raises(GameError):
        Game(1, 1)
    with pytest.raises(GameError):
        Game(AI, AI, "easy")
    with pytest.raises(GameError):
        Game(ALICE, AI)  # the bot plays: a difficulty is needed
    with pytest.raises(GameError):
        Game(ALICE, BOB, "easy")  # two people: no difficulty
    with pytest.raises(GameError):
        Game(ALICE, AI, "expert")
    for user in (-1, BIGGEST_ID + 1):
        with pytest.raises(GameError):
            Game(user, BOB)
    assert Game(BIGGEST_ID, BOB).players == (BIGGEST_ID, BOB)
    assert Game(ALICE, AI, "hard").vs_ai


def test_game_accepts_exactly_the_reachable_boards():
    reachable = set(reachable_positions())
    for grid in all_grids():
        board = freeze_board(to_board(grid))
        if grid in reachable:
            assert cells_of(Game(ALICE, BOB, None, board)) == grid
        else:
            with pytest.raises(GameError):
                Game(ALICE, BOB, None, board)


def test_game_refuses_moves_that_do_not_make_its_board():
    centre = board_of_moves((4,))
    assert Game(ALICE, BOB, None, centre, (4,)).moves == (4,)
    for moves in [(0,), (), (4, 0), (4, 4), (9,), (-1,)]:
        with pytest.raises(GameError):
            Game(ALICE, BOB, None, centre, moves)
    for moves in [(4, 4), (0, 9), (1, 1, 2)]:
        with pytest.raises(GameError):
            board_of_moves(moves)


def test_no_move_list_goes_on_after_a_win(one_order_each):
    won = [(cells, moves) for cells, moves in one_order_each.items() if winner_of(cells)]
    assert len(won) == 942  # every won position
    for cells, moves in won:
        game = Game.from_moves(ALICE, BOB, None, moves)
        assert game.is_over
        for index in empties(cells):
            with pytest.raises(GameError):
                Game.from_moves(ALICE, BOB, None, (*moves, index))
            with pytest.raises(GameError):
                game.play(divmod(index, 3))


def test_taken_cells_and_ended_games_refuse_moves(one_order_each):
    endings = list(Ending)
    for number, cells in enumerate(one_order_each):
        board = freeze_board(to_board(cells))
        game = Game(ALICE, BOB, None, board)
        for index, mark in enumerate(cells):
            if mark is not None or game.is_over:
                with pytest.raises(GameError):
                    game.play(divmod(index, 3))
        if game.is_over:  # ended on the board: it cannot also be resigned or expired
            for ending in endings:
                with pytest.raises(GameError):
                    Game(ALICE, BOB, None, board, None, ending)
        else:  # resigned or expired: no more moves
            ended = Game(ALICE, BOB, None, board, None, endings[number % len(endings)])
            with pytest.raises(GameError):
                ended.play(divmod(empties(cells)[0], 3))


def test_challenge_refuses_illegal_values():
    for challenger, opponent, mark in [
        (ALICE, ALICE, "X"),
        (ALICE, AI, "X"),
        (AI, BOB, "O"),
        (ALICE, BOB, "Z"),
        (ALICE, BIGGEST_ID + 1, "X"),
    ]:
        with pytest.raises(GameError):
            Challenge(challenger, opponent, mark)


def test_game_transitions():
    rng = random.Random(0)
    game = Game.start(AI, ALICE, "impossible", rng)
    assert sum(cell is not None for row in game.board for cell in row) == 1
    assert game.moves is not None
    assert len(game.moves) == 1
    assert game.player_to_move == ALICE
    with pytest.raises(GameError):
        game.resign(BOB)
    with pytest.raises(GameError):
        game.play(next((i, j) for i in range(3) for j in range(3) if game.board[i][j]))
    finished = game.resign(ALICE)
    assert finished.is_over
    assert finished.winner_id == AI
    with pytest.raises(GameError):
        finished.play((2, 2))
    with pytest.raises(GameError):
        finished.resign(ALICE)
    assert finished.expire() == finished
    assert game.expire().ending is Ending.EXPIRED
    assert game.expire().winner_id is None
    rematch = finished.rematch(rng)
    assert (rematch.x_player, rematch.o_player, rematch.difficulty) == (ALICE, AI, "impossible")
    assert rematch.board == ((None,) * 3,) * 3
    assert rematch.moves == ()
    assert Challenge(ALICE, BOB, ttt.O).accept() == Game(BOB, ALICE, moves=())
    assert Challenge(ALICE, BOB, ttt.X).accept() == Game(ALICE, BOB, moves=())


def test_the_bot_replies_at_once_and_only_on_its_turn():
    rng = random.Random(1)
    game = Game.start(ALICE, AI, "impossible", rng)
    assert game.moves == ()
    assert game.with_ai_reply(rng) == game  # alice's turn
    after = game.play((0, 0)).with_ai_reply(rng)
    assert after.moves == (0, 4)


def test_a_move_and_the_bots_reply_in_one_step_match_two_steps(one_order_each):
    """play(cell, ai_rng=...) builds the game after the bot's reply at once; it must be the game
    that playing and then replying gives, at every level, for every position and free cell."""
    for moves in one_order_each.values():
        for level in ttt.DIFFICULTIES:
            for human, ai_side in ((ALICE, AI), (AI, ALICE)):
                game = Game.from_moves(human, ai_side, level, moves)
                if game.is_over or game.player_to_move == AI:
                    continue
                for cell in [(i, j) for i in range(3) for j in range(3) if game.is_free((i, j))]:
                    seed = f"{moves}{level}{cell}"  # a str seed is the same in every run
                    one_step = game.play(cell, ai_rng=random.Random(seed))
                    two_steps = game.play(cell).with_ai_reply(random.Random(seed))
                    assert one_step == two_steps
                    assert one_step.is_over or one_step.player_to_move == ALICE


# ------------------------------------------------------------------------------ codec


def assert_round_trip(game: Game, every_button: bool = True) -> None:
    """The game comes back from its buttons' custom_ids (all, or one cell and one control)."""
    ids = ids_of(game)
    if not every_button:
        pick = sum(game.moves or ()) + len(game.moves or ())
        ids = [ids[pick % 9], ids[9 + pick % len(GAME_VERBS)]]
    for custom_id, verb, cell in ids:
        assert len(custom_id) <= codec.MAX_CUSTOM_ID_LENGTH
        assert codec.decode(custom_id) == codec.Click(game, codec.state_key(game), verb, cell)
    assert codec.decode_state(codec.state_key(game)) == game


PLAYERS = [
    (BIGGEST_ID, BOB, None, "en-US"),
    (AI, BIGGEST_ID, "easy", "es-419"),
    (ALICE, AI, "impossible", "pt-BR"),
]


def test_every_reachable_game_survives_its_custom_ids(one_order_each):
    """Every position, with the move list that reached it, through every button of its board
    (the players and language taking turns)."""
    for number, moves in enumerate(one_order_each.values()):
        x_player, o_player, level, locale = PLAYERS[number % len(PLAYERS)]
        assert_round_trip(Game.from_moves(x_player, o_player, level, moves, locale=locale))


def test_every_reachable_board_without_its_move_order_survives_its_custom_ids(one_order_each):
    for cells in one_order_each:
        game = Game(AI, BIGGEST_ID, "medium", freeze_board(to_board(cells)))
        assert game.moves is None
        assert_round_trip(game, every_button=False)


def test_endings_survive_their_custom_ids(one_order_each):
    endings = list(Ending)
    games_on = [moves for cells, moves in one_order_each.items() if not is_over(cells)]
    for number, moves in enumerate(games_on[::3]):
        ending = endings[number % len(endings)]
        assert_round_trip(Game.from_moves(BIGGEST_ID, AI, "hard", moves, ending))


def test_challenges_survive_their_custom_ids():
    for mark in (ttt.X, ttt.O):
        for locale in ("en-US", "de", "es-419"):
            challenge = Challenge(BIGGEST_ID, BOB, mark, locale)
            for verb in (Verb.ACCEPT, Verb.DECLINE):
                custom_id = codec.control_id(challenge, verb)
                assert len(custom_id) <= codec.MAX_CUSTOM_ID_LENGTH
                assert codec.decode(custom_id) == codec.Click(
                    challenge, codec.state_key(challenge), verb
                )
            assert codec.decode_state(codec.state_key(challenge)) == challenge


LEGACY_VERBS = {"r": Verb.RESIGN, "m": Verb.REMATCH}


def test_every_board_of_the_previous_version_still_decodes(one_order_each):
    """`ttt:<verb>:<board>:<x>:<o>:<level>:<ending>`: the order is unknown, the language English
    (the verbs and endings taking turns over the positions)."""
    verbs = [*map(str, range(9)), *LEGACY_VERBS]
    endings = [("-", None), *((ending.value, ending) for ending in Ending)]
    for number, cells in enumerate(one_order_each):
        code = "".join(cell or "-" for cell in cells)
        ending_code, ending = ("-", None) if is_over(cells) else endings[number % len(endings)]
        verb = verbs[number % len(verbs)]
        click = codec.decode(f"ttt:{verb}:{code}:{ALICE}:0:h:{ending_code}")
        assert click.state == Game(ALICE, AI, "hard", freeze_board(to_board(cells)), None, ending)
        assert click.state.moves is None
        assert click.state.locale == "en-US"
        assert click.key == codec.state_key(click.state)  # what memory holds for it
        if verb.isdigit():
            assert (click.verb, click.cell) == (Verb.CELL, divmod(int(verb), 3))
        else:
            assert click.verb is LEGACY_VERBS[verb]


def test_challenges_of_the_previous_version_still_decode():
    click = codec.decode(f"ttt:a:{ALICE}:{BOB}:O")
    challenge = Challenge(ALICE, BOB, ttt.O)
    assert click == codec.Click(challenge, codec.state_key(challenge), Verb.ACCEPT)
    assert codec.decode(f"ttt:d:{ALICE}:{BOB}:X").verb is Verb.DECLINE


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "ttt:",
        "ttt2:",
        "ttt:0:---------:1:0:i",  # a field missing
        "ttt:0:---------:1:0:x:-",  # unknown level
        "ttt:0:--------:1:0:i:-",  # 8 cells
        "ttt:0:---------:1:0:i:-:extra",
        "ttt:0:OO-------:1:0:i:-",  # O moved first
        "ttt:0:XXXOO-OO-:1:0:i:-",  # both sides have three in a row
        "ttt:m:XXXOO----:1:0:i:x",  # won on the board and also resigned
        f"ttt:0:---------:{2**64}:0:i:-",  # not a snowflake
        "ttt:0:---------:5:5:-:-",  # one person on both sides
        "ttt:0:---------:0:5:-:-",  # the bot plays, but no level
        "ttt:0:---------:4:5:i:-",  # two people, but a level
        "ttt:h:---------:4:0:i:-",  # the previous version had no hint
        "ttt:a:5:5:X",
        "ttt:d:0:5:O",
        "ttt:a:5:6:Z",
        "ttt:0:---------:1:0:i:-" + "9" * 100,
        "ttt2:0:m44:1:0:i:-:en-US",  # a cell played twice
        "ttt2:0:m9:1:0:i:-:en-US",  # no such cell
        "ttt2:0:m0314256:1:0:i:-:en-US",  # play went on after X won
        "ttt2:0:m03142:1:0:i:x:en-US",  # won on the board and also resigned
        "ttt2:0:m:1:1:-:-:en-US",  # one person on both sides
        "ttt2:0:m:1:0:-:-:en-US",  # the bot plays, but no level
        "ttt2:0:m:1:2:i:-:en-US",  # two people, but a level
        "ttt2:0:m:1:0:i:-",  # no locale
        "ttt2:0:m:1:0:i:-:english",
        "ttt2:0:bOO-------:1:0:i:-:en-US",  # O moved first
        "ttt2:0:b--------:1:0:i:-:en-US",  # 8 cells
        "ttt2:a:m:1:0:i:-:en-US",  # accept on a board
        "ttt2:y:1:2:X:en-US",  # resign on a challenge
        "ttt2:k:1:2:X:en-US",  # the resign question's Cancel on a challenge
        "ttt:k:---------:1:0:i:-",  # the previous version had no Cancel
        "ttt2:a:1:1:X:en-US",  # a challenge to oneself
        "ttt2:a:1:0:X:en-US",  # a challenge to the bot
        f"ttt2:0:m:{2**64}:0:i:-:en-US",
        "ttt2:0:m:01:0:i:-:en-US",  # a user id str() never writes
        "ttt2:0:m:\u0661:0:i:-:en-US",  # a digit, but not an ASCII one
        "ttt2:0:m:1:0:i:-:en-US" + "0" * 80,
    ],
)
def test_malformed_or_impossible_ids_are_rejected(custom_id):
    with pytest.raises(codec.CodecError):
        codec.decode(custom_id)


def test_the_longest_custom_id_fits():
    moves = (0, 1, 2, 4, 3, 5, 7, 6, 8)  # a full board, drawn
    game = Game.from_moves(BIGGEST_ID, BIGGEST_ID - 1, None, moves, locale="es-419")
    assert game.is_over
    assert game.winner_mark is None
    assert max(len(custom_id) for custom_id, _, _ in ids_of(game)) <= 100


# ------------------------------------------------------------------------------ render


def card_payload(card) -> dict:
    return {"components": card_view(card).to_components()}


def card_limit_problems(card) -> list[str]:
    """Discord's limits, counted on the render values (card_view is checked on a sample)."""
    buttons = [*(b for row in card.rows for b in row), *card.controls]
    # the container, two texts, a separator before the cells and one before the controls
    count = 5 + len(card.rows) + bool(card.controls) + len(buttons)
    ids = [b.custom_id for b in buttons]
    problems = []
    if count > 40:
        problems.append(f"{count} components")
    if len(card.heading) + len(card.body) > 4000:
        problems.append("too much text")
    if len(set(ids)) != len(ids) or max(map(len, ids), default=0) > 100:
        problems.append("custom_ids")
    if any(len(row) > 5 for row in (*card.rows, card.controls)):
        problems.append("a row of more than 5")
    return problems


def expected_result(game: Game, cells, names) -> str:
    x_name, o_name = names
    won_by = winner_of(cells)
    if won_by:
        winner = x_name if won_by == "X" else o_name
        return f"🏆 **{winner} wins** with three in a row!"
    if is_over(cells):
        return "🤝 **Draw:** nobody can win any more."
    to_move = x_name if mover(cells) == "X" else o_name
    return f"▶️ {to_move} to move ({mover(cells)}). Time runs out <t:{DEADLINE}:R>."


def check_board_card(game: Game, cells, names, *, bot: bool) -> None:
    card = render_game(game, BOT_ID, DEADLINE)
    won_by = winner_of(cells)
    line = {k for three in WIN_LINES if {cells[k] for k in three} == {won_by} for k in three}
    assert len(card.rows) == 3
    for i, row in enumerate(card.rows):
        assert len(row) == 3
        for j, button in enumerate(row):
            mark = cells[i * 3 + j]
            assert button.label == (mark or BLANK)
            won = won_by is not None and (i * 3 + j) in line
            assert button.style == (discord.ButtonStyle.success.value if won else CELL_STYLE[mark])
    over = is_over(cells)
    labels = [button.label for button in card.controls]
    assert labels == (["Rematch", "Review"] if over else ["Hint", "Resign"] if bot else ["Resign"])
    lines = card.body.split("\n")
    if game.moves:
        index = game.moves[-1]
        assert lines.pop(0) == last_move(cells[index], divmod(index, 3))
    assert lines == [expected_result(game, cells, names)]
    accent = GREEN if won_by else GREY if over else RED if mover(cells) == "X" else BLURPLE
    assert card.accent == accent
    assert not card_limit_problems(card)


def test_render_shows_every_reachable_game_as_users_should_see_it(one_order_each):
    for moves in one_order_each.values():
        game = Game.from_moves(ALICE, BOB, None, moves)
        check_board_card(game, cells_of(game), (f"<@{ALICE}>", f"<@{BOB}>"), bot=False)


def test_render_against_the_bot_over_every_third_position(one_order_each):
    for number, moves in enumerate(one_order_each.values()):
        if number % 3:
            continue
        game = Game.from_moves(AI, BIGGEST_ID, "medium", moves)
        check_board_card(game, cells_of(game), (f"<@{BOT_ID}>", f"<@{BIGGEST_ID}>"), bot=True)
        assert render_game(game, BOT_ID).heading == (
            f"## Tic-Tac-Toe\n🟥 **X** <@{BOT_ID}> · Difficulty: Medium\n🟦 **O** <@{BIGGEST_ID}>"
        )
        if number % 75 == 0 or len(moves) == 9:  # through discord.py, on a sample
            assert not payload_problems(card_payload(render_game(game, BOT_ID, DEADLINE)))


def test_every_last_move_is_named(orders):
    """Over every (position, last move) up to four marks: the status names the move."""
    for (cells, last), moves in orders.items():
        if last is None or len(moves) > 4:
            continue
        body = render_game(Game.from_moves(ALICE, BOB, None, moves), BOT_ID).body
        i, j = divmod(last, 3)
        assert body.split("\n")[0] == f"Last move: **{cells[last]}** → {CELL_NAMES[i][j]}."


def test_the_heading_names_players_marks_and_level():
    levels = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "impossible": "Impossible"}
    for level, name in levels.items():
        assert render_game(Game(ALICE, AI, level, moves=()), BOT_ID).heading == (
            f"## Tic-Tac-Toe\n🟥 **X** <@{ALICE}>\n🟦 **O** <@{BOT_ID}> · Difficulty: {name}"
        )
    assert render_game(Game(ALICE, BOB, moves=()), BOT_ID).heading == (
        f"## Tic-Tac-Toe\n🟥 **X** <@{ALICE}>\n🟦 **O** <@{BOB}>"
    )


def test_resigned_expired_and_retired_boards():
    game = Game.from_moves(ALICE, AI, "hard", (4, 0))
    resigned = render_game(game.resign(ALICE), BOT_ID)
    assert resigned.body == (
        f"{last_move('O', (0, 0))}\n🏳️ <@{ALICE}> resigned: **<@{BOT_ID}> wins.**"
    )
    assert resigned.accent == GREEN
    assert [b.label for b in resigned.controls] == ["Rematch", "Review"]
    expired = render_expired(game, BOT_ID)
    assert expired.body == (
        f"{last_move('O', (0, 0))}\n⏱️ <@{ALICE}> ran out of time: **<@{BOT_ID}> wins.**"
    )
    assert expired.accent == GREEN
    assert [b.label for b in expired.controls] == ["Rematch", "Review"]
    retired = render_game(game.resign(ALICE), BOT_ID, retired=True)
    assert retired.body == f"{resigned.body}\n🔁 A rematch started below."
    assert [b.label for b in retired.controls] == ["Review"]


def test_boards_of_unknown_move_order_show_no_last_move_and_no_review():
    board = board_of_moves((4, 0, 8))
    game = Game(ALICE, BOB, None, board)
    assert render_game(game, BOT_ID, DEADLINE).body == (
        f"▶️ <@{BOB}> to move (O). Time runs out <t:{DEADLINE}:R>."
    )
    assert [b.label for b in render_game(game, BOT_ID).controls] == ["Resign"]
    assert [b.label for b in render_game(game, BOT_ID, retired=True).controls] == ["Resign"]
    finished = [render_game(game.expire(), BOT_ID), render_game(game.resign(BOB), BOT_ID)]
    for card in finished:
        assert [b.label for b in card.controls] == ["Rematch"]  # a rematch needs no order
    retired = render_game(game.expire(), BOT_ID, retired=True)
    assert retired.controls == ()


def test_challenge_card_pings_only_the_opponent():
    card = render_challenge(Challenge(ALICE, BOB, ttt.O), DEADLINE)
    assert card.pings == (BOB,)
    assert card.heading == "## ⚔️ Tic-Tac-Toe challenge"
    assert card.body == (
        f"<@{BOB}>, <@{ALICE}> challenges you! <@{ALICE}> plays **O**, you play **X**. "
        f"**X** moves first.\n⏳ The challenge closes <t:{DEADLINE}:R>."
    )
    assert [(b.label, b.style) for b in card.controls] == [
        ("Accept", discord.ButtonStyle.success.value),
        ("Decline", discord.ButtonStyle.danger.value),
    ]
    assert not payload_problems(card_payload(card))
    declined = render_challenge_declined(Challenge(ALICE, BOB, ttt.X))
    assert declined.body == f"<@{BOB}> declined <@{ALICE}>'s challenge."
    assert (declined.controls, declined.pings) == ((), ())
    expired = render_challenge_expired(Challenge(ALICE, BOB, ttt.X))
    assert expired.body == f"⏱️ <@{BOB}> did not answer <@{ALICE}>'s challenge in time."
    assert (expired.controls, expired.pings) == ((), ())


def test_discord_gets_the_cells_the_card_describes(one_order_each):
    """Tests read a board's buttons from `card.rows`; the JSON Discord gets is built from the
    card's Cells directly. The two agree on every position."""
    action_row = discord.ComponentType.action_row.value
    for moves in one_order_each.values():
        card = render_game(Game.from_moves(ALICE, AI, "hard", moves), BOT_ID, DEADLINE)
        (container,) = components.card_components(card)
        cell_rows = [part for part in container["components"] if part["type"] == action_row][:3]
        assert cell_rows == [
            {"type": action_row, "components": [components.button(spec) for spec in row]}
            for row in card.rows
        ]


def test_a_card_is_one_container_with_its_accent():
    game = Game.from_moves(ALICE, BOB, None, (0, 3, 1, 4, 2))
    (container,) = card_payload(render_game(game, BOT_ID))["components"]
    assert container["type"] == 17
    assert container["accent_color"] == GREEN
    kinds = [component["type"] for component in container["components"]]
    assert kinds == [10, 10, 14, 1, 1, 1, 14, 1]  # texts, a separator, the cells, the controls


def test_the_views_numbers_are_discords():
    """bot/view speaks Discord's numbers without importing discord: they are discord.py's."""
    assert {style.name.lower(): int(style) for style in Style} == {
        name: discord.ButtonStyle[name].value
        for name in ("primary", "secondary", "success", "danger")
    }
    assert (
        discord.ComponentType.action_row.value,
        discord.ComponentType.button.value,
        discord.ComponentType.text_display.value,
    ) == (components.ACTION_ROW, components.BUTTON, components.TEXT_DISPLAY)
    assert (
        discord.ComponentType.separator.value,
        discord.ComponentType.container.value,
    ) == (components.SEPARATOR, components.CONTAINER)
    assert discord.SeparatorSpacing.small.value == components.SPACING_SMALL
    assert discord.MessageFlags(components_v2=True).value == components.COMPONENTS_V2_FLAG
    assert tuple(locale.value for locale in discord.Locale) == i18n.LOCALES
