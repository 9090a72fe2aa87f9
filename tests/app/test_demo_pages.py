"""The demo's page always opens: tabs closed without a goodbye (a crashed browser, a killed tab)
cannot use up the pages SimCord's preview server keeps. Driven over HTTP against the real
preview server on loopback, as the page's own script opens and polls it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.demo import CHANNEL_TOPIC, open_preview
from bot.demo import setup_world as setup_demo_world
from bot.demo_sync import PAGE_LIMIT

# How many tabs the issue opened (and never closed) before the demo's page stopped opening.
TABS = 40
GONE = 410  # what SimCord answers a page it no longer keeps ("Reload the active Preview URL")


@dataclass(frozen=True)
class PageServer:
    """SimCord's preview server, spoken to as the page's script does (app.js)."""

    http: aiohttp.ClientSession
    base: str
    capability: str

    async def open(self) -> dict[str, Any]:
        """What a new tab gets: its page's first state (a failure as "could not be opened")."""
        headers = {"X-Simcord-Capability": self.capability}
        async with self.http.post(f"{self.base}/api/pages", json={}, headers=headers) as answer:
            assert answer.status == 200, f"the page could not be opened: {await answer.text()}"
            page: dict[str, Any] = await answer.json()
            return page

    async def poll(self, page: dict[str, Any]) -> int:
        """The HTTP status of a poll from an open tab (it polls twice a second)."""
        context = page["context"]["id"]
        headers = {"X-Simcord-Capability": self.capability, "X-Simcord-Context": context}
        async with self.http.get(f"{self.base}/api/state", headers=headers) as answer:
            return answer.status


@asynccontextmanager
async def demo_page_server(env: Any) -> AsyncIterator[PageServer]:
    world = await setup_demo_world(env)
    async with open_preview(world) as preview, aiohttp.ClientSession() as http:
        base, _, capability = preview.url.partition("/#")
        yield PageServer(http, base, capability)


async def test_the_40th_tab_opens_with_none_of_the_others_closed(simcord_env):
    async with demo_page_server(simcord_env) as server:
        tabs = [await server.open() for _ in range(TABS)]

        # The channel, not an empty "Unavailable channel".
        assert tabs[-1]["channel"]["name"] == "tic-tac-toe"
        assert tabs[-1]["channel"]["topic"] == CHANNEL_TOPIC
        # Below the limit, no tab still polling lost its page.
        assert [await server.poll(tab) for tab in tabs] == [200] * TABS


async def test_past_the_limit_the_tab_idle_longest_makes_room(simcord_env):
    async with demo_page_server(simcord_env) as server:
        first, gone_quiet, *others = [await server.open() for _ in range(PAGE_LIMIT)]
        assert await server.poll(first) == 200  # the first tab is still open, and polling

        newest = await server.open()

        assert newest["channel"]["topic"] == CHANNEL_TOPIC
        # The tab that stopped polling earliest was freed; the live ones keep theirs.
        assert await server.poll(gone_quiet) == GONE
        assert await server.poll(first) == 200
        assert await server.poll(newest) == 200
        assert [await server.poll(tab) for tab in others] == [200] * len(others)
