"""Tournaments on Discord: /tournament create and standings, the sign-up and round cards'
buttons, the thread, the rounds' boards (posted by the bot, paced for Discord's per-channel
rate limit) and the results the game announces (`game_finished` with a pairing).

The store (bot/tournaments/store.py) decides everything; this cog shows what it decided. Boards
are posted through an outbox (claim_posts / mark_posted), one posting task per tournament at
a time, so a restart finds what was posted and posts nothing twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Literal, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.codec import CodecError
from bot.core.finished import FinishedGame
from bot.core.game import AnyGame, Challenge, Game
from bot.core.server import Look
from bot.core.ultimate_game import UltimateGame
from bot.game.table import SeatTaken, Table
from bot.i18n import translations
from bot.records.api import RecordsError
from bot.tournaments import codec
from bot.tournaments import view as tour_view
from bot.tournaments.codec import Verb
from bot.tournaments.core import Format, Result
from bot.tournaments.keys import pairing_key, pairing_text, result_of_board
from bot.tournaments.running import (
    MIN_PLAYERS,
    Board,
    JoinResult,
    LeaveResult,
    PairingKey,
    Progress,
    StartResult,
    State,
    StoredTournament,
)
from bot.tournaments.store import TournamentStore
from bot.tournaments.summary import render_summary_line
from bot.ui import VARIANT_CHOICES, card_view, pings_only, tell, update_message
from bot.view.cards import Card, Reply

if TYPE_CHECKING:
    from bot.app import TicTacToeBot
    from bot.ui import Interaction

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# Discord lets a bot send 5 messages per 5 seconds in one channel (a thread is one): posting
# at that pace keeps 429s rare (discord.py would retry them, but each costs a round trip).
MESSAGES_PER_WINDOW = 5
WINDOW_SECONDS = 5.0
# How far back start-up looks in a thread for boards posted but not confirmed.
HISTORY_LIMIT = 200
# A result the database refuses is tried again (a round must not hang on it), waiting longer
# each time up to the last wait.
FIRST_RETRY_SECONDS = 1.0
LAST_RETRY_SECONDS = 60.0
_NO_PINGS = discord.AllowedMentions.none()
FORMAT_CHOICES = [
    app_commands.Choice(name=locale_str("Swiss"), value="swiss"),
    app_commands.Choice(name=locale_str("Round-robin"), value="round-robin"),
]


class Pacer:
    """Spaces one channel's messages: at most MESSAGES_PER_WINDOW in any WINDOW_SECONDS."""

    def __init__(self) -> None:
        self._sent: defaultdict[int, deque[float]] = defaultdict(
            lambda: deque(maxlen=MESSAGES_PER_WINDOW)
        )

    async def wait(self, channel_id: int) -> None:
        loop = asyncio.get_running_loop()
        sent = self._sent[channel_id]
        if len(sent) == MESSAGES_PER_WINDOW:
            delay = sent[0] + WINDOW_SECONDS - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
        sent.append(loop.time())


class TournamentsCog(commands.Cog, name="Tournaments"):
    tournament = app_commands.Group(
        name="tournament",
        description=locale_str("Run a tic-tac-toe tournament in this server"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: TicTacToeBot, store: TournamentStore, table: Table) -> None:
        self.bot = bot
        self.store = store
        self.table = table
        self.pacer = Pacer()
        # One task at a time per tournament posts its cards and boards.
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._resumed: set[int] = set()

    async def stats_line(self, user_id: int, guild_id: int | None, locale: str) -> str | None:
        """/stats's line about the player's finished tournaments (the records cog asks)."""
        return render_summary_line(await self.store.player_summary(user_id, guild_id), locale)

    async def cog_load(self) -> None:
        self.bot.routes.add([codec.PREFIX], self.on_click)

    async def cog_unload(self) -> None:
        self.bot.routes.remove([codec.PREFIX])

    # ------------------------------------------------------------------ commands

    @tournament.command(name="create", description=locale_str("Open a tournament's sign-up here"))
    @app_commands.describe(
        format=locale_str("Swiss (a few rounds) or round-robin (everyone meets everyone)"),
        rounds=locale_str("Swiss only: how many rounds (decided by the field if left out)"),
        variant=locale_str("Classic or Ultimate boards (the server's default if left out)"),
        name=locale_str("The tournament's name"),
    )
    @app_commands.choices(format=FORMAT_CHOICES, variant=VARIANT_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        format: Literal["swiss", "round-robin"] = "swiss",
        rounds: app_commands.Range[int, 1, 20] | None = None,
        variant: Literal["classic", "ultimate"] | None = None,
        name: app_commands.Range[str, 1, 80] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        format_ = Format.SWISS if format == "swiss" else Format.ROUND_ROBIN
        created = await self.store.create(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            organiser_id=interaction.user.id,
            format_=format_,
            rounds=rounds if format_ is Format.SWISS else None,
            variant=variant or self.bot.server_settings(interaction.guild_id).variant,
            name=name,
        )
        card = tour_view.render_signup_card(created, _guild_locale(interaction))
        await interaction.response.send_message(view=card_view(card), allowed_mentions=_NO_PINGS)
        message = await interaction.original_response()
        await self.store.set_card(created.tournament_id, message.id)

    @tournament.command(
        name="standings", description=locale_str("This tournament's standings (in its thread)")
    )
    async def standings(self, interaction: Interaction) -> None:
        locale = str(interaction.locale)
        found = None
        if interaction.channel_id is not None:
            found = await self.store.by_thread(interaction.channel_id)
        if found is None:
            await tell(interaction, tour_view.render_not_in_a_thread(locale))
            return
        await self._send_standings(interaction, found, 0)

    # ------------------------------------------------------------------ buttons

    async def on_click(
        self, interaction: discord.Interaction[TicTacToeBot], custom_id: str
    ) -> None:
        click = codec.parse(custom_id)
        locale = str(interaction.locale)
        if click is None:
            return
        found = await self.store.load(click.tournament_id)
        if found is None or found.guild_id != interaction.guild_id:
            await tell(interaction, tour_view.render_tournament_over(locale))
            return
        user = interaction.user.id
        verb = click.verb
        if verb is Verb.JOIN:
            joined = await self.store.join(found.tournament_id, user)
            await self._answer_signup(interaction, found.tournament_id, _JOIN_REPLIES[joined])
        elif verb is Verb.LEAVE:
            left = await self.store.leave(found.tournament_id, user)
            await self._answer_signup(interaction, found.tournament_id, _LEAVE_REPLIES[left])
        elif verb in (Verb.START, Verb.CANCEL) and user != found.organiser_id:
            await tell(interaction, tour_view.render_only_organiser(found.organiser_id, locale))
        elif verb is Verb.START:
            await self._start(interaction, found)
        elif verb is Verb.CANCEL:
            progress = await self.store.cancel(found.tournament_id)
            if not progress.changed or progress.tournament is None:
                await tell(interaction, tour_view.render_not_open(locale))
                return
            card = tour_view.render_signup_card(progress.tournament, _guild_locale(interaction))
            await update_message(interaction, card)
        elif found.state is not State.RUNNING:
            await tell(interaction, tour_view.render_tournament_over(locale))
        elif verb is Verb.STANDINGS:
            await self._send_standings(interaction, found, click.number)
        elif user not in found.players:
            await tell(interaction, tour_view.render_not_player(locale))
        elif verb is Verb.WITHDRAW:
            await tell(interaction, tour_view.render_withdraw_question(found.tournament_id, locale))
        elif verb is Verb.WITHDRAW_KEEP:
            await _edit_reply(interaction, tour_view.render_not_withdrawn(locale).text)
        elif verb is Verb.WITHDRAW_CONFIRM:
            await self._withdraw(interaction, found, user)

    async def _answer_signup(
        self, interaction: Interaction, tournament_id: int, reply: _ReplyMaker
    ) -> None:
        """The private one-line answer, and the sign-up card shown as it now stands."""
        locale = str(interaction.locale)
        await tell(interaction, reply(locale))
        found = await self.store.load(tournament_id)
        if found is not None and found.card_message_id is not None:
            card = tour_view.render_signup_card(found, _guild_locale(interaction))
            await self._edit(found.channel_id, found.card_message_id, card)

    async def _start(self, interaction: Interaction, found: StoredTournament) -> None:
        locale = str(interaction.locale)
        if found.state is not State.SIGNUP:
            await tell(interaction, tour_view.render_not_open(locale))
            return
        if len(found.players) < MIN_PLAYERS:
            await tell(interaction, tour_view.render_too_few_players(locale))
            return
        granted = interaction.app_permissions
        if not (granted.create_public_threads and granted.send_messages_in_threads):
            reply = tour_view.render_missing_thread_permissions(found.channel_id, locale)
            await tell(interaction, reply)
            return
        assert interaction.message is not None
        await interaction.response.defer()  # the thread and the database may take a moment
        guild_locale = _guild_locale(interaction)
        name = tour_view.title(found, translations(guild_locale).gettext)[:100]
        thread = await interaction.message.create_thread(name=name)
        started, progress = await self.store.start(found.tournament_id, thread.id)
        if started is not StartResult.STARTED or progress.tournament is None:
            log.info("Tournament %s did not start: %s", found.tournament_id, started)
            await interaction.followup.send(tour_view.render_not_open(locale).text, ephemeral=True)
            return
        card = tour_view.render_signup_card(
            progress.tournament, guild_locale, thread_url=thread.jump_url
        )
        await interaction.edit_original_response(view=card_view(card))
        await self.follow(progress)

    async def _send_standings(
        self, interaction: Interaction, found: StoredTournament, page: int
    ) -> None:
        card = tour_view.render_standings(found, str(interaction.locale), page=page)
        if page and interaction.message is not None and interaction.message.flags.ephemeral:
            await update_message(interaction, card)
            return
        await interaction.response.send_message(
            view=card_view(card), ephemeral=True, allowed_mentions=_NO_PINGS
        )

    async def _withdraw(self, interaction: Interaction, found: StoredTournament, user: int) -> None:
        locale = str(interaction.locale)
        await _edit_reply(interaction, tour_view.render_withdrawn(locale).text)
        await self._show_withdrawal(await self.store.withdraw(found.tournament_id, user), user)

    async def _show_withdrawal(self, progress: Progress, user: int) -> None:
        """The boards a withdrawal forfeited lost by resignation, and what followed."""
        found = progress.tournament
        if found is not None and found.thread_id is not None:
            for board in progress.forfeited:
                await self.table.withdraw(found.thread_id, (board.x, board.o), user)
        await self.follow(progress)

    @commands.Cog.listener()
    async def on_player_forgotten(self, user_id: int) -> None:
        """/forget-me (the records announce it): the player leaves or withdraws wherever they
        play, their sign-ups are cancelled, and their id is gone from every tournament."""
        try:
            changes = await self.store.forget(user_id)
        except RecordsError:
            log.exception("Could not delete a player's tournament data")
            return
        for progress in changes:
            found = progress.tournament
            if not progress.changed or found is None:
                continue
            if found.state in (State.SIGNUP, State.CANCELLED) and found.card_message_id:
                card = tour_view.render_signup_card(found, _locale_of(self.bot, found.guild_id))
                await self._edit(found.channel_id, found.card_message_id, card)
            else:
                await self._show_withdrawal(progress, user_id)

    # ------------------------------------------------------------------ results

    @commands.Cog.listener()
    async def on_game_finished(self, finished: FinishedGame) -> None:
        key = pairing_key(finished.game.pairing)
        if key is None:
            return
        await self.follow(await self._record_result(key, result_of_board(finished.game)))

    async def _record_result(self, key: PairingKey, result: Result) -> Progress:
        """The result written, however long the database refuses it. (A process stopped
        meanwhile leaves the board over in the thread: the next start-up writes it.)"""
        return await _until_done(
            lambda: self.store.record_result(key, result),
            f"Tournament game {pairing_text(key)} not recorded",
            f"Tournament game {pairing_text(key)} recorded after all",
        )

    async def follow(self, progress: Progress) -> None:
        """Show what a store call changed: closed rounds' results, the end, new rounds."""
        found = progress.tournament
        if not progress.changed or found is None or found.thread_id is None:
            return
        locale = _locale_of(self.bot, found.guild_id)
        for round_number in progress.closed_rounds:
            await self._show_round(found, round_number, locale)
        if progress.finished:
            await self._finish(found, locale)
        if progress.paired_rounds or progress.forfeited:
            await self.post_rounds(found.tournament_id)

    async def _show_round(self, found: StoredTournament, round_number: int, locale: str) -> None:
        """A closed round's results on its card (posted now if it never was)."""
        assert found.thread_id is not None
        async with self._locks[found.tournament_id]:  # not while its card is being posted
            stored = await self.store.load(found.tournament_id) or found
            card = tour_view.render_round_card(stored, round_number, locale)
            message_id = stored.round_card(round_number).message_id
            if message_id is not None:
                await self._edit(found.thread_id, message_id, card)
            else:
                await self._post_round_card(stored, round_number, card)

    async def _finish(self, found: StoredTournament, locale: str) -> None:
        assert found.thread_id is not None
        await self._send(found.thread_id, tour_view.render_final_card(found, locale))
        if found.card_message_id is not None:
            thread_url = _thread_url(found)
            card = tour_view.render_signup_card(found, locale, thread_url=thread_url)
            await self._edit(found.channel_id, found.card_message_id, card)

    # ------------------------------------------------------------------ posting rounds

    async def post_rounds(self, tournament_id: int) -> None:
        """Post every round card and board not posted yet, one task per tournament."""
        async with self._locks[tournament_id]:
            boards = await self.store.claim_posts(tournament_id)
            if not boards:
                return
            found = await self.store.load(tournament_id)
            if found is None or found.thread_id is None or found.state is not State.RUNNING:
                return
            locale = _locale_of(self.bot, found.guild_id)
            for round_number in sorted({b.key.round_number for b in boards}):
                card = tour_view.render_round_card(found, round_number, locale)
                await self._post_round_card(found, round_number, card)
            for board in boards:
                await self._post_board(found, board, locale)

    async def _post_round_card(
        self, found: StoredTournament, round_number: int, card: Card
    ) -> None:
        """Post a round's card once: taken before it is sent, its id kept once Discord answers
        (a restart finds a card taken but not confirmed in the thread, by its Withdraw's id)."""
        assert found.thread_id is not None
        if not await self.store.claim_round_card(found.tournament_id, round_number):
            return
        try:
            message_id = await self._send(found.thread_id, card)
        except discord.HTTPException:
            log.exception(
                "Could not post round %s of tournament %s", round_number, found.tournament_id
            )
            await self.store.unclaim_round_card(found.tournament_id, round_number)
            return
        await self.store.mark_round_card(found.tournament_id, round_number, message_id)

    async def _post_board(self, found: StoredTournament, board: Board, locale: str) -> None:
        assert found.thread_id is not None
        game = self._game_of(found, board, locale)
        await self.pacer.wait(found.thread_id)
        try:
            message_id = await self.table.post_board(
                found.variant, game, found.thread_id, found.guild_id
            )
        except (SeatTaken, discord.HTTPException):
            log.exception("Could not post tournament board %s", pairing_text(board.key))
            await self.store.unclaim(board.key)
            return
        await self.store.mark_posted(board.key, message_id)

    def _game_of(self, found: StoredTournament, board: Board, locale: str) -> AnyGame:
        look = Look(self.bot.server_settings(found.guild_id).turn_timeout)
        pairing = pairing_text(board.key)
        if found.variant == "ultimate":
            return dataclasses.replace(
                UltimateGame.start(board.x, board.o, None, locale, look), pairing=pairing
            )
        return Game(board.x, board.o, moves=(), locale=locale, look=look, pairing=pairing)

    # ------------------------------------------------------------------ start-up

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        await self.resume(guild.id for guild in self.bot.guilds)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.resume((guild.id,))

    async def resume(self, guild_ids: Iterable[int]) -> None:
        """After a restart: finished rounds followed up, boards taken but not confirmed found
        in the thread (or posted), the rest posted, and every posted board watched again."""
        ids = list(guild_ids)
        active = await _until_done(
            lambda: self.store.active(ids),
            "Tournaments not resumed yet",
            "Tournaments' database answers again: resuming them",
        )
        for found in active:
            if found.state is not State.RUNNING or found.tournament_id in self._resumed:
                continue
            self._resumed.add(found.tournament_id)
            try:
                await self._resume_one(found)
            except (discord.HTTPException, OSError, RecordsError):
                log.exception("Could not resume tournament %s", found.tournament_id)
                self._resumed.discard(found.tournament_id)  # the next start-up or return

    async def _resume_one(self, found: StoredTournament) -> None:
        await self.follow(await self.store.catch_up(found.tournament_id))
        assert found.thread_id is not None
        async with self._locks[found.tournament_id]:
            unconfirmed = {
                pairing_text(b.key): b
                for b in await self.store.unconfirmed_posts(found.tournament_id)
            }
            stored = await self.store.load(found.tournament_id) or found
            cards = {
                codec.custom_id(Verb.WITHDRAW, found.tournament_id, number): number
                for number, card in enumerate(stored.round_cards, start=1)
                if card.claimed and card.message_id is None
            }
            watched, ended = await self._watch_thread(found, unconfirmed, cards)
            for text, board in unconfirmed.items():
                if text not in watched:
                    await self.store.unclaim(board.key)
            for custom_id, number in cards.items():
                if custom_id not in watched:
                    await self.store.unclaim_round_card(found.tournament_id, number)
        # Games the thread shows over whose results were never written (the process died, or
        # the database failed, between the board's last edit and the result): written now, so
        # that their round cannot hang. A result already written changes nothing.
        for game in ended:
            key = pairing_key(game.pairing)
            if key is not None:
                await self.follow(await self._record_result(key, result_of_board(game)))
        await self.post_rounds(found.tournament_id)

    async def _watch_thread(
        self, found: StoredTournament, unconfirmed: dict[str, Board], cards: dict[str, int]
    ) -> tuple[set[str], list[AnyGame]]:
        """Hold again every unfinished board of the thread's recent history; the pairings of
        the unconfirmed boards found there and the Withdraw ids of the unconfirmed round cards
        (`cards`: id -> round) found there, each marked posted; the games its boards show over."""
        kind = next(k for k in self.table.kinds if k.name == found.variant)
        ended: list[AnyGame] = []
        assert found.thread_id is not None
        thread = self.bot.get_channel(found.thread_id) or await self.bot.fetch_channel(
            found.thread_id
        )
        assert isinstance(thread, discord.Thread)
        seen: set[str] = set()
        async for message in thread.history(limit=HISTORY_LIMIT):
            if self.bot.user is None or message.author.id != self.bot.user.id:
                continue
            ids = _custom_ids(message)
            text = next((t for t in unconfirmed if any(t in i for i in ids)), None)
            if text is not None and text not in seen:
                seen.add(text)
                await self.store.mark_posted(unconfirmed[text].key, message.id)
            card = next((i for i in ids if i in cards and i not in seen), None)
            if card is not None:  # the newest, as history comes newest first
                seen.add(card)
                await self.store.mark_round_card(found.tournament_id, cards[card], message.id)
            changed = message.edited_at or message.created_at
            board_id = next((i for i in ids if not i.startswith(codec.PREFIX)), None)
            if board_id is None:
                continue
            try:
                shown = kind.decode(board_id).state
            except CodecError:
                continue
            if isinstance(shown, Challenge) or shown.pairing is None:
                continue
            if shown.is_over:
                ended.append(shown)
                continue
            self.table.watch_board(
                found.variant,
                board_id,
                message.id,
                found.thread_id,
                found.guild_id,
                changed.timestamp(),
            )
        return seen, ended

    # ------------------------------------------------------------------ sending

    async def _send(self, channel_id: int, card: Card) -> int:
        await self.pacer.wait(channel_id)
        channel = self.bot.get_partial_messageable(channel_id)
        message = await channel.send(view=card_view(card), allowed_mentions=pings_only(card.pings))
        return message.id

    async def _edit(self, channel_id: int, message_id: int, card: Card) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await channel.get_partial_message(message_id).edit(view=card_view(card))
        except discord.HTTPException:
            log.warning("Could not edit tournament card %s in %s", message_id, channel_id)


_ReplyMaker = Callable[[str | None], Reply]
_JOIN_REPLIES = {
    JoinResult.JOINED: tour_view.render_joined,
    JoinResult.ALREADY_JOINED: tour_view.render_already_joined,
    JoinResult.NOT_OPEN: tour_view.render_not_open,
    JoinResult.IN_ANOTHER: tour_view.render_in_another,
}
_LEAVE_REPLIES = {
    LeaveResult.LEFT: tour_view.render_left,
    LeaveResult.NOT_JOINED: tour_view.render_not_joined,
    LeaveResult.NOT_OPEN: tour_view.render_not_open,
}


async def _until_done(call: Callable[[], Awaitable[_T]], failing: str, recovered: str) -> _T:
    """`call`'s answer, however long the database refuses it (a round must not hang on a lost
    write): tried again after 1 s, then twice as long each time up to a minute; one warning
    (`failing`: the first error) when it fails, one line (`recovered`) when it works."""
    wait = FIRST_RETRY_SECONDS
    failed = False
    while True:
        try:
            answer = await call()
        except RecordsError as error:
            if not failed:
                log.warning("%s, trying again: %s", failing, error)
                failed = True
            await asyncio.sleep(wait)
            wait = min(2 * wait, LAST_RETRY_SECONDS)
            continue
        if failed:
            log.info("%s", recovered)
        return answer


async def _edit_reply(interaction: Interaction, text: str) -> None:
    """Answer a private question's button by replacing the question."""
    await interaction.response.edit_message(content=text, view=None)


def _guild_locale(interaction: discord.Interaction[TicTacToeBot]) -> str:
    return str(interaction.guild_locale or "en-US")


def _locale_of(bot: TicTacToeBot, guild_id: int) -> str:
    guild = bot.get_guild(guild_id)
    return str(guild.preferred_locale) if guild is not None else "en-US"


def _thread_url(found: StoredTournament) -> str:
    return f"https://discord.com/channels/{found.guild_id}/{found.thread_id}"


def _custom_ids(message: discord.Message) -> list[str]:
    found: list[str] = []

    def walk(component: object) -> None:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            found.append(custom_id)
        for child in getattr(component, "children", ()) or ():
            walk(child)
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            walk(accessory)

    for component in message.components:
        walk(component)
    return found
