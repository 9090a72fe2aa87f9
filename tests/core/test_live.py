"""The live-games store (bot/core/live.py): compare-and-set is the only way entries change, a
channel holds several boards and a player one, and the deadlines come out in order, once,
whatever moved them."""

import itertools
import random

from bot.core.game import AI
from bot.core.live import Cooldowns, GameStore, Live, Seat, seat_of

CHANNEL = 5
ALICE, BOB, CAROL, DAN = 11, 22, 33, 44


def live(key: str, deadline: float, message_id: int | None = 1, **fields) -> Live:
    return Live(
        message_id=message_id,
        key=key,
        unsure_of=None,
        token="token",
        deadline=deadline,
        guild_id=fields.pop("guild_id", None),
        **fields,
    )


def test_a_board_is_named_by_its_scope_and_its_two_players_in_either_order():
    assert seat_of(CHANNEL, (BOB, ALICE)) == seat_of(CHANNEL, (ALICE, BOB)) == (5, 11, 22)
    assert seat_of(CHANNEL, (ALICE, AI)) == (5, AI, ALICE)
    assert seat_of(-ALICE, (ALICE, AI)) != seat_of(CHANNEL, (ALICE, AI))


def test_compare_and_set_claims_a_free_board_once():
    store = GameStore()
    board = seat_of(CHANNEL, (ALICE, BOB))
    first, second = live("a", 10), live("b", 10)
    assert store.compare_and_set(board, None, first)
    assert not store.compare_and_set(board, None, second)  # taken: the second claim loses
    assert store.get(board) == first
    assert not store.compare_and_set(board, second, None)  # not what is there
    assert store.compare_and_set(board, first, None)
    assert store.get(board) is None
    assert len(store) == 0


def test_a_channel_holds_several_boards_and_knows_each_players_one():
    store = GameStore()
    ab, cd, dan_vs_bot = (
        seat_of(CHANNEL, (ALICE, BOB)),
        seat_of(CHANNEL, (CAROL, AI)),
        seat_of(7, (DAN, AI)),
    )
    entries = {ab: live("ab", 10, 100), cd: live("c", 10, 200), dan_vs_bot: live("d", 10, 300)}
    for board, entry in entries.items():
        assert store.compare_and_set(board, None, entry)
    assert store.count(CHANNEL) == 2
    assert store.count(7) == 1
    assert store.count(8) == 0
    assert store.seat_of_player(CHANNEL, ALICE) == store.seat_of_player(CHANNEL, BOB) == ab
    assert store.seat_of_player(CHANNEL, CAROL) == cd
    assert store.seat_of_player(CHANNEL, AI) is None  # the bot plays everywhere at once
    assert store.seat_of_player(CHANNEL, DAN) is None
    assert store.any_in(CHANNEL) == entries[ab]  # the oldest
    assert store.compare_and_set(ab, entries[ab], None)
    assert store.seat_of_player(CHANNEL, ALICE) is None
    assert store.count(CHANNEL) == 1
    assert store.any_in(CHANNEL) == entries[cd]
    store.clear()
    assert store.count(CHANNEL) == 0
    assert store.seat_of_player(CHANNEL, CAROL) is None


def test_a_pending_challenge_is_known_per_server_until_it_becomes_a_game():
    store = GameStore()
    board = seat_of(CHANNEL, (ALICE, BOB))
    challenge = live("challenge", 10, 100, guild_id=1, challenger=ALICE)
    store.compare_and_set(board, None, challenge)
    assert store.challenge_of(1, ALICE) == board
    assert store.challenge_of(1, BOB) is None
    assert store.challenge_of(2, ALICE) is None
    game = challenge._replace(key="game", challenger=0)  # accepted
    assert store.compare_and_set(board, challenge, game)
    assert store.challenge_of(1, ALICE) is None
    assert store.seat_of_player(CHANNEL, ALICE) == board


def test_the_indexes_always_agree_with_the_entries():
    """Random claims, moves and frees against a brute-force recount of the entries."""
    rng = random.Random(7)
    store = GameStore()
    people = (AI, ALICE, BOB, CAROL, DAN)
    held: dict[Seat, Live] = {}
    for step in range(3000):
        scope = rng.choice((1, 2, -ALICE))
        players = tuple(rng.sample(people, 2))
        board = seat_of(scope, players)  # type: ignore[arg-type]
        current = held.get(board)
        if current is not None and rng.random() < 0.5:
            assert store.compare_and_set(board, current, None)
            del held[board]
        else:
            challenger = players[0] if AI not in players and rng.random() < 0.5 else 0
            guild = scope % 2
            if (
                current is None
                and any(  # what refuse_start refuses: one board per player
                    b[0] == scope and set(b[1:]) & set(players) - {AI} for b in held
                )
            ):
                continue
            if challenger and any(
                e.challenger == challenger and e.guild_id == guild
                for b, e in held.items()
                if b != board
            ):
                continue  # and one pending challenge per challenger and server
            new = live(str(step), float(step), step, guild_id=guild, challenger=challenger)
            assert store.compare_and_set(board, current, new)
            held[board] = new
        for scope_seen, person in itertools.product((1, 2, -ALICE), people[1:]):
            owners = [b for b in held if b[0] == scope_seen and person in b[1:]]
            assert store.seat_of_player(scope_seen, person) == (owners[0] if owners else None)
        for scope_seen in (1, 2, -ALICE):
            assert store.count(scope_seen) == sum(b[0] == scope_seen for b in held)
        for guild, person in itertools.product((0, 1), people[1:]):
            pending = [b for b, e in held.items() if e.challenger == person and e.guild_id == guild]
            assert store.challenge_of(guild, person) == (pending[0] if pending else None)
    assert len(store) == len(held)


def test_the_ended_message_is_remembered_until_reopened():
    store = GameStore()
    board = seat_of(CHANNEL, (ALICE, AI))
    store.compare_and_set(board, None, live("a", 10, message_id=77))
    store.compare_and_set(board, store.get(board), None)
    assert store.has_ended(board, 77)
    assert not store.end_unclaimed(board, 77)  # ended already: announced once
    store.reopen(board, 77)
    assert not store.has_ended(board, 77)
    assert store.end_unclaimed(board, 77)


def test_lapsed_entries_come_out_by_deadline_and_moved_deadlines_wait():
    store = GameStore()
    boards = {n: seat_of(n, (ALICE, AI)) for n in (1, 2, 3)}
    for channel, deadline in ((1, 30.0), (2, 10.0), (3, 20.0)):
        store.compare_and_set(boards[channel], None, live(str(channel), deadline))
    later = live("3b", 40.0)
    store.compare_and_set(boards[3], store.get(boards[3]), later)  # activity moved it
    assert store.next_deadline() == 10.0
    assert [board for board, _ in store.pop_lapsed(25.0)] == [boards[2]]
    assert [board for board, _ in store.pop_lapsed(35.0)] == [boards[1]]
    assert store.pop_lapsed(39.0) == []
    assert store.pop_lapsed(40.0) == [(boards[3], later)]
    assert len(store) == 0
    assert store.next_deadline() is None
    assert store.count(1) == store.count(2) == store.count(3) == 0


def test_a_cooldown_holds_until_its_end_in_its_server_only():
    cooldowns = Cooldowns()
    cooldowns.start(1, ALICE, until=130.0, now=100.0)
    assert cooldowns.until(1, ALICE, 129.9) == 130.0
    assert cooldowns.until(2, ALICE, 110.0) is None
    assert cooldowns.until(1, BOB, 110.0) is None
    assert cooldowns.until(1, ALICE, 130.0) is None
    assert len(cooldowns) == 0  # forgotten once passed
    cooldowns.start(1, ALICE, until=100.0, now=100.0)  # a cooldown of 0: off
    assert len(cooldowns) == 0


def test_memory_knows_which_seat_each_posted_message_shows():
    store = GameStore()
    seat = seat_of(CHANNEL, (ALICE, BOB))
    posting = Live(None, "k", None, "t", 10.0, 42)
    assert store.compare_and_set(seat, None, posting)
    assert store.seat_showing(77) is None  # not posted yet
    posted = posting._replace(message_id=77)
    assert store.compare_and_set(seat, posting, posted)
    assert store.seat_showing(77) == seat
    assert store.compare_and_set(seat, posted, None)  # the game ended
    assert store.seat_showing(77) is None
