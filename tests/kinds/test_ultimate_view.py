"""What a user sees of an ultimate board: whose turn and where, the last move by board then cell,
one 3x3 grid (the forced or picked board's cells, or the board picker) whose buttons decode back to
what they say, Back only after a pick, Hint only against the bot, nothing clickable at the end, a
result line for every ending, and a card Discord accepts."""

import random

from bot.core.codec import Verb
from bot.core.game import AI, Challenge
from bot.core.ultimate_game import UltimateGame
from bot.kinds.ultimate import codec, view
from bot.view import components
from bot.view.cards import Card
from fake_discord import validate_message
from tictactoe import ultimate

BOT_ID = 999
ALICE, BOB = 111, 222
DEADLINE = 1_700_000_000


def after(
    *moves: tuple[int, int], players: tuple[int, int, str | None] = (ALICE, BOB, None)
) -> UltimateGame:
    """A game after `moves` (board, cell), played by the engine's own rules."""
    state = ultimate.initial_state()
    for move in moves:
        state = ultimate.result(state, move)
    x_player, o_player, level = players
    flat = tuple(9 * board + cell for board, cell in moves)
    return UltimateGame(x_player, o_player, level, state, moves=flat)


def playout(seed: int) -> UltimateGame:
    rng = random.Random(seed)
    state = ultimate.initial_state()
    moves = []
    while not ultimate.terminal(state):
        move = rng.choice(sorted(ultimate.actions(state)))
        moves.append(9 * move[0] + move[1])
        state = ultimate.result(state, move)
    return UltimateGame(ALICE, BOB, None, state, moves=tuple(moves))


def enabled_grid(card: Card) -> list[str]:
    assert card.cells is not None
    disabled = card.cells.disabled or (False,) * 9
    return [cid for cid, off in zip(card.cells.custom_ids, disabled, strict=True) if not off]


def control_verbs(card: Card) -> list[Verb]:
    return [codec.decode(button.custom_id).verb for button in card.controls]


def accepted_by_discord(card: Card) -> None:
    message = {
        "flags": components.COMPONENTS_V2_FLAG,
        "components": components.card_components(card),
    }
    assert validate_message(message)


def test_a_forced_board_shows_its_cells_and_each_decodes_to_its_cell():
    game = after((0, 4))  # O must play in the centre board
    card = view.render(game, BOT_ID, DEADLINE)
    assert "Last move: **X** → top left board, centre." in card.body
    assert "Play in the **centre** board." in card.body
    assert f"<t:{DEADLINE}:R>" in card.body
    assert card.cells is not None
    assert len(card.cells.custom_ids) == 9
    for cell, custom_id in enumerate(card.cells.custom_ids):
        click = codec.decode(custom_id)
        assert click.state == game
        assert click.cell == (4, cell)


def test_taken_cells_of_the_shown_board_are_disabled_and_show_their_mark():
    game = after((4, 0), (0, 4), (4, 4))  # O to play in the centre board, X holds two cells
    assert game.forced_board == 4
    card = view.render(game, BOT_ID, DEADLINE)
    assert card.cells is not None
    assert card.cells.labels[0] == "X"
    assert card.cells.labels[4] == "X"
    taken = {0, 4}
    enabled = {codec.decode(cid).cell for cid in enabled_grid(card)}
    assert enabled == {(4, cell) for cell in range(9) if cell not in taken}


def test_a_free_move_shows_the_board_picker_then_back_after_a_pick():
    game = after(players=(ALICE, AI, "easy"))  # X's first move is free
    card = view.render(game, BOT_ID, DEADLINE)
    assert "pick a board, then a cell" in card.body
    picks = [codec.decode(cid) for cid in enabled_grid(card)]
    assert [(click.verb, click.board) for click in picks] == [(Verb.PICK, b) for b in range(9)]
    assert Verb.BACK not in control_verbs(card)
    picked = game.picking(6)
    card = view.render(picked, BOT_ID, DEADLINE)
    assert "Pick a cell of the **bottom left** board, or go Back" in card.body
    assert {codec.decode(cid).cell for cid in enabled_grid(card)} == {(6, c) for c in range(9)}
    assert control_verbs(card) == [Verb.BACK, Verb.HINT, Verb.RESIGN]
    accepted_by_discord(card)


def test_the_picker_disables_closed_boards():
    game = next(g for g in free_moves_with_closed_boards())
    card = view.render(game, BOT_ID, DEADLINE)
    assert card.cells is not None
    closed = [b for b, winner in enumerate(game.small_winners) if winner is not None]
    assert all(card.cells.labels[b] in {"X", "O", "="} for b in closed)
    assert {codec.decode(cid).board for cid in enabled_grid(card)} == set(game.playable_boards)
    assert not set(closed) & set(game.playable_boards)


def free_moves_with_closed_boards():
    """Games from random playouts, stopped at a free move once some small board is closed."""
    for seed in range(100):
        rng = random.Random(seed)
        state = ultimate.initial_state()
        while not ultimate.terminal(state):
            game = UltimateGame(ALICE, BOB, None, state)
            if game.forced_board is None and any(game.small_winners):
                yield game
                break
            state = ultimate.result(state, rng.choice(sorted(ultimate.actions(state))))


def test_the_bots_turn_says_it_thinks_and_offers_no_cell():
    game = after((0, 4), players=(ALICE, AI, "hard"))
    card = view.render(game, BOT_ID, DEADLINE)
    assert "is thinking" in card.body
    assert enabled_grid(card) == []


def test_hint_only_against_the_bot():
    people = view.render(after(players=(ALICE, BOB, None)), BOT_ID, DEADLINE)
    assert control_verbs(people) == [Verb.RESIGN]
    bot = view.render(after(players=(ALICE, AI, "easy")), BOT_ID, DEADLINE)
    assert control_verbs(bot) == [Verb.HINT, Verb.RESIGN]


def test_every_finished_game_offers_no_grid_button_and_names_its_result():
    finished = [playout(seed) for seed in range(12)]
    assert {game.winner_mark for game in finished} >= {"X", "O"}
    for game in finished:
        card = view.render(game, BOT_ID, DEADLINE)
        assert enabled_grid(card) == []
        assert control_verbs(card) == [Verb.REMATCH, Verb.REVIEW]
        assert "<t:" not in card.body
        if game.winner_mark is None:
            assert "every board is closed" in card.body
        else:
            assert f"<@{game.winner_id}> wins** with three boards in a row" in card.body
        accepted_by_discord(card)


def test_a_draw_says_so():
    draws = [g for g in (playout(seed) for seed in range(200)) if g.winner_mark is None]
    assert draws, "200 random playouts hold a draw"
    card = view.render(draws[0], BOT_ID, None)
    assert "🤝 **Draw:** every board is closed" in card.body


def test_resigned_expired_and_retired():
    game = after((0, 4), (4, 0), players=(ALICE, BOB, None))
    resigned = view.render(game.resign(ALICE), BOT_ID, DEADLINE)
    assert enabled_grid(resigned) == []
    assert f"<@{ALICE}> resigned: **<@{BOB}> wins.**" in resigned.body
    expired = view.render_expired(game, BOT_ID)
    assert enabled_grid(expired) == []
    assert f"<@{ALICE}> ran out of time: **<@{BOB}> wins.**" in expired.body
    retired = view.render_retired(game.resign(BOB), BOT_ID)
    assert control_verbs(retired) == [Verb.REVIEW]


def test_the_picture_and_its_alt_text():
    game = after((0, 4), (4, 8))
    card = view.render(game, BOT_ID, DEADLINE)
    assert card.picture is not None
    assert card.picture.data.startswith(b"\x89PNG")
    assert "Last move: centre board, bottom right." in card.picture.description


def test_the_last_move_line_in_other_languages():
    game = after((0, 4))
    french = view.render(
        UltimateGame(ALICE, AI, "medium", game.position, locale="fr"), BOT_ID, None
    )
    assert "Dernier coup\xa0: **X** → grille en haut à gauche, case au centre." in french.body
    german = view.render(
        UltimateGame(ALICE, AI, "medium", game.position, locale="de"), BOT_ID, None
    )
    assert "Letzter Zug: **X** → Spielfeld" in german.body
    japanese = view.render(
        UltimateGame(ALICE, AI, "medium", game.position, locale="ja"), BOT_ID, None
    )
    assert "最後の手\uff1a**X** →" in japanese.body


def test_a_challenge_says_it_is_ultimate_and_its_buttons_decode():
    challenge = Challenge(ALICE, BOB, "X", "en-US", variant="ultimate")
    card = view.render(challenge, BOT_ID, DEADLINE)
    assert "Ultimate Tic-Tac-Toe" in card.heading
    assert control_verbs(card) == [Verb.ACCEPT, Verb.DECLINE]
    assert "Ultimate Tic-Tac-Toe" in view.render_declined(challenge).heading
    assert "Ultimate Tic-Tac-Toe" in view.render_expired(challenge, BOT_ID).heading
    accepted_by_discord(card)


def test_a_private_card_carries_the_notice():
    card = view.render(after(), BOT_ID, DEADLINE)
    private = view.render_private(card, "en-US")
    assert private != card
    assert private.cells == card.cells
