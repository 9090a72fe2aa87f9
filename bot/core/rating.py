"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), pure.

Only games between people are rated; games against the bot are not. The bot's levels are not
opponents with a skill to estimate: Impossible never loses, so a win against it cannot happen and
its "rating" is unbounded; a fixed number picked for it would only ever take points from people
and make ratings depend on how many bot games someone plays. The bot board (longest unbeaten run
against Impossible, wins against Hard) measures those games instead.

As on lichess, every game is its own rating period, and deviations stay between
MIN_DEVIATION and MAX_DEVIATION. There is no time decay between games: a player's deviation
only changes when they play. Puzzles have a rating of their own (`rate_attempt`): each attempt is
a game between the player and the puzzle, and the puzzle is rated too, as on lichess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's conversion between its internal scale and the familiar one


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (1500 for a new player)."""

    value: float
    deviation: float
    volatility: float
    games: int  # rated games played

    @property
    def provisional(self) -> bool:
        # As lichess: a deviation this wide means too few recent games to trust the number.
        return self.deviation > PROVISIONAL_DEVIATION


PROVISIONAL_DEVIATION = 110.0


START = Rating(value=1500.0, deviation=350.0, volatility=0.06, games=0)
TAU = 0.75  # how fast volatility may change; lichess's choice (Glickman suggests 0.3-1.2)
MIN_DEVIATION = 45.0  # so that settled ratings can still move (lichess: 45)
MAX_DEVIATION = 350.0
_EPSILON = 1e-6  # the volatility iteration's convergence tolerance


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """`player` after one rating period of `results`: (opponent, score) with score 1 for a win,
    0.5 for a draw, 0 for a loss, opponents as they were before the period."""
    if not results:
        return player
    mu = (player.value - 1500.0) / SCALE
    # Sums of each opponent's impact, added up in order.
    information = 0.0  # 1 / the variance of the rating from the results alone
    improvement = 0.0
    for opponent, score in results:
        g_j, expected = _impact(mu, opponent.value, opponent.deviation)
        information += g_j * g_j * expected * (1.0 - expected)
        improvement += g_j * (score - expected)
    value, deviation, volatility = _after(
        mu, player.deviation / SCALE, player.volatility, information, improvement, tau
    )
    return Rating(value, deviation, volatility, player.games + len(results))


def rate_one(
    value: float,
    deviation: float,
    volatility: float,
    opponent_value: float,
    opponent_deviation: float,
    score: float,
) -> tuple[float, float, float]:
    """(value, deviation, volatility) after one game against one opponent: `rate` with one
    result, bit for bit, on plain numbers (the records writer rates every game between people
    this way, without building a Rating for each side)."""
    mu = (value - 1500.0) / SCALE
    g_j, expected = _impact(mu, opponent_value, opponent_deviation)
    return _after(
        mu,
        deviation / SCALE,
        volatility,
        g_j * g_j * expected * (1.0 - expected),
        g_j * (score - expected),
        TAU,
    )


def rate_game(x: Rating, o: Rating, x_score: float) -> tuple[Rating, Rating]:
    """Both players after one game between them (its own rating period)."""
    x_after = rate_one(x.value, x.deviation, x.volatility, o.value, o.deviation, x_score)
    o_after = rate_one(o.value, o.deviation, o.volatility, x.value, x.deviation, 1.0 - x_score)
    return Rating(*x_after, x.games + 1), Rating(*o_after, o.games + 1)


def _impact(mu: float, opponent_value: float, opponent_deviation: float) -> tuple[float, float]:
    """An opponent's g (how much their deviation dulls the result) and the expected score."""
    phi_j = opponent_deviation / SCALE
    g_j = 1.0 / math.sqrt(1.0 + 3.0 * phi_j * phi_j / (math.pi * math.pi))
    return g_j, 1.0 / (1.0 + math.exp(-g_j * (mu - (opponent_value - 1500.0) / SCALE)))


def _after(
    mu: float, phi: float, sigma: float, information: float, improvement: float, tau: float
) -> tuple[float, float, float]:
    """Steps 3-8 of the paper: the new (value, deviation, volatility) on the familiar scale."""
    variance = 1.0 / information
    delta = variance * improvement
    sigma = _new_volatility(phi, sigma, variance, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    mu = mu + phi * phi * improvement
    deviation = min(max(phi * SCALE, MIN_DEVIATION), MAX_DEVIATION)
    return 1500.0 + mu * SCALE, deviation, sigma


# A puzzle's first rating is the engine's estimate (tictactoe.puzzles), trusted more than a new
# player's: lichess starts its puzzles with a narrower deviation too.
PUZZLE_START_DEVIATION = 200.0


def puzzle_start(initial: float) -> Rating:
    """A puzzle's rating before anyone tried it."""
    return Rating(float(initial), PUZZLE_START_DEVIATION, START.volatility, 0)


def rate_attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player and the puzzle after one attempt: a game the player wins by solving it."""
    return rate_game(player, puzzle, 1.0 if solved else 0.0)


def _new_volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0, x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi
    # f's constant parts, worked out once (the same operations in the same order as the
    # paper's formula: the same numbers to the last bit).
    surplus, spread, tau2 = delta2 - phi2 - variance, phi2 + variance, tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (surplus - ex)) / (2.0 * (spread + ex) ** 2) - (x - a) / tau2

    side_a, f_a = a, f(a)
    if delta2 > spread:
        side_b = math.log(surplus)
        f_b = f(side_b)
    else:
        k = 1
        while (f_b := f(a - k * tau)) < 0:
            k += 1
        side_b = a - k * tau
    while abs(side_b - side_a) > _EPSILON:
        c = side_a + (side_a - side_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            side_a, f_a = side_b, f_b
        else:
            f_a /= 2.0
        side_b, f_b = c, f_c
    return math.exp(side_a / 2.0)
