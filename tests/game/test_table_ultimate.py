"""The table seats the ultimate board with the flows it has for the classic one: the picker and
its Back, a bot that thinks in a worker process after the click's answer and shows its move by
token, a restart while it thought, a pool that fails, hints answered after "thinking...", a game
between two people played to its end and announced with its kind and its moves."""

import asyncio
import random

import pytest

from bot.core.codec import Verb
from bot.core.game import AI, Ending
from bot.core.live import seat_of
from bot.core.ultimate_game import UltimateGame
from bot.kinds.classic import CLASSIC
from bot.kinds.ultimate import codec
from bot.kinds.ultimate.kind import Ultimate
from bot.kinds.ultimate.thinking import Thinkers
from bot.view.cards import Card
from tests.game.test_table import (
    ALICE,
    BOB,
    CHANNEL,
    FakeDoor,
    editor_of,
    make_table,
    request,
)
from tictactoe import ultimate


@pytest.fixture
async def thinkers():
    pool = Thinkers(1)
    yield pool
    await pool.close()


@pytest.fixture
def kind(thinkers):
    return Ultimate(thinkers)


@pytest.fixture
def table(kind):
    return make_table(kinds=(CLASSIC, kind), wall_clock=lambda: 1_700_000_100.0)


def ids_of(card: Card) -> list[str]:
    cells = list(card.cells.custom_ids) if card.cells else []
    return cells + [button.custom_id for button in card.controls]


def game_of(card: Card, table=None) -> UltimateGame:
    """The game a card's buttons carry; with `table`, as its kind decodes it (with the moves it
    saw played)."""
    decode = codec.decode if table is None else table._kind_named["ultimate"].decode
    state = decode(ids_of(card)[0]).state
    assert isinstance(state, UltimateGame)
    return state


def enabled(card: Card, verb: str) -> list[str]:
    """The custom_ids of the card's buttons of one verb prefix ("p": the picker, "0"-"8": cells)."""
    return [custom_id for custom_id in ids_of(card) if custom_id.split(":")[1].startswith(verb)]


async def start(table, user=ALICE, play_as="X", opponent=None):
    door = FakeDoor()
    await table.start(request(user), door, opponent, play_as, "medium", "ultimate")
    ((what, card),) = door.answers
    assert what == "post"
    return card, door.message_id


async def click(table, user, card, message_id, custom_id, token="tok2"):
    door = FakeDoor()
    clicked = request(user, message=(message_id, ids_of(card)), custom_id=custom_id, token=token)
    await table.click(clicked, door, custom_id)
    return door.answers


async def bot_moved(table) -> Card:
    """The bot's move, thought out in the background and shown by token: its card."""
    await asyncio.gather(*table._background)
    *_, (_, _, card) = editor_of(table).edits
    return card


async def test_the_picker_opens_a_board_goes_back_and_a_cell_plays_then_the_bot_replies(table):
    card, message_id = await start(table)
    game = game_of(card, table)
    assert game.moves == ()
    assert game.shown_board is None
    picks = enabled(card, "p")
    assert len(picks) == 9
    ((what, opened),) = await click(table, ALICE, card, message_id, picks[4])
    assert what == "update"
    assert game_of(opened).picked == 4
    back = codec.control_id(codec.key(game_of(opened)), Verb.BACK)
    assert back in ids_of(opened)
    ((what, again),) = await click(table, ALICE, opened, message_id, back, token="tok3")
    assert what == "update"
    assert game_of(again).picked is None
    ((_, opened),) = await click(table, ALICE, again, message_id, picks[4], token="tok4")
    cell = codec.cell_id(codec.key(game_of(opened)), 0)
    ((what, played),) = await click(table, ALICE, opened, message_id, cell, token="tok5")
    assert what == "update"
    assert game_of(played).last_move == (4, 0)
    assert game_of(played).player_to_move == AI  # answered before the bot thinks
    moved = await bot_moved(table)
    after = game_of(moved, table)
    assert after.position.last is not None
    assert after.position.last[0] == 0
    assert after.moves == (36, 9 * after.position.last[0] + after.position.last[1])
    live = table.store.get(seat_of(CHANNEL, after.players))
    assert live is not None
    assert live.key == codec.key(after)
    assert live.token == "tok5"  # the move's own token showed the bot's reply


async def test_the_bot_opens_as_x_after_the_answer(table):
    card, _ = await start(table, play_as="O")
    assert game_of(card, table).moves == ()
    moved = game_of(await bot_moved(table), table)
    assert moved.moves is not None
    assert len(moved.moves) == 1
    assert moved.player_to_move == ALICE


async def test_a_click_while_the_bot_thinks_is_not_a_turn(table):
    card, message_id = await start(table)
    ((_, opened),) = await click(table, ALICE, card, message_id, enabled(card, "p")[0])
    cell = codec.cell_id(codec.key(game_of(opened)), 4)
    ((_, played),) = await click(table, ALICE, opened, message_id, cell, token="tok3")
    hint = codec.control_id(codec.key(game_of(played)), Verb.HINT)
    assert hint in ids_of(played)
    ((what, reply),) = await click(table, ALICE, played, message_id, hint, token="tok4")
    assert what == "tell"
    assert "turn" in reply.text
    await bot_moved(table)


async def test_a_restart_while_the_bot_thought_resumes_it_on_the_next_click(kind):
    position = ultimate.result(ultimate.initial_state(), (4, 4))
    shown = UltimateGame(ALICE, AI, "easy", position)  # the bot to move, then the restart
    restarted = make_table(kinds=(CLASSIC, kind), wall_clock=lambda: 1_700_000_100.0)
    custom_id = codec.control_id(codec.key(shown), Verb.RESIGN).replace(":r:", ":0:", 1)
    door = FakeDoor()
    clicked = request(ALICE, message=(7000, [custom_id]), custom_id=custom_id)
    await restarted.click(clicked, door, custom_id)
    ((what, _card),) = door.answers
    assert what == "update"  # the board redrawn by this click's token, the bot thinking
    moved = game_of(await bot_moved(restarted))
    assert moved.position.last is not None
    assert moved.position.last[0] == 4
    assert moved.player_to_move == ALICE


async def test_a_closed_pool_still_gets_a_move_from_the_bot(thinkers, kind):
    await thinkers.close()
    game = UltimateGame(ALICE, AI, "impossible", ultimate.result(ultimate.initial_state(), (0, 0)))
    replied = await kind.bot_reply(game, random.Random(1))
    assert replied.player_to_move == ALICE
    assert replied.position.last is not None
    assert replied.position.last[0] == 0


async def test_a_hint_answers_thinking_first_then_the_move(table):
    card, message_id = await start(table)
    hint = codec.control_id(codec.key(game_of(card)), Verb.HINT)
    answers = await click(table, ALICE, card, message_id, hint)
    assert [what for what, _ in answers] == ["think_privately", "follow_up_privately"]
    assert answers[1][1].text


async def test_two_people_play_to_the_end_and_the_game_is_announced_with_its_moves(table):
    door = FakeDoor()
    await table.start(request(ALICE), door, (BOB, False), "X", None, "ultimate")
    ((_, posted),) = door.answers
    assert isinstance(posted, Card)
    card = posted
    message_id = door.message_id
    accept = next(i for i in ids_of(card) if i.startswith("ut1:a:"))
    ((_, card),) = await click(table, BOB, card, message_id, accept)
    rng = random.Random(5)
    turn = 0
    while not game_of(card).is_over:
        game = game_of(card)
        player = game.player_to_move
        if game.shown_board is None:
            picked = rng.choice(game.playable_boards)
            pick = codec.pick_id(codec.key(game), picked)
            ((_, card),) = await click(table, player, card, message_id, pick, token=f"p{turn}")
            game = game_of(card)
        board = game.shown_board
        cells = [c for b, c in ultimate.actions(game.position) if b == board]
        cell = codec.cell_id(codec.key(game), rng.choice(sorted(cells)))
        ((what, card),) = await click(table, player, card, message_id, cell, token=f"c{turn}")
        assert what == "update"
        turn += 1
    (finished,) = table.finished
    assert finished.kind == "ultimate"
    assert finished.game_id == message_id
    assert finished.game.moves is not None
    assert len(finished.game.moves) == turn
    assert not table.store


async def test_a_rematch_the_bot_opens_gets_its_move(table, kind):
    position = ultimate.initial_state()
    for action in ((4, 4), (4, 0), (0, 4), (4, 8), (8, 4), (4, 1), (1, 4), (4, 2)):
        position = ultimate.result(position, action)
    lost = UltimateGame(ALICE, AI, "easy", position, Ending.X_RESIGNED)
    key = kind.key(lost)
    rematch = codec.control_id(key, Verb.REMATCH)
    door = FakeDoor()
    clicked = request(ALICE, message=(7000, [rematch]), custom_id=rematch)
    await table.click(clicked, door, rematch)
    assert [what for what, _ in door.answers] == ["update", "follow_up"]
    (_, posted) = door.answers[1]
    assert isinstance(posted, Card)
    assert game_of(posted).x_player == AI  # marks swapped: the bot opens
    moved = game_of(await bot_moved(table))
    assert moved.player_to_move == ALICE


async def test_opening_boards_does_not_put_off_the_timeout(table):
    card, message_id = await start(table)
    seat = seat_of(CHANNEL, game_of(card).players)
    deadline = table.store.get(seat).deadline
    table.clock.now += 100
    ((_, opened),) = await click(table, ALICE, card, message_id, enabled(card, "p")[2])
    assert table.store.get(seat).deadline == deadline
    back = codec.control_id(codec.key(game_of(opened)), Verb.BACK)
    table.clock.now += 100
    await click(table, ALICE, opened, message_id, back, token="tok3")
    assert table.store.get(seat).deadline == deadline
