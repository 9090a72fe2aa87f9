"""The process's heap, as glibc's malloc keeps it: what the bot does so that its RSS is what it
uses. Both are no-ops where malloc is not glibc's (musl, macOS)."""

from __future__ import annotations

import ctypes
from typing import Any

_M_ARENA_MAX = -8  # mallopt()'s parameter number (glibc's malloc.h)


def share_one_heap() -> bool:
    """Have every thread allocate from the one main heap (glibc's M_ARENA_MAX = 1); call it
    before any thread starts. glibc otherwise gives each thread that allocates (SQLite's, the
    executor's) an arena of its own, whose free pages stay in the RSS (docs/performance.md).
    Its threads rarely allocate at the same time (the GIL serializes most of it). True if set."""
    mallopt = _libc_function("mallopt")
    return mallopt is not None and mallopt(_M_ARENA_MAX, 1) == 1


def release_freed_memory() -> None:
    """Give the heap's free pages back to the system (glibc's malloc_trim): the start-up (the
    catalogs read, the command sync's payloads, the engine's solving) frees more than a running
    bot allocates again, and without this it would stay in the process's RSS."""
    trim = _libc_function("malloc_trim")
    if trim is not None:
        trim(0)


def _libc_function(name: str) -> Any:
    try:
        return getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):  # not glibc: nothing to tune this way
        return None
