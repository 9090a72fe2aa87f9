"""Games recorded in batches of every size, on SQLite and PostgreSQL, show what the same games
played one after another show: each player's stats and rating, and every board (its rows and
its size) in every server and everyone's, against a brute force written here.

The writer sets only the columns a batch's games change, inserts a new player or membership
whole, and keeps each membership a copy of its player's row; a mistake in any of that shows as
a stat, a board row or a board size that differs from the brute force."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

import tictactoe as ttt
from bot.core import rating as glicko
from bot.core.game import AI, Ending
from bot.records.api import GameRecord, Rating, Tally
from bot.records.sql.storage import open_records
from tests.support.records import DRAW, O_WINS, X_WINS, record

PEOPLE = [100_000_000_000_000_100 + n for n in range(12)]
GUILDS = [900_000_000_000_000_100 + n for n in range(3)]
SHORT_DRAW = (4, 0, 8, 2, 1, 7, 6, 3, 5)  # a full board, nobody in a row


@pytest.fixture
async def records(database_url):
    storage = await open_records(database_url)
    yield storage
    await storage.close()


@dataclass
class Expected:
    """One player as the brute force sees them."""

    vs_bot: dict[str, list[int]] = field(default_factory=dict)  # level -> [w, d, l]
    vs_people: list[int] = field(default_factory=lambda: [0, 0, 0])
    streak: int = 0
    best_streak: int = 0
    unbeaten: int = 0
    best_unbeaten: int = 0
    wins_hard: int = 0
    bot_games: int = 0
    rating: Rating | None = None
    servers: set[int] = field(default_factory=set)

    def on_bot_board(self) -> bool:
        return self.bot_games > 0 and (self.best_unbeaten > 0 or self.wins_hard > 0)


def random_games(rng: random.Random, count: int) -> list[GameRecord]:
    """Games between people and against the bot at every level, in servers and DMs, some
    resigned, expired or abandoned; players (and servers) joining as the games go on."""
    games = []
    for n in range(1, count + 1):
        known = PEOPLE[: 3 + n * len(PEOPLE) // count]  # newcomers keep arriving
        first = rng.choice(known)
        guild = rng.choice([*GUILDS[: 1 + n * len(GUILDS) // count], None])
        moves = rng.choice([X_WINS, O_WINS, DRAW, SHORT_DRAW])
        ending = None
        if rng.random() < 0.2:  # resigned or expired, some before both sides moved
            moves, ending = moves[: rng.randrange(4)], rng.choice(list(Ending))
        if rng.random() < 0.5:
            x, o = (first, AI) if rng.random() < 0.5 else (AI, first)
            games.append(
                record(
                    n, x, o, moves, level=rng.choice(ttt.DIFFICULTIES), ending=ending, guild=guild
                )
            )
        else:
            second = rng.choice([person for person in known if person != first])
            games.append(record(n, first, second, moves, ending=ending, guild=guild))
    return games


def brute_force(games: list[GameRecord]) -> dict[int, Expected]:
    players: dict[int, Expected] = {}
    for game in sorted(games, key=lambda game: game.ended_at):
        if not game.counted:
            continue
        scores = {"X": 0.5, "O": 0.5} if game.winner is None else {game.winner: 1.0}
        sides = {"X": game.x_player, "O": game.o_player}
        for mark, person in sides.items():
            if person is None or person == AI:  # no one here has forgotten their data
                continue
            score = scores.get(mark, 0.0)
            player = players.setdefault(person, Expected())
            if game.guild_id is not None:
                player.servers.add(game.guild_id)
            column = {1.0: 0, 0.5: 1, 0.0: 2}[score]
            if AI in sides.values():
                assert game.level is not None
                player.vs_bot.setdefault(game.level, [0, 0, 0])[column] += 1
                player.bot_games += 1
                player.wins_hard += game.level == "hard" and score == 1.0
                if game.level == "impossible":
                    player.unbeaten = 0 if score == 0.0 else player.unbeaten + 1
                    player.best_unbeaten = max(player.best_unbeaten, player.unbeaten)
            else:
                player.vs_people[column] += 1
            player.streak = player.streak + 1 if score == 1.0 else 0
            player.best_streak = max(player.best_streak, player.streak)
        if AI not in sides.values():
            assert game.x_player is not None
            assert game.o_player is not None
            x, o = players[game.x_player], players[game.o_player]
            x.rating, o.rating = glicko.rate_game(
                x.rating or glicko.START, o.rating or glicko.START, scores.get("X", 0.0)
            )
    return players


def close(a: Rating | None, b: Rating | None) -> bool:
    if a is None or b is None:
        return a is b
    return (a.value, a.deviation, a.volatility, a.games) == pytest.approx(
        (b.value, b.deviation, b.volatility, b.games), rel=1e-9
    )


@pytest.mark.parametrize("seed", [1, 2])
async def test_games_recorded_in_batches_of_any_size_show_what_the_brute_force_says(records, seed):
    rng = random.Random(seed)
    games = random_games(rng, 240)
    start = 0
    while start < len(games):
        size = rng.choice([1, 1, 2, 5, 17, 40])
        batch = games[start : start + size]
        rng.shuffle(batch)  # a batch is applied in the order its games ended, whatever it is
        await records.record(batch)
        if rng.random() < 0.2:  # a batch written again (a retry, a replayed spool)
            assert await records.record(batch) == 0
        start += size
    expected = brute_force(games)

    for person, player in expected.items():
        stats = await records.stats(person, None)
        assert stats.vs_bot == {level: Tally(*wdl) for level, wdl in player.vs_bot.items()}
        assert stats.vs_people == Tally(*player.vs_people)
        assert (stats.current_streak, stats.best_streak) == (player.streak, player.best_streak)
        assert close(stats.rating, player.rating), person

    for guild in [*GUILDS, None]:
        members = {
            person: player
            for person, player in expected.items()
            if guild is None or guild in player.servers
        }
        rated = await records.rating_board(guild, 0, 50)
        assert rated.total == sum(player.rating is not None for player in members.values())
        assert len(rated.rows) == rated.total
        for row in rated.rows:
            assert close(row.rating, members[row.user_id].rating)
        vs_bot = await records.bot_board(guild, 0, 50)
        shown = {person: player for person, player in members.items() if player.on_bot_board()}
        assert vs_bot.total == len(shown)
        assert {
            (row.user_id, row.best_unbeaten_impossible, row.wins_hard, row.games)
            for row in vs_bot.rows
        } == {
            (person, player.best_unbeaten, player.wins_hard, player.bot_games)
            for person, player in shown.items()
        }
