"""Benchmark: tournaments in a real bot process (`python -m bot` on a loopback fake Discord, as
benchmarks/real_process.py runs it): a Swiss round posted, and what a running tournament holds.

    python benchmarks/tournament_round.py                         # both parts
    python benchmarks/tournament_round.py --part round --players 64
    python benchmarks/tournament_round.py --part memory --tournaments 10 --field 8

A benchmark, not a test: it prints figures and exits 0 (1 if a board was not posted or not
playable).

round   /tournament create (Swiss), --players users click Join, the organiser clicks Start; then
        the wall time from Start to every message of round 1 in the thread (its round card and
        players/2 boards), and to every board answering a click (a move by the player to move,
        one board at a time, after the last was posted; a move refused to both players is
        tried again, 0.25 s apart, and counted: the board shown, not yet held by the bot).
        The fake holds the thread to Discord's 5 messages per 5 s (fake_discord/ratelimits.py):
        the 429s it answered in that time are counted (message_bucket.rate_limited), and boards
        posted twice (the same text) too.
memory  The bot's RSS (/proc/<pid>/statm) with no tournament, after one warm-up tournament
        (its code paths' first use), then after --tournaments more, each in its own server and
        channel with --field players, round 1 posted: (RSS_N - RSS_warm) / N.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord

from benchmarks.lib.measure import machine, rss_bytes
from benchmarks.lib.processes import BotProcess, quiet
from fake_discord import FakeChannel, FakeUser, Json, buttons, mark
from fake_discord.payloads import FakeThread
from fake_discord.reading import text

Response = discord.InteractionResponseType
BOARD = re.compile(r"^ttt2:")  # a classic board's cell buttons
MENTION = re.compile(r"<@!?(\d+)>")
POST_TIMEOUT = 300.0  # seconds for a round to be posted
RETRIES = 40  # 10 s: longer than a window of the channel's rate limit
RETRY_SECONDS = 0.25


class Failed(Exception):
    """The bot did not do what a player would see it do."""


# ---------------------------------------------------------------------------------- driving


@dataclass
class Started:
    """A tournament started: its thread, its players, when Start was clicked."""

    thread: FakeThread
    players: dict[int, FakeUser]
    clicked_at: float
    refused_before: int  # the fake's 429s before Start


async def start_tournament(
    bot: BotProcess, channel: FakeChannel, players: int, prefix: str
) -> Started:
    """An organiser opens a Swiss sign-up in `channel`, `players` new users join, and Start."""
    fake = bot.fake
    organiser = fake.create_user(f"{prefix}-organiser")
    created = await fake.slash(organiser, channel, "tournament create")
    if created.type is not Response.channel_message or created.message is None:
        raise Failed(f"/tournament create answered {created.type} {created.content!r}")
    card = created.message
    users: dict[int, FakeUser] = {}
    for k in range(players):
        user = fake.create_user(f"{prefix}-player{k}")
        joined = await fake.click(user, card, label="Join")
        if not joined.ephemeral:
            raise Failed(f"Join answered {joined.type} {joined.content!r}")
        users[user.id] = user
    refused_before = fake.discord.message_bucket.rate_limited
    clicked_at = time.perf_counter()
    answer = await fake.click(organiser, card, label="Start")
    if answer.ephemeral:
        raise Failed(f"Start refused: {answer.content!r}")
    thread = None
    while thread is None:
        thread = next(
            (
                place
                for place in fake.discord.channels.values()
                if isinstance(place, FakeThread) and place.parent_id == channel.id
            ),
            None,
        )
        if thread is None:
            if time.perf_counter() - clicked_at > POST_TIMEOUT:
                raise Failed("no thread started")
            await asyncio.sleep(0.01)
    return Started(thread, users, clicked_at, refused_before)


def boards_in(bot: BotProcess, thread: FakeThread) -> list[Json]:
    return [
        m
        for m in bot.fake.discord.messages_in(thread)
        if any(BOARD.match(b.get("custom_id", "")) for b in buttons(m))
    ]


async def round_posted(bot: BotProcess, started: Started, boards: int) -> float:
    """Seconds from Start until the thread holds `boards` boards and a round card."""
    while True:
        messages = bot.fake.discord.messages_in(started.thread)
        if len(boards_in(bot, started.thread)) >= boards and len(messages) >= boards + 1:
            return time.perf_counter() - started.clicked_at
        if time.perf_counter() - started.clicked_at > POST_TIMEOUT:
            raise Failed(
                f"round 1 not posted in {POST_TIMEOUT:.0f} s: {len(messages)} messages, "
                f"{len(boards_in(bot, started.thread))} boards"
            )
        await asyncio.sleep(0.02)


def pairing_of(board: Json, players: dict[int, FakeUser]) -> list[FakeUser]:
    """The board's two players, as its text names them (mentions)."""
    found = []
    for match in MENTION.finditer(text(board)):
        user = players.get(int(match[1]))
        if user is not None and user not in found:
            found.append(user)
    return found


async def play_first_move(bot: BotProcess, board: Json, players: dict[int, FakeUser]) -> int | None:
    """A move on `board` by whichever of its players is to move, the board updated publicly;
    refused for both players (the bot does not hold the board yet), tried again RETRY_SECONDS
    later: how many times; None if no move was accepted in RETRIES tries."""
    empty = [
        b["custom_id"]
        for b in buttons(board)
        if BOARD.match(b.get("custom_id", "")) and not b.get("disabled") and mark(b) is None
    ]
    if not empty:
        raise Failed("a board with no cell to play")
    pair = pairing_of(board, players) or list(players.values())
    for tries in range(RETRIES):
        for user in pair:
            answer = await bot.fake.click(user, board, custom_id=empty[0])
            if answer.type is Response.message_update and not answer.ephemeral:
                return tries
        # Both players refused ("This board is no longer active"): the bot does not hold it yet.
        await asyncio.sleep(RETRY_SECONDS)
    return None


# ---------------------------------------------------------------------------------- parts


async def started_bot(scratch: Path, name: str, guilds: int) -> BotProcess:
    bot = BotProcess(name, ["-m", "bot"])
    await bot.start(guilds, 1, scratch)
    await bot.ready()
    return bot


async def stopped(bot: BotProcess) -> None:
    code = await bot.stop()
    if code not in (0, None):
        print(f"  {bot.name} exited with {code}; its log: {bot.log_path}")


async def round_part(args: argparse.Namespace, scratch: Path) -> bool:
    bot = await started_bot(scratch, "round", 1)
    ok = True
    try:
        (channel,) = bot.channels()
        boards = args.players // 2
        joined_at = time.perf_counter()
        started = await start_tournament(bot, channel, args.players, "t")
        signup = started.clicked_at - joined_at
        posted = await round_posted(bot, started, boards)
        refused = bot.fake.discord.message_bucket.rate_limited - started.refused_before
        shown = boards_in(bot, started.thread)
        texts = [text(b) for b in shown]
        twice = len(texts) - len(set(texts))
        early, unplayable, refusing = 0, [], 0.0
        for number, board in enumerate(shown[:boards], 1):
            tried_at = time.perf_counter()
            retried = await play_first_move(bot, board, started.players)
            if retried is None:
                unplayable.append(number)
            elif retried:
                early += retried
                refusing = max(refusing, time.perf_counter() - tried_at)
        playable = time.perf_counter() - started.clicked_at
        await asyncio.sleep(2.0)  # a board posted late, twice, would show now
        messages = len(bot.fake.discord.messages_in(started.thread))
        refused_total = bot.fake.discord.message_bucket.rate_limited - started.refused_before
        print(f"=== a {args.players}-player Swiss tournament's round 1 ({boards} boards) ===")
        print(f"  {'sign-up (create + joins)':<44} {signup:8.2f} s")
        print(f"  {'Start -> round card and boards posted':<44} {posted:8.2f} s")
        print(f"  {'Start -> every board answered a move':<44} {playable:8.2f} s")
        print(f"  {'429s from the fake, Start to posted':<44} {refused:8d}")
        print(f"  {'429s from the fake, 2 s after the moves':<44} {refused_total:8d}")
        print(f"  {'moves refused on a board shown (0.25 s apart)':<44} {early:8d}")
        print(f"  {'longest such a board refused moves':<44} {refusing:8.2f} s")
        never = f"{len(unplayable):8d}  {unplayable}"
        print(f"  {'boards refusing every move (order posted)':<44} {never}")
        print(f"  {'messages in the thread':<44} {messages:8d}")
        print(f"  {'boards posted twice (same text)':<44} {twice:8d}")
        problems = bot.fake.problems()
        if problems:
            print(f"  refused by the fake: {problems[:5]}")
        ok = twice == 0 and len(shown) == boards and not unplayable
    except Failed as error:
        print(f"  FAILED: {error}")
        ok = False
    finally:
        await stopped(bot)
    return ok


async def memory_part(args: argparse.Namespace, scratch: Path) -> bool:
    bot = await started_bot(scratch, "memory", args.tournaments + 1)
    ok = True
    try:
        channels = bot.channels()
        await quiet([bot])
        rss_none = rss_bytes(bot.pid)
        boards = args.field // 2

        async def one(k: int) -> None:
            started = await start_tournament(bot, channels[k], args.field, f"m{k}")
            await round_posted(bot, started, boards)

        await one(0)  # warm-up
        await quiet([bot])
        rss_warm = rss_bytes(bot.pid)
        for k in range(1, args.tournaments + 1):
            await one(k)
        await quiet([bot])
        rss_after = rss_bytes(bot.pid)
        n = args.tournaments
        print(f"=== memory: {n} running tournaments, {args.field} players each, round 1 posted ===")
        print(f"  {'RSS, no tournament':<44} {rss_none / 2**20:8.1f} MiB")
        print(f"  {'RSS, one warm-up tournament':<44} {rss_warm / 2**20:8.1f} MiB")
        print(f"  {f'RSS, {n} more tournaments':<44} {rss_after / 2**20:8.1f} MiB")
        per = (rss_after - rss_warm) / n
        print(f"  {'(RSS_N - RSS_warm) / N':<44} {per / 2**10:8.1f} KiB")
        print(f"  429s from the fake: {bot.fake.discord.message_bucket.rate_limited}")
    except Failed as error:
        print(f"  FAILED: {error}")
        ok = False
    finally:
        await stopped(bot)
    return ok


# ---------------------------------------------------------------------------------- main


async def main_async(args: argparse.Namespace) -> int:
    print("Tournaments in a real bot process (python -m bot, a loopback fake Discord)")
    print(machine())
    ok = True
    with tempfile.TemporaryDirectory(prefix="tournament-round-") as folder:
        for part in args.part.split(","):
            scratch = Path(folder) / part
            scratch.mkdir()
            run = {"round": round_part, "memory": memory_part}[part]
            ok &= await run(args, scratch)
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--part", default="round,memory", help="which parts, in order")
    parser.add_argument("--players", type=int, default=64, help="round: the field")
    parser.add_argument("--tournaments", type=int, default=10, help="memory: how many")
    parser.add_argument("--field", type=int, default=8, help="memory: players in each")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
