"""Without METRICS_PORT nothing serves the metrics: the bot counts them all the same, without
loading prometheus_client or aiohttp's server (about 4 MB of a host's memory)."""

import pytest

from bot.core.policy import Refusal
from bot.ops.health import Health
from bot.ops.metrics import Metrics
from bot.ops.status_server import StatusServer
from tests.support.probe import run_python

PROBE = """
import sys
import bot.__main__
from bot.ops.metrics import Metrics
metrics = Metrics()
metrics.clicks_moved.inc()
metrics.click_seconds.observe(0.001)
metrics.started["ai"].inc()
metrics.count_rest_answer(429, {"X-RateLimit-Scope": "user"})
print(sorted(name for name in ("prometheus_client", "aiohttp.web") if name in sys.modules))
"""


def test_without_metrics_port_neither_prometheus_nor_the_status_server_is_loaded():
    result = run_python(PROBE)
    assert result.stdout.split("\n")[-2] == "[]", result.stderr


def test_unexported_metrics_still_count():
    metrics = Metrics()
    metrics.clicks_moved.inc()
    metrics.clicks_moved.inc()
    metrics.clicks_refused[Refusal.INVALID].inc()
    metrics.click_seconds.observe(0.25)
    assert metrics.clicks_moved.value == 2
    assert metrics.clicks.labels(outcome="refused", reason="invalid").value == 1
    assert (metrics.click_seconds.count, metrics.click_seconds.value) == (1, 0.25)


def test_the_status_server_refuses_metrics_that_are_not_exported():
    with pytest.raises(ValueError, match="not exported"):
        StatusServer(Metrics(), Health(lambda: None))
