"""Python code run in a fresh interpreter from the repository's root: for what only a new
process shows (which modules a start-up loads; a setting that holds for the threads started
after it)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.bot_process import REPO


def run_python(code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`code` run with `args` as sys.argv[1:]; its output as text. CalledProcessError if it
    fails."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
