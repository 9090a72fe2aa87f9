"""The classic 3x3 board as a kind the table seats: bot/core's game and codec, bot/view's cards."""

from __future__ import annotations

import asyncio
import random

from bot.core import codec
from bot.core.codec import Click, Verb
from bot.core.game import AnyGame, Challenge, Game, State
from bot.core.server import Look
from bot.view import board, teaching
from bot.view.cards import Card, Reply


class Classic:
    """Tic-tac-toe on one 3x3 board (bot/core/game.py, tictactoe/)."""

    name = "classic"
    prefixes = codec.PREFIXES

    def decode(self, custom_id: str) -> Click:
        return codec.decode(custom_id)

    def key(self, state: State) -> str:
        assert isinstance(state, Game | Challenge)
        return codec.state_key(state)

    def decode_key(self, key: str) -> State:
        return codec.decode_state(key)

    def control_id(self, key: str, verb: Verb) -> str:
        return codec.id_of(verb, key)

    def new_game(
        self,
        x_player: int,
        o_player: int,
        level: str | None,
        rng: random.Random,
        locale: str,
        look: Look,
    ) -> AnyGame:
        return Game.start(x_player, o_player, level, rng, locale, look)

    def new_challenge(
        self, challenger: int, opponent: int, mark: str, locale: str, look: Look
    ) -> Challenge:
        return Challenge(challenger, opponent, mark, locale, look)

    def bot_to_move(self, state: State) -> bool:
        return False  # a move's Game already holds the bot's reply (core/game.py Game.play)

    async def bot_reply(self, game: AnyGame, rng: random.Random) -> AnyGame:
        assert isinstance(game, Game)
        return game.with_ai_reply(rng)

    def render(
        self, state: State, bot_id: int, deadline: int | None, *, key: str | None = None
    ) -> Card:
        assert isinstance(state, Game | Challenge)
        return board.render_state(state, bot_id, deadline, key=key)

    def render_retired(self, game: AnyGame, bot_id: int) -> Card:
        assert isinstance(game, Game)
        return board.render_game(game, bot_id, retired=True)

    def render_expired(self, state: State, bot_id: int) -> Card:
        assert isinstance(state, Game | Challenge)
        return board.render_expired(state, bot_id)

    def render_declined(self, challenge: Challenge) -> Card:
        return board.render_challenge_declined(challenge)

    def render_private(self, card: Card, locale: str) -> Card:
        return board.with_private_notice(card, locale)

    answers_later = False  # a hint or a review is ready within milliseconds

    async def hint(self, game: AnyGame, locale: str) -> Reply:
        assert isinstance(game, Game)
        # A hint against a level that slips weighs every way the game can go on (exact
        # chances, cached per level): the first one for a level takes a few hundred
        # milliseconds, which must not stop every other click. A thread: rare clicks.
        return await asyncio.to_thread(teaching.render_hint, game, locale)

    async def review(self, game: AnyGame, locale: str, bot_id: int) -> Reply:
        assert isinstance(game, Game)
        return teaching.render_review(game, locale, bot_id)


CLASSIC = Classic()
