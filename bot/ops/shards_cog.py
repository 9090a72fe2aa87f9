"""The gateway's shard events: each shard's state for /healthz, reconnects counted, logged."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands

from bot.ops.health import ShardState

if TYPE_CHECKING:
    from bot.app import TicTacToeBot

log = logging.getLogger(__name__)


class ShardsCog(commands.Cog, name="Shards"):
    def __init__(self, bot: TicTacToeBot) -> None:
        self.bot = bot

    def _set(self, shard_id: int, state: ShardState) -> ShardState | None:
        return self.bot.health.set_shard(shard_id, state)

    @commands.Cog.listener()
    async def on_shard_connect(self, shard_id: int) -> None:
        # READY received: the shard now gets its servers, and is ready once they are in.
        if self._set(shard_id, ShardState.CONNECTING) is not None:
            self.bot.metrics.reconnected(shard_id)
        log.info("Shard %d connected, receiving its servers", shard_id)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        self._set(shard_id, ShardState.READY)
        log.info("Shard %d ready", shard_id)

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        self._set(shard_id, ShardState.READY)
        self.bot.metrics.reconnected(shard_id)
        log.info("Shard %d resumed its session", shard_id)

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        if self._set(shard_id, ShardState.DISCONNECTED) is not ShardState.DISCONNECTED:
            log.warning("Shard %d lost its gateway connection; reconnecting", shard_id)
