# Typing only: tells mypy that tests/ is a package, so tests/support is "tests.support" whether
# it is named on the command line or imported (benchmarks/). No tests/__init__.py: pytest
# imports the test modules and bot_helpers.py from tests/ as top-level modules.
