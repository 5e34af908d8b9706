"""Serving an app over HTTP with slow and greedy clients held off (what ``web.run_app`` does, plus that):

- a connection must complete its request's headers within ``header_seconds`` of opening (or of its last answer,
  when it is kept alive), else it is closed: aiohttp's keep-alive timer, which also runs before the first request;
- a body must arrive within ``body_seconds`` (``body_deadline``, a middleware): else 408, and the connection closes;
- one client address may hold ``per_client`` connections at once: one more is answered 503 and closed at once;
- connections arriving together (a tournament round's players opening their game sockets at once) wait in a listen
  queue of ``BACKLOG`` (the kernel caps it at ``net.core.somaxconn``), not aiohttp's 128: a connection the queue
  cannot hold is dropped by the kernel and its client tries again a second later, then three.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from contextlib import suppress

import uvloop
from aiohttp import web
from aiohttp.typedefs import Middleware
from aiohttp.web_protocol import RequestHandler

from shared.http.errors import json_error

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
TOO_MANY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s")
TOO_MANY_BODY = (b'{"code": "http.too-many-connections", "message": "this address holds too many connections to the '
                 b'league; close some and try again"}')

TURNED_AWAY_SECONDS = 2.0
BACKLOG = 4096


class ConnectionLimit:
    """Counts each client address's open connections on an aiohttp ``Server`` (through its own connection_made and
    connection_lost, wrapped), and turns away one over the limit."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self.open: Counter[str] = Counter()
        self.refused = 0
        self._peers: dict[RequestHandler, str] = {}

    @staticmethod
    def _turn_away(handler: RequestHandler, transport: asyncio.Transport) -> None:
        """The 503, then our side closed (FIN). The handler no longer serves: what the client sends is read and
        dropped (closing with it unread would reset the connection before the client reads the answer), and the
        connection is closed for good shortly, whatever the client does."""
        transport.write(TOO_MANY % (len(TOO_MANY_BODY), TOO_MANY_BODY))
        if transport.can_write_eof():
            transport.write_eof()
        handler.close()
        asyncio.get_running_loop().call_later(TURNED_AWAY_SECONDS, transport.close)

    def install(self, server: web.Server) -> None:
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
            made(handler, transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else "?"
            self._peers[handler] = address
            self.open[address] += 1
            if self.open[address] > self.per_client:
                self.refused += 1
                self._turn_away(handler, transport)

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            lost(handler, exc)
            address = self._peers.pop(handler, None)
            if address is not None:
                self.open[address] -= 1
                if not self.open[address]:
                    del self.open[address]

        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]


def body_deadline(seconds: float) -> Middleware:
    """A middleware reading each request's body first, within ``seconds``; the handler then reads it from memory."""

    @web.middleware
    async def read_in_time(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.can_read_body:
            try:
                async with asyncio.timeout(seconds):
                    await request.read()
            except TimeoutError:
                response = json_error(408, "request.timeout", f"the body did not arrive within {seconds:g}s")
                response.force_close()
                await response.prepare(request)
                await response.write_eof()
                request.protocol.force_close()  # now, not after waiting out the rest of the body (lingering)
                return response
        return await handler(request)

    return read_in_time


async def _serve(app: web.Application, host: str, port: int, header_seconds: float, limit: ConnectionLimit,
                 shutdown_timeout: float) -> None:
    runner = web.AppRunner(app, handle_signals=True, access_log=None, keepalive_timeout=header_seconds,
                           shutdown_timeout=shutdown_timeout)
    await runner.setup()
    try:
        assert runner.server is not None
        limit.install(runner.server)
        await web.TCPSite(runner, host, port, backlog=BACKLOG).start()
        await asyncio.Event().wait()  # until SIGTERM or SIGINT (aiohttp raises GracefulExit)
    finally:
        await runner.cleanup()


def serve(app: web.Application, *, host: str, port: int, header_seconds: float, limit: ConnectionLimit,
          shutdown_timeout: float = 10) -> None:
    """Run ``app`` until SIGTERM or SIGINT, then clean up (cleanup_ctx, on_shutdown) as ``web.run_app`` would."""
    loop = uvloop.new_event_loop()
    asyncio.set_event_loop(loop)
    main = loop.create_task(_serve(app, host, port, header_seconds, limit, shutdown_timeout))
    try:
        loop.run_until_complete(main)
    except (web.GracefulExit, KeyboardInterrupt):
        pass
    finally:
        if not main.done():
            main.cancel()
            with suppress(asyncio.CancelledError):
                loop.run_until_complete(main)
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in pending:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
