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
import queue
import re
import shutil
import signal
import subprocess
import tarfile
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
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


def buildah_run(
    container: str,
    command: Sequence[str],
    *,
    workdir: str | None = None,
    env: dict[str, str] | None = None,
    user: str | None = None,
) -> list[str]:
    """The `buildah run --isolation chroot` command line for `command` in `container`."""
    line = ["buildah", "run", "--isolation", "chroot"]
    if workdir:
        line += ["--workingdir", workdir]
    if user:
        line += ["--user", user]
    for name, value in (env or {}).items():
        line += ["--env", f"{name}={value}"]
    return [*line, container, "--", *command]


def repository_files() -> list[Path]:
    """The repository's files as a fresh clone has them: tracked ones, and new ones that are
    not ignored (no .venv, no caches, no .env), relative to the repository."""
    listing = run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    ).stdout
    return [Path(name) for name in listing.split("\0") if name and (REPO / name).exists()]


def export_repository(target: Path) -> None:
    """A copy of the repository's files (see repository_files) in the directory `target`."""
    for name in repository_files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target / name)


def copy_repository(container: str, target: str) -> None:
    """A copy of the repository's files (see repository_files) into `target` in the container."""
    with tempfile.TemporaryDirectory() as scratch:
        archive = Path(scratch) / "repository.tar"
        with tarfile.open(archive, "w") as tar:
            for name in repository_files():
                tar.add(REPO / name, arcname=str(name), recursive=False)
        run(["buildah", "add", "--quiet", container, str(archive), target])


class Running:
    """A command running in the background, its output (stdout and stderr) read as it comes."""

    def __init__(self, command: Sequence[str]) -> None:
        self.process = subprocess.Popen(
            list(command),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.output = ""
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def read_until(self, pattern: re.Pattern[str], timeout: float = 120) -> str:
        """The output so far, once a line matches `pattern`; fails the test if the command
        ends or `timeout` seconds pass first."""
        deadline = time.monotonic() + timeout
        while not pattern.search(self.output):
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no {pattern.pattern!r} within {timeout} s:\n{self.output[-4000:]}")
            if line is None:
                self.process.wait()
                pytest.fail(
                    f"exited {self.process.returncode} before {pattern.pattern!r}:\n"
                    f"{self.output[-4000:]}"
                )
            self.output += line
        return self.output

    def wait(self, timeout: float = 60) -> int:
        """The exit code, once the command has ended and its output is read."""
        code = self.process.wait(timeout=timeout)
        while (line := self._lines.get(timeout=timeout)) is not None:
            self.output += line
        return code


@contextlib.contextmanager
def running(command: Sequence[str]) -> Iterator[Running]:
    """Start `command`; afterwards, kill whatever of it is left (its process group's members
    inside the chroot included: buildah does not pass signals on)."""
    started = Running(command)
    try:
        yield started
    finally:
        if started.process.poll() is None:
            kill_tree(started.process.pid)
            started.process.wait()


def kill_tree(pid: int) -> None:
    """SIGKILL `pid` and every process below it (buildah does not pass signals on)."""
    for process in [*descendants(pid), pid]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process, signal.SIGKILL)


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, children first."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            # pid (comm) state ppid ...: comm may hold spaces and parentheses.
            fields = stat.read_text().rpartition(")")[2].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, pending = [], [pid]
    while pending:
        for child in children.get(pending.pop(0), []):
            found.append(child)
            pending.append(child)
    return found


def inner_process(pid: int, name: str) -> int:
    """The process named `name` that `buildah run` (process `pid`) runs inside the chroot."""
    named = [
        child
        for child in descendants(pid)
        if Path(f"/proc/{child}/comm").read_text().strip() == name
    ]
    assert len(named) == 1, f"processes named {name!r} under {pid}: {named}"
    return named[0]


def stop_inner_process(started: Running, name: str, signum: int = signal.SIGTERM) -> int:
    """Send `signum` to the process named `name` that runs inside the chroot (as a host's
    `docker stop` sends SIGTERM to the container's command), and return buildah's exit code,
    which is that process's."""
    os.kill(inner_process(started.process.pid, name), signum)
    return started.wait()
