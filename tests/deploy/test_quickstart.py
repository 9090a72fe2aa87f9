"""The README's quick start, verbatim, on a fresh Debian 12 that has only python3 and python3-venv
(the newcomer's machine of issue 21): its install command, then its demo command, which must
serve the demo's page; then the developers' install, whose test command must collect every test.
The commands are read from README.md, so the test runs what the README says. Needs root, buildah,
mmdebstrap and the package indexes (see tests/support/containers.py); about a minute and a half,
most of it pip downloading and installing."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

from testdb.postgres import free_port
from tests.support.containers import (
    buildah_run,
    copy_repository,
    debian_base,
    run,
    running,
    stop_inner_process,
    working_container,
)

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
WORKDIR = "/root/tictactoe-bot"
DEMO_URL = re.compile(r"open (http://127\.0\.0\.1:\d+/\S*) in a browser")


def first_bash_block(text: str) -> list[str]:
    block = re.search(r"```bash\n(.*?)```", text, flags=re.DOTALL)
    assert block, text[:200]
    return block[1].strip().splitlines()


def commands_under(heading: str) -> list[str]:
    """The lines of the first ```bash block after the heading `## {heading}`."""
    return first_bash_block(README.read_text().split(f"\n## {heading}\n", 1)[1])


def developers_commands() -> list[str]:
    """The lines of the first ```bash block of "Development": run in the quick start's venv."""
    return commands_under("Development")


def test_the_readme_makes_the_venv_once_and_runs_everything_from_it():
    install, demo = commands_under("See it in one minute")
    assert demo.endswith(" -m bot --demo")
    make_venv, _, pip_install = install.partition(" && ")
    assert make_venv == "python3 -m venv .venv"
    assert README.read_text().count(make_venv) == 1
    (run_bot,) = commands_under("Set up and run")
    assert run_bot == demo.removesuffix(" --demo")
    # The developers install their tools into that venv, with the same pip command.
    dev_install, dev_test = developers_commands()
    assert dev_install == pip_install.replace("requirements.txt", "requirements-dev.txt")
    assert dev_test == demo.replace(" -m bot --demo", " -m pytest")


def test_the_quick_start_works_verbatim_on_a_fresh_debian():
    base = debian_base()
    install, demo = commands_under("See it in one minute")
    with working_container(base) as container:
        # The fresh machine: python3, but no `python` and no pip.
        for missing in ("python", "pip", "pip3"):
            found = run(buildah_run(container, ["sh", "-c", f"command -v {missing}"]), check=False)
            assert found.returncode != 0, missing
        copy_repository(container, WORKDIR)
        run(buildah_run(container, ["sh", "-ec", install], workdir=WORKDIR), timeout=900)
        port = free_port()
        # No browser in a chroot: print the address instead, on a free port.
        command = f"{demo} --no-browser --port {port}"
        with running(
            buildah_run(container, ["sh", "-c", command], workdir=WORKDIR)
        ) as demo_process:
            output = demo_process.read_until(DEMO_URL)
            url = DEMO_URL.search(output)[1]  # type: ignore[index]
            with urllib.request.urlopen(url.partition("#")[0], timeout=10) as page:
                assert page.status == 200
                assert "<title>SimCord Preview</title>" in page.read().decode()
            assert stop_inner_process(demo_process, "python") == 0
        # Then the developers' commands, in the same clone and venv: their install verbatim, and
        # their test command collecting every test (running them all is CI's own job).
        dev_install, dev_test = developers_commands()
        run(buildah_run(container, ["sh", "-ec", dev_install], workdir=WORKDIR), timeout=900)
        collected = run(
            buildah_run(container, ["sh", "-c", f"{dev_test} --collect-only -q"], workdir=WORKDIR)
        ).stdout
        assert re.search(r"^\d+ tests collected", collected, flags=re.MULTILINE), collected[-2000:]
