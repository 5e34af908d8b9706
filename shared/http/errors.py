"""Every error a client sees is JSON ``{code, message}`` with a 4xx status; never a 500 for what it sent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from shared.logging import get_logger

log = get_logger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"code": code, "message": message}, status=status)


@web.middleware
async def last_resort(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The first error middleware of the gateway and standings: an error nothing else answered is logged and leaves
    as a JSON 500 ``internal``. Bad input must never get here; a test that sees this code has found a bug."""
    try:
        return await handler(request)
    except web.HTTPException:
        raise
    except Exception:
        log.exception("http.failed", method=request.method, path=request.path)
        if request.writer.output_size > 0:
            raise  # a stream (SSE, WebSocket) already started: aiohttp closes it
        return json_error(500, "internal", "the service failed on this request; it was logged")
