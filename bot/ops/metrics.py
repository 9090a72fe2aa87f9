"""What the bot counts, for Prometheus: one registry per bot (tests run several in a process).

Every metric is named `tictactoe_*` (docs/operations.md, "Health and metrics", lists them). The
click path only increments children bound here once (a `.labels()` look-up takes a lock and a
dict: about as long as the increment itself); live games and gateway latency are read when scraped.

prometheus_client (its RSS: benchmarks/import_memory.py) is imported only when the metrics are
exported (METRICS_PORT): otherwise the same names count in plain Python numbers that nothing
reads, at a fraction of the cost of prometheus_client's locked values (docs/performance.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bot.core.policy import Refusal

# Seconds; a click is handled in well under a millisecond, an answer from Discord takes longer.
HANDLING_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
WRITE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

GAME_KINDS = ("ai", "friend")
# How a game ends: a line or a full board, a resignation, or no move in time.
GAME_RESULTS = ("won", "draw", "resigned", "expired")
CLICK_OUTCOMES = ("moved", "raced", "other")


class Metrics:
    """The bot's metrics: Prometheus's, in a registry of their own, when `exported`; otherwise
    the same counts, kept in memory only (`registry` is None)."""

    def __init__(self, *, exported: bool = False) -> None:
        kinds: Any
        if exported:
            import prometheus_client

            self.registry: Any = prometheus_client.CollectorRegistry()
            kinds = prometheus_client
        else:
            self.registry = None
            kinds = _Local
        registry = self.registry
        Counter, Gauge, Histogram = kinds.Counter, kinds.Gauge, kinds.Histogram
        self.games_live = Gauge(
            "tictactoe_games_live",
            "Games and open challenges this process holds in memory",
            registry=registry,
        )
        self.games_started = Counter(
            "tictactoe_games_started",
            "Games started (a friend's game when the challenge is accepted), by kind",
            ["kind"],
            registry=registry,
        )
        self.games_finished = Counter(
            "tictactoe_games_finished",
            "Games finished, by kind and result",
            ["kind", "result"],
            registry=registry,
        )
        self.clicks = Counter(
            "tictactoe_clicks",
            "Button clicks handled, by outcome: moved (a move was played), refused (with the "
            "reason), raced (another click changed the game first), other (hint, review, "
            "resign, rematch, challenge answers, expiry)",
            ["outcome", "reason"],
            registry=registry,
        )
        self.handling_seconds = Histogram(
            "tictactoe_handling_seconds",
            "Time from receiving an interaction to having answered it, by kind",
            ["kind"],
            buckets=HANDLING_BUCKETS,
            registry=registry,
        )
        self.errors = Counter(
            "tictactoe_errors",
            "Unexpected errors in handlers (each logged with its traceback), by where",
            ["where"],
            registry=registry,
        )
        self.starts_refused = Counter(
            "tictactoe_starts_refused",
            "/tictactoe and challenges refused, by reason: full (the channel has as many games "
            "as its server allows), playing_here, opponent_playing, challenge_pending, "
            "cooldown, self_challenge, bot_opponent",
            ["reason"],
            registry=registry,
        )
        self.discord_rest_errors = Counter(
            "tictactoe_discord_rest_errors",
            "Error answers from Discord's REST API (rate limits included), by HTTP status",
            ["status"],
            registry=registry,
        )
        self.discord_rate_limits = Counter(
            "tictactoe_discord_rate_limits",
            "429 answers from Discord's REST API, by scope (user, global, shared)",
            ["scope"],
            registry=registry,
        )
        self.gateway_reconnects = Counter(
            "tictactoe_gateway_reconnects",
            "Gateway connections resumed or made again after the first, by shard",
            ["shard"],
            registry=registry,
        )
        self.pending_records = Gauge(
            "tictactoe_pending_records",
            "Finished games waiting to be written to the database",
            registry=registry,
        )
        self.database_write_seconds = Histogram(
            "tictactoe_database_write_seconds",
            "Time to write a batch of finished games to the database",
            buckets=WRITE_BUCKETS,
            registry=registry,
        )
        self.settings_changed = Counter(
            "tictactoe_settings_changed",
            "Server settings changed through /settings (each saved change), by setting",
            ["setting"],
            registry=registry,
        )
        self._latencies: Callable[[], Iterable[tuple[int, float]]] = tuple
        if registry is not None:
            registry.register(_gateway_latency(self))
        # Bound once: the click path increments these directly.
        self.clicks_moved = self.clicks.labels(outcome="moved", reason="")
        self.clicks_raced = self.clicks.labels(outcome="raced", reason="")
        self.clicks_other = self.clicks.labels(outcome="other", reason="")
        self.clicks_refused = {
            reason: self.clicks.labels(outcome="refused", reason=reason.name.lower())
            for reason in Refusal
        }
        self.start_refusals = {
            reason: self.starts_refused.labels(
                reason="full" if reason is Refusal.BUSY else reason.name.lower()
            )
            for reason in Refusal
        }
        self.click_seconds = self.handling_seconds.labels(kind="click")
        self.command_seconds = self.handling_seconds.labels(kind="command")
        self.started = {kind: self.games_started.labels(kind=kind) for kind in GAME_KINDS}
        self.finished = {
            (kind, result): self.games_finished.labels(kind=kind, result=result)
            for kind in GAME_KINDS
            for result in GAME_RESULTS
        }
        self.click_errors = self.errors.labels(where="click")
        self.command_errors = self.errors.labels(where="command")
        self.expiry_errors = self.errors.labels(where="expiry")

    def count_live_games(self, count: Callable[[], int]) -> None:
        """Read the number of live games from `count` whenever the metrics are scraped."""
        self.games_live.set_function(count)

    def watch_gateway(self, latencies: Callable[[], Iterable[tuple[int, float]]]) -> None:
        """Read each shard's gateway latency, (shard id, seconds) pairs, when scraped."""
        self._latencies = latencies

    def reconnected(self, shard_id: int) -> None:
        self.gateway_reconnects.labels(shard=str(shard_id)).inc()

    def count_rest_answer(self, status: int, headers: Any) -> None:
        """An error answer from Discord's REST API (see bot/ops/rest_errors.py)."""
        if status < 400:
            return
        self.discord_rest_errors.labels(status=str(status)).inc()
        if status == 429:
            scope = headers.get("X-RateLimit-Scope") or "unknown"
            self.discord_rate_limits.labels(scope=scope).inc()


def _gateway_latency(metrics: Metrics) -> Any:
    """tictactoe_gateway_latency_seconds{shard}: discord.py's heartbeat round trip, per shard,
    read at scrape time (NaN until a shard's first heartbeat is answered)."""
    from prometheus_client.core import GaugeMetricFamily
    from prometheus_client.registry import Collector

    class GatewayLatency(Collector):
        def collect(self) -> Iterator[GaugeMetricFamily]:
            family = GaugeMetricFamily(
                "tictactoe_gateway_latency_seconds",
                "Time Discord's gateway took to answer the last heartbeat, by shard",
                labels=["shard"],
            )
            for shard_id, latency in metrics._latencies():
                value = latency if math.isfinite(latency) else math.nan
                family.add_metric([str(shard_id)], value)
            yield family

        def describe(self) -> Iterator[GaugeMetricFamily]:
            return self.collect()

    return GatewayLatency()


class _LocalValue:
    """A counter, gauge or histogram child that only remembers (no lock: the event loop's
    thread is the only one counting)."""

    __slots__ = ("count", "value")

    def __init__(self) -> None:
        self.value = 0.0
        self.count = 0

    def inc(self, amount: float = 1) -> None:
        self.value += amount

    def observe(self, amount: float) -> None:
        self.value += amount
        self.count += 1

    def set_function(self, f: Callable[[], float]) -> None:
        pass  # read only when scraped, and nothing scrapes


class _LocalMetric(_LocalValue):
    """What prometheus_client's constructors make, for the arguments the bot passes them."""

    __slots__ = ("_children",)

    def __init__(self, name: str, help_: str, labelnames: Iterable[str] = (), **_: Any) -> None:
        super().__init__()
        self._children: dict[tuple[tuple[str, str], ...], _LocalValue] = {}

    def labels(self, **labels: str) -> _LocalValue:
        return self._children.setdefault(tuple(sorted(labels.items())), _LocalValue())


class _Local:
    Counter = Gauge = Histogram = _LocalMetric
