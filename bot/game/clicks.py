"""A click on a board: decode its custom_id, look up the board in memory, decide, then carry the
decision out (a move in the click's one answer here; the controls in bot/game/controls.py)."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from bot.core import codec
from bot.core.finished import describe, snowflake_time
from bot.core.game import Game, State
from bot.core.live import Board, Live, board_of
from bot.core.policy import (
    AskResign,
    Decision,
    Decline,
    Expire,
    KeepPlaying,
    Private,
    Refusal,
    Refuse,
    Resign,
    Seen,
    Start,
    Update,
    decide_click,
    idle_seconds,
)
from bot.core.server import DEFAULT_LOOK
from bot.game import controls
from bot.game.delivery import Landed, landed
from bot.game.interactions import Interaction, channel_id, custom_ids, scope_id, sent_at
from bot.ui import update_message
from bot.view.board import render_state

if TYPE_CHECKING:
    from bot.game.cog import TicTacToeCog

log = logging.getLogger(__name__)


async def on_click(cog: TicTacToeCog, interaction: Interaction, custom_id: str) -> None:
    message = interaction.message
    assert message is not None, "a button is always on a message"
    try:
        click = codec.decode(custom_id)
    except codec.CodecError as error:
        log.warning("Channel %s: rejected button: %s", interaction.channel_id, error)
        cog.metrics.clicks_refused[Refusal.INVALID].inc()
        await cog.refuse(interaction, Refuse(Refusal.INVALID), None)
        return
    state = click.state
    if state.look is not DEFAULT_LOOK:
        look = cog.usable_look(state.look)
        if look is not state.look:  # an emoji deleted from the server: back to letters
            click = click._replace(state=dataclasses.replace(state, look=look))
    if click.verb is codec.Verb.CONFIRM_RESIGN:
        # Pressed on the private question, not on the board: find the board's game.
        board = board_holding(cog, interaction, click)
    else:
        board = board_of(scope_id(interaction), state.players)
    live = cog.store.get(board)
    last_change = message.edited_at.timestamp() if message.edited_at else snowflake_time(message.id)
    seen = Seen(
        click,
        message.id,
        is_current=custom_id in custom_ids(message.components),
        seconds_since_change=sent_at(interaction) - last_change,
        has_ended=cog.store.has_ended(board, message.id),
    )
    decision = decide_click(
        live, seen, interaction.user.id, game_timeout=cog.game_timeout, rng=cog.rng
    )
    await carry_out(cog, interaction, board, decision, live, click.key)


async def carry_out(
    cog: TicTacToeCog,
    interaction: Interaction,
    board: Board,
    decision: Decision,
    live: Live | None,
    shown: str,
) -> None:
    """Do what was decided; `board` is where the clicked game lives in memory, `shown`
    the key of the state the clicked message showed."""
    match decision:
        case Update(old=old, new=new):  # the common case first
            await update(cog, interaction, board, old, shown, new)
        case Refuse(reason=reason):
            cog.metrics.clicks_refused[reason].inc()
            await cog.refuse(interaction, decision, live)
        case Expire(state=state):
            cog.metrics.clicks_other.inc()
            await controls.expire_unwatched(cog, interaction, board, state)
        case Start(state=state, retire=retire):
            await controls.rematch(cog, interaction, board, retire, state)
        case Private(kind=kind, game=game):
            cog.metrics.clicks_other.inc()
            await controls.private(cog, interaction, kind, game)
        case AskResign(old=old, game=game):
            await controls.ask_resign(cog, interaction, board, old, game)
        case Resign(old=old, new=new):
            await controls.resign(cog, interaction, board, old, new)
        case KeepPlaying():
            cog.metrics.clicks_other.inc()
            await controls.keep_playing(interaction)
        case Decline(old=old, challenge=challenge):
            await controls.decline(cog, interaction, board, old, challenge)


async def update(
    cog: TicTacToeCog,
    interaction: Interaction,
    board: Board,
    old: Live | None,
    shown: str,
    new: State,
) -> None:
    """Move the board from the state keyed `shown` to `new` and show it, in the click's
    one response."""
    message = interaction.message
    assert message is not None
    over = isinstance(new, Game) and new.is_over
    idle = idle_seconds(new, cog.game_timeout)
    key = codec.state_key(new)
    live = cog.live_entry(interaction, key, idle, message.id)
    if old is not None:  # where the game started stays where it is played
        live = live._replace(place=old.place, user_installed=old.user_installed)
    after = None if over else live
    if over and old is None:
        # A board from before a restart, ended by this click: nothing to swap in memory,
        # but a click still in flight on it must find it over.
        claimed = cog.store.end_unclaimed(board, message.id)
    else:
        claimed = cog.store.compare_and_set(board, old, after)
    if not claimed:
        await cog.raced(interaction)
        return
    card = render_state(new, cog.bot_id, cog.deadline(interaction, idle), key=key)
    try:
        await update_message(interaction, card)
    except Exception as error:
        # Until settled, the older token is the one known to edit the board.
        unsure = live._replace(
            unsure_of=shown,
            token=old.token if old is not None else None,
        )
        if cog.delivery.after_failed_edit(error, board, after, old, unsure):
            if over and old is None and landed(error) is Landed.NO:
                cog.store.reopen(board, message.id)
            raise
    cog.metrics.clicks_moved.inc()  # counted once answered: the player waits for nothing
    if over:
        assert isinstance(new, Game)
        log.debug("Channel %s: game over: %s", board[0], describe(new))
        cog.announce(message.id, new, sent_at(interaction), *live.where)
    else:
        if isinstance(new, Game) and not new.moves:  # only an accepted challenge gives this
            cog.metrics.started["friend"].inc()
        cog.expiry.schedule()


def board_holding(cog: TicTacToeCog, interaction: Interaction, click: codec.Click) -> Board:
    players = click.state.players
    for scope in (channel_id(interaction), scope_id(interaction, private=True)):
        live = cog.store.get(board_of(scope, players))
        if live is not None and live.key == click.key:
            return board_of(scope, players)
    return board_of(channel_id(interaction), players)
