"""Benchmark the Ultimate Tic-Tac-Toe AI: strength against OpenSpiel's MCTS, thinking time.

Run from anywhere with `python benchmarks/ultimate.py` (OpenSpiel comes with requirements-dev.txt);
`--help` lists the options. It prints one table and always exits 0.

- Each of our levels against `pyspiel.MCTSBot` (OpenSpiel's C++ MCTS: random rollouts, UCT
  c = 2, its solver on) at several simulation counts, alternating X and O.
- Each level against the next one up, and "easy" against a random player.

A score counts a win 1 and a draw 1/2, from our level's side (the first named). Thinking time is
per move of our level: wall and CPU seconds, median and max. The games are refereed by OpenSpiel's
own rules: every move is applied to both engines and the results must agree.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pyspiel  # noqa: E402

from tictactoe import ultimate as ut  # noqa: E402

# A player: given our state and OpenSpiel's, the move it plays.
Player = Callable[[ut.State, "pyspiel.State"], ut.Action]


@dataclass
class Tally:
    """One pairing's games: the first player's score, and its thinking time per move."""

    score: float = 0.0
    games: int = 0
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def our_player(level: str, rng: random.Random, tally: Tally) -> Player:
    def play(state: ut.State, _spiel: pyspiel.State) -> ut.Action:
        wall, cpu = time.perf_counter(), time.process_time()
        action = ut.choose(state, level, rng)
        tally.wall.append(time.perf_counter() - wall)
        tally.cpu.append(time.process_time() - cpu)
        return action

    return play


def spiel_mcts(game: pyspiel.Game, simulations: int, seeds: Iterator[int]) -> Player:
    """OpenSpiel's C++ MCTS: random rollouts, UCT c = 2, its solver on; a new seed each game."""
    seed = next(seeds)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)

    def play(state: ut.State, spiel: pyspiel.State) -> ut.Action:
        # Where the move is free, OpenSpiel first chooses a board, then a cell in it.
        probe = spiel.clone()
        board = ut.forced_board(state)
        if board is None:
            board = bot.step(probe)
            probe.apply_action(board)
        return board, bot.step(probe)

    return play


def random_player(rng: random.Random) -> Player:
    def play(state: ut.State, _spiel: pyspiel.State) -> ut.Action:
        return rng.choice(sorted(ut.actions(state)))

    return play


def play_game(game: pyspiel.Game, x: Player, o: Player) -> str | None:
    """One game, refereed by both rule sets: the winner, or None for a draw."""
    state, spiel = ut.initial_state(), game.new_initial_state()
    while not ut.terminal(state):
        assert not spiel.is_terminal()
        mover = x if ut.player(state) == ut.X else o
        board, cell = mover(state, spiel)
        if ut.forced_board(state) is None:
            spiel.apply_action(board)
        spiel.apply_action(cell)
        state = ut.result(state, (board, cell))
    assert spiel.is_terminal()
    returns = spiel.returns()
    spiel_winner = ut.X if returns[0] > 0 else ut.O if returns[1] > 0 else None
    assert spiel_winner == ut.winner(state), "the two rule sets disagree"
    return ut.winner(state)


def match(
    game: pyspiel.Game,
    games: int,
    first: Callable[[Tally], Player],
    second: Callable[[], Player],
) -> Tally:
    """`games` games, the first player X in even ones and O in odd ones."""
    tally = Tally()
    for number in range(games):
        ours, theirs = first(tally), second()
        our_mark = ut.X if number % 2 == 0 else ut.O
        x, o = (ours, theirs) if our_mark == ut.X else (theirs, ours)
        won = play_game(game, x, o)
        tally.score += 1.0 if won == our_mark else 0.5 if won is None else 0.0
        tally.games += 1
    return tally


def row(name: str, tally: Tally) -> str:
    times = (
        f"{statistics.median(tally.wall):6.3f} {max(tally.wall):6.3f} "
        f"{statistics.median(tally.cpu):6.3f} {max(tally.cpu):6.3f}"
        if tally.wall
        else ""
    )
    share = tally.score / tally.games
    return f"{name:<32} {tally.score:5.1f}/{tally.games:<3} {share:5.0%}  {times}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument(
        "--sims",
        type=int,
        nargs="*",
        default=[100, 1000, 10000],
        help="OpenSpiel MCTS simulation counts (default 100 1000 10000)",
    )
    parser.add_argument(
        "--levels",
        nargs="*",
        default=list(ut.DIFFICULTIES),
        choices=ut.DIFFICULTIES,
        help="our levels against OpenSpiel (default: all)",
    )
    parser.add_argument(
        "--no-ladder", action="store_true", help="skip level against level and easy vs random"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    rng = random.Random(args.seed)
    print(f"Python {sys.version.split()[0]}; ours against OpenSpiel's C++ MCTSBot")
    print(f"{args.games} games per pairing, alternating X and O; score: win 1, draw 1/2")
    print(
        f"{'pairing (first named scores)':<32} {'score':<9} {'share':>5}  "
        "wall s median/max, CPU s median/max"
    )
    seeds = iter(range(args.seed * 1_000_000, 2**31))
    for level in args.levels:
        for sims in args.sims:
            tally = match(
                game,
                args.games,
                functools.partial(our_player, level, rng),
                functools.partial(spiel_mcts, game, sims, seeds),
            )
            print(row(f"{level} vs OpenSpiel MCTS {sims}", tally), flush=True)
    if not args.no_ladder:
        levels = list(ut.DIFFICULTIES)
        for lower, upper in itertools.pairwise(levels):
            tally = match(
                game,
                args.games,
                functools.partial(our_player, lower, rng),
                functools.partial(our_player, upper, rng, Tally()),
            )
            print(row(f"{lower} vs {upper}", tally), flush=True)
        tally = match(
            game,
            args.games,
            functools.partial(our_player, ut.EASY, rng),
            functools.partial(random_player, rng),
        )
        print(row("easy vs random", tally), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
