"""Every error leaves as JSON ``{code, message}``. Client mistakes are 4xx; only our own faults are 5xx (anything
unexpected is logged and answered by ``shared.http.errors.last_resort``, the middleware around this one)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import msgspec
from aiohttp import web

from shared.bus.replies import RejectedError
from shared.http.errors import json_error
from shared.http.outages import with_retry_after
from shared.messages.json_paths import nesting_at, not_utf8_at
from shared.refusals import status_of

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

MAX_NESTING = 100
"""Where a body that failed on its nesting is said to nest too deep (msgspec follows about a thousand levels)."""
HTTP_CODES = {400: "request.bad", 401: "auth.unauthorized", 403: "auth.forbidden", 404: "route.not-found",
              405: "route.method-not-allowed", 413: "request.too-large", 415: "request.media-type"}


def bad_body(error: msgspec.ValidationError | msgspec.DecodeError) -> web.Response:
    if isinstance(error, msgspec.ValidationError):  # a subclass of DecodeError: valid JSON, wrong shape
        return json_error(400, "request.invalid", str(error))
    return json_error(400, "request.malformed-json", f"the body is not valid JSON: {error}")


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        code = HTTP_CODES.get(error.status, f"http.{error.status}")
        response = json_error(error.status, code, error.text or error.reason)
        if "Allow" in error.headers:  # a 405 says which methods the route takes (RFC 9110)
            response.headers["Allow"] = error.headers["Allow"]
        return response
    except RejectedError as error:
        return with_retry_after(json_error(status_of(error.code), error.code, error.message))
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        return bad_body(error)
    except TimeoutError:
        return with_retry_after(json_error(504, "upstream.timeout", "the league did not answer in time; try again"))
    except UnicodeDecodeError:  # msgspec's, for text in the body that is not UTF-8
        path = not_utf8_at(await request.read())
        return json_error(400, "request.not-utf8", f"the body's text must be UTF-8 - at `{path}`")
    except RecursionError:  # msgspec's, for a body nested deeper than it follows
        path = nesting_at(await request.read(), MAX_NESTING)
        return json_error(400, "request.too-deep", f"the body nests arrays and objects too deep - at `{path}`")
