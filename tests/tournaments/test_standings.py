"""Standings against a straightforward recomputation, for every result pattern of small
round-robins and many random Swiss histories; and a worked example by hand."""

import itertools
import random
from fractions import Fraction as F

import pytest

from bot.tournaments.core import Format, Pairing, Result, Round, Tournament
from bot.tournaments.pairing import pair_next_round
from bot.tournaments.standings import TieBreak, standings
from tests.tournaments.helpers import random_history

WIN, DRAW, LOSS = F(1), F(1, 2), F(0)
POINTS: dict[str, tuple[F, F]] = {
    "1-0": (WIN, LOSS),
    "0-1": (LOSS, WIN),
    "1/2": (DRAW, DRAW),
    "+-": (WIN, LOSS),
    "-+": (LOSS, WIN),
    "--": (LOSS, LOSS),
}
PLAYED = {"1-0", "0-1", "1/2"}


def recompute(tournament):
    """Points and tie-breaks from the raw rounds, by the rule as written in standings.py."""
    # Per player, per round: (opponent or None, scored, played).
    rows: dict[int, list[tuple[int | None, F, bool]]] = {p: [] for p in tournament.players}
    for round_ in tournament.rounds:
        present = set()
        for bye in round_.byes:
            rows[bye].append((None, F(1), False))
            present.add(bye)
        for game in round_.pairings:
            present |= {game.x, game.o}
            if game.result is None:
                continue
            x_score, o_score = POINTS[game.result.value]
            played = game.result.value in PLAYED
            rows[game.x].append((game.o, x_score, played))
            rows[game.o].append((game.x, o_score, played))
        if round_.finished:
            for p in tournament.players:
                if p not in present:
                    rows[p].append((None, F(0), False))
    points = {p: sum((s for _, s, _ in rows[p]), F(0)) for p in rows}
    result: dict[int, tuple[F, ...]] = {}
    for p, row in rows.items():
        values = [
            (points[o] if o is not None and played else points[p], s, not played)
            for o, s, played in row
        ]
        buchholz = sum((v for v, _, _ in values), F(0))
        dummies = [v for v, _, dummy in values if dummy]
        cut = (min(dummies) if dummies else min(v for v, _, _ in values)) if values else 0
        sb = sum((v * s for v, s, _ in values), F(0))
        if tournament.format is Format.SWISS:
            result[p] = (points[p], buchholz - cut, buchholz, sb)
        else:
            result[p] = (points[p], sb)
    return result


def check(tournament):
    table = standings(tournament)
    expected = recompute(tournament)
    assert [line.player for line in table.lines] == sorted(
        tournament.players,
        key=lambda p: (tuple(-v for v in expected[p]), tournament.players.index(p)),
    )
    for line in table.lines:
        assert (line.points, *line.tie_breaks) == expected[line.player]
        ahead = sum(1 for p in tournament.players if expected[p] > expected[line.player])
        assert line.rank == ahead + 1
        equal = sum(1 for p in tournament.players if expected[p] == expected[line.player])
        assert line.shared == (equal > 1)
        assert line.rank_label == (f"={line.rank}" if equal > 1 else str(line.rank))


@pytest.mark.parametrize(
    ("size", "results"),
    [
        (3, tuple(Result)),  # every result of every game
        (4, (Result.X_WON, Result.DRAW, Result.O_WON_BY_FORFEIT, Result.DOUBLE_FORFEIT)),
    ],
)
def test_every_result_pattern_of_a_small_round_robin(size, results):
    schedule = Tournament(Format.ROUND_ROBIN, tuple(range(1, size + 1)))
    for _ in range(size - 1 + size % 2):
        schedule = schedule.with_round(pair_next_round(schedule))
    games = [(i, g.x) for i, r in enumerate(schedule.rounds) for g in r.pairings]
    for pattern in itertools.product(results, repeat=len(games)):
        tournament = schedule
        for (index, x), result in zip(games, pattern, strict=True):
            tournament = tournament.with_result(index, x, result)
        check(tournament)


def test_random_swiss_histories():
    rng = random.Random(3)
    for _ in range(2000):
        check(random_history(rng.randint(3, 12), rng.randint(0, 6), rng))


def test_a_round_in_progress_counts_its_bye_but_not_its_games():
    tournament = Tournament(Format.SWISS, (1, 2, 3))
    tournament = tournament.with_round(Round((Pairing(1, 2),), (3,)))
    table = standings(tournament)
    assert [(line.player, line.points) for line in table.lines] == [(3, F(1)), (1, F(0)), (2, F(0))]
    check(tournament)


def test_worked_example():
    # Four players, Swiss, two rounds: 1 beats 3, 2 draws 4; then 1 draws 2, 3 wins by forfeit.
    tournament = Tournament(
        Format.SWISS,
        (1, 2, 3, 4),
        (
            Round((Pairing(1, 3, Result.X_WON), Pairing(2, 4, Result.DRAW))),
            Round((Pairing(2, 1, Result.DRAW), Pairing(3, 4, Result.X_WON_BY_FORFEIT))),
        ),
    )
    table = standings(tournament)
    assert table.tie_breaks == (
        TieBreak.BUCHHOLZ_CUT_1,
        TieBreak.BUCHHOLZ,
        TieBreak.SONNEBORN_BERGER,
    )
    rows = [(line.rank_label, line.player, line.points, *line.tie_breaks) for line in table.lines]
    # 1: opponents 3 (1 pt) and 2 (1 pt): BH 2, cut 1; SB 1*1 + 1/2*1 = 3/2.
    # 2: opponents 4 (1/2) and 1 (3/2): BH 2, cut 3/2; SB 1/2*1/2 + 1/2*3/2 = 1.
    # 3: 1 (3/2, lost) and a dummy on 3's own 1 point (won by forfeit): BH 5/2, cut (dummy
    #    first) 3/2, SB 0 + 1*1 = 1.
    # 4: 2 (1 pt, drawn) and a dummy on 4's own 1/2 (lost by forfeit): BH 3/2, cut 1, SB 1/2.
    assert rows == [
        ("1", 1, F(3, 2), F(1), F(2), F(3, 2)),
        ("2", 3, F(1), F(3, 2), F(5, 2), F(1)),
        ("3", 2, F(1), F(3, 2), F(2), F(1)),
        ("4", 4, F(1, 2), F(1), F(3, 2), F(1, 2)),
    ]


def test_players_equal_in_everything_share_a_rank():
    tournament = Tournament(
        Format.ROUND_ROBIN,
        (1, 2, 3, 4),
        (Round((Pairing(1, 2, Result.DRAW), Pairing(3, 4, Result.DRAW))),),
    )
    labels = [line.rank_label for line in standings(tournament).lines]
    assert labels == ["=1", "=1", "=1", "=1"]
