"""`python -m tools.screenshots`: PNGs of the bot's states for the docs, from the real bot.

Each state is a small scenario: a fresh SimCord world (the demo's: #tic-tac-toe, you, a friend, a
stranger), a seeded bot, a few steps by the members, and the member whose screen is captured.
The capture is SimCord's preview page of the channel as that member sees it (their private
answers included), opened in system Chromium by Playwright and cropped to the channel.

To add a state, write an async function taking a `DemoWorld` and returning the viewer, and
decorate it with `@state("NN-name", "what it shows")`. Find buttons by their label or by the
mark they show (see `cells` and `click_button`), never by their position in the message: the
look of the messages will change.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import math
import random
import sys
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
import simcord
from PIL import Image, ImageDraw
from simcord.backend.cdn import CDN_BASE

import tictactoe as ttt
from bot.app import TicTacToeBot
from bot.core import codec as classic_codec
from bot.core.finished import FinishedGame, Place
from bot.core.game import AI, Game
from bot.core.server import PLACEHOLDER_EMOJI_NAME, Look, Mark, ServerSettings
from bot.core.ultimate_game import UltimateGame
from bot.demo import (
    DemoWorld,
    make_recording_demo_bot,
    open_preview,
    setup_world,
)
from bot.demo_sync import quiet_simulation_logs
from bot.kinds.ultimate import codec as ultimate_codec
from bot.records.api import GameRecord
from bot.records.sql.storage import Storage
from bot.ui import card_view
from bot.view import components
from bot.view.board import render_game
from fake_discord import Json, as_json, reading
from tests.support.moves import first_empty
from tictactoe import ultimate

if TYPE_CHECKING:
    from playwright.async_api import Browser, ViewportSize
    from simcord import InteractionResult, MemberActor
    from simcord.preview import Preview

log = logging.getLogger("tools.screenshots")

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "docs" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
# Chromium run as root needs --no-sandbox; the rest keep it offline and quiet.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
    "--disable-quic",
)
VIEWPORT: ViewportSize = {"width": 1100, "height": 1000}
CHANNEL_AREA = "#preview-app"  # SimCord's page minus its toolbar and sidebars
PAGE_READY = "() => window.simcordPreview?.ready === true"

# The marks a cell can show: the letters, and emoji (a state showing a server's own marks adds
# them to LOOK_MARKS, which every state starts without).
MARKS = {"X": ttt.X, "O": ttt.O, "❌": ttt.X, "⭕": ttt.O}
LOOK_MARKS: dict[str, str] = {}
# Custom emoji images a state made, by their CDN address: the preview page shows them.
EMOJI_IMAGES: dict[str, tuple[str, bytes]] = {}
# A blank cell still needs a label on Discord: spaces or an invisible character.
BLANK = " \t\u200b\u2800\u3164"

# A scenario returns whose screen to capture, or that member and the channel to show (a DM).
Scenario = Callable[[DemoWorld], Awaitable["MemberActor | tuple[MemberActor, Any]"]]


@dataclass(frozen=True, slots=True)
class State:
    name: str  # the PNG's file name, without ".png"
    description: str
    scenario: Scenario
    seed: int  # the bot's random choices; fixed, so every run shows the same game
    database_down: bool = False  # the records database answers nothing


STATES: list[State] = []


def state(
    name: str, description: str, *, seed: int = 0, database_down: bool = False
) -> Callable[[Scenario], Scenario]:
    """Register a scenario; states are captured in the order they are declared."""

    def register(scenario: Scenario) -> Scenario:
        if any(existing.name == name for existing in STATES):
            raise ValueError(f"two states are called {name!r}")
        STATES.append(State(name, description, scenario, seed, database_down))
        return scenario

    return register


# ---------------------------------------------------------------- reading and clicking boards


def _buttons(message: discord.Message) -> list[Json]:
    """Every button of a message in reading order, as fake_discord's reader finds them."""
    return reading.buttons(as_json(message))


def _shown(button: Json) -> str:
    """What a button shows: its label without blanks, or else its emoji."""
    label = (button.get("label") or "").strip(BLANK)
    emoji = button.get("emoji")
    return label or (reading.emoji_text(emoji) if emoji else "")


def cells(message: discord.Message) -> list[Json]:
    """The 9 cell buttons, row by row: the buttons that show a mark or nothing at all."""
    found = [button for button in _buttons(message) if _is_cell(button)]
    if len(found) != 9:
        raise LookupError(f"expected 9 cell buttons, found {len(found)} in {message.content!r}")
    return found


def _is_cell(button: Json) -> bool:
    label = (button.get("label") or "").strip(BLANK)
    emoji = reading.emoji_text(button["emoji"]) if button.get("emoji") else ""
    shown = (*MARKS, *LOOK_MARKS)
    return label in ("", *shown) and emoji in ("", *shown) and not (label and emoji)


def read_board(message: discord.Message) -> ttt.Board:
    marks = [MARKS.get(_shown(cell)) or LOOK_MARKS.get(_shown(cell)) for cell in cells(message)]
    return [marks[0:3], marks[3:6], marks[6:9]]


def is_board(message: discord.Message) -> bool:
    try:
        cells(message)
    except LookupError:
        return False
    return True


def board_message(world: DemoWorld) -> discord.Message:
    """The latest public message that shows a board."""
    for message in reversed(world.channel.history()):
        if is_board(message):
            return message
    raise LookupError("no board in the channel")


def is_over(message: discord.Message) -> bool:
    """Finished boards keep their cells at full strength; only a live one offers Resign."""
    return reading.is_over(as_json(message))


async def play(actor: MemberActor, world: DemoWorld, cell: ttt.Action) -> InteractionResult:
    """`actor` clicks `cell` (row, column) on the latest board."""
    return await click_cell_as(actor, board_message(world), cell)


async def click_cell_as(
    actor: MemberActor, message: discord.Message, cell: ttt.Action
) -> InteractionResult:
    """`actor` clicks `cell` (row, column) on the board `message` shows."""
    button = cells(message)[cell[0] * 3 + cell[1]]
    return await actor.click(message, custom_id=button["custom_id"])


async def click_button(actor: MemberActor, message: discord.Message, word: str) -> None:
    """Click the button whose label contains `word` (any case), e.g. "accept", "rematch"."""
    for button in _buttons(message):
        if word.casefold() in (button.get("label") or "").casefold() and button.get("custom_id"):
            await actor.click(message, custom_id=button["custom_id"])
            return
    raise LookupError(f"no {word!r} button on {message.content!r}")


Strategy = Callable[[ttt.Board], ttt.Action]


def perfect(board: ttt.Board) -> ttt.Action:
    move = ttt.minimax(board)
    assert move is not None
    return move


async def play_out(actor: MemberActor, world: DemoWorld, choose: Strategy) -> ttt.Board:
    """Let `actor` pick cells with `choose` until the game on the latest board ends."""
    for _ in range(5):  # one side makes at most 5 moves
        message = board_message(world)
        if is_over(message):
            break
        await play(actor, world, choose(read_board(message)))
    message = board_message(world)
    reached(is_over(message), "the game ended")
    return read_board(message)


def reached(condition: bool, what: str) -> None:
    """Stop when a scenario did not reach its state, rather than write a misleading PNG."""
    if not condition:
        raise RuntimeError(f"scenario did not reach its state: {what}")


async def tictactoe(actor: MemberActor, world: DemoWorld, **options: Any) -> InteractionResult:
    return await actor.slash(world.channel, "tictactoe", **options)


def turn_timeout(world: DemoWorld) -> int:
    bot = world.env.bot
    assert isinstance(bot, TicTacToeBot)
    return bot.settings.turn_timeout_seconds


# ---------------------------------------------------------------- the states


@state("01-new-game", "You typed /tictactoe: an empty board against the bot, your move")
async def new_game(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world)
    return world.you


@state("02-after-move", "You took the top-left corner; the bot answered in the same update")
async def after_move(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world)
    await play(world.you, world, (0, 0))
    return world.you


@state("03-bot-wins", "On impossible, playing the first free cell each turn loses to the bot")
async def bot_wins(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, difficulty="impossible")
    board = await play_out(world.you, world, first_empty)
    reached(ttt.winner(board) == ttt.O, "the bot (O) won")
    return world.you


@state("04-draw", "Perfect play against impossible: a draw")
async def draw(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, difficulty="impossible")
    board = await play_out(world.you, world, perfect)
    reached(ttt.terminal(board) and ttt.winner(board) is None, "a draw")
    return world.you


@state("05-you-win", "Perfect play against easy: you win, the winning line highlighted")
async def you_win(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, difficulty="easy")
    board = await play_out(world.you, world, perfect)
    reached(ttt.winner(board) == ttt.X, "you (X) won")
    return world.you


@state("06-friend-challenge", "You challenged your friend; the invitation as your friend sees it")
async def friend_challenge(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, opponent=world.friend)
    reached(not is_board(world.channel.history()[-1]), "an open challenge, no board yet")
    return world.friend


@state("07-challenge-accepted", "Your friend accepted: the board of a game between two people")
async def challenge_accepted(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, opponent=world.friend)
    await click_button(world.friend, world.channel.history()[-1], "accept")
    reached(is_board(world.channel.history()[-1]), "the challenge became a board")
    return world.you


@state("08-wrong-turn", "Your friend clicked while it was your turn: a private answer to them")
async def wrong_turn(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, opponent=world.friend)
    await click_button(world.friend, world.channel.history()[-1], "accept")
    result = await play(world.friend, world, (1, 1))
    reached(result.ephemeral, "a private answer")
    return world.friend


@state("09-stranger", "Someone outside the game clicked a cell: a private answer to them")
async def stranger(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world)
    await play(world.you, world, (0, 0))
    result = await play(world.stranger, world, (2, 2))
    reached(result.ephemeral, "a private answer")
    return world.stranger


@state("10-rematch", "After losing, you asked for a rematch: a new board under the old one")
async def rematch(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, difficulty="impossible")
    await play_out(world.you, world, first_empty)
    finished = board_message(world)
    await click_button(world.you, finished, "rematch")
    reached(board_message(world).id != finished.id, "a new board")
    return world.you


@state("11-expired", "Nobody moved for the whole timeout: the game expired and froze")
async def expired(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world)
    await play(world.you, world, (0, 0))
    await world.env.advance_time(turn_timeout(world) + 1)
    reached(is_over(board_message(world)), "the game is over")
    return world.you


@state("12-busy-channel", "/tictactoe while your friend's game is on: a private answer with a link")
async def busy_channel(world: DemoWorld) -> MemberActor:
    await tictactoe(world.friend, world)
    result = await tictactoe(world.you, world)
    reached(result.ephemeral, "a private answer")
    return world.you


@state("13-hint", "You pressed Hint: every free cell's outcome, privately, and why")
async def hint(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world)
    await play(world.you, world, (0, 0))
    await play(world.you, world, (2, 2))
    await click_button(world.you, board_message(world), "hint")
    return world.you


@state("14-review", "After the game, Review: each move against perfect play, privately")
async def review(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, difficulty="impossible")
    await play_out(world.you, world, first_empty)
    await click_button(world.you, board_message(world), "review")
    return world.you


async def ask_to_resign(world: DemoWorld) -> None:
    """A game with your friend, you in the centre, then you press Resign."""
    await tictactoe(world.you, world, opponent=world.friend)
    await click_button(world.friend, world.channel.history()[-1], "accept")
    await play(world.you, world, (1, 1))
    await click_button(world.you, board_message(world), "resign")


@state("15-resign-question", "You pressed Resign: a private question before anything ends")
async def resign_question(world: DemoWorld) -> MemberActor:
    await ask_to_resign(world)
    return world.you


@state("16-resigned", "You confirmed: the board shows the result; the question says so")
async def resigned(world: DemoWorld) -> MemberActor:
    await ask_to_resign(world)
    question = world.channel.history(viewer=world.you)[-1]
    await click_button(world.you, question, "yes")
    reached(is_over(board_message(world)), "the game is over")
    return world.you


# ---------------------------------------------------------------- records

# The server's other regulars, for a leaderboard with more than one page.
REGULARS = ("Ada", "Ben", "Chloé", "Dev", "Emil", "Fatima", "Goran", "Hana", "Ivo", "Jun", "Kai")
X_WINS, O_WINS = (0, 3, 1, 4, 2), (3, 0, 4, 1, 8, 2)  # the top row, for X and for O
DRAW = (0, 1, 2, 4, 3, 5, 7, 6, 8)
DAY = 86_400


async def seed_history(world: DemoWorld, *, your_games: int = 40) -> list[MemberActor]:
    """A server where people have played for weeks: you (a settled rating), eleven regulars,
    games against the bot; your friend has played once. Returns the regulars."""
    env = world.env
    regulars = [
        world.guild.add_member(env.create_user(name.lower(), global_name=name)) for name in REGULARS
    ]
    strength = {member.id: rank for rank, member in enumerate([world.you, *regulars])}
    rng = random.Random(16)
    now = env.now().timestamp()
    games: list[GameRecord] = []

    def add(x: int, o: int, moves: tuple[int, ...], level: str | None = None) -> None:
        ended = now - DAY * 30 + len(games) * 3_000
        game_id = ((int(ended * 1000) - discord.utils.DISCORD_EPOCH) << 22) + len(games)
        game = Game.from_moves(x, o, level, moves)
        finished = FinishedGame(game_id, game, ended, world.guild.id, Place.SERVER, False)
        games.append(GameRecord.from_finished(finished))

    for _ in range(your_games):
        opponent = rng.choice(regulars)
        stronger = strength[world.you.id] < strength[opponent.id]
        you_win = rng.random() < (0.75 if stronger else 0.35)
        add(world.you.id, opponent.id, X_WINS if you_win else O_WINS)
    for _ in range(90):
        a, b = rng.sample(regulars, 2)
        first_wins = (strength[a.id] < strength[b.id]) == (rng.random() < 0.7)
        add(a.id, b.id, rng.choice((X_WINS, X_WINS, DRAW)) if first_wins else O_WINS)
    for member in [world.you, *regulars]:
        for _ in range(rng.randrange(1, 6)):
            add(member.id, AI, DRAW, "impossible")  # an unbeaten run against Impossible
        for _ in range(rng.randrange(0, 4)):
            add(member.id, AI, X_WINS, "hard")
    add(world.friend.id, world.you.id, X_WINS)
    bot = env.bot
    assert isinstance(bot, TicTacToeBot)
    assert bot.records is not None
    await bot.records.record(games)
    return regulars


async def recorded(world: DemoWorld) -> None:
    """Wait until the games played in the scenario are in the database."""
    bot = world.env.bot
    assert isinstance(bot, TicTacToeBot)
    assert bot.writer is not None
    reached(await bot.writer.flush(), "the games were recorded")


async def beat_friend(world: DemoWorld) -> None:
    """You challenge your friend and win along the top row."""
    await tictactoe(world.you, world, opponent=world.friend)
    await click_button(world.friend, world.channel.history()[-1], "accept")
    for cell, player in (((0, 0), world.you), ((1, 0), world.friend), ((0, 1), world.you)):
        await play(player, world, cell)
    await play(world.friend, world, (1, 1))
    await play(world.you, world, (0, 2))
    await recorded(world)


def last_seen_by(world: DemoWorld, viewer: MemberActor) -> discord.Message:
    return world.channel.history(viewer=viewer)[-1]


@state("17-stats", "/stats: your results, streak, rating and rank, and your last games")
async def stats(world: DemoWorld) -> MemberActor:
    await seed_history(world)
    await beat_friend(world)
    result = await world.you.slash(world.channel, "stats")
    reached(result.ephemeral, "a private answer")
    return world.you


@state("18-stats-public", "/stats public:True: your stats shown to the channel, nobody pinged")
async def stats_public(world: DemoWorld) -> MemberActor:
    await seed_history(world)
    await beat_friend(world)
    result = await world.you.slash(world.channel, "stats", public=True)
    reached(not result.ephemeral, "a public answer")
    return world.friend


@state("19-stats-provisional", "Your friend's stats after two games: the rating is provisional")
async def stats_provisional(world: DemoWorld) -> MemberActor:
    await seed_history(world)
    await beat_friend(world)
    await world.friend.slash(world.channel, "stats")
    return world.friend


@state("20-stats-review", "Review 1 under your stats: the stored game, move by move")
async def stats_review(world: DemoWorld) -> MemberActor:
    await beat_friend(world)
    result = await world.you.slash(world.channel, "stats")
    reached(result.ephemeral, "a private answer")
    await click_button(world.you, last_seen_by(world, world.you), "review 1")
    return world.you


@state("21-leaderboard", "/leaderboard: this server's players by rating, ten a page")
async def leaderboard(world: DemoWorld) -> MemberActor:
    await seed_history(world)
    await world.you.slash(world.channel, "leaderboard")
    return world.you


@state("22-leaderboard-bot", "Against me: longest unbeaten run against Impossible, wins on Hard")
async def leaderboard_bot(world: DemoWorld) -> MemberActor:
    await seed_history(world)
    await world.you.slash(world.channel, "leaderboard")
    await click_button(world.you, last_seen_by(world, world.you), "against me")
    return world.you


@state("23-leaderboard-page-2", "Next: the second page of the ratings")
async def leaderboard_page_2(world: DemoWorld) -> MemberActor:
    await seed_history(world)
    await world.you.slash(world.channel, "leaderboard")
    await click_button(world.you, last_seen_by(world, world.you), "next")
    return world.you


@state("24-leaderboard-dm", "/leaderboard in a DM with the bot: everyone's, everywhere")
async def leaderboard_dm(world: DemoWorld) -> tuple[MemberActor, Any]:
    await seed_history(world)
    # Dana shares the server with the players, so her Discord shows their names.
    user = world.env.create_user("dana", global_name="Dana")
    world.guild.add_member(user)
    await user.slash("leaderboard")
    return user, user.dm_channel  # type: ignore[return-value]


@state("25-forget-question", "/forget-me: a private question before anything is deleted")
async def forget_question(world: DemoWorld) -> MemberActor:
    await beat_friend(world)
    await world.you.slash(world.channel, "forget-me")
    return world.you


@state("26-forgotten", "Confirmed: your stats and rating are gone; your friend keeps theirs")
async def forgotten(world: DemoWorld) -> MemberActor:
    await beat_friend(world)
    await world.you.slash(world.channel, "forget-me")
    await click_button(world.you, last_seen_by(world, world.you), "delete my data")
    return world.you


@state(
    "27-stats-unavailable",
    "/stats while the database does not answer: one private sentence; games go on",
    database_down=True,
)
async def stats_unavailable(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, difficulty="impossible")
    await play_out(world.you, world, first_empty)  # the game ends as always
    await world.you.slash(world.channel, "stats")
    return world.you


@state("28-resign-cancelled", "You pressed Cancel on the resign question: the game goes on")
async def resign_cancelled(world: DemoWorld) -> MemberActor:
    await ask_to_resign(world)
    question = world.channel.history(viewer=world.you)[-1]
    await click_button(world.you, question, "cancel")
    reached(not is_over(board_message(world)), "the game goes on")
    return world.you


@state("29-review-deleted-player", "Your friend's Review after you deleted your data")
async def review_deleted_player(world: DemoWorld) -> MemberActor:
    await beat_friend(world)
    await world.you.slash(world.channel, "forget-me")
    await click_button(world.you, last_seen_by(world, world.you), "delete my data")
    await world.friend.slash(world.channel, "stats")
    await click_button(world.friend, last_seen_by(world, world.friend), "review 1")
    return world.friend


async def puzzle(world: DemoWorld) -> discord.Message:
    """/puzzle daily:True (the same position on every run: the simulated day's), privately."""
    result = await world.you.slash(world.channel, "puzzle", daily=True)
    reached(result.ephemeral, "a private puzzle")
    return last_seen_by(world, world.you)


async def click_cell(world: DemoWorld, message: discord.Message, cell: ttt.Action) -> None:
    await click_cell_as(world.you, message, cell)


def puzzle_over(message: discord.Message) -> bool:
    return any(
        "next puzzle" in (button.get("label") or "").casefold() for button in _buttons(message)
    )


@state("30-puzzle", "/puzzle daily:True: the day's puzzle, privately: whose move and the task")
async def puzzle_shown(world: DemoWorld) -> MemberActor:
    await puzzle(world)
    return world.you


@state("31-puzzle-solved", "The puzzle solved move by move: the replies, the rating's change")
async def puzzle_solved(world: DemoWorld) -> MemberActor:
    message = await puzzle(world)
    for _ in range(5):
        if puzzle_over(message):
            break
        await click_cell(world, message, min(ttt.best_actions(read_board(message))))
        message = last_seen_by(world, world.you)
    reached("Solved" in str(message.components), "a solved puzzle")
    return world.you


@state("32-puzzle-failed", "A wrong move: what it allows, in the hint's words, and the right moves")
async def puzzle_failed(world: DemoWorld) -> MemberActor:
    message = await puzzle(world)
    board = read_board(message)
    best = set(ttt.best_actions(board))
    wrong = min(cell for cell in ttt.actions(board) if cell not in best)
    await click_cell(world, message, wrong)
    reached(puzzle_over(last_seen_by(world, world.you)), "a failed puzzle")
    return world.you


async def open_settings(world: DemoWorld) -> discord.Message:
    """/settings by you (the demo's server is yours: you have Manage Server)."""
    result = await world.you.slash(world.channel, "settings")
    reached(result.ephemeral, "a private settings card")
    return last_seen_by(world, world.you)


@state("33-settings", "/settings: every setting of the server with its value and its control")
async def settings_card(world: DemoWorld) -> MemberActor:
    await open_settings(world)
    return world.you


@state("34-settings-changed", "A setting changed on the card: the card confirms it in place")
async def settings_changed(world: DemoWorld) -> MemberActor:
    card = await open_settings(world)
    await world.you.select(card, ["hard"], custom_id="set:difficulty")
    card = last_seen_by(world, world.you)
    shown = await world.you.click(card, custom_id="set:o_emoji:edit")
    await world.you.submit_modal(shown, {"value": "🌙"})
    reached("🌙" in str(last_seen_by(world, world.you).components), "the O emoji changed")
    return world.you


# ---------------------------------------------------------------- a server's own marks


def emoji_image(draw_mark: Callable[[ImageDraw.ImageDraw, int], None]) -> bytes:
    """A custom emoji's picture: 128 px, drawn 4x larger and scaled down for smooth edges."""
    size = 512
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw_mark(ImageDraw.Draw(image), size)
    out = io.BytesIO()
    image.resize((128, 128), Image.Resampling.LANCZOS).save(out, format="PNG")
    return out.getvalue()


def _star(draw: ImageDraw.ImageDraw, size: int) -> None:
    centre, outer, inner = size / 2, size * 0.48, size * 0.2
    points = [
        (
            centre + (outer if k % 2 == 0 else inner) * math.sin(k * math.pi / 5),
            centre - (outer if k % 2 == 0 else inner) * math.cos(k * math.pi / 5),
        )
        for k in range(10)
    ]
    draw.polygon(points, fill=(255, 196, 37, 255), outline=(181, 110, 0, 255), width=size // 40)


def _moon(draw: ImageDraw.ImageDraw, size: int) -> None:
    margin = size * 0.04
    draw.ellipse((margin, margin, size - margin, size - margin), fill=(160, 205, 255, 255))
    bite = size * 0.3
    draw.ellipse((bite, margin - size * 0.1, size + bite, size - margin - size * 0.1), fill=0)


def custom_emoji(world: DemoWorld, image: bytes) -> Mark:
    """A custom emoji of the server, with its picture. Discord draws `<:name:id>` in text by
    its id whatever the name; SimCord's page only when the name is the emoji's own, so the
    emoji is called what boards call every custom emoji (a board carries only the id)."""
    emoji = world.guild.create_emoji(PLACEHOLDER_EMOJI_NAME)
    EMOJI_IMAGES[f"{CDN_BASE}/emojis/{emoji.id}.png"] = (f"{emoji.id}.png", image)
    return Mark(PLACEHOLDER_EMOJI_NAME, emoji.id)


def use_look(look: Look) -> None:
    """Let the board readers know the look's emoji as X and O, as a board shows them."""
    for letter in (ttt.X, ttt.O):
        mark = look.mark(letter)
        if mark is not None:
            LOOK_MARKS[str(partial_emoji_shown(mark))] = letter


def partial_emoji_shown(mark: Mark) -> discord.PartialEmoji:
    """The emoji of a cell showing `mark`, as discord.py reads it back."""
    return discord.PartialEmoji.from_dict(components.partial_emoji(mark))


async def post_board(world: DemoWorld, game: Game) -> None:
    """The bot posts `game`'s board as it would have started it under its server's look.
    (Games start with their server's look once /tictactoe reads the settings; until then the
    board is posted the way a restart finds one, and the real bot plays it on.)"""
    bot = world.env.bot
    assert isinstance(bot, TicTacToeBot)
    assert bot.user is not None
    channel = bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    use_look(game.look)
    await channel.send(view=card_view(render_game(game, bot.user.id)))


@state("35-custom-emoji", "A server whose X and O are its own custom emoji: you moved, the bot too")
async def custom_emoji_board(world: DemoWorld) -> MemberActor:
    look = Look(
        None,
        custom_emoji(world, emoji_image(_star)),
        custom_emoji(world, emoji_image(_moon)),
    )
    bot = world.env.bot
    assert isinstance(bot, TicTacToeBot)
    bot.server_settings.put(world.guild.id, ServerSettings(x_emoji=look.x, o_emoji=look.o))
    use_look(look)
    result = await world.you.slash(world.channel, "tictactoe")
    reached(not result.ephemeral, "a board with the server's marks")
    await play(world.you, world, (0, 0))
    marks = [mark for row in read_board(board_message(world)) for mark in row if mark]
    reached(len(marks) == 2, "you and the bot moved")
    return world.you


@state("36-emoji-marks", "A game between two people on a server whose marks are 🐱 and 🐶")
async def standard_emoji_board(world: DemoWorld) -> MemberActor:
    look = Look(None, Mark("🐱"), Mark("🐶"))
    await post_board(world, Game.from_moves(world.you.id, world.friend.id, None, (4, 0), look=look))
    await play(world.you, world, (2, 2))
    reached(read_board(board_message(world))[2][2] == ttt.X, "your move shows")
    return world.friend


@state("37-hint-easy", "Hint against Easy: perfect play's outcomes, then what wins most often")
async def hint_against_easy(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, difficulty="easy")
    await click_button(world.you, board_message(world), "hint")
    reached("Against Easy" in str(as_json(last_seen_by(world, world.you))), "the level's line")
    return world.you


@state("38-emoji-challenge", "A challenge on a server whose marks are 🐱 and ⭐: 🐱 moves first")
async def emoji_challenge(world: DemoWorld) -> MemberActor:
    look = Look(None, Mark("🐱"), Mark("⭐"))
    bot = world.env.bot
    assert isinstance(bot, TicTacToeBot)
    bot.server_settings.put(world.guild.id, ServerSettings(x_emoji=look.x, o_emoji=look.o))
    await tictactoe(world.you, world, opponent=world.friend)
    reached(not is_board(world.channel.history()[-1]), "an open challenge, no board yet")
    return world.friend


# ---------------------------------------------------------------- Ultimate Tic-Tac-Toe
# Its buttons are found by what they do, read from their custom_ids (bot/kinds/ultimate/codec.py):
# a cell of the board the grid shows, or the picker's button for a small board.


def ultimate_message(world: DemoWorld) -> discord.Message:
    """The latest public message that shows an ultimate board."""
    for message in reversed(world.channel.history()):
        if any(ultimate_codec.PREFIX in (b.get("custom_id") or "") for b in _buttons(message)):
            return message
    raise LookupError("no ultimate board in the channel")


def ultimate_game(message: discord.Message) -> UltimateGame:
    custom_id = next(
        b["custom_id"] for b in _buttons(message) if (b.get("custom_id") or "").startswith("ut1:")
    )
    state = ultimate_codec.decode(custom_id).state
    assert isinstance(state, UltimateGame)
    return state


async def bot_has_moved(world: DemoWorld) -> None:
    """The ultimate AI thinks after the click's answer, in a worker: wait for its move."""
    bot = world.env.bot
    assert isinstance(bot, TicTacToeBot)
    while bot.table._background:
        await asyncio.gather(*list(bot.table._background))


async def play_ultimate(
    actor: MemberActor, world: DemoWorld, action: tuple[int, int], *, pick_only: bool = False
) -> None:
    """`actor` plays (board, cell) on the latest ultimate board: through the picker when the move
    is free."""
    message = ultimate_message(world)
    game = ultimate_game(message)
    key = ultimate_codec.key(game)
    board, cell = action
    if game.shown_board != board:
        await actor.click(message, custom_id=ultimate_codec.pick_id(key, board))
        message = ultimate_message(world)
        key = ultimate_codec.key(ultimate_game(message))
    if not pick_only:
        await actor.click(message, custom_id=ultimate_codec.cell_id(key, cell))


@state("39-ultimate-free-choice", "Ultimate: your first move is free: pick one of the nine boards")
async def ultimate_free_choice(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, variant="ultimate", difficulty="medium")
    reached(ultimate_game(ultimate_message(world)).shown_board is None, "the board picker")
    return world.you


@state("40-ultimate-board-picked", "Ultimate: the centre board picked: its nine cells, and Back")
async def ultimate_board_picked(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, variant="ultimate", difficulty="medium")
    await play_ultimate(world.you, world, (4, 4), pick_only=True)
    reached(ultimate_game(ultimate_message(world)).picked == 4, "the centre board open")
    return world.you


@state("41-ultimate-bot-replied", "Ultimate: you played; the bot answered where you sent it")
async def ultimate_bot_replied(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, variant="ultimate", difficulty="medium")
    await play_ultimate(world.you, world, (4, 0))
    await bot_has_moved(world)
    game = ultimate_game(ultimate_message(world))
    reached(game.player_to_move == world.you.id and game.forced_board is not None, "a forced board")
    return world.you


@state("42-ultimate-hint", "Ultimate: Hint: the AI's move and why, privately")
async def ultimate_hint(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, variant="ultimate", difficulty="medium")
    await play_ultimate(world.you, world, (4, 0))
    await bot_has_moved(world)
    await click_button(world.you, ultimate_message(world), "hint")
    return world.you


async def ultimate_win(world: DemoWorld) -> None:
    """You beat Easy, playing the engine's "hard" moves."""
    rng = random.Random(3)
    await tictactoe(world.you, world, variant="ultimate", difficulty="easy")
    for _ in range(41):
        game = ultimate_game(ultimate_message(world))
        if game.is_over:
            break
        action = ultimate.choose(game.position, "hard", rng, playouts=300)
        await play_ultimate(world.you, world, action)
        await bot_has_moved(world)
    game = ultimate_game(ultimate_message(world))
    reached(game.winner_id == world.you.id, "you won")


@state("43-ultimate-win", "Ultimate: three small boards in a line: you beat the bot")
async def ultimate_won(world: DemoWorld) -> MemberActor:
    await ultimate_win(world)
    return world.you


@state("44-ultimate-review", "Ultimate: Review: where the AI thinks the game turned")
async def ultimate_review(world: DemoWorld) -> MemberActor:
    await ultimate_win(world)
    await click_button(world.you, ultimate_message(world), "review")
    return world.you


def drawn_game(seed: int) -> list[tuple[int, int]]:
    """The moves of a random game that ends in a draw (the first such game from `seed`)."""
    rng = random.Random(seed)
    while True:
        state, moves = ultimate.initial_state(), list[tuple[int, int]]()
        while not ultimate.terminal(state):
            action = rng.choice(sorted(ultimate.actions(state)))
            state, moves = ultimate.result(state, action), [*moves, action]
        if ultimate.winner(state) is None:
            return moves


@state("45-ultimate-draw", "Ultimate between two people: every board closed, no line: a draw")
async def ultimate_draw(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, opponent=world.friend, variant="ultimate")
    await click_button(world.friend, world.channel.history()[-1], "accept")
    players = (world.you, world.friend)
    for number, action in enumerate(drawn_game(1)):
        await play_ultimate(players[number % 2], world, action)
    game = ultimate_game(ultimate_message(world))
    reached(game.is_over and game.winner_mark is None and game.ending is None, "a draw")
    return world.you


@state("46-ultimate-challenge", "Ultimate: a challenge to a friend")
async def ultimate_challenge(world: DemoWorld) -> MemberActor:
    await tictactoe(world.you, world, opponent=world.friend, variant="ultimate")
    return world.friend


# ---------------------------------------------------------------- tournaments


async def tournament_signed_up(world: DemoWorld) -> discord.Message:
    """You open a round-robin; you, your friend and the stranger join: the sign-up card."""
    await world.you.slash(world.channel, "tournament create", format="round-robin", name="Friday")
    card = world.channel.history()[-1]
    for player in world.viewers:
        await click_button(player, card, "join")
        card = next(m for m in world.channel.history() if m.id == card.id)
    return card


async def tournament_started(world: DemoWorld) -> Any:
    card = await tournament_signed_up(world)
    await click_button(world.you, card, "start")
    (thread,) = world.channel.threads
    return thread


def thread_board(thread: Any) -> discord.Message | None:
    """The latest live board in the tournament's thread."""
    messages: list[discord.Message] = thread.history()
    return next((m for m in reversed(messages) if is_board(m) and not is_over(m)), None)


async def play_tournament_round(world: DemoWorld, thread: Any) -> None:
    """Its one game (three players: one game, one bye) played out, each side the first empty
    cell."""
    board = thread_board(thread)
    reached(board is not None, "a board in the thread")
    assert board is not None
    actors = {actor.id: actor for actor in world.viewers}
    while not is_over(board):
        game = classic_codec.decode(cells(board)[0]["custom_id"]).state
        assert isinstance(game, Game)
        await click_cell_as(actors[game.player_to_move], board, first_empty(read_board(board)))
        board = next(m for m in thread.history() if m.id == board.id)
    await world.env.advance_time(10)  # the next round's posts wait for the channel's pace


@state("47-tournament-signup", "/tournament create: the sign-up card, three players in")
async def tournament_signup(world: DemoWorld) -> MemberActor:
    await tournament_signed_up(world)
    return world.you


@state("48-tournament-round", "The tournament's thread: round 1's card and its board")
async def tournament_round(world: DemoWorld) -> tuple[MemberActor, Any]:
    thread = await tournament_started(world)
    return world.you, thread


@state("49-tournament-standings", "Standings, privately, after round 1")
async def tournament_standings(world: DemoWorld) -> tuple[MemberActor, Any]:
    thread = await tournament_started(world)
    await play_tournament_round(world, thread)
    card = next(m for m in reversed(thread.history()) if "Round 2" in str(as_json(m)))
    await click_button(world.you, card, "standings")
    return world.you, thread


@state("50-tournament-final", "The last round played: the final standings and the podium")
async def tournament_final(world: DemoWorld) -> tuple[MemberActor, Any]:
    thread = await tournament_started(world)
    for _ in range(3):
        await play_tournament_round(world, thread)
    reached("Congratulations" in str(as_json(thread.history()[-1])), "the final card")
    return world.you, thread


@state("51-tournament-forgotten", "Standings after a player used /forget-me mid-tournament")
async def tournament_forgotten(world: DemoWorld) -> tuple[MemberActor, Any]:
    thread = await tournament_started(world)
    await play_tournament_round(world, thread)
    await world.stranger.slash(world.channel, "forget-me")
    await click_button(world.stranger, last_seen_by(world, world.stranger), "delete my data")
    await world.env.advance_time(10)
    card = next(m for m in reversed(thread.history()) if "Standings" in str(as_json(m)))
    await click_button(world.you, card, "standings")
    shown = str(as_json(thread.history(viewer=world.you)[-1]))
    reached("a deleted player (withdrawn)" in shown, "the stand-in in the standings")
    return world.you, thread


# ---------------------------------------------------------------- capturing


async def capture_state(browser: Browser, item: State, out_dir: Path) -> Path:
    """Run one state's scenario in a fresh world (recording into a fresh database, as the
    demo does) and write its PNG."""
    path = out_dir / f"{item.name}.png"
    with tempfile.TemporaryDirectory(prefix="tictactoe-shot-") as scratch:
        bot = await make_recording_demo_bot(Path(scratch), random.Random(item.seed))
        if item.database_down:
            assert bot.records is not None
            await bot.records.close()
            broken = Path(scratch) / "not-a-database.db"
            broken.write_bytes(b"not a database" * 100)
            bot.records = Storage(f"sqlite+aiosqlite:///{broken}")
        try:
            async with simcord.run(bot) as env:
                world = await setup_world(env)
                LOOK_MARKS.clear()
                EMOJI_IMAGES.clear()
                shown = await item.scenario(world)
                if isinstance(shown, tuple):  # another channel than the server's: a DM
                    viewer, channel = shown
                    preview = env.preview(channel, viewers=(viewer,), layout="channel")
                elif EMOJI_IMAGES:  # the server's own emoji, with their pictures
                    viewer = shown
                    preview = env.preview(
                        world.channel, viewers=world.viewers, layout="channel", assets=EMOJI_IMAGES
                    )
                else:
                    viewer, preview = shown, open_preview(world)
                async with preview:
                    await screenshot(browser, preview, viewer, path)
        finally:
            await bot.close_records()
    return path


async def screenshot(browser: Browser, preview: Preview, viewer: MemberActor, path: Path) -> None:
    """The channel area of the live page, as `viewer` sees it."""
    context = await browser.new_context(
        viewport=VIEWPORT,
        device_scale_factor=1,
        reduced_motion="reduce",
        locale="en-US",
        timezone_id="UTC",
    )
    try:
        page = await context.new_page()
        await page.goto(preview.url)
        await page.wait_for_function(PAGE_READY)
        viewer_id = str(viewer.id)
        if await page.evaluate("() => window.simcordPreview.viewerId") != viewer_id:
            # The page's own "Viewing as" picker, as a person would switch.
            await page.select_option("#viewer-picker", viewer_id)
            await page.wait_for_function(
                "id => window.simcordPreview?.ready === true"
                " && window.simcordPreview.viewerId === id",
                arg=viewer_id,
            )
        await page.evaluate("() => document.fonts.ready")
        # As Discord opens a channel: at its latest message.
        await page.evaluate(
            "() => { const t = document.getElementById('channel-timeline');"
            " if (t) t.scrollTop = t.scrollHeight; }"
        )
        await page.locator(CHANNEL_AREA).screenshot(path=path, animations="disabled", caret="hide")
    finally:
        await context.close()


async def capture(states: Sequence[State], out_dir: Path, chromium: str) -> int:
    """Capture every state; the number that failed (each one is logged, and the rest go on)."""
    from playwright.async_api import async_playwright

    failed = 0
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            for item in states:
                try:
                    path = await capture_state(browser, item, out_dir)
                except Exception:
                    # After a redesign one scenario may need updating; the others still render.
                    log.exception("%s failed", item.name)
                    failed += 1
                    continue
                log.info("%s: %s", _display(path), item.description)
        finally:
            await browser.close()
    return failed


def _display(path: Path) -> str:
    return str(path.relative_to(REPO_ROOT)) if path.is_relative_to(REPO_ROOT) else str(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screenshots", description=__doc__)
    parser.add_argument("names", nargs="*", help="states to capture (default: all)")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="where to write the PNGs")
    parser.add_argument("--chromium", default=CHROMIUM, help="the Chromium executable")
    parser.add_argument("--list", action="store_true", help="list the states and exit")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    # The bot's and SimCord's own logs would bury the list of PNGs.
    logging.getLogger("discord").setLevel(logging.WARNING)
    logging.getLogger("bot").setLevel(logging.WARNING)
    if args.list:
        for item in STATES:
            log.info("%s  %s", item.name, item.description)
        return 0
    unknown = set(args.names) - {item.name for item in STATES}
    if unknown:
        log.error("Unknown state(s): %s (see --list)", ", ".join(sorted(unknown)))
        return 2
    if not Path(args.chromium).exists():
        log.error("Chromium not found at %s (install it, or pass --chromium PATH)", args.chromium)
        return 1
    chosen = [item for item in STATES if not args.names or item.name in args.names]
    args.out.mkdir(parents=True, exist_ok=True)
    with quiet_simulation_logs():
        failed = asyncio.run(capture(chosen, args.out.resolve(), args.chromium))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
