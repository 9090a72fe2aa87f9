"""Run a bot process under cProfile between two signals, to profile a measured phase only.

    python fake_discord/launch.py URL benchmarks/bots/profiled.py OUT.pstats -m bot
    python fake_discord/launch.py URL benchmarks/bots/profiled.py OUT.pstats SCRIPT [ARG]...

SIGUSR1 starts profiling the main thread, SIGUSR2 stops it and writes the statistics to OUT.
"""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
from types import FrameType

profiler = cProfile.Profile()
output = ""  # where SIGUSR2 writes the statistics


def start(signum: int, frame: FrameType | None) -> None:
    profiler.enable()


def stop(signum: int, frame: FrameType | None) -> None:
    profiler.disable()
    profiler.dump_stats(output)


def main() -> None:
    global output
    output = sys.argv[1]
    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    target = sys.argv[2:]
    if target[0] == "-m":
        sys.argv = [target[1], *target[2:]]
        runpy.run_module(target[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = target
        runpy.run_path(target[0], run_name="__main__")


if __name__ == "__main__":
    main()
