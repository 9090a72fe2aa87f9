"""Every use of discord.py's private names, in one place.

The bot reaches past discord.py's public API in a few spots, each for a measured reason given
where it is used (bot/ui.py, bot/ops/rest_errors.py, bot/__main__.py). Each function here is
one such use, named for what it does; tests/app/test_discord_internals.py checks each against
the discord.py installed, so that an upgrade that moves one of these names fails a test naming
the use rather than a click in production. discord.py is pinned in requirements-bot.txt.

This module imports nothing of the bot.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import async_context

# Where discord.py's HTTPClient keeps its aiohttp session (its `__session`, name-mangled),
# which Interactions and webhooks also take.
HTTP_SESSION_ATTRIBUTE = "_HTTPClient__session"
# The slot discord.py caches `Interaction.response` in (a cached_slot_property).
RESPONSE_SLOT = "_cs_response"


async def post_interaction_callback(
    interaction: discord.Interaction[Any], kind: discord.InteractionResponseType, data: Any
) -> None:
    """POST an interaction's callback (`kind`, with `data` already in Discord's JSON) through
    discord.py's webhook adapter: its rate limits, retries and errors, on the session and the
    proxy the interaction was received with. No `with_response`: Discord answers 204."""
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = interaction._state.http
    await async_context.get().request(
        route,
        session=interaction._session,
        payload={"type": kind.value, "data": data},
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
    )


def mark_answered(
    interaction: discord.Interaction[Any], kind: discord.InteractionResponseType
) -> None:
    """Leave `interaction.response` as discord.py's own answer of type `kind` would: done.

    Put in discord.py's cache slot directly: the `response` property would first raise and
    catch an AttributeError to find it empty."""
    response = discord.InteractionResponse(interaction)
    response._response_type = kind
    setattr(interaction, RESPONSE_SLOT, response)


def forget_response(interaction: discord.Interaction[Any]) -> None:
    """Drop the InteractionResponse cached on `interaction` (if `response` was used), which
    refers back to the interaction: a reference cycle otherwise left to the collector."""
    if hasattr(interaction, RESPONSE_SLOT):
        delattr(interaction, RESPONSE_SLOT)


def http_session(http: discord.http.HTTPClient) -> Any:
    """The aiohttp session discord.py's HTTP client sends with (or what replaced it); None
    before login."""
    return getattr(http, HTTP_SESSION_ATTRIBUTE, None) or None


def replace_http_session(http: discord.http.HTTPClient, session: Any) -> None:
    """Make `http` (and the interactions it creates from now on) send with `session`."""
    setattr(http, HTTP_SESSION_ATTRIBUTE, session)


def colour_log_formatter() -> logging.Formatter:
    """discord.py's coloured log formatter, the one `discord.utils.setup_logging` uses on a
    terminal."""
    return discord.utils._ColourFormatter()
