"""Who may do what, and when: every click and command decided as a pure function.

The cog gathers what is known (the channel's live entry, the decoded click, who clicked, when),
asks `decide_click` or `decide_start`, and carries out the answer. Nothing here awaits, reads a
clock or touches Discord, so every case can be tested exhaustively.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum, auto
from typing import NamedTuple

from bot.core.codec import Click, Verb
from bot.core.game import AI, AnyGame, Challenge, GameError, State
from bot.core.live import Live, Seat
from bot.core.ultimate_game import UltimateGame

CHALLENGE_SECONDS = 60


class Seen(NamedTuple):
    """What a click brings: the decoded button and facts about its message."""

    click: Click
    message_id: int
    # The clicked custom_id is one of the message's components, as Discord delivered it. Discord
    # sends only those; anything else is forged or from a broken client.
    is_current: bool
    seconds_since_change: float  # since the message was posted or last edited
    # Memory saw the game or challenge of this message end: a click still in flight on it must
    # not look like a click after a restart and bring it back.
    has_ended: bool
    seat: Seat = (0, 0, 0)  # where the clicked state's game lives in memory
    # The seat whose live game or challenge memory knows this message to show, if any: a click
    # whose state belongs to another seat is not one of this message's.
    message_seat: Seat | None = None


class Refusal(Enum):
    """Why a click or command is answered with a short private message instead."""

    INVALID = auto()  # a button this state never shows (forged, or from another version)
    NOT_ACTIVE = auto()  # another board is these players' live one
    BUSY = auto()  # the channel has as many games on as its server allows ("full")
    PLAYING_HERE = auto()  # the player has a game or challenge on in this channel already
    OPPONENT_PLAYING = auto()  # the person challenged has one on in this channel
    CHALLENGE_PENDING = auto()  # the challenger's earlier challenge in this server is open
    COOLDOWN = auto()  # the challenger waits after a challenge declined or expired
    GAME_OVER = auto()
    CHALLENGE_CLOSED = auto()
    STALE = auto()  # the board changed between what the clicker saw and now
    NOT_PLAYER = auto()
    NOT_YOUR_TURN = auto()
    CELL_TAKEN = auto()
    ONLY_OPPONENT = auto()
    SELF_CHALLENGE = auto()
    BOT_OPPONENT = auto()
    HINT_VS_BOT_ONLY = auto()


@dataclass(frozen=True, slots=True)
class Refuse:
    reason: Refusal
    state: State | None = None  # the game or challenge the refusal is about, for its wording
    link: Live | None = None  # the board to point to, when there is one
    link_channel: int | None = None  # the link's channel, when not where the refusal is
    limit: int = 1  # the channel's games_per_channel, for a full channel's wording
    wait: float = 0.0  # seconds until a cooldown ends


@dataclass(frozen=True, slots=True)
class Update:
    """Edit the clicked message to show `new`; `old` is what memory must still hold."""

    old: Live | None
    new: State
    # The same player's turn goes on (the ultimate board's picker): its clock runs on too, so
    # that opening boards cannot put off the timeout.
    same_turn: bool = False


@dataclass(frozen=True, slots=True)
class Expire:
    """The clicked message shows a game or challenge that lapsed while nothing watched it."""

    state: State


@dataclass(frozen=True, slots=True)
class Start:
    """A rematch: retire the finished board `retire` and post `state`."""

    state: AnyGame
    retire: AnyGame


class PrivateKind(Enum):
    HINT = auto()
    REVIEW = auto()


@dataclass(frozen=True, slots=True)
class Private:
    """Answer the clicker alone about `game`: a hint or a review."""

    kind: PrivateKind
    game: AnyGame


@dataclass(frozen=True, slots=True)
class AskResign:
    """Ask the player privately to confirm. The board is redrawn as it is, so that this
    click's token, which can edit it, is the one a confirmation uses (even after a restart)."""

    old: Live | None
    game: AnyGame


@dataclass(frozen=True, slots=True)
class Resign:
    """A confirmed resignation: edit the board (not the clicked private message) to `new`."""

    old: Live
    new: AnyGame


@dataclass(frozen=True, slots=True)
class KeepPlaying:
    """The resign question's Cancel: answer on the question; the board is untouched."""


@dataclass(frozen=True, slots=True)
class Decline:
    """The challenged user said no: show it and free the channel."""

    old: Live | None
    challenge: Challenge


Decision = Refuse | Update | Expire | Start | Private | AskResign | Resign | KeepPlaying | Decline


def idle_seconds(state: State, turn_timeout: float) -> float:
    """How long `state` may sit untouched: a challenge a minute, a game its own turn timeout
    (the one its server set when it started) or else the bot's."""
    if isinstance(state, Challenge):
        return CHALLENGE_SECONDS
    return state.look.timeout or turn_timeout


class Room(NamedTuple):
    """What memory knows, at a /tictactoe, of where it would start (see refuse_start)."""

    in_channel: int  # boards with a game or challenge on here
    limit: int  # the server's games_per_channel (1 in DMs and on private boards)
    mine: Live | None  # the starter's own live board here
    theirs: Live | None  # the challenged person's live board here
    any_live: Live | None  # one live board here, to link when the channel is full
    pending: Live | None = None  # the starter's open challenge in this server
    pending_channel: int | None = None  # where that challenge is
    cooldown: float = 0.0  # seconds before the starter may challenge again in this server


def refuse_start(user_id: int, opponent: tuple[int, bool] | None, room: Room) -> Refuse | None:
    """Why a /tictactoe from `user_id` against `opponent` (id, is a bot; None: the bot itself)
    cannot start, or None when it can."""
    if opponent is not None and opponent[0] == user_id:
        return Refuse(Refusal.SELF_CHALLENGE)
    if opponent is not None and opponent[1]:
        return Refuse(Refusal.BOT_OPPONENT)
    if room.mine is not None:
        return Refuse(Refusal.PLAYING_HERE, link=room.mine)
    if room.theirs is not None:
        return Refuse(Refusal.OPPONENT_PLAYING, link=room.theirs)
    if room.in_channel >= room.limit:
        return Refuse(Refusal.BUSY, link=room.any_live, limit=room.limit)
    if opponent is not None and room.pending is not None:
        return Refuse(
            Refusal.CHALLENGE_PENDING, link=room.pending, link_channel=room.pending_channel
        )
    if opponent is not None and room.cooldown > 0:
        return Refuse(Refusal.COOLDOWN, wait=room.cooldown)
    return None


def responses_forced_private(
    *, in_server: bool, installed_in_server: bool, installed_by_user: bool, may_post_publicly: bool
) -> bool:
    """Discord makes every answer private in a server where the app is installed by the user
    only and the server denies "Use External Apps"."""
    return in_server and installed_by_user and not installed_in_server and not may_post_publicly


def decide_click(
    live: Live | None,
    seen: Seen,
    user_id: int,
    *,
    turn_timeout: float,
    rng: random.Random,
) -> Decision:
    """What happens when `user_id` presses the button described by `seen`."""
    state = seen.click.state
    if not seen.is_current or seen.message_seat not in (None, seen.seat):
        return Refuse(Refusal.INVALID, state)
    if not isinstance(state, Challenge) and state.is_over:
        return _on_finished(live, seen, user_id, state, rng)
    if seen.click.verb is Verb.KEEP_PLAYING:
        # The resign question's Cancel: saying no changes nothing, whatever memory holds.
        if isinstance(state, Challenge) or state.mark_of(user_id) is None:
            return Refuse(Refusal.INVALID, state)
        return KeepPlaying()
    if seen.click.verb is Verb.CONFIRM_RESIGN:
        # Pressed on the private confirmation: the board is the channel's live message.
        return _on_confirm_resign(live, user_id, seen)
    # A board being posted has no id in memory yet (under a rate limit discord.py may return it
    # seconds after players see the message): its clicks are its, by their state's key.
    if live is not None and live.message_id is not None and live.message_id != seen.message_id:
        return Refuse(Refusal.NOT_ACTIVE, state)
    if live is None:
        if seen.has_ended:
            return Refuse(_closed(state), state)
        # Nothing in memory (a restart): the message is the only record of the game.
        if seen.seconds_since_change > idle_seconds(state, turn_timeout):
            return Expire(state)
    elif seen.click.key not in (live.key, live.unsure_of):
        return Refuse(Refusal.STALE, state)
    if isinstance(state, Challenge):
        return _on_challenge(live, seen.click, user_id, state)
    return _on_game(live, seen.click, user_id, state, rng)


def _closed(state: State) -> Refusal:
    return Refusal.CHALLENGE_CLOSED if isinstance(state, Challenge) else Refusal.GAME_OVER


def _on_finished(
    live: Live | None, seen: Seen, user_id: int, game: AnyGame, rng: random.Random
) -> Decision:
    verb = seen.click.verb
    if verb not in (Verb.REMATCH, Verb.REVIEW):
        return Refuse(Refusal.GAME_OVER, game)
    if verb is Verb.REMATCH and game.pairing is not None:  # a tournament pairs its games
        return Refuse(Refusal.INVALID, game)
    if game.mark_of(user_id) is None:
        return Refuse(Refusal.NOT_PLAYER, game)
    if verb is Verb.REVIEW:
        return Private(PrivateKind.REVIEW, game)
    if live is not None:  # these two already play again here
        return Refuse(Refusal.PLAYING_HERE, game, link=live)
    return Start(game.rematch(rng), retire=game)


def _on_confirm_resign(live: Live | None, user_id: int, seen: Seen) -> Decision:
    click = seen.click
    state = click.state
    if isinstance(state, Challenge) or state.mark_of(user_id) is None:
        return Refuse(Refusal.INVALID, state)
    if live is None and seen.has_ended:  # it ended (a move, a timeout) before this answer
        return Refuse(Refusal.GAME_OVER, state)
    # Memory must hold this very game: the board can only be edited through a live token.
    if live is None or live.token is None or click.key != live.key:
        return Refuse(Refusal.STALE, state)
    return Resign(live, state.resign(user_id))


def _on_picker(live: Live | None, click: Click, user_id: int, game: AnyGame) -> Decision:
    """The ultimate board's picker: open a small board, or go back to the nine."""
    if not isinstance(game, UltimateGame) or (click.verb is Verb.BACK) == (game.picked is None):
        return Refuse(Refusal.INVALID, game)
    if game.player_to_move != user_id:
        return Refuse(Refusal.NOT_YOUR_TURN, game)
    try:
        picked = game.picking(click.board if click.verb is Verb.PICK else None)
        return Update(live, picked, same_turn=True)
    except GameError:  # a closed board, or a forced move: the picker never offers it
        return Refuse(Refusal.INVALID, game)


def _on_challenge(live: Live | None, click: Click, user_id: int, challenge: Challenge) -> Decision:
    if click.verb not in (Verb.ACCEPT, Verb.DECLINE):
        return Refuse(Refusal.INVALID, challenge)
    if user_id != challenge.opponent:
        return Refuse(Refusal.ONLY_OPPONENT, challenge)
    if click.verb is Verb.ACCEPT:
        return Update(live, challenge.accept())
    return Decline(live, challenge)


def _on_game(
    live: Live | None, click: Click, user_id: int, game: AnyGame, rng: random.Random
) -> Decision:
    if click.verb in (Verb.REMATCH, Verb.REVIEW, Verb.ACCEPT, Verb.DECLINE):
        return Refuse(Refusal.INVALID, game)
    if click.verb is Verb.HINT and game.pairing is not None:  # no help in a tournament
        return Refuse(Refusal.INVALID, game)
    if click.verb in (Verb.PICK, Verb.BACK) and not isinstance(game, UltimateGame):
        return Refuse(Refusal.INVALID, game)
    if game.mark_of(user_id) is None:
        return Refuse(Refusal.NOT_PLAYER, game)
    if click.verb is Verb.RESIGN:
        return AskResign(live, game)
    if game.player_to_move == AI:  # a kind whose bot thinks after the click's answer
        # With nothing in memory (a restart while it thought), this click brings it back.
        return Update(live, game) if live is None else Refuse(Refusal.NOT_YOUR_TURN, game)
    if click.verb in (Verb.PICK, Verb.BACK):
        return _on_picker(live, click, user_id, game)
    if click.verb is Verb.HINT:
        if not game.vs_ai:
            return Refuse(Refusal.HINT_VS_BOT_ONLY, game)
        if game.player_to_move != user_id:
            return Refuse(Refusal.NOT_YOUR_TURN, game)
        return Private(PrivateKind.HINT, game)
    if game.player_to_move != user_id:
        return Refuse(Refusal.NOT_YOUR_TURN, game)
    assert click.cell is not None
    if not game.is_free(click.cell):
        return Refuse(Refusal.CELL_TAKEN, game)
    try:
        return Update(live, game.play(click.cell, ai_rng=rng))
    except GameError:  # pragma: no cover - is_over and is_free were checked above
        return Refuse(Refusal.INVALID, game)


__all__ = [
    "AI",
    "CHALLENGE_SECONDS",
    "AskResign",
    "Decision",
    "Decline",
    "Expire",
    "KeepPlaying",
    "Live",
    "Private",
    "PrivateKind",
    "Refusal",
    "Refuse",
    "Resign",
    "Room",
    "Seen",
    "Start",
    "Update",
    "decide_click",
    "idle_seconds",
    "refuse_start",
    "responses_forced_private",
]
