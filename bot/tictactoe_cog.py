"""/tictactoe, the challenge, and the buttons: who may do what, and when."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import tictactoe as ttt

from . import codec
from .game import AI, Challenge, Game, GameError
from .registry import Entry, Registry, State
from .render import (
    CHALLENGE_SECONDS,
    Screen,
    mention,
    render_challenge,
    render_challenge_declined,
    render_challenge_expired,
    render_game,
)
from .webhooks import edit_original_response

if TYPE_CHECKING:
    from .client import TicTacToeBot

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
APOLOGY = "Sorry, something went wrong on my side. Please try again."


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=r"ttt:.*"):
    """Every button this bot posts. Its custom_id holds the state of the whole message, so a
    click is handled the same way before and after a restart."""

    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)  # decoding happens in the callback, where errors can be answered

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog(TicTacToeCog.__cog_name__)  # type: ignore[attr-defined]
        try:
            await cog.on_click(interaction, self.custom_id)
        except Exception:
            log.exception("Button %r failed in channel %s", self.custom_id, interaction.channel_id)
            await apologise(interaction)


def to_view(screen: Screen) -> discord.ui.View | None:
    """The buttons of `screen` as a view of dynamic items (nothing is stored per message)."""
    if not screen.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_number, row in enumerate(screen.rows):
        for spec in row:
            button: discord.ui.Button = discord.ui.Button(
                style=spec.style,
                label=spec.label,
                emoji=spec.emoji,
                custom_id=spec.custom_id,
                disabled=spec.disabled,
                row=row_number,
            )
            view.add_item(BoardButton(button))
    return view


async def apologise(interaction: discord.Interaction) -> None:
    """Tell the user something failed, whether or not the interaction was already answered."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(APOLOGY, ephemeral=True)
        else:
            await interaction.response.send_message(APOLOGY, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not send the apology in channel %s", interaction.channel_id)


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A short answer only the clicking user sees."""
    await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)


class TicTacToeCog(commands.Cog, name="TicTacToe"):
    def __init__(self, bot: TicTacToeBot) -> None:
        self.bot = bot
        self.games = Registry(on_expire=self._on_expire)

    @property
    def game_timeout(self) -> int:
        return self.bot.settings.game_timeout_seconds

    @property
    def bot_id(self) -> int:
        assert self.bot.user is not None
        return self.bot.user.id

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(BoardButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(BoardButton)
        self.games.close()

    # ------------------------------------------------------------------ the command

    @app_commands.command(name="tictactoe", description="Play tic-tac-toe against me or a friend")
    @app_commands.describe(
        opponent="Challenge this person; leave empty to play against me",
        play_as="Your mark; X always moves first",
        difficulty="How well I play (games against me only)",
    )
    async def tictactoe(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        play_as: Literal["X", "O", "random"] = "X",
        difficulty: Literal["easy", "medium", "hard", "impossible"] = "impossible",
    ) -> None:
        user = interaction.user
        if opponent is not None and opponent.id == user.id:
            await tell(
                interaction, "You can't challenge yourself. Leave out `opponent` to play me."
            )
            return
        if opponent is not None and opponent.bot:
            await tell(
                interaction,
                "Bots can't take a challenge. Leave out `opponent` to play me instead.",
            )
            return
        if await self._refuse_if_busy(interaction):
            return
        mark = play_as if play_as != "random" else self.bot.rng.choice((ttt.X, ttt.O))
        if opponent is None:
            x_player, o_player = (user.id, AI) if mark == ttt.X else (AI, user.id)
            game = Game.start(x_player, o_player, difficulty, self.bot.rng)
            await self._post(interaction, game, render_game(game, self.bot_id), self.game_timeout)
        else:
            challenge = Challenge(user.id, opponent.id, mark)
            await self._post(interaction, challenge, render_challenge(challenge), CHALLENGE_SECONDS)

    async def _refuse_if_busy(self, interaction: discord.Interaction) -> bool:
        entry = self.games.get(channel_id(interaction))
        if entry is None:
            return False
        where = f": {entry.jump_url}" if entry.jump_url else "."
        kind = "A challenge is open" if isinstance(entry.state, Challenge) else "A game is on"
        await tell(interaction, f"{kind} in this channel{where} One game per channel at a time.")
        return True

    async def _post(
        self, interaction: discord.Interaction, state: State, screen: Screen, idle_seconds: int
    ) -> None:
        """Answer with a new public message showing `state`, and register it for the channel."""
        entry = self.games.claim(channel_id(interaction), state)
        assert entry is not None, "checked by _refuse_if_busy with no await in between"
        try:
            response = await interaction.response.send_message(
                screen.content,
                view=to_view(screen),  # type: ignore[arg-type]
                allowed_mentions=pings_only(screen.pings),
            )
        except BaseException:
            self.games.release(entry)
            raise
        message = response.resource
        assert isinstance(message, discord.InteractionMessage)
        self.games.attach(entry, message.id, message.jump_url, interaction.token)
        self.games.touch(entry, interaction.token, idle_seconds)
        log.info("Channel %s: new %s", entry.channel_id, describe(state))

    # ------------------------------------------------------------------ the buttons

    async def on_click(self, interaction: discord.Interaction, custom_id: str) -> None:
        try:
            click = codec.decode(custom_id)
        except codec.CodecError as error:
            log.warning("Channel %s: rejected button: %s", interaction.channel_id, error)
            await tell(interaction, "This button is not valid. Start a game with /tictactoe.")
            return
        if isinstance(click, codec.ChallengeClick):
            await self._on_challenge_click(interaction, click)
        elif click.verb is codec.Verb.REMATCH:
            await self._on_rematch(interaction, click.game)
        else:
            await self._on_game_click(interaction, click)

    async def _find_state(
        self, interaction: discord.Interaction, shown: State
    ) -> tuple[Entry | None, State | None]:
        """The live state behind the clicked message: (entry, its state) when the channel's
        registry holds it, (None, `shown`) when nothing is in memory since a restart.

        Returns (None, None) after answering the click itself: the message is not the live one,
        or it lapsed while the bot was down.
        """
        assert interaction.message is not None
        entry = self.games.get(channel_id(interaction))
        if entry is not None and entry.message_id == interaction.message.id:
            return entry, entry.state
        if entry is not None:
            where = f" The current one is here: {entry.jump_url}" if entry.jump_url else ""
            await tell(interaction, f"This board is no longer active.{where}")
            return None, None
        if self.games.has_ended(channel_id(interaction), interaction.message.id):
            closed = "challenge is closed" if isinstance(shown, Challenge) else "game is over"
            await tell(interaction, f"This {closed}.")
            return None, None
        # The message is the only record; the time since its last edit says if it lapsed.
        timeout = CHALLENGE_SECONDS if isinstance(shown, Challenge) else self.game_timeout
        last_change = interaction.message.edited_at or interaction.message.created_at
        if interaction.created_at - last_change > timedelta(seconds=timeout):
            await self._show(interaction, expired_screen(shown, self.bot_id))
            return None, None
        return None, shown

    def _restore(self, interaction: discord.Interaction, state: State) -> Entry:
        """Register the game of a message posted before a restart, once a click on it is valid."""
        assert interaction.message is not None
        entry = self.games.claim(channel_id(interaction), state)
        assert entry is not None, (
            "the channel was free when _find_state looked, with no await since"
        )
        message = interaction.message
        self.games.attach(entry, message.id, message.jump_url, interaction.token)
        log.info("Channel %s: restored %s from its message", entry.channel_id, describe(state))
        return entry

    async def _on_game_click(
        self, interaction: discord.Interaction, click: codec.GameClick
    ) -> None:
        if click.game.is_over:
            await tell(interaction, "This game is over.")
            return
        entry, game = await self._find_state(interaction, click.game)
        if game is None:
            return
        if not isinstance(game, Game):
            await tell(interaction, "This button is not valid. Start a game with /tictactoe.")
            return
        if game.is_over:  # a click that raced the game's last move
            await tell(interaction, "This game is over.")
            return
        user_id = interaction.user.id
        if game.mark_of(user_id) is None:
            players = " and ".join(mention(player, self.bot_id) for player in game.players)
            await tell(
                interaction,
                f"This game is between {players}. Start your own with /tictactoe.",
            )
            return
        if click.verb is codec.Verb.RESIGN:
            new = game.resign(user_id)
        else:
            if game.player_to_move != user_id:
                await tell(interaction, f"It's {mention(game.player_to_move, self.bot_id)}'s turn.")
                return
            if click.game != game:
                await tell(interaction, "The board changed before your click landed. Pick again.")
                return
            assert click.cell is not None
            try:
                new = game.play(click.cell).with_ai_reply(self.bot.rng)
            except (GameError, ValueError):
                await tell(interaction, "That cell is taken. Pick an empty one.")
                return
        await self._update(interaction, entry or self._restore(interaction, game), game, new)

    async def _update(
        self, interaction: discord.Interaction, entry: Entry, old: State, new: State
    ) -> None:
        """Move the channel from `old` to `new` and show it, in the click's one response."""
        if not self.games.swap(entry, old, new):
            await tell(interaction, "Someone else's click got there first. Look again.")
            return
        screen = render_game(new, self.bot_id) if isinstance(new, Game) else render_challenge(new)
        try:
            await self._show(interaction, screen)
        except BaseException:
            self.games.swap(entry, new, old)  # the message still shows `old`
            raise
        if isinstance(new, Game) and new.is_over:
            self.games.release(entry)
            log.info("Channel %s: game over: %s", entry.channel_id, describe(new))
        else:
            self.games.touch(entry, interaction.token, self.game_timeout)

    async def _show(self, interaction: discord.Interaction, screen: Screen) -> None:
        await interaction.response.edit_message(
            content=screen.content,
            view=to_view(screen),  # type: ignore[arg-type]
            allowed_mentions=NO_PINGS,
        )

    async def _on_rematch(self, interaction: discord.Interaction, finished: Game) -> None:
        if not finished.is_over:
            await tell(interaction, "This button is not valid. Start a game with /tictactoe.")
            return
        if interaction.user.id not in finished.players:
            await tell(interaction, "Only the players of this game can ask for a rematch.")
            return
        if await self._refuse_if_busy(interaction):
            return
        game = finished.rematch(self.bot.rng)
        await self._post(interaction, game, render_game(game, self.bot_id), self.game_timeout)

    async def _on_challenge_click(
        self, interaction: discord.Interaction, click: codec.ChallengeClick
    ) -> None:
        entry, challenge = await self._find_state(interaction, click.challenge)
        if challenge is None:
            return
        if challenge != click.challenge:
            await tell(interaction, "This challenge is no longer open.")
            return
        assert isinstance(challenge, Challenge)
        if interaction.user.id != challenge.opponent:
            await tell(interaction, f"Only <@{challenge.opponent}> can answer this challenge.")
            return
        entry = entry or self._restore(interaction, challenge)
        if click.verb is codec.Verb.ACCEPT:
            await self._update(interaction, entry, challenge, challenge.accept())
            return
        self.games.release(entry)
        await self._show(interaction, render_challenge_declined(challenge))
        log.info("Channel %s: challenge declined", entry.channel_id)

    # ------------------------------------------------------------------ expiry

    async def _on_expire(self, entry: Entry) -> None:
        """Show that the game or challenge lapsed, through the last interaction's token."""
        if entry.token is None:
            return
        screen = expired_screen(entry.state, self.bot_id)
        try:
            await edit_original_response(
                self.bot,
                entry.token,
                content=screen.content,
                view=to_view(screen),
                allowed_mentions=NO_PINGS,
            )
        except discord.HTTPException as error:
            log.warning("Channel %s: could not show the expiry: %s", entry.channel_id, error)


def expired_screen(state: State, bot_id: int) -> Screen:
    if isinstance(state, Challenge):
        return render_challenge_expired(state)
    return render_game(state.expire(), bot_id)


def pings_only(user_ids: tuple[int, ...]) -> discord.AllowedMentions:
    users = [discord.Object(user_id) for user_id in user_ids]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def channel_id(interaction: discord.Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


def describe(state: State) -> str:
    if isinstance(state, Challenge):
        return f"challenge {state.challenger} -> {state.opponent}"
    if state.ending is not None:
        result = state.ending.name.lower()
    elif not state.is_over:
        result = "in progress"
    else:
        result = f"won by {state.winner_mark}" if state.winner_mark else "draw"
    return f"game X={state.x_player} O={state.o_player} level={state.difficulty}: {result}"
