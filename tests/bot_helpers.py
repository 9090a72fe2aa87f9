"""Building the bot for SimCord, reading a board message as a user sees it (fake_discord/reading.py
on the message's JSON), clicking it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

import discord

import tictactoe as ttt
from bot.app import TicTacToeBot
from bot.ops.metrics import Metrics
from bot.settings import Settings
from fake_discord import Json, reading
from fake_discord.limits import as_json, message_payload, modal_problems, problems

GAME_TIMEOUT = 600
CHALLENGE_TIMEOUT = 60
T = TypeVar("T")
BLANK = "\u2800"  # the label of an empty cell

APOLOGY = "Sorry, something went wrong on my side. Please try again."
STALE = "The board changed before your click landed. Look again."
CELL_TAKEN = "That cell is taken. Pick an empty one."
RESIGN_QUESTION = "Resign this game? Your opponent wins."


class Clock:
    """The bot's monotonic clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_bot(
    seed: int = 0,
    guild_id: int | None = None,
    *,
    shard_count: int = 1,
    shard_ids: tuple[int, ...] | None = None,
) -> TicTacToeBot:
    """The real bot, with a seeded AI and no real token (SimCord never checks it). SimCord
    runs the shards it is given (one by default: it cannot ask Discord for a count)."""
    settings = Settings(
        token="not-a-real-token",
        guild_id=guild_id,
        turn_timeout_seconds=GAME_TIMEOUT,
        shard_count=shard_count,
        shard_ids=shard_ids,
    )
    # Metrics as a host with METRICS_PORT reads them: tests check them in the registry.
    return TicTacToeBot(settings, rng=random.Random(seed), metrics=Metrics(exported=True))


# ------------------------------------------------------------------ reading a message


def _on_message(read: Callable[[Json], T]) -> Callable[[discord.Message], T]:
    """`read` (of fake_discord/reading.py) on a discord.py message, through its JSON."""

    def on_message(message: discord.Message) -> T:
        return read(as_json(message))

    on_message.__doc__ = read.__doc__
    return on_message


# The buttons are JSON: button["label"], button["style"] (a discord.ButtonStyle value), ...
buttons = _on_message(reading.buttons)
texts = _on_message(reading.texts)
text = _on_message(reading.text)
heading = _on_message(reading.heading)
status = _on_message(reading.status)
is_v2 = _on_message(reading.is_v2)
accent = _on_message(reading.accent)
cell_buttons = _on_message(reading.cell_buttons)  # the nine, row by row, in one list
board_of = _on_message(reading.board)
cell_styles = _on_message(reading.cell_styles)
all_cells_enabled = _on_message(reading.all_cells_enabled)
control_labels = _on_message(reading.control_labels)
green_cells = _on_message(reading.green_cells)
snapshot = _on_message(reading.snapshot)
is_over = _on_message(reading.is_over)


def marks_keep_their_colours(message: discord.Message) -> bool:
    """Every cell not on a winning line: X red, O blurple, empty grey; labels X, O or blank."""
    shown = as_json(message)
    colours = {
        ttt.X: discord.ButtonStyle.danger.value,
        ttt.O: discord.ButtonStyle.primary.value,
        None: discord.ButtonStyle.secondary.value,
    }
    labels = {ttt.X: "X", ttt.O: "O", None: BLANK}
    green = reading.green_cells(shown)
    cells = reading.cell_buttons(shown)
    marks = [reading.mark(cell) for cell in cells]
    return all(
        cell.get("label") == labels[mark]
        and (divmod(index, 3) in green or cell["style"] == colours[mark])
        for index, (cell, mark) in enumerate(zip(cells, marks, strict=True))
    )


def message_by_id(channel: Any, message_id: int) -> discord.Message:
    """The message as the channel shows it now (after any edits)."""
    (message,) = [m for m in channel.history() if m.id == message_id]
    return message


def bot_mention(env: Any) -> str:
    return env.bot.user.mention


def command_mention(env: Any, guild_id: int | None = None) -> str:
    """The clickable /tictactoe, with the id Discord (SimCord) gave the command."""
    command = env.backend.find_command("tictactoe", guild_id)
    assert command is not None
    return f"</tictactoe:{command['id']}>"


def deadline(env: Any, seconds: int = GAME_TIMEOUT) -> int:
    """The unix time `seconds` from now, as the bot shows deadlines."""
    return int(env.now().timestamp()) + seconds


CELL_NAMES = (
    ("top left", "top middle", "top right"),
    ("middle left", "centre", "middle right"),
    ("bottom left", "bottom middle", "bottom right"),
)


def last_move(mark: str, cell: tuple[int, int]) -> str:
    """The status line naming the last move (one place to follow the wording)."""
    return f"Last move: **{mark}** → {CELL_NAMES[cell[0]][cell[1]]}."


def turn_line(player: Any, mark: str, env: Any) -> str:
    return f"▶️ {player.mention} to move ({mark}). Time runs out <t:{deadline(env)}:R>."


def not_player(x: str, o: str, env: Any) -> str:
    return (
        f"This game is between {x} and {o}. "
        f"Start your own with {command_mention(env)} once it ends."
    )


def not_player_after(x: str, o: str, env: Any) -> str:
    """A stranger's answer on a finished board: it has ended, so no "once it ends"."""
    return f"This game was between {x} and {o}. Start your own with {command_mention(env)}."


def game_over(env: Any) -> str:
    return f"This game is over. Start a new one with {command_mention(env)}."


def invalid(env: Any) -> str:
    return f"This button is not valid. Start a game with {command_mention(env)}."


def busy(url: str) -> str:
    return (
        f"This channel already has a game on: [see it here]({url}). One game per channel at a time."
    )


def playing_here(url: str) -> str:
    return f"You already have a game on in this channel: [see it here]({url}). Finish it first."


# ------------------------------------------------------------------ Discord's limits


def limit_problems(message: discord.Message) -> list[str]:
    """How a received message breaks Discord's limits on components (empty: it does not)."""
    return problems(message_payload(message))


def check_limits(message: discord.Message) -> None:
    assert not limit_problems(message), limit_problems(message)


def payload_problems(payload: dict[str, Any]) -> list[str]:
    """How a message body sent to Discord breaks its limits (empty: it does not)."""
    return problems(payload)


def sent_messages(env: Any) -> list[dict[str, Any]]:
    """Every message body the bot sent: interaction responses, follow-ups, edits, posts."""
    bodies = []
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict) or request.method not in ("POST", "PATCH"):
            continue
        if request.path.endswith("/callback"):
            if body.get("type") == discord.InteractionResponseType.modal.value:
                continue  # a form, not a message: sent_modals
            body = body.get("data")
        if isinstance(body, dict) and "components" in body:
            bodies.append(body)
    return bodies


def sent_modals(env: Any) -> list[dict[str, Any]]:
    """Every modal the bot answered an interaction with (its `data`)."""
    return [
        request.json["data"]
        for request in env.http_requests
        if request.method == "POST"
        and request.path.endswith("/callback")
        and isinstance(request.json, dict)
        and request.json.get("type") == discord.InteractionResponseType.modal.value
    ]


def check_modals(env: Any) -> None:
    for modal in sent_modals(env):
        assert not modal_problems(modal), (modal_problems(modal), modal)


# ------------------------------------------------------------------ acting


async def click_cell(actor, message: discord.Message, cell: tuple[int, int]):
    button = reading.find_button(as_json(message), cell=cell)
    return await actor.click(message, custom_id=button["custom_id"])


async def click_control(actor, message: discord.Message, label: str):
    (button,) = [b for b in buttons(message)[9:] if b.get("label") == label]
    return await actor.click(message, custom_id=button["custom_id"])


async def click_label(actor, message: discord.Message, label: str):
    """Press the one button labelled `label` (a challenge's, a private answer's)."""
    (button,) = [b for b in buttons(message) if b.get("label") == label]
    return await actor.click(message, custom_id=button["custom_id"])


async def resign(actor, board: discord.Message):
    """Press Resign, then "Yes, resign" on the private question; the second result."""
    asked = await click_control(actor, board, "Resign")
    assert asked.followups[0].ephemeral, asked.followups
    assert asked.followups[0].content == RESIGN_QUESTION
    return await click_label(actor, asked.followups[0].message, "Yes, resign")


# ------------------------------------------------------------------ the previous version

LEGACY_EMOJI = {"X": "❌", "O": "⭕"}


def legacy_id(verb: str, cells: str, x: int, o: int, level: str = "i", ending: str = "-") -> str:
    """A custom_id as the previous version wrote it: ttt:<verb>:<board>:<x>:<o>:<level>:<end>."""
    return f"ttt:{verb}:{cells}:{x}:{o}:{level}:{ending}"


def legacy_board_view(
    cells: str, x: int, o: int, level: str = "i", ending: str = "-", *, over: bool = False
) -> discord.ui.View:
    """The previous version's board: 3 rows of emoji cells and a Resign or Rematch row."""
    view = discord.ui.View(timeout=None)
    for index, code in enumerate(cells):
        view.add_item(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label="\u200b" if code == "-" else None,
                emoji=LEGACY_EMOJI.get(code),
                custom_id=legacy_id(str(index), cells, x, o, level, ending),
                disabled=over or code != "-",
                row=index // 3,
            )
        )
    verb, label = ("m", "Rematch") if over else ("r", "Resign")
    view.add_item(
        discord.ui.Button(
            style=discord.ButtonStyle.primary if over else discord.ButtonStyle.danger,
            label=label,
            custom_id=legacy_id(verb, cells, x, o, level, ending),
            row=3,
        )
    )
    return view


async def post_as_bot(env: Any, channel: Any, content: str, view: discord.ui.View):
    """A message the bot posted itself (a board of the previous version, a forged button)."""
    await env.bot.get_channel(channel.id).send(content, view=view)
    return channel.last_message


async def post_forged(env: Any, channel: Any, custom_id: str, content: str = "a forged board"):
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="forged", custom_id=custom_id))
    return await post_as_bot(env, channel, content, view)
