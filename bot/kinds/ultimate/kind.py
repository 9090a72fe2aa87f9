"""Ultimate Tic-Tac-Toe as a kind the table seats: bot/core/ultimate_game.py's game, this
package's codec and view, and an AI that thinks in worker processes.

Its view, picture and teaching are imported on the first ultimate game, not with the bot: a bot
whose servers never play one does not hold them in memory.

The bot's moves, hints and reviews search for up to a second or more: each runs in a worker
(`Thinkers`), never on the event loop, after the click has been answered (`bot_to_move`,
`bot_reply`). A pool that fails (a worker died twice, or ran past its time) does not leave the
player waiting: the bot then plays the "easy" level's move, which needs no search.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from collections import OrderedDict

from bot.core.codec import Click, Verb
from bot.core.game import Challenge, Game, State
from bot.core.server import Look
from bot.core.ultimate_game import ULTIMATE, UltimateGame
from bot.kinds.ultimate import codec
from bot.kinds.ultimate.thinking import Thinkers, ThinkingFailed
from bot.view.cards import Card, Reply
from tictactoe import ultimate

log = logging.getLogger(__name__)

# Positions whose move order this process saw, by key: a review needs the order, which the
# buttons cannot carry. Bounded: an evicted game's review then says the order is unknown.
HISTORY_SIZE = 4096
# A hint or a review searches longer than a move may: its worker's limit.
HINT_BUDGET = 2.0
REVIEW_BUDGET = 6.0


class Ultimate:
    """Nine small boards in one, its AI in `thinkers`."""

    name = ULTIMATE
    prefixes = codec.PREFIXES
    answers_later = True  # a hint or a review searches for seconds

    def __init__(self, thinkers: Thinkers) -> None:
        self.thinkers = thinkers
        self._history: OrderedDict[str, tuple[int, ...]] = OrderedDict()

    # ------------------------------------------------------------------ codec

    def decode(self, custom_id: str) -> Click:
        click = codec.decode(custom_id)
        return self._with_history(click)

    def key(self, state: State) -> str:
        assert isinstance(state, UltimateGame | Challenge)
        key = codec.key(state)
        # Every state the table shows passes here: the one place to remember its moves.
        if isinstance(state, UltimateGame) and state.moves is not None:
            self._history[key] = state.moves
            self._history.move_to_end(key)
            if len(self._history) > HISTORY_SIZE:
                self._history.popitem(last=False)
        return key

    def decode_key(self, key: str) -> State:
        state = codec.decode_key(key)
        return self._known(state, key)

    def control_id(self, key: str, verb: Verb) -> str:
        return codec.control_id(key, verb)

    def _with_history(self, click: Click) -> Click:
        known = self._known(click.state, click.key)
        return click if known is click.state else click._replace(state=known)

    def _known(self, state: State, key: str) -> State:
        if not isinstance(state, UltimateGame):
            return state
        moves = self._history.get(key)
        return state if moves is None else dataclasses.replace(state, moves=moves)

    # ------------------------------------------------------------------ rules and AI

    def new_game(
        self,
        x_player: int,
        o_player: int,
        level: str | None,
        rng: random.Random,
        locale: str,
        look: Look,
    ) -> Game | UltimateGame:
        return UltimateGame.start(x_player, o_player, level, locale, look)

    def new_challenge(
        self, challenger: int, opponent: int, mark: str, locale: str, look: Look
    ) -> Challenge:
        return Challenge(challenger, opponent, mark, locale, look, variant=ULTIMATE)

    def bot_to_move(self, state: State) -> bool:
        return isinstance(state, UltimateGame) and state.bot_to_move

    async def bot_reply(self, game: Game | UltimateGame, rng: random.Random) -> Game | UltimateGame:
        assert isinstance(game, UltimateGame)
        assert game.difficulty is not None
        level = game.difficulty
        seeded = random.Random(rng.getrandbits(64))
        from bot.kinds.ultimate import drawing

        try:
            # The worker draws the position its move makes too: no drawing on the loop.
            action, png = await self.thinkers.think(
                drawing.reply_with_picture,
                game.position,
                level,
                seeded,
                budget=ultimate.LEVELS[level].budget,
            )
        except ThinkingFailed as error:
            log.warning("The ultimate AI could not think (%s): it plays an easy move", error)
            action = ultimate.choose(game.position, "easy", seeded)
        else:
            after = ultimate.result(game.position, action)
            drawing.keep(after, ultimate.terminal(after), png)
        return game.with_bot_move(action)

    # ------------------------------------------------------------------ view

    def render(
        self, state: State, bot_id: int, deadline: int | None, *, key: str | None = None
    ) -> Card:
        assert isinstance(state, UltimateGame | Challenge)
        from bot.kinds.ultimate import view

        return view.render(state, bot_id, deadline, key=key)

    def render_retired(self, game: Game | UltimateGame, bot_id: int) -> Card:
        assert isinstance(game, UltimateGame)
        from bot.kinds.ultimate import view

        return view.render_retired(game, bot_id)

    def render_expired(self, state: State, bot_id: int) -> Card:
        assert isinstance(state, UltimateGame | Challenge)
        from bot.kinds.ultimate import view

        return view.render_expired(state, bot_id)

    def render_declined(self, challenge: Challenge) -> Card:
        from bot.kinds.ultimate import view

        return view.render_declined(challenge)

    def render_private(self, card: Card, locale: str) -> Card:
        from bot.kinds.ultimate import view

        return view.render_private(card, locale)

    async def hint(self, game: Game | UltimateGame, locale: str) -> Reply:
        assert isinstance(game, UltimateGame)
        from bot.kinds.ultimate import teaching

        return await self.thinkers.think(teaching.render_hint, game, locale, budget=HINT_BUDGET)

    async def review(self, game: Game | UltimateGame, locale: str, bot_id: int) -> Reply:
        assert isinstance(game, UltimateGame)
        from bot.kinds.ultimate import teaching

        return await self.thinkers.think(
            teaching.render_review, game, locale, bot_id, budget=REVIEW_BUDGET
        )
