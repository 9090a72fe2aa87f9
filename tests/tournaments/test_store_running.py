"""The pure decisions the store applies: what a finished board scores, how many rounds are
played, and what follows a result (close, pair, finish), checked over every small case."""

import itertools
import random

import pytest

from bot.tournaments.core import Colour, Format, Pairing, Result, Round, Tournament
from bot.tournaments.running import (
    Board,
    PairingKey,
    State,
    StoredTournament,
    advance,
    forfeit_by,
    planned_rounds,
    result_of_game,
)

RESULTS = tuple(Result)


@pytest.mark.parametrize(
    ("winner", "x_moved", "o_moved", "timed_out"),
    [
        (winner, x_moved, o_moved, timed_out)
        for winner, x_moved, o_moved, timed_out in itertools.product(
            (Colour.X, Colour.O, None), (False, True), (False, True), (False, True)
        )
        if x_moved or not o_moved  # X moves first: O never moved on a board X never touched
    ],
)
def test_a_finished_board_scores_as_the_issue_says(winner, x_moved, o_moved, timed_out):
    result = result_of_game(winner, x_moved, o_moved, timed_out)
    x_points, o_points = result.half_points
    if timed_out and not x_moved:  # neither ever moved: both lose, both unplayed
        assert (x_points, o_points, result.played) == (0, 0, False)
        return
    expected = {Colour.X: (2, 0), Colour.O: (0, 2), None: (1, 1)}[winner]
    assert (x_points, o_points) == expected
    # Played only when both moved (as /stats counts it); otherwise the win is a forfeit.
    assert result.played == ((x_moved and o_moved) or winner is None)


def test_a_withdrawal_forfeits_to_the_opponent():
    assert forfeit_by(Pairing(1, 2), 1) is Result.O_WON_BY_FORFEIT
    assert forfeit_by(Pairing(1, 2), 2) is Result.X_WON_BY_FORFEIT


def ceil_log2(n: int) -> int:
    return (n - 1).bit_length()


@pytest.mark.parametrize("players", range(3, 65))
def test_the_rounds_played(players):
    assert planned_rounds(Format.SWISS, None, players) == min(players - 1, ceil_log2(players))
    for requested in range(1, 12):
        assert planned_rounds(Format.SWISS, requested, players) == min(requested, players - 1)
    cycle = players - 1 if players % 2 == 0 else players
    for asked in (None, 1, 50):  # a round-robin plays its cycle, whatever was asked
        assert planned_rounds(Format.ROUND_ROBIN, asked, players) == cycle


def with_results(round_: Round, results) -> Round:
    pairings = tuple(
        Pairing(p.x, p.o, result) for p, result in zip(round_.pairings, results, strict=True)
    )
    return Round(pairings, round_.byes)


def drive(tournament: Tournament, rounds: int, results_of):
    """A whole tournament through `advance`, as the store drives it: a result at a time."""
    closed_log: list[int] = []
    paired_log: list[int] = []
    step = advance(tournament, rounds, 0)  # the start
    while True:
        closed_log += step.closed
        for round_ in step.paired:
            tournament = tournament.with_round(round_)
            paired_log.append(len(tournament.rounds))
        if step.finished:
            return tournament, closed_log, paired_log
        number = len(tournament.rounds)
        last = tournament.rounds[-1]
        results = results_of(number, len(last.pairings))
        # Feed the results one at a time: nothing follows before the last.
        for index in range(len(results)):
            partial = with_results(
                last, results[: index + 1] + (None,) * (len(results) - 1 - index)
            )
            rounds_so_far = (*tournament.rounds[:-1], partial)
            current = Tournament(tournament.format, tournament.players, rounds_so_far)
            step = advance(current, rounds, len(closed_log))
            if index < len(results) - 1:
                assert step == advance(current, rounds, len(closed_log))
                assert (step.closed, step.paired, step.finished) == ((), (), False)
        tournament = current


@pytest.mark.parametrize("format_", list(Format))
@pytest.mark.parametrize("players", range(3, 9))
def test_every_round_is_closed_once_and_paired_once_in_order(format_, players):
    rng = random.Random(players)
    for _ in range(20):
        rounds = planned_rounds(format_, rng.choice((None, 1, 2, 5)), players)
        final, closed, paired = drive(
            Tournament(format_, tuple(range(1, players + 1))),
            rounds,
            lambda number, games: tuple(rng.choice(RESULTS) for _ in range(games)),
        )
        played = len(final.rounds)
        assert closed == list(range(1, played + 1))
        assert paired == list(range(1, played + 1))
        assert all(round_.finished for round_ in final.rounds)
        if format_ is Format.ROUND_ROBIN:
            assert played == rounds  # a full cycle, whatever the results
        else:
            assert played <= rounds
            met = [p.players() for round_ in final.rounds for p in round_.pairings]
            assert len({frozenset(game) for game in met}) == len(met)  # nobody met twice


def test_every_result_pattern_of_a_three_player_round_robin():
    for pattern in itertools.product(RESULTS, repeat=3):
        final, closed, paired = drive(
            Tournament(Format.ROUND_ROBIN, (1, 2, 3)),
            3,
            lambda number, games, pattern=pattern: (pattern[number - 1],) * games,
        )
        assert (closed, paired) == ([1, 2, 3], [1, 2, 3])
        assert [round_.pairings[0].result for round_ in final.rounds] == list(pattern)


def test_rounds_left_with_no_game_are_closed_at_once():
    """Round-robin of 4 where two withdraw after round 1: a round with only byes is paired
    and closed in the same step as the one before it ends."""
    played = Tournament(Format.ROUND_ROBIN, (1, 2, 3, 4))
    first = advance(played, 3, 0).paired[0]
    played = played.with_round(with_results(first, (Result.X_WON,) * len(first.pairings)))
    survivors = first.pairings[0].players()
    for player in (1, 2, 3, 4):
        if player not in survivors:
            played = played.with_withdrawal(player)
    step = advance(played, 3, 0)
    # The two left meet in no later round (they met in round 1): rounds 2 and 3 are all byes.
    assert step.closed == (1, 2, 3)
    assert [round_.pairings for round_ in step.paired] == [(), ()]
    assert [sorted(round_.byes) for round_ in step.paired] == [sorted(survivors)] * 2
    assert step.finished


def test_a_tournament_left_with_one_player_finishes():
    tournament = Tournament(Format.SWISS, (1, 2, 3), withdrawn=frozenset({1, 2}))
    assert advance(tournament, 2, 0).finished


def test_a_stored_tournament_finds_its_boards_by_key():
    boards = ((Board(PairingKey(7, 1, 1), 1, 2), Board(PairingKey(7, 1, 2), 3, 4)),)
    stored = StoredTournament(
        tournament_id=7,
        guild_id=1,
        channel_id=2,
        card_message_id=None,
        thread_id=None,
        organiser_id=3,
        name=None,
        format=Format.SWISS,
        rounds=3,
        variant="classic",
        state=State.RUNNING,
        created_at=0.0,
        tournament=Tournament(Format.SWISS, (1, 2, 3, 4), (Round((Pairing(1, 2), Pairing(3, 4))),)),
        boards=boards,
        final_ranks={1: 1, 2: 3, 3: 1, 4: 4},
    )
    assert stored.board(PairingKey(7, 1, 2)) == boards[0][1]
    for missing in (PairingKey(8, 1, 1), PairingKey(7, 2, 1), PairingKey(7, 1, 3)):
        assert stored.board(missing) is None
    assert stored.current_round == 1
    assert stored.winners == (1, 3)
