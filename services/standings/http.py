"""JSON responses with ETags (If-None-Match -> 304), paging parameters, and 4xx errors for bad input."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import msgspec
from aiohttp import web

from shared.http.errors import json_error
from shared.messages.readable import UnreadableEvent

MAX_LIMIT = 500
DEFAULT_LIMIT = 100
BIGINT_MAX = 2**63 - 1
INT_MAX = 2**31 - 1
DIGITS = re.compile(r"[0-9]{1,19}", re.ASCII)
"""A whole number as people write it: ASCII digits only (``str.isdigit`` also takes "²" and "٣")."""
_encoder = msgspec.json.Encoder()


class BadRequest(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def not_found(what: str, key: str) -> BadRequest:
    return BadRequest(f"standings.unknown-{what}", f"no {what} {key!r}", 404)


def respond(request: web.Request, payload: Any) -> web.Response:
    body = _encoder.encode(payload)
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
        return web.Response(status=304, headers=headers)
    return web.Response(body=body, content_type="application/json", headers=headers)


def whole_number(text: str, least: int, most: int) -> int | None:
    """``text`` as an int from ``least`` to ``most``, or None for anything else."""
    if not DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if least <= value <= most else None


def number_of(request: web.Request, name: str, default: int, least: int, most: int) -> int:
    text = request.query.get(name)
    if text is None:
        return default
    value = whole_number(text, least, most)
    if value is None:
        raise BadRequest(f"standings.bad-{name}", f"{name} must be a whole number from {least} to {most},"
                                                  f" not {text!r}")
    return value


def limit_of(request: web.Request) -> int:
    return number_of(request, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)


def check_parameters(request: web.Request) -> None:
    """No path or query parameter may hold a NUL: PostgreSQL text cannot, so no row could ever match it."""
    for where, values in (("path", request.match_info), ("query", request.query)):
        for name, value in values.items():
            if "\x00" in value or "\x00" in name:
                raise BadRequest(f"standings.bad-{name.replace(chr(0), '')}",
                                 f"the {where} parameter {name!r} may not contain the NUL character")


def flag_of(request: web.Request, name: str) -> bool | None:
    text = request.query.get(name)
    if text is None:
        return None
    if text not in ("true", "false"):
        raise BadRequest(f"standings.bad-{name}", f"{name} must be true or false, not {text!r}")
    return text == "true"


def page(items: list[Any], limit: int, cursor: Callable[[Any], str]) -> dict[str, Any]:
    """``items`` fetched with limit + 1: the extra one only says whether there is a next page."""
    more = len(items) > limit
    items = items[:limit]
    return {"items": items, "next": cursor(items[-1]) if more and items else None}


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bad input as a 4xx naming the parameter; anything unexpected goes on to ``last_resort`` (a logged 500)."""
    for attempt in range(2):
        try:
            check_parameters(request)
            return await handler(request)
        except BadRequest as error:
            return json_error(error.status, error.code, error.message)
        except UnreadableEvent as error:  # a stream whose stored data were changed behind the store's back
            return json_error(409, error.code, error.message)
        except asyncpg.UndefinedTableError:
            # A rebuild swapped generations and dropped the old tables between two reads: read again.
            if attempt:
                raise
    raise AssertionError("unreachable")
