"""Starting a game or a challenge: /tictactoe and the member menu's "Challenge"."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

import tictactoe as ttt
from bot.core import codec
from bot.core.finished import describe
from bot.core.game import AI, Challenge, Game, State
from bot.core.live import board_of
from bot.core.policy import idle_seconds, refuse_start, responses_forced_private
from bot.core.server import DEFAULT_SETTINGS
from bot.game.interactions import Interaction, scope_id
from bot.ui import card_view, pings_only, tell
from bot.view.board import render_state, with_private_notice
from bot.view.replies import render_raced

if TYPE_CHECKING:
    from bot.game.cog import TicTacToeCog

log = logging.getLogger(__name__)


async def start(
    cog: TicTacToeCog,
    interaction: Interaction,
    opponent: discord.Member | discord.User | None,
    play_as: str,
    difficulty: str | None,
) -> None:
    """`difficulty` None: the server's default level."""
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
    scope = scope_id(interaction, private)
    # A board only its player sees is that player's own: one at a time, the bot's defaults.
    settings = DEFAULT_SETTINGS if private else cog.server_settings(interaction.guild_id)
    target = None if opponent is None else (opponent.id, opponent.bot)
    room = cog.room(
        scope,
        interaction.guild_id,
        user.id,
        None if opponent is None else opponent.id,
        limit=1 if private else settings.games_per_channel,
    )
    refusal = refuse_start(user.id, target, room)
    if refusal is not None:
        cog.metrics.start_refusals[refusal.reason].inc()
        await cog.refuse(interaction, refusal, refusal.link)
        return
    mark = play_as if play_as in (ttt.X, ttt.O) else cog.rng.choice((ttt.X, ttt.O))
    look = cog.usable_look(settings.look)
    state: State
    if opponent is None:
        x_player, o_player = (user.id, AI) if mark == ttt.X else (AI, user.id)
        level = difficulty or settings.difficulty
        state = Game.start(x_player, o_player, level, cog.rng, locale, look)
    else:
        state = Challenge(user.id, opponent.id, mark, locale, look)
    await post(cog, interaction, state, scope, private=private)


async def post(
    cog: TicTacToeCog, interaction: Interaction, state: State, scope: int, *, private: bool
) -> None:
    """Answer with a new message showing `state`, and hold the channel for it (or, for a
    board only its player sees, that player's own slot)."""
    board = board_of(scope, state.players)
    idle = idle_seconds(state, cog.game_timeout)
    claim = cog.live_entry(interaction, codec.state_key(state), idle)
    if isinstance(state, Challenge):
        claim = claim._replace(challenger=state.challenger)
    if not cog.store.compare_and_set(board, None, claim):
        await tell(interaction, render_raced(str(interaction.locale)))
        return
    if isinstance(state, Game):
        cog.metrics.started["ai"].inc()
    card = render_state(state, cog.bot_id, cog.deadline(interaction, idle))
    if private:
        card = with_private_notice(card, str(interaction.locale))
    try:
        response = await interaction.response.send_message(
            view=card_view(card), allowed_mentions=pings_only(card.pings), ephemeral=private
        )
    except BaseException:
        # Whatever Discord did, clicks on a board that did appear restore it from it.
        cog.store.compare_and_set(board, claim, None)
        raise
    message = response.resource
    message_id = message.id if isinstance(message, discord.InteractionMessage) else None
    cog.store.compare_and_set(board, claim, claim._replace(message_id=message_id))
    cog.expiry.schedule()
    log.debug("Channel %s: new %s", scope, describe(state))
