"""What each counted game changes in its players' aggregates: tallies, streaks, the bot
board's numbers and Glicko-2 ratings, on plain dicts shaped like `players` rows (no I/O),
so that the storage (one batch at a time) and the benchmark's seeding (a million games at once)
count alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.records import rating as glicko
from bot.records.api import BOT_PLAYER, GameRecord, Rating
from bot.records.sql.schema import players

PLAYER_COLUMNS = tuple(column.name for column in players.c if column.name != "user_id")
MEMBER_COLUMNS = ("rating", "best_unbeaten_impossible", "wins_hard", "bot_games")
# What a game changes in its players' rows: one between people, or one against the bot. A write
# sets only these (SQLite then leaves the other board's index alone: a fifth cheaper a row).
BETWEEN_PEOPLE = frozenset(
    {"rating", "deviation", "volatility", "rated_games", "streak", "best_streak"}
    | {"people_wins", "people_draws", "people_losses"}
)
AGAINST_THE_BOT = frozenset(
    {"streak", "best_streak", "unbeaten_impossible", "best_unbeaten_impossible"}
    | {"wins_hard", "bot_games"}
)

_TALLY_INDEX = {1: 0, 0: 1, -1: 2}  # wins, draws, losses


def _outcome(game: GameRecord, mark: str) -> int:
    """1 a win, 0 a draw, -1 a loss, for the side playing `mark`."""
    if game.winner is None:
        return 0
    return 1 if game.winner == mark else -1


def columns_changed_by(game: GameRecord) -> frozenset[str]:
    """The players columns that counting `game` may change."""
    return AGAINST_THE_BOT if BOT_PLAYER in (game.x_player, game.o_player) else BETWEEN_PEOPLE


def count_game(
    game: GameRecord,
    states: dict[int, dict[str, Any]],
    tallies: dict[tuple[int, str], list[int]],
) -> None:
    """Apply one counted game to `states` (by user id, every person in it present) and
    `tallies` ((user id, level) -> [wins, draws, losses] to add)."""
    sides = [(game.x_player, "X"), (game.o_player, "O")]
    if BOT_PLAYER in (game.x_player, game.o_player):
        for player, mark in sides:
            if player is None or player == BOT_PLAYER:
                continue
            outcome = _outcome(game, mark)
            state = states[player]
            level = game.level or "unknown"
            tallies.setdefault((player, level), [0, 0, 0])[_TALLY_INDEX[outcome]] += 1
            state["bot_games"] += 1
            if level == "hard" and outcome == 1:
                state["wins_hard"] += 1
            if level == "impossible":
                run = 0 if outcome == -1 else state["unbeaten_impossible"] + 1
                state["unbeaten_impossible"] = run
                state["best_unbeaten_impossible"] = max(run, state["best_unbeaten_impossible"])
            _streak(state, outcome)
        return
    for player, mark in sides:
        if player is None:
            continue
        outcome = _outcome(game, mark)
        state = states[player]
        column = {1: "people_wins", 0: "people_draws", -1: "people_losses"}[outcome]
        state[column] += 1
        _streak(state, outcome)
    if game.x_player is None or game.o_player is None:
        return
    x_state, o_state = states[game.x_player], states[game.o_player]
    x_rating, o_rating = glicko.rate_game(
        rating_of(x_state) or glicko.START,
        rating_of(o_state) or glicko.START,
        (_outcome(game, "X") + 1) / 2,
    )
    set_rating(x_state, x_rating)
    set_rating(o_state, o_rating)


def _streak(state: dict[str, Any], outcome: int) -> None:
    state["streak"] = state["streak"] + 1 if outcome == 1 else 0
    state["best_streak"] = max(state["streak"], state["best_streak"])


def rating_of(state: Mapping[Any, Any]) -> Rating | None:
    if state["rating"] is None:
        return None
    return Rating(state["rating"], state["deviation"], state["volatility"], state["rated_games"])


def set_rating(state: dict[str, Any], rating: Rating) -> None:
    state["rating"] = rating.value
    state["deviation"] = rating.deviation
    state["volatility"] = rating.volatility
    state["rated_games"] = rating.games
