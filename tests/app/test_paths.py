"""Every file or directory of this repository that the README, the docs beside it, the
requirements files, CI's script and the deployment files name exists: a reader who follows one
finds it (issue 34 found `tests/test_deploy.py` and `tests/support/postgres.py`, both moved)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = (
    "README.md",
    "docs/operations.md",
    "docs/records.md",
    "docs/engine.md",
    "docs/translating.md",
    "requirements.txt",
    "requirements-bot.txt",
    "requirements-dev.txt",
    ".ci/run",
    "Dockerfile",
    "compose.yaml",
    "deploy/Procfile.shards",
    "deploy/tictactoe-bot@.service",
)
# A file of the repository named alone, without its directory: kinds a reader looks for.
FILE_SUFFIXES = ("py", "pyi", "txt", "md", "yaml", "yml", "json", "service", "png", "toml")
# A word that runs on from one of these is not a path of this repository: part of a URL
# (`https://host/...`, `user@host:5432/db`), an absolute path (`/etc/...`), a shell variable
# (`$venv/bin`), a printf-style or template placeholder (`%s/healthz`, `<code>/LC_MESSAGES`).
NOT_BEFORE = r"[\w.:/@<>+$%~-]"
PATH_WORD = re.compile(
    rf"(?<!{NOT_BEFORE})"
    r"((?:\.?[\w-]+/)+(?:[\w.@-]*[\w@])?/?"  # with a slash: bot/records/writer.py, docs/, .ci/run
    rf"|[\w@-]+(?:\.[\w@-]+)*\.(?:{'|'.join(FILE_SUFFIXES)}))"  # a file's name: compose.yaml
    r"(?![\w/<>-])"
)
# Names with a file's suffix that are not this repository's files.
OTHER_NAMES = {
    "discord.py",  # the library
    "postgresql.service",  # PostgreSQL's own unit, which the bot's starts after
}


def repository_files() -> list[str]:
    """The repository's files, committed or not (a fresh clone's, plus new ones)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [name for name in listed.splitlines() if (REPO / name).exists()]


def named_paths(text: str, top_level: set[str]) -> set[str]:
    """The paths of this repository that `text` names: words with a slash whose first part is
    one of the repository's top-level entries or that end as a file does, and files named
    alone by a known suffix."""
    paths = set()
    for match in PATH_WORD.finditer(text):
        word = match[1]
        if "/" in word:
            first = word.split("/", 1)[0]
            if first in top_level or word.rstrip("/").rsplit(".", 1)[-1] in FILE_SUFFIXES:
                paths.add(word)
        elif word not in OTHER_NAMES:
            paths.add(word)
    return paths


def missing_paths(text: str, files: list[str]) -> list[str]:
    top_level = {name.split("/", 1)[0] for name in files}
    names = {name.rsplit("/", 1)[-1] for name in files}
    missing = []
    for path in sorted(named_paths(text, top_level)):
        # A file named alone may be at the root or anywhere, by its name.
        if not (REPO / path).exists() and ("/" in path or path not in names):
            missing.append(path)
    return missing


def test_every_path_the_documents_name_exists():
    files = repository_files()
    missing = {
        document: paths
        for document in DOCUMENTS
        if (paths := missing_paths((REPO / document).read_text(encoding="utf-8"), files))
    }
    assert missing == {}


def test_a_moved_file_is_caught_and_words_that_are_no_paths_are_not():
    files = repository_files()
    text = """
        The deployment files' checks (tests/test_deploy.py), `tests/deploy/test_deploy.py`;
        initdb and pg_ctl (tests/support/postgres.py), [docs](docs/operations.md), `Dockerfile`,
        compose.yaml, requirments-dev.txt, deploy/tictactoe-bot@.service, docs/screenshots/.
        Not paths here: https://discord.com/developers/applications, /etc/tictactoe-bot/env,
        sqlite+aiosqlite:///path/to/records.db, postgresql+asyncpg://user:pw@host:5432/database,
        ghcr.io/<owner>/<repository>:1.2.3, linux/amd64, wins/draws/losses, $venv/bin/python,
        `bot/i18n/locales/<code>/LC_MESSAGES/bot.po`, 'http://127.0.0.1:%s/healthz', .venv/bin.
    """
    assert missing_paths(text, files) == [
        "requirments-dev.txt",
        "tests/support/postgres.py",
        "tests/test_deploy.py",
    ]
    top_level = {name.split("/", 1)[0] for name in files}
    assert named_paths(text, top_level) == {
        "tests/test_deploy.py",
        "tests/deploy/test_deploy.py",
        "tests/support/postgres.py",
        "docs/operations.md",
        "compose.yaml",
        "requirments-dev.txt",
        "deploy/tictactoe-bot@.service",
        "docs/screenshots/",
    }


MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", flags=re.MULTILINE)


def heading_anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, spaces to hyphens, punctuation
    (backticks, slashes, colons, commas, apostrophes) dropped."""
    return {
        re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        for heading in HEADING.findall(re.sub(r"```.*?```", "", markdown, flags=re.DOTALL))
    }


def broken_links(document: str) -> list[str]:
    """The links of a Markdown file of this repository to a file that does not exist, or to a
    heading that its page does not have."""
    source = REPO / document
    broken = []
    for target in MARKDOWN_LINK.findall(source.read_text(encoding="utf-8")):
        if "://" in target:
            continue
        path, _, anchor = target.partition("#")
        page = (source.parent / path).resolve() if path else source
        if not page.exists():
            broken.append(target)
            continue
        if anchor and anchor not in heading_anchors(page.read_text(encoding="utf-8")):
            broken.append(target)
    return broken


def test_every_link_between_the_documents_reaches_its_page_and_heading():
    markdown = [document for document in DOCUMENTS if document.endswith(".md")]
    assert {document: broken_links(document) for document in markdown} == {
        document: [] for document in markdown
    }
    # The headings the code and the tests send readers to.
    assert {"set-up-and-run", "how-to-play", "settings", "run-it-with-docker"} <= heading_anchors(
        (REPO / "README.md").read_text(encoding="utf-8")
    )
