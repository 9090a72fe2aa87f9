"""A server's settings at play (the values /settings stores; here put straight into the memory
that clicks read): several games per channel, one per player, the default level, the turn
timeout, the challenge cooldown, and DMs keeping the defaults."""

import pytest
from bot_helpers import (
    GAME_TIMEOUT,
    board_of,
    busy,
    buttons,
    cell_buttons,
    click_cell,
    click_label,
    deadline,
    heading,
    is_over,
    message_by_id,
    playing_here,
    resign,
    status,
)

import tictactoe as ttt
from bot.app import TicTacToeBot
from bot.core.server import Mark, ServerSettings
from bot.game.cog import TicTacToeCog
from tests.support.moves import first_empty

pytestmark = pytest.mark.usefixtures("discord_rules")


def configure(world, **values) -> None:
    bot = world.env.bot
    assert isinstance(bot, TicTacToeBot)
    bot.server_settings.put(world.guild.id, ServerSettings(**values))


def game_cog(world) -> TicTacToeCog:
    cog = world.env.bot.get_cog("TicTacToe")
    assert isinstance(cog, TicTacToeCog)
    return cog


def full(count: int, url: str) -> str:
    games = "game" if count == 1 else "games"
    return (
        f"This channel is full: it has {count} {games} on, as many as this server allows. "
        f"[See one]({url})."
    )


def opponent_playing(url: str) -> str:
    return (
        f"They already have a game on in this channel: [see it here]({url}). Challenge them later."
    )


async def start(actor, channel, **options):
    result = await actor.slash(channel, "tictactoe", **options)
    assert not result.ephemeral, result.response.content
    return channel.last_message


async def refused(actor, channel, **options) -> str:
    before = channel.last_message.id if channel.last_message else None
    result = await actor.slash(channel, "tictactoe", **options)
    assert result.ephemeral
    assert (channel.last_message.id if channel.last_message else None) == before
    return result.response.content


async def test_three_games_in_one_channel_play_interleaved_to_the_end(world):
    channel, alice, bob, carol = world.channel, world.alice, world.bob, world.carol
    configure(world, games_per_channel=3)
    alices = await start(alice, channel, difficulty="easy")
    bobs = await start(bob, channel, play_as="O", difficulty="medium")
    dan = world.guild.add_member(world.env.create_user("dan"))
    challenge = await start(carol, channel, opponent=dan)
    await click_label(dan, challenge, "Accept")
    friends = message_by_id(channel, challenge.id)
    assert game_cog(world).table.store.count(channel.id) == 3
    boards = {alices.id: alice, bobs.id: bob, friends.id: None}
    rounds = 0
    while not all(is_over(message_by_id(channel, board_id)) for board_id in boards):
        rounds += 1
        assert rounds < 20
        for board_id, player in boards.items():  # one move on each board in turn
            message = message_by_id(channel, board_id)
            if is_over(message):
                continue
            if player is None:  # the friends' game: whoever's turn it is
                x_to_move = sum(m is not None for row in board_of(message) for m in row) % 2 == 0
                player = carol if x_to_move else dan
            before = board_of(message)
            result = await click_cell(player, message, first_empty(board_of(message)))
            assert not result.ephemeral, result.response.content
            after = board_of(message_by_id(channel, board_id))
            assert after != before  # each click moved its own board and no other
    assert game_cog(world).table.store.count(channel.id) == 0
    assert len({alices.id, bobs.id, friends.id}) == 3


async def test_a_full_channel_refuses_the_next_game_and_links_a_live_board(world):
    channel, alice, bob, carol = world.channel, world.alice, world.bob, world.carol
    configure(world, games_per_channel=2)
    first = await start(alice, channel)
    await start(bob, channel)
    assert await refused(carol, channel) == full(2, first.jump_url)
    await resign(alice, first)  # a board frees: the channel has room again
    await start(carol, channel)
    assert refusals(world) == {"full": 1}


def refusals(world) -> dict[str, float]:
    """tictactoe_starts_refused by reason, as /metrics shows it (zeros left out)."""
    (family,) = [m for m in world.env.bot.metrics.registry.collect() if m.name.endswith("refused")]
    return {
        sample.labels["reason"]: sample.value
        for sample in family.samples
        if sample.name.endswith("_total") and sample.value
    }


async def test_with_one_game_per_channel_the_refusal_reads_as_always(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    first = await start(alice, channel)
    assert await refused(bob, channel) == busy(first.jump_url)


async def test_a_player_has_one_game_per_channel_and_is_told_where_it_is(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    configure(world, games_per_channel=5)
    mine = await start(alice, channel)
    assert await refused(alice, channel) == playing_here(mine.jump_url)
    assert await refused(alice, channel, opponent=bob) == playing_here(mine.jump_url)
    assert await refused(bob, channel, opponent=alice) == opponent_playing(mine.jump_url)
    assert refusals(world) == {"playing_here": 2, "opponent_playing": 1}
    other = world.guild.create_text_channel("more-games")
    await start(alice, other)  # another channel is another room


async def test_the_servers_level_is_the_default_and_a_chosen_level_wins(world):
    channel, alice, bob = world.channel, world.alice, world.bob
    configure(world, difficulty=ttt.EASY, games_per_channel=2)
    default = await start(alice, channel)
    assert "Difficulty: Easy" in heading(default)
    chosen = await start(bob, channel, difficulty="hard")
    assert "Difficulty: Hard" in heading(chosen)


async def test_a_30_second_turn_timeout_and_running_games_keep_theirs(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    configure(world, games_per_channel=2)
    before = await start(alice, channel)  # started under the bot's timeout
    configure(world, games_per_channel=2, turn_timeout=30)
    quick = await start(bob, channel)
    assert status(quick).endswith(f"Time runs out <t:{deadline(env, 30)}:R>.")
    await click_cell(bob, quick, first_empty(board_of(quick)))
    quick_after = message_by_id(channel, quick.id)
    assert status(quick_after).endswith(f"Time runs out <t:{deadline(env, 30)}:R>.")
    await env.advance_time(30)
    assert is_over(message_by_id(channel, quick.id))
    assert "ran out of time" in status(message_by_id(channel, quick.id))
    assert not is_over(message_by_id(channel, before.id))
    await env.advance_time(GAME_TIMEOUT - 30)
    assert "ran out of time" in status(message_by_id(channel, before.id))


async def test_a_declined_or_lapsed_challenge_makes_the_challenger_wait(world):
    env, channel, alice, bob, carol = world.env, world.channel, world.alice, world.bob, world.carol
    configure(world, challenge_cooldown=60, games_per_channel=3)
    challenge = await start(alice, channel, opponent=bob)
    await click_label(bob, challenge, "Decline")
    waited = await refused(alice, channel, opponent=carol)
    assert waited == f"You can challenge someone again <t:{deadline(env, 60)}:R>."
    await start(alice, channel)  # a game against the bot is no challenge
    await resign(alice, channel.last_message)
    await env.advance_time(60)
    lapsing = await start(alice, channel, opponent=carol)
    await env.advance_time(60)  # carol never answers: the challenge lapses
    assert buttons(message_by_id(channel, lapsing.id)) == []
    assert await refused(alice, channel, opponent=bob) == (
        f"You can challenge someone again <t:{deadline(env, 60)}:R>."
    )
    await env.advance_time(60)
    await start(alice, channel, opponent=bob)


async def test_a_member_has_one_pending_challenge_per_server(world):
    channel, alice, bob, carol = world.channel, world.alice, world.bob, world.carol
    configure(world, games_per_channel=3)
    pending = await start(alice, channel, opponent=bob)
    elsewhere = world.guild.create_text_channel("more-games")
    assert await refused(alice, elsewhere, opponent=carol) == (
        f"Your challenge is still waiting for an answer: [see it here]({pending.jump_url}). "
        "One at a time."
    )
    await start(alice, elsewhere)  # a game against the bot is fine
    await click_label(bob, pending, "Accept")  # answered: no longer pending
    await start(carol, elsewhere, opponent=bob)


async def test_direct_messages_keep_the_defaults(world):
    configure(world, difficulty=ttt.EASY, turn_timeout=30)
    dana = world.env.create_user("dana")
    await dana.slash("tictactoe")
    board = dana.dm_channel.last_message
    assert "Difficulty: Impossible" in heading(board)
    assert status(board).endswith(f"Time runs out <t:{deadline(world.env)}:R>.")


async def test_a_rematch_needs_room_in_the_channel_and_plays_on_its_own_board(world):
    channel, alice, bob, carol = world.channel, world.alice, world.bob, world.carol
    configure(world, games_per_channel=2)
    alices = await start(alice, channel)
    bobs = await start(bob, channel)
    await resign(alice, alices)
    await start(carol, channel)  # takes the free place
    result = await click_label(alice, message_by_id(channel, alices.id), "Rematch")
    assert result.ephemeral
    assert result.response.content == full(2, bobs.jump_url)
    await resign(carol, channel.last_message)
    result = await click_label(alice, message_by_id(channel, alices.id), "Rematch")
    assert not result.ephemeral, result.response.content
    rematch = channel.last_message
    assert rematch.id not in (alices.id, bobs.id)
    assert not is_over(rematch)
    assert not is_over(message_by_id(channel, bobs.id))  # the other board is untouched
    assert game_cog(world).table.store.count(channel.id) == 2


async def test_custom_emoji_marks_and_a_deleted_one_falls_back_to_the_letter(world):
    env, channel, alice = world.env, world.channel, world.alice
    cat = world.guild.create_emoji("cat")
    configure(world, x_emoji=Mark("cat", cat.id), o_emoji=Mark("⭕"))
    board = await start(alice, channel, difficulty="easy")
    await click_cell(alice, board, (1, 1))
    shown = cell_buttons(message_by_id(channel, board.id))
    assert shown[4].get("emoji") is not None
    assert int(shown[4]["emoji"]["id"]) == cat.id
    assert [b["emoji"]["name"] for b in shown if b.get("emoji") and not b["emoji"].get("id")] == [
        "⭕"
    ]
    env.backend.delete_emoji(world.guild.id, cat.id)
    free = next(
        i for i, b in enumerate(shown) if b.get("emoji") is None and b["label"] not in ("X", "O")
    )
    await click_cell(alice, message_by_id(channel, board.id), divmod(free, 3))
    after = cell_buttons(message_by_id(channel, board.id))
    x_cells = [b for b in after if b.get("label") == "X"]
    assert len(x_cells) == 2  # both X marks back to the letter
    assert all(b.get("emoji") is None for b in x_cells)
    assert sum(b.get("emoji") is not None and b["emoji"]["name"] == "⭕" for b in after) == 2
