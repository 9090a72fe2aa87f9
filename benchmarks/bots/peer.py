"""The peer: discord.py's own examples/views/tic_tac_toe.py, run as its bot, in a process.

    python fake_discord/launch.py URL benchmarks/bots/peer.py path/to/tic_tac_toe.py

The example's module is run as it is (its TicTacToe view and its commands.Bot), except its
last line, `bot.run('token')`: this script runs the bot with DISCORD_TOKEN instead, and adds
one slash command, /tic, doing what the example's `$tic` prefix command does (a benchmark
drives interactions only). The example's source is not part of this repository: see
benchmarks/real_process.py for how to get it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import discord


def load_example(path: str) -> dict[str, Any]:
    """The example's module namespace, its bot built but not run."""
    namespace: dict[str, Any] = {"__name__": "tic_tac_toe_example", "__file__": path}
    run = discord.Client.run
    discord.Client.run = lambda *args, **kwargs: None  # type: ignore[method-assign]
    try:
        exec(compile(Path(path).read_text(), path, "exec"), namespace)
    finally:
        discord.Client.run = run  # type: ignore[method-assign]
    return namespace


def main() -> None:
    example = load_example(sys.argv[1])
    bot, board = example["bot"], example["TicTacToe"]

    @bot.tree.command(name="tic", description="Starts a tic-tac-toe game with yourself.")
    async def tic(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Tic Tac Toe: X goes first", view=board())

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook
    bot.run(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    main()
