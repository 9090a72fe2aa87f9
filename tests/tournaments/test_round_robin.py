"""Round-robin by FIDE's Berger tables: everyone meets everyone once, a bye per round when odd."""

import itertools

import pytest

from bot.tournaments.core import Format, Result, Tournament
from bot.tournaments.pairing import PairingImpossible, berger_round, default_rounds, pair_next_round

# FIDE Handbook C.05, Annex 1: the Berger tables for 5 or 6 players and for 7 or 8 players.
BERGER_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]
BERGER_8 = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
]


@pytest.mark.parametrize(("players", "table"), [(6, BERGER_6), (8, BERGER_8)])
def test_berger_tables_are_fides(players, table):
    for number, line in enumerate(table, start=1):
        expected = {tuple(int(s) for s in game.split("-")) for game in line.split()}
        assert set(berger_round(players, number)) == expected


@pytest.mark.parametrize("size", range(3, 15))
def test_everyone_meets_everyone_once(size):
    tournament = Tournament(Format.ROUND_ROBIN, tuple(range(101, 101 + size)))
    for _ in range(default_rounds(Format.ROUND_ROBIN, size)):
        round_ = pair_next_round(tournament)
        assert len(round_.byes) == size % 2
        tournament = tournament.with_round(round_)
        for game in round_.pairings:
            tournament = tournament.with_result(len(tournament.rounds) - 1, game.x, Result.DRAW)
    with pytest.raises(PairingImpossible):
        pair_next_round(tournament)
    games = [frozenset(g.players()) for r in tournament.rounds for g in r.pairings]
    assert sorted(games, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(tournament.players, 2)), key=sorted
    )
    byes = [b for r in tournament.rounds for b in r.byes]
    assert sorted(byes) == (sorted(tournament.players) if size % 2 else [])
    for player in tournament.players:
        colours = tournament.colours(player)
        assert abs(colours.count("X") - colours.count("O")) <= 1 + (size % 2 == 0)


def test_a_withdrawn_players_games_become_byes():
    tournament = Tournament(Format.ROUND_ROBIN, (1, 2, 3, 4)).with_withdrawal(4)
    for _ in range(3):
        round_ = pair_next_round(tournament)
        assert all(4 not in g.players() for g in round_.pairings)
        assert len(round_.pairings) == 1
        assert len(round_.byes) == 1
        tournament = tournament.with_round(round_)
    assert sorted(b for r in tournament.rounds for b in r.byes) == [1, 2, 3]
