"""What each counted game changes in its players' aggregates: tallies, streaks, the bot
board's numbers and Glicko-2 ratings, on plain dicts shaped like `players` rows (no I/O),
so that the storage (one batch at a time) and the benchmark's seeding (a million games at once)
count alike."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core import rating as glicko
from bot.core.game import AI
from bot.records.api import GameRecord, Rating
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
_PEOPLE_TALLY = {1: "people_wins", 0: "people_draws", -1: "people_losses"}
_START_NUMBERS = (glicko.START.value, glicko.START.deviation, glicko.START.volatility)


def _outcome(game: GameRecord, mark: str) -> int:
    """1 a win, 0 a draw, -1 a loss, for the side playing `mark`."""
    if game.winner is None:
        return 0
    return 1 if game.winner == mark else -1


def columns_changed_by(game: GameRecord) -> frozenset[str]:
    """The players columns that counting `game` may change."""
    return AGAINST_THE_BOT if AI in (game.x_player, game.o_player) else BETWEEN_PEOPLE


def count_game(
    game: GameRecord,
    states: dict[int, dict[str, Any]],
    tallies: dict[tuple[int, str], list[int]],
    *,
    bot_board: bool = True,
) -> None:
    """Apply one counted game to `states` (by user id, every person in it present) and
    `tallies` ((user id, level) -> [wins, draws, losses] to add). Without `bot_board` (another
    kind's rows, bot/records/sql/variants.py), the bot board's numbers are left out."""
    sides = [(game.x_player, "X"), (game.o_player, "O")]
    if AI in (game.x_player, game.o_player):
        for player, mark in sides:
            if player is None or player == AI:
                continue
            outcome = _outcome(game, mark)
            state = states[player]
            level = game.level or "unknown"
            tallies.setdefault((player, level), [0, 0, 0])[_TALLY_INDEX[outcome]] += 1
            state["bot_games"] += 1
            if bot_board:
                _count_for_bot_board(state, level, outcome)
            _streak(state, outcome)
        return
    for player, mark in sides:
        if player is None:
            continue
        outcome = _outcome(game, mark)
        state = states[player]
        state[_PEOPLE_TALLY[outcome]] += 1
        _streak(state, outcome)
    if game.x_player is None or game.o_player is None:
        return
    x_state, o_state = states[game.x_player], states[game.o_player]
    x_value, x_deviation, x_volatility = _rating_numbers(x_state)
    o_value, o_deviation, o_volatility = _rating_numbers(o_state)
    x_score = (_outcome(game, "X") + 1) / 2
    _set_numbers(
        x_state,
        glicko.rate_one(x_value, x_deviation, x_volatility, o_value, o_deviation, x_score),
    )
    _set_numbers(
        o_state,
        glicko.rate_one(o_value, o_deviation, o_volatility, x_value, x_deviation, 1.0 - x_score),
    )


def _count_for_bot_board(state: dict[str, Any], level: str, outcome: int) -> None:
    if level == "hard" and outcome == 1:
        state["wins_hard"] += 1
    if level == "impossible":
        run = 0 if outcome == -1 else state["unbeaten_impossible"] + 1
        state["unbeaten_impossible"] = run
        state["best_unbeaten_impossible"] = max(run, state["best_unbeaten_impossible"])


def _rating_numbers(state: dict[str, Any]) -> tuple[float, float, float]:
    """A player's (value, deviation, volatility), a new player's where they have none yet."""
    if state["rating"] is None:
        return _START_NUMBERS
    return state["rating"], state["deviation"], state["volatility"]


def _set_numbers(state: dict[str, Any], numbers: tuple[float, float, float]) -> None:
    state["rating"], state["deviation"], state["volatility"] = numbers
    state["rated_games"] += 1


def _streak(state: dict[str, Any], outcome: int) -> None:
    state["streak"] = state["streak"] + 1 if outcome == 1 else 0
    state["best_streak"] = max(state["streak"], state["best_streak"])


def rating_of(state: Mapping[Any, Any]) -> Rating | None:
    if state["rating"] is None:
        return None
    return Rating(state["rating"], state["deviation"], state["volatility"], state["rated_games"])
