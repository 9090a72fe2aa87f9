"""Tournaments kept in the records database, on a real SQLite file and a real PostgreSQL server:
played through with results fed in, as the cog will feed them, and checked against the pure
pairing and standings replayed on the same results."""

import asyncio

import pytest
from alembic import command
from sqlalchemy import inspect, select, update
from sqlalchemy.exc import IntegrityError

from bot.records.sql.migrate import alembic_config
from bot.tournaments.core import Format, Result, Tournament
from bot.tournaments.pairing import pair_next_round
from bot.tournaments.running import (
    JoinResult,
    LeaveResult,
    PairingKey,
    RoundCard,
    StartResult,
    State,
    TournamentSummary,
)
from bot.tournaments.standings import standings
from bot.tournaments.tables import tournament_pairings, tournament_rounds
from tests.tournaments.store_support import (
    GUILD,
    OTHER_GUILD,
    Thread,
    loaded,
    open_store,
    play_out,
    post_round,
    signed_up,
    started,
)


def replayed(stored) -> Tournament:
    """The same tournament paired by the pure pairing, round by round, with the stored results:
    what the store must have paired."""
    tournament = Tournament(stored.format, stored.players)
    for number, round_ in enumerate(stored.tournament.rounds, start=1):
        for player, withdrew_at in stored.withdrawn_round.items():
            if withdrew_at == number - 1:
                tournament = tournament.with_withdrawal(player)
        expected = pair_next_round(tournament)
        assert [p.players() for p in expected.pairings] == [p.players() for p in round_.pairings]
        assert expected.byes == round_.byes
        tournament = tournament.with_round(round_)
    return tournament


def x_wins_unless_seeded_lower(stored_players):
    seed = {player: index for index, player in enumerate(stored_players)}

    def result(board) -> Result:
        # The higher seed wins, except on every third board, drawn: a field with ties.
        if board.key.board % 3 == 0:
            return Result.DRAW
        return Result.X_WON if seed[board.x] < seed[board.o] else Result.O_WON

    return result


async def test_a_swiss_with_an_odd_field_is_played_through(store):
    players = list(range(101, 108))  # 7: a bye every round
    created = await signed_up(store, players)
    progress = await started(store, created.tournament_id)
    assert progress.paired_rounds == (1,)
    assert (await loaded(store, created.tournament_id)).rounds == 3  # ceil(log2 7)
    thread = Thread()
    progresses = await play_out(
        store, created.tournament_id, x_wins_unless_seeded_lower(players), thread
    )

    final = await loaded(store, created.tournament_id)
    assert final.state is State.FINISHED
    assert len(final.tournament.rounds) == 3
    replayed(final)
    # Each round closed and paired once, in order, by the call that ended its last game.
    assert [p.closed_rounds for p in progresses if p.closed_rounds] == [(1,), (2,), (3,)]
    assert [p.paired_rounds for p in progresses if p.paired_rounds] == [(2,), (3,)]
    assert [p.finished for p in progresses].count(True) == 1
    assert progresses[-1].finished
    # Every game posted once, three boards a round, and every bye to a different player.
    assert len(thread.posts) == len(set(thread.posts)) == 9
    byes = [bye for round_ in final.tournament.rounds for bye in round_.byes]
    assert len(byes) == len(set(byes)) == 3
    ranks = {line.player: line.rank for line in standings(final.tournament).lines}
    assert final.final_ranks == ranks
    assert final.winners == tuple(p for p in players if ranks[p] == 1)
    winner = final.winners[0]
    assert await store.player_summary(winner, GUILD) == TournamentSummary(1, 1, 1)
    assert await store.player_summary(winner, OTHER_GUILD) == TournamentSummary(0, 0, 0)
    # Finished: nothing more to post, results no longer change anything, seats are free.
    assert await store.claim_posts(created.tournament_id) == []
    last = final.boards[-1][0].key
    assert not (await store.record_result(last, Result.O_WON)).changed
    assert (await loaded(store, created.tournament_id)).tournament == final.tournament
    again = await signed_up(store, players)
    assert len((await loaded(store, again.tournament_id)).players) == 7


async def test_a_round_robin_meets_everyone_once(store):
    players = [201, 202, 203, 204, 205]
    created = await signed_up(store, players, Format.ROUND_ROBIN, rounds=2)  # ignored: a cycle
    await started(store, created.tournament_id)
    await play_out(store, created.tournament_id, lambda board: Result.X_WON)
    final = await loaded(store, created.tournament_id)
    assert final.state is State.FINISHED
    assert final.rounds == len(final.tournament.rounds) == 5
    for player in players:
        assert final.tournament.opponents(player) == set(players) - {player}
        assert [round_.byes for round_ in final.tournament.rounds].count((player,)) == 1
    replayed(final)


async def test_a_result_is_recorded_once_by_its_key(store):
    created = await signed_up(store, range(301, 305))
    await started(store, created.tournament_id)
    boards = await post_round(store, created.tournament_id, Thread())
    first = await store.record_result(boards[0].key, Result.X_WON)
    assert first.changed
    assert first.closed_rounds == ()
    again = await store.record_result(boards[0].key, Result.O_WON)
    assert not again.changed
    assert again.tournament.boards[0][0].result is Result.X_WON
    # A key no board has changes nothing either.
    stray = PairingKey(created.tournament_id, 1, 99)
    assert not (await store.record_result(stray, Result.DRAW)).changed
    assert not (await store.record_result(PairingKey(999, 1, 1), Result.DRAW)).changed


async def test_a_withdrawal_forfeits_the_running_game_and_pairs_no_more(store):
    players = list(range(401, 407))
    created = await signed_up(store, players)
    tid = created.tournament_id
    await started(store, tid)
    boards = await post_round(store, tid, Thread())
    quitter = boards[0].o
    progress = await store.withdraw(tid, quitter)
    assert progress.changed
    assert [(b.key, b.result) for b in progress.forfeited] == [
        (boards[0].key, Result.X_WON_BY_FORFEIT)
    ]
    assert not (await store.withdraw(tid, quitter)).changed  # once
    assert not (await store.withdraw(tid, 999)).changed  # not a player
    # The game's own end, arriving late, changes nothing.
    assert not (await store.record_result(boards[0].key, Result.O_WON)).changed
    await play_out(store, tid, lambda board: Result.DRAW)
    final = await loaded(store, tid)
    assert final.state is State.FINISHED
    assert final.withdrawn_round == {quitter: 1}
    assert [g.round_index for g in final.tournament.games(quitter)] == [0]
    assert final.tournament.half_points(quitter) == 0
    assert final.tournament.half_points(boards[0].x) == 2 + 1 + 1  # the forfeit won, two draws
    replayed(final)
    # A player who withdrew may join the server's next tournament at once.
    other = await signed_up(store, [])
    assert await store.join(other.tournament_id, quitter) is JoinResult.JOINED


async def test_withdrawals_down_to_one_player_finish_the_tournament(store):
    created = await signed_up(store, [501, 502, 503])
    tid = created.tournament_id
    await started(store, tid)
    await store.withdraw(tid, 501)
    progress = await store.withdraw(tid, 502)
    assert progress.finished
    assert progress.tournament.state is State.FINISHED
    assert progress.tournament.winners == (503,)


async def test_a_double_forfeit_scores_nothing_for_either(store):
    created = await signed_up(store, [601, 602, 603, 604], Format.ROUND_ROBIN)
    tid = created.tournament_id
    await started(store, tid)
    await play_out(store, tid, lambda board: Result.DOUBLE_FORFEIT)
    final = await loaded(store, tid)
    assert final.state is State.FINISHED
    assert all(final.tournament.half_points(p) == 0 for p in final.players)
    assert all(rank == 1 for rank in final.final_ranks.values())  # all equal: all share 1st


async def test_signing_up_starting_and_cancelling(store):
    created = await signed_up(store, [701, 702])
    tid = created.tournament_id
    assert await store.leave(tid, 703) is LeaveResult.NOT_JOINED
    outcome, progress = await store.start(tid, thread_id=1)
    assert (outcome, progress.changed) == (StartResult.TOO_FEW, False)
    assert await store.join(tid, 703) is JoinResult.JOINED
    assert await store.leave(tid, 702) is LeaveResult.LEFT
    assert await store.join(tid, 702) is JoinResult.JOINED  # back, now seeded last
    assert (await loaded(store, tid)).players == (701, 703, 702)
    assert (await store.start(tid, thread_id=1))[0] is StartResult.STARTED
    assert (await store.start(tid, thread_id=1))[0] is StartResult.NOT_OPEN  # paired once
    assert len((await loaded(store, tid)).tournament.rounds) == 1
    assert await store.join(tid, 704) is JoinResult.NOT_OPEN
    assert await store.leave(tid, 701) is LeaveResult.NOT_OPEN
    assert (await store.by_thread(1)).tournament_id == tid
    cancelled = await store.cancel(tid)
    assert cancelled.changed
    assert cancelled.tournament.state is State.CANCELLED
    assert not (await store.cancel(tid)).changed
    assert await store.claim_posts(tid) == []  # nothing of a cancelled round is posted
    assert await store.join(tid, 705) is JoinResult.NOT_OPEN


async def test_one_open_tournament_per_player_per_server(store):
    first = await signed_up(store, [801, 802, 803])
    second = await signed_up(store, [804])
    elsewhere = await signed_up(store, [], guild_id=OTHER_GUILD)
    assert await store.join(second.tournament_id, 801) is JoinResult.IN_ANOTHER
    assert await store.join(elsewhere.tournament_id, 801) is JoinResult.JOINED
    await started(store, first.tournament_id)
    assert await store.join(second.tournament_id, 802) is JoinResult.IN_ANOTHER  # running
    await store.cancel(first.tournament_id)
    assert await store.join(second.tournament_id, 802) is JoinResult.JOINED
    active = await store.active([GUILD])
    assert [t.tournament_id for t in active] == [second.tournament_id]
    both = await store.active([GUILD, OTHER_GUILD, 12345])
    assert [t.tournament_id for t in both] == [second.tournament_id, elsewhere.tournament_id]


async def test_one_seat_holds_when_two_processes_join_two_tournaments_at_once(database_url):
    (storage_a, store_a), (storage_b, store_b) = [await open_store(database_url) for _ in "ab"]
    try:
        for player in range(900, 910):
            one = await signed_up(store_a, [])
            two = await signed_up(store_a, [])
            outcomes = await asyncio.gather(
                store_a.join(one.tournament_id, player), store_b.join(two.tournament_id, player)
            )
            assert sorted(outcomes) == [JoinResult.IN_ANOTHER, JoinResult.JOINED]
            await store_a.cancel(one.tournament_id)
            await store_a.cancel(two.tournament_id)
    finally:
        await storage_a.close()
        await storage_b.close()


async def test_the_next_round_is_paired_once_when_two_processes_end_the_round_at_once(
    database_url,
):
    (storage_a, store_a), (storage_b, store_b) = [await open_store(database_url) for _ in "ab"]
    try:
        for attempt in range(5):
            created = await signed_up(store_a, range(1000 + 10 * attempt, 1006 + 10 * attempt))
            tid = created.tournament_id
            await started(store_a, tid)
            boards = await post_round(store_a, tid, Thread())
            await store_a.record_result(boards[0].key, Result.DRAW)
            last_two = await asyncio.gather(
                store_a.record_result(boards[1].key, Result.X_WON),
                store_b.record_result(boards[2].key, Result.O_WON),
            )
            assert all(progress.changed for progress in last_two)
            assert sorted(p.paired_rounds for p in last_two) == [(), (2,)]
            assert sorted(p.closed_rounds for p in last_two) == [(), (1,)]
            stored = await loaded(store_b, tid)
            assert [len(round_) for round_ in stored.boards] == [3, 3]
            assert len(await store_b.claim_posts(tid)) == 3
            assert await store_a.claim_posts(tid) == []
    finally:
        await storage_a.close()
        await storage_b.close()


async def test_a_round_cannot_be_stored_twice(store):
    """The guarantee under the lock: the round's primary key, not the timing."""
    created = await signed_up(store, range(1101, 1105))
    await started(store, created.tournament_id)

    def pair_round_1_again(connection):
        connection.execute(
            tournament_rounds.insert().values(
                tournament_id=created.tournament_id, round_number=1, paired_at=0.0
            )
        )

    with pytest.raises(IntegrityError):
        await store.storage.write(pair_round_1_again)


async def test_a_crash_between_pairing_and_posting_loses_nothing_and_posts_nothing_twice(
    database_url,
):
    storage, store = await open_store(database_url)
    created = await signed_up(store, range(1201, 1211))  # 5 boards a round
    tid = created.tournament_id
    await started(store, tid)
    thread = Thread()
    boards = await store.claim_posts(tid)
    assert len(boards) == 5
    # Posted two and kept their ids; the third posted, then the process died before its id
    # was kept; the last two never posted.
    for board in boards[:2]:
        await store.mark_posted(board.key, thread.post(board))
    thread.post(boards[2])
    await storage.close()

    storage, store = await open_store(database_url)
    try:
        # Start-up: look for the boards taken but not confirmed, post only those not there.
        unconfirmed = await store.unconfirmed_posts(tid)
        assert [b.key for b in unconfirmed] == [b.key for b in boards[2:]]
        for board in unconfirmed:
            found = thread.find(board.key)
            await store.mark_posted(board.key, found if found else thread.post(board))
        assert await store.unconfirmed_posts(tid) == []
        assert await store.claim_posts(tid) == []
        assert thread.posts == [b.key for b in boards]  # each once, none lost
        stored = await loaded(store, tid)
        assert all(b.message_id is not None for b in stored.boards[0])
        # The round goes on where it was.
        await play_out(store, tid, lambda board: Result.X_WON, thread)
        assert (await loaded(store, tid)).state is State.FINISHED
        assert len(thread.posts) == len(set(thread.posts))
    finally:
        await storage.close()


async def test_a_post_that_failed_can_be_taken_again(store):
    created = await signed_up(store, range(1301, 1305))
    tid = created.tournament_id
    await started(store, tid)
    first, second = await store.claim_posts(tid)
    await store.unclaim(first.key)  # Discord refused it: give it back
    await store.mark_posted(second.key, 42)
    await store.unclaim(second.key)  # posted already: stays taken
    assert [b.key for b in await store.claim_posts(tid)] == [first.key]


async def test_a_round_found_ended_at_start_up_is_followed_up_once(store):
    created = await signed_up(store, range(1401, 1405))
    tid = created.tournament_id
    await started(store, tid)
    assert not (await store.catch_up(tid)).changed  # games running: nothing to do

    def end_every_game_behind_the_stores_back(connection):
        # As a bot from before a crash could leave it: results in, nothing followed up.
        connection.execute(
            update(tournament_pairings)
            .where(tournament_pairings.c.tournament_id == tid)
            .values(result=Result.X_WON.value)
        )

    await store.storage.write(end_every_game_behind_the_stores_back)
    progress = await store.catch_up(tid)
    assert (progress.closed_rounds, progress.paired_rounds) == ((1,), (2,))
    assert not (await store.catch_up(tid)).changed
    rounds = await store.storage.read(
        lambda c: c.scalars(
            select(tournament_rounds.c.round_number).where(tournament_rounds.c.tournament_id == tid)
        ).all()
    )
    assert sorted(rounds) == [1, 2]


async def test_several_servers_run_their_tournaments_at_once(database_url):
    storage, store = await open_store(database_url)
    try:
        ones = await signed_up(store, range(1501, 1506), guild_id=GUILD)
        twos = await signed_up(store, range(1501, 1505), Format.ROUND_ROBIN, guild_id=OTHER_GUILD)
        await asyncio.gather(started(store, ones.tournament_id), started(store, twos.tournament_id))
        await asyncio.gather(
            play_out(store, ones.tournament_id, lambda board: Result.O_WON),
            play_out(store, twos.tournament_id, lambda board: Result.DRAW),
        )
        for tid in (ones.tournament_id, twos.tournament_id):
            final = await loaded(store, tid)
            assert final.state is State.FINISHED
            replayed(final)
        assert await store.active([GUILD, OTHER_GUILD]) == []
        summary = await store.player_summary(1501, None)
        assert summary.played == 2
    finally:
        await storage.close()


async def test_a_round_card_is_taken_once_and_keeps_its_message(store):
    tournament_id = (await signed_up(store, [101, 102, 103, 104])).tournament_id
    await started(store, tournament_id)
    assert (await store.load(tournament_id)).round_card(1) == RoundCard()
    taken = await asyncio.gather(*(store.claim_round_card(tournament_id, 1) for _ in range(3)))
    assert sorted(taken) == [False, False, True]  # one caller posts it
    await store.unclaim_round_card(tournament_id, 1)  # Discord refused it: free again
    assert await store.claim_round_card(tournament_id, 1)
    await store.mark_round_card(tournament_id, 1, 123)
    await store.unclaim_round_card(tournament_id, 1)  # posted: stays taken
    assert not await store.claim_round_card(tournament_id, 1)
    assert (await store.load(tournament_id)).round_card(1) == RoundCard(True, 123)


async def test_migration_0009_counts_the_cards_of_rounds_paired_before_it_as_posted(store):
    """Their cards were posted by a process that kept their ids in memory: taken, without an
    id (a restart looks for them in the thread rather than posting them again)."""
    tournament_id = (await signed_up(store, [101, 102, 103, 104])).tournament_id
    await started(store, tournament_id)

    def columns(connection):
        return {c["name"] for c in inspect(connection).get_columns("tournament_rounds")}

    def run(work):
        return store.storage.database.run(work, write=True)

    await run(lambda c: command.downgrade(alembic_config(c), "0008"))
    assert "card_claimed" not in await run(columns)
    await run(lambda c: command.upgrade(alembic_config(c), "head"))
    assert (await store.load(tournament_id)).round_card(1) == RoundCard(True, None)
    assert not await store.claim_round_card(tournament_id, 1)
