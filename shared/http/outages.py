"""What the league cannot reach is a 503 with ``Retry-After``, not a 500: a service nobody answers for on NATS
(matchmaking restarting: "no responders"), NATS itself, or PostgreSQL refusing or dropping connections. The client
did nothing wrong and may send the same request again shortly."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import asyncpg
from aiohttp import web
from nats import errors as nats_errors

from shared.http.errors import json_error
from shared.logging import get_logger

RETRY_AFTER_SECONDS = 2
log = get_logger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
BUS_DOWN = (nats_errors.ConnectionClosedError, nats_errors.ConnectionReconnectingError,
            nats_errors.StaleConnectionError, nats_errors.OutboundBufferLimitError,
            nats_errors.ConnectionDrainingError, nats_errors.NoServersError)
STORE_DOWN = (asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError,
              asyncpg.exceptions.TooManyConnectionsError, ConnectionError)
"""``ConnectionError`` is the OS's word for a refused or reset connection: PostgreSQL's, as only the store opens
connections from a request (nats-py reconnects in the background)."""


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
    except TimeoutError:
        raise  # the league's own "did not answer in time" (504), answered by the service's error middleware
    except nats_errors.NoRespondersError:
        if _streaming(request):
            raise
        answer = unavailable("service.unavailable", "the service for this request is not answering now (it may be "
                                                    "restarting); try again")
    except BUS_DOWN as error:
        if _streaming(request):
            raise
        answer = unavailable("bus.unavailable", f"the league's message bus is not reachable now "
                                                f"({type(error).__name__}); try again")
    except STORE_DOWN as error:
        if _streaming(request):
            raise
        answer = unavailable("store.unavailable", f"the league's database is not reachable now "
                                                  f"({type(error).__name__}); try again")
    log.warning("http.unavailable", method=request.method, path=request.path, reason=answer.text)
    return answer


def _streaming(request: web.Request) -> bool:
    """A stream (SSE, WebSocket) already started: no other answer can be sent; aiohttp closes it."""
    return request.writer is not None and request.writer.output_size > 0
