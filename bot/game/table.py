"""The game's table: every flow of a game or challenge (start, click, rematch, resign, decline,
expire) for any kind of board, and what those flows share (the live store, cooldowns, the
clock, the random source, edits by token, the expiry timer, metrics, server settings).

It reaches Discord only through bot/door.py's protocols: a `Door` per interaction (answer it,
tell the user, follow up) and an `Editor` (edit by token). A kind of board (bot/kinds) gives it
its codec, rules, view and AI; the flows here never look inside a kind.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import random
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, assert_never

import tictactoe as ttt
from bot.core import codec
from bot.core.finished import Finish, FinishedGame, Place, describe, opponent_kind
from bot.core.game import AI, AnyGame, Challenge, State
from bot.core.live import Cooldowns, GameStore, Live, Seat, is_private, seat_of
from bot.core.policy import (
    AskResign,
    Decision,
    Decline,
    Expire,
    KeepPlaying,
    Private,
    PrivateKind,
    Refusal,
    Refuse,
    Resign,
    Room,
    Seen,
    Start,
    Update,
    decide_click,
    idle_seconds,
    refuse_start,
)
from bot.core.server import DEFAULT_LOOK, DEFAULT_SETTINGS, Look, ServerSettings
from bot.door import Door, Editor, Landed, Request, landed
from bot.game.delivery import Delivery
from bot.game.expiry import Expiry
from bot.kinds import Kind
from bot.kinds.classic import CLASSIC
from bot.ops.metrics import Metrics
from bot.view.replies import (
    render_not_resigned,
    render_raced,
    render_refusal,
    render_resign_question,
    render_resigned,
)

log = logging.getLogger(__name__)


class Where(Protocol):
    """Where a game was played, as its end is announced: a live entry or a request says it."""

    @property
    def guild_id(self) -> int | None: ...

    @property
    def place(self) -> str: ...

    @property
    def user_installed(self) -> bool: ...


class Table:
    """Where every game is played; one per process."""

    def __init__(
        self,
        editor: Editor,
        *,
        rng: random.Random,
        turn_timeout: float,
        clock: Callable[[], float],
        bot_id: Callable[[], int],
        announce: Callable[[FinishedGame], None],
        metrics: Metrics | None = None,
        server_settings: Callable[[int | None], ServerSettings] = lambda guild_id: DEFAULT_SETTINGS,
        emoji_exists: Callable[[int], bool] = lambda emoji_id: True,
        command_mention: Callable[[], str] = lambda: "/tictactoe",
        shard_of: Callable[[int | None], int] = lambda guild_id: 0,
        wall_clock: Callable[[], float] = time.time,
        kinds: tuple[Kind, ...] = (CLASSIC,),
    ) -> None:
        self.rng = rng
        self.turn_timeout = turn_timeout
        self.clock = clock
        self._wall_clock = wall_clock  # unix seconds, for deadlines shown after no interaction
        self._bot_id = bot_id
        self._announce = announce
        self.metrics = metrics or Metrics()
        # A server's settings by its id (None: a DM), from memory: a click never awaits them.
        self.server_settings = server_settings
        self._emoji_exists = emoji_exists
        self._command_mention = command_mention
        self.kinds = kinds
        self._kind_of_prefix = {prefix: kind for kind in kinds for prefix in kind.prefixes}
        self._kind_named = {kind.name: kind for kind in kinds}
        self.store = GameStore()
        self.cooldowns = Cooldowns()
        self._background: set[asyncio.Future[None]] = set()  # work after answers
        self.metrics.count_live_games(self.store.__len__)
        self.delivery = Delivery(editor, self.store, on_unsure=lambda: self.expiry.schedule())
        self.expiry = Expiry(
            self.store,
            self.delivery,
            clock=lambda: self.clock(),
            kind_named=self._kind_named.__getitem__,
            announce=self.announce,
            retire_question=self.retire_question,
            bot_id=bot_id,
            shard_of=shard_of,
            challenge_closed=self.challenge_closed,
        )

    @property
    def prefixes(self) -> tuple[str, ...]:
        """Every custom_id prefix of every kind seated here (the route's)."""
        return tuple(self._kind_of_prefix)

    def close(self) -> None:
        for task in self._background:
            task.cancel()
        self.expiry.close()
        self.store.clear()
        self.cooldowns.clear()

    # ------------------------------------------------------------------ start

    async def start(
        self,
        request: Request,
        door: Door,
        opponent: tuple[int, bool] | None,
        play_as: str,
        difficulty: str | None,
        variant: str | None = None,
    ) -> None:
        """A /tictactoe: against the bot (`opponent` None) or a challenge to `opponent`
        (id, is a bot). `difficulty` None: the server's default level; `variant` (a kind's
        name) None: the server's default kind of board."""
        private = request.forced_private
        if private:
            # Nobody else would see a board or a challenge: offer a game only the player sees.
            opponent = None
        scope = -request.user_id if private else request.channel_id
        # A board only its player sees is that player's own: one at a time, the bot's defaults.
        settings = DEFAULT_SETTINGS if private else self.server_settings(request.guild_id)
        room = self.room(
            scope,
            request.guild_id,
            request.user_id,
            None if opponent is None else opponent[0],
            limit=1 if private else settings.games_per_channel,
        )
        refusal = refuse_start(request.user_id, opponent, room)
        if refusal is not None:
            self.metrics.start_refusals[refusal.reason].inc()
            await self.refuse(request, door, refusal, refusal.link)
            return
        kind = self._kind_named.get(variant or settings.variant, CLASSIC)
        mark = play_as if play_as in (ttt.X, ttt.O) else self.rng.choice((ttt.X, ttt.O))
        look = self.usable_look(settings.look)
        state: State
        if opponent is None:
            user = request.user_id
            x_player, o_player = (user, AI) if mark == ttt.X else (AI, user)
            level = difficulty or settings.difficulty
            state = kind.new_game(x_player, o_player, level, self.rng, request.locale, look)
        else:
            state = kind.new_challenge(request.user_id, opponent[0], mark, request.locale, look)
        await self._post(request, door, kind, state, scope, private=private)

    async def _post(
        self, request: Request, door: Door, kind: Kind, state: State, scope: int, *, private: bool
    ) -> None:
        """Answer with a new message showing `state`, and hold the seat for it."""
        seat = seat_of(scope, state.players)
        idle = idle_seconds(state, self.turn_timeout)
        claim = self._entry(request, kind, kind.key(state), idle)
        if isinstance(state, Challenge):
            claim = claim._replace(challenger=state.challenger)
        if not self.store.compare_and_set(seat, None, claim):
            await door.tell(render_raced(request.locale))
            return
        if not isinstance(state, Challenge):
            self.metrics.started["ai"].inc()
        card = kind.render(state, self.bot_id, self._deadline(request, idle))
        if private:
            card = kind.render_private(card, request.locale)
        try:
            message_id = await door.post(card, private=private)
        except BaseException:
            # Whatever Discord did, clicks on a board that did appear restore it from it.
            self.store.compare_and_set(seat, claim, None)
            raise
        posted = claim._replace(message_id=message_id)
        self.store.compare_and_set(seat, claim, posted)
        self.expiry.schedule()
        log.debug("Channel %s: new %s", scope, describe(state))
        if not isinstance(state, Challenge) and kind.bot_to_move(state):
            self._later(self._bot_moves(seat, posted, kind, state))

    # ------------------------------------------------------------------ boards the bot posts

    async def post_board(
        self, kind_name: str, game: AnyGame, channel_id: int, guild_id: int
    ) -> int:
        """Post `game`'s board in `channel_id` (a tournament's thread) and hold its seat there:
        no interaction asked for it, so the bot posts it with its own token, and edits it so
        until a click brings an interaction's. Its message's id. SeatTaken when these players
        have a board on there already."""
        kind = self._kind_named[kind_name]
        seat = seat_of(channel_id, game.players)
        idle = idle_seconds(game, self.turn_timeout)
        claim = self._posted_entry(kind, game, None, guild_id, self.clock() + idle)
        if not self.store.compare_and_set(seat, None, claim):
            raise SeatTaken(f"players {game.players} have a board on in {channel_id}")
        card = kind.render(game, self.bot_id, math.ceil(self._wall_clock() + idle))
        try:
            message_id = await self.delivery.editor.post_in_channel(channel_id, card)
        except BaseException:
            self.store.compare_and_set(seat, claim, None)
            raise
        self.store.compare_and_set(seat, claim, claim._replace(message_id=message_id))
        self.expiry.schedule()
        return message_id

    def watch_board(
        self,
        kind_name: str,
        custom_id: str,
        message_id: int,
        channel_id: int,
        guild_id: int,
        changed_at: float,
    ) -> bool:
        """Hold in memory a board the bot posted before a restart, as Discord shows it now (one
        of its custom_ids, and when it last changed, unix seconds), so that it lapses on time
        even if nobody clicks it again. False when it is over, or its seat is taken."""
        kind = self._kind_named[kind_name]
        state = kind.decode(custom_id).state
        if isinstance(state, Challenge) or state.is_over:
            return False
        idle = idle_seconds(state, self.turn_timeout)
        deadline = self.clock() + max(0.0, changed_at + idle - self._wall_clock())
        entry = self._posted_entry(kind, state, message_id, guild_id, deadline)
        if not self.store.compare_and_set(seat_of(channel_id, state.players), None, entry):
            return False
        self.expiry.schedule()
        return True

    async def withdraw(self, channel_id: int, players: tuple[int, int], user_id: int) -> bool:
        """`user_id` leaves (a tournament's withdrawal): their game on in `channel_id` with
        `players` is lost by resignation, shown and announced. False when memory holds no such
        game (already over, or not seen since a restart)."""
        seat = seat_of(channel_id, players)
        live = self.store.get(seat)
        if live is None or live.message_id is None or live.challenger:
            return False
        kind = self._kind_named[live.kind]
        state = kind.decode_key(live.key)
        if isinstance(state, Challenge) or state.mark_of(user_id) is None or state.is_over:
            return False
        new = state.resign(user_id)
        if not self.store.compare_and_set(seat, live, None):
            return False
        try:
            await self.delivery.edit_by_token(
                live, kind.render(new, self.bot_id, None), channel_id=channel_id
            )
        finally:
            self.announce(live.message_id, new, self._wall_clock(), live, kind)
            self.retire_question(live, new)
        return True

    def _posted_entry(
        self, kind: Kind, game: AnyGame, message_id: int | None, guild_id: int, deadline: float
    ) -> Live:
        return Live(
            message_id=message_id,
            key=kind.key(game),
            unsure_of=None,
            token=None,
            deadline=deadline,
            guild_id=guild_id,
            kind=kind.name,
        )

    # ------------------------------------------------------------------ a click

    async def click(self, request: Request, door: Door, custom_id: str) -> None:
        """A click on a board's button: decode it, look the board up in memory, decide, and do
        what was decided."""
        shown = request.message
        assert shown is not None, "a button is always on a message"
        kind = self._kind_of_prefix[custom_id[: custom_id.find(":") + 1]]
        try:
            click = kind.decode(custom_id)
        except codec.CodecError as error:
            log.warning("Channel %s: rejected button: %s", request.channel_id, error)
            self.metrics.clicks_refused[Refusal.INVALID].inc()
            await self.refuse(request, door, Refuse(Refusal.INVALID), None)
            return
        state = click.state
        if state.look is not DEFAULT_LOOK:
            look = self.usable_look(state.look)
            if look is not state.look:  # an emoji deleted from the server: back to letters
                click = click._replace(state=dataclasses.replace(state, look=look))
        if click.verb is codec.Verb.CONFIRM_RESIGN:
            # Pressed on the private question, not on the board: find the board's game.
            seat = self._seat_holding(request, click)
        else:
            seat = seat_of(request.scope, state.players)
        live = self.store.get(seat)
        seen = Seen(
            click,
            shown.id,
            is_current=shown.holds_click,
            seconds_since_change=request.sent_at - shown.last_change,
            has_ended=(
                self.store.ended_on(seat)
                if click.verb is codec.Verb.CONFIRM_RESIGN  # on the question, not the board
                else self.store.has_ended(seat, shown.id)
            ),
            seat=seat,
            message_seat=self.store.seat_showing(shown.id),
        )
        decision = decide_click(
            live, seen, request.user_id, turn_timeout=self.turn_timeout, rng=self.rng
        )
        await self._carry_out(request, door, kind, seat, decision, live, click.key)

    async def _carry_out(
        self,
        request: Request,
        door: Door,
        kind: Kind,
        seat: Seat,
        decision: Decision,
        live: Live | None,
        shown: str,
    ) -> None:
        """Do what was decided; `shown` is the key of the state the clicked message showed."""
        match decision:
            case Update(old=old, new=new, same_turn=same_turn):  # the common case first
                await self._update(request, door, kind, seat, old, shown, new, same_turn)
            case Refuse(reason=reason):
                self.metrics.clicks_refused[reason].inc()
                await self.refuse(request, door, decision, live)
            case Expire(state=state):
                self.metrics.clicks_other.inc()
                await self._expire_unwatched(request, door, kind, seat, state)
            case Start(state=state, retire=retire):
                await self._rematch(request, door, kind, seat, retire, state)
            case Private(kind=private_kind, game=game):
                self.metrics.clicks_other.inc()
                if kind.answers_later:
                    await door.think_privately()
                if private_kind is PrivateKind.HINT:
                    reply = await kind.hint(game, request.locale)
                else:
                    reply = await kind.review(game, request.locale, self.bot_id)
                if kind.answers_later:
                    await door.follow_up_privately(reply)
                else:
                    await door.tell(reply)
            case AskResign(old=old, game=game):
                await self._ask_resign(request, door, kind, seat, old, game)
            case Resign(old=old, new=new):
                await self._resign(request, door, kind, seat, old, new)
            case KeepPlaying():
                self.metrics.clicks_other.inc()
                # The question becomes the answer; the board is untouched.
                await door.rewrite(render_not_resigned(request.locale))
                if live is not None and request.message and live.question == request.message.id:
                    closed = live._replace(question=None, question_token=None)
                    self.store.compare_and_set(seat, live, closed)
            case Decline(old=old, challenge=challenge):
                await self._decline(request, door, kind, seat, old, challenge)
            case _:
                assert_never(decision)

    async def _update(
        self,
        request: Request,
        door: Door,
        kind: Kind,
        seat: Seat,
        old: Live | None,
        shown: str,
        new: State,
        same_turn: bool = False,
    ) -> None:
        """Move the board from the state keyed `shown` to `new` and show it, in the click's
        one answer; `same_turn`: the player's clock runs on (see policy.Update)."""
        message = request.message
        assert message is not None
        over = not isinstance(new, Challenge) and new.is_over
        idle = idle_seconds(new, self.turn_timeout)
        if same_turn and old is not None:
            idle = max(0.0, old.deadline - self.clock())
        key = kind.key(new)
        live = self._entry(request, kind, key, idle, message.id)
        if old is not None:  # where the game started stays where it is played; its question too
            live = live._replace(
                place=old.place,
                user_installed=old.user_installed,
                question=old.question,
                question_token=old.question_token,
            )
        after = None if over else live
        if over and old is None:
            # A board from before a restart, ended by this click: nothing to swap in memory,
            # but a click still in flight on it must find it over.
            claimed = self.store.end_unclaimed(seat, message.id)
        else:
            claimed = self.store.compare_and_set(seat, old, after)
        if not claimed:
            await self.raced(request, door)
            return
        card = kind.render(new, self.bot_id, self._deadline(request, idle), key=key)
        try:
            await door.update(card)
        except Exception as error:
            # Until settled, the older token is the one known to edit the board.
            unsure = live._replace(unsure_of=shown, token=old.token if old is not None else None)
            if self.delivery.after_failed_edit(error, seat, after, old, unsure):
                if over and old is None and landed(error) is Landed.NO:
                    self.store.reopen(seat, message.id)
                raise
        self.metrics.clicks_moved.inc()  # counted once answered: the player waits for nothing
        if over:
            assert not isinstance(new, Challenge)
            log.debug("Channel %s: game over: %s", seat[0], describe(new))
            self.announce(message.id, new, request.sent_at, live, kind)
            self.retire_question(live, new)
        else:
            # Only an accepted challenge shows an empty board after a click.
            if not isinstance(new, Challenge) and new.moves == ():
                self.metrics.started["friend"].inc()
            self.expiry.schedule()
            if not isinstance(new, Challenge) and kind.bot_to_move(new):
                self._later(self._bot_moves(seat, live, kind, new))

    async def _rematch(
        self, request: Request, door: Door, kind: Kind, seat: Seat, finished: AnyGame, game: AnyGame
    ) -> None:
        """Retire the finished board (no second Rematch from it) and post the new one, if the
        seat's scope has room for it and neither player has started another game there since."""
        scope, private = seat[0], is_private(seat)
        limit = 1 if private else self.server_settings(request.guild_id).games_per_channel
        players = [player for player in game.players if player != AI]
        rooms = [self.room(scope, None, player, None, limit=limit) for player in players]
        for refusal in filter(
            None,
            (refuse_start(player, None, room) for player, room in zip(players, rooms, strict=True)),
        ):
            self.metrics.start_refusals[refusal.reason].inc()
            await self.refuse(request, door, refusal, refusal.link)
            return
        idle = idle_seconds(game, self.turn_timeout)
        claim = self._entry(request, kind, kind.key(game), idle)
        if not self.store.compare_and_set(seat, None, claim):
            await self.raced(request, door)
            return
        self.metrics.clicks_other.inc()
        self.metrics.started[opponent_kind(game)].inc()
        try:
            await door.update(kind.render_retired(finished, self.bot_id))
            card = kind.render(game, self.bot_id, self._deadline(request, idle))
            # A private board's rematch stays private.
            message_id = await door.follow_up(card, private=private)
        except BaseException:
            self.store.compare_and_set(seat, claim, None)
            raise
        posted = claim._replace(message_id=message_id)
        self.store.compare_and_set(seat, claim, posted)
        self.expiry.schedule()
        log.debug("Channel %s: rematch: %s", scope, describe(game))
        if kind.bot_to_move(game):  # the bot opens the rematch: it thinks after the answer
            self._later(self._bot_moves(seat, posted, kind, game))

    async def _ask_resign(
        self, request: Request, door: Door, kind: Kind, seat: Seat, old: Live | None, game: AnyGame
    ) -> None:
        message = request.message
        assert message is not None
        if old is None:  # nothing in memory since a restart: the message is the record
            idle = idle_seconds(game, self.turn_timeout)
            fresh = self._entry(request, kind, kind.key(game), idle, message.id)
        else:
            idle = max(0.0, old.deadline - self.clock())
            fresh = old._replace(token=request.token)
        if not self.store.compare_and_set(seat, old, fresh):
            await self.raced(request, door)
            return
        self.metrics.clicks_other.inc()
        self.expiry.schedule()
        await door.update(kind.render(game, self.bot_id, self._deadline(request, idle)))
        key = kind.key(game)
        question = await door.follow_up_privately(
            render_resign_question(
                kind.control_id(key, codec.Verb.CONFIRM_RESIGN),
                kind.control_id(key, codec.Verb.KEEP_PLAYING),
                request.locale,
            )
        )
        # Remembered, so that it loses its buttons if the game ends another way first.
        asked = fresh._replace(question=question, question_token=request.token)
        self.store.compare_and_set(seat, fresh, asked)

    async def _resign(
        self, request: Request, door: Door, kind: Kind, seat: Seat, old: Live, new: AnyGame
    ) -> None:
        """Confirmed on the private question: end the game on the board, then say so here."""
        if not self.store.compare_and_set(seat, old, None):
            await self.raced(request, door)
            return
        self.metrics.clicks_other.inc()
        assert old.token is not None
        assert old.message_id is not None
        try:
            await self.delivery.edit_by_token(old, kind.render(new, self.bot_id, None))
        except Exception as error:
            unsure = old._replace(key=kind.key(new), unsure_of=old.key)
            if self.delivery.after_failed_edit(error, seat, None, old, unsure):
                raise
        log.debug("Channel %s: game over: %s", seat[0], describe(new))
        url = jump_url(old.guild_id, request.channel_id, old.message_id)
        await door.rewrite(render_resigned(request.locale, url))
        self.announce(old.message_id, new, request.sent_at, old, kind)
        if request.message is None or old.question != request.message.id:
            self.retire_question(old, new)  # the other player's question, still open

    async def _decline(
        self,
        request: Request,
        door: Door,
        kind: Kind,
        seat: Seat,
        old: Live | None,
        challenge: Challenge,
    ) -> None:
        if not self.store.compare_and_set(seat, old, None):
            await self.raced(request, door)
            return
        self.metrics.clicks_other.inc()
        self.challenge_closed(request.guild_id, challenge.challenger)
        try:
            await door.update(kind.render_declined(challenge))
        except Exception as error:
            # Unknown: the challenge stays closed; a click on it is answered as closed.
            if landed(error) is Landed.NO:
                self.store.compare_and_set(seat, None, old)
            if landed(error) is not Landed.YES:
                raise
        log.debug("Channel %s: challenge declined", seat[0])

    async def _expire_unwatched(
        self, request: Request, door: Door, kind: Kind, seat: Seat, state: State
    ) -> None:
        """A click on a board that lapsed while memory did not hold it (after a restart):
        show it expired, and announce the game's end once, however many clicks race here."""
        message = request.message
        assert message is not None
        first = self.store.end_unclaimed(seat, message.id)
        try:
            await door.update(kind.render_expired(state, self.bot_id))
        finally:
            if first and not isinstance(state, Challenge):
                self.announce(message.id, state.expire(), request.sent_at, request, kind)

    # ------------------------------------------------------------------ expiry

    async def expire_lapsed(self) -> int:
        """Free and show every game past its deadline now (the timer's work; tests call it
        after moving the clock)."""
        return await self.expiry.expire_lapsed()

    def announce(
        self, message_id: int, game: AnyGame, ended_at: float, where: Where, kind: Kind
    ) -> None:
        """Count the game as finished and tell whoever listens that the game of this board has
        ended: after the click's answer, once per game; no I/O."""
        self.metrics.finished[opponent_kind(game), Finish.of(game).label].inc()
        finished = FinishedGame(
            message_id,
            game,
            ended_at,
            where.guild_id,
            Place(where.place),
            where.user_installed,
            kind.name,
        )
        self._announce(finished)

    async def _bot_moves(self, seat: Seat, live: Live, kind: Kind, game: AnyGame) -> None:
        """The bot's reply, for a kind that thinks after the click's answer: shown on the board
        by the token that posted or last updated it, unless the board changed meanwhile (a
        resignation, an expiry)."""
        reply = await kind.bot_reply(game, self.rng)
        over = reply.is_over
        key = kind.key(reply)
        idle = idle_seconds(reply, self.turn_timeout)
        # Meanwhile a resign question may have been asked (a new token, the same game): the
        # move still counts; any other change (a resignation, an expiry) wins over it.
        current = self.store.get(seat)
        if current is None or current.key != live.key or current.message_id is None:
            return
        live = current
        moved = live._replace(key=key, deadline=self.clock() + idle)
        self.store.compare_and_set(seat, live, None if over else moved)  # nothing awaited since get
        assert live.message_id is not None
        now = self._wall_clock()
        deadline = None if over else math.ceil(now + idle)
        try:
            await self.delivery.edit_by_token(live, kind.render(reply, self.bot_id, deadline))
        except Exception as error:
            unsure = moved._replace(unsure_of=live.key)
            if self.delivery.after_failed_edit(error, seat, None if over else moved, live, unsure):
                log.warning("Channel %s: the bot's move could not be shown: %s", seat[0], error)
            return
        if over:
            self.announce(live.message_id, reply, now, live, kind)
            self.retire_question(live, reply)
        else:
            self.expiry.schedule()

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        """Work after an answer, off the click's path; failures logged, not raised."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[None]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("Work after an answer failed", exc_info=task.exception())

    def retire_question(self, live: Live, game: AnyGame) -> None:
        """The game ended another way while a resign question was open on it: the question
        says so and loses its buttons (after the click's answer, in the background; its token
        can edit it for 15 minutes)."""
        if live.question is None or live.question_token is None:
            return
        reply = render_refusal(
            Refusal.GAME_OVER,
            game,
            game.locale,
            bot_id=self.bot_id,
            command=self._command_mention(),
        )
        self._later(self.delivery.editor.edit_text(live.question_token, live.question, reply.text))

    # ------------------------------------------------------------------ shared answers

    async def refuse(
        self, request: Request, door: Door, refusal: Refuse, live: Live | None
    ) -> None:
        url = None
        if live is not None and live.message_id is not None:
            channel = refusal.link_channel or request.channel_id
            url = jump_url(live.guild_id, channel, live.message_id)
        reply = render_refusal(
            refusal.reason,
            refusal.state,
            request.locale,
            bot_id=self.bot_id,
            command=self._command_mention(),
            live_url=url,
            limit=refusal.limit,
            until=math.ceil(request.sent_at + refusal.wait) if refusal.wait else None,
        )
        await door.tell(reply)

    async def raced(self, request: Request, door: Door) -> None:
        """Another click changed the game first: say so to this one."""
        self.metrics.clicks_raced.inc()
        await door.tell(render_raced(request.locale))

    # ------------------------------------------------------------------ what memory knows

    @property
    def bot_id(self) -> int:
        return self._bot_id()

    def room(
        self,
        scope: int,
        guild_id: int | None,
        user_id: int,
        opponent_id: int | None,
        *,
        limit: int,
    ) -> Room:
        """What memory knows of `scope` for a start there (see policy.refuse_start)."""
        store = self.store
        mine = store.seat_of_player(scope, user_id)
        theirs = None if opponent_id is None else store.seat_of_player(scope, opponent_id)
        pending = None if guild_id is None else store.challenge_of(guild_id, user_id)
        cooldown = 0.0
        if guild_id is not None:
            now = self.clock()
            until = self.cooldowns.until(guild_id, user_id, now)
            cooldown = 0.0 if until is None else until - now
        return Room(
            in_channel=store.count(scope),
            limit=limit,
            mine=None if mine is None else store.get(mine),
            theirs=None if theirs is None else store.get(theirs),
            any_live=store.any_in(scope),
            pending=None if pending is None else store.get(pending),
            pending_channel=None if pending is None else pending[0],
            cooldown=cooldown,
        )

    def usable_look(self, look: Look) -> Look:
        """`look` without custom emoji that no longer exist (deleted from their server)."""
        return look.with_emoji_that_exist(self._emoji_exists)

    def challenge_closed(self, guild_id: int | None, challenger: int) -> None:
        """A challenge was declined or expired: its server's cooldown starts for the
        challenger."""
        if guild_id is None:
            return
        cooldown = self.server_settings(guild_id).challenge_cooldown
        if cooldown:
            now = self.clock()
            self.cooldowns.start(guild_id, challenger, now + cooldown, now)

    def _entry(
        self,
        request: Request,
        kind: Kind,
        key: str,
        idle: float,
        message_id: int | None = None,
    ) -> Live:
        """Memory's entry for a board this request posts or updates."""
        return Live(
            message_id=message_id,
            key=key,
            unsure_of=None,
            token=request.token,
            deadline=self.clock() + idle,
            guild_id=request.guild_id,
            place=request.place,
            user_installed=request.user_installed,
            kind=kind.name,
        )

    def _deadline(self, request: Request, idle: float) -> int:
        # Rounded up: a deadline shown a second early would read "60 seconds" for a minute.
        return math.ceil(request.sent_at + idle)

    def _seat_holding(self, request: Request, click: codec.Click) -> Seat:
        """The seat of the board a resign question was asked about: in the channel, or the
        player's own private one."""
        players = click.state.players
        for scope in (request.channel_id, -request.user_id):
            live = self.store.get(seat_of(scope, players))
            if live is not None and live.key == click.key:
                return seat_of(scope, players)
        return seat_of(request.channel_id, players)


class SeatTaken(Exception):
    """The players of a board to post have one on in that channel already."""


def jump_url(guild_id: int | None, channel: int, message_id: int | None) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel}/{message_id}"
