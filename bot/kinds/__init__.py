"""Kinds of board, each a plug-in the game's table seats (bot/game/table.py).

A kind gives the table its rules on immutable states, its codec (state <-> custom_id), its view
(state -> the card's values) and its AI. The table's flows (start, click, rematch, resign,
decline, expire) call a kind only through `Kind`; records name a game by its kind's `name`.
A new kind is a module here, added to `KINDS`.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.core.codec import Click, Verb
from bot.core.game import AnyGame, Challenge, State
from bot.core.server import Look
from bot.view.cards import Card, Reply


class Kind(Protocol):
    """What a kind of board gives the table."""

    @property
    def name(self) -> str:
        """Its stable name: records, metrics and settings say it ("classic")."""

    @property
    def prefixes(self) -> tuple[str, ...]:
        """Every custom_id prefix its boards have ever carried (each ends in its one colon)."""

    # The codec: the whole state rides in every button.
    def decode(self, custom_id: str) -> Click:
        """The click a custom_id of this kind says; codec.CodecError if it is not one."""

    def key(self, state: State) -> str:
        """The state as its buttons carry it after the verb; memory's key for it."""

    def decode_key(self, key: str) -> State: ...

    def control_id(self, key: str, verb: Verb) -> str:
        """A control button's custom_id (resign, its question's answers...) for the state with
        this key."""

    # The rules and the AI.
    def new_game(
        self,
        x_player: int,
        o_player: int,
        level: str | None,
        rng: random.Random,
        locale: str,
        look: Look,
    ) -> AnyGame:
        """A game from its first position (the bot's opening move made when it plays X)."""

    def new_challenge(
        self, challenger: int, opponent: int, mark: str, locale: str, look: Look
    ) -> Challenge: ...

    def bot_to_move(self, state: State) -> bool:
        """The bot must still move on `state`: a kind whose AI thinks too long for a click's
        answer leaves the bot's reply out of a move, and the table asks `bot_reply` after
        the answer. (The classic AI answers within the move itself: never.)"""

    async def bot_reply(self, game: AnyGame, rng: random.Random) -> AnyGame:
        """`game` after the bot's move, thought out off the event loop."""

    # The view: what each message shows, as values.
    def render(
        self, state: State, bot_id: int, deadline: int | None, *, key: str | None = None
    ) -> Card: ...

    def render_retired(self, game: AnyGame, bot_id: int) -> Card:
        """A finished board whose rematch was posted: no Rematch button any more."""

    def render_expired(self, state: State, bot_id: int) -> Card: ...

    def render_declined(self, challenge: Challenge) -> Card: ...

    def render_private(self, card: Card, locale: str) -> Card:
        """`card` with the notice that only its player sees it."""

    @property
    def answers_later(self) -> bool:
        """Its hints and reviews may take longer than Discord's 3 seconds: the table answers
        "thinking..." first and follows up with them."""

    async def hint(self, game: AnyGame, locale: str) -> Reply:
        """The hint for the player to move (thought out off the event loop when it may take
        more than a few milliseconds)."""

    async def review(self, game: AnyGame, locale: str, bot_id: int) -> Reply: ...
