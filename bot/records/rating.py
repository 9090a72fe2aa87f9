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

from bot.records.api import Rating

SCALE = 173.7178  # Glicko-2's conversion between its internal scale and the familiar one
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
    phi = player.deviation / SCALE
    sigma = player.volatility
    # Sums of each opponent's impact, added up in order (a loop, not lists: one opponent is
    # the common case, and this runs for every rated game).
    information = 0.0  # 1 / the variance of the rating from the results alone
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.value - 1500.0) / SCALE
        g_j = _g(opponent.deviation / SCALE)
        expected = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        information += g_j * g_j * expected * (1.0 - expected)
        improvement += g_j * (score - expected)
    variance = 1.0 / information
    delta = variance * improvement
    sigma = _new_volatility(phi, sigma, variance, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    mu = mu + phi * phi * improvement
    deviation = min(max(phi * SCALE, MIN_DEVIATION), MAX_DEVIATION)
    return Rating(1500.0 + mu * SCALE, deviation, sigma, player.games + len(results))


def rate_game(x: Rating, o: Rating, x_score: float) -> tuple[Rating, Rating]:
    """Both players after one game between them (its own rating period)."""
    return rate(x, [(o, x_score)]), rate(o, [(x, 1.0 - x_score)])


# A puzzle's first rating is the engine's estimate (tictactoe.puzzles), trusted more than a new
# player's: lichess starts its puzzles with a narrower deviation too.
PUZZLE_START_DEVIATION = 200.0


def puzzle_start(initial: float) -> Rating:
    """A puzzle's rating before anyone tried it."""
    return Rating(float(initial), PUZZLE_START_DEVIATION, START.volatility, 0)


def rate_attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player and the puzzle after one attempt: a game the player wins by solving it."""
    return rate_game(player, puzzle, 1.0 if solved else 0.0)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _new_volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois algorithm on f(x) = 0, x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta2 - phi2 - variance - ex)) / (2.0 * (phi2 + variance + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    side_a = a
    if delta2 > phi2 + variance:
        side_b = math.log(delta2 - phi2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        side_b = a - k * tau
    f_a, f_b = f(side_a), f(side_b)
    while abs(side_b - side_a) > _EPSILON:
        c = side_a + (side_a - side_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            side_a, f_a = side_b, f_b
        else:
            f_a /= 2.0
        side_b, f_b = c, f_c
    return math.exp(side_a / 2.0)
