"""Every HTTP route of every service measured: how long each request took and how it ended (status and, for a
JSON error, its ``code``), labelled by the route's pattern (``POST /v1/games/{game_id}/commands``), never by a
path a client chose. A route's histogram child is made once and kept: a request costs a dict lookup and an
``observe``."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware
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
        self._routes: dict[tuple[str, object], _Route] = {}

    def route(self, request: web.Request) -> _Route:
        """The route's children, made on its first request (the key is the method and the route's resource)."""
        info = request.match_info
        resource = info.route.resource if info.http_exception is None else None
        key = (UNMATCHED if resource is None else request.method, resource)  # a made-up method makes no new key
        found = self._routes.get(key)
        if found is None:
            label = UNMATCHED if resource is None else f"{request.method} {resource.canonical}"
            found = self._routes[key] = _Route(self, label)
        return found


class _Route:
    def __init__(self, metrics: RouteMetrics, label: str) -> None:
        self._metrics, self._label = metrics, label
        self.observe: Callable[[float], None] = metrics.duration.labels(label).observe
        self._counts: dict[tuple[int, str], Callable[[], None]] = {}

    def done(self, status: int, code: str, seconds: float) -> None:
        self.observe(seconds)
        count = self._counts.get((status, code))
        if count is None:
            count = self._counts[(status, code)] = self._metrics.responses.labels(self._label, str(status), code).inc
        count()


def measured(metrics: RouteMetrics) -> Middleware:
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
            metrics.route(request).done(status, code, time.perf_counter() - started)

    return middleware
