"""What the league cannot reach is a 503 with ``Retry-After``, not a 500: a service nobody answers for on NATS
(matchmaking restarting: "no responders"), NATS itself, or PostgreSQL refusing or dropping connections. The client
did nothing wrong and may send the same request again shortly."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from shared.http.errors import json_error
from shared.logging import get_logger
from shared.unavailable import unavailable as unavailable_reason

RETRY_AFTER_SECONDS = 2
log = get_logger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def unavailable(code: str, message: str) -> web.Response:
    response = json_error(503, code, message)
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def with_retry_after(response: web.Response) -> web.Response:
    """A 503 or 504 the service answered itself (busy, timed out) says when to try again too."""
    if response.status in (503, 504):
        response.headers.setdefault("Retry-After", str(RETRY_AFTER_SECONDS))
    return response


@web.middleware
async def outages(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except Exception as error:
        named = unavailable_reason(error)
        if named is None or _streaming(request):
            raise  # not an outage; or a stream (SSE, WebSocket) already started: aiohttp closes it
        log.warning("http.unavailable", method=request.method, path=request.path, code=named[0])
        return unavailable(*named)


def _streaming(request: web.Request) -> bool:
    return request.writer is not None and request.writer.output_size > 0
