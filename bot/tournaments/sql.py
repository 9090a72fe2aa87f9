"""The tournaments' transactions: each a synchronous function of a SQLAlchemy `Connection`, run
whole by the records' `Storage.write` / `Storage.read` (bot/tournaments/store.py).

Every write on a tournament first locks its row (SELECT ... FOR UPDATE on PostgreSQL; SQLite's
writers take turns anyway, BEGIN IMMEDIATE): two processes recording the last two results of a
round one after the other, the second sees the first's result and pairs the next round. The
round's primary key (tournament, round) makes a second pairing of it impossible all the same.
A result, the round it closes, the round it pairs and the tournament's end are one transaction:
a crash leaves either all of it or none.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, and_, func, select, update

from bot.records.sql.statements import dialect_of
from bot.tournaments.core import Format, Pairing, PlayerId, Result, Round, Tournament
from bot.tournaments.running import (
    MIN_PLAYERS,
    Board,
    JoinResult,
    LeaveResult,
    PairingKey,
    Progress,
    RoundCard,
    StartResult,
    State,
    StoredTournament,
    TournamentSummary,
    advance,
    final_ranks,
    forfeit_by,
    planned_rounds,
)
from bot.tournaments.tables import (
    tournament_byes,
    tournament_pairings,
    tournament_players,
    tournament_rounds,
    tournaments,
)

_CHUNK = 900  # servers per IN (...): under SQLite's oldest limit of 999 bound parameters

# ---- reading --------------------------------------------------------------------------------


def load(connection: Connection, tournament_id: int) -> StoredTournament | None:
    row = connection.execute(
        select(tournaments).where(tournaments.c.tournament_id == tournament_id)
    ).first()
    return None if row is None else _stored(connection, row._mapping)


def by_thread(connection: Connection, thread_id: int) -> StoredTournament | None:
    row = connection.execute(
        select(tournaments)
        .where(tournaments.c.thread_id == thread_id)
        .order_by(tournaments.c.tournament_id.desc())
        .limit(1)
    ).first()
    return None if row is None else _stored(connection, row._mapping)


def active(connection: Connection, guild_ids: Collection[int]) -> list[StoredTournament]:
    """The signing-up and running tournaments of those servers, oldest first."""
    ids = sorted(set(guild_ids))
    found: list[StoredTournament] = []
    for start in range(0, len(ids), _CHUNK):
        rows = connection.execute(
            select(tournaments)
            .where(tournaments.c.guild_id.in_(ids[start : start + _CHUNK]))
            .where(tournaments.c.state.in_([State.SIGNUP.value, State.RUNNING.value]))
            .order_by(tournaments.c.tournament_id)
        ).mappings()
        found.extend(_stored(connection, row) for row in list(rows))
    found.sort(key=lambda stored: stored.tournament_id)
    return found


def summary(connection: Connection, user_id: int, guild_id: int | None) -> TournamentSummary:
    query = (
        select(
            func.count(),
            func.count().filter(tournament_players.c.final_rank <= 3),
            func.count().filter(tournament_players.c.final_rank == 1),
        )
        .select_from(
            tournament_players.join(
                tournaments, tournaments.c.tournament_id == tournament_players.c.tournament_id
            )
        )
        .where(tournament_players.c.user_id == user_id, tournaments.c.state == State.FINISHED.value)
    )
    if guild_id is not None:
        query = query.where(tournament_players.c.guild_id == guild_id)
    played, podiums, wins = connection.execute(query).one()
    return TournamentSummary(played, podiums, wins)


def unconfirmed_posts(connection: Connection, tournament_id: int) -> list[Board]:
    rows = connection.execute(
        select(tournament_pairings)
        .where(
            tournament_pairings.c.tournament_id == tournament_id,
            tournament_pairings.c.claimed,
            tournament_pairings.c.message_id.is_(None),
        )
        .order_by(tournament_pairings.c.round_number, tournament_pairings.c.board)
    ).mappings()
    return [_board(row) for row in rows]


def _stored(connection: Connection, row: Mapping[Any, Any]) -> StoredTournament:
    tournament_id = row["tournament_id"]
    players = connection.execute(
        select(tournament_players)
        .where(tournament_players.c.tournament_id == tournament_id)
        .order_by(tournament_players.c.seat)
    ).mappings()
    seeds: list[PlayerId] = []
    withdrawn: dict[PlayerId, int] = {}
    ranks: dict[PlayerId, int] = {}
    for player in players:
        seeds.append(player["user_id"])
        if player["withdrawn_round"] is not None:
            withdrawn[player["user_id"]] = player["withdrawn_round"]
        if player["final_rank"] is not None:
            ranks[player["user_id"]] = player["final_rank"]
    round_rows = connection.execute(
        select(
            tournament_rounds.c.round_number,
            tournament_rounds.c.card_claimed,
            tournament_rounds.c.card_message_id,
        ).where(tournament_rounds.c.tournament_id == tournament_id)
    ).all()
    numbers = [number for number, _, _ in round_rows]
    cards = {
        number: RoundCard(bool(claimed), message_id) for number, claimed, message_id in round_rows
    }
    byes: dict[int, list[PlayerId]] = {number: [] for number in numbers}
    for number, user_id in connection.execute(
        select(tournament_byes.c.round_number, tournament_byes.c.user_id)
        .where(tournament_byes.c.tournament_id == tournament_id)
        .order_by(tournament_byes.c.round_number, tournament_byes.c.user_id)
    ):
        byes[number].append(user_id)
    boards: dict[int, list[Board]] = {number: [] for number in numbers}
    for pairing in connection.execute(
        select(tournament_pairings)
        .where(tournament_pairings.c.tournament_id == tournament_id)
        .order_by(tournament_pairings.c.round_number, tournament_pairings.c.board)
    ).mappings():
        boards[pairing["round_number"]].append(_board(pairing))
    order = sorted(numbers)
    if order != list(range(1, len(order) + 1)):
        raise ValueError(f"tournament {tournament_id} has rounds {order}")
    seed_of = {player: index for index, player in enumerate(seeds)}
    rounds = tuple(
        Round(
            tuple(Pairing(board.x, board.o, board.result) for board in boards[number]),
            tuple(sorted(byes[number], key=lambda p: seed_of.get(p, len(seeds)))),
        )
        for number in order
    )
    return StoredTournament(
        tournament_id=tournament_id,
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        card_message_id=row["card_message_id"],
        thread_id=row["thread_id"],
        organiser_id=row["organiser_id"],
        name=row["name"],
        format=Format(row["format"]),
        rounds=row["rounds"],
        variant=row["variant"],
        state=State(row["state"]),
        created_at=row["created_at"],
        tournament=Tournament(Format(row["format"]), tuple(seeds), rounds, frozenset(withdrawn)),
        boards=tuple(tuple(boards[number]) for number in order),
        withdrawn_round=withdrawn,
        final_ranks=ranks,
        round_cards=tuple(cards[number] for number in order),
    )


def _board(row: Mapping[Any, Any]) -> Board:
    result = row["result"]
    return Board(
        key=PairingKey(row["tournament_id"], row["round_number"], row["board"]),
        x=row["x_id"],
        o=row["o_id"],
        result=None if result is None else Result(result),
        claimed=bool(row["claimed"]),
        message_id=row["message_id"],
    )


# ---- writing --------------------------------------------------------------------------------


def create(
    connection: Connection,
    *,
    guild_id: int,
    channel_id: int,
    organiser_id: int,
    format_: Format,
    rounds: int | None,
    variant: str,
    name: str | None,
    now: float,
) -> StoredTournament:
    tournament_id = connection.execute(
        tournaments.insert()
        .values(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            name=name,
            format=format_.value,
            rounds=rounds,
            variant=variant,
            state=State.SIGNUP.value,
            created_at=now,
        )
        .returning(tournaments.c.tournament_id)
    ).scalar_one()
    stored = load(connection, tournament_id)
    assert stored is not None
    return stored


def set_card(connection: Connection, tournament_id: int, card_message_id: int) -> None:
    connection.execute(
        update(tournaments)
        .where(tournaments.c.tournament_id == tournament_id)
        .values(card_message_id=card_message_id)
    )


def join(connection: Connection, tournament_id: int, user_id: int, now: float) -> JoinResult:
    row = _lock(connection, tournament_id)
    if row is None or row["state"] != State.SIGNUP.value:
        return JoinResult.NOT_OPEN
    mine = connection.execute(
        select(tournament_players.c.user_id).where(
            tournament_players.c.tournament_id == tournament_id,
            tournament_players.c.user_id == user_id,
        )
    ).first()
    if mine is not None:
        return JoinResult.ALREADY_JOINED
    seat = connection.execute(
        select(func.coalesce(func.max(tournament_players.c.seat), 0)).where(
            tournament_players.c.tournament_id == tournament_id
        )
    ).scalar_one()
    # The one-seat index decides, also against a join to another tournament of the server
    # committed a moment ago by another process: nothing inserted means a seat elsewhere.
    insert = dialect_of(connection.dialect.name).insert(tournament_players)
    inserted = connection.execute(
        insert.values(
            tournament_id=tournament_id,
            user_id=user_id,
            guild_id=row["guild_id"],
            seat=seat + 1,
            joined_at=now,
            holds_seat=True,
        )
        .on_conflict_do_nothing(
            index_elements=[tournament_players.c.guild_id, tournament_players.c.user_id],
            index_where=tournament_players.c.holds_seat,
        )
        .returning(tournament_players.c.user_id)
    ).first()
    return JoinResult.JOINED if inserted is not None else JoinResult.IN_ANOTHER


def leave(connection: Connection, tournament_id: int, user_id: int) -> LeaveResult:
    row = _lock(connection, tournament_id)
    if row is None or row["state"] != State.SIGNUP.value:
        return LeaveResult.NOT_OPEN
    deleted = connection.execute(
        tournament_players.delete().where(
            tournament_players.c.tournament_id == tournament_id,
            tournament_players.c.user_id == user_id,
        )
    ).rowcount
    return LeaveResult.LEFT if deleted else LeaveResult.NOT_JOINED


def start(
    connection: Connection, tournament_id: int, thread_id: int, now: float
) -> tuple[StartResult, Progress]:
    row = _lock(connection, tournament_id)
    if row is None or row["state"] != State.SIGNUP.value:
        return StartResult.NOT_OPEN, Progress(False, load(connection, tournament_id))
    stored = _stored(connection, row)
    if len(stored.players) < MIN_PLAYERS:
        return StartResult.TOO_FEW, Progress(False, stored)
    rounds = planned_rounds(stored.format, stored.rounds, len(stored.players))
    connection.execute(
        update(tournaments)
        .where(tournaments.c.tournament_id == tournament_id)
        .values(state=State.RUNNING.value, thread_id=thread_id, rounds=rounds)
    )
    running = _stored(connection, _lock(connection, tournament_id) or row)
    return StartResult.STARTED, _follow_up(connection, running, now, changed=True)


def cancel(connection: Connection, tournament_id: int, now: float) -> Progress:
    row = _lock(connection, tournament_id)
    if row is None or not State(row["state"]).open:
        return Progress(False, load(connection, tournament_id))
    connection.execute(
        update(tournaments)
        .where(tournaments.c.tournament_id == tournament_id)
        .values(state=State.CANCELLED.value, finished_at=now)
    )
    connection.execute(
        update(tournament_players)
        .where(tournament_players.c.tournament_id == tournament_id)
        .values(holds_seat=False)
    )
    return Progress(True, load(connection, tournament_id))


def withdraw(connection: Connection, tournament_id: int, user_id: int, now: float) -> Progress:
    row = _lock(connection, tournament_id)
    if row is None:
        return Progress(False)
    if row["state"] == State.SIGNUP.value:
        left = leave(connection, tournament_id, user_id) is LeaveResult.LEFT
        return Progress(left, load(connection, tournament_id))
    stored = _stored(connection, row)
    if (
        stored.state is not State.RUNNING
        or user_id not in stored.players
        or user_id in stored.withdrawn_round
    ):
        return Progress(False, stored)
    connection.execute(
        update(tournament_players)
        .where(
            tournament_players.c.tournament_id == tournament_id,
            tournament_players.c.user_id == user_id,
        )
        .values(withdrawn_round=stored.current_round, holds_seat=False)
    )
    forfeited = []
    for board in stored.boards[-1] if stored.boards else ():
        if board.result is None and user_id in (board.x, board.o):
            result = forfeit_by(Pairing(board.x, board.o), user_id)
            if _end_game(connection, board.key, result, now):
                forfeited.append(_replace_result(board, result))
    again = _stored(connection, row)
    return _follow_up(connection, again, now, changed=True, forfeited=tuple(forfeited))


def record_result(connection: Connection, key: PairingKey, result: Result, now: float) -> Progress:
    row = _lock(connection, key.tournament_id)
    if row is None or row["state"] != State.RUNNING.value:
        return Progress(False, None if row is None else _stored(connection, row))
    if not _end_game(connection, key, result, now):
        return Progress(False, _stored(connection, row))
    return _follow_up(connection, _stored(connection, row), now, changed=True)


def catch_up(connection: Connection, tournament_id: int, now: float) -> Progress:
    row = _lock(connection, tournament_id)
    if row is None or row["state"] != State.RUNNING.value:
        return Progress(False, None if row is None else _stored(connection, row))
    return _follow_up(connection, _stored(connection, row), now, changed=False)


def claim_posts(connection: Connection, tournament_id: int) -> list[Board]:
    """The boards of running games not yet taken to post, now taken (by this call only)."""
    row = _lock(connection, tournament_id)
    if row is None or row["state"] != State.RUNNING.value:
        return []
    free = and_(
        tournament_pairings.c.tournament_id == tournament_id,
        ~tournament_pairings.c.claimed,
        tournament_pairings.c.result.is_(None),
    )
    rows = connection.execute(
        select(tournament_pairings)
        .where(free)
        .order_by(tournament_pairings.c.round_number, tournament_pairings.c.board)
    ).mappings()
    boards = [_board(row) for row in rows]
    if boards:
        connection.execute(update(tournament_pairings).where(free).values(claimed=True))
    return [_claimed(board) for board in boards]


def mark_posted(connection: Connection, key: PairingKey, message_id: int) -> None:
    connection.execute(
        update(tournament_pairings).where(*_key(key)).values(claimed=True, message_id=message_id)
    )


def unclaim(connection: Connection, key: PairingKey) -> None:
    connection.execute(
        update(tournament_pairings)
        .where(*_key(key), tournament_pairings.c.message_id.is_(None))
        .values(claimed=False)
    )


def claim_round_card(connection: Connection, tournament_id: int, round_number: int) -> bool:
    """Whether this call took the round's card to post (once, whoever asks)."""
    taken = connection.execute(
        update(tournament_rounds)
        .where(*_round(tournament_id, round_number), ~tournament_rounds.c.card_claimed)
        .values(card_claimed=True)
    ).rowcount
    return bool(taken)


def mark_round_card(
    connection: Connection, tournament_id: int, round_number: int, message_id: int
) -> None:
    connection.execute(
        update(tournament_rounds)
        .where(*_round(tournament_id, round_number))
        .values(card_claimed=True, card_message_id=message_id)
    )


def unclaim_round_card(connection: Connection, tournament_id: int, round_number: int) -> None:
    connection.execute(
        update(tournament_rounds)
        .where(*_round(tournament_id, round_number), tournament_rounds.c.card_message_id.is_(None))
        .values(card_claimed=False)
    )


def _round(tournament_id: int, round_number: int) -> Iterable[Any]:
    return (
        tournament_rounds.c.tournament_id == tournament_id,
        tournament_rounds.c.round_number == round_number,
    )


# ---- the steps under the lock ---------------------------------------------------------------


def _lock(connection: Connection, tournament_id: int) -> Mapping[Any, Any] | None:
    """The tournament's row, locked until the transaction ends (PostgreSQL; SQLite's writers
    take turns whole)."""
    row = connection.execute(
        select(tournaments).where(tournaments.c.tournament_id == tournament_id).with_for_update()
    ).first()
    return None if row is None else row._mapping


def _key(key: PairingKey) -> Iterable[Any]:
    return (
        tournament_pairings.c.tournament_id == key.tournament_id,
        tournament_pairings.c.round_number == key.round_number,
        tournament_pairings.c.board == key.board,
    )


def _end_game(connection: Connection, key: PairingKey, result: Result, now: float) -> bool:
    """Record the result unless the game already has one: whether this call recorded it."""
    ended = connection.execute(
        update(tournament_pairings)
        .where(*_key(key), tournament_pairings.c.result.is_(None))
        .values(result=result.value, ended_at=now)
    ).rowcount
    return bool(ended)


def _follow_up(
    connection: Connection,
    stored: StoredTournament,
    now: float,
    *,
    changed: bool,
    forfeited: tuple[Board, ...] = (),
) -> Progress:
    """Close the finished rounds, pair what follows, or finish: as running.advance decides."""
    tournament_id = stored.tournament_id
    closed = connection.scalar(
        select(func.count()).where(
            tournament_rounds.c.tournament_id == tournament_id,
            tournament_rounds.c.closed_at.is_not(None),
        )
    )
    rounds = stored.rounds or planned_rounds(stored.format, None, len(stored.players))
    step = advance(stored.tournament, rounds, closed or 0)
    if step.closed:
        connection.execute(
            update(tournament_rounds)
            .where(
                tournament_rounds.c.tournament_id == tournament_id,
                tournament_rounds.c.round_number.in_(step.closed),
            )
            .values(closed_at=now)
        )
    paired = []
    number = stored.current_round
    for round_ in step.paired:
        number += 1
        _insert_round(connection, tournament_id, number, round_, now)
        paired.append(number)
    if step.finished:
        connection.execute(
            update(tournaments)
            .where(tournaments.c.tournament_id == tournament_id)
            .values(state=State.FINISHED.value, finished_at=now)
        )
        connection.execute(
            update(tournament_players)
            .where(tournament_players.c.tournament_id == tournament_id)
            .values(holds_seat=False)
        )
        final = stored.tournament
        for round_ in step.paired:
            final = final.with_round(round_)
        for player, rank in final_ranks(final).items():
            connection.execute(
                update(tournament_players)
                .where(
                    tournament_players.c.tournament_id == tournament_id,
                    tournament_players.c.user_id == player,
                )
                .values(final_rank=rank)
            )
    moved = bool(step.closed or step.paired or step.finished)
    return Progress(
        changed or moved,
        load(connection, tournament_id) if moved else stored,
        closed_rounds=step.closed,
        paired_rounds=tuple(paired),
        forfeited=forfeited,
        finished=step.finished,
    )


def _insert_round(
    connection: Connection, tournament_id: int, number: int, round_: Round, now: float
) -> None:
    # The primary key (tournament, round) is the guarantee: a second pairing of the same round,
    # whatever the lock failed to prevent, fails here and rolls back its whole transaction.
    connection.execute(
        tournament_rounds.insert().values(
            tournament_id=tournament_id, round_number=number, paired_at=now, card_claimed=False
        )
    )
    if round_.byes:
        connection.execute(
            tournament_byes.insert(),
            [
                {"tournament_id": tournament_id, "round_number": number, "user_id": player}
                for player in round_.byes
            ],
        )
    if round_.pairings:
        connection.execute(
            tournament_pairings.insert(),
            [
                {
                    "tournament_id": tournament_id,
                    "round_number": number,
                    "board": board,
                    "x_id": pairing.x,
                    "o_id": pairing.o,
                    "result": None if pairing.result is None else pairing.result.value,
                    "claimed": False,
                    "message_id": None,
                    "ended_at": None,
                }
                for board, pairing in enumerate(round_.pairings, start=1)
            ],
        )


def _claimed(board: Board) -> Board:
    return Board(board.key, board.x, board.o, board.result, True, board.message_id)


def _replace_result(board: Board, result: Result) -> Board:
    return Board(board.key, board.x, board.o, result, board.claimed, board.message_id)
