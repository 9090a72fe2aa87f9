"""A real, throwaway PostgreSQL server for the tests, started by the tests themselves.

Debian's binaries (initdb, pg_ctl, postgres, psql: the `postgresql` package) make a cluster in a
fresh temporary directory, listening on a free loopback port with its unix socket in that
directory, so it never meets a system cluster. PostgreSQL refuses to run as root: as root the
directory is given to the `postgres` user and every command runs as that user (runuser).
Durability is off (fsync, full_page_writes): a crash loses a test's data, which is thrown away
anyway, and the server starts and writes much faster.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

SUPERUSER = "postgres"


def find_bindir() -> Path | None:
    """Where initdb and pg_ctl are: pg_config's bindir, else the newest /usr/lib/postgresql/*."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        result = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True)
        if result.returncode == 0:
            candidates.append(Path(result.stdout.strip()))
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
        reverse=True,
    )
    candidates += versions
    for bindir in candidates:
        if all((bindir / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres", "psql")):
            return bindir
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One cluster in its own temporary directory. `url(database)` for SQLAlchemy."""

    def __init__(self, bindir: Path, settings: dict[str, str] | None = None) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="tictactoe-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self.settings = {
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(self.root),
            "fsync": "off",
            "full_page_writes": "off",
            "synchronous_commit": "off",
            "max_connections": "50",
            "shared_buffers": "32MB",
            **(settings or {}),
        }
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            user = pwd.getpwnam(SUPERUSER)
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        )

    def _command(self, tool: str, *args: str) -> list[str]:
        command = [str(self.bindir / tool), *args]
        return ["runuser", "-u", SUPERUSER, "--", *command] if self._as_postgres else command

    def _run(self, tool: str, *args: str) -> str:
        result = subprocess.run(
            self._command(tool, *args), cwd=self.root, capture_output=True, text=True, timeout=120
        )
        if result.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{tool} failed: {result.stdout}{result.stderr}\n{log}")
        return result.stdout

    def start(self) -> None:
        options = " ".join(f"-c {name}={value}" for name, value in self.settings.items())
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            f"-p {self.port} {options}",
            "-w",
            "start",
        )

    def stop(self) -> None:
        """A fast shutdown: open connections are cut, as when a database host goes down."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        result = subprocess.run(
            self._command("pg_ctl", "-D", str(self.data), "status"),
            cwd=self.root,
            capture_output=True,
        )
        return result.returncode == 0

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one statement as the superuser through psql; its output, unaligned."""
        return self._run(
            "psql",
            "-h",
            str(self.root),
            "-p",
            str(self.port),
            "-U",
            SUPERUSER,
            "-d",
            database,
            "-X",
            "-q",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-c",
            statement,
        ).strip()

    def url(self, database: str) -> str:
        return f"postgresql+asyncpg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    @contextlib.contextmanager
    def database(self, name: str, *, tablespace: str | None = None) -> Iterator[str]:
        """A new empty database for the duration; its URL."""
        where = f" TABLESPACE {tablespace}" if tablespace else ""
        self.sql(f"CREATE DATABASE {name} TEMPLATE template0{where}")
        try:
            yield self.url(name)
        finally:
            if self.running():
                self.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def signal_all(self, signum: signal.Signals) -> None:
        """Send a signal to the server and every one of its processes (SIGSTOP: a hung host)."""
        postmaster = self.postmaster_pid()
        pids = [postmaster]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                        pids.append(int(entry.name))
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)

    def destroy(self) -> None:
        if self.data.exists() and self.running():
            with contextlib.suppress(RuntimeError):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def start_server(settings: dict[str, str] | None = None) -> PostgresServer | None:
    """A running server, or None when PostgreSQL is not installed."""
    bindir = find_bindir()
    if bindir is None:
        return None
    server = PostgresServer(bindir, settings)
    try:
        server.start()
    except BaseException:
        server.destroy()
        raise
    return server


MISSING = (
    "PostgreSQL is not installed (no initdb/pg_ctl/psql in pg_config --bindir or "
    "/usr/lib/postgresql/*/bin): apt-get install postgresql"
)


def start_or_skip() -> PostgresServer:
    """A running server; without PostgreSQL installed, skip the test, or fail it in CI (where
    .ci/run installs it, so its absence is a broken CI, not a reason to test less)."""
    import pytest

    server = start_server()
    if server is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL for the records tests. {MISSING}", pytrace=False)
        pytest.skip(MISSING)
    return server
