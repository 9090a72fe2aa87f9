"""Standings with tie-breaks: pure and exact (Fractions; no float decides a tie).

Points: win 1, draw 1/2, loss 0, bye 1 (a bye counts from the moment its round is paired);
a game still running counts for nothing yet.

Tie-breaks, in this order: Swiss: Buchholz Cut-1, Buchholz, Sonneborn-Berger; round-robin:
Sonneborn-Berger. Players equal in points and every tie-break share a rank.

Unplayed rounds follow FIDE's tie-break regulations of 2023 (the "dummy opponent" rule): each
round a player did not play (a bye, a forfeit won or lost, a game where neither moved, a round
after the player withdrew) counts as a game against a dummy opponent who has the player's own
points. So it adds the player's own points to their Buchholz, and to their Sonneborn-Berger
those points times what the player scored in that round; Buchholz Cut-1 cuts a dummy opponent
first, else the lowest opponent. An opponent's contribution is their actual points, whatever
their own unplayed games: a withdrawn player's past games still count for their opponents.
Only finished rounds (and the current round's byes) enter the tie-breaks.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.core import Format, PlayerId, Tournament

UNPLAYED_RULE_NOTE = "Unplayed games count as games against an opponent on the player's own score."
"""What the standings say of unplayed games, in a few words (a msgid for the view's catalog)."""


class TieBreak(enum.StrEnum):
    BUCHHOLZ_CUT_1 = "BH-C1"
    BUCHHOLZ = "BH"
    SONNEBORN_BERGER = "SB"


TIE_BREAKS = {
    Format.SWISS: (TieBreak.BUCHHOLZ_CUT_1, TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER),
    Format.ROUND_ROBIN: (TieBreak.SONNEBORN_BERGER,),
}


@dataclass(frozen=True, slots=True)
class StandingsLine:
    rank: int
    shared: bool  # shown as "=rank"
    player: PlayerId
    points: Fraction
    tie_breaks: tuple[Fraction, ...]  # in the order of Standings.tie_breaks

    @property
    def rank_label(self) -> str:
        return f"={self.rank}" if self.shared else str(self.rank)


@dataclass(frozen=True, slots=True)
class Standings:
    tie_breaks: tuple[TieBreak, ...]
    lines: tuple[StandingsLine, ...]
    note: str = UNPLAYED_RULE_NOTE


@dataclass(frozen=True, slots=True)
class _Contribution:
    opponent_points: Fraction  # the opponent's points, or the player's own for a dummy
    scored: Fraction  # what the player scored in that round
    dummy: bool


def standings(tournament: Tournament) -> Standings:
    points = {p: Fraction(tournament.half_points(p), 2) for p in tournament.players}
    tie_breaks = TIE_BREAKS[tournament.format]
    values: dict[PlayerId, tuple[Fraction, ...]] = {}
    for player in tournament.players:
        contributions = _contributions(tournament, player, points)
        computed = {
            TieBreak.BUCHHOLZ: sum((c.opponent_points for c in contributions), Fraction(0)),
            TieBreak.BUCHHOLZ_CUT_1: _buchholz_cut_1(contributions),
            TieBreak.SONNEBORN_BERGER: sum(
                (c.opponent_points * c.scored for c in contributions), Fraction(0)
            ),
        }
        values[player] = tuple(computed[tie_break] for tie_break in tie_breaks)
    seed = {player: index for index, player in enumerate(tournament.players)}

    def key(player: PlayerId) -> tuple[Fraction, ...]:
        return (points[player], *values[player])

    order = sorted(tournament.players, key=lambda p: (tuple(-v for v in key(p)), seed[p]))
    lines = []
    for player in order:
        rank = next(i for i, other in enumerate(order) if key(other) == key(player)) + 1
        shared = sum(1 for other in order if key(other) == key(player)) > 1
        lines.append(StandingsLine(rank, shared, player, points[player], values[player]))
    return Standings(tie_breaks, tuple(lines))


def _contributions(
    tournament: Tournament, player: PlayerId, points: dict[PlayerId, Fraction]
) -> list[_Contribution]:
    own = points[player]
    by_round = {game.round_index: game for game in tournament.games(player)}
    contributions = []
    for index, round_ in enumerate(tournament.rounds):
        game = by_round.get(index)
        if game is None:
            if round_.finished:  # withdrawn, not paired: an unplayed round scored 0
                contributions.append(_Contribution(own, Fraction(0), dummy=True))
            continue
        if game.half_points is None:
            continue  # still being played
        scored = Fraction(game.half_points, 2)
        if game.played and game.opponent is not None:
            contributions.append(_Contribution(points[game.opponent], scored, dummy=False))
        else:
            contributions.append(_Contribution(own, scored, dummy=True))
    return contributions


def _buchholz_cut_1(contributions: list[_Contribution]) -> Fraction:
    if not contributions:
        return Fraction(0)
    cut = min(contributions, key=lambda c: (not c.dummy, c.opponent_points))
    return sum((c.opponent_points for c in contributions), Fraction(0)) - cut.opponent_points
