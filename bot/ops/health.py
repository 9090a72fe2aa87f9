"""Is this process healthy? Every shard it runs connected and ready, and every named check fine.

/healthz answers from `Health.problem()`. Shard states come from the gateway's events (see
bot/ops/shards_cog.py); other parts of the bot register checks, e.g.

    bot.health.add_check("recording", lambda: None if writer.ok else "the database is down")

A check returns None when fine, or one line saying what is wrong; it must not block.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum

Check = Callable[[], str | None]


class ShardState(Enum):
    CONNECTING = "connecting"  # connected, receiving its servers: not ready yet
    READY = "ready"
    DISCONNECTED = "disconnected"  # dropped; discord.py is reconnecting


class Health:
    """Shard states and named checks; `problem()` is the first thing wrong, or None."""

    def __init__(self, expected_shards: Callable[[], Iterable[int] | None]) -> None:
        # The shards this process should run; None until known (Discord tells the count).
        self._expected_shards = expected_shards
        self._shards: dict[int, ShardState] = {}
        self._checks: dict[str, Check] = {}

    def add_check(self, name: str, check: Check) -> None:
        """Make /healthz fail, naming `name`, whenever `check()` returns a reason."""
        self._checks[name] = check

    def set_shard(self, shard_id: int, state: ShardState) -> ShardState | None:
        """Record a shard's new state; its previous one (None: first seen)."""
        previous = self._shards.get(shard_id)
        self._shards[shard_id] = state
        return previous

    def problem(self) -> str | None:
        """One line saying what is wrong, or None when healthy."""
        expected = self._expected_shards()
        if expected is None:
            return "connecting to Discord: the shard count is not known yet"
        ready = self._ready()
        waiting = [shard for shard in sorted(expected) if shard not in ready]
        if waiting:
            return "; ".join(f"shard {shard} {self._describe(shard)}" for shard in waiting)
        for name, check in self._checks.items():
            reason = check()
            if reason is not None:
                return f"{name}: {reason}"
        return None

    def _describe(self, shard: int) -> str:
        state = self._shards.get(shard)
        return "not connected" if state is None else state.value

    def _ready(self) -> set[int]:
        return {shard for shard, state in self._shards.items() if state is ShardState.READY}
