"""Every error a client sees is JSON ``{code, message}`` with a 4xx status; never a 500 for what it sent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from shared.http.route_metrics import ERROR_CODE
from shared.logging import get_logger

log = get_logger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
CLIENT_GONE = 499
"""What the metrics count for a request whose client left before its answer was written (nginx's number)."""


def json_error(status: int, code: str, message: str) -> web.Response:
    response = web.json_response({"code": code, "message": message}, status=status)
    response[ERROR_CODE] = code
    return response


@web.middleware
async def last_resort(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The first error middleware of the gateway and standings: an error nothing else answered is logged and leaves
    as a JSON 500 ``internal``. Bad input must never get here; a test that sees this code has found a bug."""
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except ConnectionResetError:
        # The client went away (a closed tab, a dropped SSE or WebSocket): normal, and nobody is left to answer.
        log.debug("http.client-gone", method=request.method, path=request.path)
        return web.Response(status=CLIENT_GONE)
    except Exception:
        log.exception("http.failed", method=request.method, path=request.path)
        if request.writer.output_size > 0:
            raise  # a stream (SSE, WebSocket) already started: aiohttp closes it
        return json_error(500, "internal", "the service failed on this request; it was logged")
