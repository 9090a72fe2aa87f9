"""The table driven without Discord: its flows through fakes of its two protocols (a Door per
interaction, an Editor by token), as any capability (tournaments, a new kind of board) will
drive it. What a user sees is checked on the cards and replies the fakes receive."""

import asyncio
import random
from typing import Any

import pytest

import tictactoe as ttt
from bot.core import codec
from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Game
from bot.core.live import seat_of
from bot.door import Request, Shown
from bot.game.table import Table
from bot.kinds.classic import Classic
from bot.view.cards import Card, Reply

CHANNEL, GUILD = 500, 42
ALICE, BOB, BOT = 111111111111111111, 222222222222222222, 999999999999999999
TIMEOUT = 600


class FakeDoor:
    """One interaction's answers, written down."""

    def __init__(self, message_id: int = 7000) -> None:
        self.answers: list[tuple[str, Card | Reply]] = []
        self.message_id = message_id

    async def post(self, card, *, private):
        self.answers.append(("post", card))
        return self.message_id

    async def update(self, card):
        self.answers.append(("update", card))

    async def tell(self, reply):
        self.answers.append(("tell", reply))

    async def rewrite(self, reply):
        self.answers.append(("rewrite", reply))

    async def think_privately(self):
        self.answers.append(("think_privately", Reply("")))

    async def follow_up(self, card, *, private):
        self.answers.append(("follow_up", card))
        return self.message_id + 1

    async def follow_up_privately(self, reply):
        self.answers.append(("follow_up_privately", reply))
        return self.message_id + 2


class FakeEditor:
    def __init__(self) -> None:
        self.edits: list[tuple[str, int, Card]] = []
        self.texts: list[tuple[str, int, str]] = []
        self.posts: list[tuple[int, Card]] = []
        self.channel_edits: list[tuple[int, int, Card]] = []

    async def edit(self, token, message_id, card):
        self.edits.append((token, message_id, card))

    async def edit_text(self, token, message_id, text):
        self.texts.append((token, message_id, text))

    async def custom_ids(self, token, message_id):
        raise AssertionError("no edit of unknown fate here")

    async def post_in_channel(self, channel_id, card):
        self.posts.append((channel_id, card))
        return 9000 + len(self.posts)

    async def edit_in_channel(self, channel_id, message_id, card):
        self.channel_edits.append((channel_id, message_id, card))


class Clock:
    now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def table():
    return make_table()


def make_table(**options: Any) -> Table:
    """A table with fakes of its door's side; `finished`: what the records would hear."""
    finished: list[FinishedGame] = []
    table = Table(
        FakeEditor(),
        rng=random.Random(0),
        turn_timeout=TIMEOUT,
        clock=Clock(),
        bot_id=lambda: BOT,
        announce=finished.append,
        **options,
    )
    table.finished = finished  # type: ignore[attr-defined]  # what the records would hear
    return table


def request(user=ALICE, *, message=None, custom_id=None, token="tok"):
    shown = None
    if message is not None:
        message_id, ids = message
        shown = Shown(message_id, custom_id in ids, 1_700_000_000.0, False)
    return Request(user, "en-US", token, 1_700_000_001.0, GUILD, CHANNEL, "server", False, shown)


def editor_of(table: Table) -> Any:
    return table.delivery.editor


def shown_game(card: Any) -> Any:
    """The game a card's cells carry (as a player's client would send it back)."""
    return codec.decode(card.cells.custom_ids[0]).state


def ids_of(card: Card) -> list[str]:
    cells = list(card.cells.custom_ids) if card.cells else []
    return cells + [b.custom_id for b in card.controls]


async def start(table, user=ALICE, opponent=None):
    door = FakeDoor()
    await table.start(request(user), door, opponent, "X", "impossible")
    ((what, card),) = door.answers
    assert what == "post"
    return card, door.message_id


async def click(table, user, card, message_id, custom_id, token="tok2"):
    door = FakeDoor()
    clicked = request(user, message=(message_id, ids_of(card)), custom_id=custom_id, token=token)
    await table.click(clicked, door, custom_id)
    return door.answers


async def test_a_game_against_the_bot_is_played_to_the_end_through_the_door(table):
    card, message_id = await start(table)
    assert len(table.store) == 1
    while True:
        game = shown_game(card)
        if game.is_over:
            break
        cell = min(ttt.actions(game.board))
        custom_id = codec.cell_id(game, cell)
        ((what, card),) = await click(table, ALICE, card, message_id, custom_id)
        assert what == "update"
    assert len(table.store) == 0
    (finished,) = table.finished
    assert finished.game_id == message_id
    assert finished.kind == "classic"
    assert finished.place is Place.SERVER
    assert finished.game.winner_id in (AI, None)  # the bot never loses


async def test_a_click_with_an_id_not_on_its_message_is_refused_and_changes_nothing(table):
    card, message_id = await start(table)
    game = shown_game(card)
    not_on_it = codec.cell_id(game.play((0, 0)), (2, 2))  # a later board's cell
    door = FakeDoor()
    clicked = request(ALICE, message=(message_id, ids_of(card)), custom_id=not_on_it)
    await table.click(clicked, door, not_on_it)
    ((what, reply),) = door.answers
    assert what == "tell"
    assert reply.text.startswith("This button is not valid.")
    live = table.store.get(seat_of(CHANNEL, game.players))
    assert live is not None
    assert live.key == codec.state_key(game)


async def test_resigning_asks_then_edits_the_board_by_token_and_announces(table):
    card, message_id = await start(table)
    game = shown_game(card)
    resign_id = codec.control_id(game, codec.Verb.RESIGN)
    (redrawn, (asked, question)) = await click(table, ALICE, card, message_id, resign_id)
    assert redrawn[0] == "update"
    assert asked == "follow_up_privately"
    confirm = next(b.custom_id for b in question.buttons if b.custom_id.startswith("ttt2:y:"))
    door = FakeDoor()
    on_question = request(ALICE, message=(9999, [confirm]), custom_id=confirm, token="tok3")
    await table.click(on_question, door, confirm)
    ((what, reply),) = door.answers
    assert what == "rewrite"
    assert reply.text.startswith("You resigned")
    ((token, edited, board),) = editor_of(table).edits
    assert (token, edited) == ("tok2", message_id)  # the resign click's token edits the board
    assert "resigned" in board.body
    (finished,) = table.finished
    assert finished.game.winner_id == AI


async def test_a_lapsed_game_is_shown_expired_by_token(table):
    _, message_id = await start(table)
    table.clock.now += TIMEOUT + 1
    assert await table.expire_lapsed() == 1
    ((token, edited, board),) = editor_of(table).edits
    assert (token, edited) == ("tok", message_id)
    assert "ran out of time" in board.body
    assert [f.game.ending.name for f in table.finished] == ["EXPIRED"]


async def test_a_resign_question_answered_after_the_game_expired_says_it_is_over(table):
    card, message_id = await start(table)
    game = shown_game(card)
    resign_id = codec.control_id(game, codec.Verb.RESIGN)
    (_, (_, question)) = await click(table, ALICE, card, message_id, resign_id)
    table.clock.now += TIMEOUT + 1
    assert await table.expire_lapsed() == 1
    confirm = next(b.custom_id for b in question.buttons if b.custom_id.startswith("ttt2:y:"))
    door = FakeDoor()
    on_question = request(ALICE, message=(9999, [confirm]), custom_id=confirm, token="tok3")
    await table.click(on_question, door, confirm)
    ((what, reply),) = door.answers
    assert what == "tell"
    assert reply.text.startswith("This game is over.")
    assert [f.game.ending.name for f in table.finished] == ["EXPIRED"]  # not resigned too


async def test_an_open_resign_question_loses_its_buttons_when_the_game_expires(table):
    card, message_id = await start(table)
    game = shown_game(card)
    resign_id = codec.control_id(game, codec.Verb.RESIGN)
    await click(table, ALICE, card, message_id, resign_id, token="asking")
    table.clock.now += TIMEOUT + 1
    assert await table.expire_lapsed() == 1
    await asyncio.gather(*table._background)  # after the expiry's edit, in the background
    ((token, question, text),) = editor_of(table).texts
    assert (token, question) == ("asking", message_id + 2)
    assert text.startswith("This game is over.")


async def test_a_cancelled_resign_question_is_left_as_answered(table):
    card, message_id = await start(table)
    game = shown_game(card)
    resign_id = codec.control_id(game, codec.Verb.RESIGN)
    (_, (_, question)) = await click(table, ALICE, card, message_id, resign_id)
    cancel = next(b.custom_id for b in question.buttons if b.custom_id.startswith("ttt2:k:"))
    door = FakeDoor()
    on_question = request(ALICE, message=(message_id + 2, [cancel]), custom_id=cancel)
    await table.click(on_question, door, cancel)
    assert [what for what, _ in door.answers] == ["rewrite"]
    table.clock.now += TIMEOUT + 1
    assert await table.expire_lapsed() == 1
    assert not table._background
    assert editor_of(table).texts == []


class ThinkingKind(Classic):
    """The classic board with a bot that answers after the click, as a kind whose AI thinks
    in worker processes does: its games never hold the bot's move when a click is answered."""

    name = "thinking"

    def new_game(self, x_player, o_player, level, rng, locale, look):
        return Game(x_player, o_player, level, moves=(), locale=locale, look=look)  # no opening

    def bot_to_move(self, state):
        return isinstance(state, Game) and not state.is_over and state.player_to_move == AI

    async def bot_reply(self, game, rng):
        return game.with_ai_reply(rng)


async def test_a_kind_whose_bot_thinks_after_the_answer_moves_by_token():
    kind = ThinkingKind()
    table = make_table(kinds=(kind,), wall_clock=lambda: 1_700_000_100.0)
    door = FakeDoor()
    await table.start(request(), door, None, "O", "impossible", "thinking")
    ((what, card),) = door.answers
    assert what == "post"
    assert shown_game(card).moves == ()  # answered before thinking
    await asyncio.gather(*table._background)
    ((token, message_id, shown),) = editor_of(table).edits
    assert (token, message_id) == ("tok", door.message_id)
    moved = shown_game(shown)
    assert len(moved.moves) == 1  # the bot's opening, shown by the command's token
    live = table.store.get(seat_of(CHANNEL, moved.players))
    assert live is not None
    assert live.key == codec.state_key(moved)
