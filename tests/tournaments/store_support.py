"""Helpers for the store's tests: a store on a fresh database, tournaments signed up, boards
posted to a stand-in thread (a list, keyed by the pairing key the board's custom_id carries)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count

from bot.records.sql.storage import Storage, open_records
from bot.tournaments.core import Format, Result
from bot.tournaments.running import (
    Board,
    JoinResult,
    PairingKey,
    Progress,
    StartResult,
    State,
    StoredTournament,
)
from bot.tournaments.store import TournamentStore

GUILD, OTHER_GUILD = 1_000, 2_000
CHANNEL, ORGANISER = 3_000, 4_000


class Clock:
    """Time that moves one second a reading: each row's time is distinct and known."""

    def __init__(self) -> None:
        self._ticks = count(1_800_000_000)

    def __call__(self) -> float:
        return float(next(self._ticks))


async def open_store(url: str) -> tuple[Storage, TournamentStore]:
    storage = await open_records(url)
    return storage, TournamentStore(storage, clock=Clock())


async def signed_up(
    store: TournamentStore,
    players: range | list[int],
    format_: Format = Format.SWISS,
    rounds: int | None = None,
    guild_id: int = GUILD,
) -> StoredTournament:
    created = await store.create(
        guild_id=guild_id,
        channel_id=CHANNEL,
        organiser_id=ORGANISER,
        format_=format_,
        rounds=rounds,
        variant="classic",
        name="Friday blitz",
    )
    for player in players:
        assert await store.join(created.tournament_id, player) is JoinResult.JOINED
    return created


async def loaded(store: TournamentStore, tournament_id: int) -> StoredTournament:
    stored = await store.load(tournament_id)
    assert stored is not None
    return stored


async def started(store: TournamentStore, tournament_id: int) -> Progress:
    outcome, progress = await store.start(tournament_id, thread_id=tournament_id + 5_000_000)
    assert outcome is StartResult.STARTED
    return progress


@dataclass
class Thread:
    """What a thread shows: the boards posted in it, in order, each with its pairing key."""

    posts: list[PairingKey] = field(default_factory=list)
    message_ids: Callable[[], int] = field(default_factory=lambda: count(7_000_000).__next__)

    def post(self, board: Board) -> int:
        self.posts.append(board.key)
        return self.message_ids()

    def find(self, key: PairingKey) -> int | None:
        """The message carrying `key`, as the cog finds it in the thread's history."""
        return 7_000_000 + self.posts.index(key) if key in self.posts else None


async def post_round(store: TournamentStore, tournament_id: int, thread: Thread) -> list[Board]:
    """The cog's way to post: take the boards, post each, keep its message id."""
    boards = await store.claim_posts(tournament_id)
    for board in boards:
        await store.mark_posted(board.key, thread.post(board))
    return boards


async def play_out(
    store: TournamentStore,
    tournament_id: int,
    result_of: Callable[[Board], Result],
    thread: Thread | None = None,
) -> list[Progress]:
    """Post and play every round to the end, recording `result_of(board)` for each game still
    running (those posted before the call too)."""
    thread = thread or Thread()
    progresses: list[Progress] = []
    while True:
        await post_round(store, tournament_id, thread)
        stored = await loaded(store, tournament_id)
        running = [board for board in stored.boards[-1] if board.result is None]
        if stored.state is not State.RUNNING or not running:
            return progresses
        for board in running:
            progresses.append(await store.record_result(board.key, result_of(board)))
