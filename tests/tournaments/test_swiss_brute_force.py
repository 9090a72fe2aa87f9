"""Swiss pairing against the optimum found by brute force over every matching (fields 3..8).

The criteria are restated here from the rules (pairing.py's docstring), not imported:
no repeat; the bye to the lowest player without one (score, then rank) whose removal leaves a
pairable field; no clash of absolute colour preferences when some pairing avoids it; score
group by score group from the top, the fewest players float down (the lowest-ranked first);
then within each bracket (the floaters from above first), from the top down, each player gets
their most preferred opponent that still lets everyone be paired.
"""

import random

import pytest

from bot.tournaments.core import Colour, Format, Tournament
from bot.tournaments.pairing import PairingImpossible, pair_swiss
from tests.tournaments.helpers import random_history


def all_matchings(players, allowed):
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        if allowed(first, partner):
            remaining = [p for p in rest if p != partner]
            for tail in all_matchings(remaining, allowed):
                yield ((first, partner), *tail)


def played_colours(tournament, player):
    colours = []
    for round_ in tournament.rounds:
        for game in round_.pairings:
            if game.result is not None and game.result.played and player in (game.x, game.o):
                colours.append("X" if player == game.x else "O")
    return colours


def must_have(colours):
    """The colour a player must get (absolute rule), or None."""
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return "O" if colours[-1] == "X" else "X"
    balance = colours.count("X") - colours.count("O")
    if balance >= 2:
        return "O"
    if balance <= -2:
        return "X"
    return None


def would_like(colours):
    if not colours:
        return None
    if must_have(colours):
        return must_have(colours)
    balance = colours.count("X") - colours.count("O")
    if balance:
        return "O" if balance > 0 else "X"
    return "O" if colours[-1] == "X" else "X"


def expected_pairing(tournament):
    """(bye, set of games as frozensets), or None when no pairing keeps the rules."""
    points = {}
    for p in tournament.active_players:
        total = 0
        for round_ in tournament.rounds:
            total += 2 if p in round_.byes else 0
            for game in round_.pairings:
                if game.result is not None and p in (game.x, game.o):
                    total += game.result.half_points[0 if p == game.x else 1]
        points[p] = total
    seed = {p: i for i, p in enumerate(tournament.players)}
    ranked = sorted(points, key=lambda p: (-points[p], seed[p]))
    met: dict[int, set[int]] = {p: set() for p in ranked}
    byes = set()
    for round_ in tournament.rounds:
        byes.update(round_.byes)
        for game in round_.pairings:
            met.setdefault(game.x, set()).add(game.o)
            met.setdefault(game.o, set()).add(game.x)
    colours = {p: played_colours(tournament, p) for p in ranked}
    must = {p: must_have(colours[p]) for p in ranked}
    like = {p: would_like(colours[p]) for p in ranked}
    if len(ranked) < 2:
        return None

    def no_repeat(a, b):
        return b not in met[a]

    def no_clash(a, b):
        return no_repeat(a, b) and not (must[a] and must[a] == must[b])

    candidates = [p for p in reversed(ranked) if p not in byes] if len(ranked) % 2 else [None]
    for bye in candidates:
        field = [p for p in ranked if p != bye]
        matchings = list(all_matchings(field, no_clash)) or list(all_matchings(field, no_repeat))
        if matchings:
            break
    else:
        return None

    groups: dict[int, list[int]] = {}
    for index, p in enumerate(field):
        groups.setdefault(points[p], []).append(index)

    def preference(a, b):
        i, j = field.index(a), field.index(b)
        clash = bool(must[a]) and must[a] == must[b]
        conflict = like[a] is not None and like[a] == like[b]
        if points[a] == points[b]:
            group = groups[points[a]]
            half = len(group) // 2
            return (0, clash, conflict, abs(group.index(j) - group.index(i) - half), -j)
        return (points[a] - points[b], clash, conflict, 0, j)

    def partners(matching):
        partner = {}
        for a, b in matching:
            partner[a], partner[b] = b, a
        return partner

    # Score group by score group from the top: the fewest players float down, the lowest-ranked
    # first (compared as their positions from the bottom of the bracket).
    remaining = [(m, partners(m)) for m in matchings]
    floaters: list[int] = []
    brackets = []
    top: set[int] = set()
    for score in sorted(groups, reverse=True):
        bracket = floaters + [field[i] for i in groups[score]]
        top |= set(bracket)
        from_bottom = list(reversed(bracket))

        def floating(partner, bracket=bracket, top=frozenset(top)):
            return [p for p in bracket if partner[p] not in top]

        def float_key(entry, floating=floating, from_bottom=from_bottom):
            gone = floating(entry[1])
            return (len(gone), sorted(from_bottom.index(p) for p in gone))

        best_key = min(float_key(entry) for entry in remaining)
        remaining = [entry for entry in remaining if float_key(entry) == best_key]
        floaters = floating(remaining[0][1])
        brackets.append([p for p in bracket if p not in floaters])

    def walk_key(entry):
        """Within each bracket, top-down: each player's opponent, by preference."""
        partner = entry[1]
        key = []
        for bracket in brackets:
            done = set()
            for p in bracket:
                if p not in done:
                    key.append(preference(p, partner[p]))
                    done |= {p, partner[p]}
        return key

    best = min(remaining, key=walk_key)[0]
    return bye, {frozenset(game) for game in best}, like, must


def check(tournament):
    expected = expected_pairing(tournament)
    if expected is None:
        with pytest.raises(PairingImpossible):
            pair_swiss(tournament)
        return
    bye, games, like, must = expected
    round_ = pair_swiss(tournament)
    assert round_.byes == (() if bye is None else (bye,))
    assert {frozenset(g.players()) for g in round_.pairings} == games
    for game in round_.pairings:
        for player, colour in ((game.x, "X"), (game.o, "O")):
            other = game.o if player == game.x else game.x
            if must[player] and must[player] != must[other]:
                assert colour == must[player]
            if like[player] and like[other] != like[player]:
                assert colour == like[player], (player, like, game)


@pytest.mark.parametrize("size", range(3, 9))
def test_pairing_is_the_brute_force_optimum(size):
    rng = random.Random(size)
    for _ in range(300 if size < 8 else 120):
        rounds = rng.randint(0, size)
        check(random_history(size, rounds, rng))


def test_first_round_is_top_half_against_bottom_half():
    for size in range(3, 21):
        round_ = pair_swiss(Tournament(Format.SWISS, tuple(range(1, size + 1))))
        paired = size - size % 2
        assert round_.byes == ((size,) if size % 2 else ())
        half = paired // 2
        games = [sorted(g.players()) for g in round_.pairings]
        assert games == [[i, i + half] for i in range(1, half + 1)]
        # X alternates down the boards, the higher seed X on board 1.
        for board, game in enumerate(round_.pairings):
            higher = min(game.players())
            assert (game.x == higher) == (board % 2 == 0)
    assert Colour.X.other is Colour.O
