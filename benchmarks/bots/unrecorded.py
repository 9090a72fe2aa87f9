"""Ours with finished games not recorded: `python -m bot` with the records writer's submit() a
no-op, to tell what recording costs a process (benchmarks/real_process.py's ours-unrecorded).

    python fake_discord/launch.py URL benchmarks/bots/unrecorded.py

Everything else is as `python -m bot` runs: the database is opened and migrated at start-up.
"""

from __future__ import annotations

import runpy
import sys

from benchmarks.lib.ours import RecordWriter


def main() -> None:
    RecordWriter.submit = lambda self, record: None  # type: ignore[method-assign,assignment]
    sys.argv = ["bot"]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
