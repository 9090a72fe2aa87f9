"""Swiss and round-robin pairing, as an arbiter would pair: pure, deterministic.

Swiss (a Dutch-style system, with the absolute rules kept absolute):

1. Nobody meets the same opponent twice; withdrawn players are paired no more.
2. An odd field gives one bye (1 point, unplayed), to the player without a bye who has the
   lowest score, then the lowest rank (rank: score, then seed), among those whose removal
   leaves a field that can be paired under rule 1. Nobody gets a second bye.
3. Colours: a player who played the same colour in their last two games, or who has played
   one colour twice more than the other, must get the other colour (an absolute preference).
   Two players with the same absolute preference are not paired together unless no pairing
   of the round avoids it (so nobody is X, or O, three times in a row when avoidable).
4. Score group by score group from the top (a group's bracket: the players floated down from
   above, then the group's own), as few players as possible float down to the groups below,
   the lowest-ranked first, such that the rest of the bracket pairs among itself and everyone
   below can still be paired (checked exactly with perfect matchings, see .matching; exact
   within a search budget that only very long events exceed, see _fewest_floaters).
   Within the bracket, from the top down, each unpaired player gets the best opponent, in this
   order of preference, with which the rest of the bracket can still be paired: the smallest
   score difference (a floater meets the highest-ranked player it can); no clash of colour
   preferences; within a score group, the top half meets the bottom half (the i-th player
   meets the (i + half)-th, transpositions before exchanges).
5. Colours are allotted by preference (the stronger one first, the higher-ranked player's on
   a tie); players with no history alternate down the boards, X for the higher-ranked player
   on the first board, as in round 1, where the field is paired by seed: top half against
   bottom half.

Round-robin: FIDE's Berger tables (players by seed, a dummy added to an odd field: whoever
meets the dummy has the bye); a game against a withdrawn player becomes a bye.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.tournaments.core import Colour, Format, Pairing, PlayerId, Round, Tournament
from bot.tournaments.matching import UNMATCHED, augment, maximum_matching


class PairingImpossible(Exception):
    """No pairing of the next round keeps the rules (everyone has met everyone, or every player
    left has had their bye): the tournament should end here."""


def default_rounds(format_: Format, players: int) -> int:
    """Swiss: ceil(log2(players)), at most players - 1; round-robin: one cycle."""
    if format_ is Format.ROUND_ROBIN:
        return players - 1 if players % 2 == 0 else players
    return max(1, min(players - 1, math.ceil(math.log2(players))))


def pair_next_round(tournament: Tournament) -> Round:
    if tournament.format is Format.ROUND_ROBIN:
        return pair_round_robin(tournament)
    return pair_swiss(tournament)


# ---- colours -------------------------------------------------------------------------------

ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


@dataclass(frozen=True, slots=True)
class ColourPreference:
    colour: Colour | None
    strength: int


def colour_preference(history: Sequence[Colour]) -> ColourPreference:
    """FIDE's colour preference from the colours of the games a player actually played."""
    if not history:
        return ColourPreference(None, NONE)
    difference = history.count(Colour.X) - history.count(Colour.O)
    if len(history) >= 2 and history[-1] == history[-2]:
        return ColourPreference(history[-1].other, ABSOLUTE)
    if abs(difference) >= 2:
        return ColourPreference(Colour.O if difference > 0 else Colour.X, ABSOLUTE)
    if difference:
        return ColourPreference(Colour.O if difference > 0 else Colour.X, STRONG)
    return ColourPreference(history[-1].other, MILD)


def colours_clash(a: ColourPreference, b: ColourPreference) -> bool:
    """Both must have the same colour: one of them would break an absolute rule."""
    return a.strength == b.strength == ABSOLUTE and a.colour == b.colour


def colours_conflict(a: ColourPreference, b: ColourPreference) -> bool:
    """Both would like the same colour."""
    return a.colour is not None and a.colour == b.colour


def allot_colours(
    higher: PlayerId,
    higher_pref: ColourPreference,
    lower: PlayerId,
    lower_pref: ColourPreference,
    board: int,
) -> Pairing:
    """The game of two paired players with X and O given out (higher: the higher-ranked)."""
    if higher_pref.colour is None and lower_pref.colour is None:
        higher_gets = Colour.X if board % 2 == 0 else Colour.O
    elif lower_pref.colour is None or (
        higher_pref.colour is not None
        and (higher_pref.colour != lower_pref.colour or higher_pref.strength >= lower_pref.strength)
    ):
        higher_gets = higher_pref.colour  # type: ignore[assignment]  # not None here
    else:
        higher_gets = lower_pref.colour.other
    return Pairing(higher, lower) if higher_gets is Colour.X else Pairing(lower, higher)


# ---- Swiss ---------------------------------------------------------------------------------


def pair_swiss(tournament: Tournament) -> Round:
    """The next Swiss round (see the module's rules). Raises PairingImpossible."""
    seed = {player: index for index, player in enumerate(tournament.players)}
    score = {p: tournament.half_points(p) for p in tournament.active_players}
    ranked = sorted(score, key=lambda p: (-score[p], seed[p]))
    met = {p: tournament.opponents(p) for p in ranked}
    preference = {p: colour_preference(tournament.colours(p)) for p in ranked}
    if len(ranked) < 2:
        raise PairingImpossible
    if len(ranked) % 2 == 0:
        bye_candidates: list[PlayerId | None] = [None]
    else:
        bye_candidates = [p for p in reversed(ranked) if not tournament.had_bye(p)]
    for bye in bye_candidates:
        field = [p for p in ranked if p != bye]
        for avoid_clashes in (True, False):
            games = _pair_field(field, score, met, preference, avoid_clashes)
            if games is not None:
                return Round(games, () if bye is None else (bye,))
    raise PairingImpossible


def _pair_field(
    ranked: list[PlayerId],
    score: dict[PlayerId, int],
    met: dict[PlayerId, set[PlayerId]],
    preference: dict[PlayerId, ColourPreference],
    avoid_clashes: bool,
) -> tuple[Pairing, ...] | None:
    """Pair the field score group by score group, from the top (indices into `ranked`)."""
    n = len(ranked)
    compatible = [
        [
            i != j
            and ranked[j] not in met[ranked[i]]
            and not (avoid_clashes and colours_clash(preference[ranked[i]], preference[ranked[j]]))
            for j in range(n)
        ]
        for i in range(n)
    ]
    if not _pairable(compatible, list(range(n))):
        return None
    order = _opponent_order(ranked, score, preference)
    groups: list[list[int]] = []
    for i in range(n):
        if i and score[ranked[i]] == score[ranked[i - 1]]:
            groups[-1].append(i)
        else:
            groups.append([i])
    chosen: list[tuple[int, int]] = []
    floaters: list[int] = []
    for number, group in enumerate(groups):
        bracket = floaters + group
        lower = [i for later in groups[number + 1 :] for i in later]
        floaters = _fewest_floaters(compatible, bracket, lower, order)
        staying = [i for i in bracket if i not in floaters]
        chosen.extend(_pair_top_down(compatible, staying, order))
    return tuple(
        allot_colours(ranked[i], preference[ranked[i]], ranked[j], preference[ranked[j]], board)
        for board, (i, j) in enumerate(chosen)
    )


FLOAT_SEARCH_BUDGET = 400
"""How many float sets a bracket may try before the greedy fallback (see _fewest_floaters)."""


def _fewest_floaters(
    compatible: list[list[bool]],
    bracket: list[int],
    lower: list[int],
    order: Callable[[int, int], tuple[int, ...]],
) -> list[int]:
    """The players of a score bracket who float down to the groups below: as few as can be,
    the lowest-ranked first, such that the rest of the bracket pairs among itself and the
    floaters together with everyone below can still all be paired (floaters not with each other).

    The search tries float sets by size, then preference; it is exact while it stays within
    FLOAT_SEARCH_BUDGET sets, which only the late rounds of a long event with few players left
    to meet can exceed (nearly everyone floating). Past it, the floaters are those of the
    top-down pairing of the bracket and everyone below (score difference first): every rule
    still holds, only the fewest floats are no longer guaranteed."""
    tried = 0
    for count in range(len(bracket) % 2, len(bracket) + 1, 2):
        for floating in itertools.combinations(reversed(bracket), count):
            tried += 1
            if tried > FLOAT_SEARCH_BUDGET:
                return _floaters_of_top_down(compatible, bracket, lower, order)
            staying = [i for i in bracket if i not in floating]
            if _pairable(compatible, staying) and _pairable(
                compatible, [*floating, *lower], apart=frozenset(floating)
            ):
                return sorted(floating)
    raise AssertionError("a pairable field always has a way to float")  # pragma: no cover


def _floaters_of_top_down(
    compatible: list[list[bool]],
    bracket: list[int],
    lower: list[int],
    order: Callable[[int, int], tuple[int, ...]],
) -> list[int]:
    in_bracket = set(bracket)
    games = _pair_top_down(compatible, [*bracket, *lower], order)
    return sorted(
        player
        for game in games
        for player, opponent in (game, game[::-1])
        if player in in_bracket and opponent not in in_bracket
    )


def _pairable(
    compatible: list[list[bool]], players: list[int], apart: frozenset[int] = frozenset()
) -> bool:
    """Whether these players can all be paired (two players of `apart` never together)."""
    adjacent = [
        [b for b, j in enumerate(players) if compatible[i][j] and not (i in apart and j in apart)]
        for i in players
    ]
    return UNMATCHED not in maximum_matching(adjacent)


def _pair_top_down(
    compatible: list[list[bool]], players: list[int], order: Callable[[int, int], tuple[int, ...]]
) -> list[tuple[int, int]]:
    """Pair these players (pairable, in rank order): each top unpaired player gets their most
    preferred opponent with which the others can still all be paired."""
    adjacent = [[b for b, j in enumerate(players) if compatible[i][j]] for i in players]
    mate = maximum_matching(adjacent)
    fixed = [False] * len(players)
    chosen: list[tuple[int, int]] = []
    for a, i in enumerate(players):
        if fixed[a]:
            continue
        fixed[a] = True
        candidates = sorted(
            (b for b in adjacent[a] if not fixed[b]), key=lambda b: order(i, players[b])
        )
        for b in candidates:
            if _fix_game(adjacent, mate, fixed, a, b):
                chosen.append((i, players[b]))
                break
        else:  # pragma: no cover - the perfect matching kept always offers mate[a]
            raise AssertionError("the perfect matching was lost")
    return chosen


def _fix_game(
    adjacent: list[list[int]], mate: list[int], fixed: list[bool], i: int, j: int
) -> bool:
    """Pair i with j if the unfixed players can all still be paired; keep `mate` perfect."""
    if mate[i] == j:
        fixed[j] = True
        return True
    saved = mate.copy()
    partner_of_i, partner_of_j = mate[i], mate[j]
    mate[i], mate[j] = j, i
    mate[partner_of_i] = mate[partner_of_j] = UNMATCHED
    fixed[j] = True
    # Only the two former partners are left alone: one augmenting path must join them again.
    if augment(adjacent, mate, partner_of_i, excluded=fixed):
        return True
    mate[:] = saved
    fixed[j] = False
    return False


def _opponent_order(
    ranked: list[PlayerId],
    score: dict[PlayerId, int],
    preference: dict[PlayerId, ColourPreference],
) -> Callable[[int, int], tuple[int, ...]]:
    """How much i (the highest-ranked unpaired player) would rather meet j: lower is better."""
    group_start: dict[int, int] = {}
    group_size: dict[int, int] = {}
    for index, player in enumerate(ranked):
        group_start.setdefault(score[player], index)
        group_size[score[player]] = group_size.get(score[player], 0) + 1

    def order(i: int, j: int) -> tuple[int, ...]:
        a, b = ranked[i], ranked[j]
        clash = colours_clash(preference[a], preference[b])
        conflict = colours_conflict(preference[a], preference[b])
        if score[a] == score[b]:
            start, half = group_start[score[a]], group_size[score[a]] // 2
            position = abs((j - start) - (i - start) - half)
            return (0, clash, conflict, position, -j)
        return (score[a] - score[b], clash, conflict, 0, j)

    return order


# ---- round-robin ---------------------------------------------------------------------------


def berger_round(players: int, round_number: int) -> list[tuple[int, int]]:
    """FIDE's Berger table: the games (X, O) of round `round_number` (1-based) for an even number
    of seeds 1..players, in board order. Seeds i < j < players meet when i + j = round + 1
    (mod players - 1); seed `players` meets the one seed k with 2k = round + 1 (mod players - 1),
    with X in even rounds; otherwise i has X exactly when j - i is odd."""
    if players % 2 or not 1 <= round_number <= players - 1:
        raise ValueError("an even field and a round in 1..players-1")
    cycle = players - 1
    k = next(s for s in range(1, players) if (2 * s - round_number - 1) % cycle == 0)
    games = [(players, k) if round_number % 2 == 0 else (k, players)]
    for table in range(1, players // 2):
        a = (k - 1 + table) % cycle + 1
        b = (k - 1 - table) % cycle + 1
        low, high = min(a, b), max(a, b)
        games.append((low, high) if (high - low) % 2 else (high, low))
    return games


def pair_round_robin(tournament: Tournament) -> Round:
    """The next round of the Berger tables. Raises PairingImpossible after the last round."""
    seeds = list(tournament.players)
    if len(seeds) % 2:
        seeds.append(-1)  # the dummy: meeting it is a bye
    round_number = len(tournament.rounds) + 1
    if round_number > len(seeds) - 1:
        raise PairingImpossible
    games: list[Pairing] = []
    byes: list[PlayerId] = []
    for x_seed, o_seed in berger_round(len(seeds), round_number):
        x, o = seeds[x_seed - 1], seeds[o_seed - 1]
        x_out = x == -1 or x in tournament.withdrawn
        o_out = o == -1 or o in tournament.withdrawn
        if not x_out and not o_out:
            games.append(Pairing(x, o))
        elif not x_out:
            byes.append(x)
        elif not o_out:
            byes.append(o)
    return Round(tuple(games), tuple(byes))
