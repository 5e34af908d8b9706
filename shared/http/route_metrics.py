"""Every HTTP route of every service measured: how long each request took and how it ended (status and, for a
JSON error, its ``code``), labelled by the route's pattern (``POST /v1/games/{game_id}/commands``), never by a
path a client chose. A route's histogram child is made once and kept: a request costs a dict lookup and an
``observe``."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Histogram

ERROR_CODE = web.ResponseKey("error_code", str)
"""Set by ``shared.http.errors.json_error`` on the response it makes: the ``code`` the client reads."""
UNMATCHED = "unmatched"
"""The label of requests no route took (404, 405): one label for every path a client may invent."""
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RouteMetrics:
    def __init__(self, registry: CollectorRegistry) -> None:
        self.duration = Histogram("http_request_duration_seconds", "HTTP requests by route: time to the handler's "
                                  "answer (a WebSocket or SSE stream: its whole life)", ["route"],
                                  registry=registry, buckets=BUCKETS)
        self.responses = Counter("http_responses", "HTTP responses by route, status and error code (empty: no error)",
                                 ["route", "status", "code"], registry=registry)
        self._timers: dict[str, Callable[[float], None]] = {}
        self._counts: dict[tuple[str, int, str], Callable[[], None]] = {}

    def done(self, route: str, status: int, code: str, seconds: float) -> None:
        observe = self._timers.get(route)
        if observe is None:
            observe = self._timers[route] = self.duration.labels(route).observe
        observe(seconds)
        count = self._counts.get((route, status, code))
        if count is None:
            count = self._counts[(route, status, code)] = self.responses.labels(route, str(status), code).inc
        count()


def route_of(request: web.Request) -> str:
    info = request.match_info
    resource = info.route.resource if info.http_exception is None else None
    return UNMATCHED if resource is None else f"{request.method} {resource.canonical}"


def measured(metrics: RouteMetrics) -> Callable[[web.Request, Handler], Awaitable[web.StreamResponse]]:
    """The outermost middleware: it sees the answer every other middleware made, 500s included."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.perf_counter()
        status, code = 500, "internal"
        try:
            response = await handler(request)
            status, code = response.status, response.get(ERROR_CODE, "")
            return response
        except web.HTTPException as error:
            status, code = error.status, ""
            raise
        finally:
            metrics.done(route_of(request), status, code, time.perf_counter() - started)

    return middleware
