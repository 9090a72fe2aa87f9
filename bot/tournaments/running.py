"""Running a tournament, as values and pure decisions: what is stored of it, what one change
did, and what follows a result (close the round, pair the next, finish).

Pure: no Discord, no database. The store (bot/tournaments/store.py) applies these decisions in
one transaction; the cog and the views read the values.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from bot.tournaments.core import Colour, Format, Pairing, PlayerId, Result, Round, Tournament
from bot.tournaments.pairing import PairingImpossible, default_rounds, pair_next_round
from bot.tournaments.standings import standings

MIN_PLAYERS = 3


class State(enum.StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def open(self) -> bool:
        """Signing up or running: its players hold their seat in the server."""
        return self in (State.SIGNUP, State.RUNNING)


class JoinResult(enum.StrEnum):
    JOINED = "joined"
    ALREADY_JOINED = "already-joined"
    IN_ANOTHER = "in-another"  # in another open tournament of the same server
    NOT_OPEN = "not-open"  # no longer signing up (or no such tournament)


class LeaveResult(enum.StrEnum):
    LEFT = "left"
    NOT_JOINED = "not-joined"
    NOT_OPEN = "not-open"


class StartResult(enum.StrEnum):
    STARTED = "started"
    TOO_FEW = "too-few"  # fewer than MIN_PLAYERS
    NOT_OPEN = "not-open"


@dataclass(frozen=True, slots=True, order=True)
class PairingKey:
    """The key of a tournament game, carried in its board's custom_id (never its message id:
    under a rate limit discord.py may return that only after players can click the board)."""

    tournament_id: int
    round_number: int  # 1-based
    board: int  # 1-based


@dataclass(frozen=True, slots=True)
class Board:
    """One pairing as stored."""

    key: PairingKey
    x: PlayerId
    o: PlayerId
    result: Result | None = None
    claimed: bool = False  # a process took it to post its board
    message_id: int | None = None  # the board's message, once known (never a key)


@dataclass(frozen=True, slots=True)
class RoundCard:
    """A round's card in the thread, as stored: posted through an outbox as its boards are."""

    claimed: bool = False  # a process took it to post it
    message_id: int | None = None  # once Discord answered


@dataclass(frozen=True, slots=True)
class StoredTournament:
    tournament_id: int
    guild_id: int
    channel_id: int
    card_message_id: int | None
    thread_id: int | None
    organiser_id: int
    name: str | None
    format: Format
    rounds: int | None  # planned; None while a Swiss signs up with the default
    variant: str
    state: State
    created_at: float
    tournament: Tournament  # players in seed (join) order, rounds, withdrawals
    boards: tuple[tuple[Board, ...], ...] = ()  # per round, in board order
    withdrawn_round: dict[PlayerId, int] = field(default_factory=dict)  # rounds paired then
    final_ranks: dict[PlayerId, int] = field(default_factory=dict)  # once finished
    round_cards: tuple[RoundCard, ...] = ()  # per round

    def round_card(self, round_number: int) -> RoundCard:
        if 1 <= round_number <= len(self.round_cards):
            return self.round_cards[round_number - 1]
        return RoundCard()

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return self.tournament.players

    @property
    def current_round(self) -> int:
        """The number of the round being played (or the last one); 0 while signing up."""
        return len(self.tournament.rounds)

    @property
    def winners(self) -> tuple[PlayerId, ...]:
        return tuple(p for p in self.players if self.final_ranks.get(p) == 1)

    def board(self, key: PairingKey) -> Board | None:
        if key.tournament_id != self.tournament_id:
            return None
        if not 1 <= key.round_number <= len(self.boards):
            return None
        boards = self.boards[key.round_number - 1]
        return boards[key.board - 1] if 1 <= key.board <= len(boards) else None


@dataclass(frozen=True, slots=True)
class Progress:
    """What one call changed, for the cog to act on."""

    changed: bool  # False: nothing to do (already recorded, not running, ...)
    tournament: StoredTournament | None = None  # the state afterwards
    closed_rounds: tuple[int, ...] = ()  # closed by this call: show their results
    paired_rounds: tuple[int, ...] = ()  # paired by this call: post them (claim_posts)
    forfeited: tuple[Board, ...] = ()  # boards this call ended (a withdrawal)
    finished: bool = False  # the tournament finished in this call


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A player's finished tournaments, for /stats."""

    played: int = 0
    podiums: int = 0  # ranked 1st to 3rd (a shared rank counts)
    wins: int = 0  # ranked 1st (a shared first place counts)


@dataclass(frozen=True, slots=True)
class Advance:
    """What follows the tournament as it stands: rounds to close, rounds to pair, the end."""

    closed: tuple[int, ...] = ()  # round numbers (1-based)
    paired: tuple[Round, ...] = ()  # in order, after the tournament's rounds
    finished: bool = False


def planned_rounds(format_: Format, requested: int | None, players: int) -> int:
    """The rounds a tournament of `players` plays: a Swiss's requested number, at most
    players - 1 (nobody meets anyone twice), or the default; a round-robin's full cycle."""
    if format_ is Format.SWISS and requested is not None:
        return max(1, min(requested, players - 1))
    return default_rounds(format_, players)


def advance(tournament: Tournament, rounds: int, closed: int) -> Advance:
    """What follows: the finished rounds after the first `closed` close; while every round is
    finished and fewer than `rounds` were paired, the next is paired (a round with no game to
    play, all byes, is finished at once); the tournament finishes when it has played its
    rounds, or when no next round can be paired (too few players left, everyone met)."""
    closing: list[int] = []
    paired: list[Round] = []
    while True:
        if tournament.rounds and not tournament.rounds[-1].finished:
            return Advance(tuple(closing), tuple(paired), finished=False)
        played = len(tournament.rounds)
        closing.extend(range(max(closed, 0) + 1, played + 1))
        closed = played
        if played >= rounds or len(tournament.active_players) < 2:
            return Advance(tuple(closing), tuple(paired), finished=True)
        try:
            next_round = pair_next_round(tournament)
        except PairingImpossible:
            return Advance(tuple(closing), tuple(paired), finished=True)
        paired.append(next_round)
        tournament = tournament.with_round(next_round)


def forfeit_by(pairing: Pairing, player: PlayerId) -> Result:
    """The result of `pairing` when `player` (one of its two) withdraws from it."""
    return Result.O_WON_BY_FORFEIT if player == pairing.x else Result.X_WON_BY_FORFEIT


def result_of_game(winner: Colour | None, x_moved: bool, o_moved: bool, timed_out: bool) -> Result:
    """A finished board as a tournament result (`winner` None: a draw). A game that timed out
    before either player moved is lost by both (a double forfeit). A game without both
    players' moves (a resignation or a timeout before one of them moved), which /stats counts
    for nobody, is a forfeit won by the winner: unplayed for both in the tie-breaks."""
    if timed_out and not x_moved and not o_moved:
        return Result.DOUBLE_FORFEIT
    both_moved = x_moved and o_moved
    if winner is Colour.X:
        return Result.X_WON if both_moved else Result.X_WON_BY_FORFEIT
    if winner is Colour.O:
        return Result.O_WON if both_moved else Result.O_WON_BY_FORFEIT
    return Result.DRAW


def final_ranks(tournament: Tournament) -> dict[PlayerId, int]:
    return {line.player: line.rank for line in standings(tournament).lines}
