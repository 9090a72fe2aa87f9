"""Maximum-cardinality matching on a general graph (Edmonds' blossom algorithm), pure Python.

Used by the Swiss pairing to know, at every step, whether the players still unpaired can all
be paired: the pairing fixes one game at a time and asks this module to repair the perfect
matching it keeps (one augmenting-path search from the single player left alone), so a
pairing never paints itself into a corner and never needs blind backtracking.

Vertices are 0..n-1; `adjacent[v]` lists v's neighbours; `mate[v]` is v's partner or -1.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

UNMATCHED = -1


def maximum_matching(adjacent: Sequence[Sequence[int]]) -> list[int]:
    """A maximum matching: greedy first, then one augmenting search per exposed vertex
    (a vertex that no search can reach stays exposed for good, so one pass suffices)."""
    n = len(adjacent)
    mate = [UNMATCHED] * n
    for v in range(n):
        if mate[v] == UNMATCHED:
            for w in adjacent[v]:
                if mate[w] == UNMATCHED and w != v:
                    mate[v], mate[w] = w, v
                    break
    for v in range(n):
        if mate[v] == UNMATCHED:
            augment(adjacent, mate, v, excluded=None)
    return mate


def augment(
    adjacent: Sequence[Sequence[int]],
    mate: list[int],
    root: int,
    excluded: Sequence[bool] | None,
) -> bool:
    """Search an augmenting path from the exposed vertex `root`, ignoring excluded vertices;
    when found, flip it in `mate` (in place) and return True; otherwise leave `mate` as it was."""
    n = len(adjacent)
    parent = [UNMATCHED] * n
    base = list(range(n))
    in_tree = [False] * n  # an outer (even) vertex of the alternating tree
    in_tree[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        on_path = [False] * n
        while True:
            a = base[a]
            on_path[a] = True
            if mate[a] == UNMATCHED:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if on_path[b]:
                return b
            b = parent[mate[b]]

    def mark_blossom(v: int, blossom_base: int, child: int, in_blossom: list[bool]) -> None:
        while base[v] != blossom_base:
            in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for w in adjacent[v]:
            if (excluded is not None and excluded[w]) or base[v] == base[w] or mate[v] == w:
                continue
            if w == root or (mate[w] != UNMATCHED and parent[mate[w]] != UNMATCHED):
                # An odd cycle through outer vertices: shrink it into its base.
                blossom_base = common_base(v, w)
                in_blossom = [False] * n
                mark_blossom(v, blossom_base, w, in_blossom)
                mark_blossom(w, blossom_base, v, in_blossom)
                for u in range(n):
                    if in_blossom[base[u]]:
                        base[u] = blossom_base
                        if not in_tree[u]:
                            in_tree[u] = True
                            queue.append(u)
            elif parent[w] == UNMATCHED:
                parent[w] = v
                if mate[w] == UNMATCHED:
                    while w != UNMATCHED:  # flip the path back to the root
                        previous = mate[parent[w]]
                        mate[w], mate[parent[w]] = parent[w], w
                        w = previous
                    return True
                in_tree[mate[w]] = True
                queue.append(mate[w])
    return False
