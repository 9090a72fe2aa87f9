"""Building the bot for SimCord, reading a board message as a user sees it, clicking it."""

from __future__ import annotations

import random
from typing import Any

import discord

import tictactoe as ttt
from bot.client import TicTacToeBot
from bot.settings import Settings

GAME_TIMEOUT = 600
MARKS = {"X": ttt.X, "O": ttt.O}


def make_bot(seed: int = 0, guild_id: int | None = None) -> TicTacToeBot:
    """The real bot, with a seeded AI and no real token (SimCord never checks it)."""
    settings = Settings(
        token="not-a-real-token", guild_id=guild_id, game_timeout_seconds=GAME_TIMEOUT
    )
    return TicTacToeBot(settings, rng=random.Random(seed))


def walk(components: list[Any]) -> list[Any]:
    """Every component of a message in document order, nested V2 layouts included."""
    found: list[Any] = []
    for component in components:
        found.append(component)
        found.extend(walk(list(getattr(component, "children", None) or [])))
    return found


def buttons(message: discord.Message) -> list[discord.Button]:
    return [c for c in walk(message.components) if isinstance(c, discord.Button)]


def text(message: discord.Message) -> str:
    """What a user reads: the content and every text display."""
    parts = [message.content] if message.content else []
    parts += [c.content for c in walk(message.components) if isinstance(c, discord.TextDisplay)]
    return "\n".join(parts)


def accent(message: discord.Message) -> int | None:
    containers = [c for c in message.components if isinstance(c, discord.Container)]
    assert len(containers) == 1
    colour = containers[0].accent_colour
    return None if colour is None else colour.value


def cell_buttons(message: discord.Message) -> list[list[discord.Button]]:
    cells = buttons(message)[:9]
    assert len(cells) == 9, f"expected 9 cells, got {len(cells)}"
    return [cells[0:3], cells[3:6], cells[6:9]]


def board_of(message: discord.Message) -> list[list[str | None]]:
    """The marks shown on the cells, as an engine board."""
    return [[MARKS.get(cell.label or "") for cell in row] for row in cell_buttons(message)]


def control_labels(message: discord.Message) -> list[str]:
    return [button.label or "" for button in buttons(message)[9:]]


def green_cells(message: discord.Message) -> set[tuple[int, int]]:
    return {
        (i, j)
        for i, row in enumerate(cell_buttons(message))
        for j, cell in enumerate(row)
        if cell.style is discord.ButtonStyle.success
    }


def snapshot(message: discord.Message) -> tuple[str, list[tuple[Any, ...]]]:
    """What a user sees of a message: its text and every button's look and state."""
    return text(message), [
        (b.custom_id, str(b.emoji), b.label, b.style, b.disabled) for b in buttons(message)
    ]


def is_over(message: discord.Message) -> bool:
    return "Rematch" in control_labels(message) or not any(
        label in ("Resign",) for label in control_labels(message)
    )


async def click_cell(actor, message: discord.Message, cell: tuple[int, int]):
    i, j = cell
    return await actor.click(message, custom_id=cell_buttons(message)[i][j].custom_id)


async def click_control(actor, message: discord.Message, label: str):
    (button,) = [b for b in buttons(message)[9:] if b.label == label]
    return await actor.click(message, custom_id=button.custom_id)
