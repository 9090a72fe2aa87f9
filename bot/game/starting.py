"""Starting a game or a challenge: /tictactoe and the member menu's "Challenge"."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

import tictactoe as ttt
from bot.core import codec
from bot.core.finished import describe
from bot.core.game import AI, Challenge, Game, State
from bot.core.policy import idle_seconds, refuse_start, responses_forced_private
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
    scope = scope_id(interaction, private)
    live = cog.store.get(scope)
    target = None if opponent is None else (opponent.id, opponent.bot)
    refusal = refuse_start(live, user.id, target)
    if refusal is not None:
        await cog.refuse(interaction, refusal, live)
        return
    mark = play_as if play_as in (ttt.X, ttt.O) else cog.rng.choice((ttt.X, ttt.O))
    state: State
    if opponent is None:
        x_player, o_player = (user.id, AI) if mark == ttt.X else (AI, user.id)
        state = Game.start(x_player, o_player, difficulty, cog.rng, locale)
    else:
        state = Challenge(user.id, opponent.id, mark, locale)
    await post(cog, interaction, state, private=private)


async def post(cog: TicTacToeCog, interaction: Interaction, state: State, *, private: bool) -> None:
    """Answer with a new message showing `state`, and hold the channel for it (or, for a
    board only its player sees, that player's own slot)."""
    scope = scope_id(interaction, private)
    idle = idle_seconds(state, cog.game_timeout)
    claim = cog.live_entry(interaction, codec.state_key(state), idle)
    if not cog.store.compare_and_set(scope, None, claim):
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
        # Whatever Discord did, clicks on a board that did appear restore it from itcog.
        cog.store.compare_and_set(scope, claim, None)
        raise
    message = response.resource
    message_id = message.id if isinstance(message, discord.InteractionMessage) else None
    cog.store.compare_and_set(scope, claim, claim._replace(message_id=message_id))
    cog.expiry.schedule()
    log.debug("Channel %s: new %s", scope, describe(state))
