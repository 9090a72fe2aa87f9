"""Benchmark the Swiss pairing: the time to pair one round for 16, 64 and 256 players.

Run with `python benchmarks/pairing.py [--repeats N]`; it prints a report and always exits 0.

Each field is played by the pairing itself up to the middle of a tournament of
ceil(log2(players)) rounds, and up to its last round, with seeded random results (draws and
forfeits included), so the score groups are those of a real event; then the next round is paired
`repeats` times and the median is quoted. Target: 256 players paired in at most 1 s.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.tournaments.core import Format, Result, Tournament
from bot.tournaments.pairing import pair_swiss

FIELDS = (16, 64, 256)
TARGET_256_S = 1.0
RESULT_WEIGHTS = {
    Result.X_WON: 40,
    Result.O_WON: 35,
    Result.DRAW: 20,
    Result.X_WON_BY_FORFEIT: 2,
    Result.O_WON_BY_FORFEIT: 2,
    Result.DOUBLE_FORFEIT: 1,
}


def played_until(players: int, rounds: int, seed: int = 1) -> Tournament:
    rng = random.Random(seed)
    tournament = Tournament(Format.SWISS, tuple(range(1, players + 1)))
    for _ in range(rounds):
        tournament = tournament.with_round(pair_swiss(tournament))
        index = len(tournament.rounds) - 1
        for game in tournament.rounds[index].pairings:
            result = rng.choices(list(RESULT_WEIGHTS), weights=list(RESULT_WEIGHTS.values()))[0]
            tournament = tournament.with_result(index, game.x, result)
    return tournament


def median_seconds(tournament: Tournament, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        pair_swiss(tournament)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=11)
    repeats = parser.parse_args().repeats
    print(f"Swiss pairing, median of {repeats} pairings of the same round")
    print(f"{'players':>8} {'rounds':>7} {'round paired':>13} {'median':>10} {'groups':>7}")
    worst_256 = 0.0
    for players in FIELDS:
        total = math.ceil(math.log2(players))
        for before in (total // 2, total - 1):
            tournament = played_until(players, before)
            groups = len({tournament.half_points(p) for p in tournament.players})
            seconds = median_seconds(tournament, repeats)
            if players == 256:
                worst_256 = max(worst_256, seconds)
            print(f"{players:>8} {total:>7} {before + 1:>13} {seconds * 1000:>8.1f}ms {groups:>7}")
    verdict = "PASS" if worst_256 <= TARGET_256_S else "FAIL"
    print(f"256 players: {worst_256:.3f} s (target <= {TARGET_256_S} s): {verdict}")


if __name__ == "__main__":
    main()
