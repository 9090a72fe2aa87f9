"""Run a discord.py bot against a fake Discord at URL instead of discord.com:

    python fake_discord/launch.py URL [--hide PACKAGE]... -m MODULE [ARG]...
    python fake_discord/launch.py URL [--hide PACKAGE]... SCRIPT.py [ARG]...

Points discord.py's REST base (URL/api/v10) and its default gateway (ws://.../gateway) at URL,
then runs MODULE or SCRIPT as `python -m MODULE` or `python SCRIPT` would, with ARGs as its
sys.argv[1:]. `--hide orjson` runs as if a package were not installed (here, discord.py then
uses the standard library's json), to compare with and without it in one environment.

One file that imports only discord.py and the standard library, on purpose: it runs as a plain
path too, e.g. copied into a container image that has the bot but not this repository.
"""

from __future__ import annotations

import os
import runpy
import sys

USAGE = "usage: python launch.py URL [--hide PACKAGE]... (-m MODULE | SCRIPT) [ARG]..."


def main(argv: list[str]) -> None:
    if len(argv) < 2 or not argv[0].startswith("http"):
        sys.exit(USAGE)
    url, rest = argv[0].rstrip("/"), argv[1:]
    while len(rest) >= 2 and rest[0] == "--hide":
        sys.modules[rest[1]] = None  # type: ignore[assignment]  # `import` raises ImportError
        rest = rest[2:]
    if not rest or (rest[0] == "-m" and len(rest) < 2):
        sys.exit(USAGE)

    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"{url}/api/v10"
    gateway = "ws" + url.removeprefix("http") + "/gateway"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    if rest[0] == "-m":
        sys.argv = [rest[1], *rest[2:]]
        sys.path[0] = os.getcwd()  # as `python -m` does
        runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = rest
        sys.path[0] = os.path.dirname(os.path.abspath(rest[0]))  # as `python SCRIPT` does
        runpy.run_path(rest[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
