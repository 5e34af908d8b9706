"""A request aiohttp cannot even parse (a duplicated ``Content-Type``, a header line too long, a broken request
line) is answered before any middleware runs, as ``text/plain``. Every other 4xx is JSON ``{code, message}``;
these must be too, and they are the client's fault: logged at debug, not as the server's error with a traceback.

aiohttp builds that answer in ``RequestHandler.handle_error`` and offers no hook for it, so ``answer_parse_errors_
as_json`` makes its servers use a subclass that answers 4xx as JSON (5xx stay aiohttp's own)."""

from __future__ import annotations

import json

from aiohttp import web, web_protocol, web_server
from aiohttp.web_request import BaseRequest

from shared.logging import get_logger

log = get_logger(__name__)
CODES = {400: "request.bad-http", 413: "request.too-large", 414: "request.uri-too-long",
         431: "request.headers-too-large"}


class JsonParseErrors(web_protocol.RequestHandler):
    def handle_error(self, request: BaseRequest, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if not 400 <= status < 500 or request.writer.output_size > 0:
            return super().handle_error(request, status, exc, message)
        text = message or (str(exc) if exc is not None else "the request could not be read")
        log.debug("http.unparsable-request", status=status, reason=text)
        body = json.dumps({"code": CODES.get(status, f"http.{status}"), "message": text})
        response = web.Response(status=status, text=body, content_type="application/json")
        response.force_close()
        return response


def answer_parse_errors_as_json() -> None:
    """For the servers this process starts from now on."""
    web_server.RequestHandler = JsonParseErrors  # type: ignore[attr-defined]
