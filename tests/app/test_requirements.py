"""The requirements files: hosts install the bot alone, newcomers the bot and its demo.

requirements-bot.txt must hold everything the bot imports to run on Discord and nothing of the
demo (SimCord's preview brings PyAV, 118 MB); requirements.txt adds the demo on top of it, and
requirements-dev.txt the tests on top of that.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT_ONLY, WITH_DEMO, DEV = "requirements-bot.txt", "requirements.txt", "requirements-dev.txt"
# Imported by `python -m bot` only for --demo.
DEMO_MODULES = [ROOT / "bot" / "demo.py", ROOT / "bot" / "demo_sync.py"]
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirements(file: str) -> set[str]:
    """The distributions a requirements file installs by name, its -r includes followed."""
    names: set[str] = set()
    for raw in (ROOT / file).read_text(encoding="utf-8").splitlines():
        line = raw.partition("#")[0].strip()
        if line.startswith("-r "):
            names |= requirements(line.removeprefix("-r ").strip())
        elif line:
            match = _NAME.match(line)
            assert match, line
            names.add(canonical(match.group()))
    return names


def included(file: str) -> list[str]:
    text = (ROOT / file).read_text(encoding="utf-8")
    return re.findall(r"^-r (\S+)$", text, flags=re.MULTILINE)


def third_party_imports(paths: list[Path]) -> set[str]:
    """Top-level modules imported by `paths` that are neither this project's nor stdlib's."""
    modules = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                modules |= {alias.name.partition(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules.add(node.module.partition(".")[0])
    ours = {"bot", "tictactoe", "__future__"}
    return {m for m in modules if m not in ours and m not in sys.stdlib_module_names}


def test_the_bot_alone_installs_nothing_of_the_demo():
    bot_only = requirements(BOT_ONLY)
    assert {"discord-py", "babel", "python-dotenv", "aiohttp"} <= bot_only
    assert not bot_only & {"simcord", "av", "markdown-it-py", "playwright"}
    assert included(BOT_ONLY) == []


def test_the_bot_alone_has_every_package_the_bot_imports():
    sources = [path for path in (ROOT / "bot").rglob("*.py") if path not in DEMO_MODULES]
    distributions = packages_distributions()
    needed = {canonical(distributions[module][0]) for module in third_party_imports(sources)}
    assert needed
    assert needed <= requirements(BOT_ONLY), needed - requirements(BOT_ONLY)


def test_the_newcomers_install_adds_the_demo_and_the_developers_the_tests():
    assert included(WITH_DEMO) == [BOT_ONLY]
    with_demo = requirements(WITH_DEMO)
    assert {"simcord", "av"} <= with_demo
    assert requirements(BOT_ONLY) < with_demo
    assert included(DEV) == [WITH_DEMO]
    assert {"pytest", "ruff", "mypy"} <= requirements(DEV)
    # The demo's imports are in requirements.txt.
    distributions = packages_distributions()
    demo_needs = {canonical(distributions[m][0]) for m in third_party_imports(DEMO_MODULES)}
    assert demo_needs <= with_demo
