"""One correlation id per HTTP request: taken from ``X-Correlation-Id`` (or made), bound to every log line and to
every NATS request and stored event the request causes, and returned in the response's ``X-Correlation-Id``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from shared.logging import correlation, correlation_id_or_new, get_logger

HEADER = "X-Correlation-Id"
REQUEST_KEY = "correlation_id"
log = get_logger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def correlated(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The outermost middleware: whatever runs inside (the handler, error middlewares) sees the id."""
    correlation_id = request[REQUEST_KEY] = correlation_id_or_new(request.headers.get(HEADER))
    with correlation(correlation_id):
        response = await handler(request)
        log.debug("http.handled", method=request.method, path=request.path, status=response.status)
        return response


async def echo_correlation_id(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: every response carries the id, errors, streams and WebSockets included."""
    if REQUEST_KEY in request:
        response.headers[HEADER] = request[REQUEST_KEY]


def use_correlation(app: web.Application) -> None:
    app.middlewares.insert(0, correlated)
    app.on_response_prepare.append(echo_correlation_id)
