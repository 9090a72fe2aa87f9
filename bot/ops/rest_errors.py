"""Discord's error answers, counted as discord.py reads them (for /metrics).

discord.py offers an aiohttp trace (`http_trace`) for this, but any trace makes aiohttp send
its signals on every request, on every click's answer (their CPU per request, measured
against a local server: docs/performance.md). Wrapping the session's
`request` costs one small object per request instead, and sees the same answers: every REST
call, and every interaction callback (an Interaction takes the same session).
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from bot.discord_internals import http_session, replace_http_session
from bot.ops.metrics import Metrics


def count_rest_errors(http: Any, metrics: Metrics) -> None:
    """Count the error answers of `http`'s session, once it exists (after login)."""
    session = http_session(http)
    if session and not isinstance(session, CountingSession):
        # Interactions take their session from the client: their callbacks are counted too.
        replace_http_session(http, CountingSession(session, metrics))


class CountingSession:
    """discord.py's aiohttp session, with each answer's status looked at as it arrives."""

    def __init__(self, session: Any, metrics: Metrics) -> None:
        self._session = session
        self._metrics = metrics

    def request(self, method: str, url: Any, **kwargs: Any) -> _CountedRequest:
        return _CountedRequest(self._session.request(method, url, **kwargs), self._metrics)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)  # closed, close, ws_connect, get, ...

    def __bool__(self) -> bool:
        return bool(self._session)


class _CountedRequest:
    __slots__ = ("_metrics", "_request")

    def __init__(self, request: Any, metrics: Metrics) -> None:
        self._request = request
        self._metrics = metrics

    async def __aenter__(self) -> Any:
        response = await self._request.__aenter__()
        if response.status >= 400:
            self._metrics.count_rest_answer(response.status, response.headers)
        return response

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        return await self._request.__aexit__(exc_type, exc, tb)  # type: ignore[no-any-return]
