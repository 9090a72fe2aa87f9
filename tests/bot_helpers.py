"""Building the bot for SimCord, reading a board message as a user sees it, clicking it."""

from __future__ import annotations

import random

import discord

import tictactoe as ttt
from bot.client import TicTacToeBot
from bot.settings import Settings

EMOJI_MARKS = {"❌": ttt.X, "⭕": ttt.O}
GAME_TIMEOUT = 600


def make_bot(seed: int = 0, guild_id: int | None = None) -> TicTacToeBot:
    """The real bot, with a seeded AI and no real token (SimCord never checks it)."""
    settings = Settings(
        token="not-a-real-token", guild_id=guild_id, game_timeout_seconds=GAME_TIMEOUT
    )
    return TicTacToeBot(settings, rng=random.Random(seed))


def buttons(message: discord.Message) -> list[list[discord.Button]]:
    return [list(row.children) for row in message.components]  # type: ignore[attr-defined]


def cell_buttons(message: discord.Message) -> list[list[discord.Button]]:
    rows = buttons(message)
    assert len(rows) == 4, f"expected 3 board rows and a control row, got {len(rows)}"
    return rows[:3]


def board_of(message: discord.Message) -> list[list[str | None]]:
    """The marks shown on the buttons, as an engine board."""
    return [
        [EMOJI_MARKS[str(cell.emoji)] if cell.emoji else None for cell in row]
        for row in cell_buttons(message)
    ]


def control_labels(message: discord.Message) -> list[str]:
    return [button.label or "" for button in buttons(message)[3]]


def all_cells_disabled(message: discord.Message) -> bool:
    return all(cell.disabled for row in cell_buttons(message) for cell in row)


def green_cells(message: discord.Message) -> set[tuple[int, int]]:
    return {
        (i, j)
        for i, row in enumerate(cell_buttons(message))
        for j, cell in enumerate(row)
        if cell.style is discord.ButtonStyle.success
    }


def snapshot(message: discord.Message) -> tuple[str, list[list[tuple]]]:
    """What a user sees of a message: its content and every button's look and state."""
    return message.content, [
        [(b.custom_id, str(b.emoji), b.label, b.style, b.disabled) for b in row]
        for row in buttons(message)
    ]


async def click_cell(actor, message: discord.Message, cell: tuple[int, int]):
    i, j = cell
    return await actor.click(message, custom_id=cell_buttons(message)[i][j].custom_id)


async def click_control(actor, message: discord.Message, label: str):
    return await actor.click(message, label=label)
