"""Whole Swiss tournaments, paired round after round by the bot, with random results and
withdrawals: no repeat, no second bye, nobody paired after withdrawing, colours alternating."""

import math
import random

import pytest

from bot.tournaments import pairing
from bot.tournaments.core import Colour, Format, Result, Tournament
from bot.tournaments.pairing import PairingImpossible, pair_swiss
from tests.tournaments.test_swiss_brute_force import (
    all_matchings,
    expected_pairing,
    must_have,
    played_colours,
)

RESULTS = tuple(Result)


def clash_free_pairing_exists(tournament, bye):
    field = [p for p in tournament.active_players if p != bye]
    met = {p: tournament.opponents(p) for p in field}
    must = {p: must_have(played_colours(tournament, p)) for p in field}

    def allowed(a, b):
        return b not in met[a] and not (must[a] and must[a] == must[b])

    return next(all_matchings(field, allowed), None) is not None


def no_pairing_exists(tournament):
    return expected_pairing(tournament) is None


def run(size, rng, rounds=None):
    if rounds is None:
        rounds = min(size - 1, math.ceil(math.log2(size)) + 2)
    tournament = Tournament(Format.SWISS, tuple(range(1, size + 1)))
    for played_rounds in range(rounds):
        before = tournament
        try:
            round_ = pair_swiss(tournament)
        except PairingImpossible:
            assert size <= 8 or played_rounds >= math.ceil(math.log2(size))
            if size <= 10:
                assert no_pairing_exists(before)
            break
        paired = [p for g in round_.pairings for p in g.players()] + list(round_.byes)
        assert sorted(paired) == sorted(before.active_players)
        assert len(round_.byes) == len(before.active_players) % 2
        for bye in round_.byes:
            assert not before.had_bye(bye)
        for game in round_.pairings:
            assert game.o not in before.opponents(game.x)
            for player, colour in ((game.x, Colour.X), (game.o, Colour.O)):
                history = before.colours(player)
                if history[-2:] == (colour, colour) and size <= 10:
                    the_bye = round_.byes[0] if round_.byes else None
                    assert not clash_free_pairing_exists(before, the_bye)
        tournament = tournament.with_round(round_)
        for game in round_.pairings:
            tournament = tournament.with_result(
                len(tournament.rounds) - 1, game.x, rng.choice(RESULTS)
            )
        if rng.random() < 0.1 and len(tournament.active_players) > 3:
            tournament = tournament.with_withdrawal(rng.choice(tournament.active_players))
    return tournament


@pytest.mark.parametrize("size", range(3, 21))
def test_random_tournaments_keep_the_rules(size):
    rng = random.Random(1000 + size)
    three_in_a_row = 0
    for _ in range(25):
        tournament = run(size, rng)
        for player in tournament.players:
            colours = tournament.colours(player)
            three_in_a_row += any(
                colours[i] == colours[i + 1] == colours[i + 2] for i in range(len(colours) - 2)
            )
    if size > 10:
        assert three_in_a_row == 0


@pytest.mark.parametrize("size", [5, 9, 14, 20])
def test_the_greedy_float_fallback_keeps_the_rules_too(size, monkeypatch):
    # Long events (rounds near players - 1) can exhaust the exact float search; force the
    # fallback everywhere and play every tournament as long as it can be paired.
    monkeypatch.setattr(pairing, "FLOAT_SEARCH_BUDGET", 0)
    rng = random.Random(size)
    for _ in range(10):
        run(size, rng, rounds=size - 1)
