"""The tournaments' tables in the records database (SQLAlchemy Core, on the records' `metadata`,
so that Alembic's comparison sees them; migration 0007 creates them).

- `tournaments`: one row per tournament: where (server, channel, sign-up card, thread), who
  organises it, format, planned rounds, variant, state.
- `tournament_players`: who joined, in join order (`seat`: the seed), when they withdrew (the
  number of rounds paired by then), their final rank. `holds_seat` is true while the player is
  in a signing-up or running tournament and has not withdrawn: a unique index on (server,
  player) over those rows is the rule "one tournament at a time per server", kept by the
  database whatever two processes do at once.
- `tournament_rounds`: one row per round paired; its primary key (tournament, round) is what
  makes a round paired once, whoever records the last result of the round before. Its card is
  an outbox entry like a board: `card_claimed`, then `card_message_id`.
- `tournament_byes`: who had the bye in which round.
- `tournament_pairings`: the games, keyed (tournament, round, board): the key a board's
  custom_id carries. Written with the round, before any board is posted (an outbox): `claimed`
  once a process takes the board to post it, `message_id` once Discord has answered.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Double,
    Index,
    Integer,
    String,
    Table,
    text,
    true,
)

from bot.records.sql.schema import metadata

HOLDS_SEAT = text("holds_seat")

tournaments = Table(
    "tournaments",
    metadata,
    Column("tournament_id", Integer, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("card_message_id", BigInteger, nullable=True),
    Column("thread_id", BigInteger, nullable=True),
    Column("organiser_id", BigInteger, nullable=False),
    Column("name", String(100), nullable=True),
    Column("format", String(16), nullable=False),
    Column("rounds", Integer, nullable=True),
    Column("variant", String(16), nullable=False),
    Column("state", String(16), nullable=False),
    Column("created_at", Double, nullable=False),
    Column("finished_at", Double, nullable=True),
    Index("ix_tournaments_guild_id_state", "guild_id", "state"),
    Index("ix_tournaments_thread_id", "thread_id"),
)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", Integer, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
    Column("guild_id", BigInteger, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("joined_at", Double, nullable=False),
    Column("holds_seat", Boolean, nullable=False),
    Column("withdrawn_round", Integer, nullable=True),
    Column("final_rank", Integer, nullable=True),
    Index("ix_tournament_players_user_id", "user_id"),
)

# One open tournament per player per server. Partial: for SQLite here, for PostgreSQL through
# the records' with_postgresql_options() (as the records' own partial indexes).
_one_seat = Index(
    "ix_tournament_players_one_seat",
    tournament_players.c.guild_id,
    tournament_players.c.user_id,
    unique=True,
    sqlite_where=HOLDS_SEAT,
)
_one_seat.info["where"] = HOLDS_SEAT

tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column("tournament_id", Integer, primary_key=True, autoincrement=False),
    Column("round_number", Integer, primary_key=True, autoincrement=False),
    Column("paired_at", Double, nullable=False),
    Column("closed_at", Double, nullable=True),
    # The round's card in the thread, posted as its boards are (an outbox; migration 0009).
    # New rounds are written unclaimed; the default is for rounds from before 0009 (posted).
    Column("card_claimed", Boolean, server_default=true(), nullable=False),
    Column("card_message_id", BigInteger, nullable=True),
)

tournament_byes = Table(
    "tournament_byes",
    metadata,
    Column("tournament_id", Integer, primary_key=True, autoincrement=False),
    Column("round_number", Integer, primary_key=True, autoincrement=False),
    Column("user_id", BigInteger, primary_key=True, autoincrement=False),
)

tournament_pairings = Table(
    "tournament_pairings",
    metadata,
    Column("tournament_id", Integer, primary_key=True, autoincrement=False),
    Column("round_number", Integer, primary_key=True, autoincrement=False),
    Column("board", Integer, primary_key=True, autoincrement=False),
    Column("x_id", BigInteger, nullable=False),
    Column("o_id", BigInteger, nullable=False),
    Column("result", String(3), nullable=True),
    Column("claimed", Boolean, nullable=False),
    Column("message_id", BigInteger, nullable=True),
    Column("ended_at", Double, nullable=True),
)
