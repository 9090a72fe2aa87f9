"""What happens when a command or a component handler fails, for every capability alike: the
failure is counted (/metrics), logged once with its traceback, and the user is told privately
that something went wrong (bot/ui.py `apologise`).

Commands fail into the bot's command tree (`FailureTree`, the bot's `tree_cls`); components into
the bot's one `on_interaction` (bot/app.py), which calls `component_failed`. A capability
raises `bot.ui.Answered` for a failure it has already answered and logged: it passes quietly.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands

from bot.ops.metrics import Metrics
from bot.ui import Answered, apologise, release

log = logging.getLogger(__name__)


@runtime_checkable
class _WithFailures(Protocol):
    failures: Failures


class Failures:
    """Counts, logs and answers the failures of commands and components."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    async def command_failed(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, Answered):
            return
        command = interaction.command.name if interaction.command else "?"
        self.metrics.command_errors.inc()
        log.error("/%s failed in channel %s", command, interaction.channel_id, exc_info=error)
        await apologise(interaction)

    async def component_failed(
        self, interaction: discord.Interaction[Any], custom_id: str, error: Exception
    ) -> None:
        if isinstance(error, Answered):
            return
        self.metrics.click_errors.inc()
        log.error(
            "Component %r failed in channel %s", custom_id, interaction.channel_id, exc_info=error
        )
        await apologise(interaction)


class FailureTree(app_commands.CommandTree[Any]):
    """The bot's command tree: a command that raises is handled by its client's `failures`
    (a client without them gets its own, counted in metrics of its own)."""

    def __init__(self, client: discord.Client, *args: Any, **kwargs: Any) -> None:
        super().__init__(client, *args, **kwargs)
        self.failures = (
            client.failures if isinstance(client, _WithFailures) else Failures(Metrics())
        )

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        try:
            await self.failures.command_failed(interaction, error)
        finally:
            release(interaction)
