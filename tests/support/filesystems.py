"""Real filesystem faults for the records tests: a small tmpfs that can be filled up or
remounted read-only. Mounting needs root with CAP_SYS_ADMIN; without it the tests that need it
skip and say why."""

from __future__ import annotations

import contextlib
import errno
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def tmpfs(path: Path, size: str, options: str = "mode=0777") -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},{options}", "tmpfs", str(path)],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({result.stderr.strip()}): needs CAP_SYS_ADMIN")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def remount(path: Path, mode: str) -> None:
    """`ro` or `rw`: the whole filesystem at once, as when a disk turns read-only on errors."""
    subprocess.run(["mount", "-o", f"remount,{mode}", str(path)], check=True)


def fill(directory: Path) -> Path:
    """Write a file until the filesystem has no space left; the file, to delete later."""
    filler = directory / "filler"
    with filler.open("wb", buffering=0) as file:
        for size in (1024 * 1024, 4096, 1):  # big blocks, then what is left
            try:
                while file.write(b"\0" * size):
                    pass
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
    return filler
