"""Tournaments kept in the records database: the async API the tournaments' cog calls.

Each call is one transaction of bot/tournaments/sql.py run by the records' `Storage` (the same
database, connections and migrations as the records; SQLite's transactions in its worker
thread, PostgreSQL's through asyncpg), so the event loop never waits on SQL. A database in
trouble raises `RecordsError`, whose text says what failed.

Posting a round is an outbox: its pairings are stored when the round is paired, before any
board exists; `claim_posts` hands each board to one caller once; `mark_posted` keeps its
message id when Discord gives it; `unconfirmed_posts` lists, after a restart, the boards
taken but not confirmed, for the cog to look for in the thread before posting them again. A
round's card goes the same way (claim_round_card / mark_round_card / unclaim_round_card).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection
from typing import TypeVar

from sqlalchemy import Connection

from bot.records.api import RecordsError
from bot.records.sql.storage import DRIVER_ERRORS, Storage
from bot.records.sql.url import describe
from bot.tournaments import forgetting, sql
from bot.tournaments.core import Format, Result
from bot.tournaments.running import (
    Board,
    JoinResult,
    LeaveResult,
    PairingKey,
    Progress,
    StartResult,
    StoredTournament,
    TournamentSummary,
)

_T = TypeVar("_T")


class TournamentStore:
    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self._clock = clock

    # Sign-up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        format_: Format,
        rounds: int | None,
        variant: str,
        name: str | None,
    ) -> StoredTournament:
        now = self._clock()
        return await self._write(
            "creating a tournament",
            lambda c: sql.create(
                c,
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                format_=format_,
                rounds=rounds,
                variant=variant,
                name=name,
                now=now,
            ),
        )

    async def set_card(self, tournament_id: int, card_message_id: int) -> None:
        await self._write(
            "saving a sign-up card", lambda c: sql.set_card(c, tournament_id, card_message_id)
        )

    async def join(self, tournament_id: int, user_id: int) -> JoinResult:
        now = self._clock()
        return await self._write(
            "joining a tournament", lambda c: sql.join(c, tournament_id, user_id, now)
        )

    async def leave(self, tournament_id: int, user_id: int) -> LeaveResult:
        return await self._write(
            "leaving a tournament", lambda c: sql.leave(c, tournament_id, user_id)
        )

    # Running

    async def start(self, tournament_id: int, thread_id: int) -> tuple[StartResult, Progress]:
        """Seeds in join order, the rounds decided, round 1 paired (its boards to post)."""
        now = self._clock()
        return await self._write(
            "starting a tournament", lambda c: sql.start(c, tournament_id, thread_id, now)
        )

    async def cancel(self, tournament_id: int) -> Progress:
        now = self._clock()
        return await self._write(
            "cancelling a tournament", lambda c: sql.cancel(c, tournament_id, now)
        )

    async def withdraw(self, tournament_id: int, user_id: int) -> Progress:
        """The player's running game forfeited, and no more pairings for them (signing up:
        the same as leave)."""
        now = self._clock()
        return await self._write(
            "withdrawing from a tournament",
            lambda c: sql.withdraw(c, tournament_id, user_id, now),
        )

    async def record_result(self, key: PairingKey, result: Result) -> Progress:
        """Once per key (again: nothing changes); closes the round it ends and pairs the next,
        or finishes the tournament, in the same transaction."""
        now = self._clock()
        return await self._write(
            "recording a tournament game", lambda c: sql.record_result(c, key, result, now)
        )

    async def catch_up(self, tournament_id: int) -> Progress:
        """What a result would have set off, for a round found finished at start-up."""
        now = self._clock()
        return await self._write(
            "catching up a tournament", lambda c: sql.catch_up(c, tournament_id, now)
        )

    async def forget(self, user_id: int) -> list[Progress]:
        """/forget-me: the player leaves and withdraws, then their id is gone from every
        tournament (bot/tournaments/forgetting.py); what leaving and withdrawing changed."""
        now = self._clock()
        return await self._write(
            "deleting a player's tournament data",
            lambda c: forgetting.forget(c, user_id, now),
        )

    # Posting boards

    async def claim_posts(self, tournament_id: int) -> list[Board]:
        return await self._write(
            "taking boards to post", lambda c: sql.claim_posts(c, tournament_id)
        )

    async def mark_posted(self, key: PairingKey, message_id: int) -> None:
        await self._write("saving a posted board", lambda c: sql.mark_posted(c, key, message_id))

    async def unclaim(self, key: PairingKey) -> None:
        await self._write("giving back a board to post", lambda c: sql.unclaim(c, key))

    async def claim_round_card(self, tournament_id: int, round_number: int) -> bool:
        return await self._write(
            "taking a round card to post",
            lambda c: sql.claim_round_card(c, tournament_id, round_number),
        )

    async def mark_round_card(self, tournament_id: int, round_number: int, message_id: int) -> None:
        await self._write(
            "saving a round card",
            lambda c: sql.mark_round_card(c, tournament_id, round_number, message_id),
        )

    async def unclaim_round_card(self, tournament_id: int, round_number: int) -> None:
        await self._write(
            "giving back a round card to post",
            lambda c: sql.unclaim_round_card(c, tournament_id, round_number),
        )

    async def unconfirmed_posts(self, tournament_id: int) -> list[Board]:
        return await self.storage.read(lambda c: sql.unconfirmed_posts(c, tournament_id))

    # Reading

    async def load(self, tournament_id: int) -> StoredTournament | None:
        return await self.storage.read(lambda c: sql.load(c, tournament_id))

    async def by_thread(self, thread_id: int) -> StoredTournament | None:
        return await self.storage.read(lambda c: sql.by_thread(c, thread_id))

    async def active(self, guild_ids: Collection[int]) -> list[StoredTournament]:
        """The signing-up and running tournaments of those servers (the shard's, at start-up)."""
        return await self.storage.read(lambda c: sql.active(c, guild_ids))

    async def player_summary(self, user_id: int, guild_id: int | None) -> TournamentSummary:
        return await self.storage.read(lambda c: sql.summary(c, user_id, guild_id))

    async def _write(self, doing: str, work: Callable[[Connection], _T]) -> _T:
        try:
            return await self.storage.write(work)
        except DRIVER_ERRORS as error:
            raise RecordsError(f"{doing} failed: {describe(error)}") from error
