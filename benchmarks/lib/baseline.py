"""The baseline of the in-process load benchmarks: a minimal discord.py handler answering every
click with one prebuilt message of the same shape as our board."""

from __future__ import annotations

import gc

import discord
from discord import app_commands
from discord.ext import commands

from fake_discord import Json, answer_raw

Response = discord.InteractionResponseType
Kind = discord.ComponentType
V2_FLAG = discord.MessageFlags(components_v2=True).value
STYLE = discord.ButtonStyle

# Cells the baseline's board leaves enabled (it answers every click with the same board).
BASELINE_CELLS = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]


def board_message(shape: str, user_id: int, bot_id: int) -> Json:
    """A message of the same shape as the bot's board, two moves in: 9 cells, controls, text."""
    board = "X---O----"
    cells = []
    for k, cell in enumerate(board):
        button: Json = {
            "type": Kind.button.value,
            "style": STYLE.secondary.value,
            "custom_id": f"ttt:{k}:{board}:{user_id}:0:i:-",
            "disabled": cell != "-",
        }
        if cell == "-":
            button["label"] = "\u200b"
        else:
            button["emoji"] = {"name": "❌" if cell == "X" else "⭕"}
        cells.append(button)
    rows = [{"type": Kind.action_row.value, "components": cells[r : r + 3]} for r in (0, 3, 6)]
    resign: Json = {
        "type": Kind.button.value,
        "style": STYLE.danger.value,
        "custom_id": f"ttt:r:{board}:{user_id}:0:i:-",
        "label": "Resign",
        "emoji": {"name": "🏳️"},
    }
    status = f"❌ <@{user_id}> vs ⭕ <@{bot_id}> · impossible — <@{user_id}> to move (❌)."
    no_pings: Json = {"parse": []}
    if shape == "classic":
        control = {"type": Kind.action_row.value, "components": [resign]}
        return {"content": status, "components": [*rows, control], "allowed_mentions": no_pings}
    rules: Json = {
        "type": Kind.button.value,
        "style": STYLE.secondary.value,
        "custom_id": f"ttt:h:{board}:{user_id}:0:i:-",
        "label": "Rules",
    }
    separator: Json = {"type": Kind.separator.value, "divider": True, "spacing": 1}
    container: Json = {
        "type": Kind.container.value,
        "accent_color": 0x5865F2,
        "components": [
            {"type": Kind.text_display.value, "content": "## Tic-tac-toe"},
            {"type": Kind.text_display.value, "content": status},
            separator,
            *rows,
            separator,
            {"type": Kind.action_row.value, "components": [resign, rules]},
        ],
    }
    return {"flags": V2_FLAG, "components": [container], "allowed_mentions": no_pings}


class BaselineBot(commands.AutoShardedBot):
    """A minimal handler: /tictactoe is answered with a board message of the bot's shape, and
    every button click with one prebuilt message. Sharded as the bot is, with the same state
    class parsing its events."""

    def __init__(self, shape: str) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
        )
        self.shape = shape
        self.answer: Json = {}
        self.add_listener(self.answer_click, "on_interaction")

    async def setup_hook(self) -> None:
        assert self.user is not None
        self.answer = board_message(self.shape, 10**17, self.user.id)  # an id of a user's length
        self.tree.add_command(
            app_commands.Command(name="tictactoe", description="Play", callback=self.post_board)
        )
        await self.tree.sync()
        gc.freeze()  # as the bot does: what is alive at start-up is never scanned again

    async def post_board(self, interaction: discord.Interaction) -> None:
        # Posted as the bot's boards are, in answer to the command: Discord's copy of the
        # message then has the same fields (the command's metadata, later an edit time).
        assert self.user is not None
        board = board_message(self.shape, interaction.user.id, self.user.id)
        await answer_raw(interaction, Response.channel_message, board)

    async def answer_click(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            # InteractionResponse only takes discord.py objects (View, Embed): this is the call
            # its edit_message ends in, the webhook adapter's create_interaction_response, with
            # the JSON body prebuilt (fake_discord.answer_raw).
            await answer_raw(interaction, Response.message_update, self.answer)
