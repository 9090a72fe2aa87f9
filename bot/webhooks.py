"""Editing an interaction's message later, knowing only the interaction's token."""

from __future__ import annotations

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context


async def edit_original_response(
    client: discord.Client,
    token: str,
    *,
    content: str,
    view: discord.ui.View | None,
    allowed_mentions: discord.AllowedMentions,
) -> None:
    """PATCH the message an interaction answered on (its "@original"), for up to 15 minutes.

    discord.py offers this only as Interaction.edit_original_response, but keeping a whole
    Interaction per idle game costs ~8 KB and a reference cycle, which measurably lengthens
    garbage-collection pauses under load (benchmarks/bot_load.py). So the registry keeps the
    token alone, and this calls the same discord.py adapter that method uses.
    """
    assert client.application_id is not None
    session = discord.Webhook.partial(client.application_id, token, client=client).session
    with handle_message_parameters(
        content=content,
        view=view,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=client.allowed_mentions,
    ) as params:
        await async_context.get().edit_original_interaction_response(
            client.application_id,
            token,
            session=session,
            proxy=client.http.proxy,
            proxy_auth=client.http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )
