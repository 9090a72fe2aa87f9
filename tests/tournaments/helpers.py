"""Random tournament histories for the tests, built without the pairing under test."""

from __future__ import annotations

import random

from bot.tournaments.core import Format, Pairing, Result, Round, Tournament

RESULTS = tuple(Result)


def random_perfect_matching(players: list[int], allowed, rng: random.Random):
    """A random perfect matching of `players` under `allowed(a, b)`, or None (plain search)."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    partners = [p for p in rest if allowed(first, p)]
    rng.shuffle(partners)
    for partner in partners:
        remaining = [p for p in rest if p != partner]
        tail = random_perfect_matching(remaining, allowed, rng)
        if tail is not None:
            return [(first, partner), *tail]
    return None


def random_history(size: int, rounds: int, rng: random.Random, withdrawals: bool = True):
    """A Swiss history of up to `rounds` finished rounds with random opponents, colours,
    results (forfeits included) and withdrawals; keeps no-repeat and one-bye-each."""
    tournament = Tournament(Format.SWISS, tuple(range(1, size + 1)))
    met: dict[int, set[int]] = {p: set() for p in tournament.players}
    had_bye: set[int] = set()
    for _ in range(rounds):
        active = list(tournament.active_players)
        rng.shuffle(active)
        bye = None
        if len(active) % 2:
            eligible = [p for p in active if p not in had_bye]
            if not eligible:
                break
            bye = rng.choice(eligible)
            active.remove(bye)
        games = random_perfect_matching(active, lambda a, b: b not in met[a], rng)
        if games is None:
            break
        pairings = []
        for a, b in games:
            met[a].add(b)
            met[b].add(a)
            pairings.append(Pairing(a, b, rng.choice(RESULTS)))
        if bye is not None:
            had_bye.add(bye)
        tournament = tournament.with_round(Round(tuple(pairings), () if bye is None else (bye,)))
        if withdrawals and rng.random() < 0.15 and len(tournament.active_players) > 3:
            tournament = tournament.with_withdrawal(rng.choice(tournament.active_players))
    return tournament
