"""The blossom matching against a brute force over all matchings of every small graph."""

import itertools
import random

import pytest

from bot.tournaments.matching import UNMATCHED, maximum_matching


def brute_force_size(n, edges):
    best = 0

    def extend(used, size, start):
        nonlocal best
        best = max(best, size)
        for k in range(start, len(edges)):
            a, b = edges[k]
            if a not in used and b not in used:
                extend(used | {a, b}, size + 1, k + 1)

    extend(frozenset(), 0, 0)
    return best


def check(n, edges):
    adjacent: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        adjacent[a].append(b)
        adjacent[b].append(a)
    mate = maximum_matching(adjacent)
    for v, w in enumerate(mate):
        if w != UNMATCHED:
            assert mate[w] == v
            assert w in adjacent[v]
    assert sum(w != UNMATCHED for w in mate) // 2 == brute_force_size(n, edges)


@pytest.mark.parametrize("n", range(1, 6))
def test_every_graph_up_to_five_vertices(n):
    pairs = list(itertools.combinations(range(n), 2))
    for mask in range(1 << len(pairs)):
        check(n, [pair for bit, pair in enumerate(pairs) if mask >> bit & 1])


def test_random_graphs_up_to_twelve_vertices():
    rng = random.Random(7)
    for _ in range(1000):
        n = rng.randint(6, 12)
        density = rng.random()
        pairs = [p for p in itertools.combinations(range(n), 2) if rng.random() < density]
        rng.shuffle(pairs)
        check(n, pairs)
