"""`python -m bot --demo` in a process of its own, for the demo's tests."""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
URL_LINE = re.compile(rb"Demo running: open (http://127\.0\.0\.1:\d+/#\S+)")
START_TIMEOUT = 30  # seconds for the demo to print its URL
STOP_TIMEOUT = 30  # seconds for the demo to stop after SIGTERM


@contextmanager
def running_demo(
    temp_dir: Path, *, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], str, bytes]]:
    """`run_demo` on a free port: the process, the URL it logged, and what it printed so far.

    The demo's temporary files go to `temp_dir` (an empty directory). On the way out a demo still
    running is stopped as Ctrl-C or a host stops it (SIGTERM, then a wait), and `temp_dir` must be
    empty again: the demo leaves nothing behind. `env` adds to the environment."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from bot.demo import run_demo; "
            "sys.exit(run_demo(port=0, open_browser=False))",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(temp_dir), **(env or {})},
    )
    try:
        assert process.stderr is not None
        seen = b""
        with selectors.DefaultSelector() as selector:
            selector.register(process.stderr, selectors.EVENT_READ)
            while not (found := URL_LINE.search(seen)):
                assert selector.select(timeout=START_TIMEOUT), f"no URL, only {seen!r}"
                chunk = os.read(process.stderr.fileno(), 4096)
                assert chunk, f"the demo stopped before serving: {seen!r}"
                seen += chunk
        yield process, found.group(1).decode(), seen
    finally:
        stopped_cleanly = stop(process)
    assert stopped_cleanly, f"the demo did not stop within {STOP_TIMEOUT} s of SIGTERM"
    left = sorted(path.name for path in temp_dir.iterdir())
    assert not left, f"the demo left {left} in its temporary directory"


def stop(process: subprocess.Popen[bytes]) -> bool:
    """SIGTERM and wait, as a host stops the demo; kill it only if it does not stop in time
    (then False)."""
    if process.poll() is not None:
        return True
    process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return False
    return True
