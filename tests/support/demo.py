"""`python -m bot --demo` in a process of its own, for the demo's tests."""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
URL_LINE = re.compile(rb"Demo running: open (http://127\.0\.0\.1:\d+/#\S+)")
START_TIMEOUT = 30  # seconds for the demo to print its URL


@contextmanager
def running_demo() -> Iterator[tuple[subprocess.Popen[bytes], str, bytes]]:
    """`run_demo` on a free port: the process, the URL it logged, and what it printed so far.
    The process is killed on the way out if it is still running."""
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
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
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
        process.kill()
        process.wait()
