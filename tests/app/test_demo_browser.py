"""`python -m bot --demo` in a real browser: run /tictactoe from the page's composer, click a cell,
see your mark and the bot's answer; and `python -m tools.screenshots` still reaching its states.
System Chromium, driven by Playwright, on loopback only."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tests.support.demo import START_TIMEOUT, running_demo
from tools.screenshots import CHROMIUM, CHROMIUM_ARGS, STATES, capture

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # reported by the test itself: a skip locally, a failure in CI
    sync_playwright = None  # type: ignore[assignment]

ACTION_TIMEOUT = 10_000  # milliseconds for the page to show a result

# What the buttons of a board show: a cell is blank or shows a mark; a control shows a word.
BLANK = re.compile(r"^[\s\u200b\u2800\u3164]*$")
MARK = re.compile(r"^\s*(❌|⭕|X|O)\ufe0f?\s*$")
CELL = re.compile(f"{BLANK.pattern}|{MARK.pattern}")


@pytest.fixture
def chromium() -> str:
    """The browser to drive; without one, skip with the reason, but fail in CI (CI is set)."""
    missing = None
    if sync_playwright is None:
        missing = "Playwright is not installed (pip install 'simcord[screenshot]')"
    elif not Path(CHROMIUM).exists():
        missing = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if missing is None:
        return CHROMIUM
    if "CI" in os.environ:
        pytest.fail(f"CI must run the browser test: {missing}")
    pytest.skip(missing)


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """`run_demo` in its own process on a free port: the process and the URL it logged."""
    with running_demo(tmp_path) as (process, url, _):
        yield process, url


def test_play_a_move_in_the_browser(
    chromium: str, demo: tuple[subprocess.Popen[bytes], str]
) -> None:
    process, url = demo
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 720})
            page.set_default_timeout(ACTION_TIMEOUT)
            page.goto(url)

            # /tictactoe with an option, through the composer as a person types it.
            page.locator("#channel-composer-input").fill("/tictactoe")
            page.locator(".command-entry", has_text="/tictactoe").click()
            page.locator(".command-suggestion[data-value=difficulty]").click()
            page.locator(".command-suggestion[data-value=easy]").click()
            page.locator("#send-message").click()

            # The newest message with components is the board: 9 cells, all blank.
            board = (
                page.locator(".channel-message").filter(has=page.locator(".component-button")).last
            )
            buttons = board.locator(".component-button")
            expect(buttons.filter(has_text=CELL)).to_have_count(9)
            expect(buttons.filter(has_text=MARK)).to_have_count(0)

            buttons.filter(has_text=BLANK).first.click()
            # Your mark and the bot's answer arrive in the same update of the board.
            expect(buttons.filter(has_text=MARK)).to_have_count(2)
            marks = {
                text.strip().rstrip("\ufe0f")
                for text in buttons.filter(has_text=MARK).all_inner_texts()
            }
            assert len(marks) == 2, f"one mark each, not {marks}"
        finally:
            browser.close()

    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=START_TIMEOUT)
    assert process.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr


def test_challenge_a_friend_by_name_today_closing_in_a_minute(
    chromium: str, demo: tuple[subprocess.Popen[bytes], str]
) -> None:
    process, url = demo
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 720})
            page.set_default_timeout(ACTION_TIMEOUT)
            page.goto(url)
            options = page.locator("#viewer-picker option")
            expect(options).to_have_count(3)  # the page fills the picker once it has loaded
            viewers = options.all_inner_texts()
            assert [name.split()[0] for name in viewers] == ["Alex", "Sam", "Robin"]
            # The topic introduces them, on one line: none of it hidden behind an ellipsis.
            topic = page.locator("#channel-topic")
            expect(topic).to_contain_text("Alex, Sam and Robin are here")
            assert topic.evaluate("line => line.scrollWidth <= line.clientWidth"), "cut short"

            page.locator("#channel-composer-input").fill("/tictactoe")
            page.locator(".command-entry", has_text="/tictactoe").click()
            page.locator(".command-suggestion[data-value=opponent]").click()
            # The people to challenge, and the bot (a member, as on Discord), no one else.
            people = page.locator(".command-suggestion")
            expect(people).to_have_count(4)
            names = [shown.splitlines()[0] for shown in people.all_inner_texts()]
            assert names == ["Alex", "Robin", "Sam", "Tic-Tac-Toe"]
            page.locator(".command-suggestion", has_text="Sam").click()
            page.locator("#send-message").click()
            today = datetime.now().astimezone()  # the demo shows this computer's time zone

            challenge = page.locator(".channel-message", has_text="Tic-Tac-Toe challenge").last
            expect(challenge).to_contain_text("@Sam, @Alex challenges you!")
            # It closes after CHALLENGE_SECONDS, worded from now (the bot drops the fraction of
            # a second, so "60 seconds" or "1 minute"); at this computer's date, not 1/1/26.
            expect(challenge).to_contain_text(re.compile(r"closes in (1 minute|60 seconds)\."))
            expect(challenge).to_contain_text(f"{today.month}/{today.day}/{today:%y}, ")
        finally:
            browser.close()

    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=START_TIMEOUT)
    assert process.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr


def test_stats_and_the_leaderboard_from_the_composer(
    chromium: str, demo: tuple[subprocess.Popen[bytes], str]
) -> None:
    process, url = demo
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 720})
            page.set_default_timeout(ACTION_TIMEOUT)
            page.goto(url)
            composer = page.locator("#channel-composer-input")

            # /stats public:true, its boolean option picked as a person would.
            composer.fill("/stats")
            page.locator(".command-entry", has_text="/stats").click()
            page.locator(".command-suggestion[data-value=public]").click()
            page.locator(".command-suggestion[data-value=true]").click()
            page.locator("#send-message").click()
            stats = page.locator(".channel-message", has_text="Tic-Tac-Toe stats").last
            expect(stats).to_contain_text("No recorded games yet.")

            composer.fill("/leaderboard")
            page.locator(".command-entry", has_text="/leaderboard").click()
            page.locator("#send-message").click()
            board = page.locator(".channel-message", has_text="Leaderboard: ratings").last
            expect(board).to_contain_text("Players of this server")
            board.locator(".component-button", has_text="Against me").click()
            switched = page.locator(".channel-message", has_text="Leaderboard: against me").last
            expect(switched).to_contain_text(
                "Nobody here has beaten me on Hard or drawn with me on Impossible yet."
            )
        finally:
            browser.close()

    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=START_TIMEOUT)
    assert process.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr


# A game played to its end, and a private answer seen after switching who views the page.
SCREENSHOT_STATES = ("05-you-win", "08-wrong-turn")


def test_screenshot_tool_still_reaches_its_states(chromium: str, tmp_path: Path) -> None:
    chosen = [state for state in STATES if state.name in SCREENSHOT_STATES]
    assert len(chosen) == len(SCREENSHOT_STATES)

    assert asyncio.run(capture(chosen, tmp_path, chromium)) == 0, "see the logged error"
    for name in SCREENSHOT_STATES:
        assert (tmp_path / f"{name}.png").read_bytes().startswith(b"\x89PNG")
