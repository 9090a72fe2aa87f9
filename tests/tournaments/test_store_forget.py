"""/forget-me in the tournaments' store, on SQLite and PostgreSQL: the player's id is gone from
every table, the standings add up as before under a stand-in, a running tournament treats it
as a withdrawal, and a sign-up the player organised is cancelled."""

from __future__ import annotations

from sqlalchemy import or_, select

from bot.core.players import is_deleted
from bot.tournaments.core import Format, Result
from bot.tournaments.running import JoinResult, State
from bot.tournaments.standings import standings
from bot.tournaments.tables import (
    tournament_byes,
    tournament_pairings,
    tournament_players,
    tournaments,
)
from tests.tournaments.store_support import (
    ORGANISER,
    Thread,
    loaded,
    play_out,
    post_round,
    signed_up,
    started,
)

PLAYERS = [101, 102, 103, 104, 105]  # odd: a bye every round


def x_wins(board) -> Result:
    return Result.X_WON


async def rows_naming(store, user_id: int) -> int:
    """Rows of any tournament table that hold `user_id`, by an independent query per table."""

    def count(connection) -> int:
        found = 0
        for table, columns in (
            (tournaments, [tournaments.c.organiser_id]),
            (tournament_players, [tournament_players.c.user_id]),
            (tournament_pairings, [tournament_pairings.c.x_id, tournament_pairings.c.o_id]),
            (tournament_byes, [tournament_byes.c.user_id]),
        ):
            found += len(
                connection.execute(
                    select(table).where(or_(*(column == user_id for column in columns)))
                ).all()
            )
        return found

    return await store.storage.read(count)


def table_of(stored) -> list[tuple]:
    """The standings with each player given by seat: what must not change."""
    seat = {player: index for index, player in enumerate(stored.players)}
    return sorted(
        (line.rank, line.shared, seat[line.player], line.points, line.tie_breaks)
        for line in standings(stored.tournament).lines
    )


async def test_a_finished_tournament_keeps_its_standings_without_the_players_id(store):
    created = await signed_up(store, PLAYERS)
    await started(store, created.tournament_id)
    await play_out(store, created.tournament_id, x_wins)
    before = await loaded(store, created.tournament_id)
    assert before.state is State.FINISHED
    gone = PLAYERS[2]
    assert await rows_naming(store, gone) > 0

    changes = await store.forget(gone)

    assert changes == []  # nothing left to play: nothing to show
    assert await rows_naming(store, gone) == 0
    after = await loaded(store, created.tournament_id)
    assert table_of(after) == table_of(before)
    stand_in = after.players[PLAYERS.index(gone)]
    assert is_deleted(stand_in)
    assert after.final_ranks[stand_in] == before.final_ranks[gone]
    assert (await store.player_summary(gone, None)).played == 0
    assert await store.forget(gone) == []  # again: nothing changes
    assert table_of(await loaded(store, created.tournament_id)) == table_of(before)


async def test_two_forgotten_players_of_one_tournament_stay_apart(store):
    created = await signed_up(store, PLAYERS, Format.ROUND_ROBIN)
    await started(store, created.tournament_id)
    await play_out(store, created.tournament_id, x_wins)
    before = await loaded(store, created.tournament_id)
    await store.forget(PLAYERS[0])
    await store.forget(PLAYERS[4])
    after = await loaded(store, created.tournament_id)
    assert table_of(after) == table_of(before)
    assert len(set(after.players)) == len(PLAYERS)
    assert sum(is_deleted(p) for p in after.players) == 2


async def test_a_running_player_is_withdrawn_then_forgotten(store):
    created = await signed_up(store, PLAYERS[:4], rounds=3)
    await started(store, created.tournament_id)
    thread = Thread()
    (first, second) = await post_round(store, created.tournament_id, thread)
    gone = first.x
    await store.record_result(second.key, Result.DRAW)

    (change,) = await store.forget(gone)

    assert change.changed
    assert [(b.key, b.result) for b in change.forfeited] == [(first.key, Result.O_WON_BY_FORFEIT)]
    assert (first.x, first.o) == (change.forfeited[0].x, change.forfeited[0].o)  # to end its board
    assert change.paired_rounds == (2,)  # the forfeit ended round 1
    assert change.tournament is not None
    assert gone not in change.tournament.players  # the cards show the stand-in
    assert await rows_naming(store, gone) == 0
    stand_in = change.tournament.players[PLAYERS.index(gone)]
    later = await play_out(store, created.tournament_id, x_wins, thread)
    final = later[-1].tournament if later else change.tournament
    assert final is not None
    for round_ in final.tournament.rounds[1:]:
        assert all(stand_in not in (p.x, p.o) for p in round_.pairings)
        assert stand_in not in round_.byes


async def sign_up_in(store, guild_id: int, organiser_id: int):
    return await store.create(
        guild_id=guild_id,
        channel_id=1,
        organiser_id=organiser_id,
        format_=Format.SWISS,
        rounds=None,
        variant="classic",
        name=None,
    )


async def test_a_sign_up_is_left_and_one_the_player_organised_is_cancelled(store):
    joined = await signed_up(store, PLAYERS[:3])
    organised = await sign_up_in(store, joined.guild_id + 1, PLAYERS[4])
    assert await store.join(organised.tournament_id, PLAYERS[0]) is JoinResult.JOINED

    changes = await store.forget(PLAYERS[4])
    assert [c.tournament.state for c in changes if c.tournament] == [State.CANCELLED]
    # Its player is free again in that server.
    again = await sign_up_in(store, joined.guild_id + 1, ORGANISER)
    assert await store.join(again.tournament_id, PLAYERS[0]) is JoinResult.JOINED

    changes = await store.forget(PLAYERS[1])
    assert [c.tournament.players for c in changes if c.tournament] == [(PLAYERS[0], PLAYERS[2])]
    assert await rows_naming(store, PLAYERS[1]) == 0
    assert await rows_naming(store, PLAYERS[4]) == 0
