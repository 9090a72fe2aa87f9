"""The floor: the least discord.py allows for a click, in a process.

    python fake_discord/launch.py URL benchmarks/bots/floor.py

A discord.Client (no command tree, no view) whose on_interaction answers /tic with a prebuilt
board of nine buttons, and every button click with one fixed message update, both through the
call discord.py's InteractionResponse methods end in (the webhook adapter's
create_interaction_response) with a prebuilt JSON body. The board never changes.
"""

from __future__ import annotations

import os
from typing import Any

import discord
from discord.http import MultipartParameters
from discord.webhook.async_ import async_context

Response = discord.InteractionResponseType
BUTTON = discord.ComponentType.button.value
ROW = discord.ComponentType.action_row.value
SECONDARY = discord.ButtonStyle.secondary.value

BOARD: dict[str, Any] = {
    "content": "Tic Tac Toe: X goes first",
    "components": [
        {
            "type": ROW,
            "components": [
                {"type": BUTTON, "style": SECONDARY, "label": "\u200b", "custom_id": f"c{r}{c}"}
                for c in range(3)
            ],
        }
        for r in range(3)
    ],
}
UPDATE: dict[str, Any] = {"content": "It is now O's turn"}
COMMANDS = [{"name": "tic", "description": "Starts a tic-tac-toe game.", "type": 1}]

client = discord.Client(intents=discord.Intents(guilds=True))


async def setup_hook() -> None:
    assert client.application_id is not None
    await client.http.bulk_upsert_global_commands(client.application_id, COMMANDS)


@client.event
async def on_interaction(interaction: discord.Interaction) -> None:
    clicked = interaction.type is discord.InteractionType.component
    kind, data = (Response.message_update, UPDATE) if clicked else (Response.channel_message, BOARD)
    await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=None,
        proxy_auth=None,
        params=MultipartParameters(
            payload={"type": kind.value, "data": data}, multipart=None, files=None
        ),
    )


client.setup_hook = setup_hook  # type: ignore[method-assign]

if __name__ == "__main__":
    client.run(os.environ["DISCORD_TOKEN"])
