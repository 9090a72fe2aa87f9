"""Carrying out what a click on a board's controls decided: rematch, hint and review, resign
(asked, then confirmed), decline, and a click on a board that lapsed while memory did not hold
it. Moves and refusals stay in the cog, on the common path."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core import codec
from bot.core.finished import describe, kind_of
from bot.core.game import Challenge, Game, State
from bot.core.live import Board, Live
from bot.core.policy import PrivateKind, idle_seconds, refuse_start
from bot.game.delivery import Landed, landed
from bot.game.interactions import Interaction, channel_id, sent_at, where
from bot.ui import card_view, reply_view, tell, update_message
from bot.view.board import render_challenge_declined, render_expired, render_game, render_state
from bot.view.replies import render_not_resigned, render_resign_question, render_resigned
from bot.view.teaching import render_hint, render_review

if TYPE_CHECKING:
    from bot.game.cog import TicTacToeCog

log = logging.getLogger(__name__)


async def rematch(
    cog: TicTacToeCog, interaction: Interaction, board: Board, finished: Game, game: Game
) -> None:
    """Retire the finished board (no second Rematch from it) and post the new one, if the
    channel has room for it and neither player has started another game there since."""
    scope, private = board[0], board[0] < 0
    limit = 1 if private else cog.server_settings(interaction.guild_id).games_per_channel
    players = [player for player in game.players if player]  # not the bot
    rooms = [cog.room(scope, None, player, None, limit=limit) for player in players]
    for refusal in filter(
        None,
        (refuse_start(player, None, room) for player, room in zip(players, rooms, strict=True)),
    ):
        cog.metrics.start_refusals[refusal.reason].inc()
        await cog.refuse(interaction, refusal, refusal.link)
        return
    idle = idle_seconds(game, cog.game_timeout)
    claim = cog.live_entry(interaction, codec.state_key(game), idle)
    if not cog.store.compare_and_set(board, None, claim):
        await cog.raced(interaction)
        return
    cog.metrics.clicks_other.inc()
    cog.metrics.started[kind_of(game)].inc()
    deadline = cog.deadline(interaction, idle)
    try:
        retired = render_game(finished, cog.bot_id, retired=True)
        await update_message(interaction, retired)
        message = await interaction.followup.send(
            view=card_view(render_game(game, cog.bot_id, deadline)),
            ephemeral=private,  # a private board's rematch stays private
            wait=True,
        )
    except BaseException:
        cog.store.compare_and_set(board, claim, None)
        raise
    posted = claim._replace(message_id=message.id)
    cog.store.compare_and_set(board, claim, posted)
    cog.expiry.schedule()
    log.debug("Channel %s: rematch: %s", scope, describe(game))


async def private(
    cog: TicTacToeCog, interaction: Interaction, kind: PrivateKind, game: Game
) -> None:
    locale = str(interaction.locale)
    if kind is PrivateKind.HINT:
        reply = render_hint(game, locale)
    else:
        reply = render_review(game, locale, cog.bot_id)
    await tell(interaction, reply)


async def ask_resign(
    cog: TicTacToeCog, interaction: Interaction, board: Board, old: Live | None, game: Game
) -> None:
    message = interaction.message
    assert message is not None
    if old is None:  # nothing in memory since a restart: the message is the record
        idle = idle_seconds(game, cog.game_timeout)
        fresh = cog.live_entry(interaction, codec.state_key(game), idle, message.id)
    else:
        idle = max(0.0, old.deadline - cog.clock())
        fresh = old._replace(token=interaction.token)
    if not cog.store.compare_and_set(board, old, fresh):
        await cog.raced(interaction)
        return
    cog.metrics.clicks_other.inc()
    cog.expiry.schedule()
    card = render_state(game, cog.bot_id, cog.deadline(interaction, idle))
    await update_message(interaction, card)
    question = render_resign_question(game, str(interaction.locale))
    view = reply_view(question)
    assert view is not None
    await interaction.followup.send(question.text, view=view, ephemeral=True)


async def resign(
    cog: TicTacToeCog, interaction: Interaction, board: Board, old: Live, new: Game
) -> None:
    """Confirmed on the private question: end the game on the board, then say so here."""
    if not cog.store.compare_and_set(board, old, None):
        await cog.raced(interaction)
        return
    cog.metrics.clicks_other.inc()
    assert old.token is not None
    assert old.message_id is not None
    try:
        await cog.delivery.edit_by_token(old, render_game(new, cog.bot_id))
    except Exception as error:
        unsure = old._replace(key=codec.state_key(new), unsure_of=old.key)
        if cog.delivery.after_failed_edit(error, board, None, old, unsure):
            raise
    log.debug("Channel %s: game over: %s", board[0], describe(new))
    url = cog.jump_url(channel_id(interaction), old)
    reply = render_resigned(str(interaction.locale), url)
    await interaction.response.edit_message(content=reply.text, view=None)
    cog.announce(old.message_id, new, sent_at(interaction), *old.where)


async def keep_playing(interaction: Interaction) -> None:
    """The resign question's Cancel: the question becomes the answer; the board is untouched."""
    reply = render_not_resigned(str(interaction.locale))
    await interaction.response.edit_message(content=reply.text, view=None)


async def decline(
    cog: TicTacToeCog,
    interaction: Interaction,
    board: Board,
    old: Live | None,
    challenge: Challenge,
) -> None:
    if not cog.store.compare_and_set(board, old, None):
        await cog.raced(interaction)
        return
    cog.metrics.clicks_other.inc()
    cog.challenge_closed(interaction.guild_id, challenge.challenger)
    try:
        await update_message(interaction, render_challenge_declined(challenge))
    except Exception as error:
        # Unknown: the challenge stays closed; a click on it is answered as closed.
        if landed(error) is Landed.NO:
            cog.store.compare_and_set(board, None, old)
        if landed(error) is not Landed.YES:
            raise
    log.debug("Channel %s: challenge declined", board[0])


async def expire_unwatched(
    cog: TicTacToeCog, interaction: Interaction, board: Board, state: State
) -> None:
    """A click on a board that lapsed while memory did not hold it (after a restart):
    show it expired, and announce the game's end once, however many clicks race here."""
    message = interaction.message
    assert message is not None
    first = cog.store.end_unclaimed(board, message.id)
    try:
        await update_message(interaction, render_expired(state, cog.bot_id))
    finally:
        if first and isinstance(state, Game):
            cog.announce(
                message.id,
                state.expire(),
                sent_at(interaction),
                interaction.guild_id,
                *where(interaction),
            )
