"""Ultimate games in the records, on a real SQLite file and a real PostgreSQL server: recorded
with their kind, their moves and 81 cells; counted in tallies, streaks and a rating of their
own, never in classic's; exactly once; forgotten like classic's."""

import asyncio
import random
from dataclasses import replace

import pytest
from sqlalchemy import text

from bot.core.game import AI, Ending
from bot.records.api import CLASSIC, Finish, GameRecord, Tally
from bot.records.sql.storage import Storage, open_records
from tests.support.records import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    O_WINS,
    OTHER_GUILD,
    X_WINS,
    game_id,
    record,
)
from tests.support.ultimate_records import DRAWN, played, playout, ultimate_record
from tictactoe import ultimate

DAVE = 100_000_000_000_000_004
X_LINE, O_LINE, FULL = playout("X"), playout("O"), playout(DRAWN)


@pytest.fixture
async def records(database_url):
    storage = await open_records(database_url)
    yield storage
    await storage.close()


def only(stats):
    """A player's one variant (ultimate), as their stats list it."""
    (variant,) = stats.variants
    assert variant.kind == "ultimate"
    return variant


# What a finished ultimate game becomes


def test_an_ultimate_game_is_recorded_with_its_81_cells_and_its_moves():
    won = ultimate_record(1, ALICE, BOB, X_LINE)
    final = played(ALICE, BOB, X_LINE).position
    assert won.kind == "ultimate"
    assert (won.winner, won.finish, won.counted) == ("X", Finish.LINE, True)
    assert won.moves == X_LINE
    assert len(won.board) == 81
    for board in range(9):
        for cell in range(9):
            mark = ultimate.cells(final)[9 * board + cell]
            assert won.board[9 * board + cell] == (mark or "-")
    assert ultimate_record(2, ALICE, BOB, O_LINE).winner == "O"
    drawn = ultimate_record(3, ALICE, BOB, FULL)
    assert (drawn.winner, drawn.finish, drawn.counted) == (None, Finish.FULL, True)


def test_resigning_expiring_and_abandoning_an_ultimate_game_count_as_in_classic():
    resigned = ultimate_record(1, ALICE, BOB, X_LINE[:6], ending=Ending.X_RESIGNED)
    assert (resigned.winner, resigned.finish, resigned.counted) == ("O", Finish.RESIGNED, True)
    o_to_move = ultimate_record(2, ALICE, BOB, X_LINE[:5], ending=Ending.EXPIRED)
    assert (o_to_move.winner, o_to_move.finish) == ("X", Finish.EXPIRED)
    abandoned = ultimate_record(3, ALICE, BOB, X_LINE[:1], ending=Ending.EXPIRED)
    assert (abandoned.winner, abandoned.counted) == (None, False)


def test_an_ultimate_game_rebuilt_from_its_message_has_no_move_list():
    rebuilt = ultimate_record(1, ALICE, BOB, X_LINE, known_moves=False)
    assert rebuilt.moves is None
    assert rebuilt.board == ultimate_record(1, ALICE, BOB, X_LINE).board
    assert rebuilt.winner == "X"


def test_an_ultimate_game_has_no_classic_board_to_review():
    with pytest.raises(ValueError, match="ultimate"):
        ultimate_record(1, ALICE, BOB, X_LINE).to_game()


# Stored and read back


async def test_an_ultimate_game_is_stored_as_it_was_recorded(records):
    games = [
        ultimate_record(1, ALICE, BOB, X_LINE),
        ultimate_record(2, BOB, AI, FULL, level="hard"),
        ultimate_record(3, CAROL, ALICE, O_LINE, known_moves=False, guild=None),
    ]
    assert await records.record(games) == 3
    for game in games:
        assert await records.game(game.game_id) == game
    # The moves column: each move as its board's digit then its cell's.
    stored = await records.database.run(
        lambda c: c.execute(
            text("SELECT moves, board, kind FROM games WHERE game_id = :id"), {"id": game_id(1)}
        ).one()
    )
    moves, board, kind = stored
    assert moves == "".join(f"{board}{cell}" for board, cell in map(lambda m: divmod(m, 9), X_LINE))
    assert (len(board), kind) == (81, "ultimate")


async def test_the_longest_ultimate_game_fits(records):
    """81 moves (every cell), whatever they are: the columns' widths, on both databases."""
    longest = replace(ultimate_record(1, ALICE, BOB, FULL), moves=tuple(range(80, -1, -1)))
    assert await records.record([longest]) == 1
    assert (await records.game(longest.game_id)).moves == tuple(range(80, -1, -1))


async def test_ultimate_games_have_a_rating_of_their_own(records):
    # Alice beats Bob at ultimate; Bob beats Alice at classic.
    await records.record([ultimate_record(1, ALICE, BOB, X_LINE)])
    alice = await records.stats(ALICE, GUILD)
    assert (alice.rating, alice.vs_people, alice.vs_bot) == (None, Tally(), {})
    assert only(alice).vs_people == Tally(wins=1)
    assert only(alice).rating.value > 1500 > only(await records.stats(BOB, GUILD)).rating.value
    assert (await records.rating_board(GUILD, 0, 10)).total == 0  # classic's: nobody yet

    await records.record([record(2, BOB, ALICE, X_WINS)])
    alice = await records.stats(ALICE, GUILD)
    bob = await records.stats(BOB, GUILD)
    assert alice.rating.value < 1500 < bob.rating.value
    assert (alice.rank, bob.rank) == (2, 1)
    assert only(alice).rating.value > 1500 > only(bob).rating.value
    assert (only(alice).rank, only(bob).rank) == (1, 2)
    assert (only(alice).rating.games, alice.rating.games) == (1, 1)
    assert alice.vs_people == Tally(losses=1)
    assert only(alice).vs_people == Tally(wins=1)

    classic = await records.rating_board(GUILD, 0, 10)
    ultimate_board = await records.rating_board(GUILD, 0, 10, kind="ultimate")
    assert [row.user_id for row in classic.rows] == [BOB, ALICE]
    assert [row.user_id for row in ultimate_board.rows] == [ALICE, BOB]
    assert ultimate_board.rows[0].rating == only(alice).rating


async def test_ultimate_games_against_the_bot_count_in_their_own_tallies(records):
    await records.record(
        [
            ultimate_record(1, ALICE, AI, X_LINE, level="hard"),
            ultimate_record(2, AI, ALICE, X_LINE, level="impossible"),
            ultimate_record(3, ALICE, AI, FULL, level="impossible"),
        ]
    )
    alice = await records.stats(ALICE, None)
    assert alice.vs_bot == {}
    assert only(alice).vs_bot == {
        "hard": Tally(wins=1),
        "impossible": Tally(draws=1, losses=1),
    }
    assert (only(alice).current_streak, only(alice).best_streak) == (0, 1)
    assert only(alice).rating is None  # games against the bot are not rated, as in classic
    # The bot board stays classic's.
    assert (await records.bot_board(None, 0, 10)).total == 0
    assert (await records.rating_board(None, 0, 10, kind="ultimate")).total == 0


async def test_a_player_without_ultimate_games_has_no_ultimate_stats(records):
    await records.record([record(1, ALICE, BOB, X_WINS), ultimate_record(2, BOB, CAROL, X_LINE)])
    assert (await records.stats(ALICE, GUILD)).variants == ()
    assert only(await records.stats(BOB, GUILD)).vs_people == Tally(wins=1)
    assert (await records.stats(DAVE, GUILD)).variants == ()


async def test_recording_an_ultimate_game_again_changes_nothing(records):
    batch = [ultimate_record(1, ALICE, BOB, X_LINE), ultimate_record(2, ALICE, AI, FULL)]
    assert await records.record(batch) == 2
    before = await records.stats(ALICE, GUILD)
    assert await records.record(batch) == 0
    assert await records.record([batch[1], batch[1], ultimate_record(3, BOB, ALICE, X_LINE)]) == 1
    after = await records.stats(ALICE, GUILD)
    assert only(after).vs_people == Tally(wins=1, losses=1)
    assert only(after).vs_bot == only(before).vs_bot == {"impossible": Tally(draws=1)}
    assert only(after).rating.games == 2
    assert (await records.rating_board(GUILD, 0, 10, kind="ultimate")).total == 2


async def test_an_abandoned_ultimate_game_counts_for_nobody(records):
    abandoned = ultimate_record(1, ALICE, BOB, X_LINE[:1], ending=Ending.EXPIRED)
    assert await records.record([abandoned]) == 1
    assert await records.game(abandoned.game_id) == abandoned
    assert (await records.stats(ALICE, GUILD)).variants == ()


async def test_two_processes_recording_overlapping_ultimate_batches_count_each_game_once(
    database_url,
):
    first, second = await open_records(database_url), await open_records(database_url)
    players = [ALICE, BOB, CAROL]
    outcomes = (X_LINE, O_LINE, FULL)
    games = [
        (ultimate_record if n % 2 else record)(
            n,
            players[n % 3],
            players[(n + 1) % 3],
            (outcomes if n % 2 else (X_WINS, O_WINS, X_WINS))[n % 3],
        )
        for n in range(60)
    ]
    try:
        written = await asyncio.gather(
            first.record(games[:40]),
            second.record(games[20:]),
            first.record(games[10:50]),
            second.record(games),
            first.record(games[::-1]),
        )
        assert sum(written) == 60
        for player in players:
            stats = await second.stats(player, GUILD)
            assert stats.rating is not None
            assert stats.rating.games == stats.vs_people.games == 20
            assert only(stats).rating.games == only(stats).vs_people.games == 20
        assert (await first.rating_board(GUILD, 0, 10, kind="ultimate")).total == 3
    finally:
        await first.close()
        await second.close()


async def test_forgetting_a_player_deletes_their_ultimate_numbers_too(records):
    await records.record(
        [
            ultimate_record(1, ALICE, BOB, X_LINE),
            ultimate_record(2, CAROL, ALICE, X_LINE, guild=OTHER_GUILD),
            ultimate_record(3, ALICE, AI, FULL),
            record(4, ALICE, BOB, X_WINS),
        ]
    )
    bob_before = await records.stats(BOB, GUILD)
    assert await records.forget(ALICE) == 4
    assert (await records.stats(ALICE, GUILD)).variants == ()
    bob = await records.stats(BOB, GUILD)
    assert (bob.vs_people, bob.rating) == (bob_before.vs_people, bob_before.rating)
    assert (only(bob).vs_people, only(bob).rating) == (
        only(bob_before).vs_people,
        only(bob_before).rating,
    )
    assert (only(bob_before).rank, only(bob).rank) == (2, 1)  # Alice is off the board
    totals = [
        (await records.rating_board(guild, 0, 10, kind="ultimate")).total
        for guild in (GUILD, OTHER_GUILD, None)
    ]
    assert totals == [1, 1, 2]
    assert (await records.game(game_id(1))).x_player is None
    # A game retried after forgetting does not bring the player back.
    assert await records.record([ultimate_record(3, ALICE, AI, FULL)]) == 0
    assert (await records.stats(ALICE, None)).variants == ()


# The two kinds apart: each kind's numbers are what its games alone would give


def mixed_games(count: int, seed: int) -> list[GameRecord]:
    """Random games of both kinds between four people and the bot, in two servers and DMs,
    with every way of ending."""
    rng = random.Random(seed)
    people = [ALICE, BOB, CAROL, DAVE]
    made = []
    for n in range(count):
        x, o = rng.sample([*people, AI], 2)
        level = rng.choice(("easy", "medium", "hard", "impossible")) if AI in (x, o) else None
        guild = rng.choice((GUILD, OTHER_GUILD, None))
        ending = rng.choice((None, None, None, Ending.X_RESIGNED, Ending.EXPIRED))
        if rng.random() < 0.5:
            moves = rng.choice((X_LINE, O_LINE, FULL))
            if ending is not None:
                moves = moves[: rng.randrange(0, 8)]
            made.append(ultimate_record(n, x, o, moves, level=level, ending=ending, guild=guild))
        else:
            moves = rng.choice((X_WINS, O_WINS, (0, 1, 2, 4, 3, 5, 7, 6, 8)))
            if ending is not None:
                moves = moves[: rng.randrange(0, 3)]
            made.append(record(n, x, o, moves, level=level, ending=ending, guild=guild))
    return made


def as_classic(game: GameRecord) -> GameRecord:
    """The same result as a classic game (what counting reads: players, level, winner, where,
    when)."""
    return replace(game, kind=CLASSIC, moves=None, board="-" * 9)


async def test_each_kind_counts_as_its_games_alone_would(records, tmp_path):
    games = mixed_games(80, seed=3)
    classic = [game for game in games if game.kind == CLASSIC]
    others = [as_classic(game) for game in games if game.kind != CLASSIC]
    for start in range(0, len(games), 13):  # in batches, as the writer sends them
        await records.record(games[start : start + 13])
    alone = {}
    for name, chosen in (("classic", classic), ("ultimate", others)):
        alone[name] = Storage(f"sqlite+aiosqlite:///{tmp_path / name}.db")
        await alone[name].record(chosen)
    try:
        for player in (ALICE, BOB, CAROL, DAVE):
            for guild in (GUILD, OTHER_GUILD, None):
                both = await records.stats(player, guild)
                classic_alone = await alone["classic"].stats(player, guild)
                ultimate_alone = await alone["ultimate"].stats(player, guild)
                assert replace(both, variants=(), recent=()) == replace(classic_alone, recent=())
                (variant,) = both.variants or (None,)
                if variant is None:
                    assert ultimate_alone.vs_people.games + len(ultimate_alone.vs_bot) == 0
                    continue
                assert variant.vs_people == ultimate_alone.vs_people
                assert variant.vs_bot == ultimate_alone.vs_bot
                assert (variant.current_streak, variant.best_streak) == (
                    ultimate_alone.current_streak,
                    ultimate_alone.best_streak,
                )
                assert variant.rating == ultimate_alone.rating
                assert variant.rank == ultimate_alone.rank
        for guild in (GUILD, OTHER_GUILD, None):
            assert await records.rating_board(guild, 0, 10) == await alone["classic"].rating_board(
                guild, 0, 10
            )
            assert await records.rating_board(guild, 0, 10, kind="ultimate") == await alone[
                "ultimate"
            ].rating_board(guild, 0, 10)
            assert await records.bot_board(guild, 0, 10) == await alone["classic"].bot_board(
                guild, 0, 10
            )
    finally:
        for storage in alone.values():
            await storage.close()


async def test_an_unknown_kind_has_no_board(records):
    with pytest.raises(ValueError, match="chess"):
        await records.rating_board(None, 0, 10, kind="chess")
