"""The bot's heap: one arena for every thread (glibc), so that the free pages of SQLite's and the
executor's threads do not each stay in the RSS. Counted by glibc itself (malloc_stats), in a
fresh process: the setting only holds for threads started after it."""

from __future__ import annotations

import platform

import pytest

from tests.support.probe import run_python

pytestmark = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="arenas are glibc's (musl and macOS differ)"
)

THREADS_ALLOCATING = """
import ctypes, sys, threading
from bot.ops.memory import share_one_heap
if sys.argv[1] == "shared":
    assert share_one_heap()
def allocate():
    kept = [bytearray(1000) for _ in range(2000)]  # malloc's, not Python's small-object pool
threads = [threading.Thread(target=allocate) for _ in range(3)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
ctypes.CDLL(None).malloc_stats()  # one "Arena N:" section per arena, on stderr
"""


def arenas(mode: str) -> int:
    return run_python(THREADS_ALLOCATING, mode).stderr.count("Arena ")


def test_threads_allocate_from_the_main_heap_once_the_bot_shares_it():
    assert arenas("default") > 1  # what glibc does on its own: an arena per thread
    assert arenas("shared") == 1
