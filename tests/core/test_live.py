"""The live-games store (bot/core/live.py): compare-and-set is the only way entries change,
and the deadlines come out in order, once, whatever moved them."""

from bot.core.live import GameStore, Live


def live(key: str, deadline: float, message_id: int | None = 1) -> Live:
    return Live(
        message_id=message_id,
        key=key,
        unsure_of=None,
        token="token",
        deadline=deadline,
        guild_id=None,
    )


def test_compare_and_set_claims_a_free_channel_once():
    store = GameStore()
    first, second = live("a", 10), live("b", 10)
    assert store.compare_and_set(5, None, first)
    assert not store.compare_and_set(5, None, second)  # taken: the second claim loses
    assert store.get(5) == first
    assert not store.compare_and_set(5, second, None)  # not what is there
    assert store.compare_and_set(5, first, None)
    assert store.get(5) is None
    assert len(store) == 0


def test_the_ended_message_is_remembered_until_reopened():
    store = GameStore()
    store.compare_and_set(5, None, live("a", 10, message_id=77))
    store.compare_and_set(5, store.get(5), None)
    assert store.has_ended(5, 77)
    assert not store.end_unclaimed(5, 77)  # ended already: announced once
    store.reopen(5, 77)
    assert not store.has_ended(5, 77)
    assert store.end_unclaimed(5, 77)


def test_lapsed_entries_come_out_by_deadline_and_moved_deadlines_wait():
    store = GameStore()
    for channel, deadline in ((1, 30.0), (2, 10.0), (3, 20.0)):
        store.compare_and_set(channel, None, live(str(channel), deadline))
    later = live("3b", 40.0)
    store.compare_and_set(3, store.get(3), later)  # activity moved channel 3's deadline
    assert store.next_deadline() == 10.0
    assert [channel for channel, _ in store.pop_lapsed(25.0)] == [2]
    assert [channel for channel, _ in store.pop_lapsed(35.0)] == [1]
    assert store.pop_lapsed(39.0) == []
    assert store.pop_lapsed(40.0) == [(3, later)]
    assert len(store) == 0
    assert store.next_deadline() is None
