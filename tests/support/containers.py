"""A fresh Debian 12 for the container and quick-start tests, without a Docker daemon.

`debian_base()` is mmdebstrap's minbase of bookworm with python3, python3-venv and
ca-certificates (what a newcomer's fresh machine and the Dockerfile's plain-Debian base have),
imported as a buildah image. This machine's extra CA certificates (/usr/local/share/ca-certificates,
when present) are added to it, so that pip inside reaches the package index as pip outside does.

The root is cached between runs in CACHE_DIR (a tar, about 220 MB, and the image built from it),
keyed by what it is made of: the suite, the packages and those certificates. A cache older than
MAX_AGE is made again, so that the tests see Debian's current packages. Building it takes about
45 s; importing it, about 15 s.

Everything runs as root with `--isolation chroot` (no user namespace, no runtime: `podman run`
cannot set rlimits in this sandbox), which shares the host's network: a server started inside
listens on this machine's loopback.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

SUITE = "bookworm"
PACKAGES = ("python3", "python3-venv", "ca-certificates")
EXTRA_CA_DIR = Path("/usr/local/share/ca-certificates")
MAX_AGE_SECONDS = 7 * 24 * 3600
BASE_REPOSITORY = "localhost/tictactoe-test-debian"
TOOLS = {"buildah": "buildah", "mmdebstrap": "mmdebstrap"}


def cache_dir() -> Path:
    """TICTACTOE_TEST_CACHE, else $XDG_CACHE_HOME/tictactoe-bot-tests (~/.cache by default)."""
    if explicit := os.environ.get("TICTACTOE_TEST_CACHE"):
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "tictactoe-bot-tests"


def require_tools() -> None:
    """Skip without root, buildah or mmdebstrap; under CI (which installs them), fail instead."""
    missing = [package for tool, package in TOOLS.items() if shutil.which(tool) is None]
    problem = None
    if os.geteuid() != 0:
        problem = "building and running images with --isolation chroot needs root"
    elif missing:
        problem = f"needs {' and '.join(missing)}: apt-get install {' '.join(missing)}"
    if problem is None:
        return
    if "CI" in os.environ:
        pytest.fail(f"CI must run the container tests: {problem}", pytrace=False)
    pytest.skip(problem)


def extra_certificates() -> list[Path]:
    return sorted(EXTRA_CA_DIR.glob("*.crt")) if EXTRA_CA_DIR.is_dir() else []


def base_key() -> str:
    """What the root is made of, as a short hash: a change in any of it makes a new root."""
    recipe = {
        "suite": SUITE,
        "variant": "minbase",
        "packages": PACKAGES,
        "certificates": {
            path.name: hashlib.sha256(path.read_bytes()).hexdigest()
            for path in extra_certificates()
        },
    }
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()[:12]


def run(
    command: Sequence[str], *, timeout: float = 600, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run a command; on failure, fail the test with its output (the last of it)."""
    result = subprocess.run(
        list(command), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    if check and result.returncode != 0:
        output = (result.stdout + result.stderr)[-4000:]
        pytest.fail(
            f"{' '.join(command[:3])} … exited {result.returncode}:\n{output}", pytrace=False
        )
    return result


@contextlib.contextmanager
def locked(directory: Path) -> Iterator[None]:
    """One builder at a time: tests in other processes wait rather than build the same root."""
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def build_root_tar(target: Path) -> None:
    hooks = []
    certificates = extra_certificates()
    if certificates:
        hooks += [
            '--customize-hook=mkdir -p "$1/usr/local/share/ca-certificates"',
            "--customize-hook=copy-in "
            + " ".join([*map(str, certificates), "/usr/local/share/ca-certificates"]),
            '--customize-hook=chroot "$1" update-ca-certificates',
        ]
    partial = target.with_suffix(".partial")
    run(
        [
            "mmdebstrap",
            "--variant=minbase",
            f"--include={','.join(PACKAGES)}",
            "--format=tar",
            *hooks,
            SUITE,
            str(partial),
        ],
        timeout=900,
    )
    partial.rename(target)


def image_exists(name: str) -> bool:
    return run(["buildah", "inspect", "--type", "image", name], check=False).returncode == 0


def debian_base() -> str:
    """The base image's name, made (or made again, when stale) and imported as needed."""
    require_tools()
    directory = cache_dir()
    key = base_key()
    tar = directory / f"debian-{SUITE}-{key}.tar"
    with locked(directory):
        if tar.exists() and time.time() - tar.stat().st_mtime > MAX_AGE_SECONDS:
            tar.unlink()
        if not tar.exists():
            for stale in directory.glob(f"debian-{SUITE}-*.tar"):
                stale.unlink()
            build_root_tar(tar)
        image = f"{BASE_REPOSITORY}:{key}-{int(tar.stat().st_mtime)}"
        if not image_exists(image):
            remove_images(BASE_REPOSITORY)
            container = run(["buildah", "from", "scratch"]).stdout.strip()
            try:
                run(["buildah", "add", "--quiet", container, str(tar), "/"])
                run(["buildah", "config", "--cmd", "/bin/bash", container])
                run(["buildah", "commit", "--quiet", "--rm", container, image])
            except BaseException:
                run(["buildah", "rm", container], check=False)
                raise
    return image


def remove_images(repository: str) -> None:
    """Every tag of `repository` in buildah's store (an older base, say)."""
    listing = run(["buildah", "images", "--format", "{{.Name}}:{{.Tag}}"], check=False).stdout
    for name in listing.split():
        if name.startswith(f"{repository}:"):
            run(["buildah", "rmi", "--force", name], check=False)


@contextlib.contextmanager
def working_container(image: str) -> Iterator[str]:
    """A container of `image` (a fresh copy of its root), removed afterwards."""
    container = run(["buildah", "from", "--pull=false", image]).stdout.strip()
    try:
        yield container
    finally:
        run(["buildah", "rm", container], check=False)
