"""/forget-me in the tournaments: a player who deletes their data leaves the sign-ups they are
in and withdraws from the tournaments they play (as Leave and Withdraw do), the sign-ups they
organise are cancelled, then their id is replaced everywhere in the tournaments' tables by one
that stands for "a deleted player".

One transaction (a SQLAlchemy `Connection`, run by the records' Storage as sql.py's are). The
stand-in is the player's seat in each tournament (bot/core/players.py `forgotten_player`):
unique there, so that the tables' keys hold and the standings add up as before.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import Connection, select, update

from bot.core.players import DELETED_PLAYER, forgotten_player
from bot.tournaments import sql
from bot.tournaments.running import Progress, State
from bot.tournaments.tables import (
    tournament_byes,
    tournament_pairings,
    tournament_players,
    tournaments,
)


def forget(connection: Connection, user_id: int, now: float) -> list[Progress]:
    """What leaving and withdrawing changed (for the cog to show), once the player's id is gone
    from every tournament."""
    open_ones = connection.scalars(
        select(tournament_players.c.tournament_id)
        .join(tournaments, tournaments.c.tournament_id == tournament_players.c.tournament_id)
        .where(
            tournament_players.c.user_id == user_id,
            tournaments.c.state.in_([State.SIGNUP.value, State.RUNNING.value]),
        )
        .order_by(tournament_players.c.tournament_id)
    ).all()
    progress = [
        sql.withdraw(connection, tournament_id, user_id, now) for tournament_id in open_ones
    ]
    # A sign-up whose organiser is gone could never start nor be cancelled: cancelled now, so
    # that its players are free to join another. A running one plays on by itself.
    signing_up = connection.scalars(
        select(tournaments.c.tournament_id).where(
            tournaments.c.organiser_id == user_id, tournaments.c.state == State.SIGNUP.value
        )
    ).all()
    progress += [sql.cancel(connection, tournament_id, now) for tournament_id in signing_up]
    seats = connection.execute(
        select(tournament_players.c.tournament_id, tournament_players.c.seat).where(
            tournament_players.c.user_id == user_id
        )
    ).all()
    for tournament_id, seat in seats:
        stand_in = forgotten_player(seat)
        _replace(connection, tournament_id, user_id, stand_in)
    connection.execute(
        update(tournaments)
        .where(tournaments.c.organiser_id == user_id)
        .values(organiser_id=DELETED_PLAYER)
    )
    # As the cards will show them: without the player's id.
    return [
        replace(step, tournament=sql.load(connection, step.tournament.tournament_id))
        if step.tournament is not None
        else step
        for step in progress
    ]


def _replace(connection: Connection, tournament_id: int, user_id: int, stand_in: int) -> None:
    connection.execute(
        update(tournament_players)
        .where(
            tournament_players.c.tournament_id == tournament_id,
            tournament_players.c.user_id == user_id,
        )
        .values(user_id=stand_in)
    )
    for column in (tournament_pairings.c.x_id, tournament_pairings.c.o_id):
        connection.execute(
            update(tournament_pairings)
            .where(tournament_pairings.c.tournament_id == tournament_id, column == user_id)
            .values({column.name: stand_in})
        )
    connection.execute(
        update(tournament_byes)
        .where(
            tournament_byes.c.tournament_id == tournament_id, tournament_byes.c.user_id == user_id
        )
        .values(user_id=stand_in)
    )
