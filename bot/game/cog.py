"""The only code that talks to Discord: decode → look up → decide → compare-and-set → respond."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable, Iterator, Sequence
from enum import Enum, auto
from typing import TYPE_CHECKING, Any, Literal

import aiohttp
import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import tictactoe as ttt
from bot.core import codec
from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Challenge, Ending, Game, State
from bot.core.live import GameStore
from bot.core.policy import (
    AskResign,
    Decision,
    Decline,
    Expire,
    Live,
    Private,
    PrivateKind,
    Refusal,
    Refuse,
    Resign,
    Seen,
    Start,
    Update,
    decide_click,
    idle_seconds,
    refuse_start,
    responses_forced_private,
)
from bot.ops.metrics import Metrics
from bot.ops.shards import EVENT_SHARD, shard_of
from bot.ui import (
    Interaction,
    apologise,
    card_view,
    pings_only,
    release,
    reply_view,
    tell,
    update_message,
)
from bot.view import board as render
from bot.view.board import Card

if TYPE_CHECKING:
    from bot.app import TicTacToeBot

log = logging.getLogger(__name__)

ALREADY_ACKNOWLEDGED = 40060  # Discord's code when an interaction was answered already


def monotonic() -> float:
    # Looked up at each call so a simulated clock (SimCord's) is honoured.
    return time.monotonic()


class Landed(Enum):
    """What a failed request to Discord did, as far as we can know."""

    YES = auto()  # e.g. a retry that Discord answered "already acknowledged"
    NO = auto()  # Discord refused it
    UNKNOWN = auto()  # a server error or a timeout: it may or may not have been applied


def landed(error: BaseException) -> Landed:
    if isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED:
        return Landed.YES
    if isinstance(error, discord.DiscordServerError | asyncio.TimeoutError | aiohttp.ClientError):
        return Landed.UNKNOWN
    return Landed.NO


class TicTacToeCog(commands.Cog, name="TicTacToe"):
    def __init__(
        self,
        bot: TicTacToeBot,
        *,
        rng: random.Random,
        game_timeout: float,
        clock: Callable[[], float] = monotonic,
        metrics: Metrics | None = None,
    ) -> None:
        self.bot = bot
        self.rng = rng
        self.game_timeout = game_timeout
        self.clock = clock
        self.metrics = metrics or Metrics()
        self.store = GameStore()
        self.metrics.count_live_games(self.store.__len__)
        self._sweep_handle: asyncio.TimerHandle | None = None
        self._sweep_at = float("inf")
        self._background: set[asyncio.Task[Any]] = set()
        # Cogs cannot declare context menus with a decorator: built here, added on load.
        self.challenge_menu = app_commands.ContextMenu(
            name=locale_str("Challenge to Tic-Tac-Toe"), callback=self.challenge_from_menu
        )

    @property
    def bot_id(self) -> int:
        assert self.bot.user is not None
        return self.bot.user.id

    @property
    def command(self) -> str:
        return render.command_mention(self.bot.command_ids.get("tictactoe"))

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.challenge_menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.challenge_menu.name, type=self.challenge_menu.type)
        if self._sweep_handle is not None:
            self._sweep_handle.cancel()
        for task in self._background:
            task.cancel()
        self.store.clear()

    async def cog_app_command_error(
        self,
        interaction: discord.Interaction[Any],  # discord.py types this hook for any client
        error: app_commands.AppCommandError,
    ) -> None:
        command = interaction.command.name if interaction.command else "?"
        self.metrics.command_errors.inc()
        log.error("/%s failed in channel %s", command, interaction.channel_id, exc_info=error)
        await apologise(interaction)

    async def on_click_error(
        self, interaction: Interaction, custom_id: str, error: Exception
    ) -> None:
        """Like cog_app_command_error, for buttons: log it, and say sorry to the user."""
        self.metrics.click_errors.inc()
        log.error(
            "Button %r failed in channel %s", custom_id, interaction.channel_id, exc_info=error
        )
        await apologise(interaction)

    # ------------------------------------------------------------------ /tictactoe

    @app_commands.command(
        name="tictactoe", description=locale_str("Play tic-tac-toe against me or a friend")
    )
    @app_commands.describe(
        opponent=locale_str("Challenge this person; leave empty to play against me"),
        play_as=locale_str("Your mark; X moves first"),
        difficulty=locale_str("How well I play (games against me only)"),
    )
    @app_commands.choices(
        play_as=[
            app_commands.Choice(name=locale_str("X — you move first"), value="X"),
            app_commands.Choice(name=locale_str("O — the other side moves first"), value="O"),
            app_commands.Choice(name=locale_str("Random"), value="random"),
        ],
        difficulty=[
            app_commands.Choice(name=locale_str("Easy — makes plenty of mistakes"), value="easy"),
            app_commands.Choice(name=locale_str("Medium — sees two moves ahead"), value="medium"),
            app_commands.Choice(name=locale_str("Hard — slips now and then"), value="hard"),
            app_commands.Choice(name=locale_str("Impossible — never loses"), value="impossible"),
        ],
    )
    async def tictactoe(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        play_as: Literal["X", "O", "random"] = "X",
        difficulty: Literal["easy", "medium", "hard", "impossible"] = "impossible",
    ) -> None:
        await self.start(interaction, opponent, play_as, difficulty)

    async def challenge_from_menu(
        self, interaction: Interaction, member: discord.Member | discord.User
    ) -> None:
        """The member menu's "Challenge to Tic-Tac-Toe": /tictactoe opponent:member."""
        await self.start(interaction, member, "X", ttt.IMPOSSIBLE)

    async def start(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None,
        play_as: str,
        difficulty: str,
    ) -> None:
        EVENT_SHARD.set(shard_of(interaction.guild_id, self.bot.shard_count))
        started = time.perf_counter()
        try:
            await self._start(interaction, opponent, play_as, difficulty)
        finally:
            self.metrics.command_seconds.observe(time.perf_counter() - started)

    async def _start(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User | None,
        play_as: str,
        difficulty: str,
    ) -> None:
        user, locale = interaction.user, str(interaction.locale)
        private = responses_forced_private(
            in_server=interaction.guild_id is not None,
            installed_in_server=interaction.is_guild_integration(),
            installed_by_user=interaction.is_user_integration(),
            may_post_publicly=interaction.permissions.use_external_apps,
        )
        if private:
            # Nobody else would see a board or a challenge: offer a game only the player sees.
            opponent = None
        scope = _scope_id(interaction, private)
        live = self.store.get(scope)
        target = None if opponent is None else (opponent.id, opponent.bot)
        refusal = refuse_start(live, user.id, target)
        if refusal is not None:
            await self.refuse(interaction, refusal, live)
            return
        mark = play_as if play_as in (ttt.X, ttt.O) else self.rng.choice((ttt.X, ttt.O))
        state: State
        if opponent is None:
            x_player, o_player = (user.id, AI) if mark == ttt.X else (AI, user.id)
            state = Game.start(x_player, o_player, difficulty, self.rng, locale)
        else:
            state = Challenge(user.id, opponent.id, mark, locale)
        await self._post(interaction, state, private=private)

    async def _post(self, interaction: Interaction, state: State, *, private: bool) -> None:
        """Answer with a new message showing `state`, and hold the channel for it (or, for a
        board only its player sees, that player's own slot)."""
        channel_id = _scope_id(interaction, private)
        idle = idle_seconds(state, self.game_timeout)
        claim = Live(
            None,
            codec.state_key(state),
            None,
            interaction.token,
            self.clock() + idle,
            interaction.guild_id,
            *_where(interaction),
        )
        if not self.store.compare_and_set(channel_id, None, claim):
            await tell(interaction, render.render_raced(str(interaction.locale)))
            return
        if isinstance(state, Game):
            self.metrics.started["ai"].inc()
        card = render.render_state(state, self.bot_id, self._deadline(interaction, idle))
        if private:
            card = render.with_private_notice(card, str(interaction.locale))
        try:
            response = await interaction.response.send_message(
                view=card_view(card), allowed_mentions=pings_only(card.pings), ephemeral=private
            )
        except BaseException:
            # Whatever Discord did, clicks on a board that did appear restore it from itself.
            self.store.compare_and_set(channel_id, claim, None)
            raise
        message = response.resource
        message_id = message.id if isinstance(message, discord.InteractionMessage) else None
        self.store.compare_and_set(channel_id, claim, claim._replace(message_id=message_id))
        self._schedule_sweep()
        log.info("Channel %s: new %s", channel_id, describe(state))

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: Interaction, command: Any) -> None:
        # discord.py sends this only after a command that did not fail: on an error,
        # cog_app_command_error still needs `interaction.response` as it is.
        release(interaction)

    # ------------------------------------------------------------------ the buttons

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Every button this bot posts: its custom_id carries the whole state of its message,
        so a click is handled the same way before and after a restart (see bot/ui.py for why
        this listener and not a DynamicItem)."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        if not custom_id.startswith(codec.PREFIXES):
            return
        started = time.perf_counter()
        EVENT_SHARD.set(shard_of(interaction.guild_id, self.bot.shard_count))
        try:
            await self.on_click(interaction, custom_id)
        except Exception as error:
            await self.on_click_error(interaction, custom_id, error)
        finally:
            release(interaction)
            self.metrics.click_seconds.observe(time.perf_counter() - started)

    async def on_click(self, interaction: Interaction, custom_id: str) -> None:
        message = interaction.message
        assert message is not None, "a button is always on a message"
        try:
            click = codec.decode(custom_id)
        except codec.CodecError as error:
            log.warning("Channel %s: rejected button: %s", interaction.channel_id, error)
            self.metrics.clicks_refused[Refusal.INVALID].inc()
            await self.refuse(interaction, Refuse(Refusal.INVALID), None)
            return
        scope = _scope_id(interaction)
        if click.verb is codec.Verb.CONFIRM_RESIGN:
            # Pressed on the private question, not on the board: find the board's game.
            scope = self._scope_holding(interaction, click.key)
        live = self.store.get(scope)
        last_change = message.edited_at.timestamp() if message.edited_at else _sent_at(message.id)
        seen = Seen(
            click,
            message.id,
            is_current=custom_id in _custom_ids(message.components),
            seconds_since_change=_sent_at(interaction.id) - last_change,
            has_ended=self.store.has_ended(scope, message.id),
        )
        decision = decide_click(
            live, seen, interaction.user.id, game_timeout=self.game_timeout, rng=self.rng
        )
        await self._carry_out(interaction, scope, decision, live, click.key)

    async def _carry_out(
        self,
        interaction: Interaction,
        scope: int,
        decision: Decision,
        live: Live | None,
        shown: str,
    ) -> None:
        """Do what was decided; `scope` is where the clicked game lives in memory, `shown`
        the key of the state the clicked message showed."""
        match decision:
            case Update(old=old, new=new):  # the common case first
                await self._update(interaction, scope, old, shown, new)
            case Refuse(reason=reason):
                self.metrics.clicks_refused[reason].inc()
                await self.refuse(interaction, decision, live)
            case Expire(state=state):
                self.metrics.clicks_other.inc()
                await self._expire_unwatched(interaction, scope, state)
            case Start(state=state, retire=retire):
                await self._rematch(interaction, scope, retire, state)
            case Private(kind=kind, game=game):
                self.metrics.clicks_other.inc()
                await self._private(interaction, kind, game)
            case AskResign(old=old, game=game):
                await self._ask_resign(interaction, scope, old, game)
            case Resign(old=old, new=new):
                await self._resign(interaction, scope, old, new)
            case Decline(old=old, challenge=challenge):
                await self._decline(interaction, scope, old, challenge)

    async def _update(
        self, interaction: Interaction, channel_id: int, old: Live | None, shown: str, new: State
    ) -> None:
        """Move the channel from the state keyed `shown` to `new` and show it, in the click's
        one response."""
        message = interaction.message
        assert message is not None
        over = isinstance(new, Game) and new.is_over
        idle = idle_seconds(new, self.game_timeout)
        key = codec.state_key(new)
        if old is None:
            place, user_installed = _where(interaction)
        else:
            place, user_installed = old.place, old.user_installed
        live = Live(
            message.id,
            key,
            None,
            interaction.token,
            self.clock() + idle,
            interaction.guild_id,
            place,
            user_installed,
        )
        after = None if over else live
        if over and old is None:
            # A board from before a restart, ended by this click: nothing to swap in memory,
            # but a click still in flight on it must find it over.
            claimed = self.store.end_unclaimed(channel_id, message.id)
        else:
            claimed = self.store.compare_and_set(channel_id, old, after)
        if not claimed:
            await self._raced(interaction)
            return
        card = render.render_state(new, self.bot_id, self._deadline(interaction, idle), key=key)
        try:
            await update_message(interaction, card)
        except Exception as error:
            # Until settled, the older token is the one known to edit the board.
            unsure = live._replace(
                unsure_of=shown,
                token=old.token if old is not None else None,
            )
            if self._after_failed_edit(error, channel_id, after, old, unsure):
                if over and old is None and landed(error) is Landed.NO:
                    self.store.reopen(channel_id, message.id)
                raise
        self.metrics.clicks_moved.inc()  # counted once answered: the player waits for nothing
        if over:
            assert isinstance(new, Game)
            log.info("Channel %s: game over: %s", channel_id, describe(new))
            self._announce(message.id, new, _sent_at(interaction.id), *live.where)
        else:
            if isinstance(new, Game) and not new.moves:  # only an accepted challenge gives this
                self.metrics.started["friend"].inc()
            self._schedule_sweep()

    def _after_failed_edit(
        self,
        error: BaseException,
        channel_id: int,
        expected: Live | None,
        before: Live | None,
        unsure: Live,
    ) -> bool:
        """Put memory back in line with what players may see after a failed edit; True if
        the user needs an apology (False: it landed after all).

        Refused: memory goes back to `before`. Unknown (a 5xx or a timeout, which Discord may
        have applied): memory holds `unsure`, naming both states, so the next click on either
        settles it, and the expiry reads the message back before redrawing anything.
        """
        outcome = landed(error)
        if outcome is Landed.YES:
            log.info("Channel %s: the edit landed despite %s", channel_id, error)
            return False
        if outcome is Landed.NO:
            self.store.compare_and_set(channel_id, expected, before)
        else:
            log.warning("Channel %s: the edit may or may not have landed: %s", channel_id, error)
            if self.store.compare_and_set(channel_id, expected, unsure):
                self._schedule_sweep()
        return True

    async def _rematch(
        self, interaction: Interaction, channel_id: int, finished: Game, game: Game
    ) -> None:
        """Retire the finished board (no second Rematch from it) and post the new one."""
        claim = Live(
            None,
            codec.state_key(game),
            None,
            interaction.token,
            self.clock() + self.game_timeout,
            interaction.guild_id,
            *_where(interaction),
        )
        if not self.store.compare_and_set(channel_id, None, claim):
            await self._raced(interaction)
            return
        self.metrics.clicks_other.inc()
        self.metrics.started[_kind(game)].inc()
        deadline = self._deadline(interaction, self.game_timeout)
        try:
            retired = render.render_game(finished, self.bot_id, retired=True)
            await update_message(interaction, retired)
            message = await interaction.followup.send(
                view=card_view(render.render_game(game, self.bot_id, deadline)),
                ephemeral=channel_id < 0,  # a private board's rematch stays private
                wait=True,
            )
        except BaseException:
            self.store.compare_and_set(channel_id, claim, None)
            raise
        posted = claim._replace(message_id=message.id)
        self.store.compare_and_set(channel_id, claim, posted)
        self._schedule_sweep()
        log.info("Channel %s: rematch: %s", channel_id, describe(game))

    async def _private(self, interaction: Interaction, kind: PrivateKind, game: Game) -> None:
        locale = str(interaction.locale)
        if kind is PrivateKind.HINT:
            reply = render.render_hint(game, locale)
        else:
            reply = render.render_review(game, locale, self.bot_id)
        await tell(interaction, reply)

    async def _ask_resign(
        self, interaction: Interaction, scope: int, old: Live | None, game: Game
    ) -> None:
        message = interaction.message
        assert message is not None
        if old is None:  # nothing in memory since a restart: the message is the record
            idle = float(self.game_timeout)
            fresh = Live(
                message.id,
                codec.state_key(game),
                None,
                interaction.token,
                self.clock() + idle,
                interaction.guild_id,
                *_where(interaction),
            )
        else:
            idle = max(0.0, old.deadline - self.clock())
            fresh = old._replace(token=interaction.token)
        if not self.store.compare_and_set(scope, old, fresh):
            await self._raced(interaction)
            return
        self.metrics.clicks_other.inc()
        self._schedule_sweep()
        card = render.render_state(game, self.bot_id, self._deadline(interaction, idle))
        await update_message(interaction, card)
        question = render.render_resign_question(game, str(interaction.locale))
        view = reply_view(question)
        assert view is not None
        await interaction.followup.send(question.text, view=view, ephemeral=True)

    async def _resign(
        self, interaction: Interaction, channel_id: int, old: Live, new: Game
    ) -> None:
        """Confirmed on the private question: end the game on the board, then say so here."""
        if not self.store.compare_and_set(channel_id, old, None):
            await self._raced(interaction)
            return
        self.metrics.clicks_other.inc()
        assert old.token is not None
        assert old.message_id is not None
        try:
            await self._edit_by_token(old, render.render_game(new, self.bot_id))
        except Exception as error:
            unsure = old._replace(key=codec.state_key(new), unsure_of=old.key)
            if self._after_failed_edit(error, channel_id, None, old, unsure):
                raise
        log.info("Channel %s: game over: %s", channel_id, describe(new))
        url = self._jump_url(_channel_id(interaction), old)
        reply = render.render_resigned(str(interaction.locale), url)
        await interaction.response.edit_message(content=reply.text, view=None)
        self._announce(old.message_id, new, _sent_at(interaction.id), *old.where)

    async def _decline(
        self, interaction: Interaction, channel_id: int, old: Live | None, challenge: Challenge
    ) -> None:
        if not self.store.compare_and_set(channel_id, old, None):
            await self._raced(interaction)
            return
        self.metrics.clicks_other.inc()
        try:
            await update_message(interaction, render.render_challenge_declined(challenge))
        except Exception as error:
            # Unknown: the challenge stays closed; a click on it is answered as closed.
            if landed(error) is Landed.NO:
                self.store.compare_and_set(channel_id, None, old)
            if landed(error) is not Landed.YES:
                raise
        log.info("Channel %s: challenge declined", channel_id)

    def _scope_holding(self, interaction: Interaction, key: str) -> int:
        for scope in (_channel_id(interaction), _scope_id(interaction, private=True)):
            live = self.store.get(scope)
            if live is not None and live.key == key:
                return scope
        return _channel_id(interaction)

    # ------------------------------------------------------------------ private answers

    async def refuse(self, interaction: Interaction, refusal: Refuse, live: Live | None) -> None:
        url = None
        if live is not None and live.message_id is not None:
            url = self._jump_url(_channel_id(interaction), live)
        reply = render.render_refusal(
            refusal.reason,
            refusal.state,
            str(interaction.locale),
            bot_id=self.bot_id,
            command=self.command,
            live_url=url,
        )
        await tell(interaction, reply)

    async def _raced(self, interaction: Interaction) -> None:
        """Another click changed the game first: say so to this one."""
        self.metrics.clicks_raced.inc()
        await tell(interaction, render.render_raced(str(interaction.locale)))

    # ------------------------------------------------------------------ expiry

    def _schedule_sweep(self) -> None:
        """One timer for every game: it fires at the earliest deadline."""
        due = self.store.next_deadline()
        if due is None or due >= self._sweep_at:
            return
        if self._sweep_handle is not None:
            self._sweep_handle.cancel()
        loop = asyncio.get_running_loop()
        self._sweep_at = due
        self._sweep_handle = loop.call_later(max(0.0, due - self.clock()), self._on_timer)

    def _on_timer(self) -> None:
        self._sweep_handle, self._sweep_at = None, float("inf")
        task = asyncio.ensure_future(self.expire_lapsed())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def expire_lapsed(self) -> int:
        """Free every game and challenge past its deadline and show it lapsed; how many.

        The one timer calls this at the earliest deadline (tests call it after moving the
        clock). Each board is edited through its last interaction's token.
        """
        lapsed = self.store.pop_lapsed(self.clock())
        self._schedule_sweep()
        await asyncio.gather(*(self._show_lapsed(scope, live) for scope, live in lapsed))
        return len(lapsed)

    async def _show_lapsed(self, channel_id: int, live: Live) -> None:
        """Show that the game or challenge lapsed, through the last interaction's token."""
        EVENT_SHARD.set(shard_of(live.guild_id, self.bot.shard_count))
        if live.token is None:
            return
        try:
            state = codec.decode_state(live.key)
            if live.unsure_of is not None:
                # The last edit's fate is unknown: redraw only what the message really shows.
                assert live.message_id is not None
                shown = await self._webhook(live).fetch_message(live.message_id)
                state = codec.decode(next(_custom_ids(shown.components))).state
            if isinstance(state, Game) and state.is_over:
                # It ended on the board by an edit whose fate was unknown: announced now.
                assert live.message_id is not None
                self._announce(live.message_id, state, time.time(), *live.where)
                return
            try:
                await self._edit_by_token(live, render.render_expired(state, self.bot_id))
            finally:
                # The time is up whether or not the board could be redrawn.
                if isinstance(state, Game) and live.message_id is not None:
                    self._announce(live.message_id, state.expire(), time.time(), *live.where)
            log.info("Channel %s: %s expired", channel_id, describe(state))
        except (discord.HTTPException, codec.CodecError, StopIteration) as error:
            log.warning("Channel %s: could not show the expiry: %s", channel_id, error)

    async def _expire_unwatched(self, interaction: Interaction, scope: int, state: State) -> None:
        """A click on a board that lapsed while memory did not hold it (after a restart):
        show it expired, and announce the game's end once, however many clicks race here."""
        message = interaction.message
        assert message is not None
        first = self.store.end_unclaimed(scope, message.id)
        try:
            await update_message(interaction, render.render_expired(state, self.bot_id))
        finally:
            if first and isinstance(state, Game):
                ended_at = _sent_at(interaction.id)
                where = _where(interaction)
                self._announce(message.id, state.expire(), ended_at, interaction.guild_id, *where)

    def _announce(
        self,
        message_id: int,
        game: Game,
        ended_at: float,
        guild_id: int | None,
        place: str,
        user_installed: bool,
    ) -> None:
        """Count the game as finished and tell whoever listens (`on_game_finished`) that the
        game of this board has ended: after the click's answer, once per game; no I/O
        (discord.py runs each listener as a task of its own)."""
        self.metrics.finished[_kind(game), _result(game)].inc()
        finished = FinishedGame(message_id, game, ended_at, guild_id, Place(place), user_installed)
        self.bot.dispatch("game_finished", finished)

    def _webhook(self, live: Live) -> discord.Webhook:
        assert self.bot.application_id is not None
        assert live.token is not None
        return discord.Webhook.partial(self.bot.application_id, live.token, client=self.bot)

    async def _edit_by_token(self, live: Live, card: Card) -> None:
        # discord.py's public webhook API edits a message that an interaction posted or
        # updated by the message's id and the interaction's token: memory keeps two plain
        # values per game instead of an Interaction (about 8 KB and a reference cycle).
        assert live.message_id is not None
        await self._webhook(live).edit_message(live.message_id, view=card_view(card))

    # ------------------------------------------------------------------ helpers

    def _deadline(self, interaction: Interaction, idle: float) -> int:
        return int(_sent_at(interaction.id) + idle)

    def _jump_url(self, channel_id: int, live: Live) -> str:
        guild = live.guild_id or "@me"
        return f"https://discord.com/channels/{guild}/{channel_id}/{live.message_id}"


def _sent_at(snowflake: int) -> float:
    """When Discord made this id, in unix seconds: what `created_at` gives, without building
    a datetime (a click asks twice)."""
    return ((snowflake >> 22) + discord.utils.DISCORD_EPOCH) / 1000


def _where(interaction: Interaction) -> tuple[str, bool]:
    """Where a game is played, as Live keeps it: a Place's value, and whether the bot was
    reached through a user's install rather than the server's."""
    user_installed = not interaction.is_guild_integration() and interaction.is_user_integration()
    if interaction.guild_id is not None:
        return Place.SERVER.value, user_installed
    channel_type = getattr(interaction.channel, "type", None)
    place = Place.GROUP_DM if channel_type is discord.ChannelType.group else Place.DM
    return place.value, user_installed


def _channel_id(interaction: Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


def _scope_id(interaction: Interaction, private: bool = False) -> int:
    """Where a game lives in memory: its channel, or for a board only its player sees (an
    ephemeral message), that player, under a negative number so it never meets a channel."""
    message = interaction.message
    if private or (message is not None and message.flags.ephemeral and _is_board(message)):
        return -interaction.user.id
    return _channel_id(interaction)


def _is_board(message: discord.Message) -> bool:
    return message.flags.components_v2


def _custom_ids(components: Sequence[discord.Component]) -> Iterator[str]:
    """Every custom_id on a message as Discord has it now. The bot's messages keep their
    buttons in action rows, at the top level or in a container."""
    for component in components:
        rows = component.children if isinstance(component, discord.Container) else (component,)
        for row in rows:
            if isinstance(row, discord.ActionRow):
                for item in row.children:
                    if custom_id := getattr(item, "custom_id", None):
                        yield custom_id


def _kind(game: Game) -> str:
    """A game's kind, as metrics label it."""
    return "ai" if game.vs_ai else "friend"


def _result(game: Game) -> str:
    """How a finished game ended, as metrics label it."""
    if game.ending is Ending.EXPIRED:
        return "expired"
    if game.ending is not None:
        return "resigned"
    return "won" if game.winner_mark else "draw"


def describe(state: State) -> str:
    if isinstance(state, Challenge):
        return f"challenge {state.challenger} -> {state.opponent}"
    if state.ending is not None:
        outcome = state.ending.name.lower()
    elif not state.is_over:
        outcome = "in progress"
    else:
        outcome = f"won by {state.winner_mark}" if state.winner_mark else "draw"
    return f"game X={state.x_player} O={state.o_player} level={state.difficulty}: {outcome}"
