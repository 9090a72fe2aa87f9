"""Ultimate games in /stats and /leaderboard through SimCord, as the players see them: a
finished ultimate game announced by the game is recorded by the records' cog, and shown apart
from classic's (its own section of /stats, its own rating board)."""

from __future__ import annotations

import time

import pytest
from bot_helpers import buttons, click_label, command_mention, post_forged, text

from bot.core.finished import FinishedGame, Place
from bot.core.game import AI
from bot.core.ultimate_game import ULTIMATE
from bot.records.buttons import review_id
from tests.records.test_bot_records import beat, flush, labels, lose_to_the_bot
from tests.records.test_bot_records import simcord_bot as simcord_bot  # a fixture
from tests.records.test_bot_records import storage as storage  # a fixture
from tests.support.records import game_id
from tests.support.ultimate_records import DRAWN, played, playout

SECTION = "> **Ultimate Tic-Tac-Toe**"


def finish_ultimate(env, n: int, x: int, o: int, outcome: str, guild_id: int | None) -> int:
    """Announce a finished ultimate game as the game does (`game_finished`); its id."""
    level = "hard" if AI in (x, o) else None
    game = played(x, o, playout(outcome), level=level)
    place = Place.SERVER if guild_id is not None else Place.DM
    finished = FinishedGame(game_id(n), game, time.time(), guild_id, place, False, ULTIMATE)
    env.bot.dispatch("game_finished", finished)
    return finished.game_id


@pytest.mark.usefixtures("discord_rules")
async def test_ultimate_games_have_their_own_section_in_stats(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    await beat(channel, alice, bob)
    await flush(env)
    classic_only = text((await alice.slash(channel, "stats")).response.message)
    assert "Ultimate" not in classic_only  # nothing new for a player without ultimate games

    finish_ultimate(env, 1, bob.id, alice.id, "X", world.guild.id)
    finish_ultimate(env, 2, alice.id, AI, DRAWN, world.guild.id)
    await flush(env)
    result = await alice.slash(channel, "stats")
    shown = text(result.response.message)
    # Classic's lines as before the ultimate games, then Ultimate's, quoted under its name.
    assert classic_only.split("\n**Last games:**")[0] in shown
    section = shown.split(SECTION)[1].split("\n**Last games:**")[0]
    assert section.splitlines()[1:] == [
        "> **Rating:** 1,338 (provisional: a few more games settle it), #2 in this server",
        "> **Against people:** 0 wins · 0 draws · 1 loss",
        "> **Against me, Hard:** 0 wins · 1 draw · 0 losses",
        "> **Win streak:** 0 now, 0 at best.",
    ]
    assert "**Against people:** 1 win · 0 draws · 0 losses\n" in shown  # classic's, unchanged
    assert "1. 🤝 drew with me (Hard) (Ultimate) · <t:" in shown
    assert f"2. ❌ lost to {bob.mention} (Ultimate) · <t:" in shown
    assert f"3. 🏆 beat {bob.mention} · <t:" in shown
    # Only the classic game has a review.
    assert labels(result.response.message) == ["Review 3"]


@pytest.mark.usefixtures("discord_rules")
async def test_a_player_of_ultimate_games_only_sees_those(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    finish_ultimate(env, 1, alice.id, bob.id, "X", world.guild.id)
    await flush(env)
    shown = text((await world.carol.slash(channel, "stats", player=alice)).response.message)
    assert shown.splitlines()[1:] == [
        alice.mention,
        SECTION,
        "> **Rating:** 1,662 (provisional: a few more games settle it), #1 in this server",
        "> **Against people:** 1 win · 0 draws · 0 losses",
        "> **Win streak:** 1 now, 1 at best.",
    ]


@pytest.mark.usefixtures("discord_rules")
async def test_an_ultimate_game_is_not_reviewed_as_a_classic_board(world):
    env, channel, alice, bob = world.env, world.channel, world.alice, world.bob
    ultimate_id = finish_ultimate(env, 1, alice.id, bob.id, "O", world.guild.id)
    await flush(env)
    assert labels((await alice.slash(channel, "stats")).response.message) == []
    # No button for it; an old or forged one is answered in words.
    forged = await post_forged(env, channel, review_id(ultimate_id))
    result = await alice.click(forged, custom_id=review_id(ultimate_id))
    assert result.ephemeral
    assert result.response.content == "Ultimate games have no review here yet."


@pytest.mark.usefixtures("discord_rules")
async def test_the_leaderboard_shows_each_variants_ratings(world):
    env, channel, alice, bob, carol = world.env, world.channel, world.alice, world.bob, world.carol
    await beat(channel, alice, bob)  # classic: Alice above Bob
    finish_ultimate(env, 1, bob.id, carol.id, "X", world.guild.id)  # ultimate: Bob above Carol
    finish_ultimate(env, 2, 4242, 4343, "X", world.guild.id + 1)  # another server's
    await flush(env)

    classic = await alice.slash(channel, "leaderboard")
    shown = text(classic.response.message)
    assert shown.startswith("## 🏆 Leaderboard: ratings\nPlayers of this server\n")
    assert f"**1.** {alice.mention} · " in shown
    assert f"**2.** {bob.mention} · " in shown
    assert carol.mention not in shown
    assert labels(classic.response.message) == ["Ultimate", "Against me", "Puzzles"]

    chosen = await alice.slash(channel, "leaderboard", variant="ultimate")
    switched = await click_label(alice, classic.response.message, "Ultimate")
    for board in (chosen.response.message, switched.response.message):
        shown = text(board)
        assert shown.startswith("## 🏆 Leaderboard: Ultimate ratings\nPlayers of this server\n")
        assert f"**1.** {bob.mention} · 1,662 (provisional)\n" in shown
        assert f"**2.** {carol.mention} · 1,338 (provisional)\n" in shown
        assert alice.mention not in shown
        assert "<@4242>" not in shown
        assert labels(board) == ["Ratings", "Against me", "Puzzles"]
    back = await click_label(alice, chosen.response.message, "Ratings")
    assert text(back.response.message).startswith("## 🏆 Leaderboard: ratings\n")

    everyone = text(
        (await env.create_user("dana").slash("leaderboard", variant="ultimate")).response.message
    )
    assert "All players, everywhere" in everyone
    assert "<@4242>" in everyone


@pytest.mark.usefixtures("discord_rules")
async def test_an_empty_ultimate_board_says_how_to_get_on_it(world):
    env, channel, alice = world.env, world.channel, world.alice
    await lose_to_the_bot(channel, alice)
    await flush(env)
    board = (await alice.slash(channel, "leaderboard", variant="ultimate")).response.message
    assert (
        "Nobody has an Ultimate rating here yet: play someone at Ultimate with "
        f"{command_mention(env)}." in text(board)
    )
    assert [button.get("label") for button in buttons(board)] == [
        "Ratings",
        "Against me",
        "Puzzles",
    ]
