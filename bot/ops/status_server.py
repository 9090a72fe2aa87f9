"""METRICS_PORT: /metrics for Prometheus and /healthz for a container or systemd watchdog."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.ops.health import Health
from bot.ops.metrics import Metrics

if TYPE_CHECKING:
    from aiohttp import web

log = logging.getLogger(__name__)


class StatusServerError(OSError):
    """The address could not be listened on (in use, not this machine's, not allowed)."""


class StatusServer:
    """A small aiohttp server, on the bot's event loop, answering from `metrics` and `health`."""

    def __init__(self, metrics: Metrics, health: Health) -> None:
        # Imported here: a bot without METRICS_PORT never loads aiohttp's server (its RSS:
        # benchmarks/import_memory.py).
        from aiohttp import web

        if metrics.registry is None:
            raise ValueError("the metrics are not exported: Metrics(exported=True)")
        self.metrics = metrics
        self.health = health
        app = web.Application()
        app.router.add_get("/metrics", self.serve_metrics)
        app.router.add_get("/healthz", self.serve_health)
        self._runner = web.AppRunner(app, access_log=None)
        self.port: int | None = None  # once started: the port it listens on

    async def start(self, host: str, port: int) -> None:
        """Listen on host:port (port 0: any free port, then in `self.port`)."""
        from aiohttp import web

        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            reason = error.strerror or str(error)
            raise StatusServerError(f"cannot listen on {host}:{port} ({reason})") from error
        self.port = self._runner.addresses[0][1]
        log.info("Serving /metrics and /healthz on http://%s:%d", host, self.port)

    async def close(self) -> None:
        await self._runner.cleanup()

    async def serve_metrics(self, request: web.Request) -> web.Response:
        from aiohttp import web
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def serve_health(self, request: web.Request) -> web.Response:
        from aiohttp import web

        problem = self.health.problem()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"{problem}\n")
